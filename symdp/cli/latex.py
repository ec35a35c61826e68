"""``symdp latex ID``: the LaTeX of a derivation (statement and steps) or of a named formula."""

from __future__ import annotations

import sympy as sp

from ..formulas import formula, names
from ..proof.latex import derivation_latex
from ..proof.loader import load_derivations


def add_parser(subparsers):
    p = subparsers.add_parser("latex", help="print the LaTeX of a derivation or a named formula")
    p.add_argument("id", metavar="ID", help="a derivation id from proofs/, or a formula name "
                   "(symdp latex --list shows them)", nargs="?")
    p.add_argument("--list", action="store_true", help="list derivation ids and formula names")
    p.add_argument("--paths", nargs="*", metavar="PATH", help="proof files (default: proofs/)")
    return p


def run(args) -> int:
    if args.list:
        loaded, _ = load_derivations(args.paths)
        for _, d in loaded:
            print(f"derivation  {d.id}")
        for name in names():
            print(f"formula     {name}")
        return 0
    if not args.id:
        raise ValueError("give a derivation id or a formula name (symdp latex --list)")
    if args.id in names():
        _, expr = formula(args.id)
        print(sp.latex(expr))
        return 0
    loaded, _ = load_derivations(args.paths)
    for _, d in loaded:
        if d.id == args.id:
            print(derivation_latex(d))
            return 0
    raise ValueError(f"unknown derivation or formula id {args.id!r} (symdp latex --list)")
