"""Helpers shared by the stages of the check cascade (:mod:`symdp.proof.check`): closed
forms, signs and relations, exact values, the points a step is sampled at, evaluation at a
precision, and the REFUTED result of a failing point."""

from __future__ import annotations

import sympy as sp

from ..derivation import Derivation, Step
from ..sampling import conditions_on, constraint_closure
from ..verdict import Counterexample, StepResult, Verdict

DEFAULT_DPS = (30, 60)
DEFAULT_POINTS = 24
# the budgets of the stages, counted in work, are in symdp.proof.budgets


def expand(expr: sp.Basic) -> sp.Basic:
    """Closed forms of symdp objects (``doit``), keeping Enumerated atoms."""
    try:
        return expr.doit(deep=True)
    except Exception:  # noqa: BLE001 - an object without a closed form stays as it is
        return expr


def _is_zero(expr) -> bool | None:
    if expr == 0:
        return True
    z = expr.is_zero
    return z


def sign_holds(diff: sp.Expr, relation: str) -> bool | None:
    """Does ``diff = lhs - rhs`` satisfy ``diff REL 0``?  True/False/None (undecided)."""
    if relation == "<=":
        return diff.is_nonpositive
    if relation == "<":
        return diff.is_negative
    if relation == ">=":
        return diff.is_nonnegative
    if relation == ">":
        return diff.is_positive
    return _is_zero(diff)


def relation_holds(lhs, rhs, relation: str, tol) -> bool:
    diff = lhs - rhs
    if relation == "=":
        return abs(diff) <= tol
    if relation in ("<=", "<"):
        return diff <= tol
    return diff >= -tol


def format_value(value, digits=20) -> str:
    if isinstance(value, sp.Rational):
        return str(value)
    if isinstance(value, sp.Float):
        return sp.Float(value, digits).__str__()
    return str(value)


#: heartbeats for simplifying a side at a counterexample to its exact value (a log of a
#: large rational could keep SymPy busy for minutes: issue #29, "no hang")
EXACT_VALUE_WORK = 60_000


def exact_value(expr):
    """The exact value of a closed numeric expression when it is rational, else None (also
    when simplifying it takes more than :data:`EXACT_VALUE_WORK` heartbeats).  Logarithms,
    exponentials and fractional powers are not simplified: SymPy's ``logcombine`` raises
    rationals to rational powers exactly, which builds no object (no heartbeat) and can take
    minutes at a counterexample with large coordinates."""
    from ..budgets import WorkExhausted, work_limit

    if expr.is_Rational:
        return expr
    if expr.has(sp.log, sp.exp) or any(not p.exp.is_Integer for p in expr.atoms(sp.Pow)):
        return None
    try:
        with work_limit(EXACT_VALUE_WORK):
            value = sp.simplify(expr)
    except (Exception, WorkExhausted):  # noqa: BLE001
        return None
    return value if value.is_Rational else None


def sample_symbols(derivation: Derivation, step: Step) -> set:
    """The step's symbols and those tied to them by the constraints (see
    :func:`~symdp.proof.sampling.constraint_closure`)."""
    conditions = tuple(derivation.constraints) + tuple(step.side_conditions)
    return constraint_closure(step.free_symbols, conditions, derivation.hypotheses)


def relevant_conditions(derivation: Derivation, step: Step) -> tuple:
    """The derivation's constraints on the step's symbols and on those tied to them through
    other constraints, and the step's side conditions.  (A constraint on symbols unrelated
    to the step cannot restrict it, and would reject every sampled point; a constraint
    reaching the step through another parameter, ``x <= y <= z`` for a step in x and z,
    must be kept, with that parameter sampled too.)"""
    symbols = sample_symbols(derivation, step)
    kept = conditions_on(symbols, derivation.constraints)
    return kept + tuple(step.side_conditions)


def rational_or_none(e):
    """``e`` as an exact Rational (evaluated, then simplified), or None -- never a guess."""
    e = sp.sympify(e).doit()
    if e.is_Rational:
        return e
    try:
        e = sp.simplify(e)
    except Exception:  # noqa: BLE001
        return None
    return e if e.is_Rational else None


def point_str(point: dict) -> str:
    if not point:
        return "every point (no free parameters)"
    return ", ".join(f"{getattr(s, 'name', s)}={v}" for s, v in point.items())


def evaluate_at(expr, dps):
    value = sp.N(expr, dps, maxn=4 * dps + 100)
    if value.has(sp.nan) or value.has(sp.zoo):
        return None
    if value in (sp.oo, -sp.oo):
        return value
    if not value.is_Number:
        re_part, im_part = value.as_real_imag()
        if im_part != 0 and abs(im_part) > sp.Float(10) ** (-dps + 5):
            return None
        value = re_part
        if not value.is_Number:
            return None
    return value



def refutation(point, lv, rv, relation, stage, dps_used, checked, exact_values=(None, None),
                also=None) -> StepResult:
    el, er = exact_values
    exact = el is not None and er is not None
    if exact:
        ok = {"=": el == er, "<=": el <= er, "<": el < er, ">=": el >= er, ">": el > er}[relation]
        if ok:  # the exact values say otherwise: never refute on rounding
            return StepResult(Verdict.UNDECIDED, f"numeric failure at {point_str(point)} "
                              "not confirmed exactly", stage)
        lhs_s, rhs_s, diff_s = str(el), str(er), str(el - er)
    else:
        lhs_s, rhs_s = format_value(lv, 25), format_value(rv, 25)
        diff_s = format_value(sp.Float(lv - rv, 25), 10) if lv not in (sp.oo, -sp.oo) else "inf"
    cx = Counterexample({getattr(s, "name", str(s)): str(v) for s, v in point.items()},
                        lhs_s, rhs_s, diff_s, exact=exact)
    how = "exactly" if exact else f"at {also} and {dps_used} digits" if also else f"at {dps_used} digits"
    detail = f"fails at {point_str(point)}: lhs = {lhs_s}, rhs = {rhs_s} ({how})"
    return StepResult(Verdict.REFUTED, detail, stage, counterexample=cx, points=checked + 1)
