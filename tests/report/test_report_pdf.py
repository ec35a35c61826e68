"""The report compiles with pdflatex; failures and bad inputs give one line and no partial files.

Tests that need pdflatex skip, with the reason, only when it is not on PATH.  CI installs
TeX Live (texlive-latex-base, texlive-latex-recommended) in ``.ci/run``.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from symdp.cli.main import main
from symdp.report import (LatexCompileError, PdfLatexNotFoundError, compile_pdf,
                          first_latex_error, write_report)

ROOT = Path(__file__).resolve().parents[2]
needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                    reason="pdflatex is not on PATH (install TeX Live: "
                                    "apt-get install texlive-latex-base texlive-latex-recommended)")

PROOF = '''
import sympy as sp
from symdp.proof import Derivation, Step, Verdict
x = sp.Symbol("x", real=True)
derivation = Derivation(
    "finding_with_text_50pc_and_more",
    "50% of #users & $cost_{x} ~ ^ \\\\ {a} <b> |c| ε ≤ δ",
    "Made-up & Co. 2024, Thm. #1",
    {x: sp.Interval(0, 1)},
    (Step(x ** 2, "<=", x, "x^2 <= x on [0, 1]"),
     Step(x, "<=", x ** 2, "as printed", expect=Verdict.REFUTED, note="a printed claim")),
    chained=False)
'''


@pytest.fixture
def proof_file(tmp_path):
    p = tmp_path / "proof_nasty.py"
    p.write_text(PROOF, encoding="utf-8")
    return p


@needs_pdflatex
def test_layout_and_the_figures_compile(tmp_path, monkeypatch):
    """The layout-only document (two proof files with long displays) and every figure go
    through pdflatex.  Every derivation of proofs/ (present and future), with its verdicts,
    is compiled once by tests/test_readme_examples.py (the README's symdp check --json and
    symdp report --from-json lines)."""
    monkeypatch.chdir(ROOT)
    files = ["proofs/drs_eq14_closed_form.py", "proofs/bagging_counts.py"]
    out = write_report(tmp_path / "out", paths=files, check=False, pdf=True)
    assert out.pdf.exists() and out.pdf.read_bytes().startswith(b"%PDF")
    assert out.pages and out.pages > 1
    assert {f.suffix for f in out.figures} == {".pdf", ".png"}
    tex = out.tex.read_text()
    from symdp.proof.loader import load_derivations

    loaded, errors = load_derivations(files)
    assert not errors and len(loaded) >= 2
    for _, d in loaded:
        assert d.id.replace("_", r"\_\allowbreak{}") in tex
    if shutil.which("pdftoppm"):  # render the first page (looked at by hand once)
        subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(out.pdf),
                        str(tmp_path / "page")], check=True)
        assert list(tmp_path.glob("page*.png"))


@needs_pdflatex
def test_checked_report_with_refutation_and_special_characters_compiles(tmp_path, proof_file,
                                                                         capsys):
    rc = main(["report", str(proof_file), "--out", str(tmp_path / "r"), "--pdf", "--no-figures",
               "--dps", "30"])
    assert rc == 0, capsys.readouterr().err
    tex = (tmp_path / "r" / "symdp-report.tex").read_text()
    assert r"50\% of \#users \& \$cost\_\{x\}" in tex
    assert r"\textbf{REFUTED}" in tex and r"\textbf{Counterexample}" in tex
    assert (tmp_path / "r" / "symdp-report.pdf").exists()
    assert not list((tmp_path / "r").glob(".symdp-report-*"))  # no temp dir left
    assert "wrote" in capsys.readouterr().out


@needs_pdflatex
def test_pdflatex_failure_gives_first_error_and_log_and_no_pdf(tmp_path, proof_file, capsys,
                                                               monkeypatch):
    import symdp.report.build as build

    real = build.document_latex
    monkeypatch.setattr(build, "document_latex",
                        lambda *a, **k: real(*a, **k).replace(r"\section{Derivations}",
                                                              r"\section{Derivations}\undefinedmacro"))
    out = tmp_path / "r"
    rc = main(["report", str(proof_file), "--out", str(out), "--pdf", "--no-figures",
               "--no-check"])
    err = capsys.readouterr().err
    assert rc == 1
    assert err.count("\n") == 1 and "Undefined control sequence" in err
    log = out / "symdp-report-failed" / "symdp-report.log"
    assert str(log) in err and log.exists()
    assert not (out / "symdp-report.pdf").exists() and not (out / "symdp-report.tex").exists()


@needs_pdflatex
def test_compile_pdf_reports_the_first_latex_error(tmp_path):
    tex = tmp_path / "bad.tex"
    tex.write_text("\\documentclass{article}\\begin{document}$x^{$\\end{document}\n")
    with pytest.raises(LatexCompileError) as info:
        compile_pdf(tex)
    assert info.value.log == tex.with_suffix(".log")
    assert "Missing" in info.value.first_error or "error" in info.value.first_error.lower()


def test_first_latex_error_reads_the_bang_line_and_its_context():
    log = "This is pdfTeX\n! Undefined control sequence.\nl.7 \\foo\n   \n! Later error.\n"
    assert first_latex_error(log) == "Undefined control sequence. (at l.7 \\foo)"
    assert "no error message" in first_latex_error("nothing here")


def test_missing_pdflatex_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch,
                                                               proof_file):
    import symdp.report.pdf as pdf

    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    out = tmp_path / "r"
    rc = main(["report", str(proof_file), "--out", str(out), "--pdf"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "pdflatex not found" in err
    assert not out.exists()
    with pytest.raises(PdfLatexNotFoundError):
        compile_pdf(tmp_path / "x.tex")


def test_unwritable_output_directory_is_one_line_exit_2(tmp_path, capsys, proof_file):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    rc = main(["report", str(proof_file), "--out", str(blocker / "sub"), "--no-check"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "cannot write to output directory" in err


def test_unknown_derivation_id_is_exit_2(tmp_path, capsys, proof_file):
    rc = main(["report", str(proof_file), "--out", str(tmp_path / "r"), "--only", "nope"])
    assert rc == 2 and "unknown derivation id 'nope'" in capsys.readouterr().err
    assert not list((tmp_path / "r").glob("*.tex"))


def test_a_mismatch_writes_the_document_and_exits_1(tmp_path, capsys):
    p = tmp_path / "wrong.py"
    p.write_text("import sympy as sp\nfrom symdp.proof import Derivation, Step\n"
                 "x = sp.Symbol('x', real=True)\n"
                 "derivation = Derivation('wrong_one', 'x <= x - 1', 'test', "
                 "{x: sp.Interval(0, 1)}, (Step(x, '<=', x - 1, 'wrong'),))\n")
    rc = main(["report", str(p), "--out", str(tmp_path / "r"), "--no-figures"])
    assert rc == 1
    assert "do NOT match" in capsys.readouterr().out
    assert "MISMATCH" in (tmp_path / "r" / "symdp-report.tex").read_text()


def test_rerun_without_pdf_removes_a_stale_pdf(tmp_path, proof_file):
    out = tmp_path / "r"
    out.mkdir()
    (out / "symdp-report.pdf").write_bytes(b"%PDF old")
    write_report(out, paths=[proof_file], check=False, figures=False)
    assert not (out / "symdp-report.pdf").exists()
    assert (out / "symdp-report.tex").exists()
