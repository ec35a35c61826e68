"""``symdp check [PATH...] [--dps N] [--only ID] [--json FILE] [--verbose] [--no-certify] [--jobs N]
[--durations N]``."""

from __future__ import annotations

import sys

from ..report.check_output import json_report, text_report
from ..proof.runner import available_cores, check_all


def add_parser(subparsers):
    p = subparsers.add_parser("check", help="check every derivation in proofs/ (or the given files)",
                              description="Check derivations step by step; exit 0 when every "
                              "verdict matches its expectation, 1 otherwise, 2 on usage errors.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="proof files or directories (default: proofs/)")
    p.add_argument("--dps", type=int, default=60, metavar="N",
                   help="higher working precision in digits (the lower is max(15, N/2)); default 60")
    p.add_argument("--only", action="append", metavar="ID", help="check only this derivation id (repeatable)")
    p.add_argument("--json", metavar="FILE", help="write the machine-readable report here ('-' for stdout)")
    p.add_argument("--verbose", action="store_true", help="show each step's formula and rule, full details")
    p.add_argument("--no-certify", dest="certify", action="store_false",
                   help="skip the CERTIFIED stage (ball arithmetic); faster, NUMERIC_AT_POINTS where it would certify")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="worker processes, one proof file at a time each (default: one per "
                   "available core; 1 = no workers). The output does not depend on N.")
    p.add_argument("--durations", type=int, default=0, metavar="N",
                   help="after the summary, list the N slowest derivations with their seconds")
    return p


def run(args) -> int:
    if args.dps < 30:
        raise ValueError(f"--dps must be >= 30; got --dps={args.dps}")
    dps = (max(15, args.dps // 2), args.dps)
    if args.durations < 0:
        raise ValueError(f"--durations must be >= 0; got --durations={args.durations}")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1; got --jobs={args.jobs}")
    show_progress = sys.stderr.isatty()

    def progress(done, total, name):
        if show_progress:
            sys.stderr.write(f"\r[{done}/{total} files] {name[:60]:<60}")
            sys.stderr.flush()

    try:
        outcome = check_all(args.paths or None, jobs=args.jobs or available_cores(),
                         only=args.only, dps=dps, certify=args.certify, progress=progress)
    finally:
        if show_progress:
            sys.stderr.write("\r" + " " * 80 + "\r")
    reports, errors = list(outcome.reports), list(outcome.errors)
    if args.json:
        text = json_report(reports, errors, dps=dps)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            _write_atomically(args.json, text + "\n")
    if args.json != "-":
        print(text_report(reports, errors, verbose=args.verbose))
        if args.durations:
            print(_durations(reports, args.durations))
    ok = all(r.ok for r in reports) and not errors
    return 0 if ok else 1


def _durations(reports, count: int) -> str:
    """The ``count`` slowest derivations (seconds spent checking their steps, in a worker)."""
    slowest = sorted(reports, key=lambda r: -r.seconds)[:count]
    total = sum(r.seconds for r in reports)
    lines = [f"\nslowest {len(slowest)} of {len(reports)} derivations "
             f"({total:.1f} s of checking in all):"]
    width = max((len(r.derivation.id) for r in slowest), default=0)
    lines += [f"  {r.seconds:7.2f} s  {r.derivation.id:<{width}}  {r.source}" for r in slowest]
    return "\n".join(lines)


def _write_atomically(path, text):
    import os
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".symdp-", suffix=".json")
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror}") from None
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
