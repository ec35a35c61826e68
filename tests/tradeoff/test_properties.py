"""Property-based checks (Hypothesis) over the parameter domains of every family:
convex, non-increasing, at most 1 - alpha, and symmetric (generic inverse = f)."""

import mpmath
import sympy as sp
from hypothesis import given, settings, strategies as st

from symdp.tradeoff import EpsDelta, Gaussian, Inverse, Laplace

rationals = lambda lo, hi: st.fractions(min_value=lo, max_value=hi, max_denominator=200)
families = st.one_of(
    st.builds(lambda e, d: EpsDelta(sp.Rational(e), sp.Rational(d)), rationals(0, 4), rationals(0, 1)),
    st.builds(lambda m: Gaussian(sp.Rational(m)), rationals(0, 5)),
    st.builds(lambda m: Laplace(sp.Rational(m)), rationals(0, 5)),
)
GRID = [sp.Rational(i, 16) for i in range(17)]
TOL = mpmath.mpf(10) ** -25


@settings(max_examples=25, deadline=None, derandomize=True)
@given(families)
def test_family_is_a_trade_off_function_on_a_grid(f):
    with mpmath.workdps(30):
        values = [f.evaluate(a, dps=30) for a in GRID]
        h = mpmath.mpf(1) / 16
        for i, (a, v) in enumerate(zip(GRID, values)):
            assert v <= 1 - mpmath.mpf(a.p) / a.q + TOL               # f <= Id
            assert v >= -TOL                                           # f >= 0
            if i:
                assert v <= values[i - 1] + TOL                        # non-increasing
            if 0 < i < len(values) - 1:
                assert values[i - 1] - 2 * v + values[i + 1] >= -TOL   # convex (second difference)
        del h


@settings(max_examples=15, deadline=None, derandomize=True)
@given(families, st.sampled_from([sp.Rational(1, 7), sp.Rational(1, 3), sp.Rational(3, 5), sp.Rational(9, 10)]))
def test_family_is_symmetric(f, a):
    assert mpmath.almosteq(Inverse(f).evaluate(a, dps=30), f.evaluate(a, dps=30), abs_eps=TOL)
