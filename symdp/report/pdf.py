"""Compiling a LaTeX file with ``pdflatex`` (TeX Live), honestly.

``pdflatex`` runs with ``-interaction=nonstopmode -halt-on-error -no-shell-escape`` in the
directory of the file (a scratch directory made for the build), with kpathsea's paranoid
file access (``openin_any=p``, ``openout_any=p``: no absolute paths, no ``..``, no dot
files), twice when the first run asks for a rerun (table of contents, references), within
:data:`TIMEOUT_SECONDS` for all runs together (stated when hit; pdflatex is stopped).  A
failure raises :class:`LatexCompileError` carrying the first LaTeX error of the log
(the ``! ...`` line and the ``l.N`` line that follows it) and the log's path; a missing
``pdflatex`` raises :class:`PdfLatexNotFoundError`.  Nothing is hidden or retried.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from ..core.errors import SymdpError

__all__ = ["PdfLatexNotFoundError", "LatexCompileError", "compile_pdf", "first_latex_error",
           "pdflatex_path", "require_pdflatex"]

#: seconds all pdflatex runs of one document may take together (the report of every proof
#: in proofs/ compiles in a few seconds)
TIMEOUT_SECONDS = 120


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


def _environment() -> dict:
    """pdflatex's environment: no shell escape, reading and writing only below the build
    directory (kpathsea's paranoid mode)."""
    env = dict(os.environ)
    env.update(openin_any="p", openout_any="p", shell_escape="f")
    return env


def compile_pdf(tex: Path, *, runs: int = 2, timeout: float = TIMEOUT_SECONDS) -> Path:
    """Compile ``tex`` with pdflatex in its directory; return the PDF's path.

    Runs once more (up to ``runs`` in all) while the log asks to rerun; all runs together
    may take ``timeout`` seconds.  Raises :class:`PdfLatexNotFoundError` or
    :class:`LatexCompileError` (also when the time limit is hit).
    """
    exe = require_pdflatex()
    tex = Path(tex).resolve()
    log = tex.with_suffix(".log")
    pdf = tex.with_suffix(".pdf")
    deadline = time.monotonic() + timeout
    for run in range(runs):
        try:
            proc = subprocess.run(
                [exe, "-interaction=nonstopmode", "-halt-on-error", "-no-file-line-error",
                 "-no-shell-escape", tex.name],
                cwd=tex.parent, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, env=_environment(),
                timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:  # subprocess.run has killed pdflatex
            raise LatexCompileError(f"pdflatex did not finish within the time limit of "
                                    f"{timeout:g} s; stopped", log if log.exists() else None) \
                from None
        log_text = log.read_text(errors="replace") if log.exists() else \
            proc.stdout.decode(errors="replace")
        if proc.returncode != 0 or not pdf.exists():
            raise LatexCompileError(first_latex_error(log_text), log if log.exists() else None)
        # the first run of a document with a table of contents finds no .toc yet
        if "Rerun to get" not in log_text and "No file" not in log_text:
            break
    return pdf
