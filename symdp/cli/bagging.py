"""``symdp bagging``: the paper's (eps, delta) for bagging and its exact privacy.

Liu, Jia, Gong, IJCAI 2021, Thms. 2-3, checked against the exact privacy
profile of the subsample map (see :mod:`symdp.bagging`).  Invalid parameters
raise :class:`symdp.core.errors.InvalidParameterError`; the dispatcher prints it on
one line and exits 2.
"""

from __future__ import annotations


def add_parser(subparsers):
    """Register the ``bagging`` subcommand on an argparse subparsers object."""
    p = subparsers.add_parser(
        "bagging",
        help="privacy of bagging's subsampling: the paper's (eps, delta) and the exact values",
        description="Privacy of bagging (Liu, Jia, Gong, IJCAI 2021): the paper's (eps, delta), "
                    "the exact total variation, the exact privacy profile delta(eps) of every "
                    "ordering of a neighbouring pair, the tight values and the LaTeX of each "
                    "formula.  n = |D|; neighbours have n - 1 or n + 1 records.")
    p.add_argument("--n", required=True, metavar="N", help="dataset size |D| (integer >= 2)")
    p.add_argument("--k", required=True, metavar="K", help="examples per base model (integer >= 1)")
    p.add_argument("--models", default="1", metavar="M", help="number of base models N (default 1)")
    p.add_argument("--without-replacement", action="store_true",
                   help="sample k-subsets without replacement (default: with replacement)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--joint", dest="joint", action="store_const", const=True, default=None,
                       help="without replacement: draw N*k examples at once and split (Thm. 3; default)")
    group.add_argument("--independent", dest="joint", action="store_const", const=False,
                       help="without replacement: N independent k-subsets (not in the paper)")
    p.add_argument("--at", nargs="+", action="extend", metavar="EPS",
                   help="epsilons (>= 0) at which to print the exact delta(eps) (default: 0 1)")
    p.add_argument("--dps", default="40", metavar="D",
                   help="significant digits of the printed numbers (default 40)")
    p.add_argument("--json", action="store_true", help="print a JSON report")
    return p


def run(args) -> int:
    """Print the report; returns the exit code (errors propagate to the dispatcher)."""
    from ..bagging.report import report
    from .arguments import bagging_configuration, integer_argument

    dps = integer_argument("dps", args.dps)
    bagging = bagging_configuration(args.n, args.k, args.models, args.without_replacement, args.joint)
    print(report(bagging, args.at, dps, as_json=args.json))
    return 0
