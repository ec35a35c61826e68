"""Fuzz every option of every ``symdp`` command (issue #14).

Each case replaces one option's value of a valid command line by a generated value (a
hostile number, a long or malformed text, a path to a device ...) and runs ``symdp`` in
this process, in a fresh directory, under a time limit.  Every case must end with exit 2
and one line naming the option, or with a correct result: the numbers agree with the
definitions computed here with mpmath (an independent route), and only the requested file
is written.  Deterministic: Hypothesis derandomised, no database.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz_harness import (FUZZ, check_outcome, count, files_in, formulas, integers, numbers,
                          run_cli, scratch)

FIXTURES = Path(__file__).resolve().parents[1] / "cli" / "fixtures"
GOOD = str(FIXTURES / "good_step.py")


def dec(text) -> mpmath.mpf:
    return mpmath.mpf(text)


# --------------------------------------------------------------------------- oracles

def _exact(text: str) -> mpmath.mpf:
    """A parameter as printed (``sympy.sstr``: an integer or p/q) at the current precision."""
    num, _, den = text.partition("/")
    return mpmath.mpf(int(num)) / (int(den) if den else 1)


def subsample_is_right(argv, out):
    """The --json numbers against Lemma 4.4 and the fixed points, recomputed with mpmath."""
    data = json.loads(out)
    with mpmath.workdps(60):
        params = {k: _exact(v) for k, v in data["parameters"].items()}
        p = params["p"]
        if data["family"] == "eps_delta":
            eps, delta = params["eps"], params["delta"]
            eps1 = mpmath.log(1 - p + p * mpmath.exp(eps))  # Lemma 4.4
            assert abs(dec(data["eps_prime"]) - eps1) <= mpmath.mpf(10) ** -25 * max(1, eps1)
            assert abs(dec(data["delta_prime"]) - p * delta) <= mpmath.mpf(10) ** -25
            # f_{eps,delta} crosses the diagonal at (1 - delta)/(1 + e^eps): sum 2x*
            original = 2 * (1 - delta) / (1 + mpmath.exp(eps))
        else:
            original = 2 * mpmath.ncdf(-params["mu"] / 2)  # G_mu's fixed point Phi(-mu/2)
        assert abs(dec(data["min_error_sum"]["original"]) - original) <= mpmath.mpf(10) ** -25
        for row in data["profile"]:
            assert 0 <= dec(row["delta"]) <= 1 and dec(row["eps"]) >= 0


def bagging_is_right(argv, out):
    data = json.loads(out)
    n, k, models = (data["parameters"][key] for key in ("n", "k", "models"))
    digits = data["parameters"]["dps"]   # printed to that many significant digits
    if data["parameters"]["sampling"] == "with replacement":
        with mpmath.workdps(digits + 30):  # Liu, Jia, Gong 2021, Thm. 2: 1 - (1 - 1/n)^(Nk)
            expected = 1 - (1 - mpmath.mpf(1) / n) ** (models * k)
            assert abs(dec(data["paper"]["delta"]) - expected) <= \
                mpmath.mpf(10) ** (1 - digits) * expected
    for row in data["exact"]["profile"]:
        assert 0 <= dec(row["delta"]) <= 1


def anything(argv, out):
    return None


# --------------------------------------------------------------------------- the table

SUB = ["subsample", "--eps", "1", "--delta", "0", "--p", "0.5", "--json", "--at", "1"]
SUB_MU = ["subsample", "--mu", "1", "--p", "0.5", "--json", "--at", "1"]
BAG = ["bagging", "--n", "10", "--k", "3", "--json", "--at", "1"]
STEP = ["step", "x", "<=", "x+1", "--assume", "x>=0"]
CHECK = ["check", GOOD, "--jobs", "1"]
PLOT_T = ["plot", "tradeoff", "--mu", "1", "--out", "f.png"]
PLOT_E = ["plot", "tradeoff", "--family", "eps-delta", "--eps", "1", "--delta", "0.1",
          "--out", "f.png"]
PLOT_P = ["plot", "profile", "--mu", "1", "--out", "f.png"]
PLOT_B = ["plot", "bagging", "--n", "20", "--models", "1", "--out", "f.png"]

dps_values = st.one_of(st.sampled_from(["-5", "0", "1", "29", "30", "31", "40", "1000", "1001",
                                        "10001", "1000000", "nan", "40.5", "", "x", "1e3"]),
                       st.integers(-100, 100).map(str))
# "--" is left out: it is argparse's (documented) end of options
relations = st.one_of(st.sampled_from(["=", "<=", "<", ">=", ">", "=>", "=<", "==", "!=", "~",
                                       "≤", "≥", "\\le", "", " ", "<>", "-"]),
                      st.text(max_size=3))
texts = st.one_of(st.sampled_from(["", " ", "-", "--x", "x" * 500, "\x00", "../../etc",
                                   "gdp_privacy_profile", "fixture_good_step", "a b", "é"]),
                  st.text(max_size=10))

OPTIONS = [
    # (case id, base argv, option (None: a positional index), values, names, oracle, examples)
    ("subsample --eps", SUB, "--eps", numbers, ["--eps", "eps"], subsample_is_right, 12),
    ("subsample --delta", SUB, "--delta", numbers, ["--delta", "delta"], subsample_is_right, 12),
    ("subsample --p", SUB, "--p", numbers, ["--p", "p"], subsample_is_right, 12),
    ("subsample --at", SUB, "--at", numbers, ["--at", "eps"], subsample_is_right, 10),
    ("subsample --mu", SUB_MU, "--mu", numbers, ["--mu", "mu"], subsample_is_right, 6),
    ("subsample --dps", SUB, "--dps", dps_values, ["--dps"], subsample_is_right, 15),
    ("bagging --n", BAG, "--n", integers, ["--n", "n"], bagging_is_right, 30),
    ("bagging --k", BAG, "--k", integers, ["--k", "k"], bagging_is_right, 30),
    ("bagging --models", BAG, "--models", integers, ["--models", "models"], bagging_is_right, 25),
    ("bagging --at", BAG, "--at", numbers, ["--at", "eps"], bagging_is_right, 25),
    ("bagging --dps", BAG, "--dps", dps_values, ["--dps", "dps"], bagging_is_right, 20),
    ("step LHS", STEP, 1, formulas, ["LHS", "formula", "lhs"], anything, 12),
    ("step REL", STEP, 2, relations, ["relation", "REL"], anything, 25),
    ("step RHS", STEP, 3, formulas, ["RHS", "formula", "rhs"], anything, 12),
    ("step --assume", STEP, "--assume", formulas, ["--assume", "assumption", "formula"],
     anything, 25),
    ("step --dps", STEP, "--dps", dps_values, ["--dps"], anything, 15),
    ("check --dps", CHECK, "--dps", dps_values, ["--dps"], anything, 12),
    ("check --jobs", CHECK, "--jobs", integers, ["--jobs", "jobs"], anything, 12),
    ("check --timeout", CHECK, "--timeout", numbers, ["--timeout"], anything, 12),
    ("check --durations", CHECK, "--durations", integers, ["--durations"], anything, 10),
    ("check --only", CHECK, "--only", texts, ["--only", "derivation id"], anything, 12),
    ("plot tradeoff --mu", PLOT_T, "--mu", numbers, ["--mu", "mu"], anything, 12),
    ("plot tradeoff --eps", PLOT_E, "--eps", numbers, ["--eps", "eps"], anything, 10),
    ("plot tradeoff --delta", PLOT_E, "--delta", numbers, ["--delta", "delta"], anything, 10),
    ("plot tradeoff --p", PLOT_T, "--p", numbers, ["--p", "p"], anything, 10),
    ("plot profile --eps-max", PLOT_P, "--eps-max", numbers, ["--eps-max"], anything, 10),
    ("plot bagging --n", PLOT_B, "--n", integers, ["--n", "n"], anything, 10),
    ("plot bagging --models", PLOT_B, "--models", integers, ["--models", "models"], anything, 10),
    ("latex ID", ["latex", "gdp_privacy_profile"], 1, texts, ["id", "ID", "formula"],
     anything, 3),
]


def _replace(base, option, value):
    argv = list(base)
    if isinstance(option, int):
        argv[option] = value
    elif option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return argv


@pytest.mark.parametrize("case", OPTIONS, ids=[o[0] for o in OPTIONS])
def test_option_value(case):
    name, base, option, values, names, oracle, examples = case

    @settings(FUZZ, max_examples=examples)
    @given(value=values)
    def one(value):
        count(name)
        argv = _replace(base, option, value)
        out_file = argv[argv.index("--out") + 1] if "--out" in argv else None
        with scratch() as cwd:
            rc, out, err = run_cli(argv, cwd)
            if check_outcome(rc, out, err, names, value=value):
                oracle(argv, out)
            written = files_in(cwd)
            assert written <= ({out_file} if out_file and rc == 0 else set()), written

    one()


# --------------------------------------------------------------------------- output paths

def _paths(cwd: Path) -> list[str]:
    (cwd / "adir").mkdir()
    (cwd / "adir.png").mkdir()
    os.mkfifo(cwd / "fifo.json")
    (cwd / "dangling.json").symlink_to(cwd / "missing.json")
    (cwd / "file").write_text("x")
    return ["", ".", "..", "adir", "adir/", "adir.png", "fifo.json", "dangling.json",
            "/dev/null", "/dev/full", "/dev/zero", "no/such/dir/r.json", "file/r.json",
            "a" * 300 + ".json", "r\x00.json", " ", "-", "r.json", "adir/r.json"]


PATH_COMMANDS = [
    ("check --json", CHECK + ["--json"], ["--json"]),
    ("plot --out", ["plot", "tradeoff", "--out"], ["--out"]),
    ("report --out", ["report", GOOD, "--no-check", "--no-figures", "--out"], ["--out"]),
    ("report --from-json", ["report", "--out", "out", "--from-json"], ["--from-json"]),
]


@pytest.mark.parametrize("case", PATH_COMMANDS, ids=[c[0] for c in PATH_COMMANDS])
def test_output_and_input_paths(case):
    name, base, names = case
    with scratch() as cwd:
        paths = _paths(cwd)
    for i in range(len(paths)):
        count(name)
        with scratch() as cwd:
            value = _paths(cwd)[i]
            before = files_in(cwd)
            rc, out, err = run_cli([*base, value], cwd)
            if value in ("/dev/null", "/dev/full", "/dev/zero") or "\x00" in value:
                assert rc == 2, (value, rc, err)
            ok = check_outcome(rc, out, err, names, value=value)
            new = files_in(cwd) - before
            if not ok or name == "report --from-json":
                assert not new, (value, new)
            elif name == "report --out":
                inside = value.rstrip("/")   # created with its parents (documented)
                assert inside in ("", ".") or all(p.startswith(inside) or inside.startswith(p)
                                                  for p in new), new
            else:
                assert new <= {value, os.path.normpath(value)}, (value, new)
            assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


# --------------------------------------------------------------------------- fixture files

HOSTILE_FILES = ["sysexit0.py", "sysexit3.py", "os_exit0.py", "keyboard_interrupt.py",
                 "raise_systemexit3.py", "loop_forever.py", "prints_at_import.py",
                 "false_step.py", "good_step.py", "notes.txt"]


@settings(FUZZ, max_examples=12)
@given(files=st.lists(st.sampled_from(HOSTILE_FILES), min_size=1, max_size=4, unique=True),
       jobs=st.sampled_from(["1", "2"]))
def test_check_over_fixture_files(files, jobs):
    """Any mix of the hostile proof files: each is a load error or checked; the run never
    ends early, hangs past the time limit or claims success with a load error."""
    count("check fixture files")
    argv = ["check", *(str(FIXTURES / f) for f in files), "--jobs", jobs, "--timeout", "1"]
    with scratch() as cwd:
        rc, out, err = run_cli(argv, cwd)
    if "notes.txt" in files:
        assert rc == 2 and "notes.txt" in err and err.count("\n") == 1
        return
    check_outcome(rc, out, err, ["--timeout"])
    hostile = [f for f in files if f not in ("good_step.py", "false_step.py",
                                              "prints_at_import.py")]
    assert out.count("LOAD ERROR") == len(hostile), out
    assert rc == (0 if not hostile and "false_step.py" not in files else 1), (rc, out)
    summary = out.strip().splitlines()[-1]
    assert ("failed to load" in summary) == bool(hostile), summary
