r"""Certified trade-off curves :math:`\beta = f(\alpha)` of composed, subsampled mechanisms
(``symdp.tradeoff_curve``, ``symdp tradeoff``; docs/accountant.md §10; issue #31).

For each α a **two-sided certified bracket** :math:`\beta_{\rm lo} \le f(\alpha) \le \beta_{\rm hi}`,
computed from the certified privacy-profile brackets :math:`\delta_{\rm lo}(\varepsilon) \le
\delta(\varepsilon) \le \delta_{\rm hi}(\varepsilon)` of the accountant (§2-§5) by the primal-dual
relation (Dong-Roth-Su 2022, arXiv 1905.02383v3, Prop. 2.12: :math:`\delta(\varepsilon) =
1 + f^*(-e^\varepsilon)`; f is convex and continuous, so :math:`f = f^{**}`):

.. math::
    f(\alpha) = \max\Big(0,\ \sup_{\varepsilon \in \mathbb R}\, g(\varepsilon)\Big), \qquad
    g(\varepsilon) = 1 - \delta(\varepsilon) - e^{\varepsilon}\alpha .

* **Lower end.** Every ε gives :math:`f(\alpha) \ge g(\varepsilon) \ge 1 - \delta_{\rm hi}(\varepsilon)
  - \overline{e^\varepsilon}\alpha` (an upper bound on :math:`e^\varepsilon` from an Arb ball);
  the best over the ε evaluated, and 0.
* **Upper end** (a bound on the supremum over the whole line).  δ is non-increasing, so on
  :math:`[a, b]`: :math:`g(\varepsilon) \le 1 - \delta(b) - e^{a}\alpha \le 1 - \delta_{\rm low}(b)
  - \underline{e^a}\alpha`, with :math:`\delta_{\rm low} = \max(\delta_{\rm lo}, 1 - e^{\varepsilon}, M)`
  (every profile has :math:`\delta(\varepsilon) \ge 1 - e^\varepsilon` -- the set of all outcomes --
  and :math:`\delta \ge M = P(L = +\infty)`).  Below :math:`a_0`:
  :math:`g(\varepsilon) \le e^{\varepsilon}(1-\alpha) \le e^{a_0}(1-\alpha)`; above :math:`b_{\max}`
  with :math:`e^{b_{\max}}\alpha \ge 1 - \beta_{\rm lo}`: :math:`g \le \beta_{\rm lo}`.  Intervals covering
  :math:`[a_0, b_{\max}]` are split where the bound is largest until it is within the requested
  tolerance of the lower end (branch and bound); :math:`\beta_{\rm hi}` is the largest interval
  bound, and at most :math:`1 - \alpha`.

Every number is an exact rational (the ends of Arb balls), so every rounding is directed.
The ε at which the profile is queried, the tilt of the compositions and the splitting are
choices made in floating point; none affects validity.

Directions.  Under add/remove-one adjacency (Poisson sampling) the two orders of the adjacent
datasets give two curves: ``remove`` is :math:`T(M(D'), M(D))` with D = D' plus the record --
the membership-inference test: α its false-positive rate on D' (record out), β its
false-negative rate on D (record in) -- and ``add`` is :math:`T(M(D), M(D'))`, its inverse
(Dong-Roth-Su 2022, Eq. 4).  The mechanism is f-DP for both orders exactly when
:math:`f \le \min(f_{\rm remove}, f_{\rm add})`; the largest such trade-off function, the
**symmetrisation** :math:`\min(f_{\rm remove}, f_{\rm add})^{**}` (the seed's Def. of
:math:`C_p`: "symmetrise, then convexify"), has the profile :math:`\max(\delta_{\rm remove},
\delta_{\rm add})`, and is bracketed by the same argument.  A symmetric event (no sampling,
or replace-one) has one curve.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

import flint
from flint import arb, fmpq

from ..core.errors import InvalidParameterError
from ..core.validation import rational, shown
from .certify import (_directions, _phases, _rational, compose_direction, grid_for, printed,
                      refinement, support_bound)
from .closed import ClosedComposed
from .fft import FFTGrid

#: the compositions are targeted at the deciding eps rounded to 1/TARGET_GRID (alphas whose
#: eps are that close share one; any target gives a valid bracket)
TARGET_GRID = 1
#: the most α of one call (each costs a few dozen certified profile queries): a limit on work
MAX_ALPHAS = 200
#: the branch and bound stops when the bracket is this narrow relative to 1 - beta ...
REL_TOL = Fraction(1, 10 ** 6)
#: ... or after this many profile queries for one α
BUDGET = 160
#: the search stops when the gap is below this many times the delta brackets' width at an
#: interval narrower than SPLIT_MIN (splitting further only chases the profile's own width)
FLOOR_FACTOR = 3
SPLIT_MIN = Fraction(1, 1 << 8)
#: nodes are dyadic rationals with this denominator (exact, cheap Fractions)
NODE_BITS = 30
#: the lowest a_0 (below it g <= e^{a_0} (1 - alpha) < 1e-26)
A0_MIN = Fraction(-60)
ARB_PREC = 128

MECHANISM = "the mechanism"
GUARANTEE = "the guarantee only"


def _ball(x: Fraction) -> arb:
    return arb(fmpq(x.numerator, x.denominator))


#: bounds are rounded outward to multiples of 2^-ROUND_BITS (short exact rationals)
ROUND_BITS = 110


def down(x: Fraction) -> Fraction:
    """The largest multiple of 2^-ROUND_BITS at most x (a lower bound stays one)."""
    s = 1 << ROUND_BITS
    return Fraction(math.floor(x * s), s)


def up(x: Fraction) -> Fraction:
    """The least multiple of 2^-ROUND_BITS at least x (an upper bound stays one)."""
    s = 1 << ROUND_BITS
    return Fraction(math.ceil(x * s), s)


@functools.lru_cache(maxsize=1 << 14)
def exp_bounds(e: Fraction) -> tuple[Fraction, Fraction]:
    """Exact rationals lo <= e^e <= hi (the ends of an Arb ball, rounded outward)."""
    with flint.ctx.workprec(ARB_PREC):
        b = _ball(e).exp()
        return down(_rational(b.lower())), up(_rational(b.upper()))


def log_bounds(x: Fraction) -> tuple[Fraction, Fraction]:
    """Exact rationals lo <= log x <= hi, x > 0."""
    with flint.ctx.workprec(ARB_PREC):
        b = _ball(x).log()
        return _rational(b.lower()), _rational(b.upper())


def _dyadic(x: float, ceil: bool) -> Fraction:
    """x rounded to a multiple of 2^-NODE_BITS, up (``ceil``) or down."""
    s = 1 << NODE_BITS
    return Fraction(math.ceil(x * s) if ceil else math.floor(x * s), s)


# ----------------------------------------------------------------------------- the profile

class Profile:
    r"""Certified :math:`\delta_{\rm lo}, \delta_{\rm hi}` of one curve: the maximum over the
    composed directions given (one direction for :math:`f_d`, all for the symmetrisation),
    with the exact facts every profile obeys (:math:`\delta \ge \max(0, 1 - e^\varepsilon)`,
    :math:`\delta \ge M`, and :math:`\delta = M` beyond a bounded loss: ``certify.support_bound``)."""

    def __init__(self, composed: list, supports: list, fallbacks: list | None = None):
        self.composed = composed
        self.supports = supports
        self.fallbacks = fallbacks or [None] * len(composed)
        self.queries = 0
        self._cache = {}
        self._estimators = None

    def bounds(self, e: Fraction) -> tuple[Fraction, Fraction]:
        """(δ_lo(e), δ_hi(e)) as exact rationals."""
        hit = self._cache.get(e)
        if hit is not None:
            return hit
        self.queries += 1
        lo, hi = Fraction(0), Fraction(0)
        for c, s, fb in zip(self.composed, self.supports, self.fallbacks):
            l, h = _direction_bounds(c, e)
            if fb is not None and (h - l) * 2 > h:
                # the targeted composition is poor here (far from its tilt): a second opinion;
                # both are certified, so the larger lower and the smaller upper end are
                fl, fh = _direction_bounds(fb, e)
                l, h = max(l, fl), min(h, fh)
            if s is not None:
                l = max(l, s[1])
                if e >= s[0]:
                    h = min(h, s[1])          # delta = M exactly beyond the largest finite loss
            lo, hi = max(lo, l), max(hi, h)
        e_hi = exp_bounds(e)[1]
        lo = down(max(lo, 1 - e_hi, Fraction(0)))
        hi = up(min(hi, Fraction(1)))
        self._cache[e] = (lo, hi)
        return lo, hi

    def estimate(self, e: float) -> float:
        """A float estimate of δ(e) (a choice of where to look only)."""
        if self._estimators is None:
            self._estimators = []
            for c in self.composed:
                try:
                    self._estimators.append(c.upper.estimator())
                except (ArithmeticError, ValueError, OverflowError):
                    continue
        best = 0.0
        for f in self._estimators:
            try:
                v = float(f(e))
            except (ArithmeticError, ValueError):
                continue
            if math.isfinite(v):
                best = max(best, v)
        return min(1.0, max(best, 1 - math.exp(min(e, 700))))

    def top(self) -> Fraction:
        """The exact probability of the loss +oo (the largest over directions), or 0."""
        return max((s[1] for s in self.supports if s is not None), default=Fraction(0))


def _direction_bounds(c, e: Fraction) -> tuple[Fraction, Fraction]:
    """(δ_lo(e), δ_hi(e)) of one composed direction, exact rationals."""
    if isinstance(c, ClosedComposed):
        ball = c.upper.delta(e)
        return _rational(ball.lower()), _rational(ball.upper())
    return _rational(c.lower.delta(e).lower()), _rational(c.upper.delta(e).upper())


def estimated_argmax(profile: Profile, alpha: float) -> float:
    """The float ε maximising 1 - δ_est(ε) - e^ε α (a choice: where the bracket is decided)."""
    if alpha <= 0:
        return 40.0
    hi = min(40.0, math.log(1 / alpha) + 1)
    lo = max(-40.0, math.log(alpha) - 10)
    best, arg = -math.inf, 0.0
    n = 400
    for i in range(n + 1):
        e = lo + (hi - lo) * i / n
        v = 1 - profile.estimate(e) - math.exp(e) * alpha
        if v > best:
            best, arg = v, e
    step = (hi - lo) / n
    a, b = arg - step, arg + step
    for _ in range(40):                  # golden section on the bracket around the grid's best
        m1, m2 = a + 0.382 * (b - a), a + 0.618 * (b - a)
        v1 = 1 - profile.estimate(m1) - math.exp(m1) * alpha
        v2 = 1 - profile.estimate(m2) - math.exp(m2) * alpha
        a, b = (a, m2) if v1 >= v2 else (m1, b)
    return (a + b) / 2


# ----------------------------------------------------------------------------- one alpha

@dataclass
class Point:
    """A certified bracket ``beta_lo <= f(alpha) <= beta_hi`` (exact rationals)."""

    alpha: Fraction
    beta_lo: Fraction
    beta_hi: Fraction
    eps: float = 0.0            # where the lower end was attained (information only)
    queries: int = 0

    @property
    def width(self) -> float:
        return float(self.beta_hi - self.beta_lo)


def bracket(profile: Profile, alpha: Fraction, eps_hint: float | None = None,
            rel_tol: Fraction = REL_TOL, budget: int = BUDGET, mutate: str | None = None) -> Point:
    r"""The certified bracket on :math:`f(\alpha)` of the curve whose profile is ``profile``
    (module docstring: lower end from :math:`\delta_{\rm hi}` at the ε tried, upper end by branch
    and bound over intervals covering the line).  Any ``eps_hint`` gives a valid bracket (it
    only says where to look first).  ``mutate`` breaks one step (tests only): ``"lower-from-
    delta-lo"`` reads the lower end from δ_lo (a rounding in the wrong direction),
    ``"nodes-only"`` takes the upper end at the nodes (the intervals between them dropped),
    ``"local-only"`` covers only [hint - 1/2, hint + 1/2] (the tails of the line dropped)."""
    start_queries = profile.queries
    if alpha == 1:
        return Point(alpha, Fraction(0), Fraction(0), 0.0, 0)
    if alpha == 0:
        return _at_zero(profile)
    if len(profile.composed) == 1 and isinstance(profile.composed[0], ClosedComposed):
        # G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu) itself, in a ball (closed.py)
        ball = profile.composed[0].upper.trade_off(alpha)
        lo = max(Fraction(0), down(_rational(ball.lower())))
        hi = min(1 - alpha, up(_rational(ball.upper())))
        return Point(alpha, lo, hi, float("nan"), 0)
    hint = eps_hint if eps_hint is not None else estimated_argmax(profile, float(alpha))

    def g_lo(e: Fraction) -> Fraction:
        dlo, dhi = profile.bounds(e)
        return 1 - (dlo if mutate == "lower-from-delta-lo" else dhi) - exp_bounds(e)[1] * alpha

    def d_low(e: Fraction) -> Fraction:
        return profile.bounds(e)[0]

    # the lower end at the hint and close to it (and at the end of a bounded loss)
    e0 = _dyadic(hint, False)
    best_lo, best_eps = Fraction(0), hint
    ends = [sup[0] for sup in profile.supports if sup is not None]
    for e in [e0, e0 - Fraction(1, 1 << 12), e0 + Fraction(1, 1 << 12)] + ends:
        v = g_lo(e)
        if v > best_lo:
            best_lo, best_eps = v, float(e)
    # the covered range [a0, bmax]: outside it g <= max(e^{a0}(1 - alpha), beta_lo)
    if best_lo > 0:
        a0 = max(A0_MIN, _dyadic(float(log_bounds(best_lo / (1 - alpha))[0]), False))
    else:
        a0 = A0_MIN
    bmax = _dyadic(float(log_bounds((1 - best_lo) / alpha)[1]), True)
    while exp_bounds(bmax)[0] * alpha < 1 - best_lo:     # float rounding of the log: nudge up
        bmax += Fraction(1, 1 << 10)
    left = exp_bounds(a0)[1] * (1 - alpha)
    # nodes: the ends, the hint and points 4^-k away from it (dense where the supremum is), and
    # a grid of spacing 1 across the range (dyadic rationals: exact and cheap)
    e_mid = min(max(e0, a0), bmax)
    nodes = {a0, bmax, e_mid}
    nodes |= {e for k in (-8, -6, -4, -2, 0) for e in (e_mid - Fraction(2) ** k, e_mid + Fraction(2) ** k)}
    if bmax - a0 <= 64:
        nodes |= {a0 + i for i in range(1, int(bmax - a0) + 1)}
    # the largest finite loss of a bounded loss: delta = M exactly from there on, and the
    # supremum of a finite pair at small alpha sits there (its last kink)
    nodes |= {sup[0] for sup in profile.supports if sup is not None}
    nodes = sorted(e for e in nodes if a0 <= e <= bmax)
    if mutate == "local-only":
        nodes = [e for e in nodes if abs(e - e_mid) <= Fraction(1, 2)]
        left = Fraction(0)
    for e in nodes:
        v = g_lo(e)
        if v > best_lo:
            best_lo, best_eps = v, float(e)
    tol = rel_tol * max(1 - best_lo, Fraction(1, 10 ** 30))
    memo = {}

    def bound(i):
        key = tuple(nodes[max(0, i - 1):i + 3]) + (i == 0, i + 2 >= len(nodes))
        if key not in memo:
            if mutate == "nodes-only":
                memo[key] = max(1 - profile.bounds(e)[0] - exp_bounds(e)[0] * alpha for e in nodes[i:i + 2])
            else:
                memo[key] = interval_bound(profile, alpha, nodes, i)
        return memo[key]

    while True:
        bounds = [bound(i) for i in range(len(nodes) - 1)]
        worst = max(range(len(bounds)), key=lambda i: bounds[i])
        if bounds[worst] <= best_lo + tol or profile.queries - start_queries >= budget:
            break
        a, b = nodes[worst], nodes[worst + 1]
        if b - a <= Fraction(1, 1 << (NODE_BITS - 2)):
            break                       # too narrow to split: its bound stands
        # splitting cannot bring the bound below a few times the delta brackets' width there:
        # stop chasing it (the bracket is then as narrow as the profile's)
        floor = max(profile.bounds(e)[1] - profile.bounds(e)[0] for e in (a, b))
        if bounds[worst] - best_lo <= FLOOR_FACTOR * floor and b - a <= SPLIT_MIN:
            break
        m = (a + b) / 2
        v = g_lo(m)
        if v > best_lo:
            best_lo, best_eps = v, float(m)
            tol = rel_tol * max(1 - best_lo, Fraction(1, 10 ** 30))
        nodes.insert(worst + 1, m)
    right = 1 - exp_bounds(bmax)[0] * alpha if mutate != "local-only" else Fraction(0)
    hi = max([left, right, Fraction(0)] + bounds)
    hi = min(hi, 1 - alpha)
    lo = max(best_lo, Fraction(0))
    if lo > hi and mutate is None:      # (a mutant is left for the references to catch)
        raise ArithmeticError(f"certified lower end {lo} above upper end {hi} at alpha={alpha}: "
                              f"a bug, please report")
    return Point(alpha, lo, hi, best_eps, profile.queries - start_queries)


@functools.lru_cache(maxsize=1 << 14)
def _ratio_bounds(num: Fraction, den: Fraction) -> tuple[Fraction, Fraction]:
    r"""Exact rationals around :math:`\mathrm{expm1}(num) / \mathrm{expm1}(den)`."""
    with flint.ctx.workprec(ARB_PREC):
        r = _ball(num).expm1() / _ball(den).expm1()
        return down(_rational(r.lower())), up(_rational(r.upper()))


def _times(x: Fraction, r: tuple[Fraction, Fraction], lower: bool) -> Fraction:
    """A lower (or upper) bound on x * rho for rho in [r[0], r[1]], r[0] >= 0."""
    if (x >= 0) == lower:
        return x * r[0]
    return x * r[1]


def interval_bound(profile: Profile, alpha: Fraction, nodes: list, i: int) -> Fraction:
    r"""An upper bound on :math:`\sup_{\varepsilon \in [a, b]} g(\varepsilon)`, [a, b] = nodes[i:i+2].

    First order: :math:`1 - \delta_{\rm low}(b) - \underline{e^a}\alpha` (δ non-increasing).
    Second order (interior intervals), from the convexity of :math:`H(t) = \delta(\log t)` in
    :math:`t = e^\varepsilon` (a supremum of the affine :math:`t \mapsto P(S) - tQ(S)`; for the
    symmetrisation a maximum of two such): on :math:`[t_a, t_b]` H lies above the extensions of its
    chords over the neighbouring intervals, :math:`L_1` through :math:`t_{a^-}, t_a` and :math:`L_2`
    through :math:`t_b, t_{b^+}`, so for every λ ∈ [0, 1]
    :math:`g(t) \le G_\lambda(t) = 1 - t\alpha - \lambda L_1(t) - (1-\lambda) L_2(t)`, which is affine
    in t: :math:`\sup_{[t_a, t_b]} G_\lambda = \max(G_\lambda(t_a), G_\lambda(t_b))`, with
    :math:`L_1(t_a) = H(t_a)`, :math:`L_1(t_b) = H(t_a) + \rho_1 (H(t_a) - H(t_{a^-}))`,
    :math:`L_2(t_b) = H(t_b)`, :math:`L_2(t_a) = H(t_b) + \rho_2 (H(t_b) - H(t_{b^+}))`,
    :math:`\rho_1 = (t_b - t_a)/(t_a - t_{a^-})`, :math:`\rho_2 = (t_b - t_a)/(t_{b^+} - t_b)`.  Each
    end is bounded above from the certified δ brackets and Arb bounds on ρ (signs handled); both
    are linear in λ, and the least over λ ∈ [0, 1] of their maximum is taken exactly.  The
    first-order bound is :math:`O(e^\varepsilon\alpha\,(b - a))`, the second-order one
    :math:`O((b-a)^2)` plus a few times the width of the δ brackets."""
    a, b = nodes[i], nodes[i + 1]
    lo_b = profile.bounds(b)[0]
    ta_lo = exp_bounds(a)[0]
    first = 1 - lo_b - ta_lo * alpha
    if i == 0 or i + 2 >= len(nodes):
        return first
    am, bp = nodes[i - 1], nodes[i + 2]
    lo_a, hi_am, hi_bp = profile.bounds(a)[0], profile.bounds(am)[1], profile.bounds(bp)[1]
    tb_lo = exp_bounds(b)[0]
    # rho1 = expm1(b - a) / -expm1(a^- - a), rho2 = -expm1(a - b) / expm1(b^+ - b), both > 0
    r = _ratio_bounds(b - a, am - a)
    rho1 = (-r[1], -r[0])
    r = _ratio_bounds(a - b, bp - b)
    rho2 = (-r[1], -r[0])
    l1_tb = lo_a + _times(lo_a - hi_am, rho1, lower=True)
    l2_ta = lo_b + _times(lo_b - hi_bp, rho2, lower=True)
    # G(t_a) <= A0 + lam A1, G(t_b) <= B0 + lam B1
    A0, A1 = 1 - ta_lo * alpha - l2_ta, l2_ta - lo_a
    B0, B1 = 1 - tb_lo * alpha - lo_b, lo_b - l1_tb
    cands = [Fraction(0), Fraction(1)]
    if A1 != B1:
        lam = (B0 - A0) / (A1 - B1)
        if 0 < lam < 1:
            cands.append(lam)
    second = min(max(A0 + lam * A1, B0 + lam * B1) for lam in cands)
    return min(first, second)


def _at_zero(profile: Profile) -> Point:
    r""":math:`f(0) = 1 - \lim_{\varepsilon\to\infty}\delta(\varepsilon) = 1 - M`: exactly, when the
    loss is bounded (``support_bound``); else :math:`[1 - \delta_{\rm hi}(\varepsilon), 1]` at a
    large ε (δ is non-increasing, so every ε gives a lower end)."""
    start = profile.queries
    if all(s is not None for s in profile.supports):
        v = 1 - max(s[1] for s in profile.supports)
        return Point(Fraction(0), v, v, float(max(s[0] for s in profile.supports)), 0)
    e = Fraction(64)
    _, dhi = profile.bounds(e)
    return Point(Fraction(0), max(Fraction(0), 1 - dhi), Fraction(1), 64.0, profile.queries - start)


# ----------------------------------------------------------------------------- the curve

@dataclass
class Curve:
    """The certified brackets of one curve at the α asked: ``points[i]`` is at ``alphas[i]``."""

    name: str
    points: list

    def betas(self) -> list:
        return [(p.beta_lo, p.beta_hi) for p in self.points]


@dataclass
class TradeOffCurve:
    r"""Certified trade-off curves of an event (``symdp.tradeoff_curve``).

    ``curves`` maps a name to a :class:`Curve`: ``"remove"``, ``"add"`` and ``"symmetrised"``
    under add/remove-one adjacency, else ``"curve"``.  ``error_sum``: a bracket on
    :math:`\min_\alpha (\alpha + f(\alpha)) = 1 - \delta(0)` of the symmetrised curve (Prop. 2.12
    at ε = 0: the point nearest the diagonal), ``error_point`` the certified bracket of the
    symmetrised curve at the α where it is attained (a :class:`Point`; that α is a float
    estimate, the bracket at it is certified), or None.  ``mu``: a bracket on the smallest μ with :math:`G_\mu(\alpha) \le f(\alpha)` at
    every α asked (:math:`\mu(\alpha) = \Phi^{-1}(1-\alpha) - \Phi^{-1}(f(\alpha))`; ``None`` for +oo).
    ``upper_bounds``: what β_hi bounds -- "the mechanism", or "the guarantee only" for
    sampling without/with replacement (β_lo always bounds the mechanism: it is f-DP with f >=
    β_lo)."""

    event: object
    alphas: list
    curves: dict
    error_sum: tuple
    error_point: object
    mu: tuple
    upper_bounds: str
    seconds: float
    precision: int
    compositions: int = 0
    directions: list = field(default_factory=list)

    @property
    def main(self) -> Curve:
        """The curve a guarantee is read from: the symmetrised one, or the only one."""
        return self.curves.get("symmetrised") or self.curves["curve"]


def check_alphas(alphas) -> list:
    """``alphas`` as exact rationals in [0, 1] (a number or a non-empty sequence of at most
    :data:`MAX_ALPHAS`), else :class:`InvalidParameterError` naming the entry."""
    if isinstance(alphas, (str, bytes)) or not hasattr(alphas, "__iter__"):
        alphas = [alphas]
    alphas = list(alphas)
    if not alphas:
        raise InvalidParameterError("alphas must be a non-empty sequence of numbers in [0, 1]; got none")
    if len(alphas) > MAX_ALPHAS:
        raise InvalidParameterError(f"alphas must have at most {MAX_ALPHAS} entries (the limit on work); "
                                    f"got {len(alphas)}")
    return [rational(f"alphas[{i}]", a, 0, 1) for i, a in enumerate(alphas)]


def check_request(event, alphas, precision) -> tuple:
    """The one validation of :func:`tradeoff_curve`'s arguments: (event, alphas, precision)."""
    from ..events import Event

    if not isinstance(event, Event):
        raise InvalidParameterError(f"event must be a symdp event; got event={shown(event)}")
    if isinstance(precision, bool) or not isinstance(precision, int) or not 0 <= precision <= 6:
        raise InvalidParameterError(f"precision must be an integer in [0, 6]; got precision={shown(precision)}")
    return event, check_alphas(alphas), precision


def tradeoff_curve(event, alphas, *, precision: int = 2, progress=None, main_only: bool = False) -> TradeOffCurve:
    r"""Certified brackets on the trade-off curve(s) of ``event`` at each α of ``alphas``.

    ``event`` is a ``symdp.events`` event (``symdp.tradeoff_curve`` also converts a
    dp_accounting DpEvent).  Each curve's profile comes from compositions targeted at the ε
    that decides each α (found on a coarse probe); a composition of plain Gaussians uses its
    closed form (:math:`G_\mu`, evaluated directly).  ``main_only``: only the symmetrised curve
    (or the only one), e.g. for a plot."""
    from .events import lower_bounds_what, phases_of, MECHANISM as EV_MECHANISM

    event, alphas, precision = check_request(event, alphas, precision)
    start = time.perf_counter()
    phases = _phases(phases_of(event))
    n = _directions(phases)
    fine = grid_for(precision, None, refinement(phases))
    supports = [support_bound(phases, d) for d in range(n)]
    names = ["remove", "add"] if n == 2 else ["curve"]
    cache = {}

    def composed(d, target_eps):
        key = (d, None if target_eps is None else round(target_eps * TARGET_GRID) / TARGET_GRID)
        if key[1] is not None and supports[d] is not None and key[1] >= supports[d][0] - 1 / 16:
            # a target at or beyond the largest loss has no saddle point (an infinite tilt):
            # just below it instead
            key = (d, math.floor((float(supports[d][0]) - 1 / 16) * 8) / 8)
        if key not in cache:
            grid = fine
            tgt = ("eps", key[1]) if target_eps is not None else ("delta", 1e-6)
            if target_eps is not None and key[1] <= 0:
                tgt = ("eps", 0.0)
            cache[key] = compose_direction(phases, d, grid, progress, tgt, closed=True)
        return cache[key]

    # the probe: each direction on a coarse grid (or its closed form), for the float argmax
    probe = []
    for d in range(n):
        c = compose_direction(phases, d, FFTGrid(h_exp=max(8, fine.h_exp - 4)), progress,
                              ("delta", 1e-6), closed=True)
        probe.append(c)
    probe_profiles = [Profile([probe[d]], [supports[d]]) for d in range(n)]
    probe_sym = Profile(probe, supports)
    curves = {}
    for d in range(n if not (main_only and n == 2) else 0):
        pts = []
        for a in alphas:
            hint = estimated_argmax(probe_profiles[d], float(a)) if 0 < a < 1 else None
            c = composed(d, hint)
            prof = Profile([c], [supports[d]], [probe[d]])
            pts.append(bracket(prof, a, _refined_hint(prof, a, hint)))
        curves[names[d]] = Curve(names[d], pts)
    if n == 2:
        pts = []
        for a in alphas:
            hint = estimated_argmax(probe_sym, float(a)) if 0 < a < 1 else None
            prof = Profile([composed(d, hint) for d in range(n)], supports, probe)
            pts.append(bracket(prof, a, _refined_hint(prof, a, hint)))
        curves["symmetrised"] = Curve("symmetrised", pts)
    main = curves.get("symmetrised") or curves["curve"]
    # the point nearest the diagonal: min (alpha + f) = 1 - delta(0)
    prof0 = Profile([composed(d, 0.0) for d in range(n)], supports, probe)
    d0lo, d0hi = prof0.bounds(Fraction(0))
    error_sum = (1 - d0hi, 1 - d0lo)
    error_alpha = _error_alpha(prof0)
    error_point = None
    if 0 < error_alpha < 1:
        a_star = _dyadic(error_alpha, False)
        if 0 < a_star < 1:
            error_point = bracket(prof0, a_star, 0.0)
    mu = mu_bracket(main.points)
    what = MECHANISM if lower_bounds_what(event) == EV_MECHANISM else GUARANTEE
    return TradeOffCurve(event, alphas, curves, error_sum, error_point, mu, what,
                         time.perf_counter() - start, precision, len(cache),
                         [getattr(c, "name", "") for c in probe])


def _refined_hint(profile: Profile, alpha: Fraction, hint):
    """The float argmax on the targeted composition itself (better than the probe's)."""
    if hint is None or not 0 < alpha < 1:
        return hint
    try:
        return estimated_argmax(profile, float(alpha))
    except (ArithmeticError, ValueError, OverflowError):
        return hint


def _error_alpha(profile: Profile) -> float:
    r"""The α where α + f(α) is least (a float estimate): the slope of f is -1 there, so the
    optimal test is :math:`\{L \ge 0\}` and :math:`\alpha^* = Q(L \ge 0) = -\delta'(0)`
    (:math:`\delta'(\varepsilon) = -e^\varepsilon Q(L \ge \varepsilon)`), by a central difference."""
    h = 1e-3
    v = (profile.estimate(-h) - profile.estimate(h)) / (2 * h)
    return min(1.0, max(0.0, v))


def mu_bracket(points) -> tuple:
    r"""A bracket on :math:`\max_\alpha \mu(\alpha)`, :math:`\mu(\alpha) = \Phi^{-1}(1-\alpha) -
    \Phi^{-1}(f(\alpha))` over the points' α in (0, 1) (decreasing in f: the lower end from
    β_hi, the upper from β_lo; None for +oo, when some β_lo is 0)."""
    lo, hi = Fraction(0), Fraction(0)
    with flint.ctx.workprec(ARB_PREC):
        for p in points:
            if not 0 < p.alpha < 1:
                continue
            z = _phi_inv(1 - _ball(p.alpha))
            if p.beta_hi > 0:
                v = z - _phi_inv(_ball(p.beta_hi))
                if v.lower().is_finite():   # at alpha = 1e-400, 1 - alpha's ball touches 1
                    lo = max(lo, _rational(v.lower()))
            if hi is not None:
                v = z - _phi_inv(_ball(p.beta_lo)) if p.beta_lo > 0 else None
                # no finite upper end from this point: mu may be +oo as far as it shows
                hi = max(hi, _rational(v.upper())) if v is not None and v.upper().is_finite() \
                    else None
    return lo, hi


def _phi_inv(x: arb) -> arb:
    r""":math:`\Phi^{-1}(x) = -\sqrt2\,\mathrm{erfc}^{-1}(2x)`."""
    return -arb(2).sqrt() * (2 * x).erfcinv()
