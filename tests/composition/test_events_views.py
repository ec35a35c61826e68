"""The symbolic views of an event (symdp.composition.events, issue #23), against closed forms."""

import mpmath
import pytest
import sympy as sp

from symdp.composition.events import privacy_loss_of, tradeoff_of
from symdp.core.errors import InvalidParameterError
from symdp.events import (Composed, EpsDelta, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                          SampledWithReplacement, SampledWithoutReplacement, SelfComposed)


def test_gaussian_composition_is_g_mu():
    # G_{1/2}^{(x)4} (x) G_1 = G_{sqrt(2)} (DRS Cor. 3.3)
    f = tradeoff_of(Composed([SelfComposed(Gaussian(2), 4), Gaussian(1)])).doit()
    a = sp.Rational(1, 10)
    # G_mu(a) = Phi(Phi^-1(1 - a) - mu)
    expect = mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(2 * (1 - mpmath.mpf("0.1")) - 1) - mpmath.sqrt(2))
    assert abs(float(sp.N(f.evaluate(a), 30)) - float(expect)) < 1e-12


def test_randomized_response_binary_is_f_eps0():
    # rho = 1/2: keep 3/4, other 1/4, eps0 = log 3; f_{eps0,0}(0.1) = max(0, 1 - 3*0.1, (1 - 0.1)/3)
    f = tradeoff_of(RandomizedResponse("0.5"))
    assert sp.nsimplify(f.evaluate(sp.Rational(1, 10))) == sp.Rational(7, 10)


def test_laplace_and_eps_delta_and_sampling():
    assert tradeoff_of(Laplace(2)).mu == sp.Rational(1, 2)
    assert tradeoff_of(EpsDelta(1, "0.01")).delta == sp.Rational(1, 100)
    c = tradeoff_of(SampledWithoutReplacement(Gaussian(1), p="0.2"))
    p = tradeoff_of(PoissonSampled(Gaussian(1), "0.2"))
    assert c == p              # C_q(f) for both (DRS Def. 4.1)


def test_privacy_loss_profile_of_gaussian_matches_closed_form():
    # sigma = 2 is G_{1/2}; DRS Cor. 2.13 at 50 digits, the point exactly 3/10 in both
    loss = privacy_loss_of(Gaussian(2))
    with mpmath.workdps(50):
        e = mpmath.mpf(3) / 10
        mu = mpmath.mpf(1) / 2
        reference = mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)
        value = loss.profile(e)
        assert abs(value - reference) < mpmath.mpf(10) ** -20


def test_unsupported_views_say_so():
    with pytest.raises(InvalidParameterError, match="bootstrap"):
        tradeoff_of(SampledWithReplacement(Gaussian(1), 10, 10))
    with pytest.raises(InvalidParameterError, match="num_buckets"):
        tradeoff_of(RandomizedResponse("0.5", 3))
    with pytest.raises(InvalidParameterError, match="one step"):
        privacy_loss_of(SelfComposed(Gaussian(1), 2))
