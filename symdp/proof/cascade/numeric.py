"""The numeric stage of the check cascade (:mod:`symdp.proof.check`): both sides at two
precisions at seeded points from the hypotheses; a failure at the higher precision is
confirmed at twice that precision, and exactly when both sides are rational there, before it
is reported as REFUTED.  A point whose substitution or evaluation spends its budget
(:data:`~symdp.proof.budgets.POINT_WORK`, :data:`~symdp.proof.budgets.EVALUATION_WORK`,
counted in work) is skipped, and counted as skipped."""

from __future__ import annotations

import sympy as sp

from ..sampling import sample_points, seed_for
from ..budgets import CONFIRMATION_WORK, EVALUATION_WORK, POINT_WORK, WorkExhausted, work_limit
from ..verdict import StepResult, Verdict
from .common import (evaluate_at, exact_value, format_value, refutation,
                     relation_holds, relevant_conditions, sample_symbols)


def numeric_stage(lhs, rhs, relation, derivation, step, index, dps, count, points=None) -> StepResult:
    lo_dps, hi_dps = dps
    symbols = sample_symbols(derivation, step)
    conditions = relevant_conditions(derivation, step)
    if points is None:
        points = sample_points(symbols, derivation.hypotheses, conditions, count=count,
                               seed=seed_for(derivation.id, index))
    # constants such as 10**-80 need the precision that resolves them next to 1, and their
    # squares (exp(u) - 1 - u ~ u^2/2) twice that
    from .certified.points import magnitude_bits

    need = int(2 * magnitude_bits(lhs, rhs) / 3.32) + 20
    if need > lo_dps:
        lo_dps, hi_dps = max(lo_dps, need), max(hi_dps, 2 * need)
    if not points:
        return StepResult(Verdict.UNDECIDED, "numeric: no sample point satisfies the hypotheses "
                          "and side conditions", "numeric")
    checked, skipped = 0, 0
    worst = None
    for point in points:
        try:
            with work_limit(POINT_WORK):  # substitution can evaluate (ties in Piecewise)
                L0, R0 = lhs.xreplace(point), rhs.xreplace(point)
        except (ValueError, WorkExhausted):  # an object rejects the point (e.g. a parameter at a singular edge)
            skipped += 1
            continue
        results = []
        for d in (lo_dps, hi_dps):
            try:
                with work_limit(EVALUATION_WORK):
                    lv, rv = evaluate_at(L0, d), evaluate_at(R0, d)
            except (ValueError, ZeroDivisionError, ArithmeticError, WorkExhausted):
                lv = rv = None
            results.append((d, lv, rv))
        if any(lv is None or rv is None for _, lv, rv in results):
            skipped += 1
            continue
        _, lv, rv = results[-1]
        if any(v in (sp.oo, -sp.oo) for v in (lv, rv)):
            holds = {"=": lv == rv, "<=": lv <= rv, "<": lv < rv,
                     ">=": lv >= rv, ">": lv > rv}[relation]
            if not bool(holds):
                return refutation(point, lv, rv, relation, "numeric", hi_dps, checked)
            checked += 1
            continue
        oks = []
        for d, lv, rv in results:
            tol = sp.Float(10, d) ** (-(d - 10)) * max(sp.Float(1), abs(lv), abs(rv))
            oks.append(relation_holds(lv, rv, relation, tol))
        _, lv, rv = results[-1]
        if relation in ("<", ">"):
            tol = sp.Float(10, hi_dps) ** (-(hi_dps - 10)) * max(sp.Float(1), abs(lv), abs(rv))
            if abs(lv - rv) <= tol:
                exact = exact_value(L0 - R0)
                if exact is not None and exact == 0:
                    return refutation(point, lv, rv, relation, "numeric", hi_dps, checked,
                                       exact_values=(exact_value(L0), exact_value(R0)))
                skipped += 1  # equal to within precision: strictness cannot be seen here
                continue
        if all(oks):
            margin = (rv - lv) if relation in ("<=", "<") else (lv - rv) if relation in (">=", ">") \
                else -abs(lv - rv)
            if worst is None or margin < worst[0]:
                worst = (margin, point)
            checked += 1
            continue
        # confirm at a third, higher precision before refuting
        d3 = 2 * hi_dps
        try:
            with work_limit(CONFIRMATION_WORK):
                lv3, rv3 = evaluate_at(L0, d3), evaluate_at(R0, d3)
        except (ValueError, ZeroDivisionError, ArithmeticError, WorkExhausted):
            lv3 = rv3 = None
        if lv3 is None or rv3 is None:
            skipped += 1
            continue
        tol3 = sp.Float(10, d3) ** (-(d3 - 10)) * max(sp.Float(1), abs(lv3), abs(rv3))
        if relation_holds(lv3, rv3, relation, tol3):
            if oks[-1]:
                checked += 1
                continue
            skipped += 1  # the two higher precisions disagree: not counted either way
            continue
        exact_l, exact_r = exact_value(L0), exact_value(R0)
        return refutation(point, lv3, rv3, relation, "numeric", d3, checked,
                           exact_values=(exact_l, exact_r), also=hi_dps)
    if checked == 0:
        return StepResult(Verdict.UNDECIDED, f"numeric: no point could be evaluated "
                          f"({skipped} skipped)", "numeric")
    margin_text = None
    if worst is not None:
        margin_text = sp.Float(worst[0], 5).__str__()
    kind = "worst margin" if relation != "=" else "largest |lhs - rhs|"
    shown = margin_text if relation != "=" or worst is None else format_value(abs(worst[0]), 5)
    detail = (f"{checked} points agree at {lo_dps} and {hi_dps} digits"
              + (f", {kind} {shown}" if worst is not None else "")
              + (f"; {skipped} points skipped (not evaluable or equal to within precision)"
                 if skipped else ""))
    return StepResult(Verdict.NUMERIC_AT_POINTS, detail, "numeric", points=checked, worst_margin=margin_text)
