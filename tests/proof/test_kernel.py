"""The trusted kernel (issue #19): only it issues a verdict that holds; it accepts a
certificate only after checking coverage, definedness, facts and declarations itself.

Truth in these tests is established independently of symdp: exact integer arithmetic
(``math.comb``), exact rational evaluation of the expression at the named point, or the
definition (a set not contained in another has a point outside it).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from symdp.core.errors import DerivationError
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof import kernel
from symdp.proof.certificates import (Claim, BoxCertificate, BoxSearch, Domain, Fact, FiniteCertificate,
                                      StructuralCertificate, SymbolicCertificate)

ROOT = Path(__file__).resolve().parents[2]
x, y = sp.symbols("x y", real=True)
n = sp.Symbol("n", integer=True)


def accept(cert, domain, written=None):
    """The kernel's judgement of ``cert`` as a proof of the claim of its own sides (or of the
    ``written`` ones) and relation, on ``domain``."""
    lhs, rhs = written or (cert.lhs, cert.rhs)
    if cert.stage == "continuity":
        return kernel.accept(Claim.continuity(lhs, cert.variable, domain), cert)
    return kernel.accept(Claim(lhs, cert.relation, rhs, domain), cert)


def _one(lhs, rel, rhs, hyp, **step):
    d = Derivation("t", "t", "test", hyp, (Step(lhs, rel, rhs, "test", **step),))
    return check_derivation(d).steps[0]


# ------------------------------------------------------------------ only the kernel

# a holding verdict named anywhere, or the enumerated-range evidence passed to a StepResult
HOLDING = re.compile(r"Verdict\.(PROVED|CERTIFIED|ENUMERATED)\b|StepResult\(\s*Verdict\.ENUMERATED_ON")


def test_only_the_kernel_names_a_holding_verdict_or_makes_its_token():
    """No module of the package but the kernel (and verdict.py, which defines the verdicts)
    names PROVED, CERTIFIED or ENUMERATED or constructs the kernel's token; a report read
    back from JSON marks its verdicts as recorded (kernel.recorded), nothing else does."""
    offenders = []
    for path in sorted((ROOT / "symdp").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ("symdp/proof/kernel/__init__.py", "symdp/proof/verdict.py"):
            continue
        text = path.read_text()
        if HOLDING.search(text) or "Acceptance(" in text or "_SEAL" in text:
            offenders.append(rel)
        if "recorded(" in text and rel != "symdp/report/from_json.py":
            offenders.append(rel + " (recorded)")
    assert offenders == []


def test_a_stage_cannot_issue_a_holding_verdict():
    from symdp.proof.verdict import StepResult

    for v in (Verdict.PROVED, Verdict.CERTIFIED, Verdict.ENUMERATED, Verdict.ENUMERATED_ON_RANGE):
        with pytest.raises(TypeError, match="kernel"):
            StepResult(v, "a stage's claim", "symbolic")


# ------------------------------------------------------------------ acceptance, unit by unit

def test_structural_certificate_is_accepted_only_for_the_same_tree():
    d = Domain.of({x: sp.Interval(0, 1)})
    assert accept(StructuralCertificate(x, x, "<=", "structural"), d).verdict is Verdict.PROVED
    r = accept(StructuralCertificate(x, x + 1, "<=", "structural"), d)
    assert r.verdict is Verdict.UNDECIDED and "kernel refused" in r.detail


def test_a_finite_certificate_of_part_of_an_infinite_set_is_evidence():
    m = sp.Symbol("m")
    d = Domain.of({m: sp.Range(2, sp.oo)})
    c = FiniteCertificate(m, m, "=", "enumeration", values=((m, tuple(range(2, 7))),), cases=5)
    r = accept(c, d)
    assert r.verdict is Verdict.ENUMERATED_ON_RANGE and not r.holds_everywhere
    assert "exactly for m <= 6" in r.detail
    whole = Domain.of({m: sp.Range(2, 7)})
    assert accept(c, whole).verdict is Verdict.ENUMERATED


def _box(lhs, rel, rhs, coordinates, leaves, **kw):
    """A box certificate of one search (``coordinates`` as in BoxSearch)."""
    search = BoxSearch(lhs, rhs, rel, coordinates, kw.pop("searched", None), leaves)
    return BoxCertificate(lhs, rhs, rel, "certified", searches=(search,), bits=80, **kw)


def test_a_box_that_misses_part_of_the_domain_is_refused():
    """x <= 3/4 on [0, 1/2] by one decided leaf; the same boxes for x in [0, 1] miss (1/2, 1],
    where the statement is false (x = 1 > 3/4)."""
    half = ((Fraction(0), Fraction(1, 2)),)
    c = _box(x, "<=", sp.Rational(3, 4), ((x, x, Fraction(0), Fraction(1, 2), False, None),),
             ((half, "decided", None),))
    r = accept(c, Domain.of({x: sp.Interval(0, 1)}))
    assert r.verdict is Verdict.UNDECIDED and "do not cover" in r.detail
    ok = accept(c, Domain.of({x: sp.Interval(0, sp.Rational(1, 2))}))
    assert ok.verdict is Verdict.CERTIFIED and "1 leaves re-evaluated" in ok.detail


def test_a_leaf_whose_margin_has_the_wrong_sign_is_refused():
    """x <= 3/4 on [0, 1]: a tree of two decided leaves, one of them [1/2, 1] where the
    margin 3/4 - x is not positive (false at x = 1)."""
    a, b = ((Fraction(0), Fraction(1, 2)),), ((Fraction(1, 2), Fraction(1)),)
    whole = ((Fraction(0), Fraction(1)),)
    c = _box(x, "<=", sp.Rational(3, 4), ((x, x, Fraction(0), Fraction(1), False, None),),
             ((whole, "split", (a, b)), (a, "decided", None), (b, "decided", None)))
    r = accept(c, Domain.of({x: sp.Interval(0, 1)}))
    assert r.verdict is Verdict.UNDECIDED and "not certified on x in [1/2, 1]" in r.detail


def test_a_search_tree_with_a_hole_or_a_false_split_is_refused():
    """x**2 <= 1 on [0, 1]: leaves [0, 1/4] and [1/2, 1] leave (1/4, 1/2) unexamined."""
    whole = ((Fraction(0), Fraction(1)),)
    a, b = ((Fraction(0), Fraction(1, 4)),), ((Fraction(1, 2), Fraction(1)),)
    coords = ((x, x, Fraction(0), Fraction(1), False, None),)
    holed = _box(x ** 2, "<=", sp.S.One, coords,
                 ((whole, "split", (a, b)), (a, "decided", None), (b, "decided", None)))
    assert "not a partition" in accept(holed, Domain.of({x: sp.Interval(0, 1)})).detail
    unreached = _box(x ** 2, "<=", sp.S.One, coords, ((a, "decided", None),))
    assert "does not reach" in accept(unreached, Domain.of({x: sp.Interval(0, 1)})).detail


def test_a_change_of_variables_onto_an_unbounded_range_is_read_exactly():
    t = sp.Symbol("t")
    whole = ((Fraction(0), Fraction(1)),)
    # x/(1+x) <= 2: the margin (2 + x)/(1 + x) in t, tidied as the stage does, lies in [1, 4/3]
    searched = sp.simplify(sp.together((2 - x / (1 + x)).xreplace({x: 2 + t / (1 - t)})))
    c = _box(x / (1 + x), "<=", sp.Integer(2),
             ((x, t, Fraction(0), Fraction(1), False, 2 + t / (1 - t)),),
             ((whole, "decided", None),), searched=searched)
    assert accept(c, Domain.of({x: sp.Interval(2, sp.oo)})).verdict is Verdict.CERTIFIED
    assert accept(c, Domain.of({x: sp.Interval(1, sp.oo)})).verdict is Verdict.UNDECIDED


def test_a_finite_certificate_that_lies_about_one_case_is_refused():
    """n**2 <= 10 for n in {0, ..., 4}: the stage says all 5 cases hold; n = 4 gives 16."""
    assert 4 ** 2 > 10   # the truth, by exact arithmetic
    c = FiniteCertificate(n ** 2, sp.Integer(10), "<=", "enumeration",
                          values=((n, tuple(range(5))),), cases=5, how="exact")
    r = accept(c, Domain.of({n: sp.Range(0, 5)}))
    assert r.verdict is Verdict.UNDECIDED and "n = 4 fails" in r.detail
    true = FiniteCertificate(n ** 2, sp.Integer(16), "<=", "enumeration",
                             values=((n, tuple(range(5))),), cases=5, how="exact")
    assert accept(true, Domain.of({n: sp.Range(0, 5)})).verdict is Verdict.ENUMERATED


def test_a_finite_certificate_beyond_the_budget_is_refused_not_sampled():
    m = sp.Symbol("m", integer=True)
    big = kernel.replay.FINITE_CASES + 1
    c = FiniteCertificate(m, sp.Integer(big), "<=", "enumeration",
                          values=((m, tuple(range(big))),), cases=big, how="exact")
    r = accept(c, Domain.of({m: sp.Range(0, big)}))
    assert r.verdict is Verdict.UNDECIDED and "budget" in r.detail


def test_an_equality_case_that_is_not_exact_is_not_enumerated():
    c = FiniteCertificate(sp.sqrt(2) * n, sp.sqrt(2) * n, "<=", "certified",
                          values=((n, (1, 2)),), cases=2, how="balls")
    assert accept(c, Domain.of({n: sp.FiniteSet(1, 2)})).verdict is Verdict.CERTIFIED
    eq = FiniteCertificate(sp.exp(n), sp.exp(n) + sp.Rational(1, 10 ** 40), "=", "certified",
                           values=((n, (1,)),), cases=1, how="balls")
    assert accept(eq, Domain.of({n: sp.FiniteSet(1)})).verdict is Verdict.UNDECIDED


def test_a_symbolic_certificate_whose_difference_is_wrong_is_refused():
    d = Domain.of({x: sp.Interval(0, 1)})
    wrong = SymbolicCertificate(x + 1, x, "=", "symbolic", "simplify", sp.S.Zero)
    assert accept(wrong, d).verdict is Verdict.UNDECIDED
    claimed = SymbolicCertificate(x ** 2, x, "<=", "symbolic", "simplify", x ** 2 - x - 5)
    assert "does not simplify" in accept(claimed, d).detail


def test_facts_are_confirmed_by_z3_exactly_or_by_balls():
    k = sp.Symbol("k", integer=True)
    d = Domain.of({k: sp.Range(1, sp.oo), n: sp.Range(1, sp.oo)}, (sp.Le(k, n),))
    # k/(n(n+1-k)) <= k/n for 1 <= k <= n (n + 1 - k >= 1): z3, no clock
    assert kernel.confirm(Fact(k / n - k / (n * (n + 1 - k)), "nonnegative"), d).startswith("z3")
    small = Domain.of({n: sp.Range(-10, 11)})
    # binomial(n, 3) < 1 is false at n = 4 (math.comb(4, 3) = 4): no method confirms it
    assert math.comb(4, 3) == 4
    assert kernel.confirm(Fact(1 - sp.binomial(n, 3), "positive"), small) == ""
    assert kernel.confirm(Fact(sp.exp(x), "positive"), Domain.of({x: sp.Interval(-3, 3)}))


def test_a_declaration_that_contradicts_the_domain_is_a_clear_error():
    xp = sp.Symbol("x", positive=True)
    with pytest.raises(DerivationError, match=r"x is declared positive=True.*Interval\(-1, 1\)"):
        _one(sp.Abs(xp), "=", xp, {xp: sp.Interval(-1, 1)})
    # agreeing declarations are fine
    assert _one(sp.Abs(xp), "=", xp, {xp: sp.Interval(1, 2)}).holds_everywhere


# ------------------------------------------------------------------ the issue's table

def test_binomial_sign_fact_from_sympy_is_not_trusted():
    r = _one(sp.binomial(n, 3), "<", 1, {n: sp.Range(-10, 11)})
    assert r.verdict is Verdict.REFUTED
    at = int(r.counterexample.point["n"])
    assert -10 <= at <= 10 and math.comb(at, 3) >= 1 if at >= 0 else True
    # independently: the polynomial n(n-1)(n-2)/6 at the counterexample is >= 1
    assert Fraction(at * (at - 1) * (at - 2), 6) >= 1


def test_a_side_cancelled_by_simplify_is_not_proved_where_it_is_undefined():
    r = _one((x ** 2 - y ** 2) / (x - y), "=", x + y, {x: sp.Interval(0, 1), y: sp.Interval(0, 1)})
    assert r.verdict is Verdict.UNDECIDED and "undefined at" in r.detail
    point = dict(re.findall(r"(\w) = (-?\d+(?:/\d+)?)", r.detail.split(",  a point")[0]))
    assert sp.Rational(point["x"]) == sp.Rational(point["y"])   # x = y: division by zero


def test_text_is_checked_as_written(tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "symdp.cli.main", "step", "x/x", "=", "1",
                          "--assume", "0<=x<=1"], capture_output=True, text=True, timeout=300,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert "UNDECIDED" in out.stdout and "x = 0" in out.stdout, out.stdout + out.stderr


def test_a_piecewise_condition_with_a_pole_is_not_certified():
    half, fifth = sp.Rational(1, 2), sp.Rational(1, 5)
    f = sp.Piecewise((10 * (x - fifth) * (x - half), (x - sp.Rational(9, 10)) / (x - half) > 0),
                     (1, True)) + sp.Abs(x - fifth) - (x - fifth)
    # the truth: at x = 3/10 the condition is 3 > 0, the branch gives -1/5
    assert f.subs(x, sp.Rational(3, 10)) == -fifth
    r = _one(f, ">=", 0, {x: sp.Interval(0, 1)})
    assert not r.holds_everywhere
    assert r.verdict in (Verdict.UNDECIDED, Verdict.REFUTED)
    if r.verdict is Verdict.UNDECIDED:
        assert "x = 1/2" in r.detail
    else:
        px = sp.Rational(r.counterexample.point["x"])
        assert f.subs(x, px) < 0


def test_the_bagging_counts_enumeration_is_evidence(monkeypatch):
    """Enumerating n <= 6, k <= 4 of a claim for all n >= 2, k >= 1 is evidence; the same
    step is PROVED only through the counting lemmas (issue #20), never by the sample."""
    from symdp.proof import check as check_module
    from symdp.proof.loader import load_file

    [d] = [d for d in load_file(ROOT / "proofs" / "bagging_counts.py")
           if d.id == "gamma_counts_and_probabilities_of_remove_neighbour"]
    one = Derivation(d.id, d.statement, d.citation, d.hypotheses, d.steps[:1],
                     constraints=d.constraints, enumeration=d.enumeration)
    proved = check_derivation(one).steps[0]
    assert proved.verdict is Verdict.PROVED and proved.stage != "enumeration"
    monkeypatch.setattr(check_module, "counting_stage", lambda *a, **k: (None, ""))
    r = check_derivation(one).steps[0]
    assert r.verdict is Verdict.ENUMERATED_ON_RANGE and not r.holds_everywhere
    assert "exactly for" in r.detail


def test_a_box_certificate_of_the_stage_is_replayed_and_a_tampered_one_refused():
    """exp(x) >= 1 + x on [-3, 3] (true: e^x is convex, tangent at 0): the certified stage's
    search tree replays leaf by leaf; the same tree for exp(x) >= 1 + x + 1/10 (false at x = 0,
    1 < 11/10) is refused."""
    import dataclasses

    from symdp.proof.cascade.certified.stage import certified_stage

    r = _one(sp.exp(x), ">=", 1 + x, {x: sp.Interval(-3, 3)})
    assert r.verdict is Verdict.CERTIFIED and "leaves re-evaluated by the kernel" in r.detail
    step = Step(sp.exp(x), ">=", 1 + x, "test")
    d = Derivation("t", "t", "test", {x: sp.Interval(-3, 3)}, (step,))
    cert, _, _ = certified_stage(sp.exp(x), 1 + x, ">=", d, step, 0, dps=30, points=8)
    assert isinstance(cert, BoxCertificate) and cert.searches[0].leaves
    domain = Domain.of({x: sp.Interval(-3, 3)})
    assert accept(cert, domain).verdict is Verdict.CERTIFIED
    false = sp.Integer(1) + x + sp.Rational(1, 10)
    assert sp.exp(0) < false.subs(x, 0)
    lying = dataclasses.replace(cert, rhs=false, searches=tuple(
        dataclasses.replace(q, rhs=false) for q in cert.searches))
    assert accept(lying, domain).verdict is Verdict.UNDECIDED
