r"""No verdict depends on the clock (issue #19): two runs of ``symdp check --json``, compared.

    python -m benchmarks.determinism                     # proofs/: --jobs 1, then --jobs 2 loaded
    python -m benchmarks.determinism proofs/drs_clt_functionals.py
    python -m benchmarks.determinism --against check.json     # check.json vs one loaded run
    python -m benchmarks.determinism --against check.json --load "python -m pytest -n auto -m slow"
    python -m benchmarks.determinism --compare a.json b.json   # compare two reports only

The first run is ``symdp check --json --jobs 1`` (on whatever load the machine has); the
second is ``--jobs 2`` while this script keeps one more CPU-bound process busy (a Python
loop, started here and ended here by its pid), so that a stage whose verdict rests on a
wall-clock budget gets less of it.  The verdicts are then compared step by step: the
verdict, the unproved hypotheses it carries, and any load error.  Exit 0 when every step
has the same verdict in both runs, 1 naming each step that differs, 2 when a run gives no
report.  A full run over proofs/ takes about 130 s of CPU (on the 2-core machine shared
with other jobs, load about 7, the two runs took 1116 s and 841 s of wall-clock time; all 361
steps had the same verdict).

``--against FILE`` takes the first run's report from FILE -- CI's step 1 writes the README's
``symdp check`` there, unloaded, its verdicts reused from the cache that check filled -- and
makes only the second, loaded run, with ``--no-cache``: the one comparison shows both that no
verdict depends on the load and that none differs with and without the cache (issue #30).
The runs are ``--no-cache`` here too (each checks every derivation).  ``--load COMMAND``
makes the load with COMMAND instead of a busy loop -- CI runs its slow tests there, so that
the load is work it has to do anyway -- waits for it, and fails (exit 1, with the end of its
output) when it fails.  The budgets are counted in work (:mod:`symdp.proof.budgets`),
so the two runs agree; before that, 1 of 361 steps differed.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def step_verdicts(report: dict) -> dict:
    """``{(derivation id, step index): (verdict, hypotheses)}`` of one ``symdp check --json``
    report, plus ``{("load error", path): ("LOAD ERROR",)}`` for each file that did not load
    (its message is not compared: a timeout names the seconds it waited)."""
    out = {}
    for derivation in report.get("derivations", ()):
        for i, step in enumerate(derivation.get("steps", ()), start=1):
            key = (derivation["id"], step.get("index", i))
            out[key] = (step["verdict"], tuple(step.get("hypotheses") or ()))
    for error in report.get("load_errors", ()):
        out[("load error", error.get("path", "?"))] = ("LOAD ERROR",)
    return out


def _words(value) -> str:
    if value is None:
        return "absent"
    verdict, *rest = value
    hypotheses = rest[0] if rest else ()
    return verdict + (" under: " + "; ".join(hypotheses) if hypotheses else "")


def differences(first: dict, second: dict, names=("first", "second")) -> list[str]:
    """One line per step whose verdict differs between two reports (in report order), e.g.
    ``clt_kappa3_of_gaussian_closed_form step 1: PROVED (--jobs 1) vs CHECKED_AT_POINTS
    (--jobs 2, loaded)``; a step or load error present in one report only differs too."""
    a, b = step_verdicts(first), step_verdicts(second)
    lines = []
    for key in list(a) + [k for k in b if k not in a]:
        if a.get(key) == b.get(key):
            continue
        where = f"{key[0]} step {key[1]}" if key[0] != "load error" else f"load error in {key[1]}"
        lines.append(f"{where}: {_words(a.get(key))} ({names[0]}) vs "
                     f"{_words(b.get(key))} ({names[1]})")
    return lines


def _check(paths, jobs: int, out: Path) -> dict:
    """``symdp check --json OUT --jobs JOBS PATHS``; the report (its exit code 1 -- a verdict
    missing its expectation -- is part of what is compared, not an error)."""
    command = [sys.executable, "-m", "symdp.cli.main", "check", *paths, "--jobs", str(jobs),
               "--json", str(out), "--no-cache"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1) or not out.exists():
        raise RuntimeError(f"{' '.join(command[2:])} exited {done.returncode}: "
                           f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    return json.loads(out.read_text())


def _busy():
    """One CPU-bound process (a Python loop), ended by the caller through its pid."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.determinism",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="proof files or directories (default: proofs/)")
    parser.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                        help="compare two existing reports instead of running the checks")
    parser.add_argument("--against", metavar="FILE",
                        help="the first run's report (a symdp check --json file): make only the "
                        "second, loaded run")
    parser.add_argument("--load", metavar="COMMAND",
                        help="the load of the second run: COMMAND (split as a shell would, "
                        "run without one) instead of a busy loop; its failure fails the run")
    parser.add_argument("--keep", metavar="DIR", help="write both reports into DIR")
    args = parser.parse_args(argv)
    load_failed = False
    if args.compare:
        try:
            first, second = (json.loads(Path(p).read_text()) for p in args.compare)
        except (OSError, ValueError) as exc:
            print(f"determinism: cannot read a report: {exc}", file=sys.stderr)
            return 2
        names = tuple(args.compare)
    else:
        where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="symdp-det-"))
        where.mkdir(parents=True, exist_ok=True)
        names = ("--jobs 1", "--jobs 2, loaded")
        try:
            start = time.perf_counter()
            if args.against:
                try:
                    first = json.loads(Path(args.against).read_text())
                except (OSError, ValueError) as exc:
                    print(f"determinism: cannot read a report: {exc}", file=sys.stderr)
                    return 2
                names = (args.against, "--jobs 2 --no-cache, loaded")
            else:
                first = _check(args.paths, 1, where / "jobs1.json")
            middle = time.perf_counter()
            log = open(where / "load.log", "w+") if args.load else None
            busy = _busy() if not args.load else subprocess.Popen(
                shlex.split(args.load), stdout=log, stderr=subprocess.STDOUT)
            try:
                second = _check(args.paths, 2, where / "jobs2-loaded.json")
            except BaseException:
                busy.kill()   # a failed check: the load is not waited for
                busy.wait()
                raise
            finally:
                if not args.load:
                    busy.kill()
                    busy.wait()
            end = time.perf_counter()
            if args.load:   # the load is work of its own: wait for it and report it
                busy.wait()
                log.seek(0)
                output = log.read()
                log.close()
                print(f"the load, {args.load}: exit {busy.returncode}")
                print("\n".join(output.rstrip().splitlines()[-15:]))
                if busy.returncode != 0:
                    print(f"determinism: the load command failed (exit {busy.returncode})")
                    load_failed = True
        except RuntimeError as exc:
            print(f"determinism: {exc}", file=sys.stderr)
            return 2
        print((f"first run from {args.against}" if args.against else
               f"--jobs 1: {middle - start:.0f} s") +
              f"; --jobs 2 with one more CPU-bound process: "
              f"{end - middle:.0f} s (load average now {os.getloadavg()[0]:.1f}); "
              f"reports in {where}")
    lines = differences(first, second, names)
    steps = len(step_verdicts(first))
    if lines:
        print(f"{len(lines)} of {steps} steps differ:")
        for line in lines:
            print("  " + line)
        return 1
    print(f"all {steps} steps have the same verdict in both runs")
    return 1 if load_failed else 0


if __name__ == "__main__":
    sys.exit(main())
