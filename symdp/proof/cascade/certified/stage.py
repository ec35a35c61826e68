r"""The CERTIFIED stage of the check cascade (between enumeration and numerics).

For a step ``lhs REL rhs`` whose sides the ball evaluator supports:

1. **over a box** (inequalities in one to three parameters whose domains are
   intervals or integer ranges): first the symbolic reductions of
   :mod:`symdp.proof.cascade.certified.reduce` (monotone maps applied to both sides, which
   remove e.g. an exponent k for every k at once), then branch and bound over
   the box of the domains (:mod:`symdp.proof.cascade.certified.box`).  Certified: CERTIFIED
   over the box; a counterexample box: REFUTED; otherwise the resisting
   sub-box is named and the stage goes on to
2. **at points**: the numeric stage's seeded points, both sides as balls
   (:mod:`symdp.proof.cascade.certified.points`).  Every point decided: CERTIFIED at points
   (the detail says that points are not all parameter values); a certified
   failure: REFUTED; otherwise the stage does not decide and numerics run.

A node the evaluator does not support ends the stage at once with the note
``CERTIFIED stage skipped: unsupported <node>`` -- never a float fallback.

A proposer: where the stage believes the step holds over the whole domain it returns a
certificate (:mod:`symdp.proof.certificates`: boxes, a finite set, a symbolic reduction) in
the result's place, which :func:`symdp.proof.kernel.accept` accepts or refuses.
"""

from __future__ import annotations

import sympy as sp

from ...certificates import BoxCertificate, FiniteCertificate, SymbolicCertificate, fraction
from ...sampling import is_integer_domain, sample_points, seed_for
from ...verdict import Counterexample, StepResult, Verdict
from ....numeric.balls import UNAVAILABLE

BOX_LIMIT = 250   # sub-boxes per step in the cascade (symdp step --certify raises it)
BOX_BITS = 80


def _skip(reason: str):
    return None, {"skipped": reason}, f"CERTIFIED stage skipped: {reason}"


def certified_stage(lhs, rhs, relation, derivation, step, index, *, dps: int, points: int,
                    box=None, box_limit: int = BOX_LIMIT):
    """Run the stage; return ``(result, certificate or None, record or None, note)``.

    ``record`` is the JSON-able account of what was tried (``box``, ``points``,
    ``skipped``); ``note`` is one line for the detail when the stage did not decide.
    ``box`` overrides the box taken from the hypotheses (a list of Ranges).
    """
    if UNAVAILABLE:
        return _skip(UNAVAILABLE)
    from ....numeric.ball_compiler import UnsupportedExpression, compile_ball

    from ...sampling import conditions_on, constraint_closure

    all_conditions = tuple(derivation.constraints) + tuple(step.side_conditions)
    # the step's symbols and those tied to them through constraints (x <= y <= z for a step
    # in x and z): sampled together, so that every point is admissible
    symbols = sorted(constraint_closure(step.free_symbols | lhs.free_symbols | rhs.free_symbols,
                                        all_conditions, derivation.hypotheses),
                     key=lambda s: s.name)
    try:
        lhs_fn = compile_ball(lhs, symbols)
        rhs_fn = compile_ball(rhs, symbols)
    except UnsupportedExpression as exc:
        return _skip(str(exc))
    record = {}
    notes = []
    conditions = conditions_on(symbols, all_conditions)
    if relation != "=":
        boxed = _box_stage(lhs, rhs, relation, derivation, symbols, conditions, box, box_limit)
        if boxed is not None:
            result, box_record, note = boxed
            record["box"] = box_record
            if result is not None:
                return result, record, ""
            notes.append(note)
    from .points import certify_at_points

    whole = _finite_domain(symbols, derivation.hypotheses, conditions) if symbols else None
    if whole is not None:
        pts = whole
    else:
        pts = sample_points(symbols, derivation.hypotheses, conditions, count=points,
                            seed=seed_for(derivation.id, index))
    if not pts:
        return None, record, "; ".join(notes + ["CERTIFIED at points: no sample point"])
    outcome = certify_at_points(lhs, rhs, relation, pts, lhs_fn=lhs_fn, rhs_fn=rhs_fn, dps=dps)
    record["points"] = _points_record(outcome)
    if whole is not None and outcome.certified and all(
            c.status == "holds" and (c.how == "exact" or (relation != "=" and c.how == "balls"))
            for c in outcome.checks):
        # a finite domain, every admissible point of it decided: the whole stated domain
        exact = sum(1 for c in outcome.checks if c.how == "exact")
        detail = (f"the domain is finite and enumerated whole: all {len(whole)} admissible "
                  f"points decided" + (" exactly" if exact == len(whole) else
                                       f" by ball arithmetic ({exact} exactly)"))
        values = tuple((s, tuple(sorted(derivation.hypotheses[s]))) for s in symbols)
        return FiniteCertificate(lhs, rhs, relation, "certified", values=values,
                                 cases=len(whole), how="exact" if exact == len(whole) else "balls",
                                 detail=detail), record, ""
    failure = outcome.failure
    if failure is not None:
        cx = Counterexample(dict(failure.point), failure.lhs, failure.rhs, failure.difference,
                            exact=failure.how == "exact")
        where = ", ".join(f"{k}={v}" for k, v in failure.point.items()) or "the point"
        how = "exactly" if failure.how == "exact" else \
            f"certified: the balls at {failure.bits} bits exclude the relation"
        detail = f"fails at {where}: lhs = {failure.lhs}, rhs = {failure.rhs} ({how})"
        return StepResult(Verdict.REFUTED, detail, "certified", counterexample=cx,
                          points=len(outcome.checks), extra={"certified": record}), record, ""
    if outcome.certified and not symbols and len(outcome.checks) == 1 and \
            outcome.checks[0].how in ("balls", "exact") and \
            (relation != "=" or outcome.checks[0].how == "exact"):
        # no parameters: the one point is the whole domain, and the balls (or the exact
        # values) decide the closed statement -- an equality only when exact, never to a radius
        c = outcome.checks[0]
        how = "exactly" if c.how == "exact" else f"by ball arithmetic at {c.bits} bits"
        return FiniteCertificate(lhs, rhs, relation, "certified", values=(), cases=1, how=c.how,
                                 detail=f"no parameters: the closed statement is decided "
                                 f"{how} (lhs = {c.lhs}, rhs = {c.rhs})"), record, ""
    if outcome.certified:
        from .points import describe

        detail = describe(outcome)
        if notes:
            detail += "; " + "; ".join(notes)
        return StepResult(Verdict.CHECKED_AT_POINTS, detail, "certified", points=outcome.count("holds"),
                          worst_margin=record["points"].get("smallest_margin"),
                          extra={"certified": record}), record, ""
    undecided = [c for c in outcome.checks if c.status == "undecided"]
    where = ", ".join(f"{k}={v}" for k, v in undecided[0].point.items()) if undecided else ""
    notes.append(f"CERTIFIED at points: {outcome.count('holds')} of {len(outcome.checks)} points "
                 f"decided; the balls do not decide at {where}")
    return None, record, "; ".join(notes)


FINITE_LIMIT = 64   # a finite domain with at most this many points is checked whole


def _finite_domain(symbols, hypotheses, conditions):
    """Every admissible point of a finite domain (each parameter's domain a finite set of
    rationals, at most :data:`FINITE_LIMIT` points), or None.  None also when a condition
    is not decided exactly at some point: "whole" must mean whole."""
    import itertools

    domains = [hypotheses.get(s) for s in symbols]
    # a finite integer range (8 <= n <= 15) is a finite set too
    domains = [sp.FiniteSet(*d) if isinstance(d, sp.Range) and d.size.is_finite and
               d.size <= FINITE_LIMIT else d for d in domains]
    if any(not isinstance(d, sp.FiniteSet) or not all(v.is_Rational for v in d) for d in domains):
        return None
    size = 1
    for d in domains:
        size *= len(d)
    if size > FINITE_LIMIT:
        return None
    points = []
    for combo in itertools.product(*[sorted(d) for d in domains]):
        point = dict(zip(symbols, combo))
        admissible = True
        for c in conditions:
            v = c.xreplace(point)
            if v not in (sp.true, sp.false):
                try:
                    v = sp.simplify(v)
                except Exception:  # noqa: BLE001
                    return None
            if v is sp.false:
                admissible = False
            elif v is not sp.true:
                return None
        if admissible:
            points.append(point)
    return points


def _points_record(outcome) -> dict:
    from ....numeric.balls import fmt_bound

    held = [c for c in outcome.checks if c.status == "holds"]
    rec = {"points": len(outcome.checks), "certified": len(held),
           "exact": sum(1 for c in held if c.how == "exact"),
           "not_evaluable": outcome.count("not finite"),
           "undecided": outcome.count("undecided"), "dps": outcome.dps}
    if outcome.relation == "=":
        bounds = [c.bound for c in held if c.bound is not None]
        rec["radius"] = fmt_bound(outcome.radius)
        rec["largest_difference_bound"] = (fmt_bound(max(bounds, key=lambda b: float(b.upper().mid())))
                                           if bounds else None)
    else:
        margins = [c.margin for c in held if c.margin is not None]
        rec["smallest_margin"] = (f"{float(min(margins, key=lambda m: float(m.mid())).mid()):.4e}"
                                  if margins else None)
    return rec


# ------------------------------------------------------------------ the box

def box_from_hypotheses(symbols, hypotheses) -> list | None:
    """The Ranges of the hypotheses' domains (None if a domain is not an interval/range)."""
    from .box import range_from_domain

    out = []
    for s in symbols:
        domain = hypotheses.get(s)
        if domain is None:
            return None
        r = range_from_domain(s, domain, is_integer_domain(domain))
        if r is None:
            return None
        out.append(r)
    return out


def _box_stage(lhs, rhs, relation, derivation, symbols, conditions, box, box_limit):
    """``(result or None, record, note)``, or None when no box applies."""
    from ....core.errors import InvalidParameterError
    from .box import MAX_DIMENSION, certify_box
    from ....numeric.ball_compiler import UnsupportedExpression
    from .reduce import reduce_relation

    if not symbols:
        return None
    hyp = dict(derivation.hypotheses)
    reduction = reduce_relation(lhs, rhs, relation, hyp, conditions)
    if reduction.proved and not reduction.obligations:  # a symbolic proof, whatever the box
        record = {"reduction": reduction.as_dict()}
        return (_reduction_certificate(lhs, rhs, relation, reduction), record, "")
    if len(symbols) > MAX_DIMENSION and box is None:
        return None
    ranges = box if box is not None else box_from_hypotheses(symbols, derivation.hypotheses)
    if ranges is None:
        return None
    L, R, rel = reduction.lhs, reduction.rhs, reduction.relation
    if reduction.proved is not None:  # the reduced relation is decided symbolically
        record = {"reduction": reduction.as_dict()}
        if reduction.proved:
            if reduction.obligations:
                pass  # obligations are certified below, with the box
            else:
                return (_reduction_certificate(lhs, rhs, relation, reduction), record, "")
    from ...sampling import constraint_closure

    used = set(L.free_symbols) | set(R.free_symbols)
    for o in reduction.obligations:
        used |= o.lhs.free_symbols | o.rhs.free_symbols
    used = constraint_closure(used, conditions, hyp)
    if box is None:
        ranges = [r for r in ranges if r.symbol in used]
    if len(ranges) > MAX_DIMENSION:
        return None
    domains = {r.symbol: hyp[r.symbol] for r in ranges if r.symbol in hyp}
    label = "the reduced relation" if reduction.steps else "the relation"
    claims = [(L, rel, R, label)] if not (reduction.proved and not reduction.obligations) \
        else []
    claims += [(o.lhs, o.relation, o.rhs, o.why) for o in reduction.obligations]
    results = []
    for cl, crel, cr, why in claims:
        # a claim's own symbols and those the constraints tie to them: a search without
        # x <= y, y <= z for a claim in x and z would refute it at z < x
        needed = constraint_closure(cl.free_symbols | cr.free_symbols, conditions, hyp)
        sub_ranges = [r for r in ranges if r.symbol in needed or box is not None]
        if not sub_ranges:
            continue
        try:
            res = certify_box(cl, cr, crel, sub_ranges, constraints=_relevant(conditions, sub_ranges),
                              domains=domains, max_boxes=box_limit, bits=BOX_BITS)
        except UnsupportedExpression as exc:
            return None, {"skipped": str(exc)}, f"box: unsupported {exc.name}"
        except InvalidParameterError as exc:
            return None, {"skipped": str(exc)}, f"box: {exc}"
        res.claim = (cl, cr, crel)   # read by _box_certificate (a tail's fact)
        results.append((why, res))
        if res.status != "certified":
            break
    record = {"reduction": reduction.as_dict() if reduction.steps else None,
              "searches": [dict(r.as_dict(), claim=why) for why, r in results]}
    main = results[0][1] if results else None
    uncovered = _uncovered(ranges, hyp) if box is not None else ""
    if results and all(r.status == "certified" for _, r in results) and uncovered:
        # a box given by hand that misses part of the domain certifies that box only
        return None, record, (f"box: certified over the given box only, which does not cover "
                              f"the domain ({uncovered})")
    if results and all(r.status == "certified" for _, r in results):
        return (_box_certificate(lhs, rhs, relation, reduction, results, main, hyp), record, "")
    if not results:
        return None
    why, bad = next((w, r) for w, r in results if r.status != "certified")
    if bad.status == "refuted" and why == "the relation":
        cx_box = bad.counterexample
        cx = Counterexample(dict(cx_box["point"]), cx_box["lhs"], cx_box["rhs"], cx_box["margin"])
        where = ", ".join(f"{k} in [{a}, {b}]" for k, (a, b) in cx_box["box"].items())
        detail = (f"fails at every point of the box {where} (certified: margin ball "
                  f"{cx_box['margin']} {'<=' if rel in ('<', '>') else '<'} 0); e.g. at " +
                  ", ".join(f"{k}={v}" for k, v in cx_box["point"].items()))
        return (StepResult(Verdict.REFUTED, detail, "certified", counterexample=cx,
                           extra={"certified": {"box": record}}), record, "")
    resist = bad.resisting[0] if bad.resisting else {}
    where = ", ".join(f"{k} in [{a}, {b}]" for k, (a, b) in resist.items())
    note = (f"box undecided ({why}): the sub-box {where} resists after {bad.sub_boxes} sub-boxes"
            + (f" ({bad.reason})" if bad.reason else "")
            + (f"; certified on {bad.certified_part}" if bad.certified_part else ""))
    if bad.status == "refuted":
        note = f"box: {why} fails on a sub-box ({bad.counterexample['box']})"
    return None, record, note


def _reduction_certificate(lhs, rhs, relation, reduction) -> SymbolicCertificate:
    """The reductions and the sign analysis are not checked by the kernel (``reduced``): it
    confirms the sign of the original margin itself."""
    return SymbolicCertificate(lhs, rhs, relation, "symbolic", "symbolic: " + reduction.summary(),
                               reduced=True)


def _box_certificate(lhs, rhs, relation, reduction, results, main, hypotheses) -> BoxCertificate:
    """The boxes searched (per claim: the relation, or the reduced relation and its
    conditions), as exact ranges of their variables with their changes of variables; a tail
    argument for an integer range split at N0 is a fact (the claim's margin over n >= N0)
    for the kernel to confirm."""
    import re

    from ...certificates import Domain, margin_of, sign_fact

    coordinates, tails, facts = {}, [], []
    # the relation the main search is about, when the reduction changed it
    for why, r in results:
        for c in r.coordinates:
            key = c.range.symbol
            if key not in coordinates:
                coordinates[key] = (key, fraction(c.lo), fraction(c.hi), c.integer, c.transform)
        m = re.search(r"(\w+) >= (\d+) symbolic:", r.tail or "")
        if m:
            n = next(q.symbol for q in r.box if q.symbol.name == m.group(1))
            start = int(m.group(2))
            tails.append((n, start, r.tail))
            claim_lhs, claim_rhs, claim_rel = r.claim
            tail_domain = dict(hypotheses)
            tail_domain[n] = tail_domain[n].intersect(sp.Range(start, sp.oo))
            facts.append(sign_fact(margin_of(claim_lhs, claim_rhs, claim_rel),
                                   claim_rel in ("<", ">"), "tail argument: " + r.tail,
                                   Domain.of(tail_domain)))
    return BoxCertificate(lhs, rhs, relation, "certified", coordinates=tuple(coordinates.values()),
                          tails=tuple(tails), bits=BOX_BITS,
                          sub_boxes=sum(r.sub_boxes for _, r in results),
                          monotone=sum(r.monotone for _, r in results),
                          smallest_margin=_margin(main),
                          pieces=tuple(p for _, r in results for p in r.pieces),
                          facts=tuple(facts), detail=_box_detail(reduction, results),
                          searches=tuple(q for _, r in results for q in r.searches),
                          reduction=tuple(reduction.moves))


def _uncovered(ranges, hypotheses) -> str:
    """"" when the ranges contain every parameter's whole domain, else the first parameter
    whose domain sticks out (CERTIFIED means: over the whole stated domain)."""
    for r in ranges:
        domain = hypotheses.get(r.symbol)
        if domain is None:
            continue
        hull = sp.Interval(r.lo, r.hi)
        if not (domain.is_subset(hull) is True):
            return f"{r.symbol.name} in {domain} is not inside [{r.lo}, {r.hi}]"
    return ""


def _relevant(conditions, ranges):
    names = {r.symbol for r in ranges}
    return [c for c in conditions if c.free_symbols <= names]


def _margin(res):
    return None if res is None or res.smallest_margin is None else res.as_dict()["smallest_margin"]


def _box_detail(reduction, results) -> str:
    parts = []
    if reduction.steps:
        parts.append("reduced symbolically (" + reduction.summary() + ")")
    for why, r in results:
        ranges = "; ".join(c.describe() for c in r.coordinates)
        if r.tail:
            ranges = "; ".join(q.text() for q in r.box) + f" ({r.tail})"
        margin = r.as_dict()["smallest_margin"]
        cuts = (f" cut at the exact breakpoints {', '.join(r.pieces)} (each piece by its "
                f"branch, each cut exactly)" if r.pieces else "")
        parts.append(f"{why} over {ranges}{cuts}: {r.sub_boxes} sub-boxes"
                     + (f" ({r.monotone} by monotonicity)" if r.monotone else "")
                     + (f", smallest margin {margin}" if margin is not None else ""))
    return "over the box: " + "; ".join(parts)
