"""Compiling a LaTeX file with ``pdflatex`` (TeX Live), honestly.

``pdflatex`` runs with ``-interaction=nonstopmode -halt-on-error`` in the directory of the
file, twice when the first run asks for a rerun (table of contents, references).  A
failure raises :class:`LatexCompileError` carrying the first LaTeX error of the log
(the ``! ...`` line and the ``l.N`` line that follows it) and the log's path; a missing
``pdflatex`` raises :class:`PdfLatexNotFoundError`.  Nothing is hidden or retried.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..core.errors import SymdpError

__all__ = ["PdfLatexNotFoundError", "LatexCompileError", "compile_pdf", "first_latex_error",
           "pdflatex_path", "require_pdflatex"]

TIMEOUT_SECONDS = 300


class PdfLatexNotFoundError(SymdpError, FileNotFoundError):
    """``pdflatex`` is not on PATH."""


class LatexCompileError(SymdpError, RuntimeError):
    """``pdflatex`` failed; ``first_error`` is the first LaTeX error, ``log`` the log's path."""

    def __init__(self, first_error: str, log: Path | None):
        where = f" (log: {log})" if log else ""
        super().__init__(f"pdflatex failed: {first_error}{where}")
        self.first_error = first_error
        self.log = log


def pdflatex_path() -> str | None:
    """Where ``pdflatex`` is, or None."""
    return shutil.which("pdflatex")


def require_pdflatex() -> str:
    """The path of ``pdflatex``; raises :class:`PdfLatexNotFoundError` when it is absent."""
    exe = pdflatex_path()
    if exe is None:
        raise PdfLatexNotFoundError(
            "pdflatex not found on PATH: install TeX Live (Debian: apt-get install "
            "texlive-latex-base texlive-latex-recommended) or run without --pdf")
    return exe


def first_latex_error(log_text: str) -> str:
    """The first error of a LaTeX log as one line: ``! message`` and its ``l.N`` context."""
    lines = log_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("!"):
            message = line[1:].strip()
            # a long message is wrapped over the next lines until an empty one or "l.N"
            for follow in lines[i + 1:i + 12]:
                if follow.startswith("l."):
                    return f"{message} (at {follow.strip()})"
            return message
    for line in lines:
        if "Fatal error" in line or "Emergency stop" in line:
            return line.strip()
    return "no error message in the log (pdflatex exited with an error)"


def compile_pdf(tex: Path, *, runs: int = 2) -> Path:
    """Compile ``tex`` with pdflatex in its directory; return the PDF's path.

    Runs once more (up to ``runs`` in all) while the log asks to rerun.  Raises
    :class:`PdfLatexNotFoundError` or :class:`LatexCompileError`.
    """
    exe = require_pdflatex()
    tex = Path(tex).resolve()
    log = tex.with_suffix(".log")
    pdf = tex.with_suffix(".pdf")
    for run in range(runs):
        try:
            proc = subprocess.run(
                [exe, "-interaction=nonstopmode", "-halt-on-error", "-no-file-line-error",
                 tex.name],
                cwd=tex.parent, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            raise LatexCompileError(f"pdflatex did not finish in {TIMEOUT_SECONDS} s",
                                    log if log.exists() else None) from None
        log_text = log.read_text(errors="replace") if log.exists() else \
            proc.stdout.decode(errors="replace")
        if proc.returncode != 0 or not pdf.exists():
            raise LatexCompileError(first_latex_error(log_text), log if log.exists() else None)
        # the first run of a document with a table of contents finds no .toc yet
        if "Rerun to get" not in log_text and "No file" not in log_text:
            break
    return pdf
