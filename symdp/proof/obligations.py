r"""The assumptions of the objects a step uses: checked over the step's domain, or carried.

An object may build its closed form on a choice it could not prove -- e.g. ``subsample(f, p)``
with symbolic parameters orders piece ends and picks quadratic roots at a witness point
(:mod:`symdp.subsampling.operator`) -- and records each such choice as an
:class:`~symdp.tradeoff.assumptions.Assumption`; so are the constraints on symbolic
parameters an object could not decide (``delta <= 1``: its ``conditions``) and, for a
``TradeOff(expr)`` not yet validated, the conditions of Prop. 2.2.  Objects never run the checker; this module
does, for every step whose verdict used a closed form:

* every assumption of every trade-off object in the step is checked by the cascade
  (:func:`symdp.proof.check.check_step`) as a step of its own, over the step's domain
  (the derivation's hypotheses, the constraints on the same symbols, the step's side
  conditions; the assumption's own bound variables with their sets);
* one that holds for every parameter value (PROVED, CERTIFIED, ENUMERATED) is a proved
  fact, listed in ``StepResult.facts``;
* any other -- evidence at points, undecided or refuted -- is a named hypothesis in
  ``StepResult.hypotheses``: the verdict then holds only where the hypothesis holds and
  prints so ("PROVED under: x* <= 1 - delta"); it never counts as holding for every
  parameter value.  A refuted assumption names the point where the choice is wrong.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from ..core.errors import DerivationError
from .derivation import Derivation, Step
from .verdict import StepResult

__all__ = ["assumptions_of", "with_object_assumptions"]

_CACHE: dict = {}
_CACHE_SIZE = 512
_DEPTH = [0]


def assumptions_of(*exprs) -> tuple:
    """The :class:`~symdp.tradeoff.assumptions.Assumption` records of every trade-off object
    in ``exprs`` (each once, in order of appearance)."""
    from ..tradeoff.base import TradeOff

    found = []
    for expr in exprs:
        if not isinstance(expr, sp.Basic):
            continue
        for node in sp.preorder_traversal(expr):
            if isinstance(node, TradeOff):
                try:
                    found.extend(node.assumptions)
                except (NotImplementedError, ValueError, TypeError, ArithmeticError):
                    continue  # no closed form was built, so none was chosen
    return tuple(dict.fromkeys(found))


def _check_assumption(assumption, step: Step, derivation: Derivation, check, kwargs):
    """The cascade's verdict on ``assumption`` over the domain of ``step`` (cached)."""
    claim = assumption.claim
    hypotheses = {s: d for s, d in derivation.hypotheses.items()}
    hypotheses.update(dict(assumption.over))
    symbols = set(claim.free_symbols).union(*(w.free_symbols for w in assumption.where),
                                            *(c.free_symbols for c in step.side_conditions))
    missing = [s for s in symbols if s not in hypotheses]
    if missing:
        return None, "no domain for " + ", ".join(sorted(s.name for s in missing))
    hyps = {s: hypotheses[s] for s in sorted(symbols, key=lambda s: s.name)}
    constraints = tuple(c for c in derivation.constraints if c.free_symbols <= set(hyps))
    where = tuple(assumption.where) + tuple(step.side_conditions)
    key = (claim, tuple(hyps.items()), constraints, where, tuple(sorted(kwargs.items())))
    if key in _CACHE:
        return _CACHE[key], ""
    if not isinstance(claim, sp.core.relational.Relational) or claim.rel_op == "!=":
        return None, "not a relation the cascade checks"
    try:
        sub = Derivation("object_assumption", assumption.text, assumption.reason, hyps,
                         (Step(claim.lhs, claim.rel_op, claim.rhs, "an object's assumption",
                               side_conditions=where),),
                         constraints=constraints)
    except DerivationError as exc:
        return None, str(exc)
    arithmetic = _by_arithmetic(claim, hyps, constraints, where)   # issue #28
    if arithmetic is not None:
        _CACHE[key] = arithmetic
        return arithmetic, ""
    if _DEPTH[0] >= 2:  # an assumption whose check uses objects with assumptions of their own
        return None, "nested too deep"
    _DEPTH[0] += 1
    try:
        result = check(sub.steps[0], sub, 0, **kwargs)
    except Exception as exc:  # noqa: BLE001 - an assumption that cannot be checked is carried
        message = str(exc).splitlines()[0] if str(exc) else ""
        return None, f"{type(exc).__name__}: {message}"
    finally:
        _DEPTH[0] -= 1
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = result
    return result, ""


def _by_arithmetic(claim, hypotheses, constraints, where):
    """The kernel's verdict on ``claim`` as one z3 inference with the exp/log facts
    (:mod:`symdp.proof.kernel.convex`), when it holds; None otherwise (issue #28: e.g.
    ``log(1 - p + p e^eps) >= 0``, which an EpsDelta of a subsampled mechanism records)."""
    from . import kernel
    from .certificates import Claim, Domain, Inference, Judgement, LemmaCertificate

    if claim.rel_op not in ("<=", "<", ">=", ">", "=="):
        return None
    relation = "=" if claim.rel_op == "==" else claim.rel_op
    dom = Domain.of(hypotheses, constraints, where)
    goal = Judgement(claim.lhs, relation, claim.rhs, dom)
    certificate = LemmaCertificate(claim.lhs, claim.rhs, relation, "lemmas",
                                   proof=(Inference("arith", (("goal", goal), ("method", "z3"))),))
    try:
        result = kernel.accept(Claim(claim.lhs, relation, claim.rhs, dom), certificate)
    except Exception:  # noqa: BLE001 - not decided this way: the cascade checks it
        return None
    return result if result.holds_everywhere else None


def with_object_assumptions(result: StepResult, step: Step, derivation: Derivation,
                            **kwargs) -> StepResult:
    """``result`` with the assumptions of the objects in ``step`` checked (``facts``) or
    carried (``hypotheses``); ``kwargs`` go to :func:`~symdp.proof.check.check_step`.

    A step decided structurally (both sides the same expression) used no closed form and
    rests on nothing.
    """
    if result.stage == "structural":
        return result
    from .check import assumption_symbols, check_step

    mapping = assumption_symbols(derivation.hypotheses)
    back = {v: k for k, v in mapping.items()}
    # the objects as the cascade built them (same assumption symbols: the same cached pieces)
    found = assumptions_of(step.lhs.xreplace(mapping), step.rhs.xreplace(mapping))
    if not found:
        return result
    facts, hypotheses, notes = list(result.facts), list(result.hypotheses), []
    seen = set()
    for assumption in found:
        assumption = assumption.xreplace(back)
        if assumption.text in seen:  # the same claim recorded by two objects (delta <= 1)
            continue
        seen.add(assumption.text)
        checked, why = _check_assumption(assumption, step, derivation, check_step, kwargs)
        if checked is not None and checked.holds_everywhere:
            facts.append(f"{assumption.text} ({checked.verdict.value})")
            continue
        hypotheses.append(assumption.text)
        if checked is None:
            status = f"not checked: {why}"
        elif checked.counterexample is not None and checked.counterexample.point:
            point = ", ".join(f"{k}={v}" for k, v in checked.counterexample.point.items())
            status = f"REFUTED at {point}: the choice is wrong there"
        else:
            status = f"{checked.verdict.value}: {checked.scope}"
        notes.append(f"{assumption.text} ({assumption.reason}; {status})")
    detail = result.detail
    if notes:
        detail += ("; rests on unproved hypotheses: " if len(notes) > 1 else
                   "; rests on an unproved hypothesis: ") + "; ".join(notes)
    if len(facts) > len(result.facts):
        detail += f"; {len(facts) - len(result.facts)} assumption(s) of its objects proved over the domain"
    return replace(result, detail=detail, facts=tuple(facts), hypotheses=tuple(hypotheses))
