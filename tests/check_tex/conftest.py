"""What the cascade makes of all the injected slips (tests/check_tex/test_check_tex_slips.py).

Each slip is a test of its own (they run in parallel under pytest-xdist); the assertions about
all of them together -- at least 200 slips, of the five kinds, at least 90 % REFUTED outright,
some whole documents compared -- are checked here once every slip's test has run (each xdist
worker sends its tally to the controller, which adds them up).  When they do not hold the run
fails, saying why; when only some slips ran (``-k``, ``-x``, a failure) they are not checked.
"""

import json

import pytest

TEST = "test_an_injected_slip_never_holds"
KINDS = {"flipped relation", "sign error", "dropped term", "wrong exponent", "off-by-one"}
TALLY = {"collected": 0, "started": 0, "counted": 0, "refuted": 0, "compared": 0, "kinds": {}}
VERDICT = []   # the aggregate's failure, if any (set at the end of the session)


class _Tally:
    def started(self):
        TALLY["started"] += 1

    def counted(self, kind, refuted, compared):
        TALLY["counted"] += 1
        TALLY["refuted"] += int(refuted)
        TALLY["compared"] += compared
        TALLY["kinds"][kind] = TALLY["kinds"].get(kind, 0) + 1


@pytest.fixture
def slip_tally():
    return _Tally()


def pytest_collection_modifyitems(items):
    TALLY["collected"] = sum(1 for item in items if item.originalname == TEST)


@pytest.hookimpl(optionalhook=True)   # an xdist hook: unknown without xdist
def pytest_testnodedown(node, error):
    """(xdist controller) add up a worker's tally."""
    theirs = json.loads(node.workeroutput.get("slip_tally", "{}") or "{}")
    if not theirs:
        return
    TALLY["collected"] = max(TALLY["collected"], theirs["collected"])   # each collects all
    for key in ("started", "counted", "refuted", "compared"):
        TALLY[key] += theirs[key]
    for kind, n in theirs["kinds"].items():
        TALLY["kinds"][kind] = TALLY["kinds"].get(kind, 0) + n


def aggregate_failure(tally) -> str:
    """Why the slips together fail the test's claims ("" when they hold)."""
    if tally["counted"] < 200:
        return f"only {tally['counted']} slips counted (at least 200 wanted): {tally['kinds']}"
    if set(tally["kinds"]) != KINDS:
        return f"slips of kinds {sorted(tally['kinds'])}, not the five {sorted(KINDS)}"
    if tally["compared"] == 0:
        return "no whole slipped document was compared with the original's verdicts"
    if tally["refuted"] < 0.9 * tally["counted"]:
        return (f"only {tally['refuted']} of {tally['counted']} slips REFUTED outright "
                "(at least 90 % wanted)")
    return ""


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if hasattr(config, "workeroutput"):   # an xdist worker: the controller adds up
        config.workeroutput["slip_tally"] = json.dumps(TALLY)
        return
    if not TALLY["collected"] or TALLY["started"] != TALLY["collected"]:
        return   # not every slip ran: nothing to say about all of them
    why = aggregate_failure(TALLY)
    VERDICT.append(why)
    if why:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    if not VERDICT:
        return
    t = TALLY
    terminalreporter.write_line(
        f"injected slips: {t['counted']} counted, {t['refuted']} REFUTED, "
        f"{t['counted'] - t['refuted']} evidence or undecided; by kind {t['kinds']}; "
        f"{t['compared']} other lines compared")
    if VERDICT[0]:
        terminalreporter.write_line(f"FAILED (the slips together): {VERDICT[0]}", red=True)
