r"""Privacy-loss distributions: from a pair (P, Q) to its privacy profile, and to that of a product.

(One module of about 600 lines on purpose: the five loss laws -- exact atoms, Gaussian,
Laplace, densities, lattice -- implement the one interface that :func:`product_profile`
composes; split by law, that interface would be spread over five files.)

For :math:`f = T(P, Q)` (Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 2.1) let
:math:`L = \log(dQ/dP)` be the privacy loss, a random variable under Q (:math:`+\infty`
where P has no mass).  A test φ has type I error :math:`E_P\varphi` and power
:math:`E_Q\varphi = 1 - \beta`, so Prop. 2.12's profile is

.. math::
    \delta_f(\varepsilon) = 1 + f^*(-e^{\varepsilon})
      = \sup_\varphi\,\big(E_Q\varphi - e^{\varepsilon} E_P\varphi\big)
      = E_Q\big[(1 - e^{\varepsilon - L})_+\big],

the supremum being attained by the Neyman--Pearson test :math:`\{L > \varepsilon\}`.  The
formula is meaningful for every real ε (it is :math:`1 + f^*(-e^\varepsilon)` for all ε);
ε < 0 is needed below.

**Products** (DRS Def. 3.1): :math:`f \otimes g = T(P\times P', Q\times Q')`.  The privacy
loss of a product measure is the sum :math:`L_1 + L_2` of independent losses, so

.. math::
    \delta_{f\otimes g}(\varepsilon) = E\big[(1 - e^{\varepsilon - L_1 - L_2})_+\big]
      = E_{L_1}\big[\delta_g(\varepsilon - L_1)\big].

Objects here:

* :class:`LossAtoms` -- a finite loss distribution with *exact* losses and masses
  (f_{ε,δ}, any piecewise-linear trade-off function, C_p(f_{ε,δ})); products are exact
  convolutions (equal losses merged), profiles are finite sums, ε(δ) is a closed form
  on the segment where δ lies.
* :class:`GaussianLoss` -- :math:`L \sim N(\mu^2/2, \mu^2)` for :math:`G_\mu`.
* :class:`LaplaceLoss` -- for :math:`T(\mathrm{Lap}(0,1), \mathrm{Lap}(\mu,1))`: atoms at
  ±μ and a density on (−μ, μ).
* :class:`DensityLoss` -- any T(P, Q) given by densities p, q.

:func:`product_profile` composes them by the formula above (discrete factors as sums,
continuous ones by mpmath quadrature); :func:`epsilon_for_delta` inverts a profile.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError, RootFindingError
from ..numeric.mp_compiler import to_mpf
from ..numeric.roots import bracketed_root, decreasing_inverse
from ..core.validation import probability, shown
from ..events import eps_delta as eps_delta_mechanism
from ..events import gaussian as gaussian_mechanism
from ..events import laplace as laplace_mechanism
from ..events.backends import MPMATH, SYMPY
from ..events.losses import profile_from_tails

__all__ = ["LossAtoms", "GaussianLoss", "LaplaceLoss", "DensityLoss", "product_profile",
           "epsilon_for_delta", "MAX_ATOMS"]

#: exact products are refused beyond this many atoms (the heterogeneous product of k
#: (ε_i, δ_i) pairs has up to 2^k finite losses; Murtagh--Vadhan 2016 show that computing
#: the optimal composition exactly is #P-complete, so no algorithm avoids this in general)
MAX_ATOMS = 1 << 13


def _exact_loss(value) -> sp.Expr:
    """A loss in a canonical exact form (logs of products expanded) so equal losses merge."""
    value = sp.sympify(value)
    if value in (sp.oo, -sp.oo):
        return value
    return sp.expand(sp.expand_log(value, force=True))


def _mp(value):
    if value == sp.oo:
        return mpmath.inf
    return to_mpf(value)


def compare_exact(a: sp.Expr, b: sp.Expr) -> int:
    """Sign of a - b for real exact numbers: exact when rational, else by interval-safe
    evaluation at increasing precision (and exact equality tested with ``simplify``)."""
    if a == b:
        return 0
    if a == sp.oo:
        return 1
    if b == sp.oo:
        return -1
    d = sp.sympify(a - b)
    if d.is_Rational:
        return 1 if d > 0 else (-1 if d < 0 else 0)
    for dps in (30, 60, 120):
        with mpmath.workdps(dps):
            v = to_mpf(d)
            if abs(v) > mpmath.mpf(10) ** (-dps + 10):
                return 1 if v > 0 else -1
    if sp.simplify(d) == 0:
        return 0
    raise ArithmeticError(f"cannot decide the sign of {d}")


@dataclass(frozen=True)
class LossAtoms:
    r"""A finite privacy-loss distribution under Q: ``atoms = ((L, q), ...)`` with exact
    losses L (SymPy reals or ``oo``) and exact masses q summing to 1.

    The P-mass of a finite atom is :math:`q e^{-L}`; the rest of P sits where Q has no
    mass (:math:`L = -\infty`), which no profile under Q sees.
    """

    atoms: tuple

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_eps_delta(cls, eps, delta) -> "LossAtoms":
        r""":math:`f_{\varepsilon,\delta} = T(P, Q)` with the pair of Kairouz, Oh, Viswanath 2015
        (Sec. 3; DRS Prop. 2.5), :func:`symdp.events.eps_delta.atoms`: under the alternative
        the loss is +∞ w.p. δ, ε w.p. :math:`(1-\delta)e^\varepsilon/(1+e^\varepsilon)`, -ε w.p.
        :math:`(1-\delta)/(1+e^\varepsilon)`."""
        eps = eps_delta_mechanism.check_eps(eps)
        delta = eps_delta_mechanism.check_delta(delta)
        return cls.from_pair(eps_delta_mechanism.atoms(SYMPY, eps, delta))

    @classmethod
    def from_pair(cls, atoms) -> "LossAtoms":
        """The loss law of a finite pair given as ``[(loss, P-mass, Q-mass)]`` (the atoms of
        ``symdp.events``, P the alternative): the losses under P; P-mass at ``"-inf"`` is none."""
        inf = {"+inf": sp.oo, "-inf": -sp.oo}
        return cls._normalised([(inf.get(loss, loss) if isinstance(loss, str) else loss, p)
                                for loss, p, _ in atoms])

    @classmethod
    def from_piecewise_linear(cls, f) -> "LossAtoms":
        r"""The pair (P, Q) of a piecewise-linear trade-off function, read off its pieces.

        A segment of slope :math:`-s < 0` from :math:`(a_0, b_0)` to :math:`(a_1, b_1)` is an
        atom with P-mass :math:`a_1 - a_0`, Q-mass :math:`b_0 - b_1` and likelihood ratio s
        (Neyman--Pearson rejects it as a block), so loss :math:`\log s`; the jump
        :math:`1 - f(0)` at 0 is Q-mass where P has none (loss +∞); a flat zero piece is
        P-mass where Q has none.
        """
        atoms = []
        parts = [p for p in f.pieces() if p.lo != p.hi]
        top = sp.simplify(parts[0].at(sp.S.Zero))
        if top != 1:
            atoms.append((sp.oo, sp.simplify(1 - top)))
        for p in parts:
            if not p.is_linear:
                raise InvalidParameterError(f"f must be piecewise linear; {f} has the piece {p.g.expr}")
            t = p.g.variables[0]
            slope = sp.simplify(sp.diff(p.g.expr, t))
            if slope == 0:
                continue
            q_mass = sp.simplify(p.at(p.lo) - p.at(p.hi))
            atoms.append((sp.log(-slope), q_mass))
        return cls._normalised(atoms)

    @classmethod
    def _normalised(cls, atoms) -> "LossAtoms":
        merged: dict = {}
        for loss, mass in atoms:
            mass = sp.sympify(mass)
            if mass == 0:
                continue
            loss = _exact_loss(loss)
            merged[loss] = merged.get(loss, sp.S.Zero) + mass
        if len(merged) > MAX_ATOMS:
            raise InvalidParameterError(
                f"the product has {len(merged)} distinct losses, more than {MAX_ATOMS}: exact "
                "composition of heterogeneous (eps, delta) pairs is #P-hard (Murtagh-Vadhan 2016); "
                "use fewer factors")
        return cls(tuple(merged.items()))

    # ------------------------------------------------------------ algebra
    def tensor(self, other: "LossAtoms") -> "LossAtoms":
        """The loss of the product pair: losses add, masses multiply (independence)."""
        return LossAtoms._normalised(
            [(a + b if sp.oo not in (a, b) else sp.oo, m * n)
             for (a, m), (b, n) in itertools.product(self.atoms, other.atoms)])

    def power(self, n: int) -> "LossAtoms":
        """The n-fold product, by repeated squaring."""
        if n < 1:
            raise InvalidParameterError(f"n must be an integer >= 1; got n={n}")
        result, base = None, self
        while n:
            if n & 1:
                result = base if result is None else result.tensor(base)
            n >>= 1
            if n:
                base = base.tensor(base)
        return result

    # ------------------------------------------------------------ profile
    @property
    def infinite_mass(self) -> sp.Expr:
        """Q-mass where P has none: the profile's limit as ε → ∞."""
        return sum((m for loss, m in self.atoms if loss == sp.oo), sp.S.Zero)

    def sorted_finite(self) -> list:
        """Finite atoms by decreasing loss (compared exactly)."""
        import functools

        finite = [(loss, m) for loss, m in self.atoms if loss != sp.oo]
        return sorted(finite, key=functools.cmp_to_key(lambda a, b: compare_exact(b[0], a[0])))

    def profile_exact(self, eps) -> sp.Expr:
        r""":math:`\delta(\varepsilon) = \sum_{L > \varepsilon} q_L (1 - e^{\varepsilon - L})`
        (+ the mass at +∞), exactly, at an exact ε."""
        eps = sp.sympify(eps)
        total = self.infinite_mass
        for loss, m in self.atoms:
            if loss != sp.oo and compare_exact(loss, eps) > 0:
                total += m * (1 - sp.exp(eps - loss))
        return total

    def profile(self, eps):
        """The profile at the current mpmath precision (an mpf).  For an exact ε (SymPy
        number, int, decimal string) which atoms count is decided exactly; for an mpf ε by
        comparing at the working precision."""
        if isinstance(eps, (mpmath.mpf, float)):
            e, exact = mpmath.mpf(eps), None
        else:
            from ..core.validation import to_exact

            exact = to_exact("eps", eps)
            e = to_mpf(exact)
        total = mpmath.mpf(0)
        for loss, m in self.atoms:
            if loss == sp.oo:
                total += to_mpf(m)
                continue
            L = to_mpf(loss)
            above = compare_exact(loss, exact) > 0 if exact is not None else L > e
            if above:
                total += to_mpf(m) * (1 - mpmath.exp(e - L))
        return total

    def kinks(self):
        """Where the profile is not smooth: at the finite losses."""
        return [to_mpf(loss) for loss, _ in self.atoms if loss != sp.oo]

    def expect(self, h, cuts=()):
        r""":math:`E_Q[h(L)]` at the current precision (h gets an mpf, or ``mpmath.inf``)."""
        return mpmath.fsum(to_mpf(m) * h(_mp(loss)) for loss, m in self.atoms)

    def epsilon_exact(self, delta) -> sp.Expr:
        r"""The smallest ε ≥ 0 with :math:`\delta(\varepsilon) \le \delta`, in closed form.

        Between consecutive losses :math:`L_{j+1} \le \varepsilon \le L_j` the profile is
        :math:`A_j - B_j e^{\varepsilon}` with :math:`A_j = q_\infty + \sum_{i\le j} q_i`,
        :math:`B_j = \sum_{i \le j} q_i e^{-L_i}`, so :math:`\varepsilon = \log((A_j-\delta)/B_j)`
        on the segment holding δ.  ``oo`` when δ is below the mass at +∞.
        """
        delta = probability("delta", delta)
        inf_mass = self.infinite_mass
        if compare_exact(delta, inf_mass) < 0:
            return sp.oo
        if compare_exact(self.profile_exact(0), delta) <= 0:
            return sp.S.Zero
        A, B = inf_mass, sp.S.Zero
        finite = self.sorted_finite()
        for j, (loss, m) in enumerate(finite):
            A, B = A + m, B + m * sp.exp(-loss)
            nxt = finite[j + 1][0] if j + 1 < len(finite) else None
            low = sp.S.Zero if nxt is None or compare_exact(nxt, 0) < 0 else nxt
            # profile at the lower end of this segment
            at_low = A - B * sp.exp(low)
            if compare_exact(at_low, delta) >= 0:
                ratio = (A - delta) / B
                # one rational function of the e^{eps_i} (cheap to simplify for few atoms)
                return sp.log(sp.factor(sp.together(ratio)) if len(self.atoms) <= 64 else ratio)
        raise RootFindingError(f"no epsilon found for delta={delta}")  # pragma: no cover

    def epsilon(self, delta):
        """:meth:`epsilon_exact` as an mpf at the current precision."""
        value = self.epsilon_exact(delta)
        return mpmath.inf if value == sp.oo else to_mpf(value)

    # ------------------------------------------------------------ the trade-off function
    def trade_off(self, alpha):
        r""":math:`T(P, Q)(\alpha)` by Neyman--Pearson on the atoms: reject the atoms of
        largest likelihood ratio first, the boundary atom in part (randomised), at the
        current precision."""
        a = to_mpf(sp.sympify(alpha)) if not isinstance(alpha, mpmath.mpf) else alpha
        power = to_mpf(self.infinite_mass)
        used = mpmath.mpf(0)
        for loss, m in self.sorted_finite():
            q = to_mpf(m)
            pm = q * mpmath.exp(-to_mpf(loss))
            if used + pm >= a:
                power += q * (a - used) / pm
                return max(mpmath.mpf(0), 1 - power)
            used += pm
            power += q
        return max(mpmath.mpf(0), 1 - power)

    def __len__(self):
        return len(self.atoms)


def _digits_of_size(x) -> int:
    """Decimal digits of the integer part of |x| (0 for |x| < 1, and for 0, inf, nan)."""
    if not mpmath.isfinite(x) or abs(x) < 1:
        return 0
    return int(mpmath.log10(abs(x))) + 1


class GaussianLoss:
    r"""The loss of :math:`G_\mu = T(N(0,1), N(\mu,1))`: :math:`L(x) = \mu x - \mu^2/2`, so
    under Q = N(μ, 1), :math:`L \sim N(\mu^2/2, \mu^2)` (:func:`symdp.events.gaussian.loss_law`).
    Its profile (DRS Cor. 2.13, valid for every real ε) is :math:`A(\varepsilon) -
    e^\varepsilon B(\varepsilon)` of the tails :func:`symdp.events.gaussian.tails`:
    :math:`\Phi(-\varepsilon/\mu + \mu/2) - e^\varepsilon\Phi(-\varepsilon/\mu - \mu/2)`."""

    def __init__(self, mu):
        self.mu = gaussian_mechanism.check_mu(mu)

    def profile(self, eps):
        e = _loss_level(eps)
        if mpmath.isinf(e):
            return mpmath.mpf(0) if e > 0 else mpmath.mpf(1)   # no loss atom at +-inf
        # e^eps carries the absolute error of eps times e^eps: keep log10|eps| more digits so
        # the difference is right to the working precision relative to its size
        with mpmath.extradps(_digits_of_size(e) + 5):
            m = to_mpf(self.mu)
            if m == 0:
                value = mpmath.mpf(0) if e >= 0 else 1 - mpmath.exp(e)
            else:
                value = profile_from_tails(MPMATH, lambda y: gaussian_mechanism.tails(MPMATH, m, y), e)
        return +value

    def kinks(self):
        return []

    def expect(self, h, cuts=()):
        m = to_mpf(self.mu)
        if m == 0:
            return h(mpmath.mpf(0))
        mean, sd = gaussian_mechanism.loss_law(m)
        density = lambda l: mpmath.npdf(l, mean, sd)  # noqa: E731
        pts = sorted({-mpmath.inf, mean - 8 * sd, mean, mean + 8 * sd, mpmath.inf, *cuts})
        return mpmath.quad(lambda l: density(l) * h(l), pts)


def _loss_level(eps):
    """``eps`` as an mpf (+-inf allowed: the profile's limits); NaN is refused by name."""
    e = mpmath.mpf(eps)
    if mpmath.isnan(e):
        raise InvalidParameterError(f"eps must be a real number or +-inf; got eps={shown(eps)}")
    return e


class LaplaceLoss:
    r"""The loss of :math:`T(\mathrm{Lap}(0,1), \mathrm{Lap}(\mu,1))`:
    :math:`L(x) = |x| - |x - \mu|` under :math:`Q = \mathrm{Lap}(\mu, 1)` is μ w.p. 1/2
    (x ≥ μ), −μ w.p. :math:`e^{-\mu}/2` (x ≤ 0), and :math:`2x - \mu` for 0 < x < μ, with
    density :math:`e^{(l-\mu)/2}/4` on (−μ, μ).  The profile, from the definition by
    integrating that density (valid for every real ε):

    .. math::
        \delta(\varepsilon) = 1 - e^{\varepsilon}\ (\varepsilon \le -\mu),\quad
        1 - e^{(\varepsilon-\mu)/2}\ (|\varepsilon| \le \mu),\quad 0\ (\varepsilon \ge \mu).
    """

    def __init__(self, mu):
        self.mu = laplace_mechanism.check_mu(mu)

    def profile(self, eps):
        m = to_mpf(self.mu)
        e = _loss_level(eps)
        if mpmath.isinf(e):
            return mpmath.mpf(0) if e > 0 else mpmath.mpf(1)   # no loss atom at +-inf
        if m == 0:
            return mpmath.mpf(0) if e >= 0 else 1 - mpmath.exp(e)
        # A(eps) - e^eps B(eps) of symdp.events.laplace.tails (the closed form above)
        return profile_from_tails(MPMATH, lambda y: laplace_mechanism.tails(MPMATH, m, y), e)

    def kinks(self):
        m = to_mpf(self.mu)
        return [-m, m]

    def expect(self, h, cuts=()):
        m = to_mpf(self.mu)
        atoms = mpmath.fsum(mass * h(loss) for loss, mass, _ in laplace_mechanism.loss_atoms(MPMATH, m))
        if m == 0:
            return atoms
        pts = sorted({-m, m, *[c for c in cuts if -m < c < m]})
        return atoms + mpmath.quad(lambda l: laplace_mechanism.loss_density(MPMATH, m, l) * h(l), pts)


class DensityLoss:
    r"""T(P, Q) for P, Q with densities ``p``, ``q`` (mpmath callables) on ``support``
    (a list of breakpoints, ends may be ±inf): :math:`L = \log(q/p)`,

    .. math::
        \delta(\varepsilon) = \int (q - e^{\varepsilon} p)_+ \,dx,\qquad
        E_Q[h(L)] = \int q(x)\, h(\log(q(x)/p(x)))\,dx.

    The profile integral is split where :math:`q = e^\varepsilon p` (sign changes located on
    a grid of the support, then refined), so quadrature sees smooth pieces."""

    def __init__(self, p, q, support, grid: int = 64, kinks=()):
        self.p, self.q = p, q
        self.support = list(support)
        self.grid = grid
        self._kinks = list(kinks)

    def _roots(self, g) -> list:
        """Points of the support where g changes sign (located on a grid of each piece, then
        refined by bracketed root-finding)."""
        pts = []
        for a, b in zip(self.support[:-1], self.support[1:]):
            a_, b_ = (max(a, mpmath.mpf(-60)) if a == -mpmath.inf else a,
                      min(b, mpmath.mpf(60)) if b == mpmath.inf else b)
            xs = mpmath.linspace(a_, b_, self.grid)
            vals = [g(x) for x in xs]
            for (x0, v0), (x1, v1) in zip(zip(xs, vals), zip(xs[1:], vals[1:])):
                if v0 == 0:
                    pts.append(x0)
                elif v0 * v1 < 0:
                    pts.append(bracketed_root(g, x0, x1))
        return pts

    def _cuts(self, g):
        return sorted(set(self.support) | set(self._roots(g)))

    def _loss(self, x):
        qx, px = self.q(x), self.p(x)
        if qx == 0:
            return -mpmath.inf
        return mpmath.inf if px == 0 else mpmath.log(qx / px)

    def profile(self, eps):
        e = mpmath.exp(mpmath.mpf(eps))
        g = lambda x: self.q(x) - e * self.p(x)  # noqa: E731
        return mpmath.quad(lambda x: max(g(x), 0), self._cuts(g))

    def kinks(self):
        """Losses where the profile is not smooth (atoms of the loss), as given by the caller."""
        return list(self._kinks)

    def expect(self, h, cuts=()):
        """E_Q[h(L)]; ``cuts`` are losses where h has a kink: the x with L(x) = cut split the
        quadrature."""
        def integrand(x):
            qx = self.q(x)
            if qx == 0:
                return mpmath.mpf(0)
            return qx * h(self._loss(x))

        points = set(self.support)
        for c in cuts:
            points |= set(self._roots(lambda x: self._loss(x) - c))
        return mpmath.quad(integrand, sorted(points))


def product_profile(losses, eps):
    r""":math:`\delta_{f_1\otimes\cdots\otimes f_n}(\varepsilon)
    = E_{L_1}[\delta_{f_2\otimes\cdots\otimes f_n}(\varepsilon - L_1)]` at the current
    precision.  Discrete factors are multiplied out exactly first (one :class:`LossAtoms`);
    the last continuous factor is evaluated by its closed-form profile, the others by
    nested quadrature (so keep them few: each adds a dimension)."""
    discrete = [l for l in losses if isinstance(l, LossAtoms)]
    # the innermost factor is evaluated by its profile: a closed form (Gaussian, Laplace) last
    continuous = sorted((l for l in losses if not isinstance(l, LossAtoms)),
                        key=lambda l: isinstance(l, (GaussianLoss, LaplaceLoss)))
    factors = []
    if discrete:
        prod = discrete[0]
        for d in discrete[1:]:
            prod = prod.tensor(d)
        factors.append(prod)
    factors += continuous

    def rec(i, e):
        if e == mpmath.inf:
            return mpmath.mpf(0)
        if e == -mpmath.inf:
            return mpmath.mpf(1)
        if i == len(factors) - 1:
            return factors[i].profile(e)
        inner = lambda l: mpmath.mpf(1) if l == mpmath.inf else rec(i + 1, e - l)  # noqa: E731
        # the inner profile has kinks where e - l is a kink of the last factor's profile:
        # quadrature is split there (exact for two continuous factors; deeper nests are smooth
        # only piecewise in more places, which tanh-sinh handles less accurately)
        cuts = [e - k for k in factors[-1].kinks()] if i == len(factors) - 2 else []
        return factors[i].expect(inner, cuts)

    eps = mpmath.mpf(eps) if not isinstance(eps, sp.Basic) else to_mpf(eps)
    return +rec(0, eps)


def epsilon_for_delta(profile, delta, hi=None):
    r"""The smallest ε ≥ 0 with ``profile(ε) <= delta`` (the profile is non-increasing), by
    bracketed root-finding (:func:`symdp.numeric.roots.decreasing_inverse`) at the
    current precision; the bracket [0, hi] is doubled until it holds the root (never
    returned as the answer: past 2^60 the search says the root lies beyond).  The
    root-find is on :math:`\log\delta(\varepsilon) = \log\delta`, so its tolerance is
    relative to δ: an absolute one would accept any ε once δ(ε) is below it (δ = 1e-300 used
    to give the bracket's end 64)."""
    delta = mpmath.mpf(delta)
    if profile(mpmath.mpf(0)) <= delta:
        return mpmath.mpf(0)
    hi = mpmath.mpf(1) if hi is None else mpmath.mpf(hi)
    for _ in range(60):
        if profile(hi) <= delta:
            break
        hi *= 2
    else:
        raise RootFindingError(f"eps(delta={mpmath.nstr(delta, 5)}) lies beyond eps = "
                               f"{mpmath.nstr(hi, 5)}: the profile stays above delta up to there")
    if delta == 0:
        return decreasing_inverse(profile, delta, lo=0, hi=hi)
    # on log δ(ε) = log δ, nearly linear in ε (a Gaussian tail's log is close to a parabola):
    # on δ(ε)/δ = 1, exponential in ε, the bracketing solver stalled and bisection did the work
    return decreasing_inverse(lambda e: _log(profile(e)), mpmath.log(delta), lo=0, hi=hi)


def _log(x):
    """log x, and -inf at x = 0 (past the largest loss δ(ε) = 0)."""
    return mpmath.log(x) if x > 0 else mpmath.ninf


def _arb_of(value, prec: int):
    """A rigorous arb ball around an exact real SymPy number: exact for rationals, else the
    ball compiler's enclosure (:func:`symdp.numeric.ball_compiler.evaluate_ball`)."""
    from flint import arb

    v = sp.sympify(value)
    if v.is_Rational:
        return arb(int(v.p)) / int(v.q)
    from ..numeric.ball_compiler import evaluate_ball

    return evaluate_ball(v, {}, prec + 32)


class LatticeLoss:
    r"""A privacy-loss distribution on a lattice: :math:`L = m\,g` (m an integer, g > 0 exact)
    or +∞, with masses held as Arb balls (python-flint), enclosing the exact masses rigorously.  Powers are polynomial powers of the
    generating function :math:`\sum_m q_m z^m` (fast, with rigorous error radii for the
    arithmetic), so :math:`f^{\otimes T}` for :math:`T = 10^4` takes about a second.

    Used for :math:`f_{\varepsilon,\delta}` (losses ±ε) and :math:`C_p(f_{\varepsilon,\delta})`
    (losses :math:`\pm\varepsilon', 0`, Eq. 14 read as a pair (P, Q)).
    """

    def __init__(self, g, offset: int, coeffs, inf_mass, prec: int):
        self.g, self.offset, self.coeffs, self.inf_mass, self.prec = g, offset, coeffs, inf_mass, prec

    @classmethod
    def from_atoms(cls, atoms: LossAtoms, g, prec: int = 256) -> "LatticeLoss":
        from flint import arb, ctx

        from ..core.validation import to_exact

        g = to_exact("g", g)
        ms = {}
        inf_mass = sp.S.Zero
        for loss, m in atoms.atoms:
            if loss == sp.oo:
                inf_mass += m
                continue
            k = sp.simplify(loss / g)
            if not k.is_Integer:
                raise InvalidParameterError(f"loss {loss} is not an integer multiple of g={g}")
            ms[int(k)] = ms.get(int(k), sp.S.Zero) + m
        lo, hi = min(ms), max(ms)
        old = ctx.prec
        ctx.prec = prec
        try:
            coeffs = [_arb_of(ms.get(j, 0), prec) for j in range(lo, hi + 1)]
            inf = _arb_of(inf_mass, prec) if inf_mass != 0 else arb(0)
        finally:
            ctx.prec = old
        return cls(g, lo, coeffs, inf, prec)

    def power(self, n: int) -> "LatticeLoss":
        from flint import arb_poly, ctx

        old = ctx.prec
        ctx.prec = self.prec
        try:
            poly = arb_poly(self.coeffs) ** int(n)
            inf = 1 - (1 - self.inf_mass) ** int(n)
            coeffs = [poly[j] for j in range(poly.degree() + 1)]
        finally:
            ctx.prec = old
        return LatticeLoss(self.g, self.offset * int(n), coeffs, inf, self.prec)

    def _index_above(self, t) -> int:
        """Smallest lattice index j with (offset + j) g > t (t an exact number or mpf)."""
        with mpmath.workdps(50):
            ratio = (to_mpf(t) if not isinstance(t, mpmath.mpf) else t) / to_mpf(self.g)
            m = int(mpmath.floor(ratio)) + 1
            if not isinstance(t, mpmath.mpf) and compare_exact((m - 1) * self.g, sp.sympify(t)) > 0:
                m -= 1  # ratio was just below an integer m - 1 with (m - 1) g > t exactly
        return max(0, m - self.offset)

    def profile_ball(self, t):
        r"""Arb enclosure of :math:`\delta(t) = q_\infty + \sum_{mg > t} q_m (1 - e^{t - mg})`."""
        from flint import arb, ctx

        old = ctx.prec
        ctx.prec = self.prec
        try:
            j0 = self._index_above(t)
            g = _arb_of(self.g, self.prec)
            if not isinstance(t, mpmath.mpf):
                from ..core.validation import to_exact

                t = to_exact("eps", t)
            tt = _arb_of(t, self.prec) if not isinstance(t, mpmath.mpf) else arb(mpmath.nstr(t, 80))
            total = self.inf_mass
            for j in range(j0, len(self.coeffs)):
                total += self.coeffs[j] * (1 - (tt - (self.offset + j) * g).exp())
            return total
        finally:
            ctx.prec = old

    def epsilon_ball(self, delta):
        r"""Arb enclosure of the smallest t ≥ 0 with δ(t) ≤ δ: walk the lattice from the top,
        :math:`t = \log((A - \delta)/B)` on the segment holding δ (``None`` if δ < q_∞)."""
        from flint import arb, ctx

        old = ctx.prec
        ctx.prec = self.prec
        try:
            d = _arb_of(probability("delta", delta), self.prec)
            if d < self.inf_mass:
                return None
            g = _arb_of(self.g, self.prec)
            A, B = self.inf_mass, arb(0)
            for j in range(len(self.coeffs) - 1, -1, -1):
                m = self.offset + j
                A += self.coeffs[j]
                B += self.coeffs[j] * (-(m * g)).exp()
                low = max(m - 1, 0) * g if m - 1 >= 0 else arb(0)
                if m <= 0:
                    low = arb(0)
                if A - B * low.exp() >= d or m <= 0:
                    value = ((A - d) / B).log()
                    return value if not (value < 0) else arb(0)
            return arb(0)
        finally:
            ctx.prec = old
