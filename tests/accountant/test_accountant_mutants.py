"""Mutants: flip one rounding direction and a test must see the bracket exclude the exact value.

Randomized response with eps0 on the grid is the sharp case: its profile is piecewise linear
with kinks exactly at grid nodes, so the connect-the-dots pair IS the exact pair, and each loss
bin holds one atom, so the binned pair is exact too.  The correct bracket is then exact up to the
2^-B mass roundings -- and a rounding turned the wrong way puts the exact value outside.  The
grid mutant (losses placed one cell low) is caught on a Gaussian composition.
"""

from fractions import Fraction

import mpmath
import pytest

from symdp.accountant import Gaussian, Grid, RandomizedResponse
from symdp.accountant.certify import Phase, compose, delta_bounds

from test_accountant_bracket import gdp_delta, mpf, rr_delta


def rr_bracket(T, eps, mutate=None, bits=40):
    grid = Grid(h_exp=3, bits=bits, tail_bits=bits, prec=160, mutate=mutate)   # no truncation
    lo, hi = delta_bounds(compose([Phase((RandomizedResponse("0.5"),), T)], grid), Fraction(eps))
    return mpf(lo), mpf(hi)


CASES = [(1, "0.25"), (1, "0"), (9, "1"), (16, "1.5")]


@pytest.mark.parametrize("T,eps", CASES)
def test_correct_rounding_contains_the_exact_value(T, eps):
    with mpmath.workdps(80):
        lo, hi = rr_bracket(T, eps)
        exact = rr_delta("0.5", T, eps)
        assert lo <= exact <= hi
        assert hi - lo < 1e-9          # exact pairs: only the mass roundings remain


# At T = 16 the correct lower end sits ~1e-10 below the exact value: every empty bin carries a
# Q-mass of one unit 2^-40 (the ceiling of a ball around 0), and those units multiply through
# the products.  A P-mutant gains e^0 per unit, the Q-ghosts cost e^eps: it is caught at a
# small eps, the Q-mutant at a large one.  (Before the review, the products' ceiling was a
# floor for sub-unit masses -- FLINT's poly // n -- which dropped those ghosts and let one eps
# serve both mutants.)
@pytest.mark.parametrize("mutant,T,side,eps", [
    ("upper-mass-down", 1, "hi", "0.25"),        # CTD masses floor'd instead of ceil'd
    ("lower-p-up", 1, "lo", "0.25"),             # binned P-masses ceil'd
    ("lower-p-up", 16, "lo", "0.5"),             #   ... and in the products
    ("lower-q-down", 1, "lo", "0.25"),           # binned Q-masses floor'd
    ("lower-q-down", 16, "lo", "1.5"),
])
def test_a_flipped_rounding_excludes_the_exact_value(mutant, T, side, eps):
    with mpmath.workdps(80):
        exact = rr_delta("0.5", T, eps)
        lo, hi = rr_bracket(T, eps, mutate=mutant)
        if side == "hi":
            assert hi < exact, (mutant, hi, exact)
        else:
            assert lo > exact, (mutant, lo, exact)


def gaussian_bracket(mutate, bits=80):
    grid = Grid(h_exp=8, bits=bits, tail_bits=bits, prec=200, mutate=mutate)
    lo, hi = delta_bounds(compose([Phase((Gaussian("0.1"),), 100)], grid), Fraction(1))
    return mpf(lo), mpf(hi)


def test_a_grid_shifted_down_is_caught_on_a_gaussian():
    with mpmath.workdps(50):
        exact = gdp_delta(1, 1)                       # G_0.1^{x 100} = G_1
        lo, hi = gaussian_bracket(None)
        assert lo <= exact <= hi
        assert gaussian_bracket("upper-shift-down")[1] < exact


def test_products_rounded_down_are_caught_on_a_gaussian():
    """With a coarse mass unit (2^-24) the ~2000 cells x 10 products of the composition lose
    more by flooring than the connect-the-dots slack: the mutant's upper end falls below."""
    with mpmath.workdps(50):
        exact = gdp_delta(1, 1)
        lo, hi = gaussian_bracket(None, bits=24)
        assert lo <= exact <= hi
        assert gaussian_bracket("upper-rescale-down", bits=24)[1] < exact
