"""Loading derivations from ``proofs/`` (or given files).

A proof module defines ``derivation`` (one :class:`Derivation`) and/or
``DERIVATIONS`` (a sequence).  Modules are imported from their file path; a
module that fails to import is reported with its name and the error, and the
others are still loaded.  (Proof files are code the user chose to run, like a
test file; formulas typed at the shell never reach this path.)
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from .derivation import Derivation


@dataclass(frozen=True)
class LoadError:
    path: str
    error: str


def default_proofs_dir() -> Path:
    """``./proofs`` when it exists, else the ``proofs/`` beside the installed package."""
    here = Path.cwd() / "proofs"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "proofs"


def proof_files(paths) -> list[Path]:
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files += sorted(f for f in p.glob("*.py") if not f.name.startswith("_"))
        elif p.exists():
            files.append(p)
        else:
            raise FileNotFoundError(f"no such proof file or directory: {p}")
    return files


def load_file(path: Path) -> list[Derivation]:
    name = "symdp_proofs_" + "".join(c if c.isalnum() else "_" for c in str(path.resolve()))
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    found = []
    single = getattr(module, "derivation", None)
    if isinstance(single, Derivation):
        found.append(single)
    for d in getattr(module, "DERIVATIONS", ()):
        if not isinstance(d, Derivation):
            raise TypeError(f"DERIVATIONS in {path.name} holds a {type(d).__name__}, not a Derivation")
        found.append(d)
    if not found:
        raise ImportError(f"{path.name} defines no `derivation` or `DERIVATIONS`")
    return found


def load_derivations(paths=None) -> tuple[list[tuple[str, Derivation]], list[LoadError]]:
    """All derivations in ``paths`` (default: the proofs directory), and the files that failed."""
    paths = [default_proofs_dir()] if not paths else paths
    loaded, errors, seen = [], [], {}
    for f in proof_files(paths):
        try:
            derivations = load_file(f)
        except Exception as exc:  # noqa: BLE001 - report and go on with the other files
            last = traceback.extract_tb(exc.__traceback__)
            where = next((fr for fr in reversed(last) if fr.filename == str(f.resolve())
                          or fr.filename == str(f)), None)
            line = f" (line {where.lineno})" if where else ""
            errors.append(LoadError(str(f), f"{type(exc).__name__}: {exc}{line}".splitlines()[0]))
            continue
        for d in derivations:
            if d.id in seen:
                errors.append(LoadError(str(f), f"duplicate derivation id {d.id!r} (also in {seen[d.id]})"))
                continue
            seen[d.id] = str(f)
            loaded.append((str(f), d))
    return loaded, errors
