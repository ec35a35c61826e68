r"""What the document needs of a checked derivation, from either route.

The document (:mod:`symdp.report.document`) is typeset from :class:`ReportView` records,
built either from the objects (:func:`view_of_report`, :func:`view_of_derivation`: a
``check_derivation`` result or a bare derivation) or from a ``symdp check --json`` file
(:func:`symdp.report.from_json.load_check_json`).  Both routes give the same document for
the same check: formulas are carried as the LaTeX SymPy prints, text as plain strings
(escaped only when typeset), verdicts as :class:`~symdp.proof.verdict.StepResult`.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..proof.verdict import Verdict
from .latex import domain_latex, sum_terms

__all__ = ["StepView", "DerivationView", "ReportView", "view_of_derivation", "view_of_report"]


@dataclass(frozen=True)
class StepView:
    """One step as LaTeX strings: ``rhs_terms`` are its sum terms (or None)."""

    relation: str
    lhs_latex: str
    rhs_latex: str
    rhs_terms: tuple | None
    side_conditions_latex: tuple
    rule: str
    note: str


@dataclass(frozen=True)
class DerivationView:
    """A derivation as the document shows it."""

    id: str
    statement: str
    citation: str
    hypotheses_latex: tuple  # hypotheses (symbol \in domain), then constraints
    chained: bool
    conclusion_relation: str | None
    notes: str
    steps: tuple  # StepView


@dataclass(frozen=True)
class ReportView:
    """A derivation with its step results (None: not checked) and the chain's verdict."""

    derivation: DerivationView
    steps: tuple | None  # StepResult, one per step
    source: str = ""
    conclusion_verdict: Verdict | None = None

    @property
    def ok(self) -> bool:
        return self.steps is not None and all(r.matches_expectation for r in self.steps)


def _terms(expr):
    terms = sum_terms(expr)
    return None if terms is None else tuple(tuple(t) for t in terms)


def view_of_derivation(d) -> DerivationView:
    """The view of a :class:`~symdp.proof.derivation.Derivation` (prints every formula)."""
    hyps = [domain_latex(s, dom) for s, dom in d.hypotheses.items()]
    hyps += [sp.latex(c) for c in d.constraints]
    steps = tuple(StepView(s.relation, sp.latex(s.lhs), sp.latex(s.rhs), _terms(s.rhs),
                           tuple(sp.latex(c) for c in s.side_conditions), s.rule or "",
                           s.note or "") for s in d.steps)
    return DerivationView(d.id, d.statement, d.citation, tuple(hyps), bool(d.chained),
                          d.conclusion_relation, d.notes or "", steps)


def view_of_report(report, source: str | None = None) -> ReportView:
    """The view of a :class:`~symdp.proof.check.DerivationReport` (or a view, unchanged)."""
    if isinstance(report, ReportView):
        return report
    return ReportView(view_of_derivation(report.derivation), tuple(report.steps),
                      report.source if source is None else source, report.conclusion_verdict)
