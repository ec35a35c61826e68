"""symdp.report.views: what the document needs of a derivation, as plain strings."""

import sympy as sp

from symdp.proof import Derivation, Step, Verdict
from symdp.proof.verdict import StepResult
from symdp.report.views import ReportView, view_of_derivation, view_of_report
from symdp.proof.kernel import recorded

def held(verdict, *args, **kwargs):
    """A holding StepResult as a report would record it (the kernel's token for a fixture)."""
    return StepResult(verdict, *args, acceptance=recorded(verdict, "a test fixture"), **kwargs)


x = sp.Symbol("x", real=True)
n = sp.Symbol("n", integer=True)

D = Derivation("v", "statement", "cite", {x: sp.Interval(0, 1), n: sp.Range(1, sp.oo)},
               (Step(x ** 2, "<=", x + n, "r", side_conditions=(sp.Le(x, 1),), note="nb"),
                Step(x + n, "<", x + n + 1, "")),
               constraints=(sp.Ge(n, 2),))


def test_the_view_holds_latex_strings_typed_here():
    v = view_of_derivation(D)
    assert v.hypotheses_latex == (r"x \in \left[0, 1\right]",
                                  r"n \in \left\{1, 2, \ldots\right\}", r"n \geq 2")
    s = v.steps[0]
    assert (s.relation, s.lhs_latex, s.rhs_latex) == ("<=", "x^{2}", "n + x")
    assert s.rhs_terms == (("+", "n"), ("+", "x")) and s.side_conditions_latex == (r"x \leq 1",)
    assert (s.rule, s.note) == ("r", "nb")
    assert v.chained and v.conclusion_relation == "<" and v.steps[1].rhs_terms is not None


def test_a_report_view_is_ok_only_when_every_step_matches():
    v = view_of_derivation(D)
    good = (held(Verdict.PROVED, "", "symbolic"), held(Verdict.PROVED, "", "symbolic"))
    bad = (good[0], StepResult(Verdict.REFUTED, "", "numeric"))
    assert ReportView(v, good).ok and not ReportView(v, bad).ok and not ReportView(v, None).ok
    same = ReportView(v, good)
    assert view_of_report(same) is same
