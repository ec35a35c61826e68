"""symdp.numeric.roots, the one root-finding module: each routine against a root known by
another route (a closed form, mpmath's erfinv or cbrt, an exact rational), and the
fallbacks exercised on functions the fast path cannot settle (a jump, a flat piece)."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from symdp.core.errors import RootFindingError
from symdp.numeric.roots import (bisect, bracketed_root, decreasing_inverse,
                                 decreasing_inverse_array, golden_max, illinois,
                                 increasing_solution)


def test_bisect_keeps_the_switch_of_a_monotone_predicate_in_exact_arithmetic():
    switch = Fraction(1, 3)
    lo, hi = bisect(lambda t: t >= switch, Fraction(0), Fraction(1), 40)
    assert lo < switch <= hi and hi - lo == Fraction(1, 2 ** 40)
    lo, hi = bisect(lambda t: t >= switch, Fraction(0), Fraction(1), 40, width=Fraction(1, 1000))
    assert lo < switch <= hi and Fraction(1, 2048) < hi - lo <= Fraction(1, 1000)   # stopped early


def test_illinois_finds_the_cube_root_of_two():
    with mpmath.workdps(50):
        h = lambda t: 2 - t ** 3          # noqa: E731 - decreasing: h(1) > 0 >= h(2)
        t, lo, hi = illinois(h, mpmath.mpf(1), mpmath.mpf(2), h(1), h(2),
                             mpmath.mpf(10) ** -45, 200)
        assert lo <= mpmath.cbrt(2) <= hi and hi - lo < mpmath.mpf(10) ** -45
        assert abs(t - mpmath.cbrt(2)) < mpmath.mpf(10) ** -45


def test_illinois_stops_on_a_value_that_is_not_finite():
    assert illinois(lambda t: None, 0.0, 1.0, 1.0, -1.0, 1e-9, 10) is None


def test_bracketed_root_is_pi_over_two_for_the_cosine():
    with mpmath.workdps(50):
        t = bracketed_root(mpmath.cos, 1, 2)
        assert abs(t - mpmath.pi / 2) < mpmath.mpf(10) ** -48


def test_bracketed_root_falls_back_to_bisection_at_a_jump():
    with mpmath.workdps(40):
        third = mpmath.mpf(1) / 3
        t = bracketed_root(lambda s: mpmath.mpf(-1) if s < third else mpmath.mpf(1), 0, 1)
        assert abs(t - third) < mpmath.mpf(10) ** -38


@pytest.mark.parametrize("target", ["0.975", "0.5", "1e-40", "0.999999"])
def test_increasing_solution_inverts_the_normal_cdf(target):
    with mpmath.workdps(50):
        t = increasing_solution(mpmath.ncdf, mpmath.mpf(target))
    with mpmath.workdps(120):   # Phi^{-1}(a) = sqrt(2) erfinv(2a - 1), carried far enough for 1e-40
        reference = mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(target) - 1)
        assert abs(t - reference) <= mpmath.mpf(10) ** -45 * max(1, abs(reference))


def test_decreasing_inverse_finds_the_start_of_a_flat_zero_piece():
    with mpmath.workdps(30):
        # f(t) = max(0, 1/2 - t): {t : f(t) <= 0} = [1/2, 1], infimum 1/2
        t = decreasing_inverse(lambda s: max(mpmath.mpf(0), mpmath.mpf(1) / 2 - s), 0)
        assert abs(t - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -28


def test_decreasing_inverse_of_the_gaussian_trade_off_is_itself():
    # G_1(t) = Phi(Phi^{-1}(1 - t) - 1) is symmetric (DRS 2022, Def. 2.7): G_1^{-1}(a) = G_1(a)
    with mpmath.workdps(50):
        g = lambda t: mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * t - 1) - 1)   # noqa: E731
        a = mpmath.mpf(1) / 5
        assert abs(decreasing_inverse(g, a) - g(a)) < mpmath.mpf(10) ** -45


def test_decreasing_inverse_says_when_the_level_is_never_reached():
    with mpmath.workdps(20), pytest.raises(RootFindingError):
        decreasing_inverse(lambda t: mpmath.mpf(1), mpmath.mpf("0.5"))


def test_array_inverse_agrees_with_the_closed_form_of_eps_delta():
    # f_{eps,0}(t) = max(1 - e t, e^-1 (1 - t), 0) with e = e^1: inverse of itself (symmetric)
    e = np.e
    f = lambda t: np.maximum(np.maximum(1 - e * t, (1 - t) / e), 0.0)   # noqa: E731
    a = np.linspace(0, 1, 101)
    assert np.allclose(decreasing_inverse_array(f, a), f(a), atol=1e-14, rtol=0)


def test_golden_max_finds_a_kink():
    with mpmath.workdps(40):
        # min(t, 1 - 2t) is concave with its maximum 1/3 at the kink t = 1/3
        value = golden_max(lambda t: min(t, 1 - 2 * t), 0, 1)
        assert abs(value - mpmath.mpf(1) / 3) < mpmath.mpf(10) ** -38
