r"""``symdp report --from-json FILE``: the document of a ``symdp check --json`` file.

* the same document as checking again (``symdp report PATH``), byte for byte;
* special characters in names and text escaped, and the result compiles;
* a file that is not JSON, has another schema or lacks a field, an unreadable file, an
  unwritable ``--out``: one line, exit 2, nothing written;
* a failed compile leaves no file that looks complete.

Everything runs on two small derivations (seconds); the whole of ``proofs/`` goes this
route once, in ``tests/test_readme_examples.py``.
"""

import json
import shutil
from pathlib import Path

import pytest

from symdp.cli.main import main
from symdp.proof.check import check_derivation
from symdp.proof.loader import load_derivations
from symdp.report.check_output import json_report

needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                    reason="pdflatex is not on PATH (install TeX Live: "
                                    "apt-get install texlive-latex-base texlive-latex-recommended)")

PROOF = '''
import sympy as sp
from symdp.proof import Derivation, Step, Verdict
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", positive=True)
claims = Derivation(
    "claims_with_text_50pc_and_more",
    "50% of #users & $cost_{x} ~ ^ \\\\ {a} <b> |c| ε ≤ δ",
    "Made-up & Co. 2024, Thm. #1",
    {x: sp.Interval(0, 1)},
    (Step(x ** 2, "<=", x, "x^2 <= x on [0, 1] {squares}"),
     Step(x, "<=", x ** 2, "printed claim_1 & more", expect=Verdict.REFUTED,
          note="a printed claim, 100% wrong")),
    chained=False, notes="notes with _under_scores_ and $dollars$")
chain = Derivation(
    "chain_with_a_long_sum",
    "a chain whose right-hand side is a long sum",
    "test",
    {x: sp.Interval(0, 1), y: sp.Interval(1, 2)},
    (Step(x * y, "<=", y, "x <= 1", side_conditions=(sp.Le(x, 1),)),
     Step(y, "<=", y + sum(x ** i * y / (i + 1) for i in range(1, 13)),
          "adding non-negative terms")),
    notes="")
DERIVATIONS = (claims, chain)
'''


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """The proof file and its ``symdp check --json`` file (checked once for the module)."""
    d = tmp_path_factory.mktemp("from-json")
    proof = d / "proof_nasty.py"
    proof.write_text(PROOF, encoding="utf-8")
    loaded, errors = load_derivations([str(proof)])
    assert not errors and len(loaded) == 2
    reports = [type(r)(r.derivation, r.steps, r.seconds, str(proof))
               for r in (check_derivation(der, dps=(30, 60)) for _, der in loaded)]
    path = d / "check.json"
    path.write_text(json_report(reports, errors, dps=(30, 60)) + "\n", encoding="utf-8")
    return proof, path


def _report(*args):
    return main(["report", *map(str, args)])


def test_json_carries_what_the_document_needs(checked):
    _, path = checked
    data = json.loads(path.read_text())
    assert data["schema"] == "symdp-check/4" and data["dps"] == [30, 60]
    claims, chain = data["derivations"]
    assert claims["chained"] is False and chain["chained"] is True
    assert claims["notes"] == "notes with _under_scores_ and $dollars$"
    assert claims["hypotheses_latex"] == [r"x \in \left[0, 1\right]"]
    assert chain["steps"][0]["side_conditions_latex"] == [r"x \leq 1"]
    assert chain["steps"][0]["rhs_latex_terms"] is None  # y: not a sum
    terms = chain["steps"][1]["rhs_latex_terms"]
    assert terms and all(sign in "+-" for sign, _ in terms)


def test_same_document_as_checking_again(checked, tmp_path, monkeypatch, capsys):
    """Two routes -- check again, or read the JSON -- give the same .tex, byte for byte."""
    proof, path = checked
    monkeypatch.chdir(proof.parent)
    assert _report(proof.name, "--out", tmp_path / "again", "--no-figures", "--dps", 60) == 0
    assert _report("--from-json", path, "--out", tmp_path / "json", "--no-figures") == 0
    again = (tmp_path / "again" / "symdp-report.tex").read_text()
    from_json = (tmp_path / "json" / "symdp-report.tex").read_text()
    assert from_json == again
    assert "checked by" in capsys.readouterr().out


@needs_pdflatex
def test_special_characters_are_escaped_and_compile(checked, tmp_path, capsys):
    _, path = checked
    data = json.loads(path.read_text())
    step = data["derivations"][0]["steps"][1]
    step["detail"] = "100% & $x_1$ #2 {} ~ ^ \\ <> | \" ü → ∞ \u2603"
    step["counterexample"]["point"] = {"x_1 & #": "1/2 % $"}
    data["derivations"][0]["citation"] = "Smith & Jones, §3 #4 {x}"
    data["load_errors"] = [{"path": "proofs/broken_#1 & $.py", "error": "boom_1 % {x}"}]
    bad = tmp_path / "special.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    rc = _report("--from-json", bad, "--out", tmp_path / "r", "--pdf", "--no-figures")
    assert rc == 1  # a file that failed to load: the run does not pass
    tex = (tmp_path / "r" / "symdp-report.tex").read_text()
    assert r"50\% of \#users \& \$cost\_\{x\}" in tex
    assert r"100\% \& \$x\_1\$ \#2 \{\}" in tex
    assert r"x\_1 \& \# = 1/2 \% \$" in tex
    assert r"Smith \& Jones" in tex and r"boom\_1 \% \{x\}" in tex
    assert r"\texttt{[U+2603]}" in tex  # a character pdflatex cannot set is shown as its code
    assert (tmp_path / "r" / "symdp-report.pdf").read_bytes().startswith(b"%PDF")
    assert "wrote" in capsys.readouterr().out


def test_recorded_mismatch_exits_1_and_is_shown(checked, tmp_path):
    _, path = checked
    data = json.loads(path.read_text())
    data["derivations"][1]["steps"][0].update(verdict="REFUTED", holds_everywhere=False)
    changed = tmp_path / "mismatch.json"
    changed.write_text(json.dumps(data))
    assert _report("--from-json", changed, "--out", tmp_path / "r", "--no-figures") == 1
    tex = (tmp_path / "r" / "symdp-report.tex").read_text()
    assert "MISMATCH: expected to hold" in tex and "do not match their expectations" in tex


def _one_line_exit_2(capsys, *args):
    rc = _report(*args)
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith("symdp: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("content,words", [
    ("{not json", "not valid JSON"),
    ("[]", "no schema"),
    ('{"schema": "symdp-check/0", "derivations": []}', "schema 'symdp-check/0'"),
    ('{"schema": "other/1"}', "schema 'other/1'"),
    ('{"schema": "symdp-check/3"}', "derivations is missing"),
    ('{"schema": "symdp-check/1", "derivations": []}', "re-run symdp check --json"),
    ("\udcff", "not UTF-8"),
])
def test_bad_json_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, content, words):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content.encode("utf-8", "surrogateescape"))
    out = tmp_path / "out"
    err = _one_line_exit_2(capsys, "--from-json", bad, "--out", out, "--no-figures")
    assert words in err and "bad.json" in err
    assert not out.exists()


@pytest.mark.parametrize("edit,words", [
    (lambda d: d["derivations"][0].pop("hypotheses_latex"), "derivations[0].hypotheses_latex is missing"),
    (lambda d: d["derivations"][1]["steps"][1].pop("rhs_latex_terms"), "rhs_latex_terms is missing"),
    (lambda d: d["derivations"][0]["steps"][0].update(verdict="MAYBE"), "not a verdict"),
    (lambda d: d["derivations"][0]["steps"][0].update(relation="~"), "not a relation"),
    (lambda d: d["derivations"][0].update(chained="yes"), "chained is str, not bool"),
    (lambda d: d["derivations"][0]["steps"][0].update(points=True), "points is bool, not int"),
    # scope fields that contradict the verdict (evidence passed off as holding) are refused
    (lambda d: d["derivations"][0]["steps"][0].update(verdict="NUMERIC_AT_POINTS"),
     "holds_everywhere is True, but the verdict NUMERIC_AT_POINTS says False"),
    (lambda d: d["derivations"][0]["steps"][0].update(hypotheses=["x <= 1/2"]),
     "holds_everywhere is True, but the verdict PROVED under: x <= 1/2 says False"),
    (lambda d: d["derivations"][0]["conclusion"].update(holds_everywhere=False),
     "conclusion.holds_everywhere does not match"),
    (lambda d: d["derivations"][0].pop("domains"), "derivations[0].domains is missing"),
])
def test_incomplete_or_wrong_fields_name_the_field(checked, tmp_path, capsys, edit, words):
    _, path = checked
    data = json.loads(path.read_text())
    edit(data)
    bad = tmp_path / "old.json"
    bad.write_text(json.dumps(data))
    err = _one_line_exit_2(capsys, "--from-json", bad, "--out", tmp_path / "out", "--no-figures")
    assert words in err and "re-run symdp check --json" in err
    assert not (tmp_path / "out").exists()


def test_missing_file_and_unwritable_out_and_misplaced_options(checked, tmp_path, capsys):
    proof, path = checked
    err = _one_line_exit_2(capsys, "--from-json", tmp_path / "nope.json", "--out", tmp_path / "o")
    assert "cannot read" in err and "nope.json" in err
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    err = _one_line_exit_2(capsys, "--from-json", path, "--out", blocker / "sub", "--no-figures")
    assert "cannot write to output directory" in err
    err = _one_line_exit_2(capsys, "--from-json", path, "--out", blocker, "--no-figures")
    assert "cannot write to output directory" in err and blocker.read_text() == "not a directory"
    for extra in (["--dps", "40"], [proof], ["--no-check"], ["--jobs", "2"]):
        err = _one_line_exit_2(capsys, "--from-json", path, "--out", tmp_path / "o", *extra)
        assert "does not apply" in err
    err = _one_line_exit_2(capsys, "--from-json", path, "--out", tmp_path / "o", "--only", "nope")
    assert "unknown derivation id 'nope'" in err
    assert not (tmp_path / "o").exists()


@needs_pdflatex
def test_failed_compile_leaves_no_complete_looking_file(checked, tmp_path, capsys, monkeypatch):
    import symdp.report.build as build

    _, path = checked
    real = build.document_latex
    monkeypatch.setattr(build, "document_latex",
                        lambda *a, **k: real(*a, **k).replace(r"\section{Derivations}",
                                                              r"\section{Derivations}\undefinedmacro"))
    out = tmp_path / "r"
    assert _report("--from-json", path, "--out", out, "--pdf", "--no-figures") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Undefined control sequence" in err
    assert not (out / "symdp-report.tex").exists()
    assert (out / "symdp-report-failed" / "symdp-report.log").exists()
    assert not list(out.glob(".symdp-report-*"))


def test_only_selects_derivations(checked, tmp_path):
    _, path = checked
    assert _report("--from-json", path, "--out", tmp_path / "r", "--no-figures",
                   "--only", "chain_with_a_long_sum") == 0
    tex = (tmp_path / "r" / "symdp-report.tex").read_text()
    assert tex.count(r"\subsection{") == 1 and "chain" in tex and "claims" not in tex
