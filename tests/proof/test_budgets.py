"""symdp.proof.budgets: the cascade's budgets are counted in work (heartbeats: SymPy objects
built), and the one wall-clock limit of a step is a hang guard that says so (issue #19)."""

import signal
import threading
import time

import pytest
import sympy as sp

from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof.budgets import (HangGuardHit, WorkExhausted, hang_guard, heartbeats,
                                 work_limit)

x, y = sp.symbols("x y")
needs_alarm = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")


_FRESH = iter(range(10 ** 9, 10 ** 12, 1))


def _build(n):
    """At least n fresh SymPy objects (each Add is new: its terms were never built before,
    so SymPy's cache cannot answer)."""
    z = sp.Symbol("z_build")
    for _ in range(n):
        z + sp.Integer(next(_FRESH))   # noqa: B018


def test_heartbeats_count_sympy_objects_built():
    before = heartbeats()
    _build(50)
    assert heartbeats() - before >= 50


def test_a_work_limit_raises_once_its_heartbeats_are_spent():
    with pytest.raises(WorkExhausted):
        with work_limit(100):
            _build(10_000)


def test_a_block_within_its_budget_returns_normally():
    with work_limit(10_000):
        value = sp.Integer(2) + 3
    assert value == 5


def test_the_same_work_spends_the_same_heartbeats_from_the_same_cache_state():
    def spend():
        start = heartbeats()
        sp.simplify(sp.sin(x) ** 2 + sp.cos(x) ** 2 + (x ** 2 - 1) / (x - 1))
        return heartbeats() - start

    from sympy.core.cache import clear_cache

    spend()   # SymPy's other caches (not cleared below) are now in the same state for both
    clear_cache()
    first = spend()
    clear_cache()
    second = spend()
    assert first > 100
    assert abs(first - second) <= max(2, first // 100)   # SymPy's own jitter, under 1 %


def test_limits_nest_and_the_inner_one_counts_against_the_outer():
    with pytest.raises(WorkExhausted):
        with work_limit(300):
            for _ in range(5):    # each inner block stays within its own budget ...
                with work_limit(10_000):
                    _build(100)   # ... but together they spend the outer one's
    # an inner block gets at most what the outer one has left
    with work_limit(200):
        with pytest.raises(WorkExhausted):
            with work_limit(10 ** 9):
                _build(10_000)


def test_work_exhausted_is_not_swallowed_by_except_exception():
    # a stage's `except Exception` (or SymPy's) must not catch it and go on spending
    def careless():
        try:
            _build(10_000)
        except Exception:   # noqa: BLE001 - the point of the test
            return "swallowed"
        return "finished"

    with pytest.raises(WorkExhausted):
        with work_limit(100):
            careless()


def test_a_bad_budget_is_refused():
    for bad in (-1, 1.5, True, None):
        with pytest.raises(ValueError):
            with work_limit(bad):
                pass


@needs_alarm
def test_the_hang_guard_fires_and_restores_the_handler():
    before = signal.getsignal(signal.SIGALRM)
    t0 = time.monotonic()
    with pytest.raises(HangGuardHit):
        with hang_guard(0.05) as armed:
            assert armed
            while time.monotonic() - t0 < 5:
                pass
    assert time.monotonic() - t0 < 2
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@needs_alarm
def test_an_inner_hang_guard_never_disarms_the_outer_one():
    # issue #19: an inner time limit used to cancel the outer timer on exit
    t0 = time.monotonic()
    with pytest.raises(HangGuardHit):
        with hang_guard(0.2):
            with hang_guard(10) as inner_armed:
                assert not inner_armed   # the outer guard guards
            while time.monotonic() - t0 < 5:
                pass
    assert time.monotonic() - t0 < 2
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_off_the_main_thread_there_is_no_guard_and_no_error():
    outcome = []

    def work():
        with hang_guard(0.01) as armed:
            outcome.append(armed)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert outcome == [False]


@needs_alarm
def test_a_step_past_its_hang_guard_is_undecided_and_says_so(monkeypatch):
    # a stage that hangs (here: the symbolic stage, made to sleep) is stopped by the guard;
    # the step is UNDECIDED "hang guard hit" -- not the verdict of a later stage
    import symdp.proof.check as check

    def hangs(*args, **kwargs):
        time.sleep(30)
        yield from ()

    monkeypatch.setattr(check, "symbolic_certificates", hangs)
    d = Derivation("hangs", "x^2 <= x on [0, 1]", "a test", {x: sp.Interval(0, 1)},
                   [Step(x ** 2, "<=", x, expect=Verdict.UNDECIDED)])
    t0 = time.monotonic()
    report = check_derivation(d, hang_guard_seconds=0.5)
    assert time.monotonic() - t0 < 10
    (r,) = report.steps
    assert r.verdict is Verdict.UNDECIDED and r.detail.startswith("hang guard hit")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
