"""``symdp latex ID``: the LaTeX of a derivation (statement and steps) or of a named formula."""

from __future__ import annotations

import sympy as sp

from ..formulas import formula, names
from ..report.fragment import derivation_latex
from ..proof.loader import default_proofs_dir, load_derivations, load_file, proof_files


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
    found = _find_derivation(args.id, args.paths)
    if found is not None:
        print(derivation_latex(found))
        return 0
    raise ValueError(f"unknown derivation or formula id {args.id!r} (symdp latex --list)")


def _find_derivation(ident: str, paths):
    """The derivation ``ident``: files whose text names it are imported first (a proof module
    may derive closed forms at import; most lookups then import one file, not all)."""
    files = proof_files(paths or [default_proofs_dir()])

    def names_it(f):
        try:
            return ident in f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False

    likely = [f for f in files if names_it(f)]
    for group in (likely, [f for f in files if f not in likely]):
        for f in group:
            try:
                derivations = load_file(f)
            except Exception:  # noqa: BLE001 - a broken file is reported by symdp check
                continue
            for d in derivations:
                if d.id == ident:
                    return d
    return None
