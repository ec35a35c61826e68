r"""The IPython cell magic ``%%symdp_check``: check the LaTeX of a cell, show the verdicts.

Load it with ``%load_ext symdp.report.notebook``, then paste a chain from a draft::

    %%symdp_check assume 0 <= p <= 1, eps >= 0; integer n; n >= 1
    \begin{align*}
    (1 + p)^n &\ge 1 + n p \\
              &\ge 1
    \end{align*}

The line after ``%%symdp_check`` is a hypothesis comment without its ``% symdp:`` (the same
syntax, docs/check-tex.md); ``% symdp:`` comments inside the cell work as in a file.  A cell
without a display environment is read as the rows of an ``align*``.  The result is a table
(HTML in the notebook, text elsewhere) of every line with its verdict, scope and
counterexample -- the checks of ``symdp check-tex`` (:mod:`symdp.report.tex_check`).
"""

from __future__ import annotations

import html
import re
import sys

from ..core.errors import InvalidParameterError, SymdpError
from ..core.validation import shown
from .tex_check import TexCheck, check_document, row_mark
from .tex_output import row_verdict, tex_text_report

__all__ = ["load_ipython_extension", "check_cell", "VerdictTable"]

_DISPLAY = re.compile(r"\\begin\s*\{|\\\[")
_SYMBOL = {"holds": "✓", "evidence": "~", "refuted": "✗", "unread": "?", "noted": ":="}


class VerdictTable:
    """The verdicts of a checked cell: ``_repr_html_`` for the notebook, ``str`` as text."""

    def __init__(self, check: TexCheck):
        self.check = check

    def rows(self) -> list[dict]:
        """One record per row: line, mark, LaTeX, verdict and the detail the text table
        shows (the reason of an UNDECIDED, the counterexample of a REFUTED, ...)."""
        out = []
        for row in self.check.rows:
            verdict, detail = row_verdict(row)
            out.append({"line": row.row.line, "mark": _SYMBOL[row_mark(row)], "verdict": verdict,
                        "formula": " ".join(row.row.text.split()), "detail": detail})
        return out

    def _repr_html_(self) -> str:
        cells = "".join(
            "<tr><td>{line}</td><td>{mark}</td><td><code>{formula}</code></td>"
            "<td>{verdict}</td><td>{detail}</td></tr>".format(
                **{k: html.escape(str(v)) for k, v in row.items()}) for row in self.rows())
        return ("<table class='symdp-check'><thead><tr><th>line</th><th></th><th>LaTeX</th>"
                "<th>verdict</th><th>detail / counterexample</th></tr></thead>"
                f"<tbody>{cells}</tbody></table>")

    def __repr__(self) -> str:
        return tex_text_report(self.check)


#: the options :func:`check_cell` passes on to :func:`~symdp.report.tex_check.check_document`
CELL_OPTIONS = ("dps", "certify", "points", "symbolic_work", "lines", "progress", "timeout")


def check_cell(line: str, cell: str, **options) -> VerdictTable:
    """What ``%%symdp_check LINE`` does with ``cell`` (``options`` go to
    :func:`~symdp.report.tex_check.check_document`).  A wrong argument is an
    :class:`~symdp.core.errors.InvalidParameterError` naming it, before any work."""
    from ..parsing.document import MAX_DOCUMENT_CHARS, read_tex

    if not isinstance(line, str) or "\n" in line or "\r" in line or len(line) > 10_000:
        raise InvalidParameterError(f"line (the text after %%symdp_check) must be one line of "
                                    f"hypotheses; got line={shown(line)}")
    if not isinstance(cell, str) or len(cell) > MAX_DOCUMENT_CHARS:
        raise InvalidParameterError(f"cell must be the LaTeX of the cell, at most "
                                    f"{MAX_DOCUMENT_CHARS} characters; got cell={shown(cell)}")
    unknown = sorted(set(options) - set(CELL_OPTIONS))
    if unknown:
        raise InvalidParameterError(f"check_cell takes the options {', '.join(CELL_OPTIONS)}; "
                                    f"got {', '.join(unknown)}")
    text = cell if _DISPLAY.search(cell) else "\\begin{align*}\n" + cell + "\n\\end{align*}"
    if line.strip():
        text = f"% symdp: {line.strip()}\n" + text
    return VerdictTable(check_document(read_tex(text, "<cell>"), **options))


def load_ipython_extension(ipython) -> None:
    """``%load_ext symdp.report.notebook`` registers ``%%symdp_check``.  Bad input (an
    unreadable hypothesis line, a cell too long) is one line on stderr, not a traceback."""

    def symdp_check(line, cell):
        try:
            return check_cell(line, cell)
        except SymdpError as error:
            sys.stderr.write(f"symdp: error: {error}\n")
            return None

    symdp_check.__doc__ = check_cell.__doc__
    ipython.register_magic_function(symdp_check, magic_kind="cell", magic_name="symdp_check")
