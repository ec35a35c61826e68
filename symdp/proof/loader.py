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

from ..core.errors import InvalidParameterError
from .derivation import Derivation


@dataclass(frozen=True)
class LoadError:
    path: str
    error: str


def load_error(path: Path, exc: BaseException, doing: str = "import") -> LoadError:
    """A load error of ``path`` for ``exc`` raised during ``doing``, in one line with the
    line of the proof file where it was raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((fr for fr in reversed(frames)
                  if fr.filename in (str(path.resolve()), str(path))), None)
    line = f" (line {where.lineno})" if where else ""
    if isinstance(exc, SystemExit):
        what = (f"the file raised SystemExit({exc.code!r}) (sys.exit) during {doing}{line}; a "
                "proof file must not end the run")
    elif isinstance(exc, KeyboardInterrupt):
        what = f"the file raised KeyboardInterrupt during {doing}{line}"
    else:
        what = f"{type(exc).__name__}: {exc}{line}"
        if doing != "import":
            what = f"{doing} failed: {what}"
    return LoadError(str(path), what.splitlines()[0] if what.strip() else type(exc).__name__)


def default_proofs_dir() -> Path:
    """``./proofs`` when it exists, else the ``proofs/`` beside the installed package."""
    here = Path.cwd() / "proofs"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "proofs"


def proof_files(paths) -> list[Path]:
    """The proof files named by ``paths``: ``.py`` files, and the ``*.py`` files of directories
    (not those starting with ``_``).  A missing path, a file that is not ``.py`` and a
    directory without proof files raise :class:`~symdp.core.errors.InvalidParameterError`."""
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found = sorted(f for f in p.glob("*.py") if not f.name.startswith("_"))
            if not found:
                raise InvalidParameterError(
                    f"no proof files (*.py) in directory {str(p)!r}; nothing to check")
            files += found
        elif p.exists():
            if p.suffix != ".py" or not p.is_file():
                raise InvalidParameterError(
                    f"{str(p)!r} is not a proof file: proof files are Python modules ending in "
                    ".py that define `derivation` or `DERIVATIONS` (docs/writing-proofs.md)")
            files.append(p)
        else:
            raise InvalidParameterError(f"no such proof file or directory: {str(p)!r}")
    return files


def files_naming(files, idents) -> list[Path]:
    """The ``files`` whose text contains one of ``idents``: where a derivation id written out
    in full is defined (an id built at import, e.g. by an f-string, is not found this way)."""
    def names_one(f):
        try:
            text = Path(f).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
        return any(i in text for i in idents)

    return [f for f in files if names_one(f)]


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
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - report, go on with the others
            errors.append(load_error(f, exc))
            continue
        for d in derivations:
            if d.id in seen:
                errors.append(LoadError(str(f), f"duplicate derivation id {d.id!r} (also in {seen[d.id]})"))
                continue
            seen[d.id] = str(f)
            loaded.append((str(f), d))
    return loaded, errors
