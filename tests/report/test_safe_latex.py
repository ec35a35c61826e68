r"""``symdp report --from-json`` treats the file as untrusted input (issue #14).

* a formula field holding LaTeX that symdp never writes (``\input{/etc/passwd}``, ``\write18``,
  ``\catcode``, ``^^5c``, ...) is refused: one line naming the field, exit 2, nothing written;
* the LaTeX symdp does write passes (the fields of real proof files, Piecewise's ``cases``);
* a device (``/dev/zero``), a FIFO, a file over the size limit or nested too deeply: one
  line, exit 2, without reading forever or a RecursionError;
* pdflatex runs without shell escape, with paranoid file access, within a stated time limit
  (a stand-in ``pdflatex`` on PATH records how it was called; no TeX needed).
"""

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import sympy as sp

from symdp.cli.main import main
from symdp.proof import Derivation, Step
from symdp.proof.check import check_derivation
from symdp.proof.loader import load_file
from symdp.report.check_output import json_report
from symdp.report import from_json
from symdp.report.safe_latex import UnsafeLatexError, check_formula_latex
from symdp.report.views import view_of_derivation

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def report_json():
    """A genuine ``symdp check --json`` document (two steps, one with Piecewise)."""
    x = sp.Symbol("x")
    d = Derivation("untrusted_fixture", "a Piecewise bound", "test", {x: sp.Interval(0, 1)},
                   (Step(sp.Piecewise((x, x < sp.Rational(1, 2)), (1 - x, True)), "<=",
                         sp.Rational(1, 2), "both pieces", side_conditions=(sp.Le(x, 1),)),
                    Step(x ** 2, "<=", x + x ** 2 / 2 + x ** 3 / 3, "sum")),
                   chained=False)
    report = check_derivation(d, dps=(30, 60))
    return json.loads(json_report([report], [], dps=(30, 60)))


def write(tmp_path, data, name="check.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def one_line_exit_2(capsys, argv, *words):
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith("symdp: error:") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def test_a_genuine_file_is_accepted(tmp_path, capsys, report_json):
    out = tmp_path / "out"
    assert main(["report", "--from-json", str(write(tmp_path, report_json)), "--out", str(out),
                 "--no-figures"]) == 0
    tex = (out / "symdp-report.tex").read_text()
    assert r"\begin{cases}" in tex
    capsys.readouterr()


PAYLOADS = [r"\input{/etc/passwd}", r"\include{x}", r"\openin5=/etc/passwd", r"\read5 to\x",
            r"\immediate\write18{touch pwned}", r"\write18{id}", r"\catcode`\^^M=13",
            r"\csname input\endcsname{/etc/passwd}", r"^^5cinput{/etc/passwd}", r"\def\x{1}\x",
            r"\string\input", r"x % comment", r"#1", r"x}{", r"x}\input{y}{", r"\begin{verbatim}x",
            r"$\input{a}$", "x\n\\par", r"\lstinputlisting{/etc/passwd}", r"\usepackage{x}",
            r"\InputIfFileExists{a}{}{}", "\\"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_unsafe_latex_is_refused_naming_the_field(tmp_path, capsys, report_json, payload):
    out = tmp_path / "out"
    places = [("lhs_latex",), ("rhs_latex",), ("side_conditions_latex", 0),
              ("rhs_latex_terms", 0, 1)]
    for place in places:
        data = json.loads(json.dumps(report_json))
        step = data["derivations"][0]["steps"][1 if place[0] == "rhs_latex_terms" else 0]
        target = step
        for key in place[:-1]:
            target = target[key]
        target[place[-1]] = payload
        one_line_exit_2(capsys, ["report", "--from-json", str(write(tmp_path, data)),
                                 "--out", str(out), "--no-figures"], place[0],
                        "not LaTeX that symdp check writes")
        assert not out.exists()
    data = json.loads(json.dumps(report_json))
    data["derivations"][0]["hypotheses_latex"][0] = payload
    one_line_exit_2(capsys, ["report", "--from-json", str(write(tmp_path, data)),
                             "--out", str(out), "--no-figures"], "hypotheses_latex[0]")


def test_every_formula_of_real_proof_files_is_in_the_safe_subset():
    files = ["fdp_gaussian_duality.py", "drs_def_4_1_properties.py", "bagging_counts.py"]
    fields = 0
    for name in files:
        for d in load_file(ROOT / "proofs" / name):
            view = view_of_derivation(d)
            latex = list(view.hypotheses_latex)
            for s in view.steps:
                latex += [s.lhs_latex, s.rhs_latex, *s.side_conditions_latex,
                          *(t for _, t in s.rhs_terms or ())]
            for text in latex:
                assert check_formula_latex(text) == text
            fields += len(latex)
    assert fields > 50


@pytest.mark.parametrize("text", [r"\alpha^{2} + \frac{1}{\sqrt{x}}", r"\left\{ x \right\}",
                                  r"\operatorname{erfc}{\left(\mu \right)}", r"a \\ b", r"x\,y",
                                  r"\begin{cases} 1 & \text{for}\: x < 1 \\ 0 & \text{otherwise}"
                                  r" \end{cases}"])
def test_sympy_constructs_pass(text):
    assert check_formula_latex(text) == text


def test_unbalanced_braces_and_environments_are_named():
    for text, word in [("{x", "open"), ("x}", "did not open"), (r"\begin{document}", "document"),
                       (r"\end{cases", "cases"), (r"\newcommand", "newcommand")]:
        with pytest.raises(UnsafeLatexError, match=word):
            check_formula_latex(text)


def test_devices_and_fifos_are_refused_without_reading(tmp_path, capsys):
    one_line_exit_2(capsys, ["report", "--from-json", "/dev/zero", "--out",
                             str(tmp_path / "out")], "/dev/zero", "not a regular file")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    one_line_exit_2(capsys, ["report", "--from-json", str(fifo), "--out",
                             str(tmp_path / "out")], "not a regular file")
    assert not (tmp_path / "out").exists()


def test_deep_and_large_files_are_one_line(tmp_path, capsys, monkeypatch):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    one_line_exit_2(capsys, ["report", "--from-json", str(deep), "--out", str(tmp_path / "o")],
                    "nests", str(from_json.MAX_JSON_DEPTH))
    moderately = tmp_path / "moderate.json"
    moderately.write_text(json.dumps({"schema": "symdp-check/1", "x": [[[[[[[[[[[[[[[[[[[[[[[[[[
        [[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}))
    one_line_exit_2(capsys, ["report", "--from-json", str(moderately), "--out",
                             str(tmp_path / "o")], "nests")
    monkeypatch.setattr(from_json, "MAX_JSON_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"schema": "symdp-check/1", "pad": "x" * 2000}))
    one_line_exit_2(capsys, ["report", "--from-json", str(big), "--out", str(tmp_path / "o")],
                    "larger than 1000 bytes")
    assert not (tmp_path / "o").exists()


@pytest.fixture
def fake_pdflatex(tmp_path, monkeypatch):
    """A stand-in ``pdflatex`` first on PATH: records its arguments and environment, writes
    a PDF and a log, or sleeps when FAKE_PDFLATEX_SLEEP is set."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "record.json"
    script = bin_dir / "pdflatex"
    script.write_text(f"""#!{sys.executable}
import json, os, sys, time
json.dump({{"argv": sys.argv[1:], "openin_any": os.environ.get("openin_any"),
            "openout_any": os.environ.get("openout_any"), "cwd": os.getcwd()}},
          open({str(record)!r}, "w"))
if os.environ.get("FAKE_PDFLATEX_SLEEP"):
    time.sleep(float(os.environ["FAKE_PDFLATEX_SLEEP"]))
name = sys.argv[-1].rsplit(".", 1)[0]
open(name + ".pdf", "wb").write(b"%PDF-1.4 fake")
open(name + ".log", "w").write("Output written on x.pdf (1 page)")
""")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return record


def test_pdflatex_runs_without_shell_escape_with_paranoid_files(tmp_path, capsys, report_json,
                                                                fake_pdflatex):
    out = tmp_path / "out"
    assert main(["report", "--from-json", str(write(tmp_path, report_json)), "--out", str(out),
                 "--no-figures", "--pdf"]) == 0
    call = json.loads(fake_pdflatex.read_text())
    assert "-no-shell-escape" in call["argv"] and "-interaction=nonstopmode" in call["argv"]
    assert call["openin_any"] == "p" and call["openout_any"] == "p"
    assert Path(call["cwd"]).parent == out and Path(call["cwd"]).name.startswith(".symdp-report-")
    assert (out / "symdp-report.pdf").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".symdp-report-")]
    capsys.readouterr()


def test_pdflatex_time_limit_is_stated_and_nothing_is_left_running(tmp_path, capsys,
                                                                    report_json, fake_pdflatex,
                                                                    monkeypatch):
    from symdp.report import pdf

    monkeypatch.setenv("FAKE_PDFLATEX_SLEEP", "600")
    monkeypatch.setattr(pdf, "TIMEOUT_SECONDS", 1)
    monkeypatch.setattr(pdf.compile_pdf, "__kwdefaults__", {"runs": 2, "timeout": 1})
    out = tmp_path / "out"
    rc = main(["report", "--from-json", str(write(tmp_path, report_json)), "--out", str(out),
               "--no-figures", "--pdf"])
    err = capsys.readouterr().err
    assert rc == 1 and "time limit of 1 s" in err and err.count("\n") == 1, err
    assert not (out / "symdp-report.pdf").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".symdp-report-")]


def test_sigterm_during_the_compile_removes_the_scratch_directory(tmp_path, report_json,
                                                                   fake_pdflatex):
    import subprocess
    import time

    out = tmp_path / "out"
    env = dict(os.environ, FAKE_PDFLATEX_SLEEP="600")
    proc = subprocess.Popen([sys.executable, "-m", "symdp.cli.main", "report", "--from-json",
                             str(write(tmp_path, report_json)), "--out", str(out),
                             "--no-figures", "--pdf"], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(600):  # until the stand-in pdflatex has started (at most 60 s)
            if fake_pdflatex.exists():
                break
            time.sleep(0.1)
        assert fake_pdflatex.exists()
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 143 and b"Traceback" not in err
    assert not [p for p in out.iterdir() if p.name.startswith(".symdp-report-")]
