r"""The content-addressed store of checked derivations (issue #30): what did not change is not
checked again.

As Lean's ``.olean`` files and Mathlib's cache do, an entry is keyed by everything its
verdicts depend on, and is found again only when all of it is unchanged:

* the text of the proof file.  The file is the unit: its helper functions and classes belong
  to every derivation it defines, so editing it re-checks each of its derivations -- and
  nothing in any other file;
* the source text of every module that was loaded in the process that checked the derivation
  (symdp's own modules -- the cascade, the kernel, the objects the derivation uses -- and any
  helper module of the proofs), the version of every installed distribution one of those
  modules came from (SymPy, mpmath, python-flint, z3-solver, gmpy2, numpy, ...), the Python
  version and mpmath's backend.  The modules are those in ``sys.modules`` when the check ends,
  a superset of the code it ran: a module it never loaded cannot have changed its verdicts (a
  path that would load it runs only after a loaded module changed, which changes the key).
  So changing a symdp module re-checks the derivations whose check loaded it, and only those;
* the options a verdict depends on: the two precisions and whether the certified stage runs.

Layout of the cache directory (``symdp check --cache DIR``, default :func:`default_directory`)::

    v1/files/<primary>.json       the ids a proof file defines and, per id, the modules and
                                  distributions its check loaded; <primary> hashes the options,
                                  the Python and library versions, the file's name and text
    v1/entries/<ab>/<key>.json    one checked derivation: its record (the JSON of
                                  ``symdp check --json``, :mod:`symdp.report.check_output`),
                                  the certificates to replay, the seconds it took; <key>
                                  hashes <primary>, the id and every dependency's text/version
    v1/costs.json                 seconds each derivation last took (orders the work)
    v1/ids/<name-text>.json       the ids a proof file defines, keyed by its name and text
                                  only: the index ``symdp latex`` and ``--only`` read

Every file carries the SHA-256 of its own content.  An entry whose key or digest does not match,
or that cannot be read, is *discarded* (deleted, and said so) and its derivation checked again:
never trusted.  A hit reuses the record, and the kernel **replays** the certificates that are
cheap to replay (:func:`replayable`: structural and symbolic certificates, finite ones of at most
:data:`REPLAY_CASES` cases, none that binds a symdp object's closed form to a written side): its proof file is imported, the step's claim rebuilt from the step
as the check builds it, and the certificate must be stored for that claim and accepted for it
through the kernel's one door (``kernel.accept(claim, certificate)``, issue #27) -- an entry
whose certificate is for another claim, or that the kernel no longer accepts, is discarded
too; the other verdicts are
**recorded**: reused as stored (with :func:`symdp.proof.kernel.recorded`'s token, never the
kernel's acceptance).  ``symdp check`` marks every verdict "checked now", "replayed" or
"recorded <key>".

Entries are written atomically (a temporary file renamed), so two runs may share a directory.
The store only grows; delete the directory to empty it.  The replayed certificates are
``pickle`` data: a cache directory is trusted as the proof files are (both are code the user
runs); the digests detect corruption, not an adversary who can write the directory.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CheckCache", "Hit", "FilePlan", "default_directory", "replayable", "dependencies",
           "replay_blob", "replay_file", "step_text", "known_ids", "remember_ids",
           "REPLAY_CASES", "FORMAT"]

#: the layout version (a new one starts an empty store beside the old)
FORMAT = 1
#: the largest finite certificate (cases) the kernel replays on a hit; larger ones are reused
#: as recorded.  Calibrated on proofs/ (one process, loaded machine, before issue #27's
#: binding of a claim's written sides): the 93 symbolic certificates replayed in 3.7 s of CPU,
#: the 11 structural in 0.01 s, the 3 finite ones (4-6 cases) in 0.2 s; a box certificate
#: re-evaluates its pieces' breakpoints and leaves, 0.6-0.9 s each even with 7 leaves
#: (figure6_min_error_sums_closed_forms), so boxes are recorded.  After it (one process, load
#: about 9): the 73 certificates :func:`replayable` keeps took 4.5 s, the 16 that bind a symdp
#: object's closed form 5.6 s
REPLAY_CASES = 64
#: the distributions named in every key, loaded or not (the issue's list, and gmpy2, which
#: changes mpmath's arithmetic)
LIBRARIES = ("sympy", "mpmath", "python-flint", "z3-solver", "gmpy2", "numpy")


def default_directory() -> Path:
    """``$SYMDP_CACHE_DIR``, else ``$XDG_CACHE_HOME/symdp``, else ``~/.cache/symdp``."""
    explicit = os.environ.get("SYMDP_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "symdp"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


# --------------------------------------------------------------------------- dependencies

def _library_roots() -> tuple:
    """Directories of installed distributions and of the standard library."""
    import sysconfig

    paths = sysconfig.get_paths()
    stdlib = tuple(os.path.realpath(paths[k]) + os.sep for k in ("stdlib", "platstdlib")
                   if paths.get(k))
    return stdlib


_DISTRIBUTIONS: dict = {}


def _distributions_of(top: str) -> list:
    """The installed distributions that provide the top-level module ``top`` (memoised)."""
    if not _DISTRIBUTIONS:
        import importlib.metadata as metadata

        try:
            found = metadata.packages_distributions()
        except Exception:  # noqa: BLE001 - no metadata: every module is hashed instead
            found = {}
        _DISTRIBUTIONS.update({k: sorted(set(v)) for k, v in found.items()})
        _DISTRIBUTIONS.setdefault("", [])
    return _DISTRIBUTIONS.get(top, [])


def prepare() -> None:
    """Read the installed distributions' metadata once (before forking workers, so that each
    does not read it again)."""
    _distributions_of("")


def dependencies(modules=None) -> dict:
    """What a check that ran in this process depended on, from ``sys.modules``:
    ``{"modules": {name: path}, "packages": [distribution, ...], "texts": {name: SHA-256}}``
    (the texts as the check ends: an entry is stored only when they are still those of the
    files, so that a source edited during a run never keys a verdict of the old code).

    A module of symdp, or any module outside the standard library and installed
    distributions (a proof file's helper), is a *source* dependency, keyed by its text; a
    module of an installed distribution is keyed by that distribution's version; the
    standard library by the Python version (in every key)."""
    stdlib = _library_roots()
    sources, packages = {}, set()
    for name, module in list((modules if modules is not None else sys.modules).items()):
        path = getattr(module, "__file__", None)
        if not path or name.startswith("symdp_proofs_"):
            continue   # built in, frozen, a namespace; or the proof file itself (keyed apart)
        real = os.path.realpath(path)
        top = name.split(".")[0]
        if top != "symdp" and real.startswith(stdlib) and "-packages" not in real:
            continue
        distributions = _distributions_of(top) if top != "symdp" and "-packages" in real else []
        if distributions:
            packages.update(distributions)
        else:
            sources[name] = real
    texts = {}
    for name, path in sources.items():
        try:
            with open(path, "rb") as fh:
                texts[name] = _sha(fh.read())
        except OSError:
            texts[name] = None
    return {"modules": dict(sorted(sources.items())), "packages": sorted(packages),
            "texts": texts}


# --------------------------------------------------------------------------- the id index

def _ids_path(proof_file, directory=None) -> Path | None:
    proof_file = Path(proof_file)
    try:
        text = _sha(proof_file.read_bytes())
    except OSError:
        return None
    root = Path(directory) if directory is not None else default_directory()
    return root / f"v{FORMAT}" / "ids" / f"{_sha(_canonical([proof_file.name, text]))}.json"


def known_ids(proof_file, directory=None) -> list | None:
    """The derivation ids of ``proof_file`` as it is now, when a run of ``symdp check`` (or
    ``symdp latex``) imported it before: an index that needs no import (None: not known)."""
    path = _ids_path(proof_file, directory)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        digest = data.pop("digest")
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return None
    if digest != _sha(_canonical(data)) or not isinstance(data.get("ids"), list):
        return None
    return [str(i) for i in data["ids"]]


def remember_ids(proof_file, ids, directory=None) -> None:
    """Record the ids of ``proof_file`` as it is now in the index (best effort)."""
    path = _ids_path(proof_file, directory)
    if path is None:
        return
    data = {"file": Path(proof_file).name, "ids": list(ids)}
    data["digest"] = _sha(_canonical(data))
    _write_json(path, data)


def _write_json(path: Path, data) -> None:
    """Write ``data`` to ``path`` atomically (best effort: nothing when it cannot)."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, sort_keys=True, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


# --------------------------------------------------------------------------- replay

def replayable(certificate, claim=None) -> bool:
    """Is the kernel's acceptance of ``certificate`` (for ``claim``) cheap enough to replay on
    a hit?  Structural and symbolic certificates, and finite ones of at most
    :data:`REPLAY_CASES` cases -- unless the certificate's sides are not the claim's written
    sides and those hold a symdp object or function, or one of SymPy's operations (an
    integral, a sum): the kernel then binds the written side to the certificate's through the
    object's closed form or the operation carried out, comparing them at points (0.1-1.8 s
    each on proofs/, most of a replay's cost), so the verdict is recorded instead."""
    from .certificates import FiniteCertificate, StructuralCertificate, SymbolicCertificate

    if claim is not None and (certificate.lhs, certificate.rhs) != (claim.lhs, claim.rhs) \
            and any(_holds_symdp_node(side) or _holds_operation(side)
                    for side in (claim.lhs, claim.rhs)):
        return False
    if isinstance(certificate, (StructuralCertificate, SymbolicCertificate)):
        return True
    if isinstance(certificate, FiniteCertificate):
        size = 1
        for _, values in certificate.values:
            size *= max(1, len(values))
        return size <= REPLAY_CASES
    return False   # box, continuity, counting, induction: recorded


def _holds_operation(expr) -> bool:
    """Does ``expr`` hold one of SymPy's operations (an integral, a sum, a limit, ...), which
    the kernel carries out (``doit``) to bind the written side to a certificate's evaluated
    side -- seconds for the integrals of the CLT functionals?"""
    import sympy as sp

    return expr.has(sp.Integral, sp.Sum, sp.Product, sp.Limit, sp.Derivative, sp.Subs)


def _holds_symdp_node(expr) -> bool:
    """Does ``expr`` hold a node of a class defined in symdp (an object, Phi, ...)?"""
    import sympy as sp

    return any((type(node).__module__ or "").startswith("symdp.")
               for node in sp.preorder_traversal(expr))


def step_text(step) -> tuple:
    """A step's claim as its record shows it: ``(lhs, relation, rhs)`` in SymPy's text."""
    import sympy as sp

    return (sp.sstr(step.lhs), step.relation, sp.sstr(step.rhs))


def replay_blob(step, derivation, result) -> str | None:
    """The certificate of ``result`` and the claim the kernel accepted it for, pickled
    (base64), when it is replayable: a verdict that holds, whose kernel token is bound to the
    step's claim (:func:`symdp.proof.check.step_claim`), resting on no fact or hypothesis of
    the objects' assumptions (those are checked by other steps of the cascade, not replayed
    here).  None otherwise."""
    from . import kernel
    from .check import step_claim

    token = result.acceptance
    certificate = getattr(token, "certificate", None)
    if (certificate is None or not result.verdict.holds_everywhere or result.hypotheses
            or result.facts or not replayable(certificate, token.claim)
            or not kernel.bound_to(token, step_claim(step, derivation))):
        return None
    try:
        data = pickle.dumps((certificate, token.claim, result.verdict.value))
    except Exception:  # noqa: BLE001 - a certificate that cannot be pickled is recorded
        return None
    if b"symdp_proofs_" in data:   # a class of the proof module: not loadable without it
        return None
    return base64.b64encode(data).decode("ascii")


def replay_file(path, derivations) -> dict:
    """Replay stored certificates of one proof file with the kernel, in this process:
    ``derivations`` is ``[(id, [(step index, step text as recorded, blob)])]``; the answer
    ``{id: [None (accepted: the recorded verdict again) or a reason, per blob]}``.

    The file is imported and each step's claim rebuilt from the step
    (:func:`symdp.proof.check.step_claim`), as the check cascade builds it: the certificate
    must be stored for that very claim, and the kernel must accept it for that claim through
    its one door (``kernel.accept(claim, certificate)``, issue #27) with the stored verdict."""
    from .check import step_claim
    from .loader import load_error, load_file

    try:
        by_id = {}
        for d in load_file(Path(path)):
            by_id.setdefault(d.id, d)
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - reported
        why = f"its proof file does not import: {load_error(Path(path), exc).error}"
        return {ident: [why] * len(blobs) for ident, blobs in derivations}
    out = {}
    for ident, blobs in derivations:
        derivation = by_id.get(ident)
        out[ident] = [_replay_one(derivation, index, text, blob, step_claim)
                      for index, text, blob in blobs]
    return out


def _replay_one(derivation, index, text, blob, step_claim) -> str | None:
    from . import kernel

    if derivation is None or not 0 <= index < len(derivation.steps):
        return "its step is no longer defined"
    step = derivation.steps[index]
    if tuple(text) != step_text(step):
        return "its record shows another claim than the step's"
    try:
        claim = step_claim(step, derivation)
        certificate, stored_claim, verdict = pickle.loads(base64.b64decode(blob))
    except Exception as exc:  # noqa: BLE001
        return f"its certificate cannot be read back ({type(exc).__name__})"
    if stored_claim != claim:
        return "its certificate is stored for another claim than the step's"
    try:
        result = kernel.accept(claim, certificate)
    except Exception as exc:  # noqa: BLE001
        return f"the kernel raised {type(exc).__name__}"
    if (result.verdict.value != verdict or not result.verdict.holds_everywhere
            or result.hypotheses or not kernel.bound_to(result.acceptance, claim)):
        return f"the kernel gives {result.verdict.value}, not {verdict}: {result.detail[:200]}"
    return None


# --------------------------------------------------------------------------- the store

@dataclass
class Hit:
    """A derivation found in the cache: its record (the JSON of one derivation of ``symdp
    check --json``), the key, and the steps to replay (``(step index, blob)``)."""

    ident: str
    key: str
    record: dict
    seconds: float
    replays: list = field(default_factory=list)
    report: object = None   # the record read back (by the runner)


@dataclass
class FilePlan:
    """What the cache holds for one proof file: its ids (None: not known, the file must be
    imported), the derivations found (``hits``), those to check, and the entries discarded."""

    ids: list | None
    hits: dict
    check: list | None
    discarded: list = field(default_factory=list)


class CheckCache:
    """The store in ``directory`` for one set of options (``dps``, ``certify``).

    ``read=False`` never reuses an entry (every derivation is checked) and ``write=False``
    writes nothing; the recorded costs are read either way (they only order the work)."""

    def __init__(self, directory=None, *, dps, certify: bool, read: bool = True,
                 write: bool = True):
        self.directory = Path(directory) if directory is not None else default_directory()
        self.root = self.directory / f"v{FORMAT}"
        self.read, self.write = read, write
        self.options = {"dps": sorted(int(x) for x in dps), "certify": bool(certify)}
        self._file_hashes: dict = {}
        self._versions: dict = {}
        self._environment = None
        self.discarded: list = []   # (key or file, why), in the order found
        self._costs = None
        self._new_costs: dict = {}

    # ------------------------------------------------------------------ keys
    def environment(self) -> dict:
        """What every key holds: the layout version, Python, mpmath's backend, the versions of
        :data:`LIBRARIES` and the options."""
        if self._environment is None:
            import mpmath

            self._environment = {
                "format": FORMAT,
                "python": f"{sys.implementation.name} {sys.version.split()[0]}",
                "mpmath backend": mpmath.libmp.BACKEND,
                "libraries": {name: self._version(name) for name in LIBRARIES},
                "options": self.options,
            }
        return self._environment

    def _version(self, distribution: str) -> str:
        if distribution not in self._versions:
            import importlib.metadata as metadata

            try:
                self._versions[distribution] = metadata.version(distribution)
            except Exception:  # noqa: BLE001 - not installed
                self._versions[distribution] = "absent"
        return self._versions[distribution]

    def _file_hash(self, path) -> str | None:
        path = str(path)
        if path not in self._file_hashes:
            try:
                with open(path, "rb") as fh:
                    self._file_hashes[path] = _sha(fh.read())
            except OSError:
                self._file_hashes[path] = None
        return self._file_hashes[path]

    def text_of(self, proof_file) -> str | None:
        """SHA-256 of ``proof_file``'s text as this run first read it."""
        return self._file_hash(Path(proof_file).resolve())

    def primary(self, proof_file) -> str | None:
        """The key of a proof file's text, name and the environment (None: unreadable)."""
        text = self._file_hash(Path(proof_file).resolve())
        if text is None:
            return None
        return _sha(_canonical([self.environment(), Path(proof_file).name, text]))

    def key(self, primary: str, ident: str, deps: dict) -> str | None:
        """The key of one derivation: ``primary``, its id, and the current text of every
        module and version of every distribution in ``deps`` (None: a module is gone)."""
        modules = []
        for name, path in sorted(deps.get("modules", {}).items()):
            digest = self._file_hash(path)
            if digest is None:
                return None
            modules.append([name, digest])
        packages = [[d, self._version(d)] for d in sorted(deps.get("packages", ()))]
        return _sha(_canonical([primary, ident, modules, packages]))

    # ------------------------------------------------------------------ files
    def _manifest_path(self, primary: str) -> Path:
        return self.root / "files" / f"{primary}.json"

    def _entry_path(self, key: str) -> Path:
        return self.root / "entries" / key[:2] / f"{key}.json"

    def _load(self, path: Path, what: str, name: str):
        """The verified content of a stored file, or None (missing; discarded when corrupt)."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._discard(path, name, f"cannot be read ({exc.strerror or type(exc).__name__})")
            return None
        try:
            data = json.loads(raw.decode("utf-8"))
            digest = data.pop("digest")
        except (ValueError, UnicodeDecodeError, AttributeError, KeyError, TypeError):
            self._discard(path, name, f"its {what} is not the JSON symdp writes")
            return None
        if digest != _sha(_canonical(data)):
            self._discard(path, name, f"its {what} does not match its digest (corrupted)")
            return None
        if data.get("format") != FORMAT:
            self._discard(path, name, f"its {what} has another format")
            return None
        return data

    def _discard(self, path: Path, name: str, why: str) -> None:
        self.discarded.append((name, why))
        try:
            path.unlink()
        except OSError:
            pass

    def _store(self, path: Path, data: dict) -> None:
        """Write ``data`` with its digest, atomically (best effort: a store that cannot be
        written is not written)."""
        data = dict(data, format=FORMAT)
        data["digest"] = _sha(_canonical(data))
        _write_json(path, data)

    # ------------------------------------------------------------------ lookup
    def manifest(self, proof_file) -> dict | None:
        """The stored ids and dependencies of ``proof_file`` as it is now (None: never checked
        in this environment, or changed since)."""
        primary = self.primary(proof_file)
        if primary is None:
            return None
        data = self._load(self._manifest_path(primary), "index", Path(proof_file).name)
        if data is None or data.get("primary") != primary or not isinstance(data.get("ids"), list):
            return None
        return data

    def ids(self, proof_file) -> list | None:
        """The derivation ids of ``proof_file`` as it is now, when stored (an index that needs
        no import)."""
        data = self.manifest(proof_file)
        return None if data is None else [str(i) for i in data["ids"]]

    def plan(self, proof_file, only=None) -> FilePlan:
        """What to reuse and what to check of ``proof_file`` (``only``: ids wanted)."""
        data = self.manifest(proof_file) if self.read else None
        if data is None:
            return FilePlan(None, {}, None)
        primary = data["primary"]
        ids = [str(i) for i in data["ids"]]
        hits, check = {}, []
        for ident in dict.fromkeys(ids):
            if only is not None and ident not in only:
                continue
            deps = data.get("deps", {}).get(ident)
            key = self.key(primary, ident, deps) if isinstance(deps, dict) else None
            entry = self._load(self._entry_path(key), "entry", key[:12]) if key else None
            if entry is not None and (entry.get("key") != key or entry.get("id") != ident
                                      or not isinstance(entry.get("record"), dict)):
                self._discard(self._entry_path(key), key[:12], "its entry is for another key")
                entry = None
            if entry is None:
                check.append(ident)
                continue
            replays = [(int(i), str(b)) for i, b in entry.get("replays", [])]
            hits[ident] = Hit(ident, key, entry["record"], float(entry.get("seconds", 0.0)),
                              replays)
        return FilePlan(ids, hits, check)

    def forget(self, hit: Hit, why: str) -> None:
        """Discard the entry of ``hit`` (its replay failed)."""
        self._discard(self._entry_path(hit.key), hit.key[:12], why)

    # ------------------------------------------------------------------ store
    def store(self, proof_file, ids, checked: dict) -> None:
        """Record a proof file's ``ids`` and each ``checked`` derivation: ``{id: {"record":
        dict, "deps": dict, "replays": [(step index, blob)], "seconds": float}}``."""
        if not self.write:
            return
        primary = self.primary(proof_file)
        if primary is None:
            return
        old = self.manifest(proof_file) or {}
        deps = {k: v for k, v in old.get("deps", {}).items() if k in ids}
        for ident, done in checked.items():
            texts = done["deps"].get("texts", {})
            recorded = {k: v for k, v in done["deps"].items() if k != "texts"}
            if any(self._file_hash(path) != texts.get(name)
                   for name, path in recorded.get("modules", {}).items()):
                continue   # a module changed while it was checked: not stored
            key = self.key(primary, ident, recorded)
            if key is None:
                continue
            deps[ident] = recorded
            self._store(self._entry_path(key), {
                "key": key, "id": ident, "file": Path(proof_file).name,
                "record": done["record"], "replays": [list(r) for r in done["replays"]],
                "seconds": round(float(done["seconds"]), 3)})
        self._store(self._manifest_path(primary), {"primary": primary, "file": Path(proof_file).name,
                                                   "ids": list(ids), "deps": deps})
        remember_ids(proof_file, ids, self.directory)

    # ------------------------------------------------------------------ costs
    def cost(self, proof_file, ident) -> float | None:
        """The seconds ``ident`` of ``proof_file`` took when last checked (None: unknown)."""
        if self._costs is None:
            try:
                self._costs = json.loads((self.root / "costs.json").read_text(encoding="utf-8"))
                if not isinstance(self._costs, dict):
                    self._costs = {}
            except (OSError, ValueError):
                self._costs = {}
        value = self._costs.get(f"{Path(proof_file).name}::{ident}")
        return float(value) if isinstance(value, (int, float)) else None

    def note_cost(self, proof_file, ident, seconds: float) -> None:
        self._new_costs[f"{Path(proof_file).name}::{ident}"] = round(float(seconds), 3)

    def save_costs(self) -> None:
        """Merge the costs measured in this run into ``costs.json`` (best effort)."""
        if not self._new_costs or not self.write:
            return
        self.cost("", "")   # read the old ones
        merged = dict(self._costs or {}, **self._new_costs)
        _write_json(self.root / "costs.json", merged)
