r"""Dominating pairs of one step, described by their privacy-loss tails (docs/accountant.md §1).

A pair of distributions (P, Q) is described here by its **privacy loss**
:math:`L = \log \frac{dP}{dQ}` and the two tails

.. math::
    A(y) = P(L \ge y), \qquad B(y) = Q(L \ge y),

from which everything the accountant needs follows: the hockey-stick divergence
(privacy profile) :math:`H(e^y) = A(y) - e^y B(y)` (the optimal test rejects on
:math:`\{L \ge y\}`; atoms at :math:`L = y` contribute 0), and the masses of
the loss bins :math:`[y_i, y_{i+1})` under P and under Q.  Each pair returns
these tails as **Arb balls** containing the exact values, so every later
rounding can be directed.

Pairs (noise multiplier :math:`\sigma`, sensitivity 1):

* :class:`PoissonGaussian` ``direction="remove"``: :math:`P = (1-q)N(0,\sigma^2) + qN(1,\sigma^2)`,
  :math:`Q = N(0,\sigma^2)`;  ``direction="add"``: the reverse.  These are the two
  dominating pairs of the Poisson-subsampled Gaussian mechanism under add/remove
  adjacency (Mironov-Talwar-Zhang 2019, Sec. 3; Zhu-Dong-Wang 2022, the add/remove pairs of the subsampled Gaussian);
  a T-fold composition is bounded by the worse of the two directions composed
  separately (the adjacent pair of datasets is fixed for all T steps).
* :class:`UniformGaussian`: sampling a fraction p without replacement, replace-one
  adjacency: the pair whose trade-off function is :math:`C_p(G_{1/\sigma})` of
  Dong-Roth-Su 2022 (Thm 4.2, Eq. 14).  By Eq. 14, :math:`C_p(f) = f_p` on the
  slopes below -1 and :math:`f_p^{-1}` on the slopes above -1, with
  :math:`f_p = p\,G_{1/\sigma} + (1-p)\mathrm{Id} = T(N(0,\sigma^2), (1-p)N(0,\sigma^2)+pN(1,\sigma^2))`,
  so its profile is :math:`H(\alpha) = H_{\rm remove}(\alpha)` for :math:`\alpha \ge 1`
  and :math:`H_{\rm add}(\alpha)` for :math:`\alpha \le 1`; the tails follow from
  :math:`B(y) = -H'(e^y)` and :math:`A(y) = H(e^y) + e^y B(y)`.
* :class:`Gaussian`: :math:`P = N(\mu, 1)`, :math:`Q = N(0, 1)` (the pair of :math:`G_\mu`).
* :class:`RandomizedResponse`: one bit, kept with probability :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fractions import Fraction

from flint import arb, fmpq

from ..core.errors import InvalidParameterError
from ..core.validation import rational

#: the largest size of a parameter of a pair: the grid is chosen in floating point
MAX_SIZE = Fraction(10) ** 300
#: the directions of :class:`PoissonGaussian`
DIRECTIONS = ("remove", "add")


def exact(value, name: str = "value", lower=None, upper=None, *, lower_open=False) -> Fraction:
    """A parameter as an exact rational (:func:`symdp.core.validation.rational`: any number a
    user holds -- int, Fraction, str, float, NumPy and SymPy numbers, mpmath mpf; a float is
    read as its shortest decimal, ``0.01`` is 1/100), checked against ``lower (<|<=) value
    <= upper`` and to be at most 1e300 in size; else :class:`InvalidParameterError` naming
    ``name``, the constraint and the value."""
    if isinstance(value, Fraction) and lower is None and upper is None and abs(value) <= MAX_SIZE:
        return value
    v = rational(name, value, lower, upper, lower_open=lower_open)
    if abs(v) > MAX_SIZE:
        raise InvalidParameterError(f"{name} must be at most 1e300 in size; got {name} of about "
                                    f"1e{len(str(abs(v.numerator) // v.denominator)) - 1}")
    return v


def ball(value) -> arb:
    """An Arb ball containing the exact rational ``value``."""
    f = exact(value)
    return arb(fmpq(f.numerator, f.denominator))


def phi_bar(z: arb) -> arb:
    r""":math:`\bar\Phi(z) = 1 - \Phi(z) = \tfrac12\,\mathrm{erfc}(z/\sqrt2)` as a ball."""
    return (z / arb(2).sqrt()).erfc() / 2


def phi(z: arb) -> arb:
    r""":math:`\Phi(z) = \bar\Phi(-z)` as a ball."""
    return phi_bar(-z)


def floatphi_bar(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


class Pair:
    """A pair (P, Q) given by its loss tails; subclasses define :meth:`tails`."""

    #: a short human-readable name
    name = "pair"

    def tails(self, y: arb) -> tuple[arb, arb]:
        """Balls containing :math:`(P(L \\ge y), Q(L \\ge y))` for an exact ball ``y``."""
        raise NotImplementedError

    def loss_window(self, tail: float) -> tuple[float, float]:
        """Floats (lo, hi) such that P(L < lo) and P(L >= hi) are (about) below ``tail``.

        Used only to choose the grid; correctness never depends on it (the mass
        outside is handled by the rigorous end treatment, docs §2)."""
        raise NotImplementedError


@dataclass(frozen=True)
class PoissonGaussian(Pair):
    r"""One direction of the Poisson-subsampled Gaussian, rate q, noise multiplier sigma.

    remove: :math:`L(x) = \log(1 - q + q\,e^{(2x-1)/(2\sigma^2)})` is increasing in x, so
    :math:`L \ge y \iff x \ge x^*(y) = \sigma^2 \log\frac{e^y - (1-q)}{q} + \tfrac12`
    (for :math:`e^y > 1-q`; else always), and
    :math:`A(y) = (1-q)\bar\Phi(x^*/\sigma) + q\bar\Phi((x^*-1)/\sigma)`,
    :math:`B(y) = \bar\Phi(x^*/\sigma)`.

    add: the loss is :math:`-L(x)` with :math:`x \sim N(0,\sigma^2)` under P; :math:`-L(x) \ge y
    \iff x \le x^*(-y)` (for :math:`e^{-y} > 1-q`; else never), so
    :math:`A(y) = \Phi(x^*/\sigma)`, :math:`B(y) = (1-q)\Phi(x^*/\sigma) + q\Phi((x^*-1)/\sigma)`.
    """

    sigma: Fraction
    q: Fraction
    direction: str = "remove"

    def __post_init__(self):
        object.__setattr__(self, "sigma", exact(self.sigma, "sigma", 0, lower_open=True))
        object.__setattr__(self, "q", exact(self.q, "q", 0, 1, lower_open=True))
        if not isinstance(self.direction, str) or self.direction not in DIRECTIONS:
            raise InvalidParameterError(f"direction must be 'remove' or 'add'; got "
                                        f"direction={self.direction!r}")

    @property
    def name(self):
        return f"Poisson-subsampled Gaussian ({self.direction}), sigma={float(self.sigma):g}, q={float(self.q):g}"

    def _threshold(self, t: arb) -> arb:
        s, q = ball(self.sigma), ball(self.q)
        return s * s * ((t - (1 - q)) / q).log() + arb(1) / 2

    def tails(self, y):
        s, q = ball(self.sigma), ball(self.q)
        one = 1 - q
        if self.direction == "remove":
            t = y.exp()
            if t < one or not (t > one) and not (t < one) and t.upper() <= one:
                return arb(1), arb(1)
            if not (t > one):
                raise ArithmeticError("grid node too close to the least loss; raise the precision")
            x = self._threshold(t)
            b = phi_bar(x / s)
            return one * b + q * phi_bar((x - 1) / s), b
        t = (-y).exp()
        if t <= one:
            return arb(0), arb(0)
        if not t > one:
            raise ArithmeticError("grid node too close to the greatest loss; raise the precision")
        x = self._threshold(t)
        a = phi(x / s)
        return a, one * a + q * phi((x - 1) / s)

    # float versions, only to choose the grid
    def _float_tail_p(self, y):
        s, q = float(self.sigma), float(self.q)
        if self.direction == "remove":
            if math.exp(y) <= 1 - q:
                return 1.0
            x = s * s * math.log((math.exp(y) - (1 - q)) / q) + 0.5
            return (1 - q) * floatphi_bar(x / s) + q * floatphi_bar((x - 1) / s)
        if math.exp(-y) <= 1 - q:
            return 0.0
        x = s * s * math.log((math.exp(-y) - (1 - q)) / q) + 0.5
        return 1 - floatphi_bar(x / s)

    def loss_window(self, tail):
        least = math.log1p(-float(self.q))
        if self.direction == "remove":
            hi = _bisect(lambda y: self._float_tail_p(y) < tail, least, 1.0)
            return least, hi
        # add: losses in (-inf, -log(1-q)]; P(L < y) = Phi-bar(x*/sigma) is small for y low
        lo = -_bisect(lambda y: 1 - self._float_tail_p(-y) < tail, -least, 1.0)
        return lo, -least


def _bisect(ok, start, step):
    """Smallest (to 1e-6) y >= start with ok(y), ok monotone false->true (float helper)."""
    lo, hi = start, start + step
    while not ok(hi):
        lo, hi = hi, hi + 2 * (hi - start) + step
        if hi > 1e6:
            raise ArithmeticError("loss window search diverged")
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


@dataclass(frozen=True)
class UniformGaussian(Pair):
    r"""Uniform subsampling without replacement (fraction p), replace-one adjacency:
    the pair of :math:`C_p(G_{1/\sigma})` (Dong-Roth-Su 2022, Thm 4.2 and Eq. 14).

    Its profile is :math:`H_{\rm remove}` for :math:`\alpha \ge 1` (losses :math:`\ge 0`)
    and :math:`H_{\rm add}` for :math:`\alpha \le 1` (losses :math:`\le 0`) of the Poisson pair
    with :math:`q = p`.  Hence for :math:`y > 0` the tails are those of remove and for
    :math:`y \le 0` those of add (the jump of A at 0 is an atom of the loss at 0, the
    slope -1 segment of Eq. 14)."""

    sigma: Fraction
    p: Fraction

    def __post_init__(self):
        object.__setattr__(self, "sigma", exact(self.sigma, "sigma", 0, lower_open=True))
        object.__setattr__(self, "p", exact(self.p, "p", 0, 1, lower_open=True))

    @property
    def name(self):
        return f"uniformly subsampled Gaussian (replace-one), sigma={float(self.sigma):g}, p={float(self.p):g}"

    def tails(self, y):
        if y > 0:
            return PoissonGaussian(self.sigma, self.p, "remove").tails(y)
        if y <= 0:
            return PoissonGaussian(self.sigma, self.p, "add").tails(y)
        raise ArithmeticError("grid node ball contains 0; use exact grid nodes")

    def loss_window(self, tail):
        lo, _ = PoissonGaussian(self.sigma, self.p, "add").loss_window(tail)
        _, hi = PoissonGaussian(self.sigma, self.p, "remove").loss_window(tail)
        return lo, hi


@dataclass(frozen=True)
class Gaussian(Pair):
    r""":math:`P = N(\mu, 1)`, :math:`Q = N(0, 1)`: :math:`L(x) = \mu x - \mu^2/2`,
    :math:`L \ge y \iff x \ge y/\mu + \mu/2`;
    :math:`A(y) = \bar\Phi(y/\mu - \mu/2)`, :math:`B(y) = \bar\Phi(y/\mu + \mu/2)`
    (the pair of :math:`G_\mu`, Dong-Roth-Su 2022 Def. 2.7)."""

    mu: Fraction

    def __post_init__(self):
        object.__setattr__(self, "mu", exact(self.mu, "mu", 0, lower_open=True))

    @property
    def name(self):
        return f"Gaussian G_mu, mu={float(self.mu):g}"

    def tails(self, y):
        m = ball(self.mu)
        return phi_bar(y / m - m / 2), phi_bar(y / m + m / 2)

    def loss_window(self, tail):
        m = float(self.mu)
        z = _bisect(lambda z: floatphi_bar(z) < tail, 0.0, 1.0)
        return (-z + m / 2) * m, (z + m / 2) * m


def randomized_response_tails(y: arb, keep: arb, other: arb, mid: arb, eps: arb) -> tuple[arb, arb]:
    r"""The loss tails of (k-ary) randomized response, the one formula both
    :class:`RandomizedResponse` (ε₀, k = 2) and ``sampled.KaryRandomizedResponse`` (ρ, k) read.

    Changing the true value a to b: P = (keep, other, mid) on (a, b, the rest), Q = (other,
    keep, mid), :math:`\varepsilon = \log(\mathrm{keep}/\mathrm{other})`; losses
    :math:`\varepsilon, -\varepsilon` and 0 (mass ``mid``, 0 when k = 2).  Hence
    :math:`(A, B) = (1, 1)` for :math:`y \le -\varepsilon`, (keep + mid, other + mid) on
    :math:`(-\varepsilon, 0]`, (keep, other) on :math:`(0, \varepsilon]`, (0, 0) above."""
    if y <= -eps:
        return arb(1), arb(1)
    if y > eps:
        return arb(0), arb(0)
    if y > 0 and y <= eps:
        return keep, other
    if y > -eps and y <= 0:
        return keep + mid, other + mid
    raise ArithmeticError("grid node ball straddles a loss atom")


@dataclass(frozen=True)
class RandomizedResponse(Pair):
    r"""Randomized response on one bit: :math:`P = (r, 1-r)`, :math:`Q = (1-r, r)`,
    :math:`r = e^{\varepsilon_0}/(1+e^{\varepsilon_0})`; losses :math:`\pm\varepsilon_0`."""

    eps0: Fraction

    def __post_init__(self):
        object.__setattr__(self, "eps0", exact(self.eps0, "eps0", 0))

    @property
    def name(self):
        return f"randomized response, eps0={float(self.eps0):g}"

    def tails(self, y):
        e = ball(self.eps0)
        r = e.exp() / (1 + e.exp())
        return randomized_response_tails(y, r, 1 - r, arb(0), e)

    def loss_window(self, tail):
        return -float(self.eps0), float(self.eps0)


def check_range(name: str, value, lo: float, hi: float) -> float:
    """``value`` (any number :func:`exact` takes) as a float in [lo, hi], compared exactly
    (the ends as the decimals they print as), else :class:`InvalidParameterError` naming it."""
    from ..core.validation import shown

    v = exact(value, name)
    if not Fraction(repr(lo)) <= v <= Fraction(repr(hi)):
        raise InvalidParameterError(f"{name} must be in [{lo:g}, {hi:g}] (the supported range); "
                                    f"got {name}={shown(value) if not isinstance(value, Fraction) else float(v)}")
    return float(v)


@dataclass(frozen=True)
class EpsDelta(Pair):
    r"""The pair of :math:`f_{\varepsilon_0,\delta_0}` (Kairouz-Oh-Viswanath 2015; Dong-Roth-Su
    2022, Prop. 2.5): with :math:`r = e^{\varepsilon_0}/(1+e^{\varepsilon_0})`,
    P = (delta0, (1-delta0) r, (1-delta0)(1-r), 0) and Q the reverse, on four outcomes with
    losses :math:`+\infty, \varepsilon_0, -\varepsilon_0, -\infty`."""

    eps0: Fraction
    delta0: Fraction

    def __post_init__(self):
        object.__setattr__(self, "eps0", exact(self.eps0, "eps0", 0))
        object.__setattr__(self, "delta0", exact(self.delta0, "delta0", 0, 1))

    @property
    def name(self):
        return f"f_(eps,delta), eps0={float(self.eps0):g}, delta0={float(self.delta0):g}"

    def tails(self, y):
        e, d = ball(self.eps0), ball(self.delta0)
        r = e.exp() / (1 + e.exp())
        if y <= -e:
            return arb(1), 1 - d
        if y > e:
            return d, arb(0)
        if y > -e and y <= e:
            return d + (1 - d) * r, (1 - d) * (1 - r)
        raise ArithmeticError("grid node ball straddles a loss atom")

    def loss_window(self, tail):
        return -float(self.eps0), float(self.eps0)


@dataclass(frozen=True)
class Laplace(Pair):
    r""":math:`P = \mathrm{Lap}(1, b)`, :math:`Q = \mathrm{Lap}(0, b)` (sensitivity 1, scale b):
    :math:`L(x) = (|x| - |x-1|)/b \in [-1/b, 1/b]`, atoms at the ends.  For
    :math:`-1/b < y \le 1/b`: :math:`L \ge y \iff x \ge x^* = (yb+1)/2 \in (0, 1]`, so
    :math:`A(y) = 1 - \tfrac12 e^{(x^*-1)/b}` and :math:`B(y) = \tfrac12 e^{-x^*/b}`."""

    b: Fraction

    def __post_init__(self):
        object.__setattr__(self, "b", exact(self.b, "b", 0, lower_open=True))

    @property
    def name(self):
        return f"Laplace, scale b={float(self.b):g}"

    def tails(self, y):
        b = ball(self.b)
        if y <= -1 / b:
            return arb(1), arb(1)
        if y > 1 / b:
            return arb(0), arb(0)
        if y > -1 / b and y <= 1 / b:
            x = (y * b + 1) / 2
            return 1 - ((x - 1) / b).exp() / 2, (-x / b).exp() / 2
        raise ArithmeticError("grid node ball straddles a loss atom")

    def loss_window(self, tail):
        return -1 / float(self.b), 1 / float(self.b)


@dataclass(frozen=True)
class Subsampled(Pair):
    r"""The pair of :math:`C_p(f)` for a **symmetric** base f given by its pair (P, Q)
    (Dong-Roth-Su 2022, Def. 4.1, Thm 4.2, Eq. 14): the profile is that of
    :math:`f_p = pf + (1-p)\mathrm{Id}` for :math:`\alpha \ge 1` and of :math:`f_p^{-1}` for
    :math:`\alpha \le 1`.

    For :math:`\alpha \ge 1` (losses :math:`y > 0`): the pair of :math:`f_p` is
    :math:`((1-p)Q + pP,\ Q)` with loss :math:`L_p = \log(1-p+p\,e^{L})`, increasing in L, so
    :math:`L_p \ge y \iff L \ge z = \log\frac{e^y-(1-p)}{p}` and
    :math:`A(y) = (1-p)B_f(z) + pA_f(z)`, :math:`B(y) = B_f(z)`.
    For :math:`y \le 0` the pair is symmetric (:math:`C_p(f)` is), so L under P has the law of
    -L under Q: :math:`A(y) = 1 - Q(L > -y)`, :math:`B(y) = 1 - P(L > -y)`, the :math:`y > 0`
    tails at -y (">" and ">=" agree there: the grid node -y is never one of the loss atoms,
    which are irrational; a ball that cannot tell raises).  With ``Gaussian(1/sigma)`` this is
    :class:`UniformGaussian` (a test checks the two agree)."""

    base: Pair
    p: Fraction

    def __post_init__(self):
        if not isinstance(self.base, (Gaussian, Laplace, EpsDelta, RandomizedResponse)):
            raise InvalidParameterError(f"base must be a symmetric pair (Gaussian, Laplace, EpsDelta, "
                                        f"RandomizedResponse); got base={self.base!r}")
        object.__setattr__(self, "p", exact(self.p, "p", 0, 1, lower_open=True))

    @property
    def name(self):
        return f"C_p({self.base.name}), p={float(self.p):g}"

    def _positive(self, y):
        p = ball(self.p)
        t = y.exp()
        if t <= 1 - p:
            return arb(1), arb(1)
        if not t > 1 - p:
            raise ArithmeticError("grid node too close to the least loss of f_p")
        z = ((t - (1 - p)) / p).log()
        a, b = self.base.tails(z)
        return (1 - p) * b + p * a, b

    def tails(self, y):
        if y > 0:
            return self._positive(y)
        if y <= 0:
            a, b = self._positive(-y)
            return 1 - b, 1 - a
        raise ArithmeticError("grid node ball contains 0; use exact grid nodes")

    def loss_window(self, tail):
        lo, hi = self.base.loss_window(tail)
        p = float(self.p)
        top = math.log1p(p * math.expm1(min(hi, 700.0)))
        return -top, top
