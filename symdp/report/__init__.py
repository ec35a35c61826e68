r"""A LaTeX document of the checked derivations (``symdp report``).

=========================  ===========================================================
:func:`write_report`       check ``proofs/``, draw the figures, write ``.tex`` (``.pdf``)
:func:`write_report_from_json` the same from a ``symdp check --json`` file (no re-check)
:func:`load_check_json`    read and validate such a file as :class:`ReportView` records
:func:`document_latex`     the whole document from check reports
:func:`derivation_section` one derivation: statement, hypotheses, steps, verdicts
:func:`text`               escape running text (specials and non-ASCII characters)
:func:`compile_pdf`        ``pdflatex`` twice, first LaTeX error on failure
=========================  ===========================================================

The document needs amsmath, amssymb, graphicx, geometry and booktabs: TeX Live's
``texlive-latex-base`` and ``texlive-latex-recommended`` (Debian) are enough.
"""

from .build import ReportOutput, ReportOutputError, write_report, write_report_from_json
from .from_json import CheckJson, ReportInputError, load_check_json, parse_check_json
from .views import DerivationView, ReportView, StepView, view_of_derivation, view_of_report
from .document import Figure, derivation_section, document_latex, findings_section
from .latex import identifier, split_sum, step_display, text, visible_width
from .pdf import (LatexCompileError, PdfLatexNotFoundError, compile_pdf, first_latex_error,
                  pdflatex_path, require_pdflatex)

__all__ = ["write_report", "ReportOutput", "ReportOutputError", "document_latex",
           "derivation_section", "findings_section", "Figure", "text", "identifier",
           "split_sum", "step_display", "visible_width", "compile_pdf", "first_latex_error",
           "pdflatex_path", "require_pdflatex", "LatexCompileError", "PdfLatexNotFoundError",
           "write_report_from_json", "load_check_json", "parse_check_json", "CheckJson",
           "ReportInputError", "ReportView", "DerivationView", "StepView",
           "view_of_derivation", "view_of_report"]
