r"""A LaTeX document of the checked derivations (``symdp report``).

=========================  ===========================================================
:func:`write_report`       check ``proofs/``, draw the figures, write ``.tex`` (``.pdf``)
:func:`document_latex`     the whole document from check reports
:func:`derivation_section` one derivation: statement, hypotheses, steps, verdicts
:func:`text`               escape running text (specials and non-ASCII characters)
:func:`compile_pdf`        ``pdflatex`` twice, first LaTeX error on failure
=========================  ===========================================================

The document needs amsmath, amssymb, graphicx, geometry and booktabs: TeX Live's
``texlive-latex-base`` and ``texlive-latex-recommended`` (Debian) are enough.
"""

from .build import ReportOutput, ReportOutputError, write_report
from .document import Figure, derivation_section, document_latex, findings_section
from .latex import identifier, split_sum, step_display, text, visible_width
from .pdf import (LatexCompileError, PdfLatexNotFoundError, compile_pdf, first_latex_error,
                  pdflatex_path, require_pdflatex)

__all__ = ["write_report", "ReportOutput", "ReportOutputError", "document_latex",
           "derivation_section", "findings_section", "Figure", "text", "identifier",
           "split_sum", "step_display", "visible_width", "compile_pdf", "first_latex_error",
           "pdflatex_path", "require_pdflatex", "LatexCompileError", "PdfLatexNotFoundError"]
