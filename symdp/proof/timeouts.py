"""Wall-clock limits for the stages of the check cascade (SIGALRM on the main thread)."""

from __future__ import annotations

import contextlib
import signal
import threading


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

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
