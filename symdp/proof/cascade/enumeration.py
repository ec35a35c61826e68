"""The enumeration stage of the check cascade (:mod:`symdp.proof.check`): when a step holds
:class:`~symdp.core.enumerable.Enumerated` atoms and every free symbol has an enumeration
range, every admissible case, exactly.  A proposer: a case that fails is REFUTED here; all
cases holding give a :class:`~symdp.proof.certificates.FiniteCertificate`, which the kernel
accepts as ENUMERATED only when the enumerated values cover every parameter's whole set
(else ENUMERATED_ON_RANGE: evidence)."""

from __future__ import annotations

import itertools

import sympy as sp

from ...core.enumerable import Enumerated, enumerate_atoms
from ..certificates import FiniteCertificate
from ..derivation import Derivation, Step
from ..sampling import conditions_on
from ..verdict import Counterexample, StepResult, Verdict
from .common import point_str, rational_or_none, sample_symbols


def enumeration_stage(lhs, rhs, relation, derivation: Derivation,
                      step: Step) -> StepResult | FiniteCertificate | None:
    if not (lhs.atoms(Enumerated) or rhs.atoms(Enumerated)):
        return None
    symbols = sorted(step.free_symbols, key=lambda s: s.name)
    ranges = derivation.enumeration
    missing = [s for s in symbols if s not in ranges]
    if missing:
        return StepResult(Verdict.UNDECIDED, "enumeration: no range for " +
                          ", ".join(s.name for s in missing), "enumeration")
    # parameters tied to the step's through constraints (2 l <= k for a step in k) are
    # enumerated too when they have a range, so that every case is admissible; the step is
    # evaluated once per value of its own parameters
    tied = sorted((sample_symbols(derivation, step) - set(symbols)) & set(ranges),
                  key=lambda s: s.name)
    every = symbols + tied
    conditions = conditions_on(every, derivation.constraints) + tuple(step.side_conditions)
    # each symbol's admissible values once (a set-membership test in SymPy is slow)
    admissible = [[sp.Integer(v) for v in ranges[s] if sp.Integer(v) in derivation.hypotheses[s]]
                  for s in every]
    cases = 0
    seen = set()
    for values in itertools.product(*admissible):
        full = dict(zip(every, values))
        if not all(bool(c.xreplace(full)) for c in conditions):
            continue
        point = {s: full[s] for s in symbols}
        key = tuple(point.values())
        if key in seen:
            continue
        seen.add(key)
        L = enumerate_atoms(lhs.xreplace(point))
        R = enumerate_atoms(rhs.xreplace(point))
        L, R = rational_or_none(L), rational_or_none(R)
        if L is None or R is None:
            return StepResult(Verdict.UNDECIDED, f"enumeration: a side is not an exact rational "
                              f"at {point_str(point)}", "enumeration")
        cases += 1
        holds = {"=": L == R, "<=": L <= R, "<": L < R, ">=": L >= R, ">": L > R}[relation]
        if not holds:
            cx = Counterexample({s.name: str(v) for s, v in point.items()}, str(L), str(R),
                                str(L - R), exact=True)
            return StepResult(Verdict.REFUTED, f"fails at {point_str(point)}: lhs = {L}, rhs = {R}",
                              "enumeration", counterexample=cx, points=cases)
    if cases == 0:
        return StepResult(Verdict.UNDECIDED, "enumeration: no case satisfies the hypotheses",
                          "enumeration")
    spans = ", ".join(f"{s.name} in {min(ranges[s])}..{max(ranges[s])}" for s in symbols)
    return FiniteCertificate(lhs, rhs, relation, "enumeration",
                             values=tuple((s, tuple(vals)) for s, vals in zip(every, admissible)),
                             cases=cases, how="exact",
                             detail=f"{cases} cases ({spans}), exact rationals")
