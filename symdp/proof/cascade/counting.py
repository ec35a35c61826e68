"""The counting stage of the check cascade (:mod:`symdp.proof.check`, issue #20): a step
whose sides hold :class:`~symdp.core.enumerable.Enumerated` atoms is proved for every
parameter value when each atom has a closed form derived through the counting lemmas
(its ``counting_derivation()`` hook; :mod:`symdp.core.counting`) and the relation between
the closed forms is proved (:mod:`symdp.proof.residual`).  The certificate goes to the
kernel (:func:`symdp.proof.kernel.accept`, called by the cascade -- the one door), which
re-checks the lemma applications, compares
every atom's closed form with its enumeration at small cases, and re-checks the algebra.
A stage that cannot derive or prove returns None: the enumeration stage then runs, as
evidence on its range.

A step with no enumerated atom whose parameters are all integers and whose sides hold powers
with symbolic exponents, binomials, factorials, ``exp`` or ``log`` (``(1 - 1/n^2)^k >=
((n-1)/n)^k``, ``n log((n+1)/n) <= 1``) is the same algebra without counts: its
:mod:`~symdp.proof.residual` proof goes to the kernel as a counting certificate with no atoms."""

from __future__ import annotations

import itertools

import sympy as sp

from ...core.enumerable import Enumerated
from ..certificates import CountingCertificate
from ..derivation import Derivation, Step
from ..residual import domain_facts, prove_residual
from ..sampling import conditions_on

#: how many small admissible cases the lemma derivation is compared with enumeration at
CHECK_POINTS = 6


def check_points(derivation: Derivation, step: Step, symbols) -> tuple:
    """The smallest admissible points of the derivation's enumeration ranges (at most
    :data:`CHECK_POINTS`, smallest sum of values first)."""
    ranges = derivation.enumeration
    symbols = tuple(sorted(symbols, key=lambda s: s.name))
    if any(s not in ranges for s in symbols):
        return ()
    conditions = conditions_on(symbols, derivation.constraints) + tuple(step.side_conditions)
    key = (symbols, tuple((s, tuple(ranges[s]), derivation.hypotheses[s]) for s in symbols),
           conditions)
    if key not in _POINTS:
        _POINTS[key] = _admissible(symbols, ranges, derivation.hypotheses, conditions)
    return _POINTS[key]


#: the check points of each (symbols, their ranges and sets, conditions): steps of one
#: derivation share them
_POINTS: dict = {}


def _admissible(symbols, ranges, hypotheses, conditions) -> tuple:
    admissible = []
    values_of = [[sp.Integer(v) for v in ranges[s] if sp.Integer(v) in hypotheses[s]]
                 for s in symbols]
    for values in itertools.product(*values_of):
        point = dict(zip(symbols, values))
        try:
            if not all(bool(c.xreplace(point)) for c in conditions):
                continue
        except TypeError:
            continue
        admissible.append(tuple(point.items()))
    # the smallest cases first (enumeration lists every output): by the sum of the values
    admissible.sort(key=lambda point: (sum(int(v) for _, v in point), point))
    return tuple(admissible[:CHECK_POINTS])


def counting_stage(lhs, rhs, relation, derivation: Derivation, step: Step) -> tuple:
    """``(CountingCertificate or None, note)``: a proof for the kernel to accept, or None and
    why not."""
    atoms = sorted(lhs.atoms(Enumerated) | rhs.atoms(Enumerated), key=sp.default_sort_key)
    if not atoms:
        return _residual_algebra(lhs, rhs, relation, derivation, step)
    derived = []
    for atom in atoms:
        hook = getattr(atom, "counting_derivation", None)
        d = hook() if hook is not None else None
        if d is None:
            return None, f"counting: no lemma derivation for {type(atom).__name__}"
        derived.append((atom, d))
    replace = {a: d.value for a, d in derived}
    L, R = lhs.xreplace(replace), rhs.xreplace(replace)
    facts = domain_facts(derivation.hypotheses) + list(derivation.constraints) + \
        list(step.side_conditions)
    residual = prove_residual(L, relation, R, facts, derivation.hypotheses)
    if residual is None:
        return None, "counting: closed forms derived, the algebra after them not proved"
    symbols = set().union(*[a.free_symbols for a in atoms])
    return CountingCertificate(lhs, rhs, relation, "counting", atoms=tuple(derived),
                               residual=residual,
                               checks=check_points(derivation, step, symbols)), ""


def _needs_atoms(expr) -> bool:
    return bool(expr.has(sp.binomial, sp.factorial, sp.exp, sp.log) or
                any(not p.exp.is_number for p in expr.atoms(sp.Pow)))


def _residual_algebra(lhs, rhs, relation, derivation: Derivation, step: Step) -> tuple:
    """``(CountingCertificate or None, note)`` for a step without counts: the algebra of
    integer parameters (powers with symbolic exponents, binomials, factorials, exp, log)
    proved for every value (:func:`~symdp.proof.residual.prove_residual`), for the kernel."""
    free = lhs.free_symbols | rhs.free_symbols
    hypotheses = derivation.hypotheses
    if not free or not (_needs_atoms(lhs) or _needs_atoms(rhs)) or \
            any(s not in hypotheses or not isinstance(hypotheses[s], sp.Range) for s in free) or \
            lhs.has(sp.Sum, sp.Product) or rhs.has(sp.Sum, sp.Product):
        return None, ""
    facts = domain_facts(hypotheses) + list(derivation.constraints) + list(step.side_conditions)
    residual = prove_residual(lhs, relation, rhs, facts, hypotheses)
    if residual is None:
        return None, "residual algebra: not proved for every value"
    return CountingCertificate(lhs, rhs, relation, "residual", residual=residual), ""
