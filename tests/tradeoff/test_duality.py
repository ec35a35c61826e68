"""The way back from (eps, delta(eps)) guarantees to f = sup_eps f_{eps,delta(eps)} (Prop. 2.12)."""

import mpmath
import pytest
import sympy as sp

from symdp import InvalidParameterError, Phi
from symdp.tradeoff import EpsDelta, Gaussian, Laplace, alpha, from_privacy_profile

eps = sp.Symbol("varepsilon")


def sup_by_grid(delta_of_eps, a, dps=30):
    """Independent route: max over a dense eps grid of the three terms of f_{eps,delta}, refined."""
    with mpmath.workdps(dps):
        best = mpmath.mpf(0)
        for i in range(0, 4001):
            e = mpmath.mpf(i) / 400  # eps in [0, 10]
            d = delta_of_eps(e)
            best = max(best, 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))
        return best


@pytest.mark.parametrize("f", [Gaussian(1), EpsDelta(1, sp.Rational(1, 10)), Laplace(2)])
def test_sup_of_profile_recovers_the_function(f):
    F = from_privacy_profile(f.privacy_profile(eps), eps)
    for a in ["1/100", "1/5", "1/2", "9/10"]:
        got = F.evaluate(sp.Rational(a), dps=30)
        assert mpmath.almosteq(got, f.evaluate(sp.Rational(a), dps=30), abs_eps=mpmath.mpf(10) ** -20)


def test_sup_agrees_with_a_grid_over_eps():
    delta = lambda e: mpmath.ncdf(-e + mpmath.mpf(1) / 2) - mpmath.exp(e) * mpmath.ncdf(-e - mpmath.mpf(1) / 2)
    F = from_privacy_profile(Gaussian(1).privacy_profile(eps), eps)
    for a in ["1/10", "3/10"]:
        grid = sup_by_grid(delta, mpmath.mpf(sp.Rational(a).p) / sp.Rational(a).q)
        got = F.evaluate(sp.Rational(a), dps=30)
        assert got >= grid - mpmath.mpf(10) ** -25          # the sup is at least any grid value
        assert got - grid < mpmath.mpf(10) ** -4            # and the grid gets close


def test_closed_form_branch_of_gdp_profile_is_gaussian():
    mu = sp.Symbol("mu", positive=True)
    profile = Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2)
    branch = from_privacy_profile(profile, eps).upper_branch(alpha)
    # Phi^{-1}(1 - a) = -Phi^{-1}(a): the two forms are the same expression
    from symdp.core.special import phi_normal_form

    assert branch == phi_normal_form(Gaussian(mu).expr(alpha))
    for m, a in [(1, "1/7"), (3, "2/3")]:
        lhs = sp.N(branch.subs({mu: m, alpha: sp.Rational(a)}), 40)
        rhs = Gaussian(m).evaluate(sp.Rational(a), dps=40)
        with mpmath.workdps(40):
            assert mpmath.almosteq(mpmath.mpf(lhs._to_mpmath(140)), rhs, abs_eps=mpmath.mpf(10) ** -35)


def test_free_parameters_must_be_substituted_before_numerics():
    mu = sp.Symbol("mu", positive=True)
    with pytest.raises(InvalidParameterError):
        from_privacy_profile(Gaussian(mu).privacy_profile(eps), eps).evaluate(sp.Rational(1, 2))
