"""The induction stage of the check cascade (issue #20): a step with ``induction=(n, n0)``
is proved for every integer ``n >= n0`` by a base case at ``n = n0`` and an inductive step
P(n) => P(n + 1), each a residual proof (:mod:`symdp.proof.residual`) that the kernel
re-checks (:class:`~symdp.proof.certificates.InductionCertificate`, accepted by the cascade
through :func:`symdp.proof.kernel.accept`, the one door).

The step is set up by *peeling* the left-hand side at ``n + 1`` into its value at ``n``:
``Sum(f(i), (i, a, n + 1)) = Sum(f(i), (i, a, n)) + f(n + 1)`` (``Finset.sum_range_succ``),
the same for ``Product`` (``Finset.prod_range_succ``), and ``x^(n + 1) = x^n x``
(``pow_succ``).  The value at ``n`` is then replaced by a fresh symbol ``H`` with the
hypothesis ``H REL rhs(n)``; what remains must follow from it, under ``n >= n0``."""

from __future__ import annotations

import sympy as sp

from ..certificates import InductionCertificate
from ..derivation import Derivation, Step
from ..residual import domain_facts, prove_residual
from ..verdict import StepResult, Verdict


def peel(expr, v):
    """``expr`` at ``v + 1`` written through ``expr`` at ``v`` where a rule applies."""
    shifted = expr.xreplace({v: v + 1})

    def rule(e):
        if isinstance(e, (sp.Sum, sp.Product)) and len(e.limits) == 1:
            i, a, b = e.limits[0]
            if sp.simplify(b - (v + 1)) == 0:
                inner = e.func(e.function, (i, a, v))
                last = e.function.xreplace({i: v + 1})
                return inner + last if isinstance(e, sp.Sum) else inner * last
        if isinstance(e, sp.Pow) and e.exp.has(v):
            c = sp.expand(e.exp - e.exp.xreplace({v: v - 1}))
            if c.is_Integer and c > 0:
                return e.base ** e.exp.xreplace({v: v - 1}) * e.base ** c
        return e

    return shifted.replace(lambda e: isinstance(e, (sp.Sum, sp.Product, sp.Pow)), rule)


def induction_stage(step: Step, derivation: Derivation):
    """An :class:`InductionCertificate` for the kernel, or an UNDECIDED StepResult saying
    which part is not proved."""
    v, start = step.induction
    start = sp.sympify(start)
    H = sp.Dummy("H")
    lhs, rhs, rel = step.lhs, step.rhs, step.relation
    others = {s: d for s, d in derivation.hypotheses.items() if s != v}
    facts = domain_facts(derivation.hypotheses) + list(derivation.constraints) + \
        list(step.side_conditions)
    base_facts = domain_facts(others) + [c for c in list(derivation.constraints) +
                                         list(step.side_conditions) if v not in c.free_symbols]
    base = prove_residual(lhs.xreplace({v: start}).doit(), rel, rhs.xreplace({v: start}).doit(),
                          base_facts, others)
    if base is None:
        return StepResult(Verdict.UNDECIDED, f"induction on {v}: the base case {v} = {start} "
                          "is not proved", "induction")
    peeled = peel(lhs, v).xreplace({lhs: H})
    if not peeled.has(H):
        return StepResult(Verdict.UNDECIDED, f"induction on {v}: lhs at {v} + 1 could not be "
                          f"written through lhs at {v}", "induction")
    hypothesis = {"=": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}[rel](
        H, rhs, evaluate=False)
    inductive = prove_residual(peeled, rel, rhs.xreplace({v: v + 1}), facts,
                               derivation.hypotheses, (hypothesis,))
    if inductive is None:
        return StepResult(Verdict.UNDECIDED, f"induction on {v} from {start}: the base case "
                          f"holds, the step P({v}) => P({v} + 1) is not proved", "induction")
    return InductionCertificate(lhs, rhs, rel, "induction", variable=v, start=start,
                                hypothesis=H, peeled=peeled, base=base, step=inductive)
