"""Mutation meta-tests for the stages added by issue #12: each must refute mutants -- false
statements close to true ones -- that the other stages let through.

* the counterexample search (symdp/proof/cascade/search.py): strict inequalities tied at an
  interior rational point, and thin dips below a bound near an interior minimum;
* the rise of precision at points (symdp/proof/cascade/certified/points.py): equalities and
  inequalities off by 1e-60 ... 1e-400;
* the box search under coupling constraints (symdp/proof/cascade/certified/box.py);
* the shift variables of the reductions (symdp/proof/cascade/certified/reduce.py).

Each counterexample is re-checked here without symdp's evaluators: exactly with
``fractions.Fraction`` or with mpmath at 50 digits.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp import Gaussian, Phi
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof.check import check_step

x, y = sp.symbols("x y", real=True)
UNIT = sp.Interval(0, 1)


def _run(lhs, rel, rhs, hyp, constraints=(), **kw):
    d = Derivation("mutant", "a mutant", "test", hyp, (Step(lhs, rel, rhs, "mutant"),),
                   constraints=constraints)
    return check_step(d.steps[0], d, 0, **kw)


def _mp(expr, point):
    """``expr`` at a point with mpmath at 50 digits (Phi written out as erfc)."""
    with mpmath.workdps(50):
        sub = {s: mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
               for s, v in point.items()}
        f = sp.lambdify(list(sub), expr.replace(Phi, lambda z: sp.erfc(-z / sp.sqrt(2)) / 2),
                        modules="mpmath")
        return f(*sub.values())


def _fails_independently(lhs, rel, rhs, cx):
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    by_name = {t.name: t for t in lhs.free_symbols | rhs.free_symbols}
    point = {by_name[k]: v for k, v in cx.point.items() if k in by_name}
    L, R = _mp(lhs, point), _mp(rhs, point)
    with mpmath.workdps(50):
        return not {"<": L < R, "<=": L <= R, ">": L > R, ">=": L >= R, "=": L == R}[rel]


# ---------------------------------------------------------------- the search

SEARCH_MUTANTS = [
    # strict inequalities whose sides touch at an interior rational point
    ((x - sp.Rational(3, 7)) ** 2 * sp.exp(x), ">", 0, {x: UNIT}),
    (sp.log(1 + (x - sp.Rational(5, 13)) ** 2), ">", 0, {x: UNIT}),
    (sp.Abs(x - sp.Rational(2, 9)) + sp.Abs(y - sp.Rational(4, 9)), ">", 0, {x: UNIT, y: UNIT}),
    (x ** 2 + y ** 2, ">", 2 * x * y, {x: UNIT, y: UNIT}),
    # a tie of a DP bound: log(1 + p (e^eps - 1)) <= p (e^eps - 1) made strict (tie at p = 0)
    (sp.log(1 + x * (sp.exp(y) - 1)), "<", x * (sp.exp(y) - 1), {x: UNIT, y: UNIT}),
    # thin dips: the bound is missed only within ~1e-4 of an interior point
    (x * (1 - x), "<=", sp.Rational(1, 4) - sp.Rational(1, 10 ** 9), {x: UNIT}),
    ((x - sp.Rational(1, 3)) ** 2 + (y - sp.Rational(3, 5)) ** 2, ">=", sp.Rational(1, 10 ** 10),
     {x: UNIT, y: UNIT}),
]


@pytest.mark.parametrize("lhs, rel, rhs, hyp", SEARCH_MUTANTS,
                         ids=[f"{sp.sstr(m[0])[:30]} {m[1]}" for m in SEARCH_MUTANTS])
def test_search_refutes_mutants(lhs, rel, rhs, hyp):
    r = _run(lhs, rel, rhs, hyp)
    assert r.verdict is Verdict.REFUTED, r.detail
    assert _fails_independently(lhs, rel, rhs, r.counterexample), r.counterexample


def test_the_search_is_what_refutes_interior_ties():
    """Without the search these mutants end as evidence at points (the sampled points miss
    the tie); with it they are refuted at the tie."""
    missed = 0
    for lhs, rel, rhs, hyp in SEARCH_MUTANTS[:4]:
        # (the probe before the proof attempts looks at 4 points: off, as the search is)
        without = _run(lhs, rel, rhs, hyp, search=False, probe=False)
        missed += without.verdict.is_evidence
        assert _run(lhs, rel, rhs, hyp).verdict is Verdict.REFUTED
    assert missed >= 3  # the stage is needed: the other stages call them evidence


def test_search_finds_integers_far_out():
    n = sp.Symbol("n", integer=True)
    hyp = {n: sp.Range(1, sp.oo)}
    # true for n < 10**7 - 1, false beyond
    r = _run(n / (n + 1), "<", 1 - sp.Rational(1, 10 ** 7), hyp)
    assert r.verdict is Verdict.REFUTED
    v = int(r.counterexample.point["n"])
    assert Fraction(v, v + 1) >= 1 - Fraction(1, 10 ** 7)


# ---------------------------------------------------------------- precision at points

PRECISION_MUTANTS = [
    (Phi(-x), "=", 1 - Phi(x) + sp.Rational(1, 10 ** 60), {x: sp.Interval(-2, 2)}),
    (sp.exp(sp.log(1 + x)), "=", 1 + x + x * sp.Rational(1, 10 ** 200), {x: UNIT}),
    (sp.exp(sp.Rational(1, 10 ** 300)) - 1, "=", 0, {}),
    (sp.exp(sp.Rational(1, 10 ** 400)) - 1, "<=", sp.Rational(1, 10 ** 400), {}),
    (sp.log(1 + sp.Rational(1, 10 ** 150)), ">=", sp.Rational(1, 10 ** 150), {}),
]


@pytest.mark.parametrize("lhs, rel, rhs, hyp", PRECISION_MUTANTS,
                         ids=[f"{m[1]} {i}" for i, m in enumerate(PRECISION_MUTANTS)])
def test_precision_rise_refutes_tiny_differences(lhs, rel, rhs, hyp):
    r = _run(lhs, rel, rhs, hyp)
    assert r.verdict is Verdict.REFUTED, r.detail


def test_without_the_rise_tiny_differences_pass(monkeypatch):
    """The mutants above pass when the precision is not raised: the rise is what refutes."""
    from symdp.proof.cascade.certified import points

    monkeypatch.setattr(points, "DEEP_POINTS", 0)
    monkeypatch.setattr(points, "magnitude_bits", lambda *a: 0)
    lhs, rel, rhs, hyp = PRECISION_MUTANTS[2]
    r = _run(lhs, rel, rhs, hyp, search=False, probe=False)
    assert r.verdict is not Verdict.REFUTED


# ---------------------------------------------------------------- boxes under constraints

BOX_MUTANTS = [
    (x + y, ">=", 1 + sp.Rational(1, 10 ** 6), (x + y >= 1,)),
    (x ** 2 + y ** 2, ">=", sp.Rational(1, 2) + sp.Rational(1, 10 ** 6), (x + y >= 1,)),
    (y - x, ">", 0, (x <= y,)),
    (sp.exp(x + y), ">", sp.E, (x + y >= 1,)),
]


@pytest.mark.parametrize("lhs, rel, rhs, cons", BOX_MUTANTS, ids=[str(i) for i in range(4)])
def test_box_respects_constraints(lhs, rel, rhs, cons):
    r = _run(lhs, rel, rhs, {x: UNIT, y: UNIT}, cons)
    assert r.verdict is Verdict.REFUTED, r.detail
    point = {k: Fraction(v) for k, v in r.counterexample.point.items()}
    env = {x: sp.Rational(point["x"].numerator, point["x"].denominator),
           y: sp.Rational(point["y"].numerator, point["y"].denominator)}
    assert all(bool(c.xreplace(env)) for c in cons)  # the counterexample is admissible


def test_box_over_a_coupled_domain_never_certifies_from_an_inadmissible_face():
    from symdp.proof.cascade.certified.box import Range, certify_box

    box = [Range(x, 0, 1), Range(y, 0, 1)]
    res = certify_box(x + y, sp.Rational(6, 5), ">=", box, constraints=[x + y >= 1],
                      domains={x: UNIT, y: UNIT})
    assert res.status != "certified"


# ---------------------------------------------------------------- shift variables

@pytest.mark.parametrize("f", [x, x ** 3, sp.exp(x) - 1, sp.log(1 + x), sp.sqrt(x)],
                         ids=["x", "x^3", "expm1", "log1p", "sqrt"])
def test_reduction_does_not_prove_strict_at_a_closed_end(f):
    from symdp.proof.cascade.certified.reduce import reduce_relation

    red = reduce_relation(f, sp.S.Zero, ">", {x: UNIT})
    assert not red.proved
    red = reduce_relation(f, sp.S.Zero, ">=", {x: UNIT})
    assert red.proved  # the non-strict relation still is
    red = reduce_relation(f, sp.S.Zero, ">", {x: sp.Interval.Lopen(0, 1)})
    assert red.proved  # and the strict one on the open end


# ---------------------------------------------------------------- finite domains checked whole

def test_a_finite_domain_checked_whole_is_certified():
    from symdp import Gaussian

    a = sp.Symbol("alpha", real=True)
    hyp = {a: sp.FiniteSet(sp.Rational(1, 100), sp.Rational(1, 5), sp.Rational(1, 2),
                           sp.Rational(9, 10))}
    r = _run(Gaussian(2)(a), "<=", Gaussian(1)(a), hyp)
    assert r.verdict in (Verdict.CERTIFIED, Verdict.PROVED), r.detail
    if r.verdict is Verdict.CERTIFIED:
        assert "enumerated whole: all 4 admissible points" in r.detail


def test_a_finite_domain_with_one_bad_point_is_refuted():
    """Mutant: G_1 <= G_2 fails at every interior alpha; with only alpha in {0, 1} it holds
    (both 1 - alpha there) -- adding one interior point must refute it."""
    from symdp import Gaussian

    a = sp.Symbol("alpha", real=True)
    good = {a: sp.FiniteSet(sp.Rational(1, 100), sp.Rational(1, 2))}
    r = _run(Gaussian(2)(a) + sp.Rational(1, 10 ** 30), "<=", Gaussian(2)(a), good)
    assert r.verdict is Verdict.REFUTED, r.detail
    r = _run(Gaussian(1)(a), "<=", Gaussian(2)(a), good)
    assert r.verdict is Verdict.REFUTED, r.detail


def test_a_large_finite_domain_is_only_sampled():
    from symdp.proof.cascade.certified.stage import FINITE_LIMIT

    a = sp.Symbol("alpha", real=True)
    hyp = {a: sp.FiniteSet(*[sp.Rational(i, 1000) for i in range(1, FINITE_LIMIT + 2)])}
    step = Step(sp.exp(a), ">=", 1 + a, "t", skip=("symbolic",))
    r = check_step(step, Derivation("t", "t", "t", hyp, (step,)))
    assert r.verdict is not Verdict.CERTIFIED or "enumerated whole" not in r.detail


# ---------------------------------------------------------------- real steps of proofs/, mutated

def _real_finite_steps():
    from pathlib import Path

    from symdp.proof.loader import load_file

    root = Path(__file__).resolve().parents[2]
    for d in load_file(root / "proofs" / "drs_def_4_1_properties.py"):
        if d.id == "cp_preserves_the_order_for_gaussian_and_eps_delta":
            for s in d.steps:
                yield d, s


@pytest.mark.parametrize("index", range(3))
def test_real_finite_domain_steps_mutated_are_refuted(index):
    """The steps of cp_preserves_the_order_for_gaussian_and_eps_delta (a finite domain,
    CERTIFIED whole) turned around: ``rhs <= lhs`` is false wherever the order is strict
    (e.g. G_2(1/2) = Phi(-2) < Phi(-1) = G_1(1/2)); and ``lhs < lhs``.  The turned step keeps
    the real step's ``skip`` (the symbolic stage, which only spends its budget on these
    Piecewise closed forms); ``lhs < lhs`` goes through the symbolic stage (equal sides)."""
    d, step = list(_real_finite_steps())[index]
    assert step.relation == "<="
    for mutant in (Step(step.rhs, "<=", step.lhs, "mutated", skip=step.skip),
                   Step(step.lhs, "<", step.lhs, "mutated")):
        md = Derivation(d.id, d.statement, d.citation, d.hypotheses, (mutant,), chained=False)
        r = check_derivation(md).steps[0]
        assert r.verdict is Verdict.REFUTED, (index, r.verdict, r.detail)


# ---------------------------------------------------------------- the probe (issue #30)
# False steps the probe must refute before any proof attempt, each counterexample checked
# independently at 50 digits (_fails_independently); true steps it must leave to the cascade.

PROBE_MUTANTS = [
    (sp.exp(x), "<=", 1 + x, {x: UNIT}),                                   # e^x >= 1 + x
    (sp.log(1 + x), ">=", x, {x: sp.Interval(0, 5)}),                      # log(1+x) <= x
    (Phi(x) + Phi(-x), "=", 1 + sp.Rational(1, 100), {x: sp.Interval(-3, 3)}),
    ((x + y) ** 2, "<=", x ** 2 + y ** 2, {x: UNIT, y: UNIT}),             # 2xy >= 0
]


@pytest.mark.parametrize("lhs, rel, rhs, hyp", PROBE_MUTANTS)
def test_the_probe_refutes_a_false_step_first(lhs, rel, rhs, hyp):
    r = _run(lhs, rel, rhs, hyp)
    assert r.verdict is Verdict.REFUTED and r.stage == "probe", (r.stage, r.detail)
    assert _fails_independently(lhs, rel, rhs, r.counterexample), r.counterexample
    # without the probe the cascade still refutes it, later
    assert _run(lhs, rel, rhs, hyp, probe=False).verdict is Verdict.REFUTED


@pytest.mark.parametrize("lhs, rel, rhs, hyp", [
    (sp.exp(x), ">=", 1 + x, {x: UNIT}),
    (Phi(x) + Phi(-x), "=", 1, {x: sp.Interval(-3, 3)}),
    ((x + y) ** 2, ">=", x ** 2 + y ** 2, {x: UNIT, y: UNIT}),
])
def test_the_probe_leaves_a_true_step_to_the_proofs(lhs, rel, rhs, hyp):
    r = _run(lhs, rel, rhs, hyp)
    assert r.verdict is not Verdict.REFUTED and r.stage != "probe", (r.stage, r.detail)


# ties the probe finds at the step's own constants and at ends where the sides are equal
# but not rational; each with the point where, by its definition, the relation fails
PROBE_TIES = [
    (sp.exp((x - sp.Rational(7, 9)) ** 2), ">", 1, {x: UNIT}, (), {"x": "7/9"}),
    ((x - sp.Rational(1, 3)) ** 2 + (y - sp.Rational(2, 5)) ** 2, ">", 0, {x: UNIT, y: UNIT}, (),
     {"x": "1/3", "y": "2/5"}),
    (sp.exp(x) - 1, "<", sp.E - 1, {x: UNIT}, (), {"x": "1"}),
    (sp.exp(x + y), ">", sp.E, {x: UNIT, y: UNIT}, (x + y >= 1,), None),   # on x + y = 1
]


@pytest.mark.parametrize("lhs, rel, rhs, hyp, constraints, where", PROBE_TIES)
def test_the_probe_refutes_a_tie_at_a_constant_or_an_end(lhs, rel, rhs, hyp, constraints, where):
    r = _run(lhs, rel, rhs, hyp, constraints)
    assert r.verdict is Verdict.REFUTED and r.stage == "probe", (r.stage, r.detail)
    assert _fails_independently(lhs, rel, rhs, r.counterexample), r.counterexample
    if where is not None:
        assert r.counterexample.point == where, r.counterexample.point
    else:   # a tie of exp(x + y) > e lies on x + y = 1
        assert sum(Fraction(v) for v in r.counterexample.point.values()) == 1
    assert _run(lhs, rel, rhs, hyp, constraints, probe=False).verdict is Verdict.REFUTED


@pytest.mark.parametrize("lhs, rel, rhs, hyp", [
    (sp.exp((x - sp.Rational(7, 9)) ** 2), ">=", 1, {x: UNIT}),
    ((x - sp.Rational(1, 3)) ** 2 + (y - sp.Rational(2, 5)) ** 2, ">=", 0, {x: UNIT, y: UNIT}),
    (sp.exp(x) - 1, "<=", sp.E - 1, {x: UNIT}),
])
def test_the_probe_leaves_the_non_strict_ties_to_the_proofs(lhs, rel, rhs, hyp):
    r = _run(lhs, rel, rhs, hyp)
    assert r.verdict is not Verdict.REFUTED and r.stage != "probe", (r.stage, r.detail)


def test_the_probe_builds_points_from_the_step_constants_only():
    from symdp.proof.check import PROBE_CONSTANT_POINTS, _constant_points

    n = sp.Symbol("n", integer=True)
    unit = {x: UNIT, y: UNIT}
    assert _constant_points([x], unit, (sp.exp(x) - x,)) == []          # no constant: no point
    assert _constant_points([x], unit, (x - sp.Rational(3, 2),)) == []   # 3/2 is outside [0, 1]
    # -1/4 lies outside [0, 1], 1/4 (its negative) inside; no constant lies in y's [1, 2]:
    # y takes its closed ends
    assert _constant_points([x, y], {x: UNIT, y: sp.Interval(1, 2)},
                            (x + sp.Rational(1, 4) + y,)) == \
        [{x: sp.Rational(1, 4), y: 1}, {x: sp.Rational(1, 4), y: 2}]
    # an integer parameter never takes a fraction: the ends of its range
    assert _constant_points([x, n], {x: UNIT, n: sp.Range(1, 5)}, (x - sp.Rational(1, 2),)) == \
        [{x: sp.Rational(1, 2), n: 1}, {x: sp.Rational(1, 2), n: 4}]
    many = sum(sp.Rational(1, q) * x ** q for q in range(2, 30))
    assert len(_constant_points([x, y], unit, (many + y,))) == PROBE_CONSTANT_POINTS


def test_the_probe_looks_only_at_elementary_sides():
    from symdp.proof.check import _probed

    t = sp.Symbol("t", real=True)
    d = Derivation("m", "m", "test", {x: UNIT}, (Step(x, "<=", 1, "m"),))
    step = d.steps[0]
    assert _probed(step, (sp.exp(x) * Phi(x), x ** 2))
    assert not _probed(step, (sp.Integral(sp.exp(-t ** 2), (t, 0, x)), x))   # quadrature
    assert not _probed(step, (sp.Sum(x ** t, (t, 0, 3)), x))
    assert not _probed(step, (Gaussian(1)(x), x))                            # a symdp object
