"""The structural stage of the check cascade (:mod:`symdp.proof.check`): ``lhs == rhs``
as SymPy trees.  A proposer: it returns a certificate for :func:`symdp.proof.kernel.accept`."""

from __future__ import annotations

from ..certificates import StructuralCertificate
from ..derivation import Step


def structural_certificate(step: Step) -> StructuralCertificate | None:
    if step.lhs == step.rhs and step.relation in ("=", "<=", ">="):
        return StructuralCertificate(step.lhs, step.rhs, step.relation, "structural")
    return None
