r"""Reports of checked derivations: a text table and a documented JSON schema.

JSON schema (``symdp check --json FILE``), version 4::

    {
      "schema": "symdp-check/4",
      "dps": [int, int] | null,        # the numeric stage's two precisions, when recorded
      "summary": {"derivations": int, "steps": int, "verdicts": {VERDICT: int},
                  "holds_everywhere": int,     # steps that hold for every parameter value
                  "under_hypotheses": int,     # would hold, but rest on unproved hypotheses
                  "evidence_only": int,        # the evidence verdicts, the next two together
                  "checked_at_points": int,    # CHECKED_AT_POINTS or NUMERIC_AT_POINTS
                  "enumerated_on_range": int,  # ENUMERATED_ON_RANGE
                  "findings": int, "findings_reproduced": int,
                  "mismatches": int, "load_errors": int,
                  "require_proof": bool,       # symdp check --require-proof
                  "not_proved": int,           # steps expected to hold that do not hold everywhere
                  "ok": bool,                  # (with require_proof: and not_proved == 0)
                  "origins": {"checked now": int, "replayed": int, "recorded": int},
                  "line": str},                # the summary line symdp check prints
      "derivations": [{
          "id": str, "source": str, "citation": str, "statement": str,
          "statement_latex": str, "domains": {symbol: domain},
          "constraints": [str],
          "conclusion": {"relation": str|null, "verdict": VERDICT,
                         "holds_everywhere": bool, "scope": str,
                         "hypotheses": [str]},  # every unproved hypothesis of the steps
          "ok": bool, "chained": bool, "notes": str,
          "hypotheses_latex": [str],   # "symbol \in domain" per domain, then constraints
          "steps": [{"index": int (1-based), "lhs": str, "relation": str, "rhs": str,
                     "lhs_latex": str, "rhs_latex": str,
                     "rhs_latex_terms": null | [[sign, latex]],  # top-level terms of a sum
                     "rule": str, "note": str,
                     "side_conditions": [str], "side_conditions_latex": [str],
                     "verdict": VERDICT,
                     "label": str,             # "PROVED", or "PROVED under: h1; h2"
                     "holds_everywhere": bool, # for every parameter value it claims
                     "evidence_only": bool,    # evidence: points, or an enumerated range
                     "under_hypotheses": bool, # holds only where "hypotheses" hold
                     "scope": str,             # the scope in words
                     "hypotheses": [str],      # unproved conditions the verdict rests on
                     "facts": [str],           # objects' choices proved over the domain
                     "expected": VERDICT|null, "matches_expectation": bool,
                     "finding": bool, "stage": str, "detail": str,
                     "points": int, "worst_margin": str|null,
                     "counterexample": null | {"point": {symbol: value}, "lhs": str,
                                               "rhs": str, "difference": str, "exact": bool},
                     "certified": null | CERTIFIED_RECORD,
                     "origin": str}]           # "checked now", "replayed", "recorded <key>"
      }],
      "load_errors": [{"path": str, "error": str}]
    }

VERDICT is one of PROVED, CERTIFIED, ENUMERATED (hold for every parameter value; issued by
the kernel only, :mod:`symdp.proof.kernel`), ENUMERATED_ON_RANGE (exact enumeration of a
finite range of an infinite domain: evidence), CHECKED_AT_POINTS, NUMERIC_AT_POINTS (evidence
at sampled points only), UNDECIDED, REFUTED.
A step *holds* (``holds_everywhere``) only when its verdict is one of the first three and
it rests on no unproved hypothesis; read ``holds_everywhere`` and ``scope``, never the
verdict name alone.

``origin`` says where a step's verdict comes from (issue #30, :mod:`symdp.proof.cache`):
``"checked now"`` by this run; ``"replayed"``: reused from the cache after the kernel accepted
the stored certificate again in this run; ``"recorded <key>"``: reused from the cache entry
whose key starts with <key>, as checked when the entry was written, not re-checked.

**Changes from** ``symdp-check/3`` (and how to read an old file):

* new step field ``origin`` and summary field ``origins`` (its counts); ``symdp check``'s
  summary line ends with them.  A /3 file holds verdicts checked by the run that wrote it
  (read ``origin`` as ``"checked now"``); ``symdp report --from-json`` reads /3 and /4.

**Changes from** ``symdp-check/2`` (and how to read an old file):

* new verdict ``ENUMERATED_ON_RANGE``: exact enumeration of part of an infinite domain
  ("exactly for n <= 6, k <= 4"), evidence (``holds_everywhere`` false, ``evidence_only``
  true).  /2 wrote such steps as ``ENUMERATED``: in a /2 file an ``ENUMERATED`` verdict may
  be a sample of an infinite domain; only a re-check tells.
* a verdict that holds is issued only by the kernel (issue #19): /2's PROVED, CERTIFIED and
  ENUMERATED did not all check coverage, definedness and the facts they used.
* new summary fields ``checked_at_points`` and ``enumerated_on_range``; ``evidence_only``
  now counts both; the summary line names the enumerated ranges apart.
* ``symdp report --from-json`` reads /3 only and refuses /2 in one line (re-run
  ``symdp check --json``), for the same reason it refuses /1.

**Changes from** ``symdp-check/1`` to /2 (and how to read an old file):

* verdict names: ``NUMERIC`` became ``NUMERIC_AT_POINTS``; ball arithmetic at sampled points,
  which /1 wrote as ``CERTIFIED`` (stage ``certified``, a ``points`` record and no box
  search that certified), is ``CHECKED_AT_POINTS``.  In a /1 file a ``CERTIFIED`` verdict
  may therefore be evidence at points only; only its ``certified`` record tells.
* new step fields ``label``, ``holds_everywhere``, ``evidence_only``, ``under_hypotheses``,
  ``scope``, ``hypotheses``, ``facts``; new conclusion fields ``holds_everywhere``, ``scope``,
  ``hypotheses``; new summary fields ``holds_everywhere``, ``under_hypotheses``,
  ``evidence_only``, ``findings_reproduced``, ``require_proof``, ``not_proved``, ``line``.
* the derivation's parameter domains, ``hypotheses`` in /1, are ``domains`` (``hypotheses``
  now always means unproved hypotheses a verdict rests on).
* ``symdp report --from-json`` reads /2 only: it refuses a /1 file in one line, because a
  conversion would have to guess whether each ``CERTIFIED`` covered the whole domain --
  the misreading /2 exists to prevent.  Re-run ``symdp check --json``.

The LaTeX fields are what ``sympy.latex`` prints (``rhs_latex_terms``: the terms of a
top-level sum in printed order, sign ``"+"`` or ``"-"``, so a reader can break a long
display between whole terms); with them ``symdp report --from-json FILE`` typesets the
same document as ``symdp report`` without checking again.  The JSON is the serialisation
of the records of :mod:`symdp.report.views` (:func:`symdp.report.views.report_dict`), which
:mod:`symdp.report.from_json` reads back into the same records.

CERTIFIED_RECORD (what the CERTIFIED stage tried, :mod:`symdp.proof.cascade.certified`; null when
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

SCHEMA = "symdp-check/4"
#: the schemas ``symdp report --from-json`` reads (a /3 file lacks only the origins)
READABLE = ("symdp-check/3", SCHEMA)
#: where a verdict comes from (:mod:`symdp.proof.runner`); a recorded one is
#: "recorded <key>"
CHECKED_NOW, REPLAYED, RECORDED = "checked now", "replayed", "recorded"


def derivation_dict(report, origins=()) -> dict:
    """``derivations[i]`` of the JSON: the serialisation of the report's record
    (:func:`symdp.report.views.report_dict`; the one code path for JSON and document);
    ``origins`` replaces the record's (one per step)."""
    from dataclasses import replace

    from .views import report_dict, view_of_report

    view = view_of_report(report)
    return report_dict(replace(view, origins=tuple(origins)) if origins else view)


def _origin_counts(reports, origins) -> dict:
    counts = {CHECKED_NOW: 0, REPLAYED: 0, RECORDED: 0}
    for rep in reports:
        for i in range(len(rep.steps)):
            word = _origin(rep, i, origins)
            counts[RECORDED if word.startswith(RECORDED) else word] += 1
    return counts


def _origin(rep, i, origins) -> str:
    """Where step ``i`` of ``rep`` comes from: ``origins`` (id -> per step), else the
    record's own (a report read back from JSON), else "checked now"."""
    found = origins.get(rep.derivation.id, ()) if origins else ()
    found = found or getattr(rep, "origins", ())
    return found[i] if found and i < len(found) else CHECKED_NOW


def summary(reports, errors, *, require_proof: bool = False, origins=None) -> dict:
    """Counts over the checked steps of ``reports`` (anything with ``.steps``, a tuple of
    :class:`~symdp.proof.verdict.StepResult`): by verdict, and by scope -- how many hold for
    every parameter value, hold only under unproved hypotheses, were checked at points only
    -- the findings and how many reproduce, the mismatches and the load errors.

    ``require_proof`` (``symdp check --require-proof``): a step expected to hold that does
    not hold everywhere is not ``ok`` (``not_proved`` counts them).  ``origins``
    (:attr:`symdp.proof.runner.CheckRun.origins`): where each verdict comes from; counted in
    ``origins`` (every verdict "checked now" without it) and, when given, in the line."""
    results = [r for rep in reports for r in rep.steps]
    verdicts = Counter(r.verdict.value for r in results)
    mismatches = sum(1 for r in results if not r.matches_expectation)
    findings = [r for r in results if r.is_finding]
    not_proved = sum(1 for r in results if r.matches_expectation and not r.meets(require_proof=True))
    return {
        "derivations": len(reports), "steps": len(results),
        "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
        "holds_everywhere": sum(1 for r in results if r.holds_everywhere),
        "under_hypotheses": sum(1 for r in results if r.under_hypotheses),
        "evidence_only": sum(1 for r in results if r.evidence_only),
        "checked_at_points": sum(1 for r in results if r.evidence_only
                                 and r.verdict is not Verdict.ENUMERATED_ON_RANGE),
        "enumerated_on_range": sum(1 for r in results
                                   if r.verdict is Verdict.ENUMERATED_ON_RANGE),
        "findings": len(findings),
        "findings_reproduced": sum(1 for r in findings if r.matches_expectation),
        "mismatches": mismatches, "load_errors": len(errors),
        "not_proved": not_proved, "require_proof": bool(require_proof),
        "ok": mismatches == 0 and not errors and not (require_proof and not_proved),
        "origins": _origin_counts(reports, origins),
        "origins_given": origins is not None,
    }


def summary_line(s: dict) -> str:
    """The one-line summary of :func:`summary`, scope first::

        212 of 317 steps hold for every parameter value; 96 checked at points only;
        9 findings reproduced; 12 checked now, 280 replayed by the kernel from the cache,
        25 recorded in the cache

    (where the verdicts come from only when :func:`summary` was given the origins), then
    what does not match."""
    parts = [f"{s['holds_everywhere']} of {s['steps']} steps hold for every parameter value"]
    if s["under_hypotheses"]:
        parts.append(f"{s['under_hypotheses']} hold only under unproved hypotheses")
    parts.append(f"{s.get('checked_at_points', s['evidence_only'])} checked at points only")
    if s.get("enumerated_on_range"):
        parts.append(f"{s['enumerated_on_range']} enumerated exactly on a finite range of an "
                     "infinite domain only (evidence)")
    parts.append(f"{s['findings_reproduced']} findings reproduced"
                 if s["findings_reproduced"] == s["findings"] else
                 f"{s['findings_reproduced']} of {s['findings']} findings reproduced")
    if s.get("origins_given") and s["steps"]:
        o = s["origins"]
        if o[CHECKED_NOW] == s["steps"]:
            parts.append(f"all {s['steps']} checked now")
        else:
            parts.append(", ".join(
                [f"{o[CHECKED_NOW]} checked now"] +
                ([f"{o[REPLAYED]} replayed by the kernel from the cache"] if o[REPLAYED] else [])
                + ([f"{o[RECORDED]} recorded in the cache"] if o[RECORDED] else [])))
    if s["mismatches"]:
        parts.append(f"{s['mismatches']} verdict(s) do NOT match their expectations")
    if s["load_errors"]:
        parts.append(f"{s['load_errors']} file(s) failed to load")
    if s["require_proof"] and s["not_proved"]:
        parts.append(f"--require-proof: {s['not_proved']} step(s) do not hold for every "
                     "parameter value")
    return "; ".join(parts)


def verdict_counts_line(s: dict) -> str:
    """``317 steps in 72 derivations: 87 PROVED, 7 CERTIFIED, ...; all verdicts match their
    expectations`` (non-zero counts)."""
    counts = ", ".join(f"{n} {v}" for v, n in s["verdicts"].items() if n) or "no verdicts"
    if s["mismatches"]:
        match = f"{s['mismatches']} verdict(s) do NOT match their expectations"
    elif s["load_errors"]:  # what was checked matches, but not everything was checked
        match = ("nothing was checked" if not s["steps"] else
                 "the verdicts of the files that loaded match their expectations")
    else:
        match = "all verdicts match their expectations"
    return f"{s['steps']} steps in {s['derivations']} derivations: {counts}; {match}"


def json_report(reports, errors, *, dps=None, require_proof: bool = False,
                origins=None) -> str:
    """The JSON document of the module docstring; ``dps`` (the numeric stage's two
    precisions) is recorded when given; ``origins`` as :func:`summary`."""
    s = summary(reports, errors, require_proof=require_proof, origins=origins)
    s["line"] = summary_line(s)
    del s["origins_given"]
    derivations = [derivation_dict(r, [_origin(r, i, origins) for i in range(len(r.steps))])
                   for r in reports]
    return json.dumps({
        "schema": SCHEMA, "dps": sorted(int(x) for x in dps) if dps else None,
        "summary": s,
        "derivations": derivations,
        "load_errors": [{"path": e.path, "error": e.error} for e in errors],
    }, indent=2, sort_keys=False)


def record_of(report) -> dict:
    """The record of one checked derivation (``derivations[i]`` of the JSON, without its
    ``origin`` fields): what a worker sends and the cache stores (:mod:`symdp.proof.cache`)."""
    return derivation_dict(report)


def report_of(record: dict, source: str):
    """The :class:`~symdp.report.views.ReportView` of a :func:`record_of` record, read back
    and validated as ``symdp report --from-json`` reads a file; ``source`` replaces its path.
    Raises :class:`~symdp.report.from_json.ReportInputError` for a record it cannot read."""
    from dataclasses import replace

    from .from_json import parse_record

    return replace(parse_record(record), source=source)


#: what :func:`symdp.proof.runner.check_all` needs to send records, not pickled reports
CODEC = (record_of, report_of)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def text_report(reports, errors, *, verbose: bool = False, require_proof: bool = False,
                origins=None) -> str:
    """The table of ``symdp check``: one line per step (verdict, detail; with ``origins``
    also where the verdict comes from), the findings, the steps that rest on unproved
    hypotheses (and, with ``require_proof``, every step that does not hold for every
    parameter value), then the summary line (:func:`summary_line`)."""
    lines = []
    width = 100 if not verbose else 10_000
    vw = max([len(r.verdict.value) + 1 for rep in reports for r in rep.steps] + [7])
    ow = max([len(_origin(rep, i, origins)) for rep in reports for i in range(len(rep.steps))]
             + [6]) if origins is not None else 0
    origin_header = f"{'origin':<{ow}}  " if origins is not None else ""
    header = f"{'derivation':<44} {'step':>4}  {'verdict':<{vw}}  {origin_header}detail"
    lines.append(header)
    lines.append("-" * len(header))
    for rep in reports:
        for i, (step, r) in enumerate(zip(rep.derivation.steps, rep.steps)):
            mark = "" if r.matches_expectation else "  <-- expected " + (
                r.expected.value if r.expected else "to hold")
            name = rep.derivation.id if i == 0 else ""
            verdict = r.verdict.value + ("*" if r.is_finding else "")
            detail = r.detail + (f" [under: {'; '.join(r.hypotheses)}]" if r.hypotheses else "")
            origin = f"{_origin(rep, i, origins):<{ow}}  " if origins is not None else ""
            lines.append(f"{_clip(name, 44):<44} {i + 1:>4}  {verdict:<{vw}}  {origin}"
                         f"{_clip(detail, width)}{mark}")
            if verbose:
                lines.append(f"{'':<44} {'':>4}  {'':<{vw}}  {'':<{ow + 2 if ow else 0}}"
                             f"{_formula(step)}   [{step.rule}]")
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
                point = ", ".join(f"{k}={v}" for k, v in cx.point.items()) or "(no parameters)"
                lines.append(f"    counterexample: {point}: lhs = {cx.lhs}, rhs = {cx.rhs}")
    hypothesised = [(rep, i, r) for rep in reports for i, r in enumerate(rep.steps)
                    if r.hypotheses and r.verdict.supports]
    if hypothesised:
        lines.append("")
        lines.append("UNPROVED HYPOTHESES (the verdict holds only where these hold):")
        for rep, i, r in hypothesised:
            lines.append(f"  {rep.derivation.id}, step {i + 1}: {r.label}")
    if require_proof:
        short = [(rep, i, r) for rep in reports for i, r in enumerate(rep.steps)
                 if r.matches_expectation and not r.meets(require_proof=True)]
        if short:
            lines.append("")
            lines.append("NOT PROVED (--require-proof: these steps do not hold for every "
                         "parameter value):")
            for rep, i, r in short:
                lines.append(f"  {rep.derivation.id}, step {i + 1}: {r.label}: {r.scope}")
    for e in errors:
        lines.append(f"LOAD ERROR {e.path}: {e.error}")
    s = summary(reports, errors, require_proof=require_proof, origins=origins)
    lines.append("")
    lines.append(verdict_counts_line(s))
    lines.append(summary_line(s))
    return "\n".join(lines)


def _formula(step) -> str:
    """``lhs REL rhs`` of a step: SymPy objects (a check) or the strings of a record."""
    lhs, rhs = step.lhs, step.rhs
    lhs = lhs if isinstance(lhs, str) else sp.sstr(lhs)
    rhs = rhs if isinstance(rhs, str) else sp.sstr(rhs)
    return f"{lhs} {step.relation} {rhs}"
