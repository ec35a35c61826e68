"""The flag shorthands (certify.poisson_gaussian / uniform_gaussian, used by ``symdp account
--poisson-gaussian / --uniform-gaussian`` and ``symdp audit``) go through the event path; their
brackets are those of the pairs built directly, as the functions did before (issue #23)."""

from fractions import Fraction

import pytest

from symdp.accountant import pairs
from symdp.accountant.certify import Phase, certified_epsilon, poisson_gaussian, uniform_gaussian
from symdp.core.errors import InvalidParameterError


def _old_poisson(sigma, q, steps):
    # the body of certify.poisson_gaussian before it read the event
    return Phase((pairs.PoissonGaussian(sigma, q, "remove"), pairs.PoissonGaussian(sigma, q, "add")), steps)


def _old_uniform(sigma, p, steps):
    return Phase((pairs.UniformGaussian(sigma, p),), steps)


@pytest.mark.parametrize("sigma, rate, steps", [(1.0, 0.01, 20), ("2", "1/10", 5)])
def test_flag_phase_and_bracket_unchanged(sigma, rate, steps):
    for new, old in ((poisson_gaussian, _old_poisson), (uniform_gaussian, _old_uniform)):
        a, b = new(sigma, rate, steps), old(sigma, rate, steps)
        assert a == b
        ba = certified_epsilon([a], Fraction(1, 10 ** 5), precision=0)
        bb = certified_epsilon([b], Fraction(1, 10 ** 5), precision=0)
        assert (ba.lo, ba.hi) == (bb.lo, bb.hi)
        assert ba.lo <= ba.hi


def test_flag_errors_still_name_the_parameter():
    with pytest.raises(InvalidParameterError, match=r"^sigma must be in"):
        poisson_gaussian(0.1, 0.01, 10)
    with pytest.raises(InvalidParameterError, match=r"^p must be in"):
        uniform_gaussian(1, 0.9, 10)
