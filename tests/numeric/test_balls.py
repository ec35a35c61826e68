r"""symdp.numeric.balls: exact conversions into Arb balls and back, checked with exact
rationals (every endpoint read back is an exact dyadic rational compared with SymPy)."""

import math

import flint
import pytest
import sympy as sp

from symdp.numeric.balls import (digits_to_bits, fmt, fmt_bound, fmt_decimal, from_float,
                                 hull, interval, point_ball, span, to_rational_lower,
                                 to_rational_upper, working_bits)

R = sp.Rational


@pytest.mark.parametrize("dps", [1, 15, 50, 300])
def test_digits_to_bits_holds_dps_digits(dps):
    bits = digits_to_bits(dps)
    # 2^(bits - 4) >= 10^dps, and not more than one bit beyond that (besides the 4 guard bits)
    assert 2 ** (bits - 4) >= 10 ** dps > 2 ** (bits - 5)


def test_digits_to_bits_at_50_is_171():
    # 50 log2(10) = 166.09...; ceil = 167; + 4 guard bits
    assert digits_to_bits(50) == 171


@pytest.mark.parametrize("q", [R(1, 3), R(-7, 10), R(10 ** 30 + 1, 3 ** 40)])
def test_point_ball_contains_the_exact_rational(q):
    with working_bits(digits_to_bits(30)):
        b = point_ball(q)
        assert to_rational_lower(b) <= q <= to_rational_upper(b)
        assert to_rational_upper(b) - to_rational_lower(b) <= abs(q) * R(1, 10 ** 29) + R(1, 10 ** 60)


def test_dyadic_rational_and_float_are_exact():
    b = point_ball(R(3, 8))
    assert b.rad() == 0 and to_rational_lower(b) == R(3, 8)
    f = sp.Float(0.1)                   # the double nearest 1/10: an exact dyadic rational
    exact = sp.Rational(3602879701896397, 2 ** 55)
    ball = from_float(f)
    assert to_rational_lower(ball) == to_rational_upper(ball) == exact
    assert to_rational_lower(point_ball(sp.Float(0))) == 0


def test_non_exact_input_is_refused():
    with pytest.raises(ValueError):
        point_ball(sp.sqrt(2))
    for bad in (sp.oo, sp.nan, sp.pi):
        with pytest.raises(ValueError):
            point_ball(bad)


def test_interval_and_hull_keep_an_exact_end_exact():
    with working_bits(64):
        b = interval(0, R(1, 3))
        assert to_rational_lower(b) == 0            # not a hair below 0
        assert to_rational_upper(b) >= R(1, 3)
        h = hull(point_ball(1), point_ball(R(1, 3)) + 0)
        assert to_rational_upper(h) == 1 and to_rational_lower(h) <= R(1, 3)
        s = span(flint.arb(-1), flint.arb(R(1, 7).p) / 7)
        assert to_rational_lower(s) == -1 and to_rational_upper(s) >= R(1, 7)


def test_working_bits_is_scoped_and_restored_on_error():
    before = flint.ctx.prec
    with working_bits(200):
        assert flint.ctx.prec == 200
    assert flint.ctx.prec == before
    with pytest.raises(RuntimeError):
        with working_bits(300):
            raise RuntimeError("inside")
    assert flint.ctx.prec == before


def test_formatting():
    quarter = point_ball(R(1, 4))
    assert fmt(quarter) == "0.25" + "0" * 18          # exact: 20 significant digits, no radius
    assert fmt(point_ball(R(1, 3)), 10).startswith("[0.3333333333 +/- ")
    assert fmt(flint.arb("inf")) == "[not finite]"
    assert fmt_bound(flint.arb(0)) == "0"
    assert fmt_bound(point_ball(R(3, 2))) == "1.50e+00"
    assert fmt_bound(flint.arb("inf")) == "inf"
    assert fmt_decimal(point_ball(R(1, 8)), 3) == "0.125"
    assert math.isclose(float(fmt_decimal(point_ball(R(2, 3)), 5)), 2 / 3, rel_tol=1e-4)
