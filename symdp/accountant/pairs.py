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
* :class:`RandomizedResponse`: one bit, kept with probability :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`,
  or (``RandomizedResponse.kary``) k-ary randomized response with noise parameter ρ.
* :class:`EpsDelta`, :class:`Laplace`, :class:`Subsampled` (the pair of :math:`C_p(f)`).

**No formula of a mechanism is written here** (issue #23): every pair is a view of a
``symdp.events`` event, constructed from it (``pair.event``), its parameters validated by the
event, its tails those of the mechanism's one module (``symdp.events.gaussian``, ``laplace``,
``eps_delta``, ``randomized_response``) evaluated in Arb balls; the sampled pairs apply the one
sampling formula :func:`poisson_tails` to the base pair's tails.  ``pair_of(event)`` in
``symdp.accountant.events`` builds them.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from fractions import Fraction

from flint import arb, ctx, fmpq

from ..core.errors import InvalidParameterError
from ..core.validation import rational, shown
from ..events import eps_delta as eps_delta_mechanism
from ..events import gaussian as gaussian_mechanism
from ..events import laplace as laplace_mechanism
from ..events import EpsDelta as EpsDeltaEvent
from ..events import Gaussian as GaussianEvent
from ..events import Laplace as LaplaceEvent
from ..events import RandomizedResponse as RandomizedResponseEvent
from ..events import PoissonSampled, SampledWithoutReplacement
from ..events.backends import ARB, FLOAT, MPMATH, arb_phi_bar
from ..events.losses import atom_tails

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
    return sized(rational(name, value, lower, upper, lower_open=lower_open), name)


def sized(v: Fraction, name: str) -> Fraction:
    """``v`` if it is at most 1e300 in size (the grid is chosen in floating point), else
    :class:`InvalidParameterError` naming ``name``."""
    if abs(v) > MAX_SIZE:
        raise InvalidParameterError(f"{name} must be at most 1e300 in size; got {name} of about "
                                    f"1e{len(str(abs(v.numerator) // v.denominator)) - 1}")
    return v


def ball(value) -> arb:
    """An Arb ball containing the exact rational ``value`` (at the current Arb precision)."""
    if type(value) is Fraction:
        # a pair's own parameter, at every tails call: looked up by its integers (a Fraction's
        # hash and the size check cost more than the ball's tails; checked once, on a miss)
        return _ball_of_ratio(value.numerator, value.denominator, ctx.prec)
    return _ball_at(exact(value), ctx.prec)


@functools.lru_cache(maxsize=4096)
def _ball_of_ratio(numerator: int, denominator: int, prec: int) -> arb:
    return _ball_at(exact(Fraction(numerator, denominator)), prec)


@functools.lru_cache(maxsize=4096)
def _ball_at(f: Fraction, prec: int) -> arb:
    # a pair's parameters are turned into balls at every tails call: cached by value and by
    # the precision the rounding depends on (balls are immutable)
    return arb(fmpq(f.numerator, f.denominator))


#: :math:`\bar\Phi(z) = 1 - \Phi(z) = \tfrac12\,\mathrm{erfc}(z/\sqrt2)` as a ball
phi_bar = arb_phi_bar


def phi(z: arb) -> arb:
    r""":math:`\Phi(z) = \bar\Phi(-z)` as a ball."""
    return phi_bar(-z)


def floatphi_bar(z: float) -> float:
    return FLOAT.phi_bar(z)


class Pair:
    """A pair (P, Q) given by its loss tails; subclasses define :meth:`tails`."""

    #: a short human-readable name
    name = "pair"

    def tails(self, y: arb) -> tuple[arb, arb]:
        """Balls containing :math:`(P(L \\ge y), Q(L \\ge y))` for an exact ball ``y``."""
        raise NotImplementedError

    def lower_tails(self, y: arb) -> tuple[arb, arb]:
        """Balls containing :math:`(P(L < y), Q(L < y))` (by default 1 minus the tails; a
        continuous pair computes them directly, keeping their relative accuracy when small)."""
        a, b = self.tails(y)
        return 1 - a, 1 - b

    def at_most_tails(self, y: arb) -> tuple[arb, arb]:
        """Balls containing :math:`(P(L \\le y), Q(L \\le y))`: the lower tails, by default
        (equal unless the loss has an atom at y; pairs with atoms compute them)."""
        return self.lower_tails(y)

    def loss_window(self, tail: float) -> tuple[float, float]:
        """Floats (lo, hi) such that P(L < lo) and P(L >= hi) are (about) below ``tail``.

        Used only to choose the grid; correctness never depends on it (the mass
        outside is handled by the rigorous end treatment, docs §2)."""
        raise NotImplementedError

    def loss_atoms(self) -> tuple:
        """Floats near the losses at which the loss law has atoms (a choice of grid nodes only:
        the FFT engine puts nodes on both sides of each, so that a finite pair's atoms are
        not smeared over distant nodes); empty by default."""
        return ()

    def loss_support(self):
        r"""``(y, m)``: an exact rational y at least every finite value of the loss under P and
        the exact rational :math:`m = P(L = +\infty)`, for a pair whose loss is bounded; None
        when the loss is unbounded or the pair does not say (the default).  Read by
        ``certify.support_bound``: delta(eps) = m exactly for eps >= y."""
        return None


def _exact_zero(y) -> bool:
    """Whether the point ``y`` (a ball, float or mpf) is exactly 0."""
    is_zero = getattr(y, "is_zero", None)
    return bool(is_zero()) if callable(is_zero) else y == 0


def poisson_tails(ops, base_tails, base_lower_tails, q, direction: str, y, base_at_most=None):
    r"""The tails of Poisson sampling with rate q of a mechanism with a **symmetric** pair
    (P, Q) and loss L (Zhu-Dong-Wang 2022, Thm. 11 / Prop. 30; Mironov-Talwar-Zhang 2019, Sec. 3),
    in the backend ``ops`` -- the one sampling formula of the accountant.

    remove: the pair ((1−q)Q + qP, Q); its loss :math:`\log(1-q+q e^{L})` is increasing in L,
    so with :math:`z(y) = \log\frac{e^y-(1-q)}{q}` (for :math:`e^y > 1-q`; else every outcome):
    :math:`A(y) = (1-q)B_f(z) + qA_f(z)`, :math:`B(y) = B_f(z)`.

    add: the pair (Q, (1−q)Q + qP); its loss :math:`-\log(1-q+q e^{L})` is :math:`\ge y` iff
    :math:`L \le z(-y)` (for :math:`e^{-y} > 1-q`; else no outcome), so with the lower tails
    :math:`\bar A_f(z) = P(L < z)`, :math:`\bar B_f(z) = Q(L < z)`:
    :math:`A(y) = \bar B_f(z)`, :math:`B(y) = (1-q)\bar B_f(z) + q\bar A_f(z)`
    (``<`` and ``<=`` agree where z is not a loss atom of the base: z is transcendental for a
    dyadic y != 0, and at y = 0 exactly (z = 0) the closed tails ``base_at_most(0)`` =
    :math:`(P(L \le 0), Q(L \le 0))` are used -- an atom at 0 (k-ary randomized response,
    f_(0, delta)) counts; a ball that cannot tell raises)."""
    one = 1 - q
    if _exact_zero(y):
        # y = 0 exactly: z(0) = 0 exactly (a ball of (1 - (1 - q))/q would straddle a base loss
        # atom at 0, k-ary randomized response: issue #31, D3).  remove: L_rem >= 0 iff L >= 0;
        # add: L_add >= 0 iff L <= 0, the closed lower tails (P(L <= 0), Q(L <= 0))
        zero = ops.number(0)
        if direction == "remove":
            a, b = base_tails(zero)
            return one * b + q * a, b
        a, b = (base_at_most or base_lower_tails)(zero)
        return b, one * b + q * a
    if direction == "remove":
        t = ops.exp(y)
        if t <= one:
            return ops.number(1), ops.number(1)
        if not t > one:
            raise ArithmeticError("grid node too close to the least loss; raise the precision")
        a, b = base_tails(ops.log((t - one) / q))
        return one * b + q * a, b
    t = ops.exp(-y)
    if t <= one:
        return ops.number(0), ops.number(0)
    if not t > one:
        raise ArithmeticError("grid node too close to the greatest loss; raise the precision")
    a, b = base_lower_tails(ops.log((t - one) / q))
    return b, one * b + q * a


def _check_direction(direction):
    if not isinstance(direction, str) or direction not in DIRECTIONS:
        raise InvalidParameterError(f"direction must be 'remove' or 'add'; got direction={shown(direction)}")


@dataclass(frozen=True)
class Gaussian(Pair):
    r""":math:`P = N(\mu, 1)`, :math:`Q = N(0, 1)`, the pair of :math:`G_\mu` (Dong-Roth-Su 2022
    Def. 2.7): the view of ``symdp.events.Gaussian.from_mu(mu)``, tails
    :func:`symdp.events.gaussian.tails` in balls."""

    mu: Fraction

    def __post_init__(self):
        event = GaussianEvent.from_mu(self.mu)
        object.__setattr__(self, "mu", sized(1 / event.sigma, "mu"))
        object.__setattr__(self, "event", event)

    @property
    def name(self):
        return f"Gaussian G_mu, mu={float(self.mu):g}"

    def tails(self, y):
        return gaussian_mechanism.tails(ARB, ball(self.mu), y)

    def lower_tails(self, y):
        return gaussian_mechanism.lower_tails(ARB, ball(self.mu), y)

    def float_tails(self, y: float, lower: bool = False):
        """The tails (or with ``lower`` the lower tails) in floats, only to choose a grid."""
        return (gaussian_mechanism.lower_tails if lower else gaussian_mechanism.tails)(FLOAT, float(self.mu), y)

    def loss_window(self, tail):
        m = float(self.mu)
        z = _bisect(lambda z: floatphi_bar(z) < tail, 0.0, 1.0)
        return (-z + m / 2) * m, (z + m / 2) * m


@dataclass(frozen=True)
class PoissonGaussian(Pair):
    r"""One direction of the Poisson-subsampled Gaussian, rate q, noise multiplier sigma: the
    pair of ``PoissonSampled(Gaussian(sigma), q)`` in that direction, :func:`poisson_tails`
    of the Gaussian pair :math:`G_{1/\sigma}`.

    remove: :math:`P = (1-q)N(0,\sigma^2) + qN(1,\sigma^2)`, :math:`Q = N(0,\sigma^2)`;
    add: the reverse.  These are the two dominating pairs of the Poisson-subsampled Gaussian
    under add/remove adjacency; a T-fold composition is bounded by the worse of the two
    directions composed separately.  Only the grid's loss window is its own (a float
    bisection on the mixture's tails, tighter than that of :class:`sampled.PoissonSubsampled`).
    """

    sigma: Fraction
    q: Fraction
    direction: str = "remove"

    def __post_init__(self):
        event = PoissonSampled(GaussianEvent(self.sigma), self.q)
        object.__setattr__(self, "sigma", sized(event.event.sigma, "sigma"))
        sized(1 / self.sigma, "1/sigma")    # the Gaussian pair is G_{1/sigma}: named here
        object.__setattr__(self, "q", event.q)
        _check_direction(self.direction)
        object.__setattr__(self, "event", event)
        object.__setattr__(self, "base", Gaussian(1 / self.sigma))

    @property
    def name(self):
        return f"Poisson-subsampled Gaussian ({self.direction}), sigma={float(self.sigma):g}, q={float(self.q):g}"

    def tails(self, y):
        return poisson_tails(ARB, self.base.tails, self.base.lower_tails, ball(self.q), self.direction, y)

    # float versions, only to choose the grid
    def _float_tail_p(self, y):
        base = self.base
        return poisson_tails(FLOAT, base.float_tails, lambda z: base.float_tails(z, lower=True),
                             float(self.q), self.direction, y)[0]

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
    the pair of :math:`C_p(G_{1/\sigma})` (Dong-Roth-Su 2022, Thm 4.2 and Eq. 14), i.e. of
    ``SampledWithoutReplacement(Gaussian(sigma), p=p)``.

    Its profile is :math:`H_{\rm remove}` for :math:`\alpha \ge 1` (losses :math:`\ge 0`)
    and :math:`H_{\rm add}` for :math:`\alpha \le 1` (losses :math:`\le 0`) of the Poisson pair
    with :math:`q = p`.  Hence for :math:`y > 0` the tails are those of remove and for
    :math:`y \le 0` those of add (the jump of A at 0 is an atom of the loss at 0, the
    slope -1 segment of Eq. 14): :class:`Subsampled` of the Gaussian pair, with the loss
    window of :class:`PoissonGaussian`."""

    sigma: Fraction
    p: Fraction

    def __post_init__(self):
        event = SampledWithoutReplacement(GaussianEvent(self.sigma), p=self.p)
        object.__setattr__(self, "sigma", sized(event.event.sigma, "sigma"))
        sized(1 / self.sigma, "1/sigma")    # the Gaussian pair is G_{1/sigma}: named here
        object.__setattr__(self, "p", event.p)
        object.__setattr__(self, "event", event)
        object.__setattr__(self, "directions", (PoissonGaussian(self.sigma, self.p, "remove"),
                                                PoissonGaussian(self.sigma, self.p, "add")))

    @property
    def name(self):
        return f"uniformly subsampled Gaussian (replace-one), sigma={float(self.sigma):g}, p={float(self.p):g}"

    def tails(self, y):
        remove, add = self.directions
        if y > 0:
            return remove.tails(y)
        if y <= 0:
            return add.tails(y)
        raise ArithmeticError("grid node ball contains 0; use exact grid nodes")

    def loss_window(self, tail):
        remove, add = self.directions
        return add.loss_window(tail)[0], remove.loss_window(tail)[1]


@dataclass(frozen=True, init=False)
class RandomizedResponse(Pair):
    r"""Randomized response: the pair of a ``symdp.events.RandomizedResponse`` event, its
    atoms (``event.atoms``) summed by :func:`symdp.events.losses.atom_tails`.

    ``RandomizedResponse(eps0)``: one bit, :math:`P = (r, 1-r)`, :math:`Q = (1-r, r)`,
    :math:`r = e^{\varepsilon_0}/(1+e^{\varepsilon_0})`, losses :math:`\pm\varepsilon_0`
    (ε₀ exact); ``RandomizedResponse.kary(rho, k)``: k-ary randomized response with noise
    parameter ρ (dp_accounting's convention); ``RandomizedResponse.of(event)``: either."""

    event: RandomizedResponseEvent

    def __init__(self, eps0):
        event = RandomizedResponseEvent.binary(eps0)
        sized(event.eps0, "eps0")
        object.__setattr__(self, "event", event)

    @classmethod
    def of(cls, event: RandomizedResponseEvent) -> "RandomizedResponse":
        """The pair of a randomized-response event (either form)."""
        if not isinstance(event, RandomizedResponseEvent):
            raise InvalidParameterError(f"event must be a symdp.events.RandomizedResponse; got event={shown(event)}")
        pair = object.__new__(cls)
        object.__setattr__(pair, "event", event)
        return pair

    @classmethod
    def kary(cls, rho, k: int = 2) -> "RandomizedResponse":
        """k-ary randomized response with noise parameter ρ ∈ (0, 1]."""
        return cls.of(RandomizedResponseEvent(rho, k))

    @property
    def eps0(self):
        """ε₀ of the one-bit form (None for the ρ form: log(keep/other) is irrational)."""
        return self.event.eps0

    @property
    def rho(self):
        return self.event.noise_parameter

    @property
    def k(self) -> int:
        return self.event.num_buckets

    @property
    def name(self):
        e = self.event
        if e.eps0 is not None:
            return f"randomized response, eps0={float(e.eps0):g}"
        return f"randomized response, rho={float(e.noise_parameter):g}, k={e.num_buckets}"

    def tails(self, y):
        return atom_tails(ARB, self.event.atoms(ARB), y)

    def at_most_tails(self, y):
        return atoms_at_most(self.event.atoms(ARB), y)

    def loss_window(self, tail):
        # in mpmath, then to float: rho/k can underflow a float (rho = 1e-400) where the log
        # of the mass ratio is still an ordinary number
        e = float(self.event.loss(MPMATH))
        return -e, e

    def loss_atoms(self):
        e = float(self.event.loss(MPMATH))
        return (-e, 0.0, e) if self.k > 2 else (-e, e)

    def loss_support(self):
        """Losses ±ε₀ (and 0): at most ε₀ (exact in the ε₀ form, a rational above its ball in
        the ρ form); never +oo."""
        if self.event.eps0 is not None:
            return self.event.eps0, Fraction(0)
        with ctx.workprec(128):
            return rational_above(self.event.loss(ARB)), Fraction(0)


def atoms_at_most(atoms, y) -> tuple[arb, arb]:
    """:math:`(P(L \\le y), Q(L \\le y))` of a finite pair given by its atoms ``(loss, p, q)``
    (losses ``"+inf"``, ``"-inf"`` or balls); a ball loss that cannot be compared with y raises."""
    a, b = arb(0), arb(0)
    for loss, p, q in atoms:
        if loss == "+inf":
            continue
        if loss == "-inf" or loss <= y:
            a, b = a + p, b + q
        elif not loss > y:
            raise ArithmeticError("grid node ball straddles a loss atom")
    return a, b


def rational_above(x: arb) -> Fraction:
    """An exact rational at least every point of the ball ``x`` (its upper end)."""
    m, e = x.upper().man_exp()
    m, e = int(m), int(e)
    return Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e)


def sampled_atoms(atoms, q: float, direction: str) -> tuple:
    """The images of the base's loss atoms under Poisson sampling (floats, for grid nodes):
    :math:`\\pm\\log(1 - q + q e^{a})`, and the least / greatest loss :math:`\\pm\\log(1-q)`."""
    out = [math.log1p(-q)] if direction == "remove" else [-math.log1p(-q)]
    for a in atoms:
        v = math.log1p(q * math.expm1(min(a, 700.0)))
        out.append(v if direction == "remove" else -v)
    return tuple(out)


def sampled_support(base_support, q: Fraction, direction: str):
    r"""``loss_support`` of Poisson sampling with rate q of a symmetric base whose support is
    ``(y, m)`` (:func:`poisson_tails`).  remove: the loss :math:`\log(1-q+qe^{L})` is increasing
    in L, so its finite values are at most :math:`\log(1-q+qe^{y})` and it is +oo with
    probability :math:`q m`.  add: the loss :math:`-\log(1-q+qe^{L})` for L under the base's Q;
    the least finite base loss is -y (symmetry), and -oo (Q-mass m) when m > 0, so its finite
    values are at most :math:`-\log(1-q+qe^{-y})` (m = 0) or :math:`-\log(1-q)` (m > 0); it is
    never +oo (the add pair's Q, (1-q)Q_f + qP_f, charges every set Q_f does)."""
    if base_support is None:
        return None
    y, m = base_support
    with ctx.workprec(128):
        one, qb = 1 - _ball_at(q, 128), _ball_at(q, 128)
        if direction == "remove":
            return rational_above((one + qb * _ball_at(y, 128).exp()).log()), q * m
        if m > 0:
            return rational_above(-one.log()), Fraction(0)
        return rational_above(-(one + qb * (-_ball_at(y, 128)).exp()).log()), Fraction(0)


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
    2022, Prop. 2.5): the view of ``symdp.events.EpsDelta(eps0, delta0)``, its four atoms
    (:func:`symdp.events.eps_delta.atoms`, losses :math:`+\infty, \varepsilon_0,
    -\varepsilon_0, -\infty`) summed by :func:`symdp.events.losses.atom_tails`."""

    eps0: Fraction
    delta0: Fraction

    def __post_init__(self):
        event = EpsDeltaEvent.named(self.eps0, self.delta0, "eps0", "delta0")
        object.__setattr__(self, "eps0", sized(event.eps, "eps0"))
        object.__setattr__(self, "delta0", event.delta)
        object.__setattr__(self, "event", event)

    @property
    def name(self):
        return f"f_(eps,delta), eps0={float(self.eps0):g}, delta0={float(self.delta0):g}"

    def tails(self, y):
        return atom_tails(ARB, eps_delta_mechanism.atoms(ARB, ball(self.eps0), ball(self.delta0)), y)

    def at_most_tails(self, y):
        return atoms_at_most(eps_delta_mechanism.atoms(ARB, ball(self.eps0), ball(self.delta0)), y)

    def loss_window(self, tail):
        return -float(self.eps0), float(self.eps0)

    def loss_atoms(self):
        return (-float(self.eps0), float(self.eps0))

    def loss_support(self):
        """Finite losses ±ε₀, +oo with probability δ₀ (the four atoms), exactly."""
        return self.eps0, self.delta0


@dataclass(frozen=True)
class Laplace(Pair):
    r""":math:`P = \mathrm{Lap}(1, b)`, :math:`Q = \mathrm{Lap}(0, b)` (sensitivity 1, scale b):
    the view of ``symdp.events.Laplace(b)``, tails :func:`symdp.events.laplace.tails` at
    :math:`\mu = 1/b` in balls."""

    b: Fraction

    def __post_init__(self):
        event = LaplaceEvent(self.b)
        object.__setattr__(self, "b", sized(event.b, "b"))
        sized(1 / self.b, "1/b")      # the tails take a ball of 1/b: refused here, by name
        object.__setattr__(self, "event", event)

    @property
    def name(self):
        return f"Laplace, scale b={float(self.b):g}"

    def tails(self, y):
        return laplace_mechanism.tails(ARB, ball(1 / self.b), y)

    def loss_window(self, tail):
        return -1 / float(self.b), 1 / float(self.b)

    def loss_atoms(self):
        return (-1 / float(self.b), 1 / float(self.b))

    def loss_support(self):
        """The loss (|x| - |x - 1|)/b lies in [-1/b, 1/b]; never +oo."""
        return 1 / self.b, Fraction(0)


#: the pairs of a symmetric trade-off function, the bases :class:`Subsampled` and
#: ``sampled.PoissonSubsampled`` accept
SYMMETRIC = (Gaussian, Laplace, EpsDelta, RandomizedResponse)


@dataclass(frozen=True)
class Subsampled(Pair):
    r"""The pair of :math:`C_p(f)` for a **symmetric** base f given by its pair (P, Q)
    (Dong-Roth-Su 2022, Def. 4.1, Thm 4.2, Eq. 14): the profile is that of
    :math:`f_p = pf + (1-p)\mathrm{Id}` for :math:`\alpha \ge 1` and of :math:`f_p^{-1}` for
    :math:`\alpha \le 1`, i.e. the tails of Poisson sampling (:func:`poisson_tails`, q = p) in
    the remove direction for :math:`y > 0` and in the add direction for :math:`y \le 0`
    (:math:`C_p(f)` is symmetric, so L under P has the law of −L under Q).  With
    ``Gaussian(1/sigma)`` this is :class:`UniformGaussian` (a test checks the two agree)."""

    base: Pair
    p: Fraction

    def __post_init__(self):
        if not isinstance(self.base, SYMMETRIC):
            raise InvalidParameterError(f"base must be a symmetric pair (Gaussian, Laplace, EpsDelta, "
                                        f"RandomizedResponse); got base={shown(self.base)}")
        event = SampledWithoutReplacement(self.base.event, p=self.p)
        object.__setattr__(self, "p", event.p)
        object.__setattr__(self, "event", event)

    @property
    def name(self):
        return f"C_p({self.base.name}), p={float(self.p):g}"

    def tails(self, y):
        if y > 0:
            direction = "remove"
        elif y <= 0:
            direction = "add"
        else:
            raise ArithmeticError("grid node ball contains 0; use exact grid nodes")
        return poisson_tails(ARB, self.base.tails, self.base.lower_tails, ball(self.p), direction, y,
                             self.base.at_most_tails)

    def loss_window(self, tail):
        lo, hi = self.base.loss_window(tail)
        p = float(self.p)
        top = math.log1p(p * math.expm1(min(hi, 700.0)))
        return -top, top

    def loss_atoms(self):
        return sampled_atoms(self.base.loss_atoms(), float(self.p), "remove") + \
            sampled_atoms(self.base.loss_atoms(), float(self.p), "add")

    def loss_support(self):
        """Above 0 the tails are the remove direction's (:func:`sampled_support`)."""
        return sampled_support(self.base.loss_support(), self.p, "remove")
