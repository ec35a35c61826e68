r"""``symdp check-tex --annotate``: the annotated copy compiles with pdflatex and its margin
marks are in the PDF (pdftotext).  Skipped with the reason when pdflatex is not installed
(CI's step 2 installs TeX Live and runs these: ``-k report`` selects them).

The marks carry the source line (``L12``); a refuted line's footnote gives its
counterexample.  The expected marks come from the mathematics of the test document:
e^eps >= 1 + eps holds, e^eps >= 2 is refuted at eps = 0, and a line with \approx is not
read.
"""

import shutil
import subprocess

import pytest

from symdp.cli.main import main

DOC = r"""\documentclass{article}
\usepackage{amsmath}
\newcommand{\eps}{\varepsilon}
% symdp: assume eps >= 0
\input{nothing-to-read}
\begin{document}
\begin{align}
e^{\eps} &\ge 1 + \eps \label{eq:one} \\
  &\ge 2 \\
  &\approx 3
\end{align}
Equation \eqref{eq:one}.
\begin{equation}
\begin{split}
(1 + \eps)^2 &= 1 + 2\eps + \eps^2 \\
  &\ge 1
\end{split}
\end{equation}
\[ \eps \ge 0 \]
\end{document}
"""

needs_tex = pytest.mark.skipif(shutil.which("pdflatex") is None or
                               shutil.which("pdftotext") is None,
                               reason="pdflatex and pdftotext are not installed (CI step 2 "
                                      "installs TeX Live)")


@needs_tex
def test_report_annotated_copy_compiles_and_shows_the_marks(tmp_path, capsys):
    from symdp.report.pdf import compile_pdf

    source = tmp_path / "doc.tex"
    source.write_text(DOC)
    out = tmp_path / "annotated.tex"
    assert main(["check-tex", str(source), "--no-certify", "--annotate", str(out)]) == 1
    capsys.readouterr()
    annotated = out.read_text()
    # deny by default (symdp.report.tex_safe): \input is renamed and prints itself
    assert "\\symdpUinput{nothing-to-read}" in annotated and "\\input{" not in annotated
    pdf = compile_pdf(out)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    for line in (8, 9, 10, 15, 16, 19):
        assert f"L{line}" in text, (line, text)
    assert "√" in text and "×" in text and "?" in text
    assert "line 9: refuted; counterexample: varepsilon=0" in " ".join(text.split())
    assert "line 10: not read" in " ".join(text.split())
    # the rows keep their equation numbers: (1) (2) (3) in the align, (4) for the equation
    for number in ("(1", "(2", "(3", "(4)"):
        assert number in text


NEW_DISPLAYS = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
$$ a + a = 2a $$
\begin{displaymath} b \le b + 1 \end{displaymath}
\[ c := 2 \]
\end{document}
"""


@needs_tex
def test_dollar_displays_displaymath_and_definitions_are_marked_and_compile(tmp_path, capsys):
    from symdp.report.pdf import compile_pdf

    source = tmp_path / "doc.tex"
    source.write_text(NEW_DISPLAYS)
    out = tmp_path / "annotated.tex"
    assert main(["check-tex", str(source), "--no-certify", "--annotate", str(out)]) == 0
    capsys.readouterr()
    assert "\\eqno{\\symdpholds{4}}" in out.read_text()  # $$: plain TeX's \eqno
    text = subprocess.run(["pdftotext", "-layout", str(compile_pdf(out)), "-"],
                          capture_output=True, text=True, check=True).stdout
    for line in (4, 5, 6):
        assert f"L{line}" in text, (line, text)
    assert ":=" in text
