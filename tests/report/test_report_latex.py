"""Escaping, display layout and the document structure (no pdflatex needed)."""

import sympy as sp

from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.report import derivation_section, document_latex, split_sum, step_display, text
from symdp.report.latex import identifier, visible_width

NASTY = "50% of #users & $cost_{x} ~ ^ \\ {a} <b> |c| \"q\" ε≤δ → ∞ – 😀"


def test_every_latex_special_character_is_escaped():
    out = text("& % $ # _ { } ~ ^ \\ < > |")
    assert out == (r"\& \% \$ \# \_ \{ \} \textasciitilde{} \textasciicircum{} "
                   r"\textbackslash{} \textless{} \textgreater{} \textbar{}")


def test_no_unescaped_special_or_non_ascii_character_survives():
    out = text(NASTY)
    assert all(ord(c) < 128 for c in out)
    stripped = out
    for cmd in (r"\%", r"\#", r"\&", r"\$", r"\_", r"\{", r"\}"):
        stripped = stripped.replace(cmd, "")
    assert not set("%#&$_") & set(stripped.replace("\\ensuremath{", "").replace("{}", ""))
    assert r"\ensuremath{\varepsilon}" in out and r"\ensuremath{\le}" in out
    assert r"\texttt{[U+1F600]}" in out  # an unknown character is shown, not dropped


def test_identifiers_may_break_after_underscores():
    assert identifier("a_b") == r"a\_\allowbreak{}b"


def test_long_sum_is_split_after_whole_terms():
    x, y = sp.symbols("x y", positive=True)
    expr = sum(sp.exp(-i * x) * sp.log(1 + i * y) for i in range(1, 9)) - sp.sqrt(x)
    lines = split_sum(expr, width=40)
    assert len(lines) > 2
    assert all(visible_width(line) <= 60 for line in lines)
    joined = " ".join(lines).replace("{}", "")
    assert "".join(joined.split()) == "".join(sp.latex(expr).split())


def test_short_step_is_one_row_and_long_step_puts_rhs_on_the_next_row():
    x = sp.Symbol("x")
    assert r"\\" not in step_display(x, "<=", x + 1)
    long_rhs = sum(sp.Symbol(f"a_{i}") * sp.exp(sp.Symbol(f"b_{i}")) for i in range(12))
    rows = step_display(x, "=", long_rhs).split(r" \\")
    assert len(rows) >= 3 and rows[1].strip().startswith(r"&\symdpfit{\quad =")


def _derivation():
    x = sp.Symbol("x", real=True)
    return Derivation(
        "nasty_text_and_a_finding", NASTY, "Test & Co., 100% made up, ref #3",
        {x: sp.Interval(0, 1)},
        (Step(x ** 2, "<=", x, "x^2 <= x on [0, 1] {squares}"),
         Step(x, "<=", x ** 2, "printed claim_1 & more", expect=Verdict.REFUTED,
              note="the paper's claim as printed")),
        chained=False)


def test_section_shows_rule_verdict_and_counterexample():
    d = _derivation()
    report = check_derivation(d)
    tex = derivation_section(d, report.steps, "proofs/x.py")
    assert text(NASTY) in tex and text(d.citation) in tex
    assert r"\textbf{PROVED}" in tex and r"\textbf{REFUTED} (recorded finding)" in tex
    assert r"\textbf{Counterexample}" in tex
    assert text("printed claim_1 & more") in tex


def test_document_has_findings_section_and_summary():
    report = check_derivation(_derivation())
    tex = document_latex([report])
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert r"\usepackage{amsmath,amssymb}" in tex and r"\allowdisplaybreaks" in tex
    findings = tex[tex.index(r"\section{Findings}"):tex.index(r"\section{Derivations}")]
    assert "nasty" in findings and "reproduced" in findings
    assert "Every verdict matches its expectation" in tex


def test_a_mismatch_is_shown_not_hidden():
    x = sp.Symbol("x", real=True)
    d = Derivation("wrong_claim", "x <= x - 1", "test", {x: sp.Interval(0, 1)},
                   (Step(x, "<=", x - 1, "wrong"),))
    tex = document_latex([check_derivation(d)])
    assert "MISMATCH" in tex and "do not match their expectations" in tex
    summary = tex[:tex.index(r"\tableofcontents")]
    assert r"wrong\_\allowbreak{}claim, step 1: REFUTED, expected to hold" in summary


def test_a_formula_that_cannot_be_printed_names_its_derivation():
    import pytest

    from symdp.core.errors import DerivationError

    class Unprintable(sp.Symbol):
        def _latex(self, printer, exp=None):
            raise RuntimeError("no LaTeX for this")

    x = Unprintable("x", real=True)
    d = Derivation("has_unprintable", "s", "c", {x: sp.Interval(0, 1)}, (Step(x, "<=", 1, "r"),))
    with pytest.raises(DerivationError, match="cannot typeset derivation has_unprintable"):
        derivation_section(d)
