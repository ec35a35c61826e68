"""The real console entry point, run as a subprocess (and in this process, :func:`here`,
where a test is about what a command prints, not about its process)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symdp.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "cli" / "fixtures"


def symdp(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "symdp.cli.main", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


def here(capsys, *args) -> subprocess.CompletedProcess:
    """``symdp args`` in this process, as :func:`symdp` reports it."""
    try:
        rc = main(list(args))
    except SystemExit as exc:   # argparse
        rc = exc.code
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, rc, out.out, out.err)


def test_step_latex_fraction_is_proved():
    r = symdp("step", r"\frac{1}{2}+\frac{1}{3}", "=", r"\frac{5}{6}", "--latex")
    assert r.returncode == 0 and "PROVED" in r.stdout


def test_step_with_assumption_is_not_refuted():
    r = symdp("step", "(n-1)/n", "<=", "(n+1)/n", "--assume", "n>=1")
    assert r.returncode == 0 and ("PROVED" in r.stdout or "NUMERIC_AT_POINTS" in r.stdout)


def test_false_step_is_refuted_with_counterexample():
    r = symdp("step", "(n+1)/n", "<=", "(n-1)/n", "--assume", "n>=1")
    assert r.returncode == 1
    assert "REFUTED" in r.stdout and "counterexample" in r.stdout


def test_injection_payloads_are_rejected_and_execute_nothing(tmp_path, monkeypatch, capsys):
    payloads = ["__import__('os').system('touch pwned')", "().__class__", "eval('1')",
                "exec('import os')", "lambda: 1"]
    monkeypatch.chdir(tmp_path)
    # the first through the console entry point, the others through the same parser here
    runs = [symdp("step", payloads[0], "=", "1", cwd=tmp_path)] + \
        [here(capsys, "step", payload, "=", "1") for payload in payloads[1:]]
    for payload, r in zip(payloads, runs):
        assert r.returncode == 2, payload
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "pwned").exists()


def test_bad_relation_is_a_usage_error():
    r = symdp("step", "1", "~", "1")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_check_json_schema_and_broken_proof_file(tmp_path, capsys):
    good = tmp_path / "good.py"
    good.write_text(
        "import sympy as sp\n"
        "from symdp.proof import Derivation, Step, Verdict\n"
        "x = sp.Symbol('x')\n"
        "derivation = Derivation('good_one', 'x <= 1 on [0,1]', 'test', {x: sp.Interval(0, 1)},\n"
        "    (Step(x, '<=', 1, 'bound'), Step(x, '>=', 1, 'printed', expect=Verdict.REFUTED)),\n"
        "    chained=False)\n")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    out = tmp_path / "report.json"
    r = here(capsys, "check", str(good), str(broken), "--json", str(out))
    assert r.returncode == 1  # the broken file fails the run
    assert "broken.py" in r.stdout and "boom" in r.stdout
    data = json.loads(out.read_text())
    assert data["schema"] == "symdp-check/4"
    (d,) = data["derivations"]
    assert d["id"] == "good_one" and d["ok"] is True
    assert [s["verdict"] for s in d["steps"]] == ["PROVED", "REFUTED"]
    assert d["steps"][1]["finding"] is True and d["steps"][1]["counterexample"]["point"]
    assert data["summary"]["load_errors"] == 1 and data["summary"]["findings"] == 1
    r = here(capsys, "check", str(good))
    assert r.returncode == 0 and "FINDINGS" in r.stdout


def test_check_is_deterministic(tmp_path):
    args = ("check", str(ROOT / "proofs" / "fdp_gaussian_duality.py"), "--json", "-", "--no-cache")
    assert symdp(*args).stdout == symdp(*args).stdout


def test_latex_of_unknown_id_is_one_line_exit_2():
    r = symdp("latex", "no_such_thing")
    assert r.returncode == 2 and r.stderr.startswith("symdp: error:") and r.stderr.count("\n") == 1


@pytest.mark.slow   # over 10 s: CI's step 3 (issue #30)
def test_check_output_does_not_depend_on_the_number_of_workers(tmp_path):
    derivation = ("import sympy as sp\n"
                  "from symdp.proof import Derivation, Step, Verdict\n"
                  "x = sp.Symbol('x')\n"
                  "derivation = Derivation({ident!r}, 'x <= 1 on [0,1]', 'test', {{x: sp.Interval(0, 1)}},\n"
                  "    (Step(x**2, '<=', x, 'square'), Step(x, '>=', 1, 'printed', expect=Verdict.REFUTED)),\n"
                  "    chained=False)\n")
    (tmp_path / "a_first.py").write_text(derivation.format(ident="shared_id"))
    (tmp_path / "b_again.py").write_text(derivation.format(ident="shared_id"))  # a duplicate id
    (tmp_path / "c_other.py").write_text(derivation.format(ident="other_id"))
    (tmp_path / "d_broken.py").write_text("raise RuntimeError('boom')\n")
    files = [str(tmp_path), str(ROOT / "proofs" / "fdp_gaussian_duality.py")]
    serial = symdp("check", *files, "--jobs", "1", "--no-cache")
    parallel = symdp("check", *files, "--jobs", "2", "--no-cache")
    assert serial.returncode == parallel.returncode == 1   # a broken file and a duplicate id
    assert serial.stdout == parallel.stdout
    assert "duplicate derivation id 'shared_id'" in serial.stdout and "boom" in serial.stdout
    # the duplicate is the later file's, as with loading in order
    assert serial.stdout.index("shared_id") < serial.stdout.index("other_id")
    with_json = [symdp("check", *files, "--jobs", str(n), "--json", "-", "--no-cache").stdout
                 for n in (1, 2)]
    assert with_json[0] == with_json[1]


def test_check_bad_jobs_and_unknown_id_are_one_line_exit_2(capsys):
    proof = str(ROOT / "proofs" / "fdp_gaussian_duality.py")
    # the first through the console entry point, the second (it imports the file) here
    runs = {"--jobs": symdp("check", proof, "--jobs", "0"),
            "--only": here(capsys, "check", proof, "--only", "no_such_derivation")}
    for option, r in runs.items():
        assert r.returncode == 2, (option, r.stderr)
        assert r.stderr.startswith("symdp: error:") and r.stderr.count("\n") == 1


def test_check_durations_lists_the_slowest_derivations(capsys):
    r = here(capsys, "check", str(FIXTURES / "good_step.py"), "--durations", "1")
    assert r.returncode == 0
    tail = r.stdout.split("slowest 1 of ", 1)[1].splitlines()
    assert len(tail) == 2 and "good_step.py" in tail[1] and " s  " in tail[1]


def test_latex_finds_a_derivation_whose_id_is_built_at_import(tmp_path, capsys):
    proof = ("import sympy as sp\n"
             "from symdp.proof import Derivation, Step\n"
             "x = sp.Symbol('x')\n"
             "derivation = Derivation('built_' + 'at_import', 'x = x', 'test', {x: sp.Interval(0, 1)},\n"
             "    (Step(x, '=', x, 'reflexive'),))\n")
    (tmp_path / "a_plain.py").write_text(proof.replace("'built_' + 'at_import'", "'plain_id'"))
    (tmp_path / "b_built.py").write_text(proof)
    r = here(capsys, "latex", "built_at_import", "--paths", str(tmp_path))
    assert r.returncode == 0 and "built at import" in r.stdout
    r = here(capsys, "latex", "plain_id", "--paths", str(tmp_path))
    assert r.returncode == 0 and "plain id" in r.stdout


def test_check_in_workers_handles_classes_defined_in_a_proof_module(tmp_path):
    # the reports of such a file hold instances of a class of the proof module itself, which
    # the parent can unpickle only after importing that module (a traceback before the fix)
    (tmp_path / "custom.py").write_text(
        "import sympy as sp\n"
        "from symdp.proof import Derivation, Step, Verdict\n"
        "class Twice(sp.Function):\n"
        "    def _eval_evalf(self, prec):\n"
        "        return (2 * self.args[0])._eval_evalf(prec)\n"
        "x = sp.Symbol('x')\n"
        "derivation = Derivation('custom_function_in_a_proof', 'Twice(x) vs 2x', 'test',\n"
        "    {x: sp.Interval(0, 1)}, (Step(Twice(x), '<=', 2 * x, 'definition'),\n"
        "    Step(Twice(x), '<', x, 'false', expect=Verdict.REFUTED)), chained=False)\n")
    (tmp_path / "other.py").write_text((FIXTURES / "good_step.py").read_text())
    serial = symdp("check", str(tmp_path), "--jobs", "1", "--no-cache")
    parallel = symdp("check", str(tmp_path), "--jobs", "2", "--no-cache")
    assert parallel.returncode == serial.returncode == 0, parallel.stderr
    assert parallel.stdout == serial.stdout and "Traceback" not in parallel.stderr
    assert "custom_function_in_a_proof" in parallel.stdout and "REFUTED" in parallel.stdout
