"""Shared fixtures of the test suite.

``symdp check`` reuses what it checked before from a cache (issue #30, ``symdp/proof/cache.py``,
default ``~/.cache/symdp``).  The tests never read or write the user's cache but in one place:
each test gets an empty cache directory of its own (``SYMDP_CACHE_DIR``, inherited by the
``symdp`` processes a test starts), so that what one test checked is never reused by another,
in any order and under pytest-xdist.  Fixtures wider than a test use the session's directory;
a test that compares two runs passes ``--no-cache``.

The one place is :func:`proofs_check`: the README's ``symdp check --json FILE`` over proofs/,
run once per test session (the tests that need the verdicts of proofs/ read it instead of
checking again), with the user's cache -- so that after the README's first command,
``symdp check``, it reuses that check instead of repeating it -- or read from the file that
``SYMDP_CHECK_JSON`` names (CI's step 1 writes it).

When ``SYMDP_TESTS_SKIPPED_LOG`` names a file, every test or module that skips is appended to
it (one JSON line: node id and reason): CI's steps that install an optional extra (TeX Live,
the peer libraries) run exactly the tests that skipped for want of it (``.ci/run``).
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from symdp.proof.cache import default_directory

ROOT = Path(__file__).resolve().parents[1]
#: the cache directory symdp uses outside the tests, read before the tests override it (by
#: the controller; xdist's workers inherit it)
USER_CACHE_VARIABLE = "SYMDP_TESTS_USER_CACHE_DIR"

#: the file where skipped tests are logged (CI sets it)
SKIPPED_LOG_VARIABLE = "SYMDP_TESTS_SKIPPED_LOG"

_SESSION_CACHE = []


def _log_skip(report):
    """Append a skipped test or module to ``$SYMDP_TESTS_SKIPPED_LOG`` -- by the process that
    reports the run (xdist's controller receives its workers' reports), once."""
    log = os.environ.get(SKIPPED_LOG_VARIABLE)
    if not log or not report.skipped or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"nodeid": report.nodeid, "reason": reason}) + "\n")


def pytest_runtest_logreport(report):
    _log_skip(report)


def pytest_collectreport(report):
    _log_skip(report)   # a module that skips as a whole (pytest.importorskip at its top)


def pytest_configure(config):
    os.environ.setdefault(USER_CACHE_VARIABLE, str(default_directory()))
    # one directory per process (an xdist worker is a process): never the user's
    _SESSION_CACHE.append(tempfile.mkdtemp(prefix="symdp-test-cache-"))
    os.environ["SYMDP_CACHE_DIR"] = _SESSION_CACHE[-1]


def pytest_unconfigure(config):
    for directory in _SESSION_CACHE:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_cache_directory(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SYMDP_CACHE_DIR", str(tmp_path_factory.mktemp("symdp-cache")))


@dataclass(frozen=True)
class ProofsCheck:
    """The README's ``symdp check --json FILE`` over proofs/: the JSON file and its data, and
    the command's exit code and standard output (None when read from ``SYMDP_CHECK_JSON``)."""

    path: Path
    data: dict
    returncode: int | None
    stdout: str | None


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive lock on ``path`` (one xdist worker at a time)."""
    with open(path, "w") as fh:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no lock (run without -n there)
            yield
            return
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def proofs_check(tmp_path_factory, request) -> ProofsCheck:
    """The verdicts of every derivation in proofs/, checked once per test session."""
    from symdp.report.check_output import SCHEMA

    given = os.environ.get("SYMDP_CHECK_JSON")
    if given:
        path = Path(given)
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data.get("schema") == SCHEMA, f"SYMDP_CHECK_JSON={given}: not a {SCHEMA} report"
        return ProofsCheck(path, data, None, None)
    shared = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):   # an xdist worker: the workers' share a parent
        shared = shared.parent
    path, record = shared / "proofs-check.json", shared / "proofs-check.run.json"
    with _locked(shared / "proofs-check.lock"):
        if not record.exists():
            done = subprocess.run([sys.executable, "-m", "symdp.cli.main", "check", "--json",
                                   str(path)], cwd=ROOT, capture_output=True, text=True,
                                  timeout=3600, env={**os.environ,
                                                     "SYMDP_CACHE_DIR": os.environ[USER_CACHE_VARIABLE]})
            record.write_text(json.dumps({"returncode": done.returncode, "stdout": done.stdout,
                                          "stderr": done.stderr[-4000:]}))
    run = json.loads(record.read_text())
    assert path.exists(), f"symdp check --json wrote no report: {run['stderr']}"
    return ProofsCheck(path, json.loads(path.read_text(encoding="utf-8")), run["returncode"],
                       run["stdout"])


@pytest.fixture
def fresh_kernel_memos():
    """The kernel's per-process memos of pure answers (the convex rules' judgements and
    entailments, simplifies_to, the z3 deciders, the checks of conjugates and inverses) emptied before and after a test that switches
    a check off, so that what the mutant let through is never answered to another test."""
    from symdp.proof.kernel import conjugate, convex, deciders

    tables = (convex._DERIVED, convex._ENTAILS_CACHE, deciders._SIMPLIFIES_TO,
              deciders._Z3_DECIDED, deciders._REAL_Z3, conjugate._CHECKED)
    for table in tables:
        table.clear()
    yield
    for table in tables:
        table.clear()


@dataclass(frozen=True)
class CliRun:
    """``symdp argv`` run in this process: exit code, stdout, stderr, and the warnings that
    ``python -m symdp.cli.main`` would have printed on stderr."""

    returncode: int
    stdout: str
    stderr: str
    warnings: tuple


def _printed_by_python(warning) -> bool:
    """Whether a process would print this warning: Python's default filters hide deprecations
    (but those raised in __main__, the CLI's module), import and resource warnings."""
    if issubclass(warning.category, DeprecationWarning):
        return warning.filename.replace("\\", "/").endswith("symdp/cli/main.py")
    return not issubclass(warning.category, (PendingDeprecationWarning, ImportWarning, ResourceWarning))


@pytest.fixture
def symdp_in_process(capsys):
    """``symdp_in_process(*argv)``: the CLI's ``main`` in this process (no interpreter to
    start), for a test about what the command prints, not about the process boundary."""
    import warnings

    from symdp.cli.main import main

    def run(*argv) -> CliRun:
        capsys.readouterr()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                code = main(list(argv))
            except SystemExit as exc:   # argparse
                code = exc.code
        out, err = capsys.readouterr()
        return CliRun(code, out, err, tuple(str(w.message) for w in caught if _printed_by_python(w)))

    return run
