"""symdp.report.fragment: the ``symdp latex ID`` fragment, written out by hand for a tiny chain."""

import sympy as sp

from symdp.proof import Derivation, Step, Verdict
from symdp.proof.verdict import StepResult
from symdp.report.fragment import derivation_latex
from symdp.report.views import view_of_derivation
from symdp.proof.kernel import recorded

def held(verdict, *args, **kwargs):
    """A holding StepResult as a report would record it (the kernel's token for a fixture)."""
    return StepResult(verdict, *args, acceptance=recorded(verdict, "a test fixture"), **kwargs)


x = sp.Symbol("x", real=True)

CHAIN = Derivation(
    "tiny_chain", "|x| <= 1 & x^2 <= 1", "Test, Eq. #1", {x: sp.Interval(0, 1)},
    (Step(x ** 2, "<=", x, "x^2 <= x on [0, 1]"),
     Step(x, "<=", 1, "", side_conditions=(sp.Le(x, 1),))),
    constraints=(sp.Ge(x, 0),))

EXPECTED = "\n".join([
    r"\paragraph{tiny chain}",
    r"\textbar{}x\textbar{} \textless{}= 1 \& x\textasciicircum{}2 \textless{}= 1",
    "",
    r"\textit{Source:} Test, Eq. \#1.\\",
    r"\textit{Hypotheses:} $x \in \left[0, 1\right],\ x \geq 0$.",
    "",
    r"\begin{align*}",
    r"x^{2} &\le x && \text{(1) x\textasciicircum{}2 \textless{}= x on [0, 1]} \\",
    r" &\le 1,\quad x \leq 1 && \text{(2) }",
    r"\end{align*}",
])


def test_fragment_of_a_chain_is_the_hand_written_latex():
    assert derivation_latex(CHAIN) == EXPECTED


def test_fragment_from_the_view_is_the_same():
    assert derivation_latex(view_of_derivation(CHAIN)) == EXPECTED


def test_results_add_the_verdict_and_mark_findings():
    results = (held(Verdict.PROVED, "", "symbolic"),
               StepResult(Verdict.REFUTED, "", "numeric", expected=Verdict.REFUTED))
    out = derivation_latex(CHAIN, results)
    assert r"\text{(1) x\textasciicircum{}2 \textless{}= x on [0, 1]; \textbf{PROVED}}" in out
    assert r"\text{(2) \textbf{REFUTED} (finding)}" in out


def test_independent_claims_show_every_lhs():
    d = Derivation("two", "s", "c", {x: sp.Interval(0, 1)},
                   (Step(x, "<=", 1, "a"), Step(x ** 2, "<=", 1, "b")), chained=False)
    rows = derivation_latex(d).split("\\begin{align*}\n")[1].splitlines()
    assert rows[0].startswith("x &") and rows[1].startswith("x^{2} &")


def test_evidence_and_hypotheses_are_stated_in_the_tag():
    results = (StepResult(Verdict.CHECKED_AT_POINTS, "", "certified", points=24),
               held(Verdict.PROVED, "", "symbolic", hypotheses=("x_0 <= 1",)))
    out = derivation_latex(CHAIN, results)
    assert r"\textbf{CHECKED\_AT\_POINTS} (checked at points only)}" in out
    assert r"\text{(2) \textbf{PROVED} (under: x\_0 \textless{}= 1)}" in out
