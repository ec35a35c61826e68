"""symdp.proof.cascade.search: the counterexample search proposes the point where a claim
fails; it only proposes, the ``decide`` callback (here: exact SymPy rationals) decides.

Expected points are found by hand: Abs(x - 1/3) > 0 fails exactly at x = 1/3, a point no
float sampling hits."""

import sympy as sp

from symdp.proof.cascade.search import search

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)

OPS = {"<": sp.Lt, "<=": sp.Le, ">": sp.Gt, ">=": sp.Ge}


def exact_decider(lhs, rhs, relation, calls):
    """Decide at one exact point with rational arithmetic; a failing point is returned."""
    def decide(point):
        calls.append(dict(point))
        holds = OPS[relation](lhs.xreplace(point), rhs.xreplace(point))
        assert holds in (sp.true, sp.false), "the sides must be exact rationals at the point"
        return ("refuted", dict(point)) if holds is sp.false else None
    return decide


def run(lhs, rhs, relation, hypotheses, conditions=()):
    calls = []
    out = search(lhs, rhs, relation, sorted(hypotheses, key=lambda s: s.name), hypotheses,
                 conditions, decide=exact_decider(lhs, rhs, relation, calls), seed=0)
    return out, calls


def test_finds_one_third_for_abs_x_minus_one_third_positive():
    lhs, rhs = sp.Abs(x - sp.Rational(1, 3)), sp.Integer(0)
    out, _ = run(lhs, rhs, ">", {x: sp.Interval(0, 1)})
    assert out.refuted == ("refuted", {x: sp.Rational(1, 3)})


def test_finds_the_interior_minimum_of_a_parabola():
    # (x - 2/7)**2 >= 1/10**6 fails on |x - 2/7| < 1/1000; 2/7 has q = 7 <= 12: a simple rational
    lhs, rhs = (x - sp.Rational(2, 7)) ** 2, sp.Rational(1, 10 ** 6)
    out, _ = run(lhs, rhs, ">=", {x: sp.Interval(-3, 5)})
    assert out.refuted is not None
    point = out.refuted[1]
    assert abs(point[x] - sp.Rational(2, 7)) < sp.Rational(1, 1000)


def test_finds_a_failure_on_a_tight_constraint():
    # x*y <= 1/5 with x + y = 1 on [0, 1]^2 fails at x = y = 1/2 (x*y = 1/4) -- only on the line
    lhs, rhs = x * y, sp.Rational(1, 5)
    out, _ = run(lhs, rhs, "<=", {x: sp.Interval(0, 1), y: sp.Interval(0, 1)},
                 conditions=(sp.Eq(x + y, 1),))
    assert out.refuted is not None
    point = out.refuted[1]
    assert point[x] + point[y] == 1 and point[x] * point[y] > sp.Rational(1, 5)


def test_a_true_claim_is_not_refuted_and_the_search_is_described():
    # x**2 + 1 > x holds for every real x (discriminant 1 - 4 < 0)
    out, calls = run(x ** 2 + 1, x, ">", {x: sp.Interval(-10, 10)})
    assert out.refuted is None
    assert out.candidates > 0 and calls  # it did look, and asked decide about its best points
    assert "no counterexample" in out.text()


def test_a_parameter_without_a_domain_is_not_searched():
    # y has no domain: nothing is proposed
    calls = []
    out = search(x, y, "<=", [x, y], {x: sp.Interval(0, 1)}, (), decide=lambda p: calls.append(p))
    assert out.refuted is None and calls == [] and "without a domain" in out.text()
