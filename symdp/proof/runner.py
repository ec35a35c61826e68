"""Checking many proof files, in parallel worker processes.

A proof file is the unit of work: a worker imports it (a proof module may derive closed forms
at import time, so a file is loaded once, by the worker that checks it) and checks each of its
derivations with :func:`~symdp.proof.check.check_derivation`.  Workers take the files
largest-first from a shared queue; the reports come back in the files' order, so the output
of ``symdp check`` does not depend on the number of workers.  Each step's points are seeded
from the derivation id and step index (:func:`~symdp.proof.sampling.seed_for`), not from
the process, so verdicts do not depend on it either.

``jobs=1`` checks in this process (no pool); the default is one worker per available core.
"""

from __future__ import annotations

import os
import pickle
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import InvalidParameterError
from .check import DEFAULT_DPS, DerivationReport, check_derivation
from .loader import LoadError, default_proofs_dir, load_file, proof_files

__all__ = ["CheckRun", "available_cores", "check_all"]


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


def _load_error(path: Path, exc: BaseException) -> LoadError:
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((fr for fr in reversed(frames)
                  if fr.filename in (str(path.resolve()), str(path))), None)
    line = f" (line {where.lineno})" if where else ""
    return LoadError(str(path), f"{type(exc).__name__}: {exc}{line}".splitlines()[0])


def _check_file(task):
    """Worker: load one proof file and check its derivations -> (index, reports, load error)."""
    index, path, only, dps, certify = task
    path = Path(path)
    try:
        derivations = load_file(path)
    except Exception as exc:  # noqa: BLE001 - reported with the file, the others go on
        return index, [], _load_error(path, exc)
    reports = []
    for d in derivations:
        if only is not None and d.id not in only:
            continue
        report = check_derivation(d, dps=dps, certify=certify)
        reports.append(replace(report, source=str(path)))
    return index, reports, None


def _check_file_in_worker(task):
    """:func:`_check_file` with the reports pickled here: a report may hold objects of classes
    defined in the proof module, which the parent can unpickle only after importing it
    (:func:`_unpickle`); ``None`` when they cannot be pickled at all."""
    index, reports, error = _check_file(task)
    try:
        return index, pickle.dumps(reports), error
    except Exception:  # noqa: BLE001 - the parent checks this file itself
        return index, None, error


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


def check_all(paths=None, *, jobs: int | None = None, only=None, dps=DEFAULT_DPS,
              certify: bool = True, progress=None) -> CheckRun:
    """Check every derivation in ``paths`` (default: the proofs directory).

    ``jobs`` worker processes (default :func:`available_cores`; 1 = in this process).
    ``only``: derivation ids to check (every file is still loaded, to find them); an id
    found in no file raises :class:`~symdp.core.errors.InvalidParameterError`.  ``progress(done, total, name)`` is called as
    each file finishes.  A derivation id defined twice is reported as a load error of the
    later file, as :func:`~symdp.proof.loader.load_derivations` does.
    """
    files = proof_files([default_proofs_dir()] if not paths else paths)
    if jobs is None:
        jobs = available_cores()
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise InvalidParameterError(f"jobs must be an integer >= 1; got jobs={jobs!r}")
    only_set = frozenset(only) if only else None
    tasks = [(i, str(f), only_set, tuple(dps), certify) for i, f in enumerate(files)]
    jobs = min(jobs, len(tasks)) or 1
    results = [None] * len(tasks)
    if jobs == 1:
        for n, task in enumerate(tasks, 1):
            results[task[0]] = _check_file(task)
            if progress is not None:
                progress(n, len(tasks), files[task[0]].name)
    else:
        import multiprocessing as mp

        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        # largest files first: a rough cost order, so that no big file starts last
        order = sorted(tasks, key=lambda t: -Path(t[1]).stat().st_size)
        with mp.get_context(method).Pool(jobs, maxtasksperchild=None) as pool:
            for n, (i, payload, error) in enumerate(
                    pool.imap_unordered(_check_file_in_worker, order, chunksize=1), 1):
                results[i] = (i, [] if error is not None else _unpickle(tasks[i], payload), error)
                if progress is not None:
                    progress(n, len(tasks), files[i].name)
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
    if only_set is not None:
        missing = sorted(only_set - set(seen))
        if missing:
            raise InvalidParameterError(f"unknown derivation id {missing[0]!r} (not defined in "
                                        f"the {len(files)} proof file(s) checked)")
    return CheckRun(tuple(reports), tuple(errors))
