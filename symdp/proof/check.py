"""The check cascade: structural, symbolic, exact enumeration, ball arithmetic, numerics,
and a counterexample search before anything is reported as evidence at points.

Each step is checked by the first conclusive stage:

1. **structural** -- ``lhs == rhs`` as SymPy trees;
2. **symbolic** -- after ``doit()`` (closed forms of symdp objects), under the
   hypotheses turned into SymPy assumptions (:mod:`symdp.proof.assumptions`: only what
   each domain implies -- a closed end at 0 gives ``nonnegative``, never ``positive``):
   ``simplify(lhs - rhs) == 0`` (also after rewriting :math:`\\Phi` to ``erfc``); for
   inequalities, the sign of the simplified difference, also after reparametrising
   bounded parameters ``x = a + (b - a)/(1 + t)``, ``t >= 0``, and derivative-sign
   monotonicity one parameter at a time (:mod:`symdp.proof.cascade.monotone`);
3. **enumeration** -- when the step holds :class:`~symdp.core.enumerable.Enumerated`
   atoms and every free symbol has an enumeration range: every case, exactly;
4. **certified** -- ball arithmetic (python-flint's ``arb``, :mod:`symdp.proof.certified`):
   inequalities over the box of the hypotheses by branch and bound (CERTIFIED only when
   the boxes cover the whole stated domain), else both sides as balls at the numeric
   stage's points (CHECKED_AT_POINTS: evidence; an equality only after the precision is
   raised as far as the magnitudes call for); ``certify=False`` skips the stage;
5. **numeric** -- both sides at two precisions (default 30 and 60 digits, more when the
   step's constants are tiny) at seeded points from the hypotheses.  A pass needs
   agreement within ``10**-(dps - 10)`` (relative to the size of the sides) at *both*
   precisions.  A failure at the higher precision is confirmed at twice that
   precision, and re-checked exactly when both sides are rational at the point, before
   it is reported as REFUTED;
6. **counterexample search** -- before a step is reported as evidence at points (or left
   UNDECIDED), its worst point is looked for (:mod:`symdp.proof.cascade.search`: ends,
   simple rationals, tight constraints, far integers, local minima and the simple
   rationals near them), and a point where the relation fails is REFUTED.

A numeric pass is NUMERIC_AT_POINTS, never PROVED.  ``check_*`` functions report; they
never raise on a failing step (see :func:`assert_derivation` for a strict helper).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import sympy as sp

from ..core.errors import DerivationError
from .derivation import Derivation, Step
from ..core.enumerable import Enumerated, enumerate_atoms
from .sampling import conditions_on, constraint_closure, sample_points, seed_for
from .assumptions import assumption_symbols
from .timeouts import Timeout as _Timeout
from .timeouts import time_limit
from .verdict import Counterexample, StepResult, Verdict

DEFAULT_DPS = (30, 60)
DEFAULT_POINTS = 24
SYMBOLIC_SECONDS = 4.0
POINT_SECONDS = 3.0  # a point whose evaluation takes longer is skipped (and counted as skipped)
SEARCH_SECONDS = 10.0  # a safety net only: the search's own budget is a count of evaluations


# --------------------------------------------------------------------------- helpers

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


def _sign_holds(diff: sp.Expr, relation: str) -> bool | None:
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


def _relation_holds(lhs, rhs, relation: str, tol) -> bool:
    diff = lhs - rhs
    if relation == "=":
        return abs(diff) <= tol
    if relation in ("<=", "<"):
        return diff <= tol
    return diff >= -tol


def _fmt(value, digits=20) -> str:
    if isinstance(value, sp.Rational):
        return str(value)
    if isinstance(value, sp.Float):
        return sp.Float(value, digits).__str__()
    return str(value)


# --------------------------------------------------------------------------- stages

def _structural(step: Step) -> StepResult | None:
    if step.lhs == step.rhs:
        if step.relation in ("=", "<=", ">="):
            return StepResult(Verdict.PROVED, "both sides are the same expression", "structural")
    return None


def _symbolic(lhs, rhs, relation, hypotheses, seconds) -> tuple[StepResult | None, list]:
    tried = []
    mapping = assumption_symbols(hypotheses)
    L, R = lhs.xreplace(mapping), rhs.xreplace(mapping)
    if L.atoms(Enumerated) or R.atoms(Enumerated):
        tried.append("symbolic: skipped (enumerated quantities)")
        return None, tried
    diff = L - R
    from ..core.special import to_erfc  # local: keeps the proof package free of cycles
    from ..tradeoff.solve import phi_normal_form

    attempts = [
        ("simplify", lambda d: sp.simplify(d)),
        ("simplify after Phi -> erfc", lambda d: sp.simplify(to_erfc(d))),
        ("Phi identities + simplify", lambda d: sp.simplify(phi_normal_form(sp.expand(d)))),
        ("piecewise_fold + simplify", lambda d: sp.simplify(sp.piecewise_fold(to_erfc(d)))),
    ]
    simplified_forms = []
    for name, attempt in attempts:
        try:
            with time_limit(seconds):
                simplified = attempt(diff)
                verdict = _sign_holds(simplified, relation)
        except _Timeout:
            tried.append(f"{name}: timed out after {seconds:g} s")
            continue
        except Exception as exc:  # noqa: BLE001 - a stage that fails just does not decide
            tried.append(f"{name}: {type(exc).__name__}")
            continue
        if simplified == 0 and relation in ("<", ">"):
            cx = Counterexample({}, "lhs", "rhs", "0", exact=True)
            return StepResult(Verdict.REFUTED, "the sides are equal everywhere (their difference "
                              f"simplifies to 0, {name}), so the strict relation fails at every point",
                              "symbolic", counterexample=cx), tried
        if verdict is True:
            what = "difference simplifies to 0" if simplified == 0 else \
                f"sign of lhs - rhs decided under the hypotheses ({name})"
            return StepResult(Verdict.PROVED, what, "symbolic"), tried
        tried.append(f"{name}: undecided")
        simplified_forms.append(simplified)
    if relation != "=" and simplified_forms:
        # sign analysis after reparametrising bounded parameters
        try:
            with time_limit(seconds):
                decided = _sign_by_reparametrisation(simplified_forms[0], relation, hypotheses,
                                                     mapping)
        except _Timeout:
            tried.append("reparametrised sign analysis: timed out")
            decided = False
        except Exception as exc:  # noqa: BLE001
            tried.append(f"reparametrised sign analysis: {type(exc).__name__}")
            decided = False
        if decided:
            return StepResult(Verdict.PROVED, "sign decided after reparametrising bounded "
                              "parameters as a + (b - a)/(1 + t), t >= 0, and at the endpoints",
                              "symbolic"), tried
        tried.append("reparametrised sign analysis: undecided")
    if relation != "=" and len(lhs.free_symbols | rhs.free_symbols) <= 3:
        from .cascade.monotone import prove_by_monotonicity

        margin = (rhs - lhs) if relation in ("<", "<=") else (lhs - rhs)
        try:
            why = prove_by_monotonicity(margin, relation in ("<", ">"), hypotheses,
                                        deadline=time.perf_counter() + seconds)
        except Exception as exc:  # noqa: BLE001 - undecided, not wrong
            why = ""
            tried.append(f"monotonicity: {type(exc).__name__}")
        if why:
            return StepResult(Verdict.PROVED, f"derivative-sign monotonicity: {why}",
                              "symbolic"), tried
        tried.append("monotonicity: undecided")
    return None, tried


def _sign_by_reparametrisation(diff, relation, hypotheses, mapping) -> bool:
    substitutions, endpoints = {}, []
    for symbol, domain in hypotheses.items():
        dummy = mapping[symbol]
        if dummy not in diff.free_symbols or not isinstance(domain, sp.Interval):
            continue
        a, b = domain.start, domain.end
        if a.is_finite and b.is_finite:
            t = sp.Dummy("t", nonnegative=True)
            substitutions[dummy] = a + (b - a) / (1 + t)
            if not domain.left_open:
                endpoints.append((dummy, a))
    if not substitutions:
        return False
    re_diff = sp.simplify(diff.xreplace(substitutions))
    if _sign_holds(re_diff, relation) is not True:
        return False
    for dummy, value in endpoints:
        at_end = sp.simplify(diff.xreplace({dummy: value}))
        if _sign_holds(at_end, relation) is not True:
            return False
    return True


def _exact_value(expr):
    """The exact value of a closed numeric expression when it is rational, else None."""
    try:
        value = sp.simplify(expr)
    except Exception:  # noqa: BLE001
        return None
    return value if value.is_Rational else None


def _sample_symbols(derivation: Derivation, step: Step) -> set:
    """The step's symbols and those tied to them by the constraints (see
    :func:`~symdp.proof.sampling.constraint_closure`)."""
    conditions = tuple(derivation.constraints) + tuple(step.side_conditions)
    return constraint_closure(step.free_symbols, conditions, derivation.hypotheses)


def _relevant_conditions(derivation: Derivation, step: Step) -> tuple:
    """The derivation's constraints on the step's symbols and on those tied to them through
    other constraints, and the step's side conditions.  (A constraint on symbols unrelated
    to the step cannot restrict it, and would reject every sampled point; a constraint
    reaching the step through another parameter, ``x <= y <= z`` for a step in x and z,
    must be kept, with that parameter sampled too.)"""
    symbols = _sample_symbols(derivation, step)
    kept = conditions_on(symbols, derivation.constraints)
    return kept + tuple(step.side_conditions)


def _rational_or_none(e):
    """``e`` as an exact Rational (evaluated, then simplified), or None -- never a guess."""
    e = sp.sympify(e).doit()
    if e.is_Rational:
        return e
    try:
        e = sp.simplify(e)
    except Exception:  # noqa: BLE001
        return None
    return e if e.is_Rational else None


def _enumeration(lhs, rhs, relation, derivation: Derivation, step: Step) -> StepResult | None:
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
    tied = sorted((_sample_symbols(derivation, step) - set(symbols)) & set(ranges),
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
        L, R = _rational_or_none(L), _rational_or_none(R)
        if L is None or R is None:
            return StepResult(Verdict.UNDECIDED, f"enumeration: a side is not an exact rational "
                              f"at {_point_str(point)}", "enumeration")
        cases += 1
        holds = {"=": L == R, "<=": L <= R, "<": L < R, ">=": L >= R, ">": L > R}[relation]
        if not holds:
            cx = Counterexample({s.name: str(v) for s, v in point.items()}, str(L), str(R),
                                str(L - R), exact=True)
            return StepResult(Verdict.REFUTED, f"fails at {_point_str(point)}: lhs = {L}, rhs = {R}",
                              "enumeration", counterexample=cx, points=cases)
    if cases == 0:
        return StepResult(Verdict.UNDECIDED, "enumeration: no case satisfies the hypotheses",
                          "enumeration")
    spans = ", ".join(f"{s.name} in {min(ranges[s])}..{max(ranges[s])}" for s in symbols)
    return StepResult(Verdict.ENUMERATED, f"{cases} cases ({spans}), exact rationals",
                      "enumeration", points=cases)


def _point_str(point: dict) -> str:
    if not point:
        return "every point (no free parameters)"
    return ", ".join(f"{getattr(s, 'name', s)}={v}" for s, v in point.items())


def _evaluate(expr, dps):
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


def _numeric(lhs, rhs, relation, derivation, step, index, dps, count, points=None) -> StepResult:
    lo_dps, hi_dps = dps
    symbols = _sample_symbols(derivation, step)
    conditions = _relevant_conditions(derivation, step)
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
            with time_limit(POINT_SECONDS):  # substitution can evaluate (ties in Piecewise)
                L0, R0 = lhs.xreplace(point), rhs.xreplace(point)
        except (ValueError, _Timeout):  # an object rejects the point (e.g. a parameter at a singular edge)
            skipped += 1
            continue
        results = []
        for d in (lo_dps, hi_dps):
            try:
                with time_limit(POINT_SECONDS):
                    lv, rv = _evaluate(L0, d), _evaluate(R0, d)
            except (ValueError, ZeroDivisionError, ArithmeticError, _Timeout):
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
                return _refutation(point, lv, rv, relation, "numeric", hi_dps, checked)
            checked += 1
            continue
        oks = []
        for d, lv, rv in results:
            tol = sp.Float(10, d) ** (-(d - 10)) * max(sp.Float(1), abs(lv), abs(rv))
            oks.append(_relation_holds(lv, rv, relation, tol))
        _, lv, rv = results[-1]
        if relation in ("<", ">"):
            tol = sp.Float(10, hi_dps) ** (-(hi_dps - 10)) * max(sp.Float(1), abs(lv), abs(rv))
            if abs(lv - rv) <= tol:
                exact = _exact_value(L0 - R0)
                if exact is not None and exact == 0:
                    return _refutation(point, lv, rv, relation, "numeric", hi_dps, checked,
                                       exact_values=(_exact_value(L0), _exact_value(R0)))
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
            with time_limit(4 * POINT_SECONDS):
                lv3, rv3 = _evaluate(L0, d3), _evaluate(R0, d3)
        except (ValueError, ZeroDivisionError, ArithmeticError, _Timeout):
            lv3 = rv3 = None
        if lv3 is None or rv3 is None:
            skipped += 1
            continue
        tol3 = sp.Float(10, d3) ** (-(d3 - 10)) * max(sp.Float(1), abs(lv3), abs(rv3))
        if _relation_holds(lv3, rv3, relation, tol3):
            if oks[-1]:
                checked += 1
                continue
            skipped += 1  # the two higher precisions disagree: not counted either way
            continue
        exact_l, exact_r = _exact_value(L0), _exact_value(R0)
        return _refutation(point, lv3, rv3, relation, "numeric", d3, checked,
                           exact_values=(exact_l, exact_r), also=hi_dps)
    if checked == 0:
        return StepResult(Verdict.UNDECIDED, f"numeric: no point could be evaluated "
                          f"({skipped} skipped)", "numeric")
    margin_text = None
    if worst is not None:
        margin_text = sp.Float(worst[0], 5).__str__()
    kind = "worst margin" if relation != "=" else "largest |lhs - rhs|"
    shown = margin_text if relation != "=" or worst is None else _fmt(abs(worst[0]), 5)
    detail = (f"{checked} points agree at {lo_dps} and {hi_dps} digits"
              + (f", {kind} {shown}" if worst is not None else "")
              + (f"; {skipped} points skipped (not evaluable or equal to within precision)"
                 if skipped else ""))
    return StepResult(Verdict.NUMERIC_AT_POINTS, detail, "numeric", points=checked, worst_margin=margin_text)


def _refutation(point, lv, rv, relation, stage, dps_used, checked, exact_values=(None, None),
                also=None) -> StepResult:
    el, er = exact_values
    exact = el is not None and er is not None
    if exact:
        ok = {"=": el == er, "<=": el <= er, "<": el < er, ">=": el >= er, ">": el > er}[relation]
        if ok:  # the exact values say otherwise: never refute on rounding
            return StepResult(Verdict.UNDECIDED, f"numeric failure at {_point_str(point)} "
                              "not confirmed exactly", stage)
        lhs_s, rhs_s, diff_s = str(el), str(er), str(el - er)
    else:
        lhs_s, rhs_s = _fmt(lv, 25), _fmt(rv, 25)
        diff_s = _fmt(sp.Float(lv - rv, 25), 10) if lv not in (sp.oo, -sp.oo) else "inf"
    cx = Counterexample({getattr(s, "name", str(s)): str(v) for s, v in point.items()},
                        lhs_s, rhs_s, diff_s, exact=exact)
    how = "exactly" if exact else f"at {also} and {dps_used} digits" if also else f"at {dps_used} digits"
    detail = f"fails at {_point_str(point)}: lhs = {lhs_s}, rhs = {rhs_s} ({how})"
    return StepResult(Verdict.REFUTED, detail, stage, counterexample=cx, points=checked + 1)


# --------------------------------------------------------------------------- public API

def _search(lhs, rhs, step, derivation, index, dps, result) -> StepResult:
    """The counterexample search (:mod:`symdp.proof.cascade.search`) before a step is
    reported as evidence at points (or left undecided): REFUTED at the point it finds,
    else ``result`` with what was searched added to its detail."""
    from .cascade.search import search

    if lhs.atoms(Enumerated) or rhs.atoms(Enumerated):
        return result
    symbols = _sample_symbols(derivation, step)
    conditions = _relevant_conditions(derivation, step)
    decide = _decider(lhs, rhs, step.relation, derivation, step, index, dps, symbols)
    try:
        with time_limit(SEARCH_SECONDS):
            outcome = search(lhs, rhs, step.relation, symbols, derivation.hypotheses, conditions,
                             decide=decide, seed=seed_for(derivation.id, index, "search"))
    except _Timeout:
        return result
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


def _decider(lhs, rhs, relation, derivation, step, index, dps, symbols):
    """``decide(point)``: a REFUTED StepResult when the relation certainly fails at the exact
    point (exactly, by balls at rising precision, or by the numeric stage), else None."""
    ordered = sorted(symbols, key=lambda s: s.name)
    fns = None
    try:
        from ..numeric.balls import UNAVAILABLE
        from ..numeric.ball_compiler import compile_ball

        if not UNAVAILABLE:
            fns = (compile_ball(lhs, ordered), compile_ball(rhs, ordered))
    except Exception:  # noqa: BLE001 - unsupported: the numeric stage decides
        fns = None

    from .certified.points import exact_is_cheap
    from .sampling import _satisfied

    conditions = _relevant_conditions(derivation, step)

    def admissible(point) -> bool:
        """The point is in every domain and satisfies every condition, exactly: a
        refutation is never made outside the step's domain."""
        for s, v in point.items():
            if s not in derivation.hypotheses or \
                    derivation.hypotheses[s].contains(v) is not sp.true:
                return False
        return _satisfied(conditions, point)

    def decide(point):
        if not admissible(point):
            return None
        try:
            with time_limit(POINT_SECONDS):
                if exact_is_cheap(lhs, point) and exact_is_cheap(rhs, point):
                    lhs.xreplace(point), rhs.xreplace(point)  # an object may reject the point
                elif fns is None:
                    return None
        except (ValueError, _Timeout):
            return None
        if fns is not None:
            from .certified.points import FAILS, check_point
            from ..numeric.balls import arb

            try:
                with time_limit(2 * POINT_SECONDS):
                    c = check_point(fns[0], fns[1], lhs, rhs, relation, point, dps=max(dps),
                                    radius=arb(10) ** (-(max(dps) - 20)), deep=relation == "=")
            except (_Timeout, ValueError, ZeroDivisionError, ArithmeticError):
                return None
            if c is None or c.status != FAILS:
                return None
            cx = Counterexample(dict(c.point), c.lhs, c.rhs, c.difference, exact=c.how == "exact")
            where = _point_str(point)
            how = "exactly" if c.how == "exact" else \
                f"certified: the balls at {c.bits} bits exclude the relation"
            return StepResult(Verdict.REFUTED, f"fails at {where}: lhs = {c.lhs}, rhs = {c.rhs} "
                              f"({how})", "search", counterexample=cx, points=1)
        r = _numeric(lhs, rhs, relation, derivation, step, index, dps, 1, points=[point])
        if r.verdict is Verdict.REFUTED:
            return StepResult(r.verdict, r.detail, "search", r.counterexample, points=1)
        return None

    return decide


def _undefined_on_domain(step: Step, derivation: Derivation) -> StepResult | None:
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
                with time_limit(1.0):
                    for cond in narrowing.get(x, ()):
                        domain = domain.intersect(
                            sp.solve_univariate_inequality(cond, x, relational=False))
                    zeros = sp.solveset(base, x, domain)
                    if not isinstance(zeros, sp.FiniteSet) or not zeros:
                        continue
                    point = min(zeros, key=lambda z: (sp.count_ops(z), sp.default_sort_key(z)))
            except (_Timeout, Exception):  # noqa: BLE001 - cannot tell: leave it to the cascade
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


def check_step(step: Step, derivation: Derivation, index: int = 0, *, dps=DEFAULT_DPS,
               points: int = DEFAULT_POINTS, symbolic_seconds: float = SYMBOLIC_SECONDS,
               certify: bool = True, box=None, box_limit: int | None = None,
               search: bool = True) -> StepResult:
    """Run the cascade on one step of ``derivation``; never raises on a failing step.

    ``certify=False`` skips the CERTIFIED stage; ``box`` (a list of
    :class:`symdp.proof.certified.box.Range`) replaces the box taken from the hypotheses.
    ``search=False`` skips the counterexample search that otherwise runs before a step is
    reported as evidence at points (:mod:`symdp.proof.cascade.search`).
    """
    dps = tuple(sorted(dps))
    if len(dps) != 2 or dps[0] < 15 or dps[0] == dps[1]:
        raise DerivationError(f"dps must be two distinct precisions >= 15; got dps={dps}")
    result = _undefined_on_domain(step, derivation)
    if result is not None:
        return StepResult(result.verdict, result.detail, result.stage, expected=step.expect)
    result = _structural(step)
    tried = []
    if result is None:
        # closed forms under the hypotheses' assumptions (a conjugate of G_mu needs mu > 0)
        mapping = assumption_symbols(derivation.hypotheses)
        back = {v: k for k, v in mapping.items()}
        lhs = expand(step.lhs.xreplace(mapping)).xreplace(back)
        rhs = expand(step.rhs.xreplace(mapping)).xreplace(back)
        if "symbolic" in step.skip:
            tried.append("symbolic: skipped (the step says so)")
        elif step.side_conditions:
            tried.append("symbolic: skipped (side conditions restrict the domain)")
        else:
            result, more = _symbolic(lhs, rhs, step.relation, derivation.hypotheses,
                                     symbolic_seconds)
            tried += more
        if result is None:
            result = _enumeration(lhs, rhs, step.relation, derivation, step)
        cert_note, cert_record = "", None
        if "certified" in step.skip and certify:
            tried.append("certified: skipped (the step says so)")
        if certify and "certified" not in step.skip and \
                (result is None or result.verdict is Verdict.UNDECIDED):
            certified, cert_record, cert_note = _certified(lhs, rhs, step, derivation, index, dps,
                                                           points, box, box_limit)
            if certified is not None:
                result = certified
        if result is None or result.verdict is Verdict.UNDECIDED:
            numeric = _numeric(lhs, rhs, step.relation, derivation, step, index, dps, points)
            if cert_note:
                numeric = StepResult(numeric.verdict, f"{numeric.detail}; {cert_note}", numeric.stage,
                                     numeric.counterexample, worst_margin=numeric.worst_margin,
                                     points=numeric.points,
                                     extra={"certified": cert_record} if cert_record else {})
            if result is None or numeric.verdict is not Verdict.UNDECIDED:
                result = numeric
        if search and (result.verdict.is_evidence or result.verdict is Verdict.UNDECIDED):
            result = _search(lhs, rhs, step, derivation, index, dps, result)
    if result.verdict is Verdict.UNDECIDED and tried:
        result = StepResult(result.verdict, result.detail + "; tried " + "; ".join(tried),
                            result.stage)
    detail = result.detail
    if step.skip and result.stage not in ("structural",) and "the step skips" not in detail:
        detail += f"; the step skips the {' and '.join(step.skip)} stage" + \
            ("s" if len(step.skip) > 1 else "")
    result = StepResult(result.verdict, detail, result.stage, result.counterexample,
                        expected=step.expect, worst_margin=result.worst_margin,
                        points=result.points, extra={**result.extra, "tried": tried})
    from .obligations import with_object_assumptions  # objects' unproved choices (issue #12)

    return with_object_assumptions(result, step, derivation, dps=dps, points=points,
                                   symbolic_seconds=symbolic_seconds, certify=certify)


def _certified(lhs, rhs, step, derivation, index, dps, points, box, box_limit):
    """The CERTIFIED stage (:mod:`symdp.proof.certified.stage`): ``(result or None, record, note)``."""
    from .certified.stage import BOX_LIMIT, certified_stage

    try:
        return certified_stage(lhs, rhs, step.relation, derivation, step, index, dps=max(dps),
                               points=points, box=box,
                               box_limit=box_limit if box_limit is not None else BOX_LIMIT)
    except DerivationError:
        raise
    except Exception as exc:  # noqa: BLE001 - a crashing stage is named, never a verdict
        message = str(exc).splitlines()[0] if str(exc) else ""
        return None, {"skipped": f"{type(exc).__name__}: {message}"}, \
            f"CERTIFIED stage skipped: {type(exc).__name__}: {message}"


@dataclass(frozen=True)
class DerivationReport:
    """The checked steps of one derivation and what the chain concludes."""

    derivation: Derivation
    steps: tuple
    seconds: float = 0.0
    source: str = ""

    @property
    def ok(self) -> bool:
        """Every step's verdict matches its expectation."""
        return all(r.matches_expectation for r in self.steps)

    @property
    def findings(self) -> tuple:
        return tuple((i, r) for i, r in enumerate(self.steps) if r.is_finding)

    @property
    def conclusion_verdict(self) -> Verdict:
        """Weakest verdict of the steps when all are supported; UNDECIDED when the chain is broken."""
        if all(r.verdict.supports for r in self.steps):
            return min((r.verdict for r in self.steps), key=lambda v: v.strength)
        if not self.derivation.chained and all(r.matches_expectation for r in self.steps):
            holding = [r.verdict for r in self.steps if r.verdict.supports]
            return min(holding, key=lambda v: v.strength) if holding else Verdict.REFUTED
        return Verdict.UNDECIDED


def check_derivation(derivation: Derivation, *, dps=DEFAULT_DPS, points: int = DEFAULT_POINTS,
                     symbolic_seconds: float = SYMBOLIC_SECONDS, progress=None,
                     certify: bool = True, box=None, box_limit: int | None = None) -> DerivationReport:
    """Check every step of ``derivation``; ``progress(i, n)`` is called after each step.

    ``certify=False`` skips the CERTIFIED stage (``symdp check --no-certify``).
    """
    start = time.perf_counter()
    results = []
    for i, step in enumerate(derivation.steps):
        try:
            result = check_step(step, derivation, i, dps=dps, points=points,
                                symbolic_seconds=symbolic_seconds, certify=certify, box=box,
                                box_limit=box_limit)
        except DerivationError:
            raise
        except Exception as exc:  # noqa: BLE001 - a crashing step is reported, not hidden
            message = str(exc).splitlines()[0] if str(exc) else ""
            result = StepResult(Verdict.UNDECIDED, f"error while checking: {type(exc).__name__}: "
                                f"{message}", "error", expected=step.expect)
        results.append(result)
        if progress is not None:
            progress(i + 1, len(derivation.steps))
    return DerivationReport(derivation, tuple(results), time.perf_counter() - start)


def assert_derivation(derivation: Derivation, **kwargs) -> DerivationReport:
    """Strict helper: raise ``AssertionError`` naming the first step that misses its expectation."""
    report = check_derivation(derivation, **kwargs)
    for i, r in enumerate(report.steps):
        if not r.matches_expectation:
            raise AssertionError(f"{derivation.id}, step {i + 1}: {r.verdict.value} "
                                 f"(expected {r.expected.value if r.expected else 'to hold'}): {r.detail}")
    return report
