r"""Check the chains that :mod:`symdp.parsing.document` read from a LaTeX document.

Each chain of a display becomes a :class:`~symdp.proof.derivation.Derivation` of
:class:`~symdp.proof.derivation.Step`\ s, checked by
:func:`~symdp.proof.check.check_derivation` -- the same cascade and verdicts as
``symdp check``; nothing here decides a verdict.  A chain whose rows were all read is one
derivation whose conclusion is ``first lhs REL last rhs`` (the composed relation, e.g.
``a < d`` for ``a = b <= c < d``); where a row could not be read the chain falls apart
into the runs of steps around it, each a derivation of its own.

Hypotheses: an assumption on one symbol (``0 <= p <= 1``) is its domain, an ``integer``
name ranges over the integers of its domain, any other relation (``k <= n``) is a
constraint; a symbol without an assumption ranges over the real line.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sized
from dataclasses import dataclass

import sympy as sp

from ..core.errors import InvalidParameterError, ParseError
from ..core.validation import shown
from ..parsing.document import MAX_ROWS, Display, Row, TexDocument, TexProblem
from ..parsing.domains import integer_domains
from ..proof.check import check_derivation
from ..proof.derivation import Derivation, Step
from ..proof.verdict import Verdict

__all__ = ["CheckedRow", "TexCheck", "check_arguments", "check_document", "domains_of",
           "row_mark"]


@dataclass(frozen=True)
class CheckedRow:
    """A row with the results of its steps: ``results[i]`` is ``(report, index)``."""

    display: Display
    row: Row
    results: tuple = ()
    problem: TexProblem | None = None

    @property
    def step_results(self) -> list:
        return [report.steps[i] for report, i in self.results]


@dataclass(frozen=True)
class TexCheck:
    """A checked document: the derivations (``reports``) and every row with its results."""

    document: TexDocument
    reports: tuple
    rows: tuple

    @property
    def unread(self) -> list:
        return [r for r in self.rows if r.problem is not None]

    @property
    def ok(self) -> bool:
        """Every row was read and every verdict matches its expectation (as ``symdp check``)."""
        return not self.unread and all(r.ok for r in self.reports)


def domains_of(relations, symbols, integers, *, hypotheses_text=""):
    """Per-symbol domains and the remaining constraints of ``relations`` over ``symbols``.

    A relation on one symbol narrows its domain (a SymPy set); an ``integers`` name keeps
    the integers of its domain (it needs a lower bound); a relation between several
    symbols of the step is a constraint.  Relations on symbols the steps do not use are
    left out.  Raises ``ParseError`` when a domain is empty.
    """
    by_name = {s.name: s for s in symbols}
    domains = {s: (sp.S.Integers if s.name in integers else sp.S.Reals) for s in symbols}
    constraints = []
    for relation in relations:
        parts = relation.args if isinstance(relation, sp.And) else (relation,)
        for rel in parts:
            if rel is sp.true:
                continue
            if rel is sp.false:
                raise ParseError(f"an assumption is false for every value{hypotheses_text}")
            free = {by_name.get(s.name) for s in rel.free_symbols}
            if None in free:
                continue
            rel = rel.xreplace({s: by_name[s.name] for s in rel.free_symbols})
            if len(free) == 1:
                s = next(iter(free))
                solved = sp.solve_univariate_inequality(rel, s, relational=False) \
                    if rel.rel_op != "==" else sp.FiniteSet(*sp.solve(rel, s))
                domains[s] = domains[s].intersect(solved)
            else:
                constraints.append(rel)
    domains = integer_domains(domains, integers, where=hypotheses_text,
                              hint=lambda name: f"% symdp: assume {name} >= 1")
    return domains, constraints


def _runs(steps: list) -> list[list]:
    """Split ``[(row_index, step)]`` into runs whose steps chain (lhs = previous rhs)."""
    runs = []
    for item in steps:
        if runs and runs[-1][-1][1].rhs == item[1].lhs and runs[-1][-1][1].relation and \
                item[0] >= runs[-1][-1][0]:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def check_document(document: TexDocument, *, dps=(30, 60), certify: bool = True,
                   points: int | None = None, symbolic_work: int | None = None,
                   lines=None, progress=None) -> TexCheck:
    """Check every chain of ``document`` (see the module docstring); never raises on a
    failing step.  ``lines`` (source line numbers) checks only the runs of steps that
    contain one of them; ``progress(done, total)`` is called after each derivation.

    The arguments are checked before any work (:func:`check_arguments`): a wrong type or
    value is an :class:`~symdp.core.errors.InvalidParameterError` naming it."""
    dps, lines = check_arguments(document, dps=dps, certify=certify, points=points,
                                 symbolic_work=symbolic_work, lines=lines, progress=progress)
    pending = []   # (display, [(row_index, step)]) per chain
    for display in document.displays:
        chains: dict[int, list] = {}
        for index, row in enumerate(display.rows):
            for step in row.steps:
                chains.setdefault(row.chain, []).append((index, step))
        for chain in chains.values():
            pending += [(display, run) for run in _runs(chain)
                        if lines is None or any(s.line in lines for _, s in run)]
    used_ids: set = set()
    reports, where = [], {}   # (id(display), row index) -> [(report, step index)]
    row_problems = {}
    kwargs = {"dps": dps, "certify": certify}
    if points is not None:
        kwargs["points"] = points
    if symbolic_work is not None:   # heartbeats (symdp.proof.budgets), not seconds
        kwargs["symbolic_work"] = symbolic_work
    for n, (display, run) in enumerate(pending):
        first = run[0][1]
        ident = f"line_{first.line}"
        while ident in used_ids:
            ident += "_"
        used_ids.add(ident)
        steps = []
        for _, s in run:
            expect = Verdict(s.expect) if s.expect else None
            steps.append(Step(s.lhs, s.relation, s.rhs, s.rule or f"line {s.line}",
                              expect=expect, note=f"{document.path}:{s.line}"))
        symbols = set()
        for s in steps:
            symbols |= s.free_symbols
        try:
            domains, constraints = domains_of(
                [r for _, r in display.hypotheses.relations], symbols,
                set(display.hypotheses.integers))
            derivation = Derivation(
                ident, _statement(run), f"{document.path}, line {first.line}", domains,
                tuple(steps), constraints=tuple(constraints),
                chained=len(steps) > 1 and _composes(steps))
        except (ParseError, ValueError) as error:
            for index, s in run:
                row_problems[(id(display), index)] = TexProblem(s.line, 1, f"not checked: {error}")
            continue
        report = check_derivation(derivation, **kwargs)
        from dataclasses import replace

        report = replace(report, source=f"{document.path}:{first.line}")
        reports.append(report)
        for i, (index, _) in enumerate(run):
            where.setdefault((id(display), index), []).append((report, i))
        if progress is not None:
            progress(n + 1, len(pending))
    rows = []
    for display in document.displays:
        for index, row in enumerate(display.rows):
            if row.skipped:
                continue
            key = (id(display), index)
            rows.append(CheckedRow(display, row, tuple(where.get(key, ())),
                                   row.problem or row_problems.get(key)))
    return TexCheck(document, tuple(reports), tuple(rows))


#: the largest ``symbolic_work`` budget (heartbeats; symdp check's default is 100,000)
MAX_SYMBOLIC_WORK = 10 ** 8
#: the most sampled points of the numeric stage
MAX_POINTS = 1000


def check_arguments(document, *, dps, certify, points, symbolic_work, lines, progress):
    """The arguments of :func:`check_document`, checked: ``(dps, lines)`` normalised (a pair
    of ints; a frozenset or None).  Raises :class:`InvalidParameterError` naming the first
    one that is wrong."""
    from ..core.validation import precision
    from ..proof.runner import MAX_CHECK_DPS

    if not isinstance(document, TexDocument):
        raise InvalidParameterError(
            f"document must be a TexDocument (read the LaTeX first: check_document(read_tex("
            f"text))); got document={shown(document)}")
    if isinstance(dps, (str, bytes)) or not isinstance(dps, (tuple, list)) or len(dps) != 2:
        raise InvalidParameterError(f"dps must be a pair (lower, higher) of working precisions "
                                    f"in digits; got dps={shown(dps)}")
    low = precision("dps[0]", dps[0], minimum=15, maximum=MAX_CHECK_DPS)
    high = precision("dps[1]", dps[1], minimum=low, maximum=MAX_CHECK_DPS)
    if not isinstance(certify, bool):
        raise InvalidParameterError(f"certify must be True or False; got certify={shown(certify)}")
    if points is not None:
        precision("points", points, minimum=1, maximum=MAX_POINTS)
    if symbolic_work is not None:
        precision("symbolic_work", symbolic_work, minimum=1, maximum=MAX_SYMBOLIC_WORK)
    if lines is not None:
        if isinstance(lines, (str, bytes)) or not isinstance(lines, Iterable) or \
                (isinstance(lines, Sized) and len(lines) > MAX_ROWS):
            raise InvalidParameterError(f"lines must be a collection of at most {MAX_ROWS} line "
                                        f"numbers; got lines={shown(lines)}")
        lines = frozenset(precision("lines", n, minimum=1, maximum=10 ** 9)
                          for n in itertools.islice(lines, MAX_ROWS + 1))
    if progress is not None and not callable(progress):
        raise InvalidParameterError(f"progress must be a function progress(done, total); got "
                                    f"progress={shown(progress)}")
    return (low, high), lines


def _composes(steps) -> bool:
    from ..proof.derivation import compose_relations

    relation = steps[0].relation
    for s in steps[1:]:
        relation = compose_relations(relation, s.relation)
        if relation is None:
            return False
    return True


def _statement(run) -> str:
    parts = [sp.sstr(run[0][1].lhs)]
    for _, s in run:
        parts += [s.relation, sp.sstr(s.rhs)]
    return "the chain read from the document: " + " ".join(parts)


def row_mark(row: CheckedRow) -> str:
    """The margin mark of a row: ``"holds"`` (every step holds everywhere), ``"evidence"``
    (supported at points only, or under unproved hypotheses), ``"refuted"`` (a
    counterexample) or ``"unread"`` (not parsed, or not decided; the reason is given)."""
    results = row.step_results
    if any(r.verdict is Verdict.REFUTED for r in results):
        return "refuted"
    if row.problem is not None or not results or not all(r.verdict.supports for r in results):
        return "unread"
    if all(r.holds_everywhere for r in results):
        return "holds"
    return "evidence"
