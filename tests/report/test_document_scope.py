"""The LaTeX report says the scope of every verdict as ``symdp check`` does (issue #12)."""

import re

import sympy as sp

from symdp.proof import Derivation, Step, Verdict
from symdp.proof.verdict import StepResult
from symdp.report.check_output import summary, summary_line
from symdp.report.document import document_latex
from symdp.report.views import ReportView, view_of_derivation
from symdp.proof.kernel import recorded

def held(verdict, *args, **kwargs):
    """A holding StepResult as a report would record it (the kernel's token for a fixture)."""
    return StepResult(verdict, *args, acceptance=recorded(verdict, "a test fixture"), **kwargs)


x = sp.Symbol("x")


def _doc():
    d = Derivation("scopes", "three scopes", "test", {x: sp.Interval(0, 1)},
                   (Step(x ** 2, "<=", x, "a"), Step(x ** 3, "<=", x, "b"),
                    Step(x ** 4, "<=", x, "c")), chained=False)
    results = (held(Verdict.PROVED, "sign", "symbolic"),
               StepResult(Verdict.CHECKED_AT_POINTS, "balls", "certified", points=24),
               held(Verdict.PROVED, "sign", "symbolic", hypotheses=("x_star <= 1",)))
    rep = ReportView(view_of_derivation(d), results, "f.py", Verdict.CHECKED_AT_POINTS)
    return document_latex([rep]), rep


def test_summary_of_the_document_is_the_summary_line():
    tex, rep = _doc()
    line = summary_line(summary([rep], []))
    assert line == ("1 of 3 steps hold for every parameter value; 1 hold only under unproved "
                    "hypotheses; 1 checked at points only; 0 findings reproduced")
    assert line in tex


def test_each_step_says_its_scope_and_hypotheses():
    tex, _ = _doc()
    verdicts = re.findall(r"^Verdict: .*$", tex, flags=re.M)
    assert len(verdicts) == 3
    assert "holds for every parameter value" in verdicts[0]
    assert r"CHECKED\_AT\_POINTS" in verdicts[1] and "24 sampled points only" in verdicts[1] \
        and "evidence, not proof" in verdicts[1] and "holds" not in verdicts[1]
    assert r"\textbf{under:} x\_star <= 1" in verdicts[2] or \
        r"\textbf{under:} x\_star $\le$ 1" in verdicts[2] or "under:" in verdicts[2]
    assert "holds where" in verdicts[2] and "unproved" in verdicts[2]
    chain = re.findall(r"Verdict of the claims:.*$", tex, flags=re.M)[0]
    assert "points only" in chain


def test_no_bare_underscore_in_text_mode():
    tex, _ = _doc()
    body = tex.split(r"\begin{document}", 1)[1]
    text_lines = [l for l in body.splitlines() if "CHECKED" in l]
    assert text_lines and all("CHECKED_AT" not in l for l in text_lines)
