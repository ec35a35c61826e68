"""``write_report``: check the derivations, draw the figures, write (and compile) the document.

:func:`write_report_from_json` does the same from a ``symdp check --json`` file, without
checking again.

Everything is built in a temporary directory inside the output directory and moved into
place only when complete, so an interrupted or failed run never leaves a file that looks
finished.  When ``pdflatex`` fails, the build is kept as ``<name>-failed/`` (the ``.tex``
and the log) and :class:`~symdp.report.pdf.LatexCompileError` names the first LaTeX error
and the log's path.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import SymdpError
from ..proof.check import DEFAULT_DPS
from ..proof.loader import load_derivations
from ..proof.runner import check_all
from .document import Figure, document_latex
from .views import ReportView
from .pdf import LatexCompileError, compile_pdf, require_pdflatex

__all__ = ["ReportOutput", "ReportOutputError", "write_report", "write_report_from_json"]

DEFAULT_NAME = "symdp-report"


class ReportOutputError(SymdpError, ValueError):
    """The output directory cannot be created or written."""


@dataclass(frozen=True)
class ReportOutput:
    """What :func:`write_report` wrote, and what the checks found."""

    tex: Path
    pdf: Path | None
    figures: tuple
    reports: tuple
    errors: tuple
    pages: int | None = None

    @property
    def ok(self) -> bool:
        """Every verdict matches its expectation and every proof file loaded."""
        return all(r.ok for r in self.reports) and not self.errors


def _prepare(out_dir) -> tuple[Path, Path]:
    from ..core.files import output_directory

    out = output_directory("out_dir", out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{DEFAULT_NAME}-", dir=out))
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ReportOutputError(f"cannot write to output directory {str(out)!r}: {reason}") from None
    return out, tmp


def _pages(log: Path) -> int | None:
    if not log.exists():
        return None
    m = re.search(r"Output written on .*?\((\d+) pages?", log.read_text(errors="replace"),
                  re.S)
    return int(m.group(1)) if m else None


def write_report(out_dir, *, paths=None, only=None, dps=DEFAULT_DPS, pdf: bool = False,
                 figures: bool = True, check: bool = True, progress=None,
                 name: str = DEFAULT_NAME, title: str = "symdp: checked derivations",
                 jobs: int | None = None) -> ReportOutput:
    """Write ``<out_dir>/<name>.tex`` (and ``.pdf`` with ``pdf=True``) and ``figures/``.

    ``paths`` are proof files or directories (default: ``proofs/``); ``only`` restricts to
    derivation ids; ``dps`` are the two precisions of the numeric stage; ``check=False``
    writes the layout without verdicts.  The check is :func:`symdp.proof.runner.check_all`
    (as ``symdp check``): ``jobs`` worker processes, one proof file at a time each (default
    one per available core); ``progress(done, total, file name)`` is called as each file
    finishes.  Raises :class:`ReportOutputError` (unwritable output),
    :class:`PdfLatexNotFoundError` (``pdf=True`` without pdflatex, raised before any
    work), :class:`LatexCompileError` (pdflatex failed) and ``ValueError`` (unknown id).
    """
    if pdf:
        require_pdflatex()  # before any work
    out, tmp = _prepare(out_dir)
    try:
        reports, loaded = [], []
        if check:
            run = check_all(paths or None, jobs=jobs, only=only, dps=dps, progress=progress)
            errors = list(run.errors)
            reports = [replace(r, source=_display_path(r.source)) for r in run.reports]
        else:
            loaded, errors = load_derivations(paths or None)
            if only:
                known = {d.id for _, d in loaded}
                unknown = [i for i in only if i not in known]
                if unknown:
                    raise ValueError(f"unknown derivation id {unknown[0]!r}")
                loaded = [(src, d) for src, d in loaded if d.id in only]
            loaded = [(_display_path(src), d) for src, d in loaded]
        return _finish(out, tmp, reports if check else loaded, errors, pdf=pdf,
                       figures=figures, name=name, title=title,
                       dps=tuple(sorted(dps)) if check else None, checked=check)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def write_report_from_json(out_dir, json_path, *, only=None, pdf: bool = False,
                           figures: bool = True, name: str = DEFAULT_NAME,
                           title: str = "symdp: checked derivations") -> ReportOutput:
    """:func:`write_report` from a ``symdp check --json`` file instead of checking again.

    The file is read and validated first (:class:`~symdp.report.from_json.ReportInputError`
    names the file and the first problem: not JSON, another schema, a missing field);
    ``only`` restricts to derivation ids.  ``ReportOutput.reports`` are then
    :class:`~symdp.report.views.ReportView` records.  Same errors and guarantees otherwise.
    """
    from .from_json import load_check_json

    if pdf:
        require_pdflatex()  # before any work
    data = load_check_json(json_path)  # before touching the output directory
    reports = [ReportView(r.derivation, r.steps, _display_path(r.source) if r.source else "",
                          r.conclusion_verdict) for r in data.reports]
    if only:
        known = {r.derivation.id for r in reports}
        unknown = [i for i in only if i not in known]
        if unknown:
            raise ValueError(f"unknown derivation id {unknown[0]!r} in {str(json_path)!r}")
        reports = [r for r in reports if r.derivation.id in only]
    out, tmp = _prepare(out_dir)
    try:
        return _finish(out, tmp, reports, data.errors, pdf=pdf, figures=figures, name=name,
                       title=title, dps=data.dps, checked=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _finish(out: Path, tmp: Path, reports, errors, *, pdf, figures, name, title, dps,
            checked) -> ReportOutput:
    """Figures, the document, the PDF: all in ``tmp``, moved into ``out`` when complete."""
    figure_records, notes = [], []
    if figures:
        figure_records, notes = _figures(tmp / "figures")
    source = document_latex(reports, errors, figures=figure_records, title=title, dps=dps,
                            checked=checked, notes=notes)
    tex = tmp / f"{name}.tex"
    _write(tex, source, out)
    pages = None
    if pdf:
        try:
            compile_pdf(tex)
        except LatexCompileError as exc:
            failed = out / f"{name}-failed"
            shutil.rmtree(failed, ignore_errors=True)
            os.replace(tmp, failed)
            log = failed / f"{name}.log"
            raise LatexCompileError(exc.first_error, log if log.exists() else None) from None
        pages = _pages(tmp / f"{name}.log")
    # complete: move into place (figures first, the document last)
    moved_figures = []
    try:
        if figure_records:
            (out / "figures").mkdir(exist_ok=True)
            for f in sorted((tmp / "figures").iterdir()):
                target = out / "figures" / f.name
                os.replace(f, target)
                moved_figures.append(target)
        final_pdf = None
        stale = out / f"{name}.pdf"
        if not pdf and stale.exists():  # a PDF of an earlier document would not match the .tex
            stale.unlink()
        os.replace(tex, out / tex.name)
        if pdf:
            final_pdf = out / f"{name}.pdf"
            os.replace(tmp / f"{name}.pdf", final_pdf)
    except OSError as exc:
        raise ReportOutputError(f"cannot write to output directory {str(out)!r}: "
                                f"{exc.strerror or type(exc).__name__}") from None
    shutil.rmtree(out / f"{name}-failed", ignore_errors=True)
    return ReportOutput(out / tex.name, final_pdf, tuple(moved_figures),
                        tuple(reports) if checked else (), tuple(errors), pages)


def _write(path: Path, text: str, out: Path) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ReportOutputError(f"cannot write to output directory {str(out)!r}: "
                                f"{exc.strerror or type(exc).__name__}") from None


def _display_path(path: str) -> str:
    """A proof file's path relative to the working directory when it lies below it (so the
    document does not depend on where the checkout is), else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _figures(directory: Path) -> tuple[list, list]:
    """The report's figures (PDF for the document, PNG beside it), or a note why none."""
    try:
        from ..plotting import report_figures
    except ImportError as exc:  # pragma: no cover - depends on the environment
        return [], [f"Figures omitted: {exc}."]
    try:
        made = report_figures(directory)
    except ImportError as exc:  # matplotlib missing
        return [], [f"Figures omitted: {exc}."]
    return [Figure(f"figures/{stem}.pdf", caption) for stem, caption in made], []
