"""Verdicts and step records say their scope (issue #12, item 1)."""

import pytest

from symdp.report.check_output import summary, summary_line
from symdp.proof.verdict import StepResult, Verdict, scope_in_words
from symdp.proof.kernel import recorded

def held(verdict, *args, **kwargs):
    """A holding StepResult as a report would record it (the kernel's token for a fixture)."""
    return StepResult(verdict, *args, acceptance=recorded(verdict, "a test fixture"), **kwargs)


EVERYWHERE = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.ENUMERATED)
AT_POINTS = (Verdict.CHECKED_AT_POINTS, Verdict.NUMERIC_AT_POINTS)
#: evidence: at points, or exactly on a finite range of an infinite domain (issue #19)
EVIDENCE = AT_POINTS + (Verdict.ENUMERATED_ON_RANGE,)


def test_every_verdict_is_exactly_one_of_everywhere_evidence_or_neither():
    for v in Verdict:
        assert not (v.holds_everywhere and v.is_evidence)
        assert v.supports == (v.holds_everywhere or v.is_evidence)
    assert {v for v in Verdict if v.holds_everywhere} == set(EVERYWHERE)
    assert {v for v in Verdict if v.is_evidence} == set(EVIDENCE)


@pytest.mark.parametrize("verdict", AT_POINTS)
def test_evidence_at_points_is_never_worded_as_holding(verdict):
    r = held(verdict, "d", "numeric", points=24)
    assert r.evidence_only and not r.holds_everywhere
    assert "24 sampled points only" in r.scope and "evidence, not proof" in r.scope
    assert "holds" not in r.scope and "every parameter value" not in r.scope


@pytest.mark.parametrize("verdict", EVERYWHERE)
def test_a_verdict_that_holds_everywhere_says_so(verdict):
    r = held(verdict, "d", "symbolic")
    assert r.holds_everywhere and not r.evidence_only and not r.under_hypotheses
    assert r.scope.startswith("holds for every parameter value")
    assert r.label == verdict.value


def test_a_proof_under_an_unproved_hypothesis_does_not_hold_everywhere():
    r = held(Verdict.PROVED, "d", "symbolic", hypotheses=("x* <= t0",))
    assert not r.holds_everywhere and r.under_hypotheses and not r.evidence_only
    assert r.label == "PROVED under: x* <= t0"
    assert r.scope.startswith("holds where x* <= t0") and "unproved" in r.scope


def test_evidence_under_a_hypothesis_names_both():
    r = StepResult(Verdict.NUMERIC_AT_POINTS, "d", "numeric", points=3, hypotheses=("h",))
    assert r.evidence_only and not r.under_hypotheses
    assert "3 sampled points only" in r.scope and "unproved hypotheses: h" in r.scope


def test_require_proof_accepts_only_steps_that_hold_everywhere():
    proved = held(Verdict.PROVED, "d", "symbolic")
    numeric = StepResult(Verdict.NUMERIC_AT_POINTS, "d", "numeric")
    under = held(Verdict.PROVED, "d", "symbolic", hypotheses=("h",))
    finding = StepResult(Verdict.REFUTED, "d", "numeric", expected=Verdict.REFUTED)
    for r in (proved, numeric, under, finding):
        assert r.meets()  # the default keeps today's rule: evidence is accepted
    assert proved.meets(require_proof=True) and finding.meets(require_proof=True)
    assert not numeric.meets(require_proof=True) and not under.meets(require_proof=True)


def test_expected_refutation_must_reproduce_exactly():
    assert not held(Verdict.PROVED, "d", "s", expected=Verdict.REFUTED).meets()
    assert not StepResult(Verdict.UNDECIDED, "d", "s").meets()


class _Rep:
    def __init__(self, *steps):
        self.steps = steps


def test_summary_line_counts_by_scope():
    reps = [_Rep(held(Verdict.PROVED, "", "s"), held(Verdict.CERTIFIED, "", "c"),
                 StepResult(Verdict.CHECKED_AT_POINTS, "", "c")),
            _Rep(StepResult(Verdict.NUMERIC_AT_POINTS, "", "n"),
                 StepResult(Verdict.REFUTED, "", "n", expected=Verdict.REFUTED),
                 held(Verdict.PROVED, "", "s", hypotheses=("h",)))]
    s = summary(reps, [])
    assert (s["holds_everywhere"], s["under_hypotheses"], s["evidence_only"]) == (2, 1, 2)
    assert s["ok"] and s["findings_reproduced"] == 1
    assert summary_line(s) == ("2 of 6 steps hold for every parameter value; 1 hold only under "
                               "unproved hypotheses; 2 checked at points only; "
                               "1 findings reproduced")
    strict = summary(reps, [], require_proof=True)
    assert not strict["ok"] and strict["not_proved"] == 3
    assert summary_line(strict).endswith("--require-proof: 3 step(s) do not hold for every "
                                         "parameter value")


def test_summary_line_names_mismatches_and_load_errors():
    reps = [_Rep(StepResult(Verdict.UNDECIDED, "", "n"),
                 held(Verdict.PROVED, "", "s", expected=Verdict.REFUTED))]
    s = summary(reps, [object()])
    # the PROVED step holds (its recorded finding no longer reproduces: a mismatch)
    assert summary_line(s) == ("1 of 2 steps hold for every parameter value; 0 checked at "
                               "points only; 0 of 1 findings reproduced; 2 verdict(s) do NOT "
                               "match their expectations; 1 file(s) failed to load")


def test_scope_words_for_undecided_and_refuted():
    assert scope_in_words(Verdict.UNDECIDED) == "not decided"
    assert "counterexample" in scope_in_words(Verdict.REFUTED)


@pytest.mark.parametrize("verdict", EVERYWHERE + (Verdict.ENUMERATED_ON_RANGE,))
def test_a_holding_verdict_without_the_kernels_token_is_refused(verdict):
    with pytest.raises(TypeError, match="kernel"):
        StepResult(verdict, "d", "symbolic")


def test_the_kernels_token_cannot_be_made_outside_the_kernel():
    from symdp.proof.kernel import Acceptance

    with pytest.raises(TypeError, match="kernel"):
        Acceptance(Verdict.PROVED, None, seal=object())
