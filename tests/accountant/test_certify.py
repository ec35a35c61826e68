"""symdp.accountant.certify through the Python API: two precisions agree, the eps and delta brackets
are consistent, bad input."""

from fractions import Fraction

import pytest

from symdp.accountant import certified_delta, certified_epsilon, poisson_gaussian, uniform_gaussian
from symdp.core.errors import InvalidParameterError


def test_two_precisions_overlap_and_the_finer_is_narrower():
    ph = poisson_gaussian(1, "0.05", 20)
    a = certified_epsilon(ph, "1e-6", precision=0)
    b = certified_epsilon(ph, "1e-6", precision=1)
    assert max(a.lo, b.lo) <= min(a.hi, b.hi)
    assert b.hi - b.lo < a.hi - a.lo


def test_delta_at_the_eps_ends_is_consistent():
    """delta(eps_hi) <= D <= ... and delta(eps_lo) > D, checked through the delta bracket."""
    ph = poisson_gaussian(2, "0.1", 30)
    e = certified_epsilon(ph, "1e-5", precision=1)
    assert certified_delta(ph, e.hi, precision=1).hi <= Fraction("1e-5") or e.hi == 0
    if e.lo > 0:
        assert certified_delta(ph, e.lo, precision=1).lo > Fraction("1e-5")


def test_one_uniform_step_has_the_poisson_remove_profile():
    """For eps >= 0 one step of C_p(G_{1/sigma}) has the profile of the Poisson 'remove' pair
    with q = p (Dong-Roth-Su Eq. 14), the worse of the two directions there: the brackets overlap."""
    u = certified_delta(uniform_gaussian(1, "0.1", 1), "0.5", precision=0)
    p = certified_delta(poisson_gaussian(1, "0.1", 1), "0.5", precision=0)
    assert max(u.lo, p.lo) <= min(u.hi, p.hi)


@pytest.mark.parametrize("call,needle", [
    (lambda: poisson_gaussian(0.2, 0.01, 10), "sigma must be in [0.5, 10]"),
    (lambda: poisson_gaussian(1, 0.6, 10), "q must be in"),
    (lambda: uniform_gaussian(1, 0, 10), "p must be in"),
    (lambda: poisson_gaussian(1, 0.01, True), "steps must be an integer"),
    (lambda: poisson_gaussian(1, 0.01, 0), "steps must be an integer"),
    (lambda: certified_epsilon(poisson_gaussian(1, 0.01, 10), 0), "delta must be in"),
    (lambda: certified_delta(poisson_gaussian(1, 0.01, 10), -1), "eps must be in"),
    (lambda: certified_delta(poisson_gaussian(1, 0.01, 10), 1, precision=7), "precision must be"),
    (lambda: certified_epsilon([], 1e-5), "at least one phase"),
])
def test_bad_input(call, needle):
    with pytest.raises(InvalidParameterError, match=None) as info:
        call()
    assert needle in str(info.value)
