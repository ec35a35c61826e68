"""The sampler's membership test for integer domains (issue #30): a Range with integer start
and step, or a union of such Ranges, is decided in Python integers; the answer must be
SymPy's for every integer, and any other set is left to SymPy (None)."""

import pytest
import sympy as sp

from symdp.proof.sampling import _integer_in

DECIDED = [
    sp.Range(1, sp.oo), sp.Range(-10, -2), sp.Range(3, sp.oo, 2), sp.Range(10, -5, -3),
    sp.Range(7, -30, -4), sp.Range(2, 100, 5), sp.Range(0), sp.Range(5, 5),
    sp.Union(sp.Range(-10, -2), sp.Range(3, sp.oo)),        # n >= -10, n^2 >= 9
    sp.Union(sp.Range(-7, 0, 2), sp.Range(5, 40, 7)),
]
LEFT_TO_SYMPY = [
    sp.Range(-sp.oo, 4), sp.Union(sp.Range(1, 4), sp.FiniteSet(sp.Rational(1, 2))),
    sp.FiniteSet(1, 2), sp.Interval(0, 3), sp.Range(sp.Symbol("m", integer=True), 9),
]


@pytest.mark.parametrize("domain", DECIDED, ids=str)
def test_integer_membership_is_sympys(domain):
    for v in range(-60, 120):
        assert _integer_in(v, domain) is (sp.Integer(v) in domain), (domain, v)


@pytest.mark.parametrize("domain", LEFT_TO_SYMPY, ids=str)
def test_other_sets_are_left_to_sympy(domain):
    assert _integer_in(1, domain) is None
