"""Tight ball operations against exact interval arithmetic on rationals (the range of each
operation over an interval, worked out by hand from monotonicity), and certified comparisons
that must say None, not guess, when balls overlap."""

import pytest

pytest.importorskip("flint")

from flint import arb, fmpq  # noqa: E402

from symdp.numeric.ball_ops import (ball_abs, compare, int_power, monotone_image, mul,  # noqa: E402
                                    real_power, reciprocal)
from symdp.numeric.balls import interval, working_bits  # noqa: E402


def _exact(ball, lo, hi):
    """The ball contains [lo, hi] and exceeds it by at most 2^-20 at each end (radii are
    30-bit magnitudes, rounded outwards); the naive enclosures miss by whole units."""
    slack = arb(2) ** -20
    return ball.lower() <= lo and ball.upper() >= hi and \
        lo - ball.lower() <= slack and ball.upper() - hi <= slack


def test_even_power_of_a_ball_around_zero_starts_at_zero():
    with working_bits(200):
        # {t^2 : t in [-1, 3]} = [0, 9]; midpoint-radius squaring would give [-3, 9]-ish
        assert _exact(int_power(interval(-1, 3), 2), 0, 9)
        assert _exact(int_power(interval(-3, -2), 3), -27, -8)       # odd: monotone
        assert _exact(int_power(interval(2, 4), -1), fmpq(1, 4), fmpq(1, 2))


def test_product_of_wide_balls_is_the_hull_of_the_corners():
    with working_bits(200):
        # [-1, 2] * [3, 5]: corners -3, -5, 6, 10 -> [-5, 10]
        assert _exact(mul(interval(-1, 2), interval(3, 5)), -5, 10)
        assert _exact(reciprocal(interval(2, 4)), fmpq(1, 4), fmpq(1, 2))
        assert _exact(ball_abs(interval(-3, 2)), 0, 3)


def test_monotone_image_and_real_power_use_the_endpoints():
    with working_bits(200):
        image = monotone_image(lambda x: x.exp(), interval(0, 1))
        assert image.lower() <= 1 <= image.upper() and image.upper() - arb(1).exp() < arb(2) ** -20
        # s^t for s in [1/4, 1/2], t in [1, 2]: decreasing in t (s < 1), increasing in s
        power = real_power(interval(fmpq(1, 4), fmpq(1, 2)), interval(1, 2))
        assert power.contains(arb(fmpq(1, 16))) and power.contains(arb(fmpq(1, 2)))
        assert power.upper() - fmpq(1, 2) < arb(2) ** -20 and fmpq(1, 16) - power.lower() < arb(2) ** -20


def test_comparisons_are_certified_or_undecided():
    with working_bits(100):
        assert compare(interval(0, 1), "<", interval(2, 3)) is True
        assert compare(interval(0, 2), "<", interval(1, 3)) is None    # overlap: undecided
        assert compare(interval(0, 1), ">=", interval(2, 3)) is False
        assert compare(arb(1), "==", arb(1)) is True
        assert compare(interval(0, 1), "==", interval(2, 3)) is False
        assert compare(arb("nan"), "<", arb(1)) is None
