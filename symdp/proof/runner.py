"""Checking many proof files: one process per derivation, the longest first.

A worker process (a *loader*) imports one proof file -- a proof module may derive closed forms
at import time, so a file is imported once -- and forks one child per derivation, which checks
it with :func:`~symdp.proof.check.check_derivation` and reports.  A derivation is therefore
always checked in a fresh process whose state is the parent's plus the import of its own file,
whatever ``jobs`` is, whatever ran before and whether the cache was used: its verdicts do not
depend on the schedule.  Up to ``jobs`` processes compute at once (a loader importing, a child
checking, or a cache replay); the derivations run longest first, by the seconds each took when
last checked (recorded by the cache, :mod:`symdp.proof.cache`; by file size when never checked),
so that no long one starts last.  The reports come back in the files' order, so the output of
``symdp check`` does not depend on the number of workers.  Each step's points are seeded from
the derivation id and step index (:func:`~symdp.proof.sampling.seed_for`), not from the process.

Proof files are code, and a file must not be able to end, hang or hide the run: a file whose
import, or the check of one of whose derivations, calls ``sys.exit`` or ``os._exit``, raises
``KeyboardInterrupt``/``SystemExit``, crashes its process or runs past the time limit
(``timeout``, default :data:`DEFAULT_TIMEOUT` seconds for the import and for each derivation:
a hang guard, never a budget a verdict depends on -- those are counted in work,
:mod:`symdp.proof.budgets`) is reported as a load error saying so ("hang guard hit"), and the
other files are checked as usual.  A worker's standard output goes to standard error (standard
output carries the report).

With a cache (:class:`~symdp.proof.cache.CheckCache`), a derivation whose key is found is not
checked: its record is reused, the kernel replays its cheap certificates in a worker, and
:attr:`CheckRun.origins` says of every step "checked now", "replayed" or "recorded <key>".

``isolate=False`` checks in this process instead (no worker, no time limit, no cache;
``SystemExit`` raised by a file is still a load error).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import InvalidParameterError
from .check import DEFAULT_DPS, DerivationReport, check_derivation
from .loader import (LoadError, cached_ids, default_proofs_dir, files_naming, load_error,
                     load_file, proof_files)
from ..core.validation import shown

__all__ = ["CheckRun", "DEFAULT_TIMEOUT", "MAX_CHECK_DPS", "MAX_TIMEOUT", "available_cores",
           "check_all", "CHECKED_NOW", "REPLAYED"]

#: seconds a worker may spend importing one proof file, and a child checking one derivation,
#: before its file is stopped; the slowest derivation of proofs/ takes about 10 s
DEFAULT_TIMEOUT = 900.0  # a hang guard
#: the largest ``timeout`` accepted (one day)
MAX_TIMEOUT = 86_400.0
#: the largest ``--dps`` of symdp check, report and step (the numeric stage confirms a
#: failure at twice the precision; beyond this a step takes minutes)
MAX_CHECK_DPS = 1000
#: where a verdict comes from (:attr:`CheckRun.origins`); a reused one not replayed is
#: ``"recorded <key>"`` (the first 12 hex digits of its cache key)
CHECKED_NOW = "checked now"
REPLAYED = "replayed"


@dataclass(frozen=True)
class CheckRun:
    """The reports (in file order, each with its ``source``), the files that failed to load,
    where each step's verdict comes from (``origins``: derivation id -> one of
    :data:`CHECKED_NOW`, :data:`REPLAYED`, ``"recorded <key>"`` per step) and the cache
    entries discarded (``discarded``: ``(entry, why)`` pairs)."""

    reports: tuple
    errors: tuple
    origins: dict = field(default_factory=dict)
    discarded: tuple = ()

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.reports) and not self.errors


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


# --------------------------------------------------------------------------- in this process

def _check_file(task):
    """Load one proof file and check its derivations in this process -> (index, reports,
    load error)."""
    index, path, only, dps, certify = task
    path = Path(path)
    try:
        derivations = load_file(path)
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - reported
        return index, [], load_error(path, exc)
    reports = []
    try:
        for d in derivations:
            if only is not None and d.id not in only:
                continue
            report = check_derivation(d, dps=dps, certify=certify)
            reports.append(replace(report, source=str(path)))
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - reported
        return index, [], load_error(path, exc, doing=f"checking {d.id}")
    return index, reports, None


# --------------------------------------------------------------------------- worker processes

@dataclass(frozen=True)
class _Settings:
    """What a loader and its children need: the options, the record encoder, the cache."""

    dps: tuple
    certify: bool
    encode: object = None     # report -> record (dict), or None: send the report pickled
    cache: bool = False       # also send the replay blobs and the dependencies

    @property
    def preload(self) -> list:
        """The modules the fork server imports before forking loaders: the checker, the record
        encoder, and what nearly every check imports on first use (each child would import
        it again: about 0.15 s of CPU per derivation)."""
        return ["symdp.proof.runner", *CHECK_PRELOAD] + \
            ([self.encode.__module__] if self.encode else [])


#: modules the cascade imports on first use in nearly every check (the certified stage, the
#: kernel's z3, the objects' obligations, and what SymPy imports lazily under them)
CHECK_PRELOAD = ("z3", "sympy.physics.units", "sympy.codegen.cfunctions",
                 "sympy.sets.handlers.issubset", "sympy.sets.handlers.functions",
                 "symdp.numeric.ball_compiler", "symdp.proof.obligations",
                 "symdp.proof.cascade.certified.stage", "symdp.proof.cascade.certified.box",
                 "symdp.proof.cascade.certified.reduce", "symdp.proof.cascade.certified.pieces",
                 "symdp.proof.cascade.certified.points", "symdp.proof.cascade.monotone",
                 "symdp.proof.cascade.search")


def _quiet_worker():
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        os.dup2(2, 1)  # a proof file's prints must not mix with the report on stdout
    except OSError:  # pragma: no cover
        pass


def _outcome(derivation, path: Path, settings: _Settings):
    """Check one derivation -> ``("ok", payload)`` or ``("error", LoadError)``."""
    try:
        start = time.perf_counter()
        report = check_derivation(derivation, dps=settings.dps, certify=settings.certify)
        report = replace(report, source=str(path))
        payload = {"seconds": time.perf_counter() - start}
        if settings.encode is not None:
            payload["record"] = settings.encode(report)
        else:
            try:
                payload["report"] = pickle.dumps(report)
            except Exception:  # noqa: BLE001 - the parent checks it again itself
                payload["report"] = None
        if settings.cache:
            from .cache import dependencies, replay_blob

            payload["replays"] = [(i, blob) for i, (step, result)
                                  in enumerate(zip(derivation.steps, report.steps))
                                  if (blob := replay_blob(step, derivation, result)) is not None]
            payload["deps"] = dependencies()
        return "ok", payload
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - the file's error
        return "error", load_error(path, exc, doing=f"checking {derivation.id}")


def _child(send, derivation, path: Path, settings: _Settings):
    """A forked child of a loader: check one derivation, send its outcome, end the process
    (without the parent's exit handlers)."""
    code = 0
    try:
        send.send(_outcome(derivation, path, settings))
    except BaseException:  # noqa: BLE001 - the loader sees the pipe close
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _loader(conn, path: str, settings: _Settings):
    """A worker process: import one proof file, send its ids, then check each derivation the
    parent asks for in a forked child of its own, relaying each child's report."""
    from multiprocessing import Pipe
    from multiprocessing.connection import wait

    try:
        os.setpgid(0, 0)   # its children in its group: the parent stops them all at once
    except OSError:  # pragma: no cover
        pass
    _quiet_worker()
    path = Path(path)
    try:
        text = path.read_bytes()   # what it imports (the cache stores nothing if it changed)
        derivations = load_file(path)
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - reported
        conn.send(("error", load_error(path, exc)))
        return
    by_id = {}
    for d in derivations:
        by_id.setdefault(d.id, d)
    import hashlib

    conn.send(("ids", [d.id for d in derivations], hashlib.sha256(text).hexdigest()))
    children = {}   # connection -> (id, pid)
    forks = hasattr(os, "fork")
    while True:
        for ready in wait([conn, *children]):
            if ready is conn:
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    message = ("exit",)
                if message[0] == "exit":
                    for _, pid in children.values():
                        _kill(pid)
                    return
                ident = message[1]
                receive, send = Pipe(duplex=False)
                if not forks:  # pragma: no cover - no fork: check here, one at a time
                    send.send(_outcome(by_id[ident], path, settings))
                    pid = None
                else:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    pid = os.fork()
                    if pid == 0:
                        receive.close()
                        conn.close()
                        _child(send, by_id[ident], path, settings)
                send.close()
                children[receive] = (ident, pid)
                continue
            ident, pid = children.pop(ready)
            try:
                outcome = ready.recv()
            except (EOFError, OSError):
                outcome = None
            finally:
                ready.close()
            exitcode = _reap(pid)
            conn.send(("done", ident, outcome) if outcome is not None
                      else ("died", ident, exitcode))


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except (OSError, TypeError):
        pass


def _reap(pid):
    if pid is None:
        return 0
    try:
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)
    except ChildProcessError:  # pragma: no cover
        return None


def _replayer(conn, work):
    """A worker process: replay stored certificates with the kernel, importing each proof
    file to rebuild its steps' claims (:func:`symdp.proof.cache.replay_file`); ``work`` is
    ``[(file index, path, [(id, [(step index, step text, blob)])])]``; sends ``{(file index,
    id): [None or reason per blob]}``."""
    from .cache import replay_file

    _quiet_worker()
    conn.send({(index, ident): reasons for index, path, derivations in work
               for ident, reasons in replay_file(path, derivations).items()})


def _exit_reason(exitcode) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its worker process was killed by {name} before reporting"
    return (f"its worker process ended (exit code {exitcode}) before reporting: the file "
            "called os._exit or crashed the interpreter")


# --------------------------------------------------------------------------- the schedule

#: seconds assumed for a derivation never checked (its file's size / this many bytes per s)
_BYTES_PER_SECOND = 2000.0


class _File:
    """The state of one proof file in a run."""

    def __init__(self, index, path, plan):
        self.index, self.path = index, path
        self.ids = plan.ids            # None until known
        self.hits = dict(plan.hits)    # id -> cache Hit
        self.pending = list(plan.check) if plan.check is not None else None  # None: all
        self.results = {}              # id -> payload of a child
        self.replays = {i: h for i, h in self.hits.items() if h.replays}
        self.replayed = {}             # id -> steps replayed
        self.error = None
        self.process = self.conn = None
        self.loading = False
        self.running = {}              # id -> deadline
        self.deadline = None           # of the import
        self.text = None               # SHA-256 of the text the loader imported

    def needs_loader(self) -> bool:
        return self.error is None and (self.pending is None or bool(self.pending))


def _contexts(preload):
    """The multiprocessing contexts of the loaders and of the replay workers.

    Loaders are forked by a fork server (a fresh interpreter, started by the first run in this
    process, that imported ``preload`` only and then only forks), so that a derivation is
    checked in the same process state whatever the parent imported or did before -- ``symdp
    check``, ``symdp report`` or a test -- and the modules its check loaded are its own (the
    cache's dependencies, :mod:`symdp.proof.cache`).  Replay workers are forked from the
    parent."""
    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    fork = mp.get_context("fork" if "fork" in methods else "spawn")
    if "forkserver" not in methods:  # pragma: no cover - Windows
        return fork, fork
    server = mp.get_context("forkserver")
    if not _SERVER:
        import atexit

        server.set_forkserver_preload(list(preload))   # for the first start, then kept
        atexit.register(_stop_fork_server)
        _SERVER.append(server)
    return server, fork


_SERVER = []   # the fork server's context, once it is set up in this process


class _without_main:
    """Start a process of the fork server without re-importing this program's ``__main__``
    there (multiprocessing does, for spawned processes; a loader needs only its target, and
    a program's main module -- ``symdp``, pytest -- is no part of a check)."""

    def __enter__(self):
        import types

        self.main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")

    def __exit__(self, *exc):
        if self.main is not None:
            sys.modules["__main__"] = self.main
        return False


class _Scheduler:
    def __init__(self, files, plans, settings, jobs, timeout, progress, cache, only):
        self.ctx, self.fork_ctx = _contexts(settings.preload)
        self.files = [_File(i, f, plans[i]) for i, f in enumerate(files)]
        self.settings, self.jobs, self.timeout = settings, jobs, timeout
        self.progress, self.cache, self.only = progress, cache, only
        self.busy = 0
        self.replay_workers = {}   # connection -> (process, files, deadline)
        self.replays_pending = [f for f in self.files if f.replays]
        self.done = 0
        self.total = sum(len(f.pending or ()) for f in self.files)   # to check
        self.max_loaders = jobs + 1

    # ------------------------------------------------------------------ costs and order
    def cost(self, f, ident=None) -> float:
        known = self.cache.cost(f.path, ident) if (self.cache is not None and ident) else None
        if known is not None:
            return known
        try:
            return f.path.stat().st_size / _BYTES_PER_SECOND
        except OSError:
            return 0.0

    def order(self):
        """Files by their longest pending derivation, longest first; within a file, the
        pending ids longest first."""
        for f in self.files:
            if f.pending:
                f.pending.sort(key=lambda i, f=f: -self.cost(f, i))
        return sorted(self.files, key=lambda f: (-(self.cost(f, f.pending[0]) if f.pending
                                                   else self.cost(f)), f.index))

    # ------------------------------------------------------------------ starting work
    def live_loaders(self) -> int:
        return sum(1 for f in self.files if f.process is not None)

    def launch(self):
        if self.replays_pending:   # cheap replays first, in at most `jobs` workers
            batches = [[] for _ in range(min(self.jobs, len(self.replays_pending)))]
            sizes = [0] * len(batches)
            for f in sorted(self.replays_pending, key=lambda f: -sum(
                    len(h.replays) for h in f.replays.values())):
                i = sizes.index(min(sizes))
                batches[i].append(f)
                sizes[i] += sum(len(h.replays) for h in f.replays.values())
            self.replays_pending = []
            for batch in batches:
                self.start_replay(batch)
        started = True
        while started and self.busy < self.jobs:
            started = False
            for f in self.order():
                if not f.needs_loader():
                    continue
                if f.process is None:
                    if self.live_loaders() >= self.max_loaders:
                        continue
                    self.start_loader(f)
                    started = True
                    break
                if f.loading or not f.pending:
                    continue
                ident = f.pending.pop(0)
                f.conn.send(("check", ident))
                f.running[ident] = time.monotonic() + self.timeout
                self.busy += 1
                started = True
                break

    def start_loader(self, f):
        receive, send = self.ctx.Pipe(duplex=True)
        f.process = self.ctx.Process(target=_loader, args=(send, str(f.path), self.settings))
        with _without_main():
            f.process.start()
        send.close()
        f.conn, f.loading = receive, True
        f.deadline = time.monotonic() + self.timeout
        self.busy += 1

    def start_replay(self, files):
        work = [(f.index, str(f.path),
                 [(ident, [(i, (s["lhs"], s["relation"], s["rhs"]), blob)
                           for i, blob in hit.replays for s in [hit.record["steps"][i]]])
                  for ident, hit in f.replays.items()])
                for f in files]
        receive, send = self.fork_ctx.Pipe(duplex=False)
        process = self.fork_ctx.Process(target=_replayer, args=(send, work), daemon=True)
        process.start()
        send.close()
        self.replay_workers[receive] = (process, files, time.monotonic() + self.timeout)
        self.busy += 1

    # ------------------------------------------------------------------ messages
    def fail(self, f, error):
        """``f`` failed: its error, its worker stopped, none of its reports kept."""
        if f.error is None:
            f.error = error
        self.busy -= len(f.running) + (1 if f.loading else 0)
        self.done += len(f.running)
        f.running, f.loading, f.pending = {}, False, []
        self.stop_loader(f)

    def stop_loader(self, f, *, polite=False):
        if f.process is None:
            return
        if polite:
            try:
                f.conn.send(("exit",))
            except OSError:
                polite = False
            f.process.join(5)
        if f.process.is_alive():
            try:
                os.killpg(f.process.pid, signal.SIGKILL)
            except OSError:
                pass
            f.process.kill()
            f.process.join()
        f.conn.close()
        f.process = f.conn = None

    def on_loader(self, f):
        try:
            message = f.conn.recv()
        except (EOFError, OSError):
            f.process.join(5)
            self.fail(f, LoadError(str(f.path), _exit_reason(f.process.exitcode)))
            return
        kind = message[0]
        if kind == "error":
            self.fail(f, message[1])
        elif kind == "ids":
            f.loading = False
            self.busy -= 1
            ids = list(message[1])
            f.text = message[2]
            known = f.ids
            f.ids = ids
            wanted = [i for i in dict.fromkeys(ids) if self.only is None or i in self.only]
            if f.pending is None:   # never imported before: every wanted id
                f.pending = [i for i in wanted if i not in f.hits]
                self.total += len(f.pending)
            else:   # the ids the cache expected; an id no longer defined is not checked
                f.pending = [i for i in f.pending if i in ids]
            if known is not None and set(known) != set(ids):
                f.hits = {i: h for i, h in f.hits.items() if i in ids}
        elif kind in ("done", "died"):
            ident = message[1]
            f.running.pop(ident, None)
            self.busy -= 1
            self.done += 1
            if kind == "died":
                self.fail(f, LoadError(str(f.path), _exit_reason(message[2])))
                return
            status, payload = message[2]
            if status == "error":
                self.fail(f, payload)
                return
            f.results[ident] = payload
            if self.progress is not None:
                self.progress(self.done, self.total, ident)
        if f.error is None and not f.pending and not f.running and not f.loading:
            self.stop_loader(f, polite=True)

    def on_replay(self, conn):
        process, files, _ = self.replay_workers.pop(conn)
        try:
            outcome = conn.recv()
        except (EOFError, OSError):
            outcome = {}
        conn.close()
        process.join(5)
        self.busy -= 1
        for f in files:
            self.settle_replays(f, outcome)

    def settle_replays(self, f, outcome):
        for ident, hit in f.replays.items():
            reasons = outcome.get((f.index, ident)) or ["the replay did not finish"]
            failed = [r for r in reasons if r is not None]
            if failed or len(reasons) != len(hit.replays):
                self.cache.forget(hit, "the kernel did not replay its certificate: "
                                  + (failed[0] if failed else "no answer"))
                del f.hits[ident]
                if f.pending is None:
                    f.pending = []
                f.pending.append(ident)
                self.total += 1
            else:
                f.replayed[ident] = {i for i, _ in hit.replays}
        f.replays = {}

    def check_deadlines(self):
        now = time.monotonic()
        for f in self.files:
            late = (f.loading and f.deadline is not None and now >= f.deadline) or \
                any(now >= d for d in f.running.values())
            if late and f.error is None:
                what = ("its import" if f.loading else
                        "checking " + next(i for i, d in f.running.items() if now >= d))
                self.fail(f, LoadError(str(f.path), (
                    f"hang guard hit: {what} did not finish within the time limit of "
                    f"{self.timeout:g} s (--timeout, per file import and per derivation: a "
                    "guard against a hang, not a budget); its worker process was stopped")))
        for conn, (process, files, deadline) in list(self.replay_workers.items()):
            if now >= deadline:
                process.kill()
                process.join()
                conn.close()
                del self.replay_workers[conn]
                self.busy -= 1
                for f in files:
                    self.settle_replays(f, {})

    def run(self):
        from multiprocessing.connection import wait

        try:
            while True:
                self.launch()
                conns = {f.conn: f for f in self.files if f.conn is not None
                         and (f.loading or f.running)}
                waiting = list(conns) + list(self.replay_workers)
                if not waiting:
                    if any(f.needs_loader() for f in self.files):
                        continue   # pragma: no cover - launch() starts them
                    break
                deadlines = [d for f in self.files for d in f.running.values()] + \
                    [f.deadline for f in self.files if f.loading and f.deadline] + \
                    [w[2] for w in self.replay_workers.values()]
                left = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
                for conn in wait(waiting, timeout=left):
                    if conn in self.replay_workers:
                        self.on_replay(conn)
                    elif conns[conn].conn is conn:
                        self.on_loader(conns[conn])
                self.check_deadlines()
        finally:
            for f in self.files:   # done or interrupted: stop every worker
                self.stop_loader(f)
            for conn, (process, _, _) in self.replay_workers.items():
                process.kill()
                process.join()
                conn.close()


def _stop_fork_server():
    """Stop the fork server, waiting for it (at exit): the CPU time of every process of the
    runs is then counted in this process's children (``time symdp check`` measures all of
    it).  Until then later runs in this process reuse it: it only forks, so its state is the
    same for every run."""
    from multiprocessing import forkserver

    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        try:
            stop()
        except (OSError, ChildProcessError):  # pragma: no cover
            pass


# --------------------------------------------------------------------------- check_all

def check_all(paths=None, *, jobs: int | None = None, only=None, dps=DEFAULT_DPS,
              certify: bool = True, progress=None, timeout: float | None = DEFAULT_TIMEOUT,
              isolate: bool = True, cache=None, codec=None) -> CheckRun:
    """Check every derivation in ``paths`` (default: the proofs directory).

    ``jobs`` processes compute at once (default :func:`available_cores`): each proof file is
    imported by a worker of its own and each derivation checked in a child of it, the
    longest first; a file whose import or derivation runs past ``timeout`` seconds is a load
    error (``None`` for no limit).  ``isolate=False`` checks in this process (``jobs``,
    ``timeout`` and ``cache`` are then unused).  ``only``: derivation ids to check; the files
    whose text names them are loaded first, and every file only when some id is not found
    there (an id found in no file raises :class:`~symdp.core.errors.InvalidParameterError`).
    ``progress(done, total, name)`` is called as each derivation finishes.  A derivation id
    defined twice is reported as a load error of the later file, as
    :func:`~symdp.proof.loader.load_derivations` does.

    ``codec``: ``(encode, decode)``, a report to its record (a JSON-able dict) and back
    (``decode(record, source)``, e.g. :mod:`symdp.report.check_output`'s); with it each
    child sends the record, not the pickled report, and the reports returned are the
    decoded records.  ``cache``: a :class:`~symdp.proof.cache.CheckCache` (needs ``codec``);
    a derivation found there is reused, not checked (:attr:`CheckRun.origins`).
    """
    files = proof_files([default_proofs_dir()] if not paths else paths)
    if jobs is None:
        jobs = available_cores()
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise InvalidParameterError(f"jobs must be an integer >= 1; got jobs={shown(jobs)}")
    if timeout is None:
        timeout = float("inf")
    elif (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
          or not 0 < timeout <= MAX_TIMEOUT):
        raise InvalidParameterError(f"timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}]; "
                                    f"got timeout={shown(timeout)}")
    if cache is not None and codec is None:
        raise InvalidParameterError("cache needs codec: the cache stores records")
    only_set = frozenset(only) if only else None
    if only_set is not None:
        # most ids are written in the file that defines them, others are in the id index
        # (the cache's, or that of an earlier `symdp latex --list`): load those first
        likely = files_naming(files, only_set)
        likely = [f for f in files if f in likely or set(_known_ids(f, cache) or ()) & only_set]
        run = _check_files(likely, only_set, jobs, dps, certify, progress, timeout, isolate,
                           cache, codec)
        if only_set <= {r.derivation.id for r in run.reports}:
            return run
    return _check_files(files, only_set, jobs, dps, certify, progress, timeout, isolate,
                        cache, codec, total_files=len(files))


def _known_ids(f, cache):
    """The ids of proof file ``f`` from an index, without importing it (None: unknown)."""
    from .cache import known_ids

    ids = known_ids(f, cache.directory if cache is not None else None)
    return ids if ids is not None else cached_ids(f)


def _check_files(files, only_set, jobs, dps, certify, progress, timeout, isolate, cache,
                 codec, total_files=None) -> CheckRun:
    tasks = [(i, str(f), only_set, tuple(dps), certify) for i, f in enumerate(files)]
    discarded = ()
    if not isolate:
        results = []
        for n, task in enumerate(tasks, 1):
            results.append(_check_file(task))
            if progress is not None:
                progress(n, len(tasks), files[task[0]].name)
        if codec is not None:
            results = [(i, [codec[1](codec[0](r), r.source) for r in reports], error)
                       for i, reports, error in results]
        results = [(i, [(r, (CHECKED_NOW,) * len(r.steps)) for r in reports], error)
                   for i, reports, error in results]
    else:
        results, discarded = _run_isolated(files, only_set, tuple(dps), certify, jobs,
                                           timeout, progress, cache, codec)
    reports, errors, seen, origins = [], [], {}, {}
    for _, file_reports, error in results:
        if error is not None:
            errors.append(error)
            continue
        for r, where in file_reports:
            ident = r.derivation.id
            if ident in seen:
                errors.append(LoadError(r.source, f"duplicate derivation id {ident!r} "
                                                  f"(also in {seen[ident]})"))
                continue
            seen[ident] = r.source
            origins[ident] = where
            reports.append(r)
    if only_set is not None and total_files is not None:
        missing = sorted(only_set - set(seen))
        if missing:
            raise InvalidParameterError(f"only: unknown derivation id {missing[0]!r} (not "
                                        f"defined in the {total_files} proof file(s) checked)")
    return CheckRun(tuple(reports), tuple(errors), origins, tuple(discarded))


def _run_isolated(files, only_set, dps, certify, jobs, timeout, progress, cache, codec):
    """The schedule of the module docstring -> ``([(index, [(report, origins)], error)],
    discarded)``."""
    from .cache import FilePlan

    plans = [FilePlan(None, {}, None) for _ in files]
    if cache is not None:
        from .cache import prepare

        prepare()   # read the distributions' metadata once, before forking
        plans = [cache.plan(f, only_set) for f in files]
        for f, plan in zip(files, plans):
            for ident, hit in list(plan.hits.items()):
                try:   # a record that does not read back is discarded and checked again
                    hit.report = codec[1](hit.record, str(f))
                    if len(hit.report.steps) != len(hit.record["steps"]) or any(
                            not 0 <= i < len(hit.report.steps) for i, _ in hit.replays):
                        raise ValueError("its steps do not match")
                except Exception as exc:  # noqa: BLE001
                    cache.forget(hit, f"its record does not read back ({exc})")
                    del plan.hits[ident]
                    plan.check.append(ident)
    settings = _Settings(dps, certify, codec[0] if codec else None, cache is not None)
    scheduler = _Scheduler(files, plans, settings, jobs, timeout, progress, cache, only_set)
    scheduler.run()
    results = []
    for f in scheduler.files:
        if f.error is not None:
            results.append((f.index, [], f.error))
            continue
        reports, stored, made = [], {}, {}
        for ident in (f.ids or ()):
            if only_set is not None and ident not in only_set:
                continue
            if ident in made:   # defined twice in the file: a load error, as before
                reports.append(made[ident])
                continue
            if ident in f.hits:
                hit = f.hits[ident]
                replayed = f.replayed.get(ident, set())
                origins = tuple(REPLAYED if i in replayed else f"recorded {hit.key[:12]}"
                                for i in range(len(hit.report.steps)))
                made[ident] = (_with_seconds(hit.report, hit.seconds), origins)
                reports.append(made[ident])
                continue
            payload = f.results.get(ident)
            if payload is None:
                continue
            if codec is not None:
                report = _with_seconds(codec[1](payload["record"], str(f.path)),
                                       payload["seconds"])
            else:
                report = _unpickle(f.path, ident, payload["report"], settings)
            stored[ident] = payload
            made[ident] = (report, (CHECKED_NOW,) * len(report.steps))
            reports.append(made[ident])
            if cache is not None:
                cache.note_cost(f.path, ident, payload["seconds"])
        if cache is not None and stored and cache.text_of(f.path) == f.text:
            cache.store(f.path, f.ids, {i: {"record": p["record"], "deps": p["deps"],
                                            "replays": p["replays"], "seconds": p["seconds"]}
                                        for i, p in stored.items()})
        results.append((f.index, reports, None))
    if cache is not None:
        cache.save_costs()
    return results, (cache.discarded if cache is not None else ())


def _with_seconds(report, seconds):
    return replace(report, seconds=seconds) if hasattr(report, "seconds") else report


def _unpickle(path, ident, data, settings):
    """A child's report, importing the proof module first when it needs its classes; the
    derivation is checked again in this process only when that fails too."""
    if data is not None:
        try:
            return pickle.loads(data)
        except Exception:  # noqa: BLE001 - e.g. a class defined in the proof module
            try:
                load_file(Path(path))
                return pickle.loads(data)
            except Exception:  # noqa: BLE001
                pass
    derivation = next(d for d in load_file(Path(path)) if d.id == ident)
    report = check_derivation(derivation, dps=settings.dps, certify=settings.certify)
    return replace(report, source=str(path))
