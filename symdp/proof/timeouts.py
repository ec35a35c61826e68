"""Wall-clock limits for the stages of the check cascade (SIGALRM on the main thread).

A limit here is a guard against a hang, never a budget a verdict depends on: the stages count
their work (attempts, sub-boxes, evaluations, ``count_ops``), and a guard that fires is stated
as such ("hang guard").  Limits nest: an inner ``time_limit`` never outlives the outer one's
deadline and re-arms the outer timer when it exits (it used to disarm it).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time


class Timeout(Exception):
    """Raised inside a :func:`time_limit` block when its time is up."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise :class:`Timeout` after ``seconds`` (SIGALRM; no limit off the main thread)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum, frame):
        raise Timeout()

    outer_left = signal.getitimer(signal.ITIMER_REAL)[0]   # 0.0: no outer limit
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, min(seconds, outer_left) if outer_left else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:  # the outer limit goes on (at once when its time is already up)
            signal.setitimer(signal.ITIMER_REAL,
                             max(outer_left - (time.monotonic() - start), 1e-6))
