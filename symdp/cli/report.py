"""``symdp report [PATH...] --out DIR [--pdf] [--dps N] [--only ID] [--no-figures] [--no-check] [--jobs N]``
and ``symdp report --from-json FILE --out DIR [--pdf] [--only ID] [--no-figures]``.

Writes ``DIR/symdp-report.tex`` (amsmath) with every derivation of ``proofs/``, its
verdicts, the findings and the figures (``DIR/figures/``); ``--pdf`` compiles it with
pdflatex.  ``--from-json FILE`` typesets the verdicts of a ``symdp check --json FILE``
run instead of checking again.  Exit codes: 0 written and every verdict matches its
expectation; 1 some verdict does not (the document is still written and says so) or
pdflatex failed (one line: the first LaTeX error and the log's path); 2 usage error,
unwritable ``--out``, ``--pdf`` without pdflatex, or a ``--from-json`` file that is not
a complete ``symdp-check/1`` report.
"""

from __future__ import annotations

import sys

from ..proof.runner import MAX_CHECK_DPS
from ..core.validation import shown


def add_parser(subparsers):
    p = subparsers.add_parser(
        "report", help="write a LaTeX (and PDF) report of every derivation with its verdicts",
        description="Check every derivation in proofs/ (or the given files) and write a LaTeX "
        "document: statement, hypotheses, citation, each step with its rule and verdict, "
        "counterexamples, the recorded findings and the figures.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="proof files or directories (default: proofs/)")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (created)")
    p.add_argument("--pdf", action="store_true", help="compile with pdflatex (TeX Live)")
    p.add_argument("--from-json", metavar="FILE",
                   help="typeset the verdicts of this 'symdp check --json FILE' output "
                   "instead of checking again")
    p.add_argument("--dps", type=int, default=None, metavar="N",
                   help="higher working precision of the numeric stage (the lower is "
                   "max(15, N/2)); default 60")
    p.add_argument("--only", action="append", metavar="ID",
                   help="only this derivation id (repeatable)")
    p.add_argument("--no-figures", action="store_true", help="leave the figures out")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="worker processes for the check, one proof file at a time each "
                   "(default: one per available core; 1 = no workers), as symdp check")
    p.add_argument("--no-check", action="store_true",
                   help="layout only: the derivations without verdicts (fast)")
    return p


def run(args) -> int:
    from ..core.files import output_directory
    from ..report import LatexCompileError, write_report

    output_directory("--out", args.out)  # not "" (the current folder), not a file
    _outputs_are_not_inputs(args)
    if args.from_json is not None:
        if not args.from_json.strip():  # Path("") would be the current folder
            raise ValueError(f"--from-json must be a file path; got --from-json={shown(args.from_json)}")
        return _run_from_json(args)
    if args.dps is None:
        args.dps = 60
    if not 30 <= args.dps <= MAX_CHECK_DPS:  # the cascade confirms at twice this precision
        raise ValueError(f"--dps must be in [30, {MAX_CHECK_DPS}]; got --dps={args.dps}")
    dps = (max(15, args.dps // 2), args.dps)
    show_progress = sys.stderr.isatty()

    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1; got --jobs={args.jobs}")

    from .check import progress_printer

    progress = progress_printer(show_progress)  # in a pipe: a line now and then

    try:
        out = write_report(args.out, paths=args.paths or None, only=args.only, dps=dps,
                           pdf=args.pdf, figures=not args.no_figures, check=not args.no_check,
                           progress=progress, jobs=args.jobs)
    except LatexCompileError as exc:
        sys.stderr.write(f"symdp: error: {exc}\n")
        return 1
    finally:
        if show_progress:
            sys.stderr.write("\r" + " " * 80 + "\r")
    return _summarise(out, checked=not args.no_check)


def _outputs_are_not_inputs(args) -> None:
    """--out, and the files the report writes in it (the document, its PDF and log,
    figures/), never name an input of the run (a proof file, a proof directory, --from-json)."""
    import os
    from pathlib import Path

    from ..core.files import not_an_input
    from ..report.build import DEFAULT_NAME

    # an input that is no path at all (empty, a NUL) is refused by its own check later
    inputs = [p for p in (*(args.paths or []), args.from_json) if p and p.strip() and "\x00" not in p]
    not_an_input("--out", args.out, inputs)
    out = Path(args.out)
    written = [out / f"{DEFAULT_NAME}{suffix}" for suffix in (".tex", ".pdf")]
    for given in inputs:  # a figure is replaced by name: no input may sit in figures/
        if given and Path(os.path.realpath(given)).parent == Path(os.path.realpath(out / "figures")):
            written.append(out / "figures" / Path(given).name)
    for path in written:
        not_an_input("--out", path, inputs)


def _run_from_json(args) -> int:
    from ..report import LatexCompileError, write_report_from_json

    given = [flag for flag, on in (("PATH", bool(args.paths)), ("--dps", args.dps is not None),
                                   ("--no-check", args.no_check),
                                   ("--jobs", args.jobs is not None)) if on]
    if given:
        raise ValueError(f"--from-json takes the verdicts from the file: {given[0]} does not "
                         "apply (check again with symdp check --json)")
    try:
        out = write_report_from_json(args.out, args.from_json, only=args.only, pdf=args.pdf,
                                     figures=not args.no_figures)
    except LatexCompileError as exc:
        sys.stderr.write(f"symdp: error: {exc}\n")
        return 1
    return _summarise(out, checked=True, source=args.from_json)


def _summarise(out, *, checked: bool, source: str | None = None) -> int:
    steps = sum(len(r.steps) for r in out.reports)
    if not checked:
        what = "layout only, not checked"
    else:
        mismatches = sum(1 for r in out.reports for s in r.steps if not s.matches_expectation)
        what = f"{len(out.reports)} derivations, {steps} steps" + (
            f" checked by {source}" if source else "") + ", " + (
            "every verdict matches its expectation" if mismatches == 0 else
            f"{mismatches} verdict(s) do NOT match their expectations")
        if out.errors:
            what += f"; {len(out.errors)} proof file(s) failed to load"
    print(f"wrote {out.tex} ({what})")
    if out.figures:
        print(f"wrote {len(out.figures)} figure files in {out.figures[0].parent}")
    if out.pdf is not None:
        pages = f" ({out.pages} pages)" if out.pages else ""
        print(f"wrote {out.pdf}{pages}")
    return 0 if out.ok or not checked and not out.errors else 1
