"""Assumption records: what an object chose but did not prove, as SymPy relations."""

import sympy as sp

from symdp.tradeoff import EpsDelta, Gaussian
from symdp.tradeoff.assumptions import Assumption

x, y = sp.symbols("x y")


def test_text_reads_like_the_relation_and_names_bound_variables():
    assert Assumption(sp.Le(x, 1 - y, evaluate=False), "r").text == "x <= 1 - y"
    a = sp.Dummy("a")
    bound = Assumption(sp.Ge(a ** 2, x), "r", ((a, sp.Interval(0, 1)),), (sp.Ge(a, y),))
    assert bound.text == "a**2 >= x for every a in Interval(0, 1) with a >= y"


def test_xreplace_renames_free_and_bound_symbols():
    a = sp.Dummy("a")
    u = sp.Symbol("u")
    r = Assumption(sp.Le(a, x), "r", ((a, sp.Interval(0, 1)),), (sp.Ge(a, x),)).xreplace({x: u})
    assert r.claim == sp.Le(a, u) and r.where == (sp.Ge(a, u),) and r.over[0][0] == a


def test_objects_with_numbers_assume_nothing():
    assert EpsDelta(1, sp.Rational(1, 10)).assumptions == ()
    assert Gaussian(2).assumptions == ()


def test_undecided_parameter_constraints_are_assumptions():
    d = sp.Symbol("delta")
    claims = {a.claim for a in EpsDelta(sp.Symbol("varepsilon", nonnegative=True), d).assumptions}
    assert sp.Le(d, 1) in claims and sp.Ge(d, 0) in claims
