"""symdp.proof.cascade.certified.reduce: monotone maps taken off both sides, their side conditions
recorded, and only true reduced relations proved.

Each expected reduction is the hand argument written beside it (t -> t**k strictly increasing on
[0, oo) for k > 0, decreasing on (0, oo) for k < 0; exp increasing)."""

import sympy as sp

from symdp.proof.cascade.certified.reduce import reduce_relation

x = sp.Symbol("x", real=True)
k = sp.Symbol("k", real=True)


def test_a_positive_common_exponent_is_removed():
    # x**k <= (x + 1)**k  <=>  x <= x + 1  (x >= 1 >= 0, k > 0): true for every k at once
    red = reduce_relation(x ** k, (x + 1) ** k, "<=",
                          {x: sp.Interval(1, sp.oo), k: sp.Interval.open(0, sp.oo)})
    assert red.proved is True
    assert k not in (red.lhs - red.rhs).free_symbols
    assert red.obligations == []
    assert any("t^(k)" in s and "increasing" in s for s in red.steps)


def test_a_negative_common_exponent_flips_the_relation():
    # for k < 0, t**k is decreasing on (0, oo): x**k >= (x + 1)**k  <=>  x <= x + 1
    red = reduce_relation(x ** k, (x + 1) ** k, ">=",
                          {x: sp.Interval(1, sp.oo), k: sp.Interval.open(-sp.oo, 0)})
    assert red.proved is True
    assert k not in (red.lhs - red.rhs).free_symbols
    assert any("decreasing" in s for s in red.steps)


def test_a_base_of_unknown_sign_becomes_an_obligation():
    # (x - 1)**k <= x**k reduces to x - 1 <= x only where x - 1 >= 0; on x >= 0 that is not
    # settled by the hypotheses, so it must be recorded as a condition
    red = reduce_relation((x - 1) ** k, x ** k, "<=",
                          {x: sp.Interval(0, sp.oo), k: sp.Interval.open(0, sp.oo)})
    texts = [o.text() for o in red.obligations]
    assert "x - 1 >= 0" in texts
    assert "x - 1 >= 0" in red.summary()


def test_a_false_reduced_relation_is_not_proved():
    # x**k <= (x/2)**k  <=>  x <= x/2, false for every x >= 1
    red = reduce_relation(x ** k, (x / 2) ** k, "<=",
                          {x: sp.Interval(1, sp.oo), k: sp.Interval.open(0, sp.oo)})
    assert red.proved is not True


def test_exp_is_removed_and_the_exponents_compared():
    # exp(x) < exp(2x)  <=>  x < 2x  <=>  0 < x, true on x > 0 and false at x = 0
    assert reduce_relation(sp.exp(x), sp.exp(2 * x), "<", {x: sp.Interval.open(0, 1)}).proved is True
    assert reduce_relation(sp.exp(x), sp.exp(2 * x), "<", {x: sp.Interval(0, 1)}).proved is not True
