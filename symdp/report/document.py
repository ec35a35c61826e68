r"""The LaTeX document of a ``symdp report``: every derivation, its verdicts, the findings.

Layout (``article``, amsmath, ``\allowdisplaybreaks``):

1. a summary: derivations, steps, verdict counts, findings, mismatches, files that failed
   to load;
2. **Findings** -- the claims as printed that the checks refute, each with its
   counterexample and whether it still reproduces;
3. **Derivations** -- one subsection each: statement, source, hypotheses, what it
   concludes, then every step (formula in ``align*``, rule, verdict, stage, detail, and
   the counterexample of a refutation);
4. **Figures**, when given.

Everything is deterministic: no dates, no timings.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import DerivationError
from ..proof.verdict import Verdict
from .check_output import summary, summary_line
from .latex import PREAMBLE_MACROS, identifier, step_display_latex, text
from .views import DerivationView, ReportView, view_of_derivation, view_of_report

__all__ = ["Figure", "document_latex", "derivation_section", "findings_section",
           "summary_section", "PREAMBLE"]

PREAMBLE = r"""\documentclass[11pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{graphicx}
\usepackage{booktabs}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex}
\sloppy
""" + PREAMBLE_MACROS + "\n"

_VERDICT_WORD = {v: text(v.value) for v in Verdict}  # CHECKED\_AT\_POINTS: escaped


@dataclass(frozen=True)
class Figure:
    """A figure of the report: a file name relative to the document, and its caption (LaTeX,
    written by symdp itself -- not escaped)."""

    path: str
    caption: str


def _counterexample(cx) -> str:
    if cx is None:
        return ""
    point = ", ".join(f"{text(k)} = {text(v)}" for k, v in cx.point.items()) or \
        "every point (no free parameters)"
    how = "exact" if cx.exact else "decimal"
    return (r"\textbf{Counterexample} (%s): at %s: lhs $=$ %s, rhs $=$ %s, "
            r"lhs $-$ rhs $=$ %s." % (how, point, text(cx.lhs), text(cx.rhs), text(cx.difference)))


def _verdict(result) -> str:
    """The verdict, its unproved hypotheses if any, and its scope in words."""
    word = r"\textbf{%s}" % _VERDICT_WORD[result.verdict]
    if result.hypotheses and result.verdict.supports:
        word += r" \textbf{under:} " + "; ".join(text(h) for h in result.hypotheses)
    if result.is_finding:
        word += " (recorded finding" + ("" if result.matches_expectation else
                                        r", \textbf{no longer reproduces}") + ")"
    elif not result.matches_expectation:
        expected = result.expected.value if result.expected else "to hold"
        word += r" \textbf{--- MISMATCH: expected %s}" % text(expected)
    return word + r" --- \emph{%s}" % text(result.scope)


def _hypotheses(d: DerivationView) -> str:
    if not d.hypotheses_latex:
        return "none"
    return ", ".join(f"${p}$" for p in d.hypotheses_latex)


def _typeset(obj, build):
    """``build()``, a formula that SymPy cannot print raising :class:`DerivationError`
    naming the derivation ``obj`` (never a half-written section)."""
    try:
        return build()
    except DerivationError:
        raise
    except Exception as exc:  # noqa: BLE001 - re-raised with the derivation's name
        message = str(exc).splitlines()[0] if str(exc) else ""
        ident = getattr(obj, "id", None) or getattr(getattr(obj, "derivation", None), "id", "?")
        raise DerivationError(f"cannot typeset derivation {ident}: "
                              f"{type(exc).__name__}: {message}") from exc


def _step_rows(step, show_lhs: bool = True, side: bool = True) -> str:
    return step_display_latex(step.lhs_latex if show_lhs else "", step.relation,
                              step.rhs_latex, step.rhs_terms,
                              step.side_conditions_latex if side else ())


def derivation_section(derivation, results=None, source: str = "") -> str:
    """One derivation as a ``\\subsection``; ``results`` (one StepResult per step) adds verdicts.

    ``derivation`` is a :class:`~symdp.proof.derivation.Derivation`, a
    :class:`~symdp.report.views.DerivationView` or a
    :class:`~symdp.report.views.ReportView` (which carries its results and source).  A
    formula that SymPy cannot print raises :class:`~symdp.core.errors.DerivationError` naming
    the derivation (never a half-written section)."""
    if isinstance(derivation, ReportView):
        return _derivation_section(derivation)
    view = derivation if isinstance(derivation, DerivationView) else \
        _typeset(derivation, lambda: view_of_derivation(derivation))
    verdict = None
    if results is not None:
        if isinstance(derivation, DerivationView):
            raise TypeError("give a ReportView (with its conclusion verdict) to show results")
        from ..proof.check import DerivationReport  # the chain's verdict, as symdp check computes it

        verdict = DerivationReport(derivation, tuple(results)).conclusion_verdict
    return _derivation_section(ReportView(view, None if results is None else tuple(results),
                                          source, verdict))


def _derivation_section(rep: ReportView) -> str:
    d, results, source = rep.derivation, rep.steps, rep.source
    lines = [r"\subsection{%s}" % identifier(d.id)]
    lines.append(text(d.statement))
    lines.append("")
    lines.append(r"\textit{Source:} %s\\" % text(d.citation))
    if source:
        lines.append(r"\textit{File:} \texttt{%s}\\" % identifier(source))
    lines.append(r"\textit{Hypotheses:} %s\\" % _hypotheses(d))
    if d.chained:
        first, last = d.steps[0], d.steps[-1]
        lines.append(r"\textit{Concludes:}")
        lines.append(r"\begin{align*}")
        lines.append(step_display_latex(first.lhs_latex, d.conclusion_relation, last.rhs_latex,
                                        last.rhs_terms))
        lines.append(r"\end{align*}")
    else:
        lines.append(r"\textit{Independent claims} (the steps do not chain).\\")
    if results is not None:
        lines.append(r"\textit{Verdict of the %s:} \textbf{%s} --- \emph{%s}" % (
            "chain" if d.chained else "claims", text(rep.conclusion_verdict.value),
            text(rep.conclusion_scope)))
    else:
        lines.append(r"\textit{Not checked} (layout only).")
    if d.notes:
        lines.append("")
        lines.append(r"\textit{Notes:} %s" % text(d.notes))
    lines.append("")
    for i, step in enumerate(d.steps):
        lines.append(r"\paragraph{Step %d.} %s" % (i + 1, text(step.rule) if step.rule else ""))
        show_lhs = i == 0 or not d.chained
        lines.append(r"\begin{align*}")
        lines.append(_step_rows(step, show_lhs=show_lhs))
        lines.append(r"\end{align*}")
        if step.note:
            lines.append(r"\textit{Note:} %s\\" % text(step.note))
        if results is not None:
            r = results[i]
            lines.append(r"Verdict: %s (stage: %s). %s" % (_verdict(r), text(r.stage),
                                                           text(r.detail)))
            if r.counterexample is not None:
                lines.append("")
                lines.append(_counterexample(r.counterexample))
        lines.append("")
    return "\n".join(lines)


def summary_counts(reports, errors=()) -> dict:
    """The counts of ``symdp check`` (:func:`symdp.report.check_output.summary`), verdicts
    keyed by :class:`Verdict`."""
    s = dict(summary(reports, errors))
    s["verdicts"] = {Verdict(v): n for v, n in s["verdicts"].items()}
    return s


def summary_section(reports, errors=(), *, dps=None) -> str:
    s = summary(reports, errors)
    rows = " \\\\\n".join(f"{text(v)} & {n}" for v, n in s["verdicts"].items())
    ok = s["mismatches"] == 0 and not errors
    lines = [r"\section*{Summary}",
             r"\textbf{%s.}" % text(summary_line(s)),
             "",
             f"{s['derivations']} derivations, {s['steps']} steps, {s['findings']} recorded "
             f"findings. "
             + (r"\textbf{Every verdict matches its expectation.}" if ok else
                r"\textbf{%d verdict(s) do not match their expectations; %d file(s) failed to "
                r"load.}" % (s["mismatches"], s["load_errors"])),
             ""]
    if dps is not None:
        lines.append(r"Numeric stage at %d and %d significant digits." % tuple(dps))
        lines.append("")
    lines += [r"\begin{tabular}{lr}", r"\toprule", r"verdict & steps \\", r"\midrule",
              rows + r" \\", r"\bottomrule", r"\end{tabular}", "",
              r"PROVED: symbolic, for every admissible value. "
              r"CERTIFIED: ball arithmetic over boxes covering the whole stated domain. "
              r"ENUMERATED: exact enumeration of a finite domain, enumerated whole. "
              r"ENUMERATED\_ON\_RANGE: exact enumeration of a finite range of an infinite "
              r"domain only --- evidence, not proof. "
              r"CHECKED\_AT\_POINTS: ball arithmetic at sampled points only --- evidence, not proof. "
              r"NUMERIC\_AT\_POINTS: agreement at two precisions at sampled points only --- evidence, not proof. "
              r"UNDECIDED: nothing could decide. "
              r"REFUTED: a concrete counterexample.", ""]
    mismatched = [(rep, i, r) for rep in reports for i, r in enumerate(rep.steps)
                  if not r.matches_expectation]
    if mismatched:
        lines.append(r"\paragraph{Verdicts that do not match their expectations.}")
        lines.append(r"\begin{itemize}")
        for rep, i, r in mismatched:
            expected = r.expected.value if r.expected else "to hold"
            lines.append(r"\item %s, step %d: %s, expected %s" % (
                identifier(rep.derivation.id), i + 1, text(r.label), text(expected)))
        lines.append(r"\end{itemize}")
    if errors:
        lines.append(r"\paragraph{Files that failed to load.}")
        lines.append(r"\begin{itemize}")
        for e in errors:
            lines.append(r"\item \texttt{%s}: %s" % (identifier(e.path), text(e.error)))
        lines.append(r"\end{itemize}")
    return "\n".join(lines)


def findings_section(reports) -> str:
    reports = [view_of_report(r) for r in reports]
    findings = [(rep, i, r) for rep in reports for i, r in enumerate(rep.steps) if r.is_finding]
    lines = [r"\section{Findings}",
             "Claims as printed in the sources that the checks do not confirm; each is recorded "
             "in its derivation with the verdict it is expected to get, so the report says "
             "whether it still reproduces.", ""]
    if not findings:
        lines.append("No findings are recorded.")
        return "\n".join(lines)
    lines.append(r"\begin{enumerate}")
    for rep, i, r in findings:
        step = rep.derivation.steps[i]
        status = "reproduced" if r.matches_expectation else r"\textbf{no longer reproduces}"
        lines.append(r"\item \textbf{%s}, step %d (%s, verdict %s): %s" % (
            identifier(rep.derivation.id), i + 1, status, text(r.verdict.value),
            text(step.note or step.rule)))
        lines.append(r"\begin{align*}")
        lines.append(_step_rows(step))
        lines.append(r"\end{align*}")
        if r.counterexample is not None:
            lines.append(_counterexample(r.counterexample))
        else:
            lines.append(text(r.detail))
    lines.append(r"\end{enumerate}")
    return "\n".join(lines)


def figures_section(figures) -> str:
    lines = [r"\section{Figures}"]
    for fig in figures:
        lines += [r"\begin{figure}[htbp]", r"\centering",
                  r"\includegraphics[width=\linewidth,height=0.4\textheight,"
                  r"keepaspectratio]{%s}" % fig.path.replace("\\", "/"),
                  r"\caption{%s}" % fig.caption, r"\end{figure}"]
    lines.append(r"\clearpage")
    return "\n".join(lines)


def document_latex(reports, errors=(), *, figures=(), title="symdp: checked derivations",
                   dps=None, checked: bool = True, notes=()) -> str:
    """The whole document.

    ``reports`` are :class:`~symdp.proof.check.DerivationReport` objects (from
    ``check_derivation``) or :class:`~symdp.report.views.ReportView` records (e.g. read
    from a ``symdp check --json`` file by :mod:`symdp.report.from_json`) or, with ``checked=False``, derivations or ``(source, derivation)``
    pairs as :func:`~symdp.proof.loader.load_derivations` returns them (a layout-only
    document without verdicts).  ``errors`` are the loader's ``LoadError`` records;
    ``figures`` are :class:`Figure` records; ``notes`` are extra lines of text for the
    summary (e.g. why figures are missing).
    """
    if checked:
        reports = [_typeset(r, lambda r=r: view_of_report(r)) for r in reports]
    else:
        views = []
        for rep in reports:
            source, derivation = rep if isinstance(rep, tuple) else ("", rep)
            if not isinstance(derivation, DerivationView):
                derivation = _typeset(derivation, lambda d=derivation: view_of_derivation(d))
            views.append(ReportView(derivation, None, source))
        reports = views
    parts = [PREAMBLE, r"\title{%s}" % text(title), r"\date{}", r"\begin{document}",
             r"\maketitle"]
    if checked:
        parts.append(summary_section(reports, errors, dps=dps))
    else:
        parts.append(r"\section*{Summary}")
        parts.append("%d derivations. \\textbf{Not checked}: this document shows the "
                     "derivations without verdicts (layout only)." % len(reports))
    for note in notes:
        parts.append("")
        parts.append(text(note))
    parts.append(r"\tableofcontents")
    if checked:
        parts.append(findings_section(reports))
    parts.append(r"\section{Derivations}")
    for rep in reports:
        parts.append(_derivation_section(rep))
    if figures:
        parts.append(figures_section(figures))
    parts.append(r"\end{document}")
    return "\n".join(parts) + "\n"
