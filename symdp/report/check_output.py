r"""Reports of checked derivations: a text table and a documented JSON schema.

JSON schema (``symdp check --json FILE``), version 1::

    {
      "schema": "symdp-check/1",
      "dps": [int, int] | null,        # the numeric stage's two precisions, when recorded
      "summary": {"derivations": int, "steps": int, "verdicts": {VERDICT: int},
                  "findings": int, "mismatches": int, "load_errors": int, "ok": bool},
      "derivations": [{
          "id": str, "source": str, "citation": str, "statement": str,
          "statement_latex": str, "hypotheses": {symbol: domain},
          "constraints": [str], "conclusion": {"relation": str|null, "verdict": VERDICT},
          "ok": bool, "chained": bool, "notes": str,
          "hypotheses_latex": [str],   # "symbol \in domain" per hypothesis, then constraints
          "steps": [{"index": int (1-based), "lhs": str, "relation": str, "rhs": str,
                     "lhs_latex": str, "rhs_latex": str,
                     "rhs_latex_terms": null | [[sign, latex]],  # top-level terms of a sum
                     "rule": str, "note": str,
                     "side_conditions": [str], "side_conditions_latex": [str],
                     "verdict": VERDICT,
                     "expected": VERDICT|null, "matches_expectation": bool,
                     "finding": bool, "stage": str, "detail": str,
                     "points": int, "worst_margin": str|null,
                     "counterexample": null | {"point": {symbol: value}, "lhs": str,
                                               "rhs": str, "difference": str, "exact": bool},
                     "certified": null | CERTIFIED_RECORD}]
      }],
      "load_errors": [{"path": str, "error": str}]
    }

VERDICT is one of PROVED, CERTIFIED, ENUMERATED, CHECKED_AT_POINTS, NUMERIC_AT_POINTS, UNDECIDED, REFUTED.

The LaTeX fields are what ``sympy.latex`` prints (``rhs_latex_terms``: the terms of a
top-level sum in printed order, sign ``"+"`` or ``"-"``, so a reader can break a long
display between whole terms); with them ``symdp report --from-json FILE`` typesets the
same document as ``symdp report`` without checking again.  ``dps``, ``chained``,
``notes``, ``hypotheses_latex``, ``rhs_latex_terms`` and ``side_conditions_latex`` were
added to version 1 without changing any earlier field (readers of the first layout are
unaffected; ``symdp report --from-json`` needs them and says so when they are missing).

CERTIFIED_RECORD (what the CERTIFIED stage tried, :mod:`symdp.proof.certified`; null when
the stage did not run)::

    {"skipped": str,                       # present when the stage did not run: why
     "box": {"reduction": null | {"steps": [str], "reduced": str,
                                  "proved_symbolically": bool, "sign": str|null,
                                  "obligations": [str]},
             "searches": [{"claim": str, "status": "certified"|"refuted"|"undecided",
                           "box": {symbol: [lo, hi] or [lo, hi, "integer"]},
                           "changes_of_variables": {symbol: str},
                           "sub_boxes": int, "decided": int, "vacuous": int,
                           "monotone_faces": int, "smallest_margin": str|null,
                           "resisting": [{symbol: [lo, hi]}], "resisting_count": int,
                           "counterexample_box": null | {"box": {symbol: [lo, hi]},
                               "point": {symbol: str}, "lhs": str, "rhs": str,
                               "margin": str},
                           "reason": str, "certified_part": str|null}]},
     "points": {"points": int, "certified": int, "exact": int, "not_evaluable": int,
                "undecided": int, "dps": int,
                "radius": str, "largest_difference_bound": str|null,   # equalities
                "smallest_margin": str|null}}                           # inequalities

Bounds are strings (``oo`` for infinity); a box is given in the parameters, the
change of variables that mapped an unbounded range to [0, 1) is listed.
Output is deterministic: no timings, derivations in file order.
"""

from __future__ import annotations

import json
from collections import Counter

import sympy as sp

from ..proof.verdict import Verdict

SCHEMA = "symdp-check/1"


def _step_dict(i, step, result, view) -> dict:
    cx = result.counterexample.as_dict() if result.counterexample else None
    return {
        "index": i + 1, "lhs": sp.sstr(step.lhs), "relation": step.relation,
        "rhs": sp.sstr(step.rhs), "lhs_latex": view.lhs_latex, "rhs_latex": view.rhs_latex,
        "rhs_latex_terms": None if view.rhs_terms is None else [list(t) for t in view.rhs_terms],
        "rule": step.rule, "note": step.note,
        "side_conditions": [sp.sstr(c) for c in step.side_conditions],
        "side_conditions_latex": list(view.side_conditions_latex),
        "verdict": result.verdict.value,
        "expected": result.expected.value if result.expected else None,
        "matches_expectation": result.matches_expectation, "finding": result.is_finding,
        "stage": result.stage, "detail": result.detail, "points": result.points,
        "worst_margin": result.worst_margin, "counterexample": cx,
        "certified": result.extra.get("certified") if result.extra else None,
    }


def derivation_dict(report) -> dict:
    from .views import view_of_derivation  # the LaTeX exactly as the report prints it

    d = report.derivation
    view = view_of_derivation(d)
    return {
        "id": d.id, "source": report.source, "citation": d.citation, "statement": d.statement,
        "statement_latex": d.statement_latex(),
        "hypotheses": {s.name: sp.sstr(dom) for s, dom in d.hypotheses.items()},
        "constraints": [sp.sstr(c) for c in d.constraints],
        "conclusion": {"relation": d.conclusion_relation, "verdict": report.conclusion_verdict.value},
        "ok": report.ok, "chained": bool(d.chained), "notes": d.notes or "",
        "hypotheses_latex": list(view.hypotheses_latex),
        "steps": [_step_dict(i, s, r, v) for i, (s, r, v)
                  in enumerate(zip(d.steps, report.steps, view.steps))],
    }


def summary(reports, errors) -> dict:
    verdicts = Counter(r.verdict.value for rep in reports for r in rep.steps)
    mismatches = sum(1 for rep in reports for r in rep.steps if not r.matches_expectation)
    findings = sum(1 for rep in reports for r in rep.steps if r.is_finding)
    return {
        "derivations": len(reports), "steps": sum(len(rep.steps) for rep in reports),
        "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
        "findings": findings, "mismatches": mismatches, "load_errors": len(errors),
        "ok": mismatches == 0 and not errors,
    }


def json_report(reports, errors, *, dps=None) -> str:
    """The JSON document of the module docstring; ``dps`` (the numeric stage's two
    precisions) is recorded when given."""
    return json.dumps({
        "schema": SCHEMA, "dps": sorted(int(x) for x in dps) if dps else None,
        "summary": summary(reports, errors),
        "derivations": [derivation_dict(r) for r in reports],
        "load_errors": [{"path": e.path, "error": e.error} for e in errors],
    }, indent=2, sort_keys=False)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def text_report(reports, errors, *, verbose: bool = False) -> str:
    lines = []
    width = 100 if not verbose else 10_000
    header = f"{'derivation':<44} {'step':>4}  {'verdict':<10}  detail"
    lines.append(header)
    lines.append("-" * len(header))
    for rep in reports:
        for i, (step, r) in enumerate(zip(rep.derivation.steps, rep.steps)):
            mark = "" if r.matches_expectation else "  <-- expected " + (
                r.expected.value if r.expected else "to hold")
            name = rep.derivation.id if i == 0 else ""
            verdict = r.verdict.value + ("*" if r.is_finding else "")
            lines.append(f"{_clip(name, 44):<44} {i + 1:>4}  {verdict:<10}  "
                         f"{_clip(r.detail, width)}{mark}")
            if verbose:
                lines.append(f"{'':<44} {'':>4}  {'':<10}  {sp.sstr(step.lhs)} {step.relation} "
                             f"{sp.sstr(step.rhs)}   [{step.rule}]")
    findings = [(rep, i, r) for rep in reports for i, r in enumerate(rep.steps) if r.is_finding]
    if findings:
        lines.append("")
        lines.append("FINDINGS (claims as printed that do not hold; * above):")
        for rep, i, r in findings:
            step = rep.derivation.steps[i]
            status = "reproduced" if r.matches_expectation else "NO LONGER REPRODUCES"
            lines.append(f"  {rep.derivation.id}, step {i + 1} [{status}]: {step.note or step.rule}")
            if r.counterexample:
                cx = r.counterexample
                point = ", ".join(f"{k}={v}" for k, v in cx.point.items())
                lines.append(f"    counterexample: {point}: lhs = {cx.lhs}, rhs = {cx.rhs}")
    for e in errors:
        lines.append(f"LOAD ERROR {e.path}: {e.error}")
    s = summary(reports, errors)
    counts = ", ".join(f"{n} {v}" for v, n in s["verdicts"].items() if n)
    verdict_line = "all verdicts match their expectations" if s["mismatches"] == 0 else \
        f"{s['mismatches']} verdict(s) do NOT match their expectations"
    lines.append("")
    lines.append(f"{s['derivations']} derivations, {s['steps']} steps: {counts}; "
                 f"{s['findings']} findings; {verdict_line}"
                 + (f"; {s['load_errors']} file(s) failed to load" if errors else ""))
    return "\n".join(lines)
