"""Branch and bound over boxes: true inequalities certified, false ones refuted with a box,
a failure on a tiny region never certified, bad boxes rejected."""

import pytest
import sympy as sp

pytest.importorskip("flint")

from symdp import InvalidParameterError, Phi  # noqa: E402
from symdp.parsing.ranges import parse_range  # noqa: E402
from symdp.proof.cascade.certified.box import Range, certify_box  # noqa: E402

p, e, x, mu = sp.symbols("p varepsilon x mu", real=True)
n, k = sp.symbols("n k", integer=True)
R = sp.Rational


@pytest.mark.parametrize("lhs, rel, rhs, box", [
    (sp.log(1 - p + p * sp.exp(e)), "<=", e, [Range(p, 0, 1), Range(e, 0, 10)]),   # eps' <= eps
    (sp.log(1 + x), "<=", x, [Range(x, 0, 1)]),
    (x * (1 - x), ">=", 0, [Range(x, 0, 1)]),
    (Phi(-x), "<=", sp.exp(-x ** 2 / 2) / 2, [Range(x, 0, 30)]),                     # Chernoff
    (Phi(mu / 2) - Phi(-mu / 2), ">=", 0, [Range(mu, 0, 5)]),
    (1 - ((n - 1) / n) ** k, ">=", 1 - (1 - 1 / n ** 2) ** k, [Range(n, 2, 12, True), Range(k, 1, 12, True)]),
])
def test_known_true_inequality_is_certified_over_its_box(lhs, rel, rhs, box):
    res = certify_box(lhs, rhs, rel, box)
    assert res.status == "certified", res.as_dict()
    assert res.sub_boxes >= 1 and not res.resisting
    assert res.smallest_margin is not None


@pytest.mark.parametrize("lhs, rel, rhs, box", [
    (sp.log(1 - p + p * sp.exp(e)), ">=", e, [Range(p, 0, 1), Range(e, 0, 10)]),
    (x ** 2, ">=", x, [Range(x, 0, 1)]),
    (Phi(x), "<=", R(1, 2), [Range(x, -1, 1)]),
])
def test_known_false_inequality_is_refuted_with_a_counterexample_box(lhs, rel, rhs, box):
    res = certify_box(lhs, rhs, rel, box)
    assert res.status == "refuted"
    cx = res.counterexample
    point = {s: sp.Rational(v) for s, v in ((sp.Symbol(k, real=True), v) for k, v in cx["point"].items())}
    # the point lies in the counterexample box and the relation fails there, exactly re-checked
    for name, (a, b) in cx["box"].items():
        assert sp.Rational(a) <= sp.Rational(cx["point"][name]) <= sp.Rational(b)
    value = sp.N((lhs - rhs).xreplace(point), 50)
    assert (value > 0) if rel in ("<=", "<") else (value < 0)


def test_failure_on_a_tiny_region_is_not_certified():
    # (x - 1/3)^2 >= 1e-24 fails only for |x - 1/3| < 1e-12
    res = certify_box((x - R(1, 3)) ** 2, R(1, 10 ** 24), ">=", [Range(x, 0, 1)])
    assert res.status in ("refuted", "undecided")
    if res.status == "refuted":
        a, b = (sp.Rational(v) for v in res.counterexample["box"]["x"])
        assert abs(a - R(1, 3)) < R(1, 10 ** 12) and abs(b - R(1, 3)) < R(1, 10 ** 12)


def test_perturbation_of_1e_12_on_a_sub_interval_is_not_certified():
    bump = sp.Piecewise((R(1, 10 ** 12), (x > R(1, 2)) & (x < R(1, 2) + R(1, 10 ** 6))), (0, True))
    # x(1 - x) >= 1e-12 * bump holds; x(1 - x) >= bump' fails on [0, ~1e-12] only
    res = certify_box(x * (1 - x), sp.Piecewise((R(1, 10 ** 12), x < R(1, 10 ** 11)), (0, True)) + bump,
                      ">=", [Range(x, 0, 1)])
    assert res.status != "certified"
    assert res.resisting or res.counterexample


def test_unbounded_range_is_mapped_and_stated():
    res = certify_box(e / (1 + e), 1, "<=", [Range(e, 0, sp.oo)])
    assert res.status == "certified"
    assert "t_varepsilon" in res.as_dict()["changes_of_variables"]["varepsilon"]


def test_out_of_reach_end_is_named_with_the_certified_part():
    res = certify_box(sp.log(1 - p + p * sp.exp(e)), e, "<=", [Range(p, 0, 1), Range(e, 0, sp.oo)],
                      max_boxes=150)
    assert res.status == "undecided" and res.resisting


def test_integer_box_is_split_and_snapped_at_integers():
    # holds for integers only: (n - 3/2)^2 >= 1/4 fails for 1 < n < 2
    res = certify_box((n - R(3, 2)) ** 2, R(1, 4), ">=", [Range(n, 0, 40, integer=True)])
    assert res.status == "certified"
    res = certify_box((x - R(3, 2)) ** 2, R(1, 4), ">=", [Range(x, 0, 40)])
    assert res.status == "refuted"


def test_constraints_make_sub_boxes_vacuous():
    res = certify_box(k, n, "<=", [Range(n, 1, 30, True), Range(k, 1, 30, True)],
                      constraints=[sp.Le(k, n)])
    assert res.status == "certified" and res.vacuous > 0


@pytest.mark.parametrize("text, message", [
    ("p=1..0", "lower <= upper"),
    ("eps=-oo..oo", "both ends"),
    ("p=a..1", "must be a number"),
    ("p", "name=lo..hi"),
])
def test_bad_box_is_a_clear_error(text, message):
    with pytest.raises(InvalidParameterError, match=message):
        parse_range(text)


def test_equality_is_not_a_box_claim():
    with pytest.raises(ValueError):
        certify_box(x, x, "=", [Range(x, 0, 1)])


def test_parse_range_reads_fractions_and_infinity():
    r = parse_range("eps=1/2..oo")
    assert r.lo == R(1, 2) and r.hi == sp.oo
