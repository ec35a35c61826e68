"""The counterexample-search stage of the check cascade (:mod:`symdp.proof.check`): runs
:func:`symdp.proof.cascade.search.search` before a step is reported as evidence at points
(or left UNDECIDED), with a decider that refutes only at exact points of the domain."""

from __future__ import annotations

import sympy as sp

from ...core.enumerable import Enumerated
from ...core.errors import DerivationError
from ..sampling import seed_for
from ..budgets import DECIDE_WORK, POINT_WORK, SEARCH_WORK, WorkExhausted, work_limit
from ..verdict import Counterexample, StepResult, Verdict
from .common import point_str, relevant_conditions, sample_symbols
from .numeric import numeric_stage


def counterexample_stage(lhs, rhs, step, derivation, index, dps, result) -> StepResult:
    """The counterexample search (:mod:`symdp.proof.cascade.search`) before a step is
    reported as evidence at points (or left undecided): REFUTED at the point it finds,
    else ``result`` with what was searched added to its detail."""
    from .search import search

    if lhs.atoms(Enumerated) or rhs.atoms(Enumerated):
        return result
    symbols = sample_symbols(derivation, step)
    conditions = relevant_conditions(derivation, step)
    decide = _decider(lhs, rhs, step.relation, derivation, step, index, dps, symbols)
    try:
        with work_limit(SEARCH_WORK):
            outcome = search(lhs, rhs, step.relation, symbols, derivation.hypotheses, conditions,
                             decide=decide, seed=seed_for(derivation.id, index, "search"))
    except WorkExhausted:
        note = f"counterexample search: stopped at its budget ({SEARCH_WORK} heartbeats)"
        return StepResult(result.verdict, f"{result.detail}; {note}", result.stage,
                          result.counterexample, worst_margin=result.worst_margin,
                          points=result.points, extra=result.extra)
    except DerivationError:
        raise
    except Exception as exc:  # noqa: BLE001 - a failing search decides nothing
        note = f"counterexample search failed: {type(exc).__name__}"
        return StepResult(result.verdict, f"{result.detail}; {note}", result.stage,
                          result.counterexample, worst_margin=result.worst_margin,
                          points=result.points, extra=result.extra)
    if outcome.refuted is not None:
        r = outcome.refuted
        return StepResult(r.verdict, r.detail + " (found by the counterexample search, after "
                          f"{result.verdict.value}: {result.detail[:160]})", r.stage,
                          r.counterexample, points=r.points,
                          extra={**result.extra, "search": {"candidates": outcome.candidates}})
    if result.verdict is Verdict.UNDECIDED or not (outcome.candidates or outcome.note):
        return result
    return StepResult(result.verdict, f"{result.detail}; {outcome.text()}", result.stage,
                      result.counterexample, worst_margin=result.worst_margin,
                      points=result.points,
                      extra={**result.extra, "search": {"candidates": outcome.candidates,
                                                        "minimisations": outcome.minimisations}})


def probe_stage(lhs, rhs, step, derivation, index, dps, points) -> StepResult | None:
    """The probe before the proof attempts (issue #30): REFUTED at the first of ``points``
    where the relation certainly fails -- exactly, or by Arb balls that exclude it (the
    search's decider) --, else None.  No numeric fallback: a side the ball compiler does not
    take is not probed (mpmath's evaluation at a point is bounded by no budget)."""
    symbols = sample_symbols(derivation, step)
    decide = _decider(lhs, rhs, step.relation, derivation, step, index, dps, symbols,
                      numeric_fallback=False)
    for point in points:
        found = decide(point)
        if found is not None:
            return StepResult(found.verdict, found.detail + f" (the probe at {len(points)} "
                              "points, before any proof attempt)", "probe",
                              found.counterexample, points=found.points)
    return None


def _exact_tie(lhs_value, rhs_value) -> bool:
    """Are the sides' exact values at a point equal, their difference being exactly 0
    (:func:`~symdp.proof.cascade.common.exact_value`, the numeric stage's test of a tie)?"""
    from ..budgets import WorkExhausted, work_limit
    from .common import exact_value

    try:
        with work_limit(POINT_WORK):
            difference = lhs_value - rhs_value
    except (WorkExhausted, ValueError, TypeError, ArithmeticError):
        return False
    value = exact_value(difference)
    return value is not None and value == 0


def _decider(lhs, rhs, relation, derivation, step, index, dps, symbols, numeric_fallback=True):
    """``decide(point)``: a REFUTED StepResult when the relation certainly fails at the exact
    point (exactly, by balls at rising precision, or -- ``numeric_fallback`` -- by the
    numeric stage when the ball compiler does not take a side), else None."""
    ordered = sorted(symbols, key=lambda s: s.name)
    fns = None
    try:
        from ...numeric.balls import UNAVAILABLE
        from ...numeric.ball_compiler import compile_ball

        if not UNAVAILABLE:
            fns = (compile_ball(lhs, ordered), compile_ball(rhs, ordered))
    except Exception:  # noqa: BLE001 - unsupported: the numeric stage decides
        fns = None

    from ...core.exact_cost import exact_is_cheap
    from ..sampling import satisfied

    conditions = relevant_conditions(derivation, step)

    def admissible(point) -> bool:
        """The point is in every domain and satisfies every condition, exactly: a
        refutation is never made outside the step's domain."""
        for s, v in point.items():
            if s not in derivation.hypotheses or \
                    derivation.hypotheses[s].contains(v) is not sp.true:
                return False
        return satisfied(conditions, point)

    def decide(point):
        if not admissible(point):
            return None
        exact_sides = None
        try:
            with work_limit(POINT_WORK):
                if exact_is_cheap(lhs, point) and exact_is_cheap(rhs, point):
                    # an object may reject the point
                    exact_sides = lhs.xreplace(point), rhs.xreplace(point)
                elif fns is None:
                    return None
        except (ValueError, WorkExhausted):
            return None
        if fns is not None:
            from .certified.points import FAILS, UNDECIDED, check_point
            from ...numeric.balls import arb

            try:
                with work_limit(DECIDE_WORK):
                    c = check_point(fns[0], fns[1], lhs, rhs, relation, point, dps=max(dps),
                                    radius=arb(10) ** (-(max(dps) - 20)), deep=relation == "=")
            except (WorkExhausted, ValueError, ZeroDivisionError, ArithmeticError):
                return None
            if c is not None and c.status == UNDECIDED and relation in ("<", ">") and \
                    exact_sides is not None and _exact_tie(*exact_sides):
                # balls cannot see a tie that is not rational (E - 1 < -1 + E at x = 1); its
                # difference is exactly 0, as the numeric stage also finds it
                where = point_str(point)
                cx = Counterexample({getattr(s, "name", str(s)): str(v) for s, v in point.items()},
                                    c.lhs, c.rhs, "0", exact=True)
                return StepResult(Verdict.REFUTED, f"fails at {where}: lhs = {c.lhs}, rhs = "
                                  f"{c.rhs} (their difference is exactly 0)", "search",
                                  counterexample=cx, points=1)
            if c is None or c.status != FAILS:
                return None
            cx = Counterexample(dict(c.point), c.lhs, c.rhs, c.difference, exact=c.how == "exact")
            where = point_str(point)
            how = "exactly" if c.how == "exact" else \
                f"certified: the balls at {c.bits} bits exclude the relation"
            return StepResult(Verdict.REFUTED, f"fails at {where}: lhs = {c.lhs}, rhs = {c.rhs} "
                              f"({how})", "search", counterexample=cx, points=1)
        if not numeric_fallback:
            return None
        r = numeric_stage(lhs, rhs, relation, derivation, step, index, dps, 1, points=[point])
        if r.verdict is Verdict.REFUTED:
            return StepResult(r.verdict, r.detail, "search", r.counterexample, points=1)
        return None

    return decide
