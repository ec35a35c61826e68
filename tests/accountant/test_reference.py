"""symdp.accountant.reference: the comparison accountants against closed forms.

Independent routes: for q = 1 the subsampled Gaussian is the plain Gaussian mechanism, whose
RDP is alpha/(2 sigma^2) per step (Mironov 2017, Prop. 7), so T steps are
alpha*T/(2 sigma^2)-RDP and the conversions are explicit functions of alpha; the G_mu profile
is checked against the hockey-stick integral of N(mu, 1) against N(0, 1), by quadrature."""

import mpmath
import pytest

from symdp.accountant.reference import (ORDERS, clt_mu, gdp_delta, gdp_epsilon, rdp_epsilon,
                                        rdp_poisson_gaussian)

DPS = 50


@pytest.mark.parametrize("sigma, alpha", [(1, 2), (2, 7), (mpmath.mpf("0.8"), 32)])
def test_plain_gaussian_rdp_is_alpha_over_two_sigma_squared(sigma, alpha):
    with mpmath.workdps(DPS):
        expected = mpmath.mpf(alpha) / (2 * mpmath.mpf(sigma) ** 2)
        assert abs(rdp_poisson_gaussian(sigma, 1, alpha) - expected) < mpmath.mpf(10) ** -45


def test_subsampling_lowers_the_rdp():
    # the mixture at q < 1 is no worse than the full Gaussian (joint convexity)
    with mpmath.workdps(DPS):
        assert rdp_poisson_gaussian(1, 0.01, 8) < rdp_poisson_gaussian(1, 1, 8)


@pytest.mark.parametrize("improved", [False, True])
def test_rdp_epsilon_of_a_plain_gaussian_is_the_closed_form_conversion(improved):
    sigma, T, delta = 4, 100, mpmath.mpf(10) ** -5
    with mpmath.workdps(DPS):
        def conversion(a):
            rdp = mpmath.mpf(a) * T / (2 * sigma ** 2)
            if improved:  # Canonne-Kamath-Steinke 2020, Prop. 12
                return rdp + mpmath.log(mpmath.mpf(a - 1) / a) - (mpmath.log(delta) + mpmath.log(a)) / (a - 1)
            return rdp + mpmath.log(1 / delta) / (a - 1)  # Mironov 2017, Prop. 3
        expected_eps, expected_alpha = min((conversion(a), a) for a in ORDERS)
        eps, alpha = rdp_epsilon([(sigma, 1, T)], delta, improved=improved)
        assert alpha == expected_alpha
        assert abs(eps - expected_eps) < mpmath.mpf(10) ** -40
        if not improved:
            # a*T/(2 s^2) + log(1/d)/(a - 1) is convex in a > 1 with its minimum at
            # a* = 1 + s*sqrt(2 log(1/d)/T): the integer minimum is at floor(a*) or ceil(a*)
            a_star = 1 + sigma * mpmath.sqrt(2 * mpmath.log(1 / delta) / T)
            neighbours = (int(mpmath.floor(a_star)), int(mpmath.ceil(a_star)))
            assert alpha in neighbours
            assert eps == min(conversion(a) for a in neighbours)
            continuous = mpmath.mpf(T) / (2 * sigma ** 2) + mpmath.sqrt(2 * T * mpmath.log(1 / delta)) / sigma
            assert continuous <= eps


def test_clt_mu_of_full_batches():
    # q = 1: mu^2 = T (e^{1/sigma^2} - 1), phases adding their mu^2
    with mpmath.workdps(DPS):
        expected = mpmath.sqrt(9 * mpmath.expm1(mpmath.mpf(1) / 4) + 16 * mpmath.expm1(1))
        assert abs(clt_mu([(2, 1, 9), (1, 1, 16)]) - expected) < mpmath.mpf(10) ** -45


@pytest.mark.parametrize("mu, eps", [(1, 0), (1, 1), (mpmath.mpf("0.5"), mpmath.mpf("0.3")), (3, 2)])
def test_gdp_delta_is_the_hockey_stick_divergence(mu, eps):
    # delta(eps) = integral of (phi(x - mu) - e^eps phi(x))^+ ; positive exactly for
    # x > eps/mu + mu/2
    with mpmath.workdps(30):
        mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
        t = eps / mu + mu / 2
        phi = lambda x: mpmath.npdf(x)  # noqa: E731
        expected = mpmath.quad(lambda x: phi(x - mu) - mpmath.exp(eps) * phi(x), [t, t + 5, mpmath.inf])
        assert abs(gdp_delta(mu, eps) - expected) < mpmath.mpf(10) ** -25


def test_gdp_epsilon_inverts_gdp_delta():
    with mpmath.workdps(DPS):
        mu, delta = mpmath.mpf(2), mpmath.mpf(10) ** -5
        eps = gdp_epsilon(mu, delta)
        assert eps > 0
        assert abs(gdp_delta(mu, eps) - delta) < mpmath.mpf(10) ** -40
    # a delta already met at eps = 0 (Phi(1/2) - Phi(-1/2) = 0.3829 for mu = 1) gives 0
    assert gdp_epsilon(1, mpmath.mpf("0.5")) == 0


def test_rdp_order_is_the_minimiser_even_when_the_bound_is_negative():
    # sigma = 10, q = 1e-4, one step: the unclipped bound is negative for many orders; the
    # order reported must minimise it (the last order tried was reported before)
    eps, order = rdp_epsilon([(10, "0.0001", 1)], "0.5")
    assert eps == 0
    bounds = {}
    for a in ORDERS:
        r = rdp_poisson_gaussian(10, "0.0001", a)
        with mpmath.workdps(50):
            bounds[a] = r + mpmath.log(mpmath.mpf(a - 1) / a) - (mpmath.log(mpmath.mpf("0.5"))
                                                                 + mpmath.log(a)) / (a - 1)
    assert order == min(bounds, key=bounds.get)
