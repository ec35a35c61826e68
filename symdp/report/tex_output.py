r"""Output of ``symdp check-tex``: the table, the JSON and the annotated copy of the document.

* :func:`tex_text_report` -- one line per row of every display: its source line, the verdict
  (the weakest of the row's steps) and the detail or counterexample; then each chain's
  conclusion, the findings, the rows not read (line, column, what was expected), the notes
  (``\input`` and friends, never executed) and the summary lines of ``symdp check``.
* :func:`tex_json_report` -- the ``symdp check --json`` document
  (:func:`symdp.report.check_output.json_report`, the one writer of that schema) with each
  step's ``file`` and ``line`` added and a ``tex`` record: the rows read, the rows not read
  with their line, column and message, the notes.
* :func:`annotate` -- a copy of the document with a mark at the right margin of each checked
  row (amsmath's ``\tag``; inside ``split``/``aligned``/``eqnarray``/``multline`` at the end
  of the row): a check mark when every step holds for every parameter value, ``~`` for
  evidence at points (or a verdict under unproved hypotheses), a cross when refuted (the
  counterexample in a footnote) and ``?`` when not read or not decided (why, in a footnote).
  Each mark carries the source line number (``L12``).  A numbered row keeps its number
  (``\stepcounter{equation}\tag{\theequation ...}``; a ``\label`` on it then shows the
  mark too).  The copy is filtered deny-by-default (:mod:`symdp.report.tex_safe`): only
  the control words, environments and packages of its lists are kept, every other name is
  renamed and prints itself (``[\input]``), so compiling the copy reads, writes and runs
  nothing (``\input``, ``\@@input``, ``filecontents``, ``^^5c``-encoded names, ...).
"""

from __future__ import annotations

import json
import re

from .check_output import json_report, summary, summary_line, verdict_counts_line
from .tex_check import TexCheck, row_mark
from .tex_safe import finish, neutralise

__all__ = ["tex_text_report", "tex_json_report", "annotate", "row_verdict", "MARK_COMMANDS"]

#: the LaTeX command of each margin mark
MARK_COMMANDS = {"holds": "\\symdpholds", "evidence": "\\symdpevidence",
                 "refuted": "\\symdprefuted", "unread": "\\symdpunread",
                 "noted": "\\symdpnoted"}
_SHOWN = {"holds": "holds", "evidence": "evidence", "refuted": "REFUTED", "unread": "?",
          "noted": "read"}
#: what a row read but not checked is, in the table
_KINDS = {"definition": ("defined", "a definition: the name stands for its right side in "
                                    "the rows after it (not checked)"),
          "premise": ("premise", "a premise (% symdp: premise): assumed in the displays "
                                 "after it (not checked)"),
          "expression": ("expression", "an expression without a relation: nothing to check")}


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _counterexample(result) -> str:
    cx = result.counterexample
    point = ", ".join(f"{k}={v}" for k, v in cx.point.items()) or "(no parameters)"
    return f"counterexample: {point}: lhs = {cx.lhs}, rhs = {cx.rhs}"


def row_verdict(row) -> tuple[str, str]:
    """(verdict, detail) of a checked row: the weakest step's verdict and its detail or
    counterexample (the table, the notebook's table and the JSON say the same)."""
    results = row.step_results
    if row.row.skipped:
        return "skipped", "not read: % symdp: skip"
    if row.problem is not None and not results:
        return "?", f"column {row.problem.column}: {row.problem.message}" \
            if row.problem.line == row.row.line else str(row.problem)
    if not results:
        label, detail = _KINDS.get(row.row.kind, ("?", "not checked"))
        if row.row.kind == "steps":  # read, but no step (or its steps left out by --lines)
            return "?", "not checked" if row.row.steps else "no step was read on this line"
        return label, detail
    weakest = min(results, key=lambda r: r.verdict.strength)
    detail = weakest.detail
    if weakest.counterexample is not None:
        detail = _counterexample(weakest)
    if weakest.hypotheses:
        detail += f" [under: {'; '.join(weakest.hypotheses)}]"
    if row.problem is not None:
        detail = f"(part of the line not read: {row.problem.message}) " + detail
    label = weakest.verdict.value + ("*" if weakest.is_finding else "")
    if not weakest.matches_expectation:
        detail += "  <-- expected " + (weakest.expected.value if weakest.expected else "to hold")
    return label, detail


def tex_text_report(check: TexCheck, *, verbose: bool = False) -> str:
    """The table of ``symdp check-tex`` (see the module docstring)."""
    width = 100 if not verbose else 10_000
    rows = check.rows
    verdicts = [row_verdict(r) for r in rows]
    vw = max([len(v) for v, _ in verdicts] + [7])
    header = f"{'line':>6}  {'verdict':<{vw}}  detail"
    lines = [f"{check.document.path}: {len(check.document.displays)} display(s)", header,
             "-" * len(header)]
    for row, (verdict, detail) in zip(rows, verdicts):
        lines.append(f"{row.row.line:>6}  {verdict:<{vw}}  {_clip(detail, width)}")
        if verbose:
            lines.append(f"{'':>6}  {'':<{vw}}  {_clip(row.row.text, width)}")
    chains = [r for r in check.reports if r.derivation.chained]
    if chains:
        lines.append("")
        lines.append("CHAINS (the conclusion: first left side, composed relation, last right side):")
        for rep in chains:
            c = rep.derivation.conclusion
            lines.append(f"  {rep.source}: {_clip(str(c.lhs), 40)} {c.relation} "
                         f"{_clip(str(c.rhs), 40)}: {rep.conclusion_verdict.value}")
    findings = [(rep, i, r) for rep in check.reports for i, r in enumerate(rep.steps)
                if r.is_finding]
    if findings:
        lines.append("")
        lines.append("FINDINGS (claims as written that do not hold; * above):")
        for rep, i, r in findings:
            step = rep.derivation.steps[i]
            status = "reproduced" if r.matches_expectation else "NO LONGER REPRODUCES"
            lines.append(f"  {step.note} [{status}]: {step.rule}")
            if r.counterexample:
                lines.append(f"    {_counterexample(r)}")
    unread = check.unread
    if unread:
        lines.append("")
        lines.append("NOT READ (line, column: what was expected):")
        for row in unread:
            lines.append(f"  {check.document.path}:{row.problem.line}:{row.problem.column}: "
                         f"{row.problem.message}")
    if check.document.notes:
        lines.append("")
        lines.append("NOTES:")
        for note in check.document.notes:
            lines.append(f"  {check.document.path}:{note.line}:{note.column}: {note.message}")
    read, total = check.document.read_fraction()
    s = summary(check.reports, [])
    lines.append("")
    lines.append(f"{read} of {total} display lines read" +
                 (f"; {len(unread)} line(s) not checked" if unread else ""))
    lines.append(verdict_counts_line(s))
    lines.append(summary_line(s))
    return "\n".join(lines)


def tex_json_report(check: TexCheck, *, dps=None) -> str:
    """The ``symdp-check`` JSON of the chains, each step with its ``file`` and ``line``, and
    a ``tex`` record of what was read (see the module docstring)."""
    document = json.loads(json_report(list(check.reports), [], dps=dps))
    for record, rep in zip(document["derivations"], check.reports):
        for step_record, step in zip(record["steps"], rep.derivation.steps):
            path, _, line = step.note.rpartition(":")
            step_record["file"], step_record["line"] = path, int(line)
    read, total = check.document.read_fraction()
    document["summary"]["ok"] = document["summary"]["ok"] and not check.unread
    document["tex"] = {
        "file": check.document.path, "displays": len(check.document.displays),
        "lines": total, "lines_read": read,
        "rows": [{"line": r.row.line, "last_line": r.row.last_line, "mark": row_mark(r),
                  "steps": len(r.results)} for r in check.rows],
        "not_read": [{"line": r.problem.line, "column": r.problem.column,
                      "message": r.problem.message} for r in check.unread],
        "notes": [{"line": n.line, "column": n.column, "message": n.message}
                  for n in check.document.notes],
    }
    return json.dumps(document, indent=2)


# --------------------------------------------------------------------------- annotation

_PREAMBLE = r"""% --- added by symdp check-tex: the margin marks ---
\usepackage{amsmath}
\usepackage{xcolor}
\providecommand{\symdpmark}[3]{\text{\normalfont\footnotesize\textcolor{#1}{#2}\,\textsf{L#3}}}
\providecommand{\symdpholds}[1]{\symdpmark{green!50!black}{$\surd$}{#1}}
\providecommand{\symdpevidence}[1]{\symdpmark{orange!80!black}{$\sim$}{#1}}
\providecommand{\symdprefuted}[1]{\symdpmark{red!80!black}{$\times$}{#1}}
\providecommand{\symdpunread}[1]{\symdpmark{gray}{?}{#1}}
\providecommand{\symdpnoted}[1]{\symdpmark{gray}{:=}{#1}}
% --- end of symdp's additions ---
"""

_TEX_SPECIALS = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                 "#": r"\#", "_": r"\_", "%": r"\%", "^": r"\^{}", "~": r"\~{}",
                 "<": r"\textless{}", ">": r"\textgreater{}"}


def _escape(text: str) -> str:
    """Plain text for LaTeX's text mode (every special character escaped)."""
    text = "".join(_TEX_SPECIALS.get(ch, ch) for ch in " ".join(text.split()))
    return "".join(ch if ch.isascii() and (ch.isprintable()) else "?" for ch in text)


def _note_text(row) -> str | None:
    mark = row_mark(row)
    if mark == "refuted":
        refuted = [r for r in row.step_results if r.counterexample is not None]
        what = _counterexample(refuted[0]) if refuted else "refuted"
        return f"symdp, line {row.row.line}: refuted; {what}"
    if mark == "unread":
        if row.row.skipped:
            return f"symdp, line {row.row.line}: skipped (% symdp: skip)"
        if row.problem is not None:
            return f"symdp, line {row.row.line}: not read: column {row.problem.column}: " \
                   f"{row.problem.message}"
        if not row.step_results:
            return f"symdp, line {row.row.line}: " + \
                ("not checked" if row.row.steps else "no step was read on this line")
        weakest = min(row.step_results, key=lambda r: r.verdict.strength)
        return f"symdp, line {row.row.line}: {weakest.verdict.value}: {weakest.detail}"
    return None


def _tag_insertion(text: str, row, mark_tex: str) -> list[tuple[int, int, str]]:
    """Edits ``(start, end, replacement)`` that put ``mark_tex`` on ``row``."""
    span_start = text.rfind("\\\\", 0, row.row.end)
    span_start = max(span_start, row.row.start)
    physical = text[span_start:row.row.end]
    if row.row.nested:
        inner = list(re.finditer(r"\\end\s*\{(split|aligned|gathered|alignedat)\}",
                                 text[row.row.start:row.row.end]))
        at = row.row.start + inner[-1].start() if inner else row.row.end
        return [(at, at, f"\\rlap{{\\quad{mark_tex}}}")]
    tag = re.search(r"\\tag\*?\s*\{", physical)
    if tag:
        depth, j = 0, span_start + tag.end() - 1
        while j < len(text):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        return [(j, j, f"\\ {mark_tex}")]
    if row.row.numbered:
        return [(row.row.end, row.row.end,
                 f"\\stepcounter{{equation}}\\tag{{\\theequation\\ {mark_tex}}}")]
    if row.display.environment == "$$":  # plain TeX's display: \eqno, not amsmath's \tag
        return [(row.row.end, row.row.end, f"\\eqno{{{mark_tex}}}")]
    return [(row.row.end, row.row.end, f"\\tag*{{{mark_tex}}}")]


def annotate(check: TexCheck) -> str:
    """The annotated copy of the document (see the module docstring)."""
    text = check.document.text
    edits = []
    notes_after: dict[int, list[str]] = {}
    for row in check.rows:
        mark = row_mark(row)
        note = _note_text(row)
        mark_tex = f"{MARK_COMMANDS[mark]}{{{row.row.line}}}"
        if note is not None:
            mark_tex += "\\footnotemark"
            display_end = _display_end(text, row.row.end)
            notes_after.setdefault(display_end, []).append(_escape(note))
        edits += _tag_insertion(text, row, mark_tex)
    for end, notes in notes_after.items():
        tex = f"\\addtocounter{{footnote}}{{-{len(notes) - 1}}}" if len(notes) > 1 else ""
        tex += "\\stepcounter{footnote}".join(f"\\footnotetext{{{n}}}" for n in notes)
        edits.append((end, end, tex))
    begin = check.document.begin_document
    if begin is not None:
        edits.append((begin, begin, _PREAMBLE))
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + replacement + text[end:]
    if begin is None:  # a fragment: make it a document
        text = "\\documentclass{article}\n" + _PREAMBLE + "\\begin{document}\n" + text + \
            "\n\\end{document}\n"
    # deny by default: only what symdp.report.tex_safe allows runs when the copy is compiled
    return finish(*neutralise(text))


def _display_end(text: str, offset: int) -> int:
    """The offset just after the display that contains ``offset``."""
    match = re.compile(r"\\end\s*\{(align|gather|equation|eqnarray|multline|flalign|alignat|"
                       r"displaymath|dmath)\*?\}|\\\]|\$\$")
    found = match.search(text, offset)
    return found.end() if found else len(text)
