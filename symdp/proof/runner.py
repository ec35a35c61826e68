"""Checking many proof files, each in a worker process of its own.

A proof file is the unit of work: a worker imports it (a proof module may derive closed forms
at import time, so a file is loaded once, by the worker that checks it) and checks each of its
derivations with :func:`~symdp.proof.check.check_derivation`.  Up to ``jobs`` workers run at
once, the files taken largest-first; the reports come back in the files' order, so the output
of ``symdp check`` does not depend on the number of workers.  Each step's points are seeded
from the derivation id and step index (:func:`~symdp.proof.sampling.seed_for`), not from
the process, so verdicts do not depend on it either.

Proof files are code, and a file must not be able to end, hang or hide the run: each file is
checked in a fresh process (forked where the OS allows), with a time limit (``timeout``,
default :data:`DEFAULT_TIMEOUT` seconds per file): a hang guard, never a budget a verdict
depends on (those are counted in work, :mod:`symdp.proof.budgets`).  A file that calls
``sys.exit`` or ``os._exit``, raises ``KeyboardInterrupt``/``SystemExit``, crashes its
process or runs past the limit is reported as a load error saying so ("hang guard hit"),
and the other files are checked as usual.
A worker's standard output goes to standard error (standard output carries the report).

``isolate=False`` checks in this process instead (no worker, no time limit; ``SystemExit``
raised by a file is still a load error).
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import InvalidParameterError
from .check import DEFAULT_DPS, DerivationReport, check_derivation
from .loader import (LoadError, cached_ids, default_proofs_dir, files_naming, load_error,
                     load_file, proof_files)
from ..core.validation import shown

__all__ = ["CheckRun", "DEFAULT_TIMEOUT", "MAX_CHECK_DPS", "MAX_TIMEOUT", "available_cores", "check_all"]

#: seconds a worker may spend on one proof file (import and check) before it is stopped;
#: the slowest file of proofs/ takes about 20 s on one core of a busy machine
DEFAULT_TIMEOUT = 900.0  # a hang guard: bagging_exact_profile.py alone takes about 260 s of CPU
#: the largest ``timeout`` accepted (one day)
MAX_TIMEOUT = 86_400.0
#: the largest ``--dps`` of symdp check, report and step (the numeric stage confirms a
#: failure at twice the precision; beyond this a step takes minutes)
MAX_CHECK_DPS = 1000


@dataclass(frozen=True)
class CheckRun:
    """The reports (in file order, each with its ``source``) and the files that failed to load."""

    reports: tuple
    errors: tuple

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.reports) and not self.errors


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


def _check_file(task):
    """Load one proof file and check its derivations -> (index, reports, load error)."""
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


def _worker(conn, task):
    """A worker process: check one file and send ``(index, pickled reports, error)``.

    The reports are pickled here: a report may hold objects of classes defined in the proof
    module, which the parent can unpickle only after importing it (:func:`_unpickle`);
    ``None`` when they cannot be pickled at all (the parent then checks the file itself).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        os.dup2(2, 1)  # a proof file's prints must not mix with the report on stdout
    except OSError:  # pragma: no cover
        pass
    index, reports, error = _check_file(task)
    try:
        payload = pickle.dumps(reports)
    except Exception:  # noqa: BLE001
        payload = None
    conn.send((index, payload, error))
    conn.close()


def _unpickle(task, payload):
    """The worker's reports, importing the proof module first when they need its classes;
    the file is checked again in this process only when that fails too."""
    if payload is not None:
        try:
            return pickle.loads(payload)
        except Exception:  # noqa: BLE001 - e.g. a class defined in the proof module
            try:
                load_file(Path(task[1]))
                return pickle.loads(payload)
            except Exception:  # noqa: BLE001
                pass
    return _check_file(task)[1]


def _exit_reason(exitcode) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its worker process was killed by {name} before reporting"
    return (f"its worker process ended (exit code {exitcode}) before reporting: the file "
            "called os._exit or crashed the interpreter")


def _run_isolated(tasks, files, jobs, timeout, progress):
    """Run ``tasks`` in at most ``jobs`` worker processes at once, one process per file."""
    import multiprocessing as mp
    from multiprocessing.connection import wait

    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    # largest files first: a rough cost order, so that no big file starts last
    pending = sorted(tasks, key=lambda t: -Path(t[1]).stat().st_size)
    running = {}  # connection -> (task, process, deadline)
    results = [None] * len(tasks)
    done = 0
    try:
        while pending or running:
            while pending and len(running) < jobs:
                task = pending.pop(0)
                receive, send = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_worker, args=(send, task), daemon=True)
                proc.start()
                send.close()
                running[receive] = (task, proc, time.monotonic() + timeout)
            now = time.monotonic()
            wait_for = max(0.0, min(deadline for _, _, deadline in running.values()) - now)
            ready = wait(list(running), timeout=wait_for)
            finished = []
            for conn in ready:
                task, proc, _ = running[conn]
                try:
                    i, payload, error = conn.recv()
                    reports = [] if error is not None else _unpickle(task, payload)
                except (EOFError, OSError):
                    proc.join(5)
                    i, reports = task[0], []
                    error = LoadError(task[1], _exit_reason(proc.exitcode))
                finished.append(conn)
                results[i] = (i, reports, error)
            now = time.monotonic()
            for conn, (task, proc, deadline) in running.items():
                if conn not in finished and now >= deadline:
                    proc.kill()
                    results[task[0]] = (task[0], [], LoadError(
                        task[1], f"hang guard hit: did not finish within the time limit of "
                                 f"{timeout:g} s per file (--timeout, a guard against a hang, "
                                 "not a budget); its worker process was stopped"))
                    finished.append(conn)
            for conn in finished:
                task, proc, _ = running.pop(conn)
                conn.close()
                proc.join(5)
                if proc.is_alive():  # pragma: no cover - a worker stuck after reporting
                    proc.kill()
                    proc.join()
                done += 1
                if progress is not None:
                    progress(done, len(tasks), files[task[0]].name)
    finally:
        for conn, (_, proc, _) in running.items():  # interrupted: stop every worker
            proc.kill()
            proc.join()
            conn.close()
    return results


def check_all(paths=None, *, jobs: int | None = None, only=None, dps=DEFAULT_DPS,
              certify: bool = True, progress=None, timeout: float | None = DEFAULT_TIMEOUT,
              isolate: bool = True) -> CheckRun:
    """Check every derivation in ``paths`` (default: the proofs directory).

    ``jobs`` worker processes at once (default :func:`available_cores`), each checking one
    file in a process of its own, stopped after ``timeout`` seconds (a load error of that
    file; ``None`` for no limit).  ``isolate=False`` checks in this process (``jobs`` and
    ``timeout`` are then unused).  ``only``: derivation ids to check; the files whose text
    names them are loaded first, and every file only when some id is not found there (an
    id found in no file raises :class:`~symdp.core.errors.InvalidParameterError`).
    ``progress(done, total, name)`` is called as each file finishes.  A derivation id
    defined twice is reported as a load error of the later file, as
    :func:`~symdp.proof.loader.load_derivations` does.
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
    only_set = frozenset(only) if only else None
    if only_set is not None:
        # most ids are written in the file that defines them, others are in the id index of
        # an earlier `symdp latex --list` (symdp.proof.loader.derivation_ids): load those first
        likely = files_naming(files, only_set)
        likely = [f for f in files if f in likely or set(cached_ids(f) or ()) & only_set]
        run = _check_files(likely, only_set, jobs, dps, certify, progress, timeout, isolate)
        if only_set <= {r.derivation.id for r in run.reports}:
            return run
    return _check_files(files, only_set, jobs, dps, certify, progress, timeout, isolate,
                        total_files=len(files))


def _check_files(files, only_set, jobs, dps, certify, progress, timeout, isolate,
                 total_files=None) -> CheckRun:
    tasks = [(i, str(f), only_set, tuple(dps), certify) for i, f in enumerate(files)]
    if not isolate:
        results = []
        for n, task in enumerate(tasks, 1):
            results.append(_check_file(task))
            if progress is not None:
                progress(n, len(tasks), files[task[0]].name)
    else:
        results = _run_isolated(tasks, files, min(jobs, len(tasks)) or 1, timeout, progress)
    reports, errors, seen = [], [], {}
    for _, file_reports, error in results:
        if error is not None:
            errors.append(error)
            continue
        for r in file_reports:
            ident = r.derivation.id
            if ident in seen:
                errors.append(LoadError(r.source, f"duplicate derivation id {ident!r} "
                                                  f"(also in {seen[ident]})"))
                continue
            seen[ident] = r.source
            reports.append(r)
    if only_set is not None and total_files is not None:
        missing = sorted(only_set - set(seen))
        if missing:
            raise InvalidParameterError(f"only: unknown derivation id {missing[0]!r} (not "
                                        f"defined in the {total_files} proof file(s) checked)")
    return CheckRun(tuple(reports), tuple(errors))
