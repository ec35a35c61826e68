r"""Check the chains that :mod:`symdp.parsing.document` read from a LaTeX document.

Each chain of a display becomes a :class:`~symdp.proof.derivation.Derivation` of
:class:`~symdp.proof.derivation.Step`\ s, checked by
:func:`~symdp.proof.check.check_derivation` -- the same cascade and verdicts as
``symdp check``; nothing here decides a verdict.  A chain whose rows were all read is one
derivation whose conclusion is ``first lhs REL last rhs`` (the composed relation, e.g.
``a < d`` for ``a = b <= c < d``); where a row could not be read the chain falls apart
into the runs of steps around it, each a derivation of its own.

Hypotheses: an assumption on one symbol (``0 <= p <= 1``) is its domain, an ``integer``
name ranges over the integers of its domain, an equation ``NAME = formula`` whose formula
is not a number replaces the name by the formula (``out = -h``), any other relation
(``k <= n``) is a constraint; a symbol without an assumption ranges over the real line.

Quantities the document names but symdp does not evaluate (:mod:`symdp.core.quantities`:
``\Pr[E]``, ``\mathbb{E}[X]``, ``\sup_x f(x)``, ``s(X)``, a sum over a set, a sum of indexed
terms ``x_i``) are checked as *bounded unknowns*: each distinct one becomes a fresh symbol
over what is known of its value whatever it is of (a probability in [0, 1], a variance at
least 0, the expectation of a positive body positive, else the real line;
:func:`symdp.core.quantities.value_bounds`), the same one
wherever it occurs.  A step that holds for every value of those symbols holds; a step that
fails for some value is not refuted -- the value need not be one the quantity can take --
but UNDECIDED, saying so (:func:`_not_refuted`).  The kernel never sees these objects.

A file has a time limit (``timeout`` seconds, ``symdp check-tex --timeout``): each step runs
under a hang guard of what remains of it, and the rows left when it runs out are not
checked, each saying so with the line where the limit was reached.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sized
from dataclasses import dataclass, replace

import sympy as sp

from ..core.errors import InvalidParameterError, ParseError
from ..core.quantities import is_opaque, label, value_bounds
from ..core.validation import shown
from ..parsing.document import MAX_ROWS, Display, Row, TexDocument, TexProblem
from ..parsing.domains import integer_domains
from ..proof.check import check_derivation
from ..proof.derivation import Derivation, Step
from ..proof.budgets import STEP_HANG_GUARD_SECONDS
from ..proof.verdict import StepResult, Verdict

__all__ = ["CheckedRow", "TexCheck", "check_arguments", "check_document", "domains_of",
           "row_mark", "DEFAULT_TIMEOUT"]

#: seconds one file may take by default (``symdp check-tex --timeout``)
DEFAULT_TIMEOUT = 300.0
#: the longest ``timeout`` accepted, in seconds (a day)
MAX_TIMEOUT = 86_400.0


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


def _opaque(node) -> bool:
    """A quantity checked as a bounded unknown: a :mod:`symdp.core.quantities` object, an
    undefined function's value, an indexed term, or a sum or product of such terms."""
    if is_opaque(node) or isinstance(node, sp.Indexed):
        return True
    return isinstance(node, (sp.Sum, sp.Product)) and \
        any(is_opaque(a) or isinstance(a, sp.Indexed) for a in sp.preorder_traversal(node))


def _abstracted(steps: list, relations: list) -> tuple[list, list, dict]:
    """``steps`` and ``relations`` with every opaque quantity replaced by a fresh symbol (the
    same one for equal quantities), and those symbols -> their quantity."""
    atoms: dict = {}
    taken = {s.name for e in [*[x for s in steps for x in (s.lhs, s.rhs)], *relations]
             for s in e.free_symbols if isinstance(s, sp.Symbol)}

    def atom(node) -> sp.Symbol:
        if node not in atoms:
            name, k = label(node), 1
            while name in taken:
                k += 1
                name = f"{label(node)} ({k})"
            taken.add(name)
            atoms[node] = sp.Symbol(name, real=True)
        return atoms[node]

    def visit(node):
        if not isinstance(node, sp.Basic) or node.is_Atom:
            return node
        if _opaque(node):
            return atom(node)
        args = tuple(visit(a) for a in node.args)
        return node if args == node.args else node.func(*args)

    out_steps = [replace(s, lhs=visit(s.lhs), rhs=visit(s.rhs)) for s in steps]
    out_relations = [visit(r) for r in relations]
    return out_steps, out_relations, {symbol: node for node, symbol in atoms.items()}


def _substitutions(relations: list) -> tuple[list, dict]:
    """Equations ``NAME = formula`` among ``relations`` as a substitution (applied to the
    others and to each other), and the relations left."""
    subs, rest = {}, []
    for relation in relations:
        parts = relation.args if isinstance(relation, sp.And) else (relation,)
        for rel in parts:
            if isinstance(rel, sp.Eq):
                for name, value in ((rel.lhs, rel.rhs), (rel.rhs, rel.lhs)):
                    # "x = 3" stays a domain (the counterexample names x); "out = -h" goes
                    if isinstance(name, sp.Symbol) and name not in value.free_symbols \
                            and name not in subs and not value.is_number:
                        subs[name] = value
                        break
                else:
                    rest.append(rel)
            else:
                rest.append(rel)
    for _ in range(len(subs)):  # resolve chains x = y, y = 2
        changed = {k: v.xreplace(subs) for k, v in subs.items()}
        if changed == subs:
            break
        subs = changed
    if any(k in v.free_symbols for k, v in subs.items()):
        return relations, {}  # circular: keep them as constraints
    return [r.xreplace(subs) for r in rest], subs


def _tied(symbols: set, relations: list) -> set:
    """``symbols`` and every symbol a chain of ``relations`` ties to them: ``out >= ln(1 + h)``
    and ``h <= 1/alpha`` constrain ``out`` through ``h``, so ``h`` is a parameter of a step in
    ``out`` too (leaving it out would sample ``out`` where no ``h`` allows it)."""
    symbols = set(symbols)
    parts = [p for r in relations for p in (r.args if isinstance(r, sp.And) else (r,))]
    grown = True
    while grown:
        grown = False
        for rel in parts:
            free = {s for s in rel.free_symbols if isinstance(s, sp.Symbol)}
            if free & symbols and not free <= symbols:
                symbols |= free
                grown = True
    return symbols


def _not_refuted(result: StepResult, atoms: set) -> StepResult:
    """A refutation that sets a bounded unknown is not one: UNDECIDED, saying why."""
    cx = result.counterexample
    values = ", ".join(f"{k} = {v}" for k, v in cx.point.items() if k in atoms) if cx else ""
    return StepResult(Verdict.UNDECIDED,
                      "not decided: the step fails for some values of "
                      f"{', '.join(sorted(atoms))} ({values or 'the search found such values'}), "
                      "and whether those quantities can take them depends on what they are "
                      "of, which symdp does not know (it holds only if it holds for every "
                      "value)", "check-tex", expected=result.expected)


def check_document(document: TexDocument, *, dps=(30, 60), certify: bool = True,
                   points: int | None = None, symbolic_work: int | None = None,
                   lines=None, only_lines: bool = False, progress=None,
                   timeout: float | None = DEFAULT_TIMEOUT) -> TexCheck:
    """Check every chain of ``document`` (see the module docstring); never raises on a
    failing step.  ``lines`` (source line numbers) checks only the runs of steps that
    contain one of them -- with ``only_lines=True`` only the steps written on those lines
    (each run cut to them: the line being edited, without the rest of its chain);
    ``progress(done, total)`` is called after each derivation; ``timeout`` (seconds, None:
    none) limits the whole file.

    The arguments are checked before any work (:func:`check_arguments`): a wrong type or
    value is an :class:`~symdp.core.errors.InvalidParameterError` naming it."""
    import time

    dps, lines = check_arguments(document, dps=dps, certify=certify, points=points,
                                 symbolic_work=symbolic_work, lines=lines, progress=progress,
                                 timeout=timeout)
    if not isinstance(only_lines, bool):
        raise InvalidParameterError(f"only_lines must be True or False; got "
                                    f"only_lines={shown(only_lines)}")
    deadline = None if timeout is None else time.monotonic() + timeout
    ran_out_at = None
    pending = []   # (display, [(row_index, step)]) per chain
    for display in document.displays:
        chains: dict[int, list] = {}
        for index, row in enumerate(display.rows):
            for step in row.steps:
                chains.setdefault(row.chain, []).append((index, step))
        for chain in chains.values():
            if lines is not None and only_lines:
                chain = [(index, step) for index, step in chain if step.line in lines]
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
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            ran_out_at = ran_out_at or first.line
            for index, s in run:
                row_problems[(id(display), index)] = TexProblem(
                    s.line, 1, f"not checked: the file's time limit ({timeout:g} s, --timeout) "
                               f"ran out at line {ran_out_at}")
            continue
        relations = [r for _, r in display.hypotheses.relations]
        steps, relations, atoms = _abstracted(steps, relations)
        relations, subs = _substitutions(relations)
        if subs:
            steps = [replace(s, lhs=s.lhs.xreplace(subs), rhs=s.rhs.xreplace(subs))
                     for s in steps]
        symbols = set()
        for s in steps:
            symbols |= s.free_symbols
        symbols = _tied(symbols, relations)
        try:
            domains, constraints = domains_of(relations, symbols,
                                              set(display.hypotheses.integers))
            for symbol, node in atoms.items():
                if symbol in domains:
                    domains[symbol] = domains[symbol].intersect(value_bounds(node))
            derivation = Derivation(
                ident, _statement(run), f"{document.path}, line {first.line}", domains,
                tuple(steps), constraints=tuple(constraints),
                chained=len(steps) > 1 and _composes(steps))
        except (ParseError, ValueError) as error:
            for index, s in run:
                row_problems[(id(display), index)] = TexProblem(s.line, 1, f"not checked: {error}")
            continue
        guard = STEP_HANG_GUARD_SECONDS if remaining is None else \
            max(1.0, min(STEP_HANG_GUARD_SECONDS, remaining))
        report = check_derivation(derivation, hang_guard_seconds=guard, **kwargs)
        results = []
        for step, result in zip(derivation.steps, report.steps):
            names = {s.name for s in step.free_symbols} & {a.name for a in atoms}
            if result.verdict is Verdict.REFUTED and names:
                result = _not_refuted(result, names)
            elif result.verdict is Verdict.UNDECIDED and "hang guard hit" in result.detail \
                    and remaining is not None and guard < STEP_HANG_GUARD_SECONDS:
                ran_out_at = ran_out_at or step_line(step)
                result = replace(result, detail=f"the file's time limit ({timeout:g} s, "
                                                f"--timeout) ran out while checking this step")
            results.append(result)
        report = replace(report, steps=tuple(results), source=f"{document.path}:{first.line}")
        reports.append(report)
        for i, (index, _) in enumerate(run):
            where.setdefault((id(display), index), []).append((report, i))
        if progress is not None:
            progress(n + 1, len(pending))
    rows = []
    for display in document.displays:
        for index, row in enumerate(display.rows):
            key = (id(display), index)
            rows.append(CheckedRow(display, row, tuple(where.get(key, ())),
                                   row.problem or row_problems.get(key)))
    return TexCheck(document, tuple(reports), tuple(rows))


def step_line(step) -> int:
    """The source line of a step (its note is ``file:line``)."""
    return int(step.note.rpartition(":")[2] or 0)


#: the largest ``symbolic_work`` budget (heartbeats; symdp check's default is 100,000)
MAX_SYMBOLIC_WORK = 10 ** 8
#: the most sampled points of the numeric stage
MAX_POINTS = 1000


def check_arguments(document, *, dps, certify, points, symbolic_work, lines, progress,
                    timeout=None):
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
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not math.isfinite(timeout)
                                or not 0 < timeout <= MAX_TIMEOUT):
        raise InvalidParameterError(f"timeout must be None or a number of seconds in (0, "
                                    f"{MAX_TIMEOUT:g}]; got timeout={shown(timeout)}")
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
    counterexample), ``"noted"`` (read, nothing to check: a definition, a premise, an
    expression) or ``"unread"`` (not parsed, skipped, or not decided; the reason is given)."""
    results = row.step_results
    if any(r.verdict is Verdict.REFUTED for r in results):
        return "refuted"
    if row.problem is None and not row.row.skipped and row.row.kind != "steps" and not results:
        return "noted"
    if row.problem is not None or not results or not all(r.verdict.supports for r in results):
        return "unread"
    if all(r.holds_everywhere for r in results):
        return "holds"
    return "evidence"
