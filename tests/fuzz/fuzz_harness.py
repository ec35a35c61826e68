"""Shared pieces of the fuzz suite: hostile values, an in-process CLI runner with a time
limit, and the invariants every case must satisfy (issue #14):

exit 2 with exactly one line on stderr naming the parameter, or a correct result -- never a
traceback or an internal error (exit 3), a hang past the stated limit, NaN, a silently
clipped value, or a file written outside the requested path.
"""

from __future__ import annotations

import collections
import contextlib
import io
import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from symdp.cli.main import main

#: cases run, by test (conftest.py prints the total)
CASES = collections.Counter()

#: every case runs under this limit (the slowest command here takes about 3 s)
CASE_SECONDS = 60

#: deterministic, and no shrinking: a failing case is reported as generated (shrinking re-runs
#: slow commands for minutes)
FUZZ = settings(derandomize=True, database=None, deadline=None, print_blob=False,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate])

#: numbers typed as text that have broken symdp before, or could
HOSTILE_NUMBERS = [
    "", " ", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e-400",
    "1e999999999", "1e-999999999", "1" * 5000, "1" * 100_000, "0." + "0" * 2000 + "1", "0",
    "-0", "-1", "0.5", "1/0", "0/0", "1/3", "-1/3", "2", "1e3", "abc", "0x10", "1_000", "１",
    "²", "٣", "1e", ".", "-", "--", "++1", "1,5", "True", "None", "__import__('os')",
    "$(id)", "\\input{/etc/passwd}", "\x00", "1\x00", "10**10", "3.0", "  7  ", "π", "e",
    "oo", "-oo", "zoo", "I", "1+I", "sqrt(2)", "1.00000000000000000000000000000001", "0.1",
    "1e-5", "1e5", "10000", "10001", "99999999999999999999",
]

numbers = st.one_of(
    st.sampled_from(HOSTILE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10**6, 10**6).map(str),
    st.fractions(max_denominator=1000).map(str),
    st.text(max_size=6),
)
integers = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.integers(-10**6, 10**6).map(str),
                     st.integers(-3, 40).map(str))
formulas = st.one_of(
    st.sampled_from(["x", "-x", "x^2", "x²", "1/x", "nan", "oo", "log(x)", "exp(x)",
                     "x^x^x^x", "(" * 60 + "x" + ")" * 60, "sqrt(-1)", "binomial(n, k)",
                     "Phi(x)", "1e400*x", "x" * 200, "\\frac{1}{x}", "__class__", "x!",
                     "-2/(3*sqrt(3))", "--x", "x;y", "", " ", "\x00"]),
    st.text(alphabet="x+-*/^()0123456789. eln", max_size=12))


def count(name: str) -> None:
    CASES[name] += 1


@contextlib.contextmanager
def time_limit(seconds: float):
    """Interrupt the case (KeyboardInterrupt in the main thread: ``symdp`` then exits 130,
    which no case accepts) when it runs past ``seconds``.  A watchdog thread, not SIGALRM:
    symdp's own time limits use SIGALRM."""
    import _thread
    import threading

    done = threading.Event()

    def watchdog():
        if not done.wait(seconds):
            _thread.interrupt_main()

    thread = threading.Thread(target=watchdog, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def run_cli(argv, cwd) -> tuple[int, str, str]:
    """``symdp argv`` in this process, in the directory ``cwd``: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                time_limit(CASE_SECONDS):
            try:
                rc = main(list(argv))
            except SystemExit as exc:  # argparse
                rc = exc.code
    finally:
        os.chdir(here)
    return rc, out.getvalue(), err.getvalue()


def names_the_parameter(message: str, names) -> bool:
    """The one-line error names one of ``names`` (an option or the parameter behind it), or
    the limit of symdp's that the input hit ("... within the limit of ...")."""
    if "limit" in message:
        return True
    for name in names:
        bare = re.escape(name.lstrip("-"))
        if re.search(rf"(--{bare}\b|\b{bare}\s*=|\b{bare}\[|\b{bare} must|\b{bare} takes|"
                     rf"\b{bare}:|argument {bare}\b|\b{bare} has|\b{bare} is)", message):
            return True
    return False


def check_outcome(rc, out, err, names, *, value=None, allowed_codes=(0, 1, 2)):
    """The invariants of every CLI case; returns True when the command succeeded.  An error
    names the parameter, or quotes the ``value`` given (a path, a word argparse refused)."""
    assert rc in allowed_codes, (rc, err[-500:])
    assert "Traceback" not in err and "internal error" not in err, err[-500:]
    if rc == 2:
        assert err.startswith("symdp: error:") and err.count("\n") == 1, err[-500:]
        quoted = value is not None and value.strip() and (repr(value) in err or
                                                          f": {value}" in err)
        assert quoted or names_the_parameter(err, names), (names, err)
        return False
    assert not re.search(r"\bnan\b", out, re.I), out[-500:]
    return True


@contextlib.contextmanager
def scratch():
    """A fresh working directory; yields it and the set of files present at the start."""
    with tempfile.TemporaryDirectory(prefix="symdp-fuzz-") as d:
        yield Path(d)


def files_in(directory: Path) -> set:
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}
