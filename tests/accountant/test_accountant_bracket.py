"""The certified bracket contains values computed by independent routes.

References (never the accountant's own output):
* G_mu composition is exact: T steps of G_mu are G_{sqrt(T) mu} (Dong-Roth-Su 2022, Cor. 3.3),
  whose profile is Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Cor. 2.13), at 50 digits;
* randomized response: the T-fold composition enumerated exactly (binomial sum, 80 digits);
* the Poisson-subsampled Gaussian for T = 1, 2: 50-digit mpmath quadrature of the
  hockey-stick integral of the mixture densities;
* the uniform (replace-one) case at T = 1: symdp's closed form of C_p(G_mu)'s privacy
  profile (Dong-Roth-Su Eq. 14, symdp.subsampling), a different route from the loss tails.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp.accountant import Gaussian, Grid, PoissonGaussian, RandomizedResponse, UniformGaussian
from symdp.accountant.certify import Phase, compose, delta_bounds

FAST = Grid(h_exp=8, bits=80, tail_bits=72, prec=200)


def mpf(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def bracket(pairs_steps, eps, grid=FAST):
    phases = [Phase((pair,), steps) for pair, steps in pairs_steps]
    lo, hi = delta_bounds(compose(phases, grid), Fraction(eps))
    return mpf(lo), mpf(hi)


def gdp_delta(mu, eps):
    mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


@pytest.mark.parametrize("mu,T", [("0.5", 1), ("0.2", 25), ("0.1", 100)])
@pytest.mark.parametrize("eps", ["0", "0.5", "1.5"])
def test_gaussian_composition_is_exact_gdp(mu, T, eps):
    with mpmath.workdps(50):
        lo, hi = bracket([(Gaussian(mu), T)], eps)
        exact = gdp_delta(mpmath.sqrt(T) * mpmath.mpf(mu), mpf(eps))
        assert lo <= exact <= hi
        assert hi - lo < 1e-3 * exact + 1e-12      # and it is a useful bracket


def test_phases_of_gaussians_compose_to_gdp():
    # G_{0.3}^{x 4} (x) G_{0.1}^{x 20} = G_mu with mu^2 = 4 * 0.09 + 20 * 0.01
    with mpmath.workdps(50):
        lo, hi = bracket([(Gaussian("0.3"), 4), (Gaussian("0.1"), 20)], "0.7")
        exact = gdp_delta(mpmath.sqrt(mpmath.mpf("0.56")), mpmath.mpf("0.7"))
        assert lo <= exact <= hi


def rr_delta(eps0, T, eps):
    """delta(eps) of T-fold randomized response by enumerating the number k of kept bits."""
    e0, eps = mpf(eps0), mpf(eps)
    r = mpmath.exp(e0) / (1 + mpmath.exp(e0))
    return mpmath.fsum(mpmath.binomial(T, k) * max(mpmath.mpf(0), r ** k * (1 - r) ** (T - k)
                                                   - mpmath.exp(eps) * (1 - r) ** k * r ** (T - k))
                       for k in range(T + 1))


@pytest.mark.parametrize("eps0,T,eps", [("0.5", 1, "0.25"), ("0.5", 10, "1"), ("0.3", 7, "0.4"),
                                        ("1", 30, "3")])
def test_randomized_response_by_enumeration(eps0, T, eps):
    with mpmath.workdps(80):
        lo, hi = bracket([(RandomizedResponse(eps0), T)], eps)
        exact = rr_delta(eps0, T, eps)
        assert lo <= exact <= hi


def mixture_delta_quadrature(sigma, q, eps, direction):
    """One step: integral of (p - e^eps q)_+ over the line, split at the root of p = e^eps q."""
    s, q, eps = mpf(sigma), mpf(q), mpf(eps)

    def n(x, m):
        return mpmath.npdf(x, m, s)

    mix = lambda x: (1 - q) * n(x, 0) + q * n(x, 1)   # noqa: E731
    P, Q = (mix, lambda x: n(x, 0)) if direction == "remove" else (lambda x: n(x, 0), mix)
    f = lambda x: max(mpmath.mpf(0), P(x) - mpmath.exp(eps) * Q(x))   # noqa: E731
    root = mpmath.findroot(lambda x: mpmath.log(P(x) / Q(x)) - eps, (-30, 30), solver="illinois")
    return mpmath.quad(f, [-mpmath.inf, -20, root, 20, mpmath.inf])


@pytest.mark.parametrize("direction", ["remove", "add"])
def test_poisson_one_step_by_quadrature(direction):
    with mpmath.workdps(50):
        lo, hi = bracket([(PoissonGaussian(1, "0.1", direction), 1)], "0.05")
        exact = mixture_delta_quadrature(1, "0.1", "0.05", direction)
        assert lo <= exact <= hi


def test_poisson_two_steps_by_quadrature():
    """T = 2 (remove): delta = int int (p(x)p(z) - e^eps q(x)q(z))_+ dz dx, the inner integral
    in closed form through Phi (the region {z : L(z) >= eps - L(x)} is a half-line), the outer
    by 30-digit quadrature."""
    sigma, q, eps = mpmath.mpf(1), mpmath.mpf("0.2"), mpmath.mpf("0.3")
    with mpmath.workdps(30):
        L = lambda x: mpmath.log(1 - q + q * mpmath.exp((2 * x - 1) / (2 * sigma ** 2)))   # noqa: E731
        p = lambda x: (1 - q) * mpmath.npdf(x, 0, sigma) + q * mpmath.npdf(x, 1, sigma)   # noqa: E731
        qd = lambda x: mpmath.npdf(x, 0, sigma)   # noqa: E731

        def inner(x):
            y = eps - L(x)
            t = mpmath.exp(y)
            if t <= 1 - q:
                zstar = -mpmath.inf
                Pz, Qz = mpmath.mpf(1), mpmath.mpf(1)
            else:
                zstar = sigma ** 2 * mpmath.log((t - (1 - q)) / q) + mpmath.mpf(1) / 2
                Pz = (1 - q) * (1 - mpmath.ncdf(zstar / sigma)) + q * (1 - mpmath.ncdf((zstar - 1) / sigma))
                Qz = 1 - mpmath.ncdf(zstar / sigma)
            return p(x) * Pz - mpmath.exp(eps) * qd(x) * Qz

        exact = mpmath.quad(inner, [-mpmath.inf, -10, 0, 1, 10, mpmath.inf])
        lo, hi = bracket([(PoissonGaussian(1, "0.2", "remove"), 2)], "0.3")
        assert lo <= exact <= hi


@pytest.mark.parametrize("eps", ["0", "0.3", "1"])
def test_uniform_one_step_against_cp_profile(eps):
    from symdp import Gaussian as G
    from symdp.subsampling import subsample

    C = subsample(G(1), sp.Rational(1, 5))
    profile = C.privacy_profile(sp.Symbol("varepsilon", nonnegative=True))
    with mpmath.workdps(50):
        exact = mpmath.mpf(str(sp.N(profile.subs(profile.free_symbols.pop(), sp.Rational(eps)), 50)))
        lo, hi = bracket([(UniformGaussian(1, "0.2"), 1)], eps)
        assert lo <= exact <= hi
