"""symdp.proof.timeouts: ``time_limit`` raises ``Timeout`` when its time is up and leaves the
SIGALRM handler and timer as it found them."""

import signal
import threading

import pytest

from symdp.proof.timeouts import Timeout, time_limit

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")


def _busy_until_interrupted():
    # a loop that ends only by an exception; bounded so that a broken limit fails, not hangs
    n = 0
    for _ in range(10 ** 10):
        n += 1
    return n


def test_busy_loop_is_interrupted_and_handler_restored():
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(Timeout):
        with time_limit(0.05):
            _busy_until_interrupted()
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_custom_previous_handler_is_restored():
    def mine(signum, frame):  # pragma: no cover - never fires
        raise AssertionError("the outer handler must not fire")

    old = signal.signal(signal.SIGALRM, mine)
    try:
        with time_limit(5):
            assert signal.getsignal(signal.SIGALRM) is not mine   # its own handler is active
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)   # timer cancelled on exit
    finally:
        signal.signal(signal.SIGALRM, old)


def test_a_block_that_finishes_in_time_returns_normally():
    with time_limit(5):
        value = sum(range(100))
    assert value == 4950


def test_an_exception_in_the_block_propagates_and_cancels_the_timer():
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(ZeroDivisionError):
        with time_limit(5):
            1 / 0
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_none_means_no_limit():
    before = signal.getsignal(signal.SIGALRM)
    with time_limit(None):
        assert signal.getsignal(signal.SIGALRM) is before


def test_off_the_main_thread_there_is_no_limit_and_no_error():
    # signal.signal may only be called on the main thread: the limit must step aside there
    outcome = []

    def work():
        try:
            with time_limit(0.01):
                outcome.append("ran")
        except Exception as exc:  # pragma: no cover - the failure being tested for
            outcome.append(exc)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert outcome == ["ran"]


def test_a_nested_limit_does_not_disarm_the_outer_one():
    # issue #19: the inner limit used to cancel the outer timer on exit, so the outer block
    # ran on unguarded; the loop below ends by itself after 5 s, failing (not hanging)
    import time

    def busy_for_at_most(seconds):
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            pass

    with pytest.raises(Timeout):
        with time_limit(0.2):
            with time_limit(10):
                pass
            busy_for_at_most(5)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_inner_limit_never_outlives_the_outer_deadline():
    import time

    t0 = time.monotonic()
    with pytest.raises(Timeout):
        with time_limit(0.2):
            with time_limit(10):
                while time.monotonic() - t0 < 5:
                    pass
    assert time.monotonic() - t0 < 2
