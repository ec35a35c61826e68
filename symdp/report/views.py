r"""What the document needs of a checked derivation, from either route.

The document (:mod:`symdp.report.document`) is typeset from :class:`ReportView` records,
built either from the objects (:func:`view_of_report`, :func:`view_of_derivation`: a
``check_derivation`` result or a bare derivation) or from a ``symdp check --json`` file
(:func:`symdp.report.from_json.load_check_json`).  Both routes give the same document for
the same check: formulas are carried as the LaTeX SymPy prints, text as plain strings
(escaped only when typeset), verdicts as :class:`~symdp.proof.verdict.StepResult`.

These records are plain frozen dataclasses of strings, numbers, verdicts and tuples -- no
SymPy object -- and they are the one record form of a checked derivation: the
``symdp check --json`` document (schema ``symdp-check/3``, :mod:`symdp.report.check_output`) is
their serialisation (:func:`report_dict`), and :mod:`symdp.report.from_json` reads it back
into the same records (a round trip gives equal records and the same JSON).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..proof.verdict import StepResult, Verdict, scope_in_words
from .latex import domain_latex, sum_terms

__all__ = ["StepView", "DerivationView", "ReportView", "view_of_derivation", "view_of_report",
           "report_dict", "step_dict", "result_dict"]


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
    lhs: str = ""  # plain text (sympy.sstr)
    rhs: str = ""
    side_conditions: tuple = ()


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
    statement_latex: str = ""
    hypotheses: tuple = ()  # (symbol name, domain as text) pairs
    constraints: tuple = ()  # text


@dataclass(frozen=True)
class ReportView:
    """A derivation with its step results (None: not checked) and the chain's verdict."""

    derivation: DerivationView
    steps: tuple | None  # StepResult, one per step
    source: str = ""
    conclusion_verdict: Verdict | None = None
    seconds: float = 0.0  # spent checking it (symdp check --durations), when known
    origins: tuple = ()   # per step: "checked now", "replayed", "recorded <key>" (empty: now)

    @property
    def ok(self) -> bool:
        return self.steps is not None and all(r.matches_expectation for r in self.steps)

    @property
    def conclusion_hypotheses(self) -> tuple:
        """The unproved hypotheses the steps rest on (each once): the conclusion rests on
        all of them."""
        if self.steps is None:
            return ()
        return tuple(dict.fromkeys(h for r in self.steps for h in r.hypotheses))

    @property
    def conclusion_holds_everywhere(self) -> bool:
        v = self.conclusion_verdict
        return v is not None and v.holds_everywhere and not self.conclusion_hypotheses

    @property
    def conclusion_scope(self) -> str:
        v = self.conclusion_verdict
        return "not checked" if v is None else scope_in_words(v, self.conclusion_hypotheses)


def _terms(expr):
    terms = sum_terms(expr)
    return None if terms is None else tuple(tuple(t) for t in terms)


def view_of_derivation(d) -> DerivationView:
    """The view of a :class:`~symdp.proof.derivation.Derivation` (prints every formula)."""
    hyps = [domain_latex(s, dom) for s, dom in d.hypotheses.items()]
    hyps += [sp.latex(c) for c in d.constraints]
    steps = tuple(StepView(s.relation, sp.latex(s.lhs), sp.latex(s.rhs), _terms(s.rhs),
                           tuple(sp.latex(c) for c in s.side_conditions), s.rule or "",
                           s.note or "", sp.sstr(s.lhs), sp.sstr(s.rhs),
                           tuple(sp.sstr(c) for c in s.side_conditions)) for s in d.steps)
    return DerivationView(d.id, d.statement, d.citation, tuple(hyps), bool(d.chained),
                          d.conclusion_relation, d.notes or "", steps, d.statement_latex(),
                          tuple((s.name, sp.sstr(dom)) for s, dom in d.hypotheses.items()),
                          tuple(sp.sstr(c) for c in d.constraints))


def view_of_report(report, source: str | None = None) -> ReportView:
    """The view of a :class:`~symdp.proof.check.DerivationReport` (or a view, unchanged)."""
    if isinstance(report, ReportView):
        return report
    return ReportView(view_of_derivation(report.derivation), tuple(report.steps),
                      report.source if source is None else source, report.conclusion_verdict)


# --------------------------------------------------------------------------- serialisation
# The JSON of ``symdp check --json`` (schema symdp-check/3) is written here and only here;
# symdp.report.from_json reads the same names back.

def result_dict(r: StepResult) -> dict:
    """A step's verdict and its scope (the verdict fields of a step of the JSON)."""
    return {
        "verdict": r.verdict.value, "label": r.label,
        "holds_everywhere": r.holds_everywhere, "evidence_only": r.evidence_only,
        "under_hypotheses": r.under_hypotheses, "scope": r.scope,
        "hypotheses": list(r.hypotheses), "facts": list(r.facts),
        "expected": r.expected.value if r.expected else None,
        "matches_expectation": r.matches_expectation, "finding": r.is_finding,
        "stage": r.stage, "detail": r.detail, "points": r.points,
        "worst_margin": r.worst_margin,
        "counterexample": r.counterexample.as_dict() if r.counterexample else None,
        "certified": r.extra.get("certified") if r.extra else None,
    }


def step_dict(i: int, view: StepView, result: StepResult | None, origin: str = "checked now") -> dict:
    """Step ``i`` (0-based; written 1-based) of the JSON: the formula, then the verdict and
    where it comes from."""
    out = {
        "index": i + 1, "lhs": view.lhs, "relation": view.relation, "rhs": view.rhs,
        "lhs_latex": view.lhs_latex, "rhs_latex": view.rhs_latex,
        "rhs_latex_terms": None if view.rhs_terms is None else [list(t) for t in view.rhs_terms],
        "rule": view.rule, "note": view.note,
        "side_conditions": list(view.side_conditions),
        "side_conditions_latex": list(view.side_conditions_latex),
    }
    if result is not None:
        out.update(result_dict(result))
        out["origin"] = origin
    return out


def report_dict(rep: ReportView) -> dict:
    """One checked derivation of the JSON (``derivations[i]``)."""
    d = rep.derivation
    verdict = rep.conclusion_verdict
    return {
        "id": d.id, "source": rep.source, "citation": d.citation, "statement": d.statement,
        "statement_latex": d.statement_latex,
        "domains": {name: dom for name, dom in d.hypotheses},
        "constraints": list(d.constraints),
        "conclusion": {"relation": d.conclusion_relation,
                       "verdict": verdict.value if verdict else None,
                       "holds_everywhere": rep.conclusion_holds_everywhere,
                       "scope": rep.conclusion_scope,
                       "hypotheses": list(rep.conclusion_hypotheses)},
        "ok": rep.ok, "chained": d.chained, "notes": d.notes,
        "hypotheses_latex": list(d.hypotheses_latex),
        "steps": [step_dict(i, v, None if rep.steps is None else rep.steps[i],
                            rep.origins[i] if i < len(rep.origins) else "checked now")
                  for i, v in enumerate(d.steps)],
    }
