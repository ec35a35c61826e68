"""CLT functionals against direct integration of log|f'| on the trade-off function."""

import mpmath
import pytest
import sympy as sp

from symdp import EpsDelta, Gaussian, Laplace
from symdp.composition.clt import berry_esseen, clt_mu, functionals, sgd_functionals, \
    sgd_limit_constant, sgd_limit_mu
from symdp.composition.privacy_loss import LossAtoms
from symdp.core.errors import InvalidParameterError


def _direct(f, h, dps=30):
    """int_0^1 h(log|f'(x)|) dx from the trade-off function's own pieces (SymPy derivative)."""
    from symdp.tradeoff.numeric import mp_callable

    total = mpmath.mpf(0)
    xs = mpmath.mpf(sp.N(f.fixed_point(), dps + 5))  # log|f'| changes sign there (symmetric f)
    for p in f.pieces():
        if p.lo == p.hi:
            continue
        t = p.g.variables[0]
        d = mp_callable((t,), sp.diff(p.g.expr, t))
        lo, hi = mpmath.mpf(sp.N(p.lo, dps + 5)), mpmath.mpf(sp.N(p.hi, dps + 5))
        total += mpmath.quad(lambda x: h(mpmath.log(abs(d(x)))), [lo, xs, hi] if lo < xs < hi else [lo, hi])
    return total


@pytest.mark.parametrize("mu", [sp.Rational(1, 2), 1, 3])
def test_gaussian_functionals_by_integrating_log_slope(mu):
    """int_0^1 h(log|G_mu'(x)|) dx with x = 1 - Phi(z): G_mu'(x) = -phi(z - mu)/phi(z), the
    slope written from the density ratio (not from the closed forms), split where h kinks."""
    F = functionals(Gaussian(mu))
    with mpmath.workdps(30):
        m = mpmath.mpf(sp.N(mu, 35))

        def integral(h, cuts=()):
            slope = lambda z: mpmath.npdf(z, m) / mpmath.npdf(z)  # noqa: E731
            return mpmath.quad(lambda z: h(mpmath.log(slope(z))) * mpmath.npdf(z),
                               sorted({-mpmath.inf, mpmath.inf, *cuts}))

        kl = -integral(lambda v: v)
        assert abs(kl - mpmath.mpf(sp.N(F.kl, 35))) < 1e-25
        assert abs(integral(lambda v: v * v) - mpmath.mpf(sp.N(F.kappa2, 35))) < 1e-25
        assert abs(integral(lambda v: abs(v) ** 3, [m / 2]) - mpmath.mpf(sp.N(F.kappa3, 35))) < 1e-25
        assert abs(integral(lambda v: abs(v + kl) ** 3, [m / 2 - kl / m]) -
                   mpmath.mpf(sp.N(F.kappa3_bar, 35))) < 1e-25


def test_gaussian_kl_and_kappa2_closed_forms():
    mu = sp.Symbol("mu", positive=True)
    F = functionals(Gaussian(mu))
    assert F.kl == mu ** 2 / 2
    assert sp.expand(F.kappa2) == mu ** 2 + mu ** 4 / 4


@pytest.mark.parametrize("eps", [sp.Rational(1, 10), 1, 2])
def test_eps_delta_functionals_by_integrating_log_slope(eps):
    f = EpsDelta(eps, 0)
    F = functionals(f)
    with mpmath.workdps(30):
        kl = -_direct(f, lambda v: v)
        for value, h in ((F.kl, lambda v: -v), (F.kappa2, lambda v: v * v),
                         (F.kappa3, lambda v: abs(v) ** 3), (F.kappa3_bar, lambda v: abs(v + kl) ** 3)):
            assert abs(_direct(f, h) - mpmath.mpf(sp.N(value, 35))) < 1e-25


def test_delta_positive_has_infinite_kl():
    with pytest.raises(InvalidParameterError, match="delta"):
        functionals(EpsDelta(1, sp.Rational(1, 10)))


def test_clt_is_exact_for_gaussians():
    mu = sp.Symbol("mu", positive=True)
    assert sp.simplify(clt_mu([Gaussian(mu)] * 7) - sp.sqrt(7) * mu) == 0


def test_berry_esseen_envelope_contains_the_exact_composition():
    """f_{0.1,0}^{(x)30}: the exact trade-off (Neyman--Pearson on the KOV atoms) lies between
    G_mu(a + gamma) - gamma and G_mu(a - gamma) + gamma at every sampled a."""
    be = berry_esseen([EpsDelta(sp.Rational(1, 10), 0)] * 30)
    assert be.valid
    atoms = LossAtoms.from_eps_delta(sp.Rational(1, 10), 0).power(30)
    with mpmath.workdps(20):
        for a in ("0.001", "0.01", "0.1", "0.3", "0.5", "0.8"):
            exact = atoms.trade_off(mpmath.mpf(a))
            assert be.lower(a) <= exact <= be.upper(a)


def test_sgd_functionals_total_mass_and_small_p_limit():
    """kl/p^2 -> c (the published constant) as p -> 0, for both schemes; the error is O(p)."""
    for scheme in ("uniform", "poisson"):
        c = mpmath.mpf(sp.N(sgd_limit_constant(1, scheme), 30))
        errs = []
        for p in ("0.01", "0.001"):
            F = sgd_functionals(1, p, scheme, dps=20)
            pp = mpmath.mpf(p)
            errs.append(abs(F.kl / pp ** 2 - c))
            assert abs(F.kappa2 / pp ** 2 - 2 * c) < 50 * pp  # kappa_2 ~ 2 c p^2
        assert errs[1] < errs[0] / 5  # converges at rate p


def test_poisson_kl_is_the_kl_divergence():
    """kl = KL(P||Q) for P = N(0,1), Q = (1-p)N(0,1) + pN(1/sigma,1), by direct quadrature."""
    p, s = mpmath.mpf("0.1"), mpmath.mpf(2)
    with mpmath.workdps(25):
        kl = mpmath.quad(lambda x: mpmath.npdf(x) * mpmath.log(
            mpmath.npdf(x) / ((1 - p) * mpmath.npdf(x) + p * mpmath.npdf(x, 1 / s))), [-mpmath.inf, 0, mpmath.inf])
        assert abs(sgd_functionals(2, "0.1", "poisson", 20).kl - kl) < 1e-15


def test_sgd_limit_mu_formulas():
    s = sp.Symbol("sigma", positive=True)
    nu = sp.Symbol("nu", positive=True)
    assert sp.simplify(sgd_limit_mu(s, nu, "poisson") - nu * sp.sqrt(sp.exp(s ** -2) - 1)) == 0
    with pytest.raises(InvalidParameterError, match="scheme"):
        sgd_limit_mu(1, 1, "shuffle")


@pytest.mark.parametrize("mu", [sp.Rational(1, 2), 2])
def test_laplace_functionals_against_quadrature_of_the_log_ratio(mu):
    """E_P[h(log(q/p))] for P = Lap(0,1), Q = Lap(mu,1), by quadrature split at 0, mu/2, mu and
    where l + kl = 0 -- from the densities, not from the closed forms."""
    F = functionals(Laplace(mu))
    with mpmath.workdps(30):
        m = mpmath.mpf(sp.N(mu, 35))
        lap = lambda x, c: mpmath.exp(-abs(x - c)) / 2  # noqa: E731
        ell = lambda x: mpmath.log(lap(x, m) / lap(x, 0))  # noqa: E731
        kl = mpmath.mpf(sp.N(F.kl, 35))
        cuts = sorted({-mpmath.inf, 0, m / 2, m, (m - kl) / 2, mpmath.inf})

        def E(h):
            return mpmath.quad(lambda x: h(ell(x)) * lap(x, 0), cuts)

        assert abs(-E(lambda v: v) - kl) < 1e-25
        assert abs(E(lambda v: v * v) - mpmath.mpf(sp.N(F.kappa2, 35))) < 1e-25
        assert abs(E(lambda v: abs(v) ** 3) - mpmath.mpf(sp.N(F.kappa3, 35))) < 1e-25
        assert abs(E(lambda v: abs(v + kl) ** 3) - mpmath.mpf(sp.N(F.kappa3_bar, 35))) < 1e-25


def test_uniform_sgd_functionals_against_the_eq_14_pieces_in_x():
    """kl and kappa_2 of C_p(G_mu) integrated over alpha in [0, 1] on Eq. 14's pieces as they are:
    f_p on [0, x*], the chord (slope -1) on [x*, f_p(x*)], f_p^{-1} on [f_p(x*), 1] with
    (f_p^{-1})'(y) = 1/f_p'(f_p^{-1}(y)) and f_p^{-1} by root-finding -- no change of variables."""
    from symdp.numeric.roots import decreasing_inverse

    mu, p = mpmath.mpf(1), mpmath.mpf("0.2")
    with mpmath.workdps(15):
        G = lambda a: mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - mu) if 0 < a < 1 else (1 - a)  # noqa: E731,E501
        dG = lambda a: -mpmath.exp(mu * (-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1)) - mu * mu / 2)  # noqa: E731
        fp = lambda a: p * G(a) + (1 - p) * (1 - a)  # noqa: E731
        dfp = lambda a: p * dG(a) - (1 - p)  # noqa: E731
        xs = mpmath.ncdf(-mu / 2)
        top = fp(xs)

        def integral(h):
            left = mpmath.quad(lambda a: h(mpmath.log(-dfp(a))), [0, xs])
            chord = (top - xs) * h(mpmath.mpf(0))
            right = mpmath.quad(lambda y: h(-mpmath.log(-dfp(decreasing_inverse(fp, y)))), [top, 1])
            return left + chord + right

        F = sgd_functionals(1 / mu, p, "uniform", dps=15)
        assert abs(-integral(lambda v: v) - F.kl) < 1e-9
        assert abs(integral(lambda v: v * v) - F.kappa2) < 1e-9
