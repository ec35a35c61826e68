"""Box certificates for piecewise margins, integer tails and the symbolic reductions.

Every expected verdict is argued by hand in the test (never copied from the code's
output): where a relation is true the argument is given, where it is false a point
where it fails is named.
"""

import pytest

pytest.importorskip("flint")

import sympy as sp  # noqa: E402

from symdp.proof.cascade.certified.box import Range, certify_box  # noqa: E402
from symdp.proof.cascade.certified.reduce import reduce_relation  # noqa: E402

R = sp.Rational
x = sp.Symbol("x", real=True)
n = sp.Symbol("n", integer=True, positive=True)


def _box(expr_l, rel, expr_r, *ranges, **kw):
    return certify_box(expr_l, expr_r, rel, list(ranges), max_boxes=kw.pop("max_boxes", 250),
                       bits=80, **kw)


# ---------------------------------------------------------------- piecewise margins

def test_kink_touching_zero_at_an_irrational_point_is_certified():
    # Max(c - x, 3(x - c)) with c = 1/e: the first argument is > 0 left of c, the second
    # right of c, both are 0 at c: the margin is >= 0 and touches 0 exactly at x = c.
    c = sp.exp(-1)
    res = _box(sp.Max(c - x, 3 * (x - c)), ">=", 0, Range(x, 0, 1))
    assert res.status == "certified"
    assert res.pieces and "exp(-1)" in res.pieces[0]


def test_margin_identically_zero_on_a_piece_is_certified():
    # f(x) = 1 - 2x on [0, 1/pi], 1 - 1/pi - x beyond (continuous at 1/pi); x + f(x) is
    # 1 - x >= 1 - 1/pi on the left piece and exactly 1 - 1/pi on the right piece.
    c = 1 / sp.pi
    f = sp.Piecewise((1 - 2 * x, x <= c), (1 - c - x, True))
    res = _box(x + f, ">=", 1 - c, Range(x, 0, 1))
    assert res.status == "certified"
    assert res.smallest_margin == 0 or res.smallest_margin.lower() <= 0


def test_failure_of_1e_12_on_a_sub_interval_is_not_certified():
    # the same relation, with the right piece lowered by 1e-12 on [1/2, 1/2 + 1/1000]:
    # there x + f(x) = 1 - 1/pi - 1e-12 < 1 - 1/pi.
    c = 1 / sp.pi
    bump = sp.And(x >= R(1, 2), x <= R(1, 2) + R(1, 1000))
    f = sp.Piecewise((1 - 2 * x, x <= c), (1 - c - x - R(1, 10 ** 12), bump), (1 - c - x, True))
    res = _box(x + f, ">=", 1 - c, Range(x, 0, 1))
    assert res.status != "certified"
    if res.status == "refuted":
        point = sp.Rational(res.counterexample["point"]["x"])
        assert R(1, 2) <= point <= R(1, 2) + R(1, 1000)


def test_false_piecewise_relation_is_refuted_with_a_box():
    # Max(1/2 - x, x - 1/2) >= 1/10 fails at x = 1/2 (value 0) and near it
    res = _box(sp.Max(R(1, 2) - x, x - R(1, 2)), ">=", R(1, 10), Range(x, 0, 1))
    assert res.status == "refuted"
    point = sp.Rational(res.counterexample["point"]["x"])
    assert abs(point - R(1, 2)) < R(1, 10)


# ---------------------------------------------------------------- integer tails

def test_integer_tail_by_the_sign_on_the_shifted_tail():
    # n^2 - 10 n + 26 = (n - 5)^2 + 1 >= 1 > 0 for every integer n
    res = _box(n ** 2 - 10 * n + 26, ">=", 0, Range(n, 1, sp.oo, integer=True))
    assert res.status == "certified"
    assert "n in 1..64 by boxes" in res.tail and "n >= 64 symbolic" in res.tail


def test_integer_tail_by_monotonicity_in_n():
    # n - log(n) >= 1 for n >= 1 (equality only at n = 1; d/dn = 1 - 1/n >= 0), so >= 1/2
    res = _box(n - sp.log(n), ">=", R(1, 2), Range(n, 1, sp.oo, integer=True))
    assert res.status == "certified"
    assert "n in 1..64 by boxes" in res.tail


def test_claim_false_only_for_large_n_is_refuted_at_an_integer():
    # n <= 10^6 fails at every n > 10^6; a counterexample must be an integer > 10^6
    res = _box(n, "<=", 10 ** 6, Range(n, 1, sp.oo, integer=True),
               domains={n: sp.Range(1, sp.oo)})
    assert res.status == "refuted"
    point = sp.Integer(res.counterexample["point"]["n"])
    assert point > 10 ** 6


def test_claim_false_on_a_far_window_is_not_certified():
    # (1 - n/10^6)(2 - n/10^6) >= 0 fails for 10^6 < n < 2 10^6 (e.g. n = 1.5 10^6: -1/4)
    u = n / 10 ** 6
    res = _box((1 - u) * (2 - u), ">=", 0, Range(n, 1, sp.oo, integer=True),
               domains={n: sp.Range(1, sp.oo)})
    assert res.status != "certified"
    assert not res.tail


# ---------------------------------------------------------------- symbolic reductions

def test_strict_sign_on_open_domains_is_proved_and_not_on_closed_ones():
    p, e = sp.Symbol("p", real=True), sp.Symbol("e", real=True)
    claim = p * (1 - p) * (sp.exp(e) - 1)
    open_hyp = {p: sp.Interval.open(0, 1), e: sp.Interval.open(0, sp.oo)}
    closed_hyp = {p: sp.Interval(0, 1), e: sp.Interval.open(0, sp.oo)}
    assert reduce_relation(claim, sp.S.Zero, ">", open_hyp).proved
    # at p = 0 the product is 0, so "> 0" is false on the closed interval
    assert not reduce_relation(claim, sp.S.Zero, ">", closed_hyp).proved


def test_shift_from_a_finite_upper_bound():
    s, p = sp.Symbol("s", real=True), sp.Symbol("p", real=True)
    hyp = {s: sp.Interval(-sp.oo, -1), p: sp.Interval(0, 1)}
    # p s + p - 1 = p (s + 1) - 1 <= -1, so 1/(p s + p - 1) lies in [-1, 0)
    assert reduce_relation(1 / (p * s + p - 1), sp.S(-1), ">=", hyp).proved
    # at p = 1, s = -1 it is -1 < -1/2
    assert not reduce_relation(1 / (p * s + p - 1), R(-1, 2), ">=", hyp).proved


def test_max_is_at_least_each_argument():
    a, b = sp.Symbol("a", real=True), sp.Symbol("b", real=True)
    hyp = {a: sp.Interval(0, 1), b: sp.Interval(0, 1)}
    assert reduce_relation(sp.Max(a, b * sp.exp(a)) + 1, b * sp.exp(a) + 1, ">=", hyp).proved
    assert reduce_relation(sp.Min(a, b), a, "<=", hyp).proved
    # Max(a, b) >= b + 1 is false (a = b = 0)
    assert not reduce_relation(sp.Max(a, b), b + 1, ">=", hyp).proved


def test_max_against_each_argument_and_one_argument():
    t = sp.Symbol("t", real=True)
    hyp = {t: sp.Interval(0, 1)}
    # 1 >= t and 1 >= 1 - t on [0, 1]
    assert reduce_relation(sp.S.One, sp.Max(t, 1 - t), ">=", hyp).proved
    # 1/2 >= Max(t, 1 - t) fails at t = 0 (Max = 1)
    assert not reduce_relation(R(1, 2), sp.Max(t, 1 - t), ">=", hyp).proved
    # with the side condition t >= 1/2 the argument t - 1/2 alone is >= 0
    assert reduce_relation(sp.Max(t - R(1, 2), R(1, 2) - t), sp.S.Zero, ">=", hyp,
                           (t >= R(1, 2),)).proved
    # with t >= 1/4 only, no single argument is >= 1/8 everywhere (t = 1/2: both are 0)
    assert not reduce_relation(sp.Max(t - R(1, 2), R(1, 2) - t), R(1, 8), ">=", hyp,
                               (t >= R(1, 4),)).proved


# ---------------------------------------------------------------- Piecewise monotonicity (2-D)

xx, yy = sp.Symbol("x", real=True), sp.Symbol("y", real=True)


def test_piecewise_margin_in_two_parameters_uses_the_branch_derivative():
    # on x + y <= 3/2: x y - x^2 y^2/3 = x y (1 - x y/3) >= 0 (0 on the edges x = 0, y = 0);
    # beyond: x y > 0.  Tight on two edges: only a monotonicity test decides them.
    m = sp.Piecewise((xx * yy - xx ** 2 * yy ** 2 / 3, xx + yy <= R(3, 2)), (xx * yy, True))
    res = _box(m, ">=", 0, Range(xx, 0, 1), Range(yy, 0, 1))
    assert res.status == "certified"
    assert res.monotone > 0


def test_false_piecewise_margin_in_two_parameters_is_refuted():
    # beyond x + y = 3/2 the margin is x y - 1 < 0 (e.g. x = y = 9/10: -19/100)
    m = sp.Piecewise((xx * yy - xx ** 2 * yy ** 2 / 3, xx + yy <= R(3, 2)), (xx * yy - 1, True))
    res = _box(m, ">=", 0, Range(xx, 0, 1), Range(yy, 0, 1))
    assert res.status == "refuted"
    point = res.counterexample["point"]
    assert sp.Rational(point["x"]) + sp.Rational(point["y"]) > R(3, 2)


def test_linear_slack_with_a_remainder_that_needs_another_bound():
    a, d, e = (sp.Symbol(s, real=True) for s in ("a", "d", "e"))
    hyp = {a: sp.Interval(0, 1), d: sp.Interval(0, 1), e: sp.Interval(0, sp.oo)}
    side = (a <= (1 - d) / (sp.exp(e) + 1),)
    # 1 - d - a e^e = e^e ((1-d)/(e^e+1) - a) + (1-d)/(e^e+1) >= 0 (uses a <= x* and d <= 1)
    assert reduce_relation(1 - d - a * sp.exp(e), sp.S.Zero, ">=", hyp, side).proved
    # lowered by 1/(e^e+1) it fails at a = x*, d = 1/2: -1/(2(e^e+1)) < 0
    assert not reduce_relation(1 - d - a * sp.exp(e) - 1 / (sp.exp(e) + 1), sp.S.Zero, ">=",
                               hyp, side).proved
