r"""Derivative-sign monotonicity: a symbolic proof of ``m >= 0`` (or ``m > 0``) one parameter
at a time (issue #12, item 5).

For the margin ``m`` of an inequality (``rhs - lhs`` for ``<=``, ``lhs - rhs`` for ``>=``)
and a parameter x with domain of ends a < b, by the mean value theorem:

* if :math:`\partial m/\partial x \ge 0` on the domain, :math:`m(x, y) \ge m(a, y)` for
  every admissible x (a finite);
* if :math:`\partial m/\partial x \le 0`, :math:`m(x, y) \ge m(b, y)` (b finite);

so the claim follows from the claim at the end, with one parameter fewer, decided by the
same analysis (at most three levels deep) or exactly when no parameter is left.  A strict
claim needs the end value > 0 when the end belongs to the domain, and, at an open end,
the end value >= 0 with a strictly signed derivative.

Classical inequalities enter through the sign analysis of the derivative: it is the sign
analysis of :mod:`symdp.proof.cascade.certified.reduce` (SymPy's assumptions of the domains, the
parameters shifted from their ends, :math:`e^u = 1 + v, v \ge 0` for :math:`u \ge 0`)
followed by the one-sided relaxations of :class:`symdp.proof.cascade.certified.tail.Relaxer`
(:math:`\log A \le A - 1`, :math:`\log A \ge 1 - 1/A`, :math:`e^u \ge 1 + u`, Bernoulli),
each applied only in the direction that keeps the claim.  This is how
:math:`e^x \ge 1 + x`, :math:`\log(1+x) \le x`, :math:`\tanh x \le x` and
:math:`\Phi(x - \mu) < \Phi(x)` for :math:`\mu > 0` are proved.

The argument needs m continuous on the closed domain of x and differentiable inside it.
It is used only for margins built from functions that are (exp, log, powers, Phi, erf,
erfc, tanh, atan, sinh, cosh) and only when every denominator and every logarithm's
argument is proved > 0 on the domain (so no pole can hide between sampled values); the
domains' own constraints only -- never coupling constraints, since the path from (a, y) to
(x, y) must stay in the domain.
"""

from __future__ import annotations

import sympy as sp

from ...core.special import Phi
from ..budgets import SIGN_WORK_MEDIUM, SIGN_WORK_QUICK

SMOOTH = (sp.exp, sp.log, sp.erf, sp.erfc, sp.tanh, sp.atan, sp.sinh, sp.cosh, Phi)
MAX_DEPTH = 3


def _smooth(e) -> bool:
    """Only smooth building blocks (no Abs, Max, Min, Piecewise, floor, inverses)."""
    for node in sp.preorder_traversal(e):
        if node.is_Atom or node.is_Add or node.is_Mul or node.is_Pow:
            continue
        if isinstance(node, SMOOTH):
            continue
        return False
    return True


def _defined_everywhere(e, signs) -> bool:
    """Every denominator and log argument > 0, every fractional power's base >= 0 (> 0 for a
    negative exponent), on the domain of ``signs``."""
    for p in e.atoms(sp.Pow):
        b, k = p.base, p.exp
        if not b.free_symbols:
            continue
        if k.is_Integer and k > 0:
            continue
        need = ">" if (k.is_negative or not k.is_number) else ">="
        if not signs.sign(b, need, SIGN_WORK_QUICK)[0]:
            return False
    for lg in e.atoms(sp.log):
        if lg.args[0].free_symbols and not signs.sign(lg.args[0], ">", SIGN_WORK_QUICK)[0]:
            return False
    return True


def _sign_of(e, want, signs) -> tuple[bool, str]:
    from .certified.tail import Relaxer

    ok, why = signs.sign(e, want, SIGN_WORK_MEDIUM)
    if ok:
        return True, why
    ok, notes = Relaxer(signs).prove(e, want, tried=True)
    if ok:
        return True, "after " + "; ".join(notes)
    return False, ""


def _constant_sign(value, strict: bool) -> bool:
    """Is a closed constant >= 0 (> 0)?  Exactly when it is rational, else with balls."""
    value = sp.simplify(value)
    if value.is_Rational:
        return value > 0 if strict else value >= 0
    if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return False
    try:
        from ...numeric.ball_compiler import evaluate_ball

        ball = evaluate_ball(value, {}, bits=256)
    except Exception:  # noqa: BLE001 - not decided
        return False
    if not ball.is_finite():
        return False
    return bool(ball > 0) if strict else bool(ball >= 0)


def prove_by_monotonicity(margin, strict: bool, hypotheses: dict, depth: int = 0,
                          chain: list | None = None) -> str:
    """A reason why ``margin >= 0`` (``> 0`` when ``strict``) on the product of the domains,
    or "" when none is found.  Its budget is the caller's :func:`~symdp.proof.budgets.work_limit`
    (:data:`~symdp.proof.budgets.MONOTONICITY_WORK` in the symbolic stage).

    On success ``chain`` (when given) receives the argument as ``(x, end, direction,
    end_open)`` per level, outermost first: what the kernel re-derives and confirms."""
    from .certified.reduce import Signs

    if depth > MAX_DEPTH or not _smooth(margin):
        return ""
    free = sorted(margin.free_symbols, key=lambda s: s.name)
    if not free:
        return "the value at the end is decided exactly" if _constant_sign(margin, strict) else ""
    if any(s not in hypotheses or not isinstance(hypotheses[s], sp.Interval) for s in free):
        return ""
    domains = {s: hypotheses[s] for s in free}
    signs = Signs(domains, ())
    if not _defined_everywhere(margin, signs):
        return ""
    for x in free:
        dom = domains[x]
        try:
            d = sp.diff(margin, x)
        except Exception:  # noqa: BLE001
            continue
        for direction, end, end_open in ((+1, dom.start, dom.left_open), (-1, dom.end, dom.right_open)):
            if not end.is_finite:
                continue
            want_d = ">" if (strict and end_open) else ">="
            ok, why = _sign_of(d if direction > 0 else -d, want_d, signs)
            if not ok:
                continue
            at_end = margin.xreplace({x: end})
            if at_end.has(sp.nan, sp.zoo):
                continue
            rest = {s: dom_ for s, dom_ in domains.items() if s != x}
            need_strict = strict and not end_open
            inner_chain = []
            inner = prove_by_monotonicity(at_end, need_strict, rest, depth + 1, inner_chain)
            if inner:
                if chain is not None:
                    chain.extend([(x, end, direction, bool(end_open))] + inner_chain)
                slope = "non-decreasing" if direction > 0 else "non-increasing"
                if want_d == ">":
                    slope = "increasing" if direction > 0 else "decreasing"
                return (f"the margin is {slope} in {x.name} (its derivative has that sign on the "
                        f"domain: {why or 'sign analysis'}), so it is least at {x.name} = {end}, "
                        f"where {inner}")
    return ""
