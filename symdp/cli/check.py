"""``symdp check [PATH...] [--dps N] [--only ID] [--json FILE] [--verbose] [--no-certify] [--jobs N]
[--durations N] [--timeout SECONDS] [--require-proof] [--cache DIR | --no-cache]``."""

from __future__ import annotations

import sys

from ..core.files import atomic_write, not_an_input, output_file
from ..proof.runner import (DEFAULT_TIMEOUT, MAX_CHECK_DPS, MAX_TIMEOUT, available_cores,
                            check_all)
from ..report.check_output import CODEC, json_report, text_report


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
                   help="stop a proof file whose import, or the check of one of its "
                   "derivations, takes more than this many seconds and report it as a load "
                   f"error; default {DEFAULT_TIMEOUT:g}")
    cache = p.add_mutually_exclusive_group()
    cache.add_argument("--cache", metavar="DIR",
                       help="reuse the derivations checked before whose proof file, symdp's "
                       "modules, libraries and options did not change, from this directory "
                       "(default: $SYMDP_CACHE_DIR, else $XDG_CACHE_HOME/symdp or "
                       "~/.cache/symdp); each verdict says 'checked now', 'replayed' or "
                       "'recorded <key>'")
    cache.add_argument("--no-cache", action="store_true",
                       help="check every derivation; read and write no cache entry")
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
    cache = _cache(args, dps)
    show_progress = sys.stderr.isatty()
    progress = progress_printer(show_progress)
    try:
        outcome = check_all(args.paths or None, jobs=args.jobs or available_cores(),
                            only=args.only, dps=dps, certify=args.certify, progress=progress,
                            timeout=args.timeout, cache=cache, codec=CODEC)
    finally:
        if show_progress:
            sys.stderr.write("\r" + " " * 80 + "\r")
    reports, errors = list(outcome.reports), list(outcome.errors)
    for entry, why in outcome.discarded:   # said, never hidden: each was checked again
        sys.stderr.write(f"symdp check: cache entry {entry} discarded: {why}; checked again\n")
    if args.json is not None:
        text = json_report(reports, errors, dps=dps, require_proof=args.require_proof,
                           origins=outcome.origins)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            atomic_write("--json", args.json, text + "\n")
    if args.json != "-":
        print(text_report(reports, errors, verbose=args.verbose,
                          require_proof=args.require_proof, origins=outcome.origins))
        if args.durations:
            print(_durations(reports, args.durations, outcome.origins))
    ok = all(r.ok for r in reports) and not errors
    if args.require_proof:
        ok = ok and all(r.meets(require_proof=True) for rep in reports for r in rep.steps)
    return 0 if ok else 1


def _cache(args, dps):
    """The cache of ``--cache DIR`` (default directory without it); with ``--no-cache`` one
    that reads and writes no entry (the recorded costs still order the work)."""
    from ..proof.cache import CheckCache

    if args.cache is not None and "\x00" in args.cache:
        raise ValueError("--cache: a path cannot hold a NUL character")
    return CheckCache(args.cache, dps=dps, certify=args.certify, read=not args.no_cache,
                      write=not args.no_cache)


def progress_printer(terminal: bool, *, every: float = 10.0):
    """``progress(done, total, name)``: on a terminal one line rewritten in place; in a pipe
    (CI, a log) a line at most every ``every`` seconds, so a long run shows it is alive
    while a short one prints nothing."""
    import time

    last = [time.monotonic()]

    def progress(done, total, name):
        if terminal:
            sys.stderr.write(f"\r[{done}/{total}] {name[:64]:<64}")
            sys.stderr.flush()
        elif done < total and time.monotonic() - last[0] >= every:
            last[0] = time.monotonic()
            sys.stderr.write(f"symdp check: {done}/{total} done (last: {name})\n")
            sys.stderr.flush()

    return progress


def _durations(reports, count: int, origins=None) -> str:
    """The ``count`` slowest derivations (seconds spent checking their steps, in a worker;
    for a derivation reused from the cache, when it was checked)."""
    slowest = sorted(reports, key=lambda r: -r.seconds)[:count]
    total = sum(r.seconds for r in reports)
    lines = [f"\nslowest {len(slowest)} of {len(reports)} derivations "
             f"({total:.1f} s of checking in all):"]
    width = max((len(r.derivation.id) for r in slowest), default=0)

    def reused(r):
        found = (origins or {}).get(r.derivation.id, ())
        return "  (reused: seconds when checked)" if found and "checked now" not in found else ""

    lines += [f"  {r.seconds:7.2f} s  {r.derivation.id:<{width}}  {r.source}{reused(r)}"
              for r in slowest]
    return "\n".join(lines)
