"""``symdp check [PATH...] [--dps N] [--only ID] [--json FILE] [--verbose] [--no-certify] [--jobs N]
[--durations N] [--timeout SECONDS] [--require-proof]``."""

from __future__ import annotations

import sys

from ..core.files import atomic_write, not_an_input, output_file
from ..proof.runner import (DEFAULT_TIMEOUT, MAX_CHECK_DPS, MAX_TIMEOUT, available_cores,
                            check_all)
from ..report.check_output import json_report, text_report


def add_parser(subparsers):
    p = subparsers.add_parser("check", help="check every derivation in proofs/ (or the given files)",
                              description="Check derivations step by step; exit 0 when every "
                              "verdict matches its expectation, 1 otherwise (with --require-proof also when a step "
                              "holds only at points or under unproved hypotheses), 2 on usage errors. "
                              "Writing your own proof file (every field, a worked example): "
                              "docs/writing-proofs.md.")
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
    p.add_argument("--require-proof", action="store_true",
                   help="exit 1 also when a step expected to hold does not hold for every "
                   "parameter value (checked at points only, or proved under unproved "
                   "hypotheses); such steps are listed")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="stop a proof file (import and check) after this many seconds and "
                   f"report it as a load error; default {DEFAULT_TIMEOUT:g}")
    return p


def run(args) -> int:
    if not 30 <= args.dps <= MAX_CHECK_DPS:  # the cascade confirms at twice this precision
        raise ValueError(f"--dps must be in [30, {MAX_CHECK_DPS}]; got --dps={args.dps}")
    dps = (max(15, args.dps // 2), args.dps)
    if args.durations < 0:
        raise ValueError(f"--durations must be >= 0; got --durations={args.durations}")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1; got --jobs={args.jobs}")
    if not 0 < args.timeout <= MAX_TIMEOUT:  # also NaN
        raise ValueError(f"--timeout must be in (0, {MAX_TIMEOUT:g}] seconds; "
                         f"got --timeout={args.timeout:g}")
    if args.json is not None and args.json != "-":
        output_file("--json", args.json)  # before any work: a regular file or a new one
        not_an_input("--json", args.json, args.paths or ["proofs"], within_directories=(".py",))
    show_progress = sys.stderr.isatty()
    progress = progress_printer(show_progress)
    try:
        outcome = check_all(args.paths or None, jobs=args.jobs or available_cores(),
                            only=args.only, dps=dps, certify=args.certify, progress=progress,
                            timeout=args.timeout)
    finally:
        if show_progress:
            sys.stderr.write("\r" + " " * 80 + "\r")
    reports, errors = list(outcome.reports), list(outcome.errors)
    if args.json is not None:
        text = json_report(reports, errors, dps=dps, require_proof=args.require_proof)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            atomic_write("--json", args.json, text + "\n")
    if args.json != "-":
        print(text_report(reports, errors, verbose=args.verbose,
                          require_proof=args.require_proof))
        if args.durations:
            print(_durations(reports, args.durations))
    ok = all(r.ok for r in reports) and not errors
    if args.require_proof:
        ok = ok and all(r.meets(require_proof=True) for rep in reports for r in rep.steps)
    return 0 if ok else 1


def progress_printer(terminal: bool, *, every: float = 10.0):
    """``progress(done, total, name)``: on a terminal one line rewritten in place; in a pipe
    (CI, a log) a line at most every ``every`` seconds, so a long run shows it is alive
    while a short one prints nothing."""
    import time

    last = [time.monotonic()]

    def progress(done, total, name):
        if terminal:
            sys.stderr.write(f"\r[{done}/{total} files] {name[:60]:<60}")
            sys.stderr.flush()
        elif done < total and time.monotonic() - last[0] >= every:
            last[0] = time.monotonic()
            sys.stderr.write(f"symdp check: {done}/{total} files done (last: {name})\n")
            sys.stderr.flush()

    return progress


def _durations(reports, count: int) -> str:
    """The ``count`` slowest derivations (seconds spent checking their steps, in a worker)."""
    slowest = sorted(reports, key=lambda r: -r.seconds)[:count]
    total = sum(r.seconds for r in reports)
    lines = [f"\nslowest {len(slowest)} of {len(reports)} derivations "
             f"({total:.1f} s of checking in all):"]
    width = max((len(r.derivation.id) for r in slowest), default=0)
    lines += [f"  {r.seconds:7.2f} s  {r.derivation.id:<{width}}  {r.source}" for r in slowest]
    return "\n".join(lines)
