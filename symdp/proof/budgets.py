r"""The budgets of the check cascade, counted in work, never in seconds (issue #19, item 2).

A verdict must not depend on the machine or its load: ``symdp check --jobs 1`` on an idle
machine and ``--jobs 2`` on a busy one give the same verdict for every step.  So every
search stage of the cascade stops after a fixed amount of *work*, as Lean's
``maxHeartbeats`` counts allocations rather than seconds:

* **SymPy work** is counted in *heartbeats*: one per SymPy object built
  (``sympy.core.basic.Basic.__new__``; a cached result builds nothing and costs nothing).
  :func:`work_limit` raises :class:`WorkExhausted` inside its block once the block has
  spent its heartbeats; the stage that opened the block treats that as "not decided" (a
  weaker verdict, never a different truth).  Limits nest: an inner block gets at most what
  the outer one has left, and its heartbeats count against the outer one too.
* **z3** runs under its own resource count, ``rlimit`` (:data:`Z3_RLIMIT`), never its
  ``timeout``;
* **memory** is bounded too (issue #27, item 5): SymPy's polynomial routines (``factor``,
  ``Poly``, ``cancel``) build plain lists and integers, which no heartbeat counts, and can
  grow by gigabytes without building a SymPy object.  A work-limited block that adds
  :data:`MEMORY_WORK` bytes to the process's address space stops as if its heartbeats were
  spent, and a step that adds :data:`STEP_MEMORY` outside such blocks is UNDECIDED ("memory
  budget", :func:`memory_guard`), so an address-space limit (``ulimit -v`` of 2 GB) never
  turns exhaustion into another verdict.  The address space is read by a SIGPROF timer on
  the CPU time (main thread, Linux /proc); a stop near the ceiling may fall at another point
  of a computation that needs that much memory -- the verdict (not decided by that stage) is
  the same;
* the ball searches count sub-boxes, points and precisions (their own constants, in
  :mod:`symdp.proof.cascade.certified` and :mod:`symdp.proof.cascade.search`).

What a heartbeat count is reproducible to: SymPy builds the same objects for the same input
in the same process state, up to a jitter of about 0.1 % between processes (SymPy iterates a
few sets of classes, whose hashes are memory addresses).  A step whose work ends within that
jitter of a budget could still get another verdict in another process -- against a factor of
two or more for a budget in seconds on a loaded machine; ``benchmarks/determinism.py`` (a
step of ``.ci/run``) compares two runs of ``symdp check`` step by step to show it does not
happen on proofs/.

A wall-clock limit remains only as a **hang guard** (a SymPy or mpmath computation that
builds no objects and never ends): :func:`hang_guard` around each step of
:func:`symdp.proof.check.check_derivation` (:data:`STEP_HANG_GUARD_SECONDS`), and the
per-file limit of ``symdp check`` (``--timeout``, :data:`symdp.proof.runner.DEFAULT_TIMEOUT`).
A guard that fires makes the step UNDECIDED, saying "hang guard hit", or the file a load
error -- never a verdict of another stage.  Both are far above what any step of proofs/
takes.

Each budget below replaces a limit in seconds, and is that limit at about 20 000 heartbeats
per second -- what the cascade builds per second of CPU on the 2-core reference machine when
it is loaded (about twice that when idle); "about N s" names the old limit.
"""

from __future__ import annotations

import contextlib
import signal
import threading

# --------------------------------------------------------------------------- the budgets

#: heartbeats for one symbolic rewriting of ``lhs - rhs`` (simplify, simplify after
#: Phi -> erfc, ...), for the reparametrised sign analysis and for the whole derivative-sign
#: monotonicity argument of one step (``symbolic_work`` of :func:`symdp.proof.check.check_step`;
#: about 4 s each)
SIMPLIFY_WORK = 100_000
#: heartbeats for substituting one sample point into a side (Piecewise ties evaluate)
POINT_WORK = 60_000
#: heartbeats for evaluating one side pair at one precision (the numeric stage)
EVALUATION_WORK = 60_000
#: heartbeats for the confirmation of a numeric failure at twice the higher precision
CONFIRMATION_WORK = 4 * EVALUATION_WORK
#: heartbeats for deciding one candidate point of the counterexample search with balls
DECIDE_WORK = 2 * POINT_WORK
#: heartbeats for the whole counterexample search of one step (its own budget is a count
#: of margin evaluations, :data:`symdp.proof.cascade.search.WORK`; this bounds the SymPy
#: work around them, about 10 s)
SEARCH_WORK = 200_000
#: heartbeats for locating the zeros of one denominator before the cascade (about 1 s)
DENOMINATOR_WORK = 20_000
#: heartbeats for one sign question of the sign analysis of the certified stage and of the
#: monotonicity argument (``_Signs.sign`` in :mod:`symdp.proof.cascade.certified.reduce`):
#: the default (about 3 s), for an expression with a transcendental atom in a parameter
#: (about 0.4 s: SymPy's assumptions rarely decide those; the relaxations do), and the two
#: of the monotonicity argument (about 1 s and 1.5 s)
SIGN_WORK = 60_000
SIGN_WORK_LIGHT = 8_000
SIGN_WORK_QUICK = 20_000
SIGN_WORK_MEDIUM = 30_000
#: heartbeats for tidying a margin after a change of variables (the box search, about 2 s)
INTERVAL_FORM_WORK = 40_000
#: heartbeats for factoring a margin before its balls are taken (about 1 s)
FACTOR_WORK = 20_000
#: heartbeats for the breakpoints of a Piecewise margin (roots of its switching functions,
#: about 4 s) and for the exact sign of a margin at one breakpoint (about 3 s)
BREAKPOINT_WORK = 80_000
SIGN_AT_WORK = 60_000
#: heartbeats for one derivative, one simplification and one limit of the infinite-tail
#: argument (about 2 s, 2 s, 3 s), and for all of its induction-style arguments (about 6 s)
TAIL_STEP_WORK = 40_000
TAIL_LIMIT_WORK = 60_000
TAIL_WORK = 120_000
#: z3's resource limit for one entailment (its own deterministic count of work; z3's
#: ``timeout`` is never used)
Z3_RLIMIT = 2_000_000
#: bytes one work-limited block may add to the process's address space (VmSize) before it
#: stops as a budget stop.  SymPy's polynomial routines build their dense and sparse
#: representations from plain lists, dicts and integers, which no heartbeat sees: ``factor``
#: of ``exp(-x^2/2) - exp(-(x - 10^-30)^2/2)`` takes ``exp(x/10^30)`` as the generator of a
#: polynomial of degree 10^30 and grows by gigabytes.  Far above what any step of proofs/
#: needs (tens of megabytes), and low enough that a 2 GB address-space limit
#: (``ulimit -v``) is never reached first: the verdict is the same with the limit or without.
MEMORY_WORK = 768 * 2 ** 20
#: bytes a whole step may add before it stops (UNDECIDED, "memory budget"), for work outside
#: every work-limited block (a ball search, the kernel's replay)
STEP_MEMORY = 1024 * 2 ** 20
#: how often the memory is read: every this many seconds of the process's CPU time
MEMORY_POLL_SECONDS = 0.01
#: seconds of wall-clock time one step may take before its hang guard fires (a guard, not a
#: budget: the slowest step of proofs/ takes well under a tenth of it)
STEP_HANG_GUARD_SECONDS = 600.0


# --------------------------------------------------------------------------- heartbeats


class WorkExhausted(BaseException):
    """Raised inside a :func:`work_limit` block when its heartbeats are spent.

    A ``BaseException``, like ``KeyboardInterrupt``: SymPy's and the stages' own
    ``except Exception`` clauses must not swallow it and go on spending; only the stage
    that opened the block catches it."""


class HangGuardHit(BaseException):
    """Raised when a :func:`hang_guard` fires (a ``BaseException``, for the same reason)."""


class MemoryBudgetHit(BaseException):
    """Raised when a step outside every work-limited block has added more than its
    :func:`memory_guard` allows to the address space (a ``BaseException``, as above)."""


def address_space() -> int | None:
    """The process's address space in bytes (VmSize, what ``ulimit -v`` limits; None where
    /proc is not available: no memory bound is kept there)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


try:
    import resource as _resource

    _PAGE = _resource.getpagesize()
except ImportError:  # pragma: no cover - not on POSIX
    _PAGE = 4096


class _Memory:
    """Memory ceilings of the open scopes, read by a SIGPROF timer on the process's CPU time
    (:data:`MEMORY_POLL_SECONDS`): a scope over its ceiling raises, in the main thread, the
    exception of the innermost open scope -- :class:`WorkExhausted` in a :func:`work_limit`
    block (its stage treats it as "not decided", like spent heartbeats), or
    :class:`MemoryBudgetHit` in a :func:`memory_guard` (the step is UNDECIDED)."""

    def __init__(self):
        self.scopes = []       # (exception class, ceiling in bytes), innermost last
        self.previous = None
        self.armed = False

    def push(self, exception, budget):
        if threading.current_thread() is not threading.main_thread() or \
                not hasattr(signal, "setitimer"):
            self.scopes.append((exception, None))
            return
        now = address_space()
        self.scopes.append((exception, None if now is None else now + budget))
        if not self.armed and now is not None:
            self.previous = signal.signal(signal.SIGPROF, self._poll)
            signal.setitimer(signal.ITIMER_PROF, MEMORY_POLL_SECONDS, MEMORY_POLL_SECONDS)
            self.armed = True

    def pop(self):
        self.scopes.pop()
        if not self.scopes and self.armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.previous or signal.SIG_DFL)
            self.armed = False

    def _poll(self, signum, frame):
        ceilings = [c for _, c in self.scopes if c is not None]
        if not ceilings:
            return
        now = address_space()
        if now is not None and now > min(ceilings):
            raise self.scopes[-1][0]()


MEMORY = _Memory()


@contextlib.contextmanager
def memory_guard(budget: int | None = STEP_MEMORY):
    """Raise :class:`MemoryBudgetHit` once the block has added ``budget`` bytes to the address
    space outside every :func:`work_limit` block inside it (None: no bound)."""
    if budget is None:
        yield
        return
    MEMORY.push(MemoryBudgetHit, budget)
    try:
        yield
    finally:
        MEMORY.pop()


class _Heartbeats:
    """The count of SymPy objects built in this process, and the active limits."""

    def __init__(self):
        self.count = 0
        self.limits = []       # absolute counts, one per open work_limit block
        self.tightest = None   # min(limits), or None when no block is open
        self.installed = False

    def install(self):
        """Count every ``Basic.__new__`` from now on (once per process)."""
        if self.installed:
            return
        from sympy.core.basic import Basic

        original = Basic.__new__
        beats = self

        def counted_new(cls, *args, **kwargs):
            beats.count += 1
            if beats.tightest is not None and beats.count > beats.tightest:
                raise WorkExhausted()
            return original(cls, *args, **kwargs)

        counted_new.__wrapped__ = original
        Basic.__new__ = staticmethod(counted_new)
        self.installed = True


HEARTBEATS = _Heartbeats()


def heartbeats() -> int:
    """The heartbeats counted so far in this process (SymPy objects built)."""
    HEARTBEATS.install()
    return HEARTBEATS.count


@contextlib.contextmanager
def work_limit(beats: int, memory: int = MEMORY_WORK):
    """Raise :class:`WorkExhausted` inside the block once it has built ``beats`` SymPy
    objects (or once an enclosing block's budget is spent, whichever comes first), or once it
    has added ``memory`` bytes to the address space (:data:`MEMORY_WORK`: SymPy's polynomial
    routines allocate without building SymPy objects)."""
    if isinstance(beats, bool) or not isinstance(beats, int) or beats < 0:
        raise ValueError(f"a work limit is a count of heartbeats >= 0; got {beats!r}")
    h = HEARTBEATS
    h.install()
    h.limits.append(h.count + beats)
    h.tightest = min(h.limits)
    MEMORY.push(WorkExhausted, memory)
    try:
        yield
    finally:
        MEMORY.pop()
        h.limits.pop()
        h.tightest = min(h.limits) if h.limits else None


@contextlib.contextmanager
def hang_guard(seconds: float | None):
    """Raise :class:`HangGuardHit` after ``seconds`` of wall-clock time (SIGALRM; no guard
    off the main thread, where no signal can be delivered).  Guards do not nest: inside
    another wall-clock timer of this process none is armed (the outer one guards), so that no
    guard can disarm or shorten another.  Yields whether this guard is armed (a
    :class:`HangGuardHit` inside an unarmed one is an enclosing guard's to report)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer") or signal.getitimer(signal.ITIMER_REAL)[0]:
        yield False
        return

    def fire(signum, frame):
        raise HangGuardHit()

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
