"""The domain check that runs before the check cascade (:mod:`symdp.proof.check`): a side
undefined somewhere on the step's stated domain leaves the step UNDECIDED (issue #14)."""

from __future__ import annotations

import sympy as sp

from ..derivation import Derivation, Step
from ..budgets import DENOMINATOR_WORK, WorkExhausted, work_limit
from ..verdict import StepResult, Verdict


def undefined_on_domain(step: Step, derivation: Derivation) -> StepResult | None:
    """UNDECIDED when a side of ``step`` is undefined somewhere on its stated domain, so
    that no later stage can call the step proved there (issue #14).

    Checked, cheaply and conservatively (a step passes unless a point is found):

    * a side that *is* undefined: ``nan`` or ``zoo`` (complex infinity) in it;
    * a denominator ``b(x)`` in one parameter (outside any ``Piecewise``, whose branch
      conditions may exclude the zero) that vanishes at a point of the domain of ``x``
      (its hypothesis, narrowed by side conditions and constraints in ``x`` alone);
      parameters that appear in constraints with other parameters are not checked.
    """
    for side, expr in (("lhs", step.lhs), ("rhs", step.rhs)):
        if expr.has(sp.nan) or expr.has(sp.zoo):
            what = "nan (not a number)" if expr.has(sp.nan) else "zoo (complex infinity)"
            return StepResult(Verdict.UNDECIDED, f"the {side} is undefined: it contains {what}",
                              "domain")
    coupled = set()
    narrowing = {}
    for cond in (*step.side_conditions, *derivation.constraints):
        free = getattr(cond, "free_symbols", set())
        if len(free) == 1:
            narrowing.setdefault(next(iter(free)), []).append(cond)
        else:
            coupled |= set(free)
    for side, expr in (("lhs", step.lhs), ("rhs", step.rhs)):
        for base in _denominators(expr):
            free = base.free_symbols
            if len(free) != 1:
                continue
            (x,) = free
            domain = derivation.hypotheses.get(x)
            if domain is None or x in coupled:
                continue
            try:
                with work_limit(DENOMINATOR_WORK):
                    for cond in narrowing.get(x, ()):
                        domain = domain.intersect(
                            sp.solve_univariate_inequality(cond, x, relational=False))
                    zeros = sp.solveset(base, x, domain)
                    if not isinstance(zeros, sp.FiniteSet) or not zeros:
                        continue
                    point = min(zeros, key=lambda z: (sp.count_ops(z), sp.default_sort_key(z)))
            except (WorkExhausted, Exception):  # noqa: BLE001 - cannot tell: leave it to the cascade
                continue
            return StepResult(
                Verdict.UNDECIDED,
                f"the {side} is undefined at {x} = {point}, a point of the stated domain "
                f"{x} in {sp.sstr(domain)} (division by {sp.sstr(base)} = 0); restrict the "
                "domain or add a side condition", "domain")
    return None


def _denominators(expr):
    """Bases of negative powers in ``expr``, not looking inside ``Piecewise``."""
    found, stack = [], [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, sp.Piecewise) or not isinstance(e, sp.Basic):
            continue
        if isinstance(e, sp.Pow) and e.exp.is_negative and e.base.free_symbols:
            found.append(e.base)
        stack.extend(e.args)
    return found
