"""A proof file must not be able to end, hang or hide a run of ``symdp check`` (issue #14).

The fixture files in ``tests/cli/fixtures/`` exit, interrupt, crash their process or loop
forever at import; each is a load error saying what it did, and the other files' verdicts
are reported as usual, with one worker or two.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symdp.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "cli" / "fixtures"  # shared with the CLI tests

HOSTILE = {  # file -> words its load error must contain
    "sysexit0.py": ("SystemExit(0)", "line 4"),
    "sysexit3.py": ("SystemExit(3)", "line 4"),
    "raise_systemexit3.py": ("SystemExit(3)", "line 2"),
    "keyboard_interrupt.py": ("KeyboardInterrupt", "line 2"),
    "os_exit0.py": ("exit code 0", "os._exit"),
    "loop_forever.py": ("time limit of 3 s", "--timeout"),
}


def symdp(*args, cwd=ROOT):
    # a hard limit of its own: before the fix, --jobs 2 with os._exit hung forever
    return subprocess.run([sys.executable, "-m", "symdp.cli.main", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def runs():
    # loop_forever.py spins until its time limit: 3 s, a margin for the other files' checks
    # on a loaded machine (at 1 s, fixture_good_step hit it at a load of 6 on 2 cores)
    files = [str(FIXTURES / f) for f in ("false_step.py", *HOSTILE, "good_step.py")]
    return {jobs: symdp("check", *files, "--jobs", str(jobs), "--timeout", "3", "--no-cache")
            for jobs in (1, 2)}


@pytest.mark.parametrize("jobs", [1, 2])
def test_hostile_files_are_load_errors_and_the_others_are_checked(runs, jobs):
    r = runs[jobs]
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    errors = {line.split(": ", 1)[0].rsplit("/", 1)[1]: line for line in r.stdout.splitlines()
              if line.startswith("LOAD ERROR")}
    assert set(errors) == set(HOSTILE)
    for name, words in HOSTILE.items():
        for word in words:
            assert word in errors[name], (name, errors[name])
    # the files before and after the hostile ones are still checked
    table = r.stdout.split("LOAD ERROR", 1)[0]
    assert "fixture_false_step" in table and "REFUTED" in table
    assert "fixture_good_step" in table and "PROVED" in table
    counts, summary = r.stdout.strip().splitlines()[-2:]
    assert counts.startswith("2 steps in 2 derivations") and "6 file(s) failed to load" in summary


def test_output_does_not_depend_on_the_number_of_workers(runs):
    assert runs[1].stdout == runs[2].stdout


def test_a_run_of_load_errors_only_does_not_claim_that_verdicts_match(capsys):
    assert main(["check", str(FIXTURES / "sysexit0.py"), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    counts, summary = out.strip().splitlines()[-2:]
    assert counts.startswith("0 steps in 0 derivations: no verdicts; nothing was checked")
    assert "0 of 0 steps hold" in summary
    assert "all verdicts match" not in out and "1 file(s) failed to load" in summary


def test_a_proof_file_printing_does_not_corrupt_json_on_stdout():
    r = symdp("check", str(FIXTURES / "prints_at_import.py"), "--jobs", "1", "--json", "-")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)  # nothing but the JSON on stdout
    assert [d["id"] for d in data["derivations"]] == ["fixture_prints_at_import"]
    assert "noise from a proof file" in r.stderr


@pytest.mark.parametrize("args, words", [
    (["EMPTY"], ("no proof files", "nothing to check")),
    ([str(FIXTURES / "notes.txt")], ("notes.txt", "not a proof file", ".py")),
    (["nope.py"], ("no such proof file", "nope.py")),
    ([str(FIXTURES / "good_step.py"), "--timeout", "0"], ("--timeout",)),
    ([str(FIXTURES / "good_step.py"), "--timeout", "nan"], ("--timeout",)),
    ([str(FIXTURES / "good_step.py"), "--timeout", "1e9"], ("--timeout",)),
])
def test_nothing_to_check_is_one_line_exit_2(tmp_path, monkeypatch, capsys, args, words):
    # in this process: the usage errors are found before any work (the console entry point's
    # exit 2: tests/cli/test_cli.py)
    monkeypatch.chdir(tmp_path)
    args = [str(tmp_path) if a == "EMPTY" else a for a in args]
    rc = main(["check", *args])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.startswith("symdp: error:") and err.count("\n") == 1, err
    for word in words:
        assert word in err


def test_latex_list_of_a_missing_path_is_one_line_exit_2():
    r = symdp("latex", "--list", "--paths", "nope.py")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nope.py" in r.stderr


def test_check_all_in_process_reports_sys_exit_as_a_load_error():
    from symdp.proof.runner import check_all

    run = check_all([FIXTURES / "sysexit3.py", FIXTURES / "good_step.py"], isolate=False)
    assert [r.derivation.id for r in run.reports] == ["fixture_good_step"]
    (error,) = run.errors
    assert "SystemExit(3)" in error.error and error.path.endswith("sysexit3.py")
