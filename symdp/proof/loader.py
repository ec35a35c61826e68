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


# --------------------------------------------------------------------------- id index

INDEX_NAME = "symdp-ids.json"


def _index_key(f: Path) -> str:
    from .. import __version__

    st = f.stat()
    return f"{__version__}:{st.st_size}:{st.st_mtime_ns}"


def _index_path(directory: Path) -> Path:
    return directory / "__pycache__" / INDEX_NAME


def _read_index(directory: Path) -> dict:
    import json

    try:
        data = json.loads(_index_path(directory).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_index(directory: Path, data: dict) -> None:
    """Best effort: a cache that cannot be written is simply not written."""
    import json
    import os
    import tempfile

    target = _index_path(directory)
    try:
        target.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".symdp-ids-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=0, sort_keys=True)
        os.replace(tmp, target)
    except OSError:
        pass


def cached_ids(f: Path) -> list[str] | None:
    """The derivation ids of proof file ``f`` recorded by :func:`derivation_ids`, or None
    when the file changed since (or was never indexed)."""
    f = Path(f)
    entry = _read_index(f.resolve().parent).get(f.name)
    try:
        if isinstance(entry, dict) and entry.get("key") == _index_key(f):
            return list(entry.get("ids", ()))
    except OSError:
        return None
    return None


def derivation_ids(files) -> dict[Path, list[str]]:
    """``{file: [derivation ids]}`` without importing the files that did not change since the
    last call: the ids are cached in ``__pycache__/symdp-ids.json`` beside the files, keyed
    by the file's size and modification time (and symdp's version), and found in the index
    of the check cache, keyed by the file's text (:func:`symdp.proof.cache.known_ids`: what
    ``symdp check`` imported, whatever the files' times).  A file that fails to load has no
    ids (``symdp check`` reports why)."""
    from .cache import known_ids, remember_ids

    out, by_dir = {}, {}
    for f in files:
        f = Path(f)
        by_dir.setdefault(f.resolve().parent, []).append(f)
    for directory, group in by_dir.items():
        index, changed = _read_index(directory), False
        for f in group:
            key = _index_key(f)
            entry = index.get(f.name)
            if not (isinstance(entry, dict) and entry.get("key") == key):
                ids = known_ids(f)
                if ids is None:
                    try:
                        ids = [d.id for d in load_file(f)]
                        remember_ids(f, ids)
                    except (Exception, SystemExit):  # noqa: BLE001 - reported by symdp check
                        ids = []
                entry = index[f.name] = {"key": key, "ids": ids}
                changed = True
            out[f] = list(entry["ids"])
        if changed:
            _write_index(directory, index)
    return out

