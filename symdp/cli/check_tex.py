"""``symdp check-tex FILE.tex [--assume REL ...] [--integer NAME ...] [--macros FILE ...]
[--follow-inputs] [--timeout SECONDS] [--json FILE] [--annotate OUT.tex] [--dps N]
[--points N] [--no-certify] [--verbose]``.

Reads the display mathematics of FILE.tex (:mod:`symdp.parsing.document`), checks every
chain with the cascade of ``symdp check`` (:mod:`symdp.report.tex_check`) and prints the
table (:mod:`symdp.report.tex_output`).  Exit 0 when every line was read and every verdict
matches its expectation (a step holds, or a ``% symdp: expect`` finding reproduces), 1
otherwise, 2 on bad input (one line), 3 on an internal error.  The syntax:
docs/check-tex.md.
"""

from __future__ import annotations

import math
import os
import sys

from ..core.errors import InvalidParameterError
from ..core.files import atomic_write_all, input_text, not_an_input, output_file, read_input

#: seconds a file may take by default (kept equal to symdp.report.tex_check.DEFAULT_TIMEOUT,
#: which this module does not import at start-up; a test pins the two)
DEFAULT_TIMEOUT = 300.0
#: the longest --timeout accepted, in seconds (a day)
MAX_TIMEOUT = 86_400.0

#: the largest .tex file read, in bytes
MAX_BYTES = 2_000_000


def add_parser(subparsers):
    p = subparsers.add_parser(
        "check-tex", help="check the derivations of a LaTeX file, line by line",
        description="Read the display environments of a .tex file (align, equation, gather, "
        "eqnarray, split, \\[ \\]), check each chain of relations line by line and print the "
        "verdicts with their source lines. Hypotheses: '% symdp: assume 0 <= p <= 1; integer "
        "n' comments and --assume/--integer; probabilities, expectations, functions, "
        "definitions and macros of \\input files (--follow-inputs) are read, notation with two "
        "readings is refused. Exit 0 when every line was read and every "
        "verdict matches its expectation, 1 otherwise, 2 on bad input. Syntax: "
        "docs/check-tex.md.")
    p.add_argument("file", metavar="FILE.tex")
    p.add_argument("--assume", action="append", default=[], metavar="REL",
                   help='an assumption for every display, e.g. "0 <= p <= 1" (repeatable)')
    p.add_argument("--integer", action="append", default=[], metavar="NAME",
                   help="this symbol ranges over integers in every display (repeatable)")
    p.add_argument("--macros", action="append", default=[], metavar="FILE",
                   help="read the macro definitions (\\newcommand, \\def, \\DeclareMathOperator; "
                        "nothing is executed) of this file first (repeatable)")
    p.add_argument("--follow-inputs", action="store_true",
                   help="read the macro definitions of the files the document \\inputs, "
                        "\\includes or \\usepackages from its own folder (paths outside it "
                        "are refused with a note)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"time limit for the whole file, in seconds (default {DEFAULT_TIMEOUT:g}); "
                        "the rows left when it runs out are listed as not checked, with the "
                        "line where it ran out")
    p.add_argument("--json", metavar="FILE", help="write the symdp-check JSON here ('-' for stdout)")
    p.add_argument("--annotate", metavar="OUT.tex",
                   help="write a copy of the document with each checked line marked in the margin")
    p.add_argument("--dps", type=int, default=60, metavar="N",
                   help="higher working precision in digits (the lower is max(15, N/2)); default 60")
    p.add_argument("--points", type=int, default=None, metavar="N",
                   help="sampled points of the numeric stage (default: as symdp check)")
    p.add_argument("--no-certify", dest="certify", action="store_false",
                   help="skip the CERTIFIED stage (ball arithmetic)")
    p.add_argument("--verbose", action="store_true", help="show each line's source text")
    return p


def _read_input(path: str) -> str:
    """The text of FILE.tex: a regular file of at most :data:`MAX_BYTES` bytes, UTF-8 (a
    byte-order mark is dropped), read by :func:`symdp.core.files.read_input`."""
    return input_text("FILE.tex", path, read_input("FILE.tex", path, max_bytes=MAX_BYTES))


def run(args) -> int:
    from ..parsing.document import read_tex
    from ..proof.runner import MAX_CHECK_DPS
    from ..report.tex_check import check_document
    from ..report.tex_output import annotate, tex_json_report, tex_text_report

    if not 30 <= args.dps <= MAX_CHECK_DPS:
        raise ValueError(f"--dps must be in [30, {MAX_CHECK_DPS}]; got --dps={args.dps}")
    if args.points is not None and not 1 <= args.points <= 1000:
        raise ValueError(f"--points must be in [1, 1000]; got --points={args.points}")
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= MAX_TIMEOUT):
        raise InvalidParameterError(f"--timeout must be a number of seconds in (0, "
                                    f"{MAX_TIMEOUT:g}]; got --timeout={args.timeout}")
    from ..parsing.inputs import folder_inputs, read_macro_file

    text = _read_input(args.file)
    macro_texts = [read_macro_file(path) for path in args.macros]
    # outputs before any work: regular files (or new ones), never an input of this run --
    # "--annotate -" is a file named "-" (only --json takes "-" for standard output)
    files = [(option, value) for option, value in (("--json", args.json),
                                                   ("--annotate", args.annotate))
             if value is not None and not (option == "--json" and value == "-")]
    for option, value in files:
        not_an_input(option, value, [args.file, *args.macros])
        output_file(option, value)
    if len(files) == 2 and os.path.realpath(files[0][1]) == os.path.realpath(files[1][1]):
        raise InvalidParameterError("--json and --annotate must name different files")
    document = read_tex(text, args.file, assume=args.assume, integers=args.integer,
                        macros=macro_texts,
                        inputs=folder_inputs(args.file) if args.follow_inputs else None)
    dps = (max(15, args.dps // 2), args.dps)
    check = check_document(document, dps=dps, certify=args.certify, points=args.points,
                           timeout=args.timeout)
    # every output is made before any is written, and the files are written all or none
    report = tex_json_report(check, dps=dps) if args.json is not None else None
    payloads = {"--json": None if report is None else report + "\n",
                "--annotate": annotate(check) if args.annotate is not None else None}
    atomic_write_all([(option, value, payloads[option]) for option, value in files])
    if args.json == "-":
        sys.stdout.write(report + "\n")
    else:
        print(tex_text_report(check, verbose=args.verbose))
    return 0 if check.ok else 1
