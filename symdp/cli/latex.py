"""``symdp latex ID``: the LaTeX of a derivation (statement and steps) or of a named formula."""

from __future__ import annotations

import sympy as sp

from ..formulas import formula, names
from ..proof.loader import (default_proofs_dir, derivation_ids, files_naming, load_file,
                            proof_files)
from ..report.fragment import derivation_latex
from ..core.validation import shown


def add_parser(subparsers):
    p = subparsers.add_parser("latex", help="print the LaTeX of a derivation or a named formula")
    p.add_argument("id", metavar="ID", help="a derivation id from proofs/, or a formula name "
                   "(symdp latex --list shows them)", nargs="?")
    p.add_argument("--list", action="store_true", help="list derivation ids and formula names")
    p.add_argument("--paths", nargs="*", metavar="PATH", help="proof files (default: proofs/)")
    return p


def run(args) -> int:
    if args.list:
        # the ids, importing only the proof files that changed since the last listing
        files = proof_files(args.paths or [default_proofs_dir()])
        for ids in derivation_ids(files).values():
            for ident in ids:
                print(f"derivation  {ident}")
        for name in names():
            print(f"formula     {name}")
        return 0
    if not args.id:
        raise ValueError(f"give a derivation id or a formula name as ID (symdp latex --list); "
                         f"got ID={shown(args.id)}")
    if args.id in names():
        _, expr = formula(args.id)
        print(sp.latex(expr))
        return 0
    found = _find_derivation(args.id, args.paths)
    if found is not None:
        print(derivation_latex(found))
        return 0
    raise ValueError(f"unknown derivation or formula id: ID={args.id!r} (symdp latex --list)")


def _find_derivation(ident: str, paths):
    """The derivation ``ident``: files whose text names it are imported first (a proof module
    may derive closed forms at import; most lookups then import one file, not all), then the
    file the id index (:func:`~symdp.proof.loader.derivation_ids`) says defines it."""
    files = proof_files(paths or [default_proofs_dir()])
    likely = files_naming(files, {ident})
    indexed = [f for f, ids in derivation_ids([f for f in files if f not in likely]).items()
               if ident in ids] if not _defines(likely, ident) else []
    for f in likely + indexed:
        found = _defines([f], ident)
        if found is not None:
            return found
    return None


def _defines(files, ident):
    for f in files:
        try:
            derivations = load_file(f)
        except (Exception, SystemExit):  # noqa: BLE001 - a broken file is reported by symdp check
            continue
        for d in derivations:
            if d.id == ident:
                return d
    return None
