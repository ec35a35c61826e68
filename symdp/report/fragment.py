r"""``symdp latex ID``: one derivation as a LaTeX fragment to paste into a paper (amsmath).

The fragment is built from the same :class:`~symdp.report.views.DerivationView` as the
report's sections (:mod:`symdp.report.document`) and escapes its text with the same
:func:`~symdp.report.latex.text`; it differs only in layout: a ``\paragraph``, the chain in
one plain ``align*`` with each step's rule (and verdict, when ``results`` are given) as its
tag, and no macros of the report's preamble, so that it compiles in any amsmath document.
"""

from __future__ import annotations

from ..proof.verdict import Verdict

from ..proof.derivation import LATEX_RELATION
from .latex import text
from .views import DerivationView, view_of_derivation

__all__ = ["derivation_latex"]


def derivation_latex(derivation, results=None) -> str:
    """The derivation (a :class:`~symdp.proof.derivation.Derivation` or its view) as a
    LaTeX fragment; ``results`` (one StepResult per step) adds the verdicts."""
    d = derivation if isinstance(derivation, DerivationView) else view_of_derivation(derivation)
    lines = [r"\paragraph{%s}" % text(d.id.replace("_", " ")),
             text(d.statement), "",
             r"\textit{Source:} %s.\\" % text(d.citation),
             r"\textit{Hypotheses:} $" + r",\ ".join(d.hypotheses_latex) + "$.",
             "", r"\begin{align*}"]
    rows = []
    for i, step in enumerate(d.steps):
        lhs = step.lhs_latex if (i == 0 or not d.chained) else ""
        tag = text(step.rule) if step.rule else ""
        if results is not None:
            r = results[i]
            tag += (r"; " if tag else "") + r"\textbf{%s}" % text(r.verdict.value)
            if r.is_finding:
                tag += r" (finding)"
            elif r.verdict is Verdict.ENUMERATED_ON_RANGE:
                tag += r" (enumerated on a finite range only)"
            elif r.evidence_only:
                tag += r" (checked at points only)"
            if r.hypotheses and r.verdict.supports:
                tag += r" (under: %s)" % text("; ".join(r.hypotheses))
        side = ""
        if step.side_conditions_latex:
            side = r",\quad " + r",\ ".join(step.side_conditions_latex)
        rows.append(f"{lhs} &{LATEX_RELATION[step.relation]} {step.rhs_latex}{side} "
                    f"&& \\text{{({i + 1}) {tag}}}")
    lines.append(" \\\\\n".join(rows))
    lines.append(r"\end{align*}")
    return "\n".join(lines)
