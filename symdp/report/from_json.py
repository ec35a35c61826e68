"""Read a ``symdp check --json`` file back as report views (``symdp report --from-json``).

The file is validated field by field before anything is typeset: a file that is not JSON,
has another schema, or lacks a field the document needs raises :class:`ReportInputError`
with one line naming the file and the first problem (exit 2 on the command line).  Text
fields stay plain strings here; the document escapes them when it typesets them.  LaTeX
fields are untrusted: each must lie in the subset of LaTeX that SymPy prints
(:func:`~symdp.report.safe_latex.check_formula_latex`; no ``\\input``, ``\\write``,
``\\catcode``, ...), else the file is refused naming the field.  A formula in that subset
that still does not compile fails in ``pdflatex``, named by its first error.  The file may
be at most :data:`MAX_JSON_BYTES` bytes and nested at most :data:`MAX_JSON_DEPTH` deep; it
must be a regular file (a device such as ``/dev/zero`` or a FIFO is refused, not read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SymdpError
from ..proof.derivation import LATEX_RELATION
from .check_output import READABLE, SCHEMA
from ..proof.kernel import recorded
from ..proof.verdict import Counterexample, StepResult, Verdict
from .safe_latex import UnsafeLatexError, check_formula_latex
from .views import DerivationView, ReportView, StepView

__all__ = ["MAX_JSON_BYTES", "MAX_JSON_DEPTH", "ReportInputError", "CheckJson",
           "load_check_json", "parse_check_json", "parse_record"]

#: the largest ``--from-json`` file read (a report of every proof in proofs/ is ~1 MB)
MAX_JSON_BYTES = 64 * 1024 * 1024
#: the deepest nesting of arrays and objects accepted (the schema needs 9)
MAX_JSON_DEPTH = 32


class ReportInputError(SymdpError, ValueError):
    """A ``--from-json`` file that cannot be read as a complete ``symdp-check/4`` (or /3)
    report."""


@dataclass(frozen=True)
class _LoadError:
    path: str
    error: str


@dataclass(frozen=True)
class CheckJson:
    """What a ``symdp check --json`` file holds, ready for :func:`document_latex`."""

    reports: tuple  # ReportView
    errors: tuple  # records with .path and .error
    dps: tuple | None
    summary: dict

    @property
    def ok(self) -> bool:
        """Every verdict matches its expectation and every proof file loaded."""
        return all(r.ok for r in self.reports) and not self.errors


class _Fields:
    """Typed access to one JSON object, naming the path of a missing or wrong field."""

    def __init__(self, data, where: str):
        if not isinstance(data, dict):
            raise _Bad(f"{where or 'the file'} is not an object")
        self.data, self.where = data, where

    def _path(self, key):
        return f"{self.where}.{key}" if self.where else key

    def get(self, key, kind, *, optional=False, default=None):
        if key not in self.data:
            if optional:
                return default
            raise _Bad(f"{self._path(key)} is missing")
        value = self.data[key]
        if value is None and optional:
            return default
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            names = " or ".join(k.__name__ for k in kinds)
            raise _Bad(f"{self._path(key)} is {type(value).__name__}, not {names}")
        return value

    def strings(self, key, *, optional=False):
        value = self.get(key, list, optional=optional, default=[])
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise _Bad(f"{self._path(key)}[{i}] is {type(item).__name__}, not str")
        return tuple(value)

    def latex(self, key):
        """A formula field, checked against the LaTeX subset symdp prints."""
        return _safe(self.get(key, str), self._path(key))

    def latex_strings(self, key):
        return tuple(_safe(v, f"{self._path(key)}[{i}]")
                     for i, v in enumerate(self.strings(key)))

    def sub(self, key, *, optional=False):
        value = self.get(key, dict, optional=optional)
        return None if value is None else _Fields(value, self._path(key))


class _Bad(Exception):
    pass


def _safe(latex: str, where: str) -> str:
    try:
        return check_formula_latex(latex)
    except UnsafeLatexError as exc:
        raise _Bad(f"{where} {exc}: not LaTeX that symdp check writes") from None


def _verdict(value, where) -> Verdict:
    try:
        return Verdict(value)
    except ValueError:
        raise _Bad(f"{where} is {value!r}, not a verdict "
                   f"({', '.join(v.value for v in Verdict)})") from None


def _relation(value, where) -> str:
    if value not in LATEX_RELATION:
        raise _Bad(f"{where} is {value!r}, not a relation ({', '.join(LATEX_RELATION)})")
    return value


def _terms(f: _Fields):
    value = f.get("rhs_latex_terms", list, optional=True)
    if value is None:
        if "rhs_latex_terms" not in f.data:
            raise _Bad(f"{f._path('rhs_latex_terms')} is missing")
        return None
    out = []
    for i, t in enumerate(value):
        if not (isinstance(t, list) and len(t) == 2 and t[0] in ("+", "-")
                and isinstance(t[1], str)):
            raise _Bad(f"{f._path('rhs_latex_terms')}[{i}] is not a [sign, latex] pair")
        out.append((t[0], _safe(t[1], f"{f._path('rhs_latex_terms')}[{i}][1]")))
    return tuple(out)


def _counterexample(f: _Fields | None):
    if f is None:
        return None
    point = f.get("point", dict)
    return Counterexample({str(k): str(v) for k, v in point.items()}, str(f.get("lhs", str)),
                          str(f.get("rhs", str)), str(f.get("difference", str)),
                          bool(f.get("exact", bool, optional=True, default=False)))


def _step(f: _Fields):
    view = StepView(_relation(f.get("relation", str), f._path("relation")),
                    f.latex("lhs_latex"), f.latex("rhs_latex"), _terms(f),
                    f.latex_strings("side_conditions_latex"), f.get("rule", str),
                    f.get("note", str), f.get("lhs", str), f.get("rhs", str),
                    f.strings("side_conditions"))
    expected = f.get("expected", str, optional=True)
    certified = f.get("certified", dict, optional=True)
    verdict = _verdict(f.get("verdict", str), f._path("verdict"))
    result = StepResult(
        verdict=verdict,
        detail=f.get("detail", str), stage=f.get("stage", str),
        counterexample=_counterexample(f.sub("counterexample", optional=True)),
        expected=None if expected is None else _verdict(expected, f._path("expected")),
        worst_margin=f.get("worst_margin", str, optional=True),
        points=f.get("points", int, optional=True, default=0),
        extra={"certified": certified} if certified is not None else {},
        hypotheses=f.strings("hypotheses"), facts=f.strings("facts"),
        # a verdict as the report recorded it, not re-checked here (the kernel's token says so)
        acceptance=recorded(verdict, f._path("verdict")))
    # the scope fields must say what the verdict and hypotheses say (a hand-edited
    # "holds_everywhere": true on evidence at points is refused, never typeset)
    for key in ("holds_everywhere", "evidence_only", "under_hypotheses"):
        if f.get(key, bool) != getattr(result, key):
            raise _Bad(f"{f._path(key)} is {f.get(key, bool)}, but the verdict "
                       f"{result.label} says {getattr(result, key)}")
    return view, result


def _derivation(f: _Fields) -> ReportView:
    steps_data = f.get("steps", list)
    if not steps_data:
        raise _Bad(f"{f._path('steps')} is empty")
    pairs = [_step(_Fields(s, f"{f._path('steps')}[{i}]")) for i, s in enumerate(steps_data)]
    chained = f.get("chained", bool)
    conclusion = f.sub("conclusion")
    relation = conclusion.get("relation", str, optional=True)
    if chained and relation is None:
        raise _Bad(f"{conclusion._path('relation')} is null for a chained derivation")
    if relation is not None:
        _relation(relation, conclusion._path("relation"))
    domains = f.get("domains", dict)
    for name, dom in domains.items():
        if not isinstance(dom, str):
            raise _Bad(f"{f._path('domains')}.{name} is {type(dom).__name__}, not str")
    view = DerivationView(f.get("id", str), f.get("statement", str), f.get("citation", str),
                          f.latex_strings("hypotheses_latex"), chained, relation,
                          f.get("notes", str), tuple(v for v, _ in pairs),
                          f.get("statement_latex", str), tuple(domains.items()),
                          f.strings("constraints"))
    origins = tuple(_Fields(s, f"{f._path('steps')}[{i}]").get("origin", str, optional=True,
                                                              default="checked now")
                    for i, s in enumerate(steps_data))
    rep = ReportView(view, tuple(r for _, r in pairs), f.get("source", str),
                     _verdict(conclusion.get("verdict", str), conclusion._path("verdict")),
                     origins=origins if any(o != "checked now" for o in origins) else ())
    if conclusion.get("holds_everywhere", bool) != rep.conclusion_holds_everywhere:
        raise _Bad(f"{conclusion._path('holds_everywhere')} does not match the verdicts "
                   "of the steps")
    return rep


def parse_record(record) -> ReportView:
    """One derivation's record (``derivations[i]`` of the JSON) as a view, validated field by
    field as a file is (:class:`ReportInputError` naming the first problem)."""
    try:
        return _derivation(_Fields(record, "record"))
    except _Bad as exc:
        raise ReportInputError(f"not a complete {SCHEMA} derivation record: {exc}") from None


def parse_check_json(data, name: str = "the JSON") -> CheckJson:
    """:class:`CheckJson` from the parsed JSON ``data``; ``name`` names it in errors."""
    schema = data.get("schema") if isinstance(data, dict) else None
    if schema == "symdp-check/1":
        raise ReportInputError(
            f"{name} is a symdp-check/1 report, which symdp report no longer reads: its "
            f"CERTIFIED verdicts do not say whether they cover the whole domain or only "
            f"sampled points; re-run symdp check --json to write {SCHEMA!r}")
    if schema == "symdp-check/2":
        raise ReportInputError(
            f"{name} is a symdp-check/2 report, which symdp report no longer reads: its "
            f"ENUMERATED verdicts do not say whether the enumeration covered the whole domain "
            f"or a finite range of an infinite one; re-run symdp check --json to write {SCHEMA!r}")
    if schema not in READABLE:
        found = "no schema" if schema is None else f"schema {schema!r}"
        raise ReportInputError(
            f"{name} has {found}; symdp report --from-json reads {SCHEMA!r} (and "
            f"{READABLE[0]!r}), written by symdp check --json")
    try:
        top = _Fields(data, "")
        reports = tuple(_derivation(_Fields(d, f"derivations[{i}]"))
                        for i, d in enumerate(top.get("derivations", list)))
        errors = []
        for i, e in enumerate(top.get("load_errors", list)):
            e = _Fields(e, f"load_errors[{i}]")
            errors.append(_LoadError(e.get("path", str), e.get("error", str)))
        dps = top.get("dps", list, optional=True)
        if dps is not None and not (len(dps) == 2 and all(isinstance(x, int) and
                                                          not isinstance(x, bool) for x in dps)):
            raise _Bad("dps is not a pair of integers")
        summary = top.get("summary", dict)
    except _Bad as exc:
        raise ReportInputError(
            f"{name} is not a complete {schema} report for symdp report: {exc} "
            f"(re-run symdp check --json with this version of symdp)") from None
    return CheckJson(reports, tuple(errors), tuple(sorted(dps)) if dps else None, summary)


def _depth(data) -> int:
    """How deeply ``data`` nests arrays and objects (iteratively: no recursion limit)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, (list, dict)):
            deepest = max(deepest, level)
            if level > MAX_JSON_DEPTH:
                break
            stack.extend((v, level + 1) for v in (value.values() if isinstance(value, dict)
                                                   else value))
    return deepest


def load_check_json(path) -> CheckJson:
    """Read and validate a ``symdp check --json`` file (see :func:`parse_check_json`)."""
    import os
    import stat

    name = repr(os.fspath(path))   # as given ("adir/", not "adir")
    path = Path(path)
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as fh:
            mode = os.fstat(fh.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise ReportInputError(f"cannot read {name}: not a regular file (a device, a "
                                       "FIFO or a directory); give the path of a JSON file")
            raw = fh.read(MAX_JSON_BYTES + 1)
    except OSError as exc:
        raise ReportInputError(f"cannot read {name}: "
                               f"{exc.strerror or type(exc).__name__}") from None
    except ReportInputError:
        raise
    except ValueError:  # a NUL character in the path
        raise ReportInputError(f"cannot read {name}: a path cannot hold a NUL character") \
            from None
    if len(raw) > MAX_JSON_BYTES:
        raise ReportInputError(f"{name} is larger than {MAX_JSON_BYTES} bytes, the limit for a "
                               "symdp check --json file")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ReportInputError(f"{name} is not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ReportInputError(f"{name} is not valid JSON: {exc.msg} at line "
                               f"{exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise ReportInputError(f"{name} nests arrays or objects more than "
                               f"{MAX_JSON_DEPTH} deep") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise ReportInputError(f"{name} nests arrays or objects more than "
                               f"{MAX_JSON_DEPTH} deep") from None
    return parse_check_json(data, name)
