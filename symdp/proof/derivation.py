"""Derivations as data: hypotheses on parameters, and a chain of steps.

A :class:`Step` is ``lhs REL rhs`` with the rule that justifies it.  A
:class:`Derivation` names what it concludes, cites its source, gives every free
symbol a domain (a SymPy set: ``Interval(0, oo)``, ``Interval.open(0, 1)``,
``Range(1, oo)``) and chains its steps: each step's lhs is the previous step's
rhs, so the conclusion ``steps[0].lhs REL steps[-1].rhs`` follows with the
composed relation.  ``chained=False`` makes the steps independent claims.

A step may declare the verdict it is *expected* to get (``expect``): a recorded
finding, e.g. a claim printed in a paper that is refuted.  ``symdp check``
passes when the finding reproduces and fails when it stops reproducing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from ..core.errors import DerivationError
from .verdict import Verdict
from ..core.validation import shown

RELATIONS = ("=", "<=", "<", ">=", ">")
SKIPPABLE_STAGES = ("symbolic", "certified")
# "=>" and "=<" are not aliases: "=>" reads as an implication, and a relation symdp is not
# sure of is an error, never a guess
_ALIASES = {"==": "=", "≤": "<=", "≥": ">="}
LATEX_RELATION = {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}


def normalise_relation(rel: str) -> str:
    rel = _ALIASES.get(rel.strip(), rel.strip())
    if rel not in RELATIONS:
        raise DerivationError(f"relation must be one of {', '.join(RELATIONS)}; got relation={shown(rel)}")
    return rel


def compose_relations(first: str, second: str) -> str | None:
    """The relation ``a ? c`` that follows from ``a first b`` and ``b second c``."""
    if first == "=":
        return second
    if second == "=":
        return first
    up = {"<=", "<"}
    down = {">=", ">"}
    if first in up and second in up:
        return "<" if "<" in (first, second) else "<="
    if first in down and second in down:
        return ">" if ">" in (first, second) else ">="
    return None


@dataclass(frozen=True)
class Step:
    """One step ``lhs relation rhs``, justified by ``rule``.

    ``side_conditions`` are Relationals that restrict where the step is claimed
    (e.g. ``x <= x_star`` for one piece of a piecewise closed form).
    ``expect`` records a finding: the verdict this step is expected to get.
    ``skip`` names cascade stages not to try on this step (``"symbolic"``, ``"certified"``),
    e.g. ``skip=("symbolic",)`` for a comparison with an envelope that has no symbolic form,
    where simplification could only time out; the detail of the verdict says so.
    ``induction=(n, n0)`` asks for a proof by induction on the integer parameter ``n`` from
    ``n0`` (its domain must be the integers >= n0): the base case at ``n = n0`` and the step
    P(n) => P(n + 1), both checked by the kernel (:mod:`symdp.proof.cascade.induction`).
    ``proof`` is a proof the step carries (issue #28): a tuple of
    :class:`~symdp.proof.certificates.Inference` (a lemma proof of ``lhs REL rhs``) or a
    callable ``proof(step)`` returning a certificate of the step's claim; the kernel replays
    it before any stage runs (:mod:`symdp.proof.cascade.convex`).
    ``written`` holds ``(lhs, rhs)`` as the user typed them, unevaluated (text parsed with
    ``evaluate=False``, so that ``x/x`` is not already 1): the kernel checks that they are
    defined on the whole domain too (issue #19); empty means ``lhs`` and ``rhs`` are as written.
    """

    lhs: sp.Basic
    relation: str
    rhs: sp.Basic
    rule: str = ""
    side_conditions: tuple = ()
    expect: Verdict | None = None
    note: str = ""
    skip: tuple = ()
    induction: tuple = ()
    written: tuple = ()
    proof: object = None

    def __post_init__(self):
        object.__setattr__(self, "relation", normalise_relation(self.relation))
        for side in ("lhs", "rhs"):
            value = getattr(self, side)
            if isinstance(value, str):  # text goes through symdp.parsing, never sympify
                raise DerivationError(f"step {side} must be a SymPy expression, not text; "
                                      "parse text with symdp.parsing.parse_formula")
            if not isinstance(value, sp.Basic):
                from ..core.validation import to_exact

                object.__setattr__(self, side, to_exact(side, value))
        object.__setattr__(self, "side_conditions", tuple(self.side_conditions))
        skip = (self.skip,) if isinstance(self.skip, str) else tuple(self.skip)
        unknown = [s for s in skip if s not in SKIPPABLE_STAGES]
        if unknown:
            raise DerivationError(f"skip must name stages among {', '.join(SKIPPABLE_STAGES)}; "
                                  f"got skip={shown(unknown[0])}")
        object.__setattr__(self, "skip", skip)
        if self.induction and (len(self.induction) != 2 or
                               not isinstance(self.induction[0], sp.Symbol)):
            raise DerivationError(f"induction must be (symbol, start); got induction={shown(self.induction)}")

    @property
    def free_symbols(self) -> set:
        syms = set(self.lhs.free_symbols) | set(self.rhs.free_symbols)
        for cond in self.side_conditions:
            syms |= cond.free_symbols
        return syms


def chain(start, *links) -> tuple[Step, ...]:
    """Build chained steps: ``chain(a, ("=", b, "rule"), ("<=", c, "rule", {...}))``.

    Each link is ``(relation, expr, rule)`` optionally followed by a dict of
    further :class:`Step` fields (``side_conditions``, ``expect``, ``note``).
    """
    steps = []
    lhs = start
    for link in links:
        rel, rhs, rule, *rest = link
        extra = rest[0] if rest else {}
        steps.append(Step(lhs, rel, rhs, rule, **extra))
        lhs = rhs
    return tuple(steps)


@dataclass(frozen=True)
class Derivation:
    """A checked result: id, statement, citation, hypotheses and steps.

    ``id`` is named after what the derivation concludes (Mathlib style,
    ``cp_ge_eps_delta_of_eps_delta_dp``).  ``hypotheses`` maps every free
    symbol to a SymPy set; ``constraints`` are further Relationals between
    parameters (``k <= n``).  ``enumeration`` gives, for integer parameters,
    the small ranges over which exact enumeration is run.
    """

    id: str
    statement: str
    citation: str
    hypotheses: dict
    steps: tuple
    constraints: tuple = ()
    chained: bool = True
    enumeration: dict = field(default_factory=dict)
    notes: str = ""

    def __post_init__(self):
        object.__setattr__(self, "steps", tuple(self.steps))
        object.__setattr__(self, "constraints", tuple(self.constraints))
        if not self.id or not self.id.replace("_", "").isalnum():
            raise DerivationError(f"derivation id must be a non-empty identifier; got id={shown(self.id)}")
        if not self.steps:
            raise DerivationError(f"derivation {self.id} has no steps")
        for symbol, domain in self.hypotheses.items():
            if not isinstance(symbol, sp.Symbol) or not isinstance(domain, sp.Set):
                raise DerivationError(
                    f"derivation {self.id}: hypotheses map Symbols to SymPy sets; got {shown(symbol)}: {shown(domain)}")
        for i, step in enumerate(self.steps):
            missing = step.free_symbols - set(self.hypotheses)
            if missing:
                names = ", ".join(sorted(str(s) for s in missing))
                raise DerivationError(f"derivation {self.id}, step {i + 1}: no domain for {names}")
        if self.chained:
            for i in range(1, len(self.steps)):
                if self.steps[i].lhs != self.steps[i - 1].rhs:
                    raise DerivationError(
                        f"derivation {self.id}: step {i + 1} does not chain "
                        f"(its lhs is not the rhs of step {i})")
            if self.conclusion_relation is None:
                raise DerivationError(f"derivation {self.id}: relations of the chain do not compose")

    @property
    def conclusion_relation(self) -> str | None:
        if not self.chained:
            return None
        rel = self.steps[0].relation
        for step in self.steps[1:]:
            rel = compose_relations(rel, step.relation)
            if rel is None:
                return None
        return rel

    @property
    def conclusion(self) -> Step | None:
        """``steps[0].lhs REL steps[-1].rhs`` for a chain; None for a list of claims."""
        if not self.chained:
            return None
        return Step(self.steps[0].lhs, self.conclusion_relation, self.steps[-1].rhs,
                    rule="chain of steps " + ", ".join(str(i + 1) for i in range(len(self.steps))))

    def statement_latex(self) -> str:
        """The LaTeX of what the derivation concludes (the chain's conclusion or its claims)."""
        claims = [self.conclusion] if self.chained else list(self.steps)
        return r" \quad\text{and}\quad ".join(
            f"{sp.latex(c.lhs)} {LATEX_RELATION[c.relation]} {sp.latex(c.rhs)}" for c in claims)
