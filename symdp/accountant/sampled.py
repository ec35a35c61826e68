r"""Dominating pairs of the sampled events, beyond the subsampled Gaussian of ``pairs.py``
(docs/accountant.md §1b; issue #23).  Every pair is given by its loss tails
:math:`A(y) = P(L \ge y)`, :math:`B(y) = Q(L \ge y)` as Arb balls, as in ``pairs.py``.

* :class:`PoissonSubsampled` -- Poisson sampling with rate q of a mechanism whose pair (P, Q)
  is symmetric: remove ((1−q)Q + qP, Q), add (Q, (1−q)Q + qP) (Zhu-Dong-Wang 2022,
  Thm. 11 / Prop. 30; with P, Q Gaussian it is ``pairs.PoissonGaussian``, a test checks it).
* :class:`RevealedMultiplicity` -- the bootstrap's **dominating** pair: the multiplicity j of
  the changed record is revealed (docs/bagging.md, "Bagging with a private base learner").
* :class:`BootstrapSumPair` -- a *realised* pair of the bootstrapped Gaussian sum query (two
  actual neighbouring datasets); it bounds the mechanism's δ from below only, and only its
  binned (lower) discretisation is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
from flint import arb, ctx, fmpz

from ..core.errors import InvalidParameterError
from ..events import PoissonSampled
from ..events import eps_delta as eps_delta_mechanism
from ..events.backends import ARB
from .pairs import (SYMMETRIC, EpsDelta, Gaussian, Laplace, Pair, ball, exact, phi_bar, poisson_tails,
                    sampled_atoms, sampled_support)


@dataclass(frozen=True)
class PoissonSubsampled(Pair):
    r"""Poisson sampling with rate q of a mechanism with a symmetric pair (P, Q): remove
    ((1−q)Q + qP, Q), add (Q, (1−q)Q + qP) -- the pair of ``PoissonSampled(base.event, q)``,
    tails :func:`symdp.accountant.pairs.poisson_tails` (with a Gaussian base this is
    ``pairs.PoissonGaussian`` but for its loss window, a test checks it)."""

    base: Pair
    q: Fraction
    direction: str = "remove"

    def __post_init__(self):
        if not isinstance(self.base, SYMMETRIC):
            raise InvalidParameterError(f"base must be a symmetric pair; got base={self.base!r}")
        if self.direction not in ("remove", "add"):
            raise InvalidParameterError(f"direction must be 'remove' or 'add'; got direction={self.direction!r}")
        event = PoissonSampled(self.base.event, self.q)
        object.__setattr__(self, "q", event.q)
        object.__setattr__(self, "event", event)

    @property
    def name(self):
        return f"Poisson-sampled {self.base.name} ({self.direction}), q={float(self.q):g}"

    def tails(self, y):
        return poisson_tails(ARB, self.base.tails, self.base.lower_tails, ball(self.q), self.direction, y,
                             self.base.at_most_tails)

    def loss_window(self, tail):
        lo, hi = self.base.loss_window(tail)
        q = float(self.q)
        top = math.log1p(q * math.expm1(min(hi, 700.0)))
        least = math.log1p(-q)
        return (least, top) if self.direction == "remove" else (-top, -least)

    def loss_support(self):
        return sampled_support(self.base.loss_support(), self.q, self.direction)

    def loss_atoms(self):
        return sampled_atoms(self.base.loss_atoms(), float(self.q), self.direction)


class Identical(Pair):
    """P = Q (the changed record not drawn): loss 0 with probability 1."""

    name = "identical"

    def tails(self, y):
        if y <= 0:
            return arb(1), arb(1)
        if y > 0:
            return arb(0), arb(0)
        raise ArithmeticError("grid node ball contains 0")

    def loss_window(self, tail):
        return 0.0, 0.0

    def loss_support(self):
        return Fraction(0), Fraction(0)


#: components of weight below 2^-WEIGHT_BITS are replaced by a perfectly distinguishable pair
WEIGHT_BITS = 40


@dataclass(frozen=True)
class RevealedMultiplicity(Pair):
    r"""The mixture pair with the component revealed:
    :math:`\tilde P = \sum_j w_j\,\delta_j \otimes P_j`, :math:`\tilde Q = \sum_j w_j\,\delta_j \otimes Q_j`,
    whose loss at (j, x) is the loss of component j, so
    :math:`A(y) = \sum_j w_j A_j(y) + r`, :math:`B(y) = \sum_j w_j B_j(y)`.

    Components of weight below :math:`2^{-40}` are replaced by a perfectly distinguishable pair
    (P-mass at loss +∞, Q-mass at −∞), total weight r: that pair dominates every pair, so the
    result still dominates (it costs at most r in δ per step).  Components are
    ``(weight, pair)`` with exact weights summing to 1 (checked)."""

    components: tuple
    label: str = "revealed mixture"

    def __post_init__(self):
        total = sum(Fraction(w) for w, _ in self.components)
        if total != 1:
            raise InvalidParameterError(f"the weights of a mixture must sum to 1; got {total}")
        floor = Fraction(1, 2 ** WEIGHT_BITS)
        kept = tuple((Fraction(w), p) for w, p in self.components
                     if Fraction(w) >= floor and p is not None)
        object.__setattr__(self, "kept", kept)
        object.__setattr__(self, "residual", 1 - sum(w for w, _ in kept))
        object.__setattr__(self, "_balls", {})

    @property
    def name(self):
        return self.label

    def _weight_balls(self):
        """The balls of the residual and of the kept weights, made once per Arb precision
        (a weight of the bootstrap can have thousands of digits)."""
        prec = ctx.prec
        if prec not in self._balls:
            self._balls[prec] = (ball(self.residual), [ball(w) for w, _ in self.kept])
        return self._balls[prec]

    def tails(self, y):
        residual, weights = self._weight_balls()
        a, b = residual, arb(0)
        for wb, (_, pair) in zip(weights, self.kept):
            aj, bj = pair.tails(y)
            a += wb * aj
            b += wb * bj
        return a, b

    def loss_window(self, tail):
        windows = [pair.loss_window(min(0.5, tail / float(w))) for w, pair in self.kept]
        return min(lo for lo, _ in windows), max(hi for _, hi in windows)

    def loss_support(self):
        """The component losses (the residual is +oo): at most the largest component's bound;
        +oo with probability r + sum_j w_j m_j."""
        parts = [pair.loss_support() for _, pair in self.kept]
        if any(p is None for p in parts):
            return None
        return (max(y for y, _ in parts),
                self.residual + sum(w * m for (w, _), (_, m) in zip(self.kept, parts)))


def group_pair(base, j: int) -> Pair:
    r"""The pair of ``base`` run on datasets differing in j records (j copies of one record):

    * Gaussian noise :math:`N(0,\sigma^2)`, sensitivity 1: a shift by j, :math:`G_{j/\sigma}`;
    * Laplace scale b: Lap(j, b) vs Lap(0, b), the Laplace pair of scale b/j;
    * an (ε, δ)-DP base: group privacy, :math:`(j\varepsilon, \delta\sum_{l<j} e^{l\varepsilon})`
      (e.g. Dwork-Roth 2014, Thm. 2.2 and its δ version; Vadhan 2017, Lemma 2.2), as the pair
      of :math:`f_{j\varepsilon, \delta_j}` -- a bound, valid for every (ε, δ)-DP base.
    ``base`` is a ``symdp.events`` noise event (read by attribute, duck-typed)."""
    if j == 0:
        return Identical()
    kind = getattr(base, "kind", None)
    if kind == "gaussian":
        return Gaussian(base.at_distance(j).mu)
    if kind == "laplace":
        return Laplace(base.at_distance(j).b)
    if kind == "eps_delta":
        # delta_j = delta (e^{j eps} - 1)/(e^eps - 1) is irrational: an exact rational above it
        e, d = base.eps, base.delta
        if d == 0:
            return EpsDelta(j * e, 0)
        dj = _rational_above(eps_delta_mechanism.group_delta(ARB, ball(e), ball(d), j))
        if dj >= 1:
            dj = Fraction(1) - Fraction(1, 2 ** 200)
        return EpsDelta(j * e, dj)
    raise InvalidParameterError(f"sampling with replacement supports Gaussian, Laplace and eps_delta base "
                                f"events; got {kind!r}")


def _rational_above(x: arb) -> Fraction:
    m, e = x.upper().man_exp()
    m, e = int(m), int(e)
    return Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e)


#: exact weights C(k, j) n^-j (1 - 1/n)^(k-j) while their denominator n^k has at most this many
#: bits; beyond, each weight is a dyadic rational just below it (``_weight_below``)
EXACT_WEIGHT_BITS = 4096
#: the bits of a weight rounded down (beyond :data:`EXACT_WEIGHT_BITS`)
ROUNDED_WEIGHT_BITS = 128


def multiplicities(n: int, k: int, bits: int = WEIGHT_BITS + 8) -> range:
    """The multiplicities j whose weight :math:`\binom{k}{j} n^{-j}(1-1/n)^{k-j}` is above
    about :math:`2^{-\text{bits}}` (in floating point, from the mode outwards: the weights
    are unimodal in j).  A choice only: any weight left out goes to the perfectly
    distinguishable component, which dominates whatever it replaces."""
    def log2_weight(j):
        return (math.lgamma(k + 1) - math.lgamma(j + 1) - math.lgamma(k - j + 1)
                + (k - j) * math.log1p(-1 / n) - j * math.log(n)) / math.log(2)

    mode = min(k, (k + 1) // n)
    lo = hi = mode
    while lo > 0 and log2_weight(lo - 1) > -bits:
        lo -= 1
    while hi < k and log2_weight(hi + 1) > -bits:
        hi += 1
    return range(lo, hi + 1)


def _weight_below(n: int, k: int, j: int) -> Fraction:
    """A dyadic rational (a multiple of 2^-ROUNDED_WEIGHT_BITS) at most the weight of
    multiplicity j, from an Arb ball of it (no integer of k log2 n bits is formed)."""
    with flint.ctx.workprec(ROUNDED_WEIGHT_BITS + 64):   # the lower end read at this precision
        w = arb(fmpz(math.comb(k, j))) * (arb(n - 1) / n) ** (k - j) / arb(n) ** j
        low = _rational_below(w) if w.lower() > 0 else Fraction(0)
    return Fraction(math.floor(low * 2 ** ROUNDED_WEIGHT_BITS), 2 ** ROUNDED_WEIGHT_BITS)


def _rational_below(x: arb) -> Fraction:
    m, e = x.lower().man_exp()
    m, e = int(m), int(e)
    return Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e)


def bootstrap_upper(base, n: int, k: int) -> RevealedMultiplicity:
    """The dominating pair of one bootstrap round (k draws from n records) of ``base``.

    The weights w_j of the multiplicities that matter (:func:`multiplicities`) are exact
    when :math:`n^k` has at most :data:`EXACT_WEIGHT_BITS` bits, else rounded down; every
    weight not given (the other multiplicities, the rounding) goes to the perfectly
    distinguishable component of :class:`RevealedMultiplicity`.  That is valid: the pair
    with part of a component's weight moved to (δ_⊤, δ_⊥) is mapped onto the original by
    the post-processing that answers ⊤ with a draw from the moved part of P and ⊥ with one
    from the moved part of Q, so it dominates the original."""
    floor = Fraction(1, 2 ** WEIGHT_BITS)
    exact = k * math.log2(n) <= EXACT_WEIGHT_BITS
    comps = []
    for j in multiplicities(n, k):
        w = (math.comb(k, j) * Fraction(1, n) ** j * Fraction(n - 1, n) ** (k - j)) if exact \
            else _weight_below(n, k, j)
        comps.append((w, group_pair(base, j) if w >= floor else None))
    rest = 1 - sum(w for w, _ in comps)
    if rest:
        comps.append((rest, None))
    return RevealedMultiplicity(tuple(comps), f"bootstrap (multiplicity revealed), n={n}, k={k}")


#: the realised pair's components of weight below 2^-REALISED_BITS are enclosed together, by
#: the terms of the first and the last of them, rather than evaluated one by one
REALISED_BITS = 64


@dataclass(frozen=True)
class BootstrapSumPair(Pair):
    r"""A realised pair of the bootstrapped Gaussian sum query, for a **lower** bound.

    Records hold values in [0, 1] (sensitivity 1 under replace-one); the sum of the k drawn
    values gets :math:`N(0, \sigma^2)` noise.  Take D with the changed record 1 and the n − 1
    others all c = 1 − t, and D' with the changed record 0.  Given the multiplicity j of the
    record the sum is (k − j)c + j (resp. (k − j)c), so after subtracting kc:
    :math:`P = \sum_j w_j N(jt, \sigma^2)`, :math:`Q = \sum_j w_j N(j(t-1), \sigma^2)`,
    :math:`w_j = \binom{k}{j} n^{-j}(1-1/n)^{k-j}`.  t = 1 is the "remove-like" mixture against
    N(0, σ²), t = 0 the "add-like" one.  The likelihood ratio is increasing in x.

    Its ``tails`` are those of the pair **binned in x** at approximate roots
    :math:`\tilde x(y)` of L(x) = y (dyadic, non-decreasing in y): a post-processing of (P, Q),
    so the binned discretisation (``LowerPLD``) built from them is a dominated pair and its
    δ a certified lower bound for these two datasets, hence for the mechanism.  (The
    connect-the-dots pair built from the same numbers is **not** an upper bound; it is never
    read.)"""

    sigma: Fraction
    n: int
    k: int
    t: Fraction

    def __post_init__(self):
        from math import comb
        object.__setattr__(self, "sigma", exact(self.sigma))
        object.__setattr__(self, "t", exact(self.t))
        if not 0 <= self.t <= 1:
            raise InvalidParameterError(f"t must be in [0, 1]; got t={self.t}")
        w = tuple(comb(self.k, j) * Fraction(1, self.n) ** j * Fraction(self.n - 1, self.n) ** (self.k - j)
                  for j in range(self.k + 1))
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "_last", [None, None])

    @property
    def name(self):
        return f"bootstrap Gaussian sum, realised pair t={float(self.t):g}"

    def _float_loss(self, x: float, slope: bool = False):
        """L(x) in floating point (log-sum-exp), and with ``slope`` also L'(x)."""
        import numpy as np
        if not hasattr(self, "_lw"):
            w = np.array([float(v) for v in self.weights])
            object.__setattr__(self, "_lw", np.where(w > 0, np.log(np.where(w > 0, w, 1.0)), -np.inf))
            object.__setattr__(self, "_j", np.arange(len(self.weights), dtype=float))
        s2, t, j = float(self.sigma) ** 2, float(self.t), self._j
        mp, mq = j * t, j * (t - 1)
        with np.errstate(over="ignore", invalid="ignore"):   # far out: inf or nan, handled by _root
            a = self._lw - (x - mp) ** 2 / (2 * s2)
            b = self._lw - (x - mq) ** 2 / (2 * s2)
            la, lb = np.logaddexp.reduce(a), np.logaddexp.reduce(b)
            if not slope:
                return float(la - lb)
            ea, eb = np.exp(a - la), np.exp(b - lb)
            return float(la - lb), float((ea @ mp - eb @ mq) / s2)

    def _root(self, y: float) -> Fraction:
        """An approximate root of L(x) = y (Newton from the last root, bisection as fallback);
        its accuracy only affects how tight the bound is, never its validity."""
        x = self._last[1]
        # warm start from the last root only where it is a moderate number: a y below the
        # loss's support leaves a root near -inf, from which Newton's relative step test
        # would "converge" at once
        x = float(x) if x is not None and abs(float(x)) < 1e3 else 0.0
        for _ in range(30):
            value, d = self._float_loss(x, slope=True)
            if d <= 0 or not math.isfinite(value):
                break
            step = (value - y) / d
            x -= max(-4.0, min(4.0, step))
            if abs(step) < 1e-13 * max(1.0, abs(x)) and abs(value - y) < 1e-9 * max(1.0, abs(y)):
                return Fraction(math.floor(x * 2 ** 40), 2 ** 40)
        lo, hi = -1.0, 1.0
        while self._float_loss(lo) >= y:
            lo *= 2
        while self._float_loss(hi) < y:
            hi *= 2
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if self._float_loss(mid) >= y else (mid, hi)
        return Fraction(math.floor(hi * 2 ** 40), 2 ** 40)

    def tails(self, y):
        yf = float(y.mid())
        x = self._root(yf)
        last_y, last_x = self._last
        if last_y is not None and yf > last_y and x < last_x:
            x = last_x                       # keep the bins ordered (a float root may wobble)
        self._last[:] = [yf, x]
        s, t, xb = ball(self.sigma), ball(self.t), ball(x)
        kept, rest, first, last = self._weight_balls()
        a, b = arb(0), arb(0)
        for j, wb in kept:
            a += wb * phi_bar((xb - j * t) / s)
            b += wb * phi_bar((xb - j * (t - 1)) / s)
        if rest is not None:
            # the components left out, j in [first, last] of total weight r: the P-term
            # Phi-bar((x - j t)/sigma) grows with j and the Q-term Phi-bar((x + j (1 - t))/sigma)
            # falls (0 <= t <= 1), so r times the terms at the ends enclose their sum
            a += (rest * phi_bar((xb - first * t) / s)).union(rest * phi_bar((xb - last * t) / s))
            b += (rest * phi_bar((xb + last * (1 - t)) / s)).union(
                rest * phi_bar((xb + first * (1 - t)) / s))
        return a, b

    def _weight_balls(self):
        """``([(j, ball of w_j)], ball of the rest or None, first j left out, last j left
        out)``: the weights of at least 2^-REALISED_BITS one by one, the others together
        (their terms are enclosed by monotonicity in :meth:`tails`), made once per Arb
        precision."""
        cache = self.__dict__.setdefault("_balls", {})
        if ctx.prec not in cache:
            floor = Fraction(1, 2 ** REALISED_BITS)
            kept = [(j, ball(w)) for j, w in enumerate(self.weights) if w >= floor]
            out = [j for j, w in enumerate(self.weights) if w < floor]
            rest = ball(sum(self.weights[j] for j in out)) if out else None
            cache[ctx.prec] = (kept, rest, min(out, default=0), max(out, default=0))
        return cache[ctx.prec]

    def loss_window(self, tail):
        s, t = float(self.sigma), float(self.t)
        z = lambda p: math.sqrt(max(2.0, -2 * math.log(max(p, 1e-300))))   # noqa: E731
        x_lo = -s * z(tail)
        x_hi = max(j * t + s * z(tail / float(w)) for j, w in enumerate(self.weights) if float(w) > tail)
        return self._float_loss(x_lo), self._float_loss(x_hi)
