"""The structural stage of the check cascade (:mod:`symdp.proof.check`): ``lhs == rhs``
as SymPy trees."""

from __future__ import annotations

from ..derivation import Step
from ..verdict import StepResult, Verdict


def _structural(step: Step) -> StepResult | None:
    if step.lhs == step.rhs:
        if step.relation in ("=", "<=", ">="):
            return StepResult(Verdict.PROVED, "both sides are the same expression", "structural")
    return None
