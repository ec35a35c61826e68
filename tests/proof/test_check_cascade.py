"""The check cascade: verdicts, the 1e-40 trap, and mutation meta-tests on real proof steps."""

from pathlib import Path

import pytest
import sympy as sp

from symdp import Phi
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof.loader import load_file

ROOT = Path(__file__).resolve().parents[2]
x, n, e, mu = sp.symbols("x n varepsilon mu", real=True)
HYP = {x: sp.Interval(0, 1), n: sp.Range(1, sp.oo), e: sp.Interval(0, sp.oo),
       mu: sp.Interval.open(0, sp.oo)}


def verdict(lhs, rel, rhs, hyp=HYP):
    d = Derivation("t", "t", "test", hyp, (Step(lhs, rel, rhs, "test"),))
    return check_derivation(d).steps[0]


def test_exact_identity_is_proved():
    assert verdict(sp.Rational(1, 2) + sp.Rational(1, 3), "=", sp.Rational(5, 6)).verdict is Verdict.PROVED
    assert verdict((n - 1) / n, "<=", (n + 1) / n).verdict is Verdict.PROVED


def test_difference_of_1e_40_is_caught():
    tiny = sp.Rational(1, 10 ** 40)
    r = verdict(sp.exp(e) * sp.exp(-e) * x, "=", x + tiny * x)
    assert r.verdict is Verdict.REFUTED
    r = verdict(sp.log(1 + x) + tiny, "<=", sp.log(1 + x))
    assert r.verdict is Verdict.REFUTED and r.counterexample is not None


def test_numeric_pass_is_never_called_proved():
    # (the symbolic stage proves it by monotonicity: skipped, to see what the others say)
    step = Step(sp.log(1 + x), ">=", x - x ** 2 / 2, "test", skip=("symbolic",))
    d = Derivation("t", "t", "test", HYP, (step,))
    r = check_derivation(d, certify=False).steps[0]  # without the CERTIFIED stage (issue 8)
    assert r.verdict is Verdict.NUMERIC_AT_POINTS
    assert "30 and 60 digits" in r.detail
    # with it, balls certify the inequality over x in [0, 1]: CERTIFIED, still not PROVED
    assert check_derivation(d).steps[0].verdict is Verdict.CERTIFIED
    # and with every stage: PROVED by derivative-sign monotonicity
    r = verdict(sp.log(1 + x), ">=", x - x ** 2 / 2)
    assert r.verdict is Verdict.PROVED and "monotonicity" in r.detail


def test_hard_true_identities_are_not_refuted():
    # Phi(-u) = 1 - Phi(u); a Gaussian profile identity; an erfc identity
    assert verdict(Phi(-x * mu), "=", 1 - Phi(x * mu)).verdict.supports
    lhs = Phi(-e / mu + mu / 2) - sp.exp(e) * Phi(-e / mu - mu / 2)
    rhs = 1 - Phi(e / mu - mu / 2) - sp.exp(e) * (1 - Phi(e / mu + mu / 2))
    assert verdict(lhs, "=", rhs).verdict.supports
    assert verdict(sp.erfc(x) + sp.erf(x), "=", 1).verdict.supports


def test_expected_refutation_is_a_finding_that_matches():
    d = Derivation("t", "t", "test", HYP, (Step(x, ">=", 1, "printed", expect=Verdict.REFUTED),))
    r = check_derivation(d).steps[0]
    assert r.verdict is Verdict.REFUTED and r.is_finding and r.matches_expectation


def test_finding_that_stops_reproducing_fails():
    d = Derivation("t", "t", "test", HYP, (Step(x, "<=", 1, "printed", expect=Verdict.REFUTED),))
    assert not check_derivation(d).ok


def _real_steps():
    """(derivation, step) pairs from proofs/ whose verdict is PROVED or NUMERIC_AT_POINTS and that involve
    no enumeration, to mutate."""
    for name in ["fdp_gaussian_duality.py", "fdp_laplace_profile.py"]:
        for d in load_file(ROOT / "proofs" / name):
            for s in d.steps:
                yield d, s


def _mutations(step):
    rhs = step.rhs
    numbers = sorted((a for a in rhs.atoms(sp.Number) if a not in (0, 1, -1)), key=str)
    yield "perturbed constant", Step(step.lhs, step.relation, rhs + sp.Rational(1, 1000), step.rule,
                                     step.side_conditions)
    if rhs.is_Add and len(rhs.args) > 1:
        yield "dropped term", Step(step.lhs, step.relation, rhs - rhs.args[-1], step.rule,
                                   step.side_conditions)
    if numbers:
        c = numbers[0]
        yield "wrong constant", Step(step.lhs, step.relation, rhs.xreplace({c: c * 3}), step.rule,
                                     step.side_conditions)
    pows = [p for p in rhs.atoms(sp.exp)]
    if pows:
        p = pows[0]
        yield "wrong exponent", Step(step.lhs, step.relation, rhs.xreplace({p: sp.exp(2 * p.args[0])}),
                                     step.rule, step.side_conditions)
    if step.relation == "=":
        yield "flipped to strict", Step(step.lhs, "<", step.rhs, step.rule, step.side_conditions)


@pytest.mark.parametrize("index", range(4))
def test_mutated_real_steps_are_refuted(index):
    d, step = list(_real_steps())[index]
    for label, mutant in _mutations(step):
        md = Derivation(d.id, d.statement, d.citation, d.hypotheses, (mutant,), chained=False)
        r = check_derivation(md).steps[0]
        # a mutation that happens to stay true is not counted against the checker; here none does
        assert r.verdict is Verdict.REFUTED, (d.id, label, r.verdict, r.detail)


def test_off_by_one_in_a_real_count_is_refuted_by_enumeration():
    from symdp.bagging.enumerated import RegionCount

    (d,) = [d for d in load_file(ROOT / "proofs" / "bagging_counts.py")
            if any(s.lhs.atoms(RegionCount) for s in d.steps)][:1]
    step = next(s for s in d.steps if isinstance(s.lhs, RegionCount))
    nn, kk = sorted(step.free_symbols, key=lambda s: s.name)[::-1][:2]  # n, k
    for mutant_rhs in (step.rhs + 1, step.rhs.xreplace({kk: kk + 1})):
        md = Derivation(d.id, d.statement, d.citation, d.hypotheses,
                        (Step(step.lhs, "=", mutant_rhs, "mutated"),), constraints=d.constraints,
                        chained=False, enumeration=d.enumeration)
        r = check_derivation(md).steps[0]
        assert r.verdict is Verdict.REFUTED and r.counterexample.exact, (mutant_rhs, r.detail)


def test_a_step_can_skip_stages_and_says_so():
    import pytest as _pytest

    from symdp.core.errors import DerivationError
    from symdp.proof import Derivation, Step
    from symdp.proof.check import check_step

    x = sp.Symbol("x")
    d = Derivation("skip_demo", "x^2 <= x on [0, 1]", "test", {x: sp.Interval(0, 1)},
                   (Step(x ** 2, "<=", x, "square"),), chained=False)
    plain = check_step(d.steps[0], d)
    assert plain.verdict.value == "PROVED"
    skipping = Step(x ** 2, "<=", x, "square", skip=("symbolic", "certified"))
    result = check_step(skipping, d)
    assert result.verdict.value == "NUMERIC_AT_POINTS"          # only the numeric stage was left
    assert "skips the symbolic and certified stages" in result.detail
    only_symbolic = check_step(Step(x ** 2, "<=", x, "square", skip="symbolic"), d)
    assert only_symbolic.verdict.value in ("CERTIFIED", "PROVED") and "skips the symbolic" in only_symbolic.detail
    with _pytest.raises(DerivationError, match="skip"):
        Step(x, "<=", 1, "bad", skip=("numeric",))


# --------------------------------------------------------------------------- issue #30
# A step whose parameters range over finite sets its enumeration covers is decided by the
# enumeration stage on the sides as written, before SymPy derives closed forms of them (a Sum
# in a symbolic k becomes hypergeometric terms after seconds).  Expected values: KOV 2015,
# Thm. 3.3's segment form, and its mutants, checked here against the product measure listed
# atom by atom (symdp.composition.enumerated) -- two independent routes.

def _kov_grid_derivation(rhs_of):
    from symdp.composition.enumerated import PowerProfile

    a, b, c, k, i = (sp.Symbol(n, integer=True, nonnegative=True) for n in "abcki")
    E, delta, s = 1 + a / 2, b / sp.Integer(10), c / sp.Integer(2)
    kov = 1 - (1 - delta) ** k + (1 - delta) ** k / (1 + E) ** k * sp.Sum(
        sp.binomial(k, i) * sp.Max(0, E ** i - s * E ** (k - i)), (i, 0, k))
    grid = {a: range(0, 3), b: range(0, 2), c: range(1, 4), k: range(1, 4)}
    return Derivation("kov_grid_demo", "KOV Thm. 3.3 on a grid", "test",
                      {v: sp.Range(min(r), max(r) + 1) for v, r in grid.items()},
                      (Step(PowerProfile(c, a, b, k), "=", rhs_of(kov, k), "KOV"),),
                      chained=False, enumeration=grid)


def test_a_finite_grid_is_enumerated_on_the_sides_as_written():
    r = check_derivation(_kov_grid_derivation(lambda kov, k: kov)).steps[0]
    assert r.verdict is Verdict.ENUMERATED, r.detail
    assert r.holds_everywhere and "every case re-evaluated by the kernel" in r.detail
    # no closed form was derived and no other stage tried first
    assert r.extra.get("tried") == [], r.extra.get("tried")


@pytest.mark.parametrize("mutate", [lambda kov, k: kov + sp.Rational(1, 10 ** 6),
                                    lambda kov, k: kov.xreplace({k: k + 1}),
                                    lambda kov, k: kov.replace(sp.Max, lambda *a: a[1])],
                         ids=["shifted", "k+1", "no positive part"])
def test_a_false_step_on_a_finite_grid_is_refuted_by_enumeration(mutate):
    r = check_derivation(_kov_grid_derivation(mutate)).steps[0]
    assert r.verdict is Verdict.REFUTED and r.counterexample.exact, r.detail
    assert r.stage == "enumeration"


def test_a_grid_not_covered_whole_still_goes_through_the_cascade():
    d = _kov_grid_derivation(lambda kov, k: kov)
    k = next(s for s in d.hypotheses if s.name == "k")
    wider = Derivation(d.id, d.statement, d.citation, {**d.hypotheses, k: sp.Range(1, 5)},
                       d.steps, chained=False, enumeration=d.enumeration)
    r = check_derivation(wider).steps[0]
    # k = 4 is stated but not enumerated: evidence on a range at most, never ENUMERATED
    assert r.verdict is not Verdict.ENUMERATED and not r.holds_everywhere, r.detail


def test_the_symbolic_stage_simplifies_each_rewriting_once(monkeypatch):
    """Without Phi or Piecewise the rewritings leave the difference as it is: simplify runs on
    it once, and the attempts that would repeat it reuse its result and say what it said
    (issue #30); with Phi the rewriting to erfc is another expression, simplified too."""
    from symdp.proof.cascade import symbolic

    x = sp.Symbol("x", real=True)
    real_simplify, seen = sp.simplify, []

    def counting(e, *args, **kwargs):
        seen.append(e)
        return real_simplify(e, *args, **kwargs)

    monkeypatch.setattr(symbolic.sp, "simplify", counting)
    tried = []
    list(symbolic.symbolic_certificates(sp.sin(x) ** 3, x / 2, "<=", {x: sp.Interval(0, 1)},
                                        10_000, tried))
    difference = seen[0]
    assert seen.count(difference) == 1, seen
    # the four attempts report as before: each undecided (none is silently dropped)
    assert [t.split(":")[0] for t in tried[:4]] == [
        "simplify", "simplify after Phi -> erfc", "Phi identities + simplify",
        "piecewise_fold + simplify"], tried
    seen.clear()
    list(symbolic.symbolic_certificates(Phi(x) ** 3, x / 2, "<=", {x: sp.Interval(0, 1)},
                                        10_000, []))
    assert len(set(seen[:2])) == 2, seen[:2]   # Phi(x)^3 - x/2, then its erfc form
