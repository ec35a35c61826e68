r"""The central limit theorem for f-DP and its use for noisy SGD.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Sec. 3.3: for a trade-off function f,

.. math::
    \mathrm{kl}(f) = -\int_0^1 \log|f'(x)|\,dx,\quad
    \kappa_2(f) = \int_0^1 \log^2|f'(x)|\,dx,\quad
    \kappa_3(f) = \int_0^1 |\log|f'(x)||^3\,dx,\quad
    \bar\kappa_3(f) = \int_0^1 |\log|f'(x)| + \mathrm{kl}(f)|^3\,dx.

For :math:`f = T(P, Q)`, :math:`|f'(\alpha)|` is the likelihood ratio q/p at the
Neyman--Pearson threshold, and as α runs uniformly over [0, 1] that threshold point is
distributed as P (quantile transform), so with :math:`\ell = \log(q/p)` under P:
:math:`\mathrm{kl}(f) = E_P[-\ell] = \mathrm{KL}(P\|Q)`, :math:`\kappa_2 = E_P[\ell^2]`,
:math:`\kappa_3 = E_P|\ell|^3`, :math:`\bar\kappa_3 = E_P|\ell + \mathrm{kl}|^3`.

**Closed forms** (derived in ``proofs/drs_clt_functionals.py``): for :math:`G_\mu`,
:math:`\ell = -\mu Z - \mu^2/2` with Z ~ N(0, 1), so :math:`\mathrm{kl} = \mu^2/2`,
:math:`\kappa_2 = \mu^2 + \mu^4/4`, :math:`\bar\kappa_3 = \mu^3 E|Z|^3 = 2\sqrt{2/\pi}\,\mu^3`;
for :math:`f_{\varepsilon,0}`, :math:`\ell = \pm\varepsilon` with P-probabilities
:math:`1/(1+e^\varepsilon)`, :math:`e^\varepsilon/(1+e^\varepsilon)`:
:math:`\mathrm{kl} = \varepsilon\tanh(\varepsilon/2)`, :math:`\kappa_2 = \varepsilon^2`,
:math:`\kappa_3 = \varepsilon^3`.  (For δ > 0, f vanishes on [1 − δ, 1], :math:`\log|f'| = -\infty`
there and kl = ∞: the CLT does not apply.)

**CLT** (DRS Sec. 3.3, the CLT and its Berry--Esseen form): for symmetric
:math:`f_1, \dots, f_n` with :math:`K = \sum \mathrm{kl}(f_i)`,
:math:`s^2 = \sum(\kappa_2(f_i) - \mathrm{kl}(f_i)^2)`, :math:`\mu = 2K/s` and
:math:`\gamma = 0.56\,\sum\bar\kappa_3(f_i)/s^3`: if γ < 1/2,
:math:`G_\mu(\alpha + \gamma) - \gamma \le f_1\otimes\cdots\otimes f_n(\alpha) \le G_\mu(\alpha - \gamma) + \gamma`.

**Noisy SGD** (DRS Sec. 5; Bu, Dong, Long, Su 2020, HDSR): T steps of the subsampled
Gaussian mechanism with noise σ and sampling rate p, :math:`p\sqrt T \to \nu`:
:math:`\mathrm{kl} = p^2 c + O(p^3)`, :math:`\kappa_2 = 2p^2 c + O(p^3)`, hence
:math:`\mu = 2K/s \to \nu\sqrt{2c}` with (derived in ``proofs/drs_noisy_sgd_clt.py``)

.. math::
    c_{\mathrm{uniform}} = \int_{\mu_0/2}^\infty (e^{\mu_0 z - \mu_0^2/2} - 1)^2\varphi(z)\,dz
      = e^{\mu_0^2}\Phi(1.5\mu_0) + 3\Phi(-0.5\mu_0) - 2,\qquad
    c_{\mathrm{Poisson}} = \tfrac12 E[(e^{\mu_0 Z - \mu_0^2/2}-1)^2] = \tfrac12(e^{\mu_0^2} - 1),

:math:`\mu_0 = 1/\sigma`: the published :math:`\nu\sqrt{2(e^{1/\sigma^2}\Phi(1.5/\sigma) + 3\Phi(-0.5/\sigma) - 2)}`
and :math:`\nu\sqrt{e^{1/\sigma^2} - 1}`.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.special import Phi, mp_phi
from ..events import gaussian as gaussian_mechanism
from ..events import laplace as laplace_mechanism
from ..events.backends import MPMATH, SYMPY
from ..tradeoff.families import EpsDelta, Gaussian, Laplace
from ..numeric.mp_compiler import to_mpf
from ..core.validation import nonnegative, parameter, positive_integer, precision, probability, shown

__all__ = ["Functionals", "functionals", "clt_mu", "BerryEsseen", "berry_esseen",
           "sgd_functionals", "sgd_clt_mu", "sgd_limit_mu", "sgd_limit_constant"]


@dataclass(frozen=True)
class Functionals:
    """kl, κ2, κ3, κ̄3 of one trade-off function (SymPy expressions or mpf numbers)."""

    kl: object
    kappa2: object
    kappa3: object
    kappa3_bar: object


def functionals(f) -> Functionals:
    r"""The four functionals of DRS Sec. 3.3 in closed form for :math:`G_\mu` and
    :math:`f_{\varepsilon,0}` (see the module docstring for the derivation)."""
    if isinstance(f, Gaussian):
        # under the null the loss is N(-mean, sd^2) with (mean, sd) of symdp.events.gaussian.loss_law
        mean, sd = gaussian_mechanism.loss_law(f.mu)
        return Functionals(mean, sd ** 2 + mean ** 2, _gaussian_kappa3(mean, sd),
                           2 * sp.sqrt(2) / sp.sqrt(sp.pi) * sd ** 3)
    if isinstance(f, EpsDelta):
        if f.delta != 0:
            raise InvalidParameterError(
                f"kl(f_eps,delta) is infinite for delta > 0 (f = 0 on [1 - delta, 1]); "
                f"got delta={f.delta}")
        e = f.eps
        E = sp.exp(e)
        kl = e * (E - 1) / (E + 1)
        k3bar = (E * sp.Abs(e - kl) ** 3 + sp.Abs(e + kl) ** 3) / (1 + E)
        return Functionals(kl, e ** 2, e ** 3, sp.simplify(k3bar))
    if isinstance(f, Laplace):
        return _laplace_functionals(f.mu)
    raise NotImplementedError(f"no closed-form functionals for {f}; use sgd_functionals or "
                              "integrate -log|f'| numerically")


def _laplace_functionals(m) -> Functionals:
    r"""Laplace :math:`T(\mathrm{Lap}(0,1), \mathrm{Lap}(\mu,1))`: under P = Lap(0, 1) the log
    ratio is :math:`\ell = -\mu` (x ≤ 0, probability 1/2), :math:`2x - \mu` (0 < x < μ, density
    :math:`e^{-x}/2`), μ (x ≥ μ, probability :math:`e^{-\mu}/2`) -- the loss law of
    ``symdp.events.laplace`` (``loss_atoms``, ``loss_density``) under the null, in the variable
    :math:`x = (\ell + \mu)/2`.  Integrated piece by piece (|·| split where its argument
    vanishes): kl = μ − 1 + e^{−μ} (the KL divergence), the others below."""
    x = sp.Dummy("x", positive=True)
    if m == 0:
        z = sp.S.Zero
        return Functionals(z, z, z, z)
    (top, _, q_top), (bottom, _, q_bottom) = laplace_mechanism.loss_atoms(SYMPY, m)
    # the null's density of the loss, e^{-l} p_L(l), at l = 2x - m, times dl/dx = 2
    loss = 2 * x - m
    density = sp.powsimp(2 * sp.exp(-loss) * laplace_mechanism.loss_density(SYMPY, m, loss))

    def expect(h, cuts=()):
        pts = [0, *cuts, m]
        middle = sum(sp.integrate(h(loss, i) * density, (x, a, b))
                     for i, (a, b) in enumerate(zip(pts[:-1], pts[1:])))
        return sp.simplify(h(bottom, 0) * q_bottom + middle + h(top, len(pts) - 2) * q_top)

    kl = sp.simplify(m - 1 + sp.exp(-m))
    k2 = expect(lambda v, i: v ** 2)
    k3 = expect(lambda v, i: (-v if i == 0 else v) ** 3, cuts=(m / 2,))
    # l + kl = 0 at x = (m - kl)/2, inside (0, m) since |kl| < m
    k3b = expect(lambda v, i: (-(v + kl) if i == 0 else (v + kl)) ** 3, cuts=((m - kl) / 2,))
    return Functionals(kl, k2, k3, k3b)


def _gaussian_kappa3(mean, sd):
    r""":math:`E|sZ + m|^3` for symbolic m, s ≥ 0 (for :math:`G_\mu`: m = μ²/2, s = μ): with
    a = m/s (Z ≥ -a the sign is +),
    :math:`s^3 E|Z + a|^3 = s^3[\,2(a^3 + 3a)\Phi(a) - (a^3+3a) + 2(a^2+2)\varphi(a)\,]`."""
    # E|Z + a|^3 = E(Z + a)^3 - 2 E[(Z + a)^3; Z < -a], and
    # E[(Z + a)^3; Z < -a] = (a^3 + 3a) Phi(-a) - (a^2 + 2) phi(a)
    a = mean / sd if sd != 0 else sp.S.Zero
    phi_a = sp.exp(-a ** 2 / 2) / sp.sqrt(2 * sp.pi)
    return sd ** 3 * ((a ** 3 + 3 * a) * (2 * Phi(a) - 1) + 2 * (a ** 2 + 2) * phi_a)


def clt_mu(fs) -> sp.Expr:
    r""":math:`\mu = 2K/s`, :math:`K = \sum\mathrm{kl}(f_i)`, :math:`s^2 = \sum(\kappa_2 - \mathrm{kl}^2)`
    (DRS Sec. 3.3)."""
    F = [functionals(f) if not isinstance(f, Functionals) else f for f in fs]
    K = sum(x.kl for x in F)
    s2 = sum(x.kappa2 - x.kl ** 2 for x in F)
    return 2 * K / sp.sqrt(s2) if isinstance(K, sp.Basic) else 2 * K / mpmath.sqrt(s2)


@dataclass(frozen=True)
class BerryEsseen:
    r"""The Berry--Esseen envelope of DRS Sec. 3.3: μ, γ and the two bounds
    :math:`G_\mu(\alpha+\gamma) - \gamma \le f_1\otimes\cdots\otimes f_n(\alpha) \le G_\mu(\alpha-\gamma) + \gamma`
    (valid when γ < 1/2; :attr:`valid` says whether it is)."""

    mu: object
    gamma: object

    @property
    def valid(self) -> bool:
        return bool(self.gamma < sp.Rational(1, 2)) if isinstance(self.gamma, sp.Basic) \
            else self.gamma < 0.5

    def lower(self, a):
        """:math:`G_\\mu(\\alpha + \\gamma) - \\gamma` (G_μ = 0 beyond 1), at the current precision."""
        x = mpmath.mpf(a) + to_mpf(self.gamma)
        g = mpmath.mpf(0) if x >= 1 else gaussian_mechanism.trade_off(MPMATH, to_mpf(self.mu), x)
        return g - to_mpf(self.gamma)

    def upper(self, a):
        """:math:`G_\\mu(\\alpha - \\gamma) + \\gamma` (G_μ = 1 below 0)."""
        x = mpmath.mpf(a) - to_mpf(self.gamma)
        g = mpmath.mpf(1) if x <= 0 else gaussian_mechanism.trade_off(MPMATH, to_mpf(self.mu), x)
        return g + to_mpf(self.gamma)


def berry_esseen(fs) -> BerryEsseen:
    r"""μ = 2K/s and :math:`\gamma = 0.56\sum\bar\kappa_3(f_i)/s^3` (DRS Sec. 3.3)."""
    F = [functionals(f) if not isinstance(f, Functionals) else f for f in fs]
    K = sum(x.kl for x in F)
    s2 = sum(x.kappa2 - x.kl ** 2 for x in F)
    k3 = sum(x.kappa3_bar for x in F)
    if isinstance(K, sp.Basic):
        return BerryEsseen(2 * K / sp.sqrt(s2), sp.Rational(56, 100) * k3 / s2 ** sp.Rational(3, 2))
    return BerryEsseen(2 * K / mpmath.sqrt(s2), mpmath.mpf("0.56") * k3 / s2 ** mpmath.mpf(1.5))


# ---------------------------------------------------------------- noisy SGD

def _sgd_params(sigma, p):
    return parameter("sigma", sigma, 0, None, lower_open=True), probability("p", p)


def sgd_functionals(sigma, p, scheme: str = "uniform", dps: int = 30) -> Functionals:
    r"""kl, κ2, κ3, κ̄3 of one step of noisy SGD with noise σ and sampling rate p, by
    quadrature at ``dps`` digits (with :math:`\mu_0 = 1/\sigma`, :math:`w = e^{\mu_0 z - \mu_0^2/2}`,
    :math:`u = \log(1 + p(w-1))`):

    * ``"uniform"``: :math:`C_p(G_{\mu_0})` (Eq. 14: the pieces :math:`f_p`, chord,
      :math:`f_p^{-1}`; on the inverse piece the substitution y = f_p(x) turns
      :math:`\int h(\log|(f_p^{-1})'|)` into :math:`\int h(-u)\,|f_p'|`):
      :math:`\int h(\log|C'|) = \int_{z \ge \mu_0/2} [h(u) + (1 + p(w-1))h(-u)]\varphi\,dz + (f_p(x^*) - x^*)h(0)`.
    * ``"poisson"``: :math:`T(N(0,1), (1-p)N(0,1) + pN(\mu_0,1))` (Bu et al. 2020):
      :math:`\int h(\log|f'|) = E[h(u(Z))]`, Z ~ N(0, 1).
    """
    sigma, p = _sgd_params(sigma, p)
    dps = precision("dps", dps)
    if scheme not in ("uniform", "poisson"):
        raise InvalidParameterError(f"scheme must be 'uniform' or 'poisson'; got scheme={shown(scheme)}")
    with mpmath.workdps(dps + 10):
        m0, pp = 1 / to_mpf(sigma), to_mpf(p)

        def w(z):
            return mpmath.exp(m0 * z - m0 * m0 / 2)

        def u(z):
            return mpmath.log1p(pp * (w(z) - 1))

        if scheme == "uniform":
            a = m0 / 2
            xs = mp_phi(-a)
            chord = pp * xs + (1 - pp) * (1 - xs) - xs

            def integral(h):
                return mpmath.quad(lambda z: (h(u(z)) + (1 + pp * (w(z) - 1)) * h(-u(z)))
                                   * mpmath.npdf(z), [a, a + 10, mpmath.inf]) + chord * h(mpmath.mpf(0))
        else:
            def integral(h):
                return mpmath.quad(lambda z: h(u(z)) * mpmath.npdf(z), [-mpmath.inf, 0, m0, mpmath.inf])

        kl = -integral(lambda v: v)
        k2 = integral(lambda v: v * v)
        k3 = integral(lambda v: abs(v) ** 3)
        k3b = integral(lambda v: abs(v + kl) ** 3)
    with mpmath.workdps(dps):
        return Functionals(+kl, +k2, +k3, +k3b)


def sgd_limit_constant(sigma, scheme: str = "uniform") -> sp.Expr:
    r"""The constant c with kl ~ c p² (the derivation is in ``proofs/drs_noisy_sgd_clt.py``):
    :math:`e^{1/\sigma^2}\Phi(1.5/\sigma) + 3\Phi(-0.5/\sigma) - 2` (uniform) or
    :math:`(e^{1/\sigma^2} - 1)/2` (Poisson)."""
    sigma = parameter("sigma", sigma, 0, None, lower_open=True)
    if scheme == "uniform":
        return sp.exp(sigma ** -2) * Phi(sp.Rational(3, 2) / sigma) + 3 * Phi(-sp.Rational(1, 2) / sigma) - 2
    if scheme == "poisson":
        return (sp.exp(sigma ** -2) - 1) / 2
    raise InvalidParameterError(f"scheme must be 'uniform' or 'poisson'; got scheme={shown(scheme)}")


def sgd_limit_mu(sigma, nu, scheme: str = "uniform") -> sp.Expr:
    r"""The CLT limit :math:`\mu = \nu\sqrt{2c}` of noisy SGD as p → 0, p√T → ν (DRS Sec. 5,
    uniform; Bu, Dong, Long, Su 2020, Poisson)."""
    nu = nonnegative("nu", nu)
    return nu * sp.sqrt(2 * sgd_limit_constant(sigma, scheme))


def sgd_clt_mu(sigma, p, steps, scheme: str = "uniform", dps: int = 30) -> BerryEsseen:
    r"""Finite-T CLT for T steps: μ = 2K/s and the Berry--Esseen γ from the one-step
    functionals (:func:`sgd_functionals`), K = T kl, s² = T(κ2 − kl²), γ = 0.56 T κ̄3/s³.

    DRS's Berry--Esseen theorem assumes symmetric trade-off functions: for ``"uniform"``
    (:math:`C_p(G_{1/\sigma})`, symmetric) γ gives the envelope; for ``"poisson"`` the step
    :math:`T(N(0,1), (1-p)N(0,1) + pN(1/\sigma,1))` is not symmetric and γ is only the
    number the formula gives (``symdp compose`` reports it as no bound)."""
    steps = positive_integer("steps", steps)
    # p = 0 is Id (no privacy loss): s = 0 and mu = 2K/s is not defined
    parameter("p", p, 0, 1, lower_open=True)
    F = sgd_functionals(sigma, p, scheme, dps)
    with mpmath.workdps(dps + 5):
        K = steps * F.kl
        s2 = steps * (F.kappa2 - F.kl ** 2)
        mu = 2 * K / mpmath.sqrt(s2)
        gamma = mpmath.mpf("0.56") * steps * F.kappa3_bar / s2 ** mpmath.mpf(1.5)
    return BerryEsseen(mu, gamma)
