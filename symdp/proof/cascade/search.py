r"""Counterexample search: look for the worst point before a step is called evidence.

A step that is checked at sampled points only (CHECKED_AT_POINTS, NUMERIC_AT_POINTS) or
left UNDECIDED is first searched for a counterexample (issue #12, item 3).  The *margin*
of ``lhs REL rhs`` is :math:`m = rhs - lhs` for ``<``/``<=``, :math:`m = lhs - rhs` for
``>``/``>=`` (the claim is :math:`m \ge 0`, or :math:`m > 0`), and :math:`-|lhs - rhs|`
for ``=``.  Candidates, all exact rationals admissible for the domains and constraints:

1. **structured points** -- per parameter the closed ends of its domain, simple
   rationals ``p/q`` (``q <= 12``) inside it, the rational constants of the step
   (``Abs(x - 1/3)`` offers 1/3), large values :math:`10^3 \dots 10^{12}` on a half-line
   (integer parameters: also :math:`10^j \pm 1`), in every combination; and the points
   where a constraint is tight (``x + y = 1`` solved for one parameter);
2. **local minima** of the margin from the best candidates and seeded random starts
   (Nelder--Mead in the box, the margin evaluated as a ball's midpoint), then the
   simplest rationals near each minimiser (Stern--Brocot, at widths 1e-3 ... 1e-12) and
   its nearest integers for integer parameters.

The least-margin candidates are then *decided*: exactly when both sides are rationals
there, else with balls at rising precision (:func:`symdp.proof.cascade.certified.points.check_point`),
else by the numeric stage at two precisions.  A strict inequality that is an equality at
a rational point is REFUTED there.  Nothing here can make a step hold: a search that
finds nothing leaves the verdict as it was and says what was searched.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..sampling import is_integer_domain

GRID_LIMIT = 1500           # structured candidates evaluated per step, at most
WORK = 20000                # evaluations x expression nodes per step: the budget
DECIDE_LIMIT = 8            # least-margin candidates decided rigorously
STARTS = 5                  # local minimisations
LARGE = [10 ** j for j in (3, 4, 5, 6, 7, 8, 9, 10, 12)]


@dataclass
class SearchOutcome:
    """What the search found: a refuting point (with its check) or nothing."""

    refuted: object = None       # a StepResult (REFUTED) when a counterexample is found
    candidates: int = 0
    minimisations: int = 0
    smallest: tuple | None = None  # (margin as float, point) of the least margin seen
    note: str = ""

    def text(self) -> str:
        if self.note:
            return self.note
        where = ""
        if self.smallest is not None:
            m, point = self.smallest
            where = (f"; least margin {m:.3e} at " +
                     ", ".join(f"{s.name}={_short(v)}" for s, v in point.items()))
        return (f"counterexample search: {self.candidates} points (ends, simple rationals, "
                f"tight constraints, far values) and {self.minimisations} local minimisations, "
                f"no counterexample{where}")


def _short(v) -> str:
    v = sp.sympify(v)
    if v.is_Rational and v.q <= 10 ** 6 and abs(v.p) <= 10 ** 15:
        return str(v)
    return str(sp.N(v, 8))


# ------------------------------------------------------------------ per-parameter values

def _simple_rationals(lo: Fraction, hi: Fraction, max_q: int = 12) -> list:
    out = set()
    width = hi - lo
    if width <= 0:
        return [lo]
    for q in range(1, max_q + 1):
        for p in range(0, q + 1):
            out.add(lo + width * Fraction(p, q))
    # also simple rationals in absolute terms (1/3 inside [0, 5])
    for q in range(1, max_q + 1):
        start = math.ceil(lo * q)
        stop = math.floor(hi * q)
        if stop - start <= 60:
            out.update(Fraction(p, q) for p in range(start, stop + 1))
    return sorted(out)


def _frac(v) -> Fraction | None:
    v = sp.sympify(v)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    return None


def _in_exponent(symbol, *exprs) -> bool:
    """Is ``symbol`` in an exponent (``2**n``, ``x**k``)?  Exact values there are computed
    as integers, so far values stay moderate (10^4, not 10^12)."""
    return any(symbol in p.exp.free_symbols for e in exprs for p in sp.sympify(e).atoms(sp.Pow))


def _values(symbol, domain, constants, large=LARGE) -> list:
    """Exact candidate values of one parameter (SymPy Rationals inside its domain)."""
    lo, hi = domain.inf, domain.sup
    integer = is_integer_domain(domain)
    vals = set()
    if isinstance(domain, sp.FiniteSet):
        return [v for v in domain if v.is_Rational]
    flo = _frac(lo) if lo.is_finite else None
    fhi = _frac(hi) if hi.is_finite else None
    if integer:
        a = math.ceil(flo) if flo is not None else -20
        b = math.floor(fhi) if fhi is not None else None
        span = range(a, (b + 1) if b is not None and b - a <= 40 else a + 25)
        vals.update(span)
        if b is not None:
            vals.update(range(max(a, b - 5), b + 1))
            if b - a > 40:
                vals.update(int(a + (b - a) * Fraction(p, 8)) for p in range(9))
        for big in large:
            for v in (big - 1, big, big + 1, a + big):
                if b is None or v <= b:
                    vals.add(v)
        out = [sp.Integer(v) for v in vals if v >= a and (b is None or v <= b)]
    else:
        if flo is not None and fhi is not None:
            vals.update(_simple_rationals(flo, fhi))
        elif flo is not None:
            vals.update(flo + Fraction(p, q) for q in (1, 2, 3, 4, 10) for p in range(0, 3 * q + 1))
            vals.update(flo + Fraction(1, 10 ** j) for j in (2, 4, 8))
            vals.update(flo + big for big in large)
        elif fhi is not None:
            vals.update(fhi - Fraction(p, q) for q in (1, 2, 3, 4, 10) for p in range(0, 3 * q + 1))
            vals.update(fhi - big for big in large)
        else:
            vals.update(Fraction(p, q) for q in (1, 2, 3, 4) for p in range(-4 * q, 4 * q + 1))
            vals.update(sign * big for big in large[:4] for sign in (1, -1))
        for c in constants:
            vals.update((c, -c, 1 - c, 1 / c if c else c))
        out = [sp.Rational(v.numerator, v.denominator) for v in vals
               if (flo is None or v >= flo) and (fhi is None or v <= fhi)]
    return [v for v in out if domain.contains(v) is sp.true]


def rational_constants(*exprs) -> set:
    """The non-integer rational constants of ``exprs`` (denominators up to 10^6), as
    Fractions: the values a counterexample often takes (``Abs(x - 1/3) > 0`` at 1/3)."""
    out = set()
    for e in exprs:
        for a in sp.sympify(e).atoms(sp.Rational):
            if a.q != 1 and a.q <= 10 ** 6:
                out.add(Fraction(int(a.p), int(a.q)))
    return out


# ------------------------------------------------------------------ the search

class _Margin:
    """The margin at exact or float points: balls when the compiler supports the step, else
    SymPy's evalf (slower: fewer points)."""

    def __init__(self, lhs, rhs, relation, symbols):
        self.symbols = symbols
        self.relation = relation
        if relation in ("<", "<="):
            self.expr = rhs - lhs
        elif relation in (">", ">="):
            self.expr = lhs - rhs
        else:
            self.expr = lhs - rhs
        self.fn = None
        try:
            from ...numeric.balls import UNAVAILABLE
            from ...numeric.ball_compiler import compile_ball

            if not UNAVAILABLE:
                self.fn = compile_ball(self.expr, symbols)
        except Exception:  # noqa: BLE001 - unsupported: evalf below
            self.fn = None

    @property
    def fast(self) -> bool:
        return self.fn is not None

    def __call__(self, point: dict) -> float | None:
        """The margin (a float; for ``=`` minus the absolute difference) or None."""
        try:
            if self.fn is not None:
                from ...numeric.balls import point_ball, working_bits

                with working_bits(96):
                    env = {s: point_ball(v) for s, v in point.items()}
                    m = self.fn(env)
                    if not m.is_finite():
                        return None
                    value = float(m.mid())
            else:
                v = sp.N(self.expr.xreplace(point), 20)
                if not v.is_Number or v in (sp.nan, sp.oo, -sp.oo, sp.zoo):
                    return None
                value = float(v)
        except Exception:  # noqa: BLE001 - a point where a side is not defined
            return None
        if math.isnan(value):
            return None
        return -abs(value) if self.relation == "=" else value


def _admissible_fn(conditions, symbols):
    """Exact admissibility of a point for the conditions (balls first, SymPy for ties)."""
    compiled = []
    try:
        from ...numeric.ball_compiler import BallCondition

        compiled = [BallCondition(c, symbols) for c in conditions]
    except Exception:  # noqa: BLE001
        compiled = None

    def ok(point) -> bool:
        if compiled is not None:
            from ...numeric.balls import point_ball, working_bits

            with working_bits(128):
                env = {s: point_ball(v) for s, v in point.items()}
                states = [c(env) for c in compiled]
            if any(s is False for s in states):
                return False
            if all(s is True for s in states):
                return True
        for c in conditions:
            try:
                v = c.xreplace(point)
            except TypeError:  # a side undefined at the point (1/0 compared): not admissible
                return False
            if v is not sp.true:
                try:
                    v = sp.simplify(v)
                except Exception:  # noqa: BLE001
                    return False
                if v is not sp.true:
                    return False
        return True

    return ok


def _tight_points(conditions, symbols, values, rng, limit=200) -> list:
    """Points where a constraint holds with equality: solve it for one parameter (when it
    is linear in that parameter) at candidate values of the others."""
    out = []
    for c in conditions:
        if not isinstance(c, sp.core.relational.Relational):
            continue
        g = c.lhs - c.rhs
        for s in symbols:
            if s not in g.free_symbols or not g.is_polynomial(s) or sp.degree(g, s) != 1:
                continue
            try:
                sol = sp.solve(sp.Eq(g, 0), s)
            except Exception:  # noqa: BLE001
                continue
            if len(sol) != 1:
                continue
            others = [o for o in symbols if o != s]
            pools = [values[o] for o in others]
            combos = list(itertools.product(*pools)) if others else [()]
            rng.shuffle(combos)
            for combo in combos[:limit]:
                point = dict(zip(others, combo))
                v = sol[0].xreplace(point)
                if v.is_Rational:
                    point[s] = v
                    out.append(point)
    return out


def _stern_brocot(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational of least denominator in [lo, hi] (lo <= hi)."""
    if lo > hi:
        lo, hi = hi, lo
    fl = math.floor(lo)
    if fl == lo or math.floor(hi) > fl:
        return Fraction(math.ceil(lo)) if math.ceil(lo) <= hi else Fraction(fl)
    # lo, hi in (fl, fl + 1): recurse on reciprocals
    inner = _stern_brocot(1 / (hi - fl), 1 / (lo - fl))
    return fl + 1 / inner


def _nelder_mead(f, x0, lo, hi, rng, iters=60):
    """Minimise f over the box [lo, hi] (lists of floats) from x0; returns (x, f(x))."""
    d = len(x0)
    clamp = lambda v: [min(max(vi, a), b) for vi, a, b in zip(v, lo, hi)]  # noqa: E731

    def F(v):
        r = f(clamp(v))
        return math.inf if r is None else r

    scale = [max((b - a) * 0.1, 1e-6) if math.isfinite(b - a) else max(abs(v) * 0.5, 1.0)
             for v, a, b in zip(x0, lo, hi)]
    simplex = [list(x0)]
    for i in range(d):
        p = list(x0)
        p[i] += scale[i] * (1 if rng.random() < 0.5 else -1)
        simplex.append(clamp(p))
    values = [F(p) for p in simplex]
    for _ in range(iters):
        order = sorted(range(d + 1), key=lambda i: values[i])
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centroid = [sum(p[i] for p in simplex[:-1]) / d for i in range(d)]
        worst = simplex[-1]
        refl = clamp([c + (c - w) for c, w in zip(centroid, worst)])
        fr = F(refl)
        if fr < values[0]:
            exp_ = clamp([c + 2 * (c - w) for c, w in zip(centroid, worst)])
            fe = F(exp_)
            simplex[-1], values[-1] = (exp_, fe) if fe < fr else (refl, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = refl, fr
        else:
            contr = clamp([c + 0.5 * (w - c) for c, w in zip(centroid, worst)])
            fc = F(contr)
            if fc < values[-1]:
                simplex[-1], values[-1] = contr, fc
            else:
                best = simplex[0]
                simplex = [best] + [clamp([b + 0.5 * (p_i - b) for b, p_i in zip(best, p)])
                                    for p in simplex[1:]]
                values = [values[0]] + [F(p) for p in simplex[1:]]
    i = min(range(d + 1), key=lambda j: values[j])
    return simplex[i], values[i]


def budget(expr) -> int:
    """Margin evaluations allowed for one step: fewer for a larger expression, so that the
    search costs about the same for every step -- and is deterministic (a count, not a
    clock: the same step gets the same search on a busy machine)."""
    nodes = sum(1 for _ in sp.preorder_traversal(expr))
    return max(60, min(GRID_LIMIT, WORK // max(nodes, 1)))


def search(lhs, rhs, relation, symbols, hypotheses, conditions, *, decide,
           seed=0) -> SearchOutcome:
    """Search for a counterexample of ``lhs relation rhs``.

    ``decide(point)`` decides the relation rigorously at one exact point and returns a
    REFUTED StepResult or None; the search only proposes points.
    """
    symbols = sorted(symbols, key=lambda s: s.name)
    out = SearchOutcome()
    if not symbols:
        return out
    if any(s not in hypotheses for s in symbols):
        out.note = "counterexample search: a parameter without a domain"
        return out
    margin = _Margin(lhs, rhs, relation, symbols)
    if not margin.fast:
        # without a ball evaluation each point costs a SymPy evalf of the objects (seconds for
        # an envelope); the numeric stage's points, ends first, are all that is checked
        out.note = ("counterexample search: skipped (the sides have no ball evaluation; the "
                    "numeric stage's points, domain ends first, are what was checked)")
        return out
    admissible = _admissible_fn(conditions, symbols)
    constants = rational_constants(lhs, rhs, *conditions)
    rng = random.Random(seed)
    values = {s: _values(s, hypotheses[s], constants) for s in symbols}
    if any(not v for v in values.values()):
        out.note = "counterexample search: no candidate value for a parameter"
        return out
    limit = budget(margin.expr)
    per = max(2, int(limit ** (1.0 / len(symbols))))
    thinned = {}
    for s in symbols:
        v = sorted(values[s])
        if len(v) > per:  # keep the ends and the constants, thin the rest evenly
            keep = {v[0], v[-1]} | {c for c in v if _frac(c) in constants}
            step = len(v) / per
            keep |= {v[int(i * step)] for i in range(per)}
            v = sorted(keep)
        thinned[s] = v
    grid = [dict(zip(symbols, combo)) for combo in itertools.product(*(thinned[s] for s in symbols))]
    if len(grid) > limit:
        rng.shuffle(grid)
        grid = grid[:limit]
    grid += _tight_points(conditions, symbols, thinned, rng)
    scored = []
    seen = set()
    member = {}

    def in_domains(point) -> bool:
        """Every coordinate in its parameter's domain (a tight-constraint point solves for
        one parameter, which may land outside its domain)."""
        for s in symbols:
            key = (s, point[s])
            if key not in member:
                member[key] = hypotheses[s].contains(point[s]) is sp.true
            if not member[key]:
                return False
        return True

    def consider(point):
        key = tuple(point[s] for s in symbols)
        if key in seen:
            return None
        seen.add(key)
        if not in_domains(point) or not admissible(point):
            return None
        m = margin(point)
        out.candidates += 1
        if m is not None:
            scored.append((m, point))
            if out.smallest is None or m < out.smallest[0]:
                out.smallest = (m, point)
        return m

    for point in grid:
        consider(point)
    # decide the least margins found so far
    refuted = _decide_best(scored, relation, decide, DECIDE_LIMIT)
    if refuted is not None:
        out.refuted = refuted
        return out
    # local minimisation from the best candidates and random starts
    lo_b, hi_b, integer = [], [], []
    for s in symbols:
        d = hypotheses[s]
        lo_b.append(float(d.inf) if d.inf.is_finite else -1e12)
        hi_b.append(float(d.sup) if d.sup.is_finite else 1e12)
        integer.append(is_integer_domain(d))

    def f(v):
        point = {s: sp.Rational(Fraction(vi).limit_denominator(10 ** 15))
                 if not k else sp.Integer(round(vi)) for s, vi, k in zip(symbols, v, integer)}
        if not admissible(point):
            return None
        return margin(point)

    starts = [[float(p[s]) for s in symbols] for _, p in sorted(scored, key=lambda t: t[0])[:3]]
    while len(starts) < STARTS:
        starts.append([rng.uniform(a, min(b, a + 10)) if math.isfinite(a) else rng.uniform(-10, 10)
                       for a, b in zip(lo_b, hi_b)])
    minima = []
    iters = max(10, min(60, limit // (STARTS * (len(symbols) + 2))))
    for x0 in starts:
        x, fx = _nelder_mead(f, x0, lo_b, hi_b, rng, iters=iters)
        out.minimisations += 1
        if math.isfinite(fx):
            minima.append((fx, x))
    minima.sort(key=lambda t: t[0])
    near = []
    for fx, x in minima[:3]:
        for width in (1e-3, 1e-6, 1e-9, 1e-12):
            point = {}
            for s, xi, k, a, b in zip(symbols, x, integer, lo_b, hi_b):
                if k:
                    point[s] = sp.Integer(round(xi))
                else:
                    q = _stern_brocot(Fraction(xi - width), Fraction(xi + width))
                    q = min(max(q, Fraction(a)), Fraction(b))
                    point[s] = sp.Rational(q.numerator, q.denominator)
            near.append(point)
    scored_near = []
    for point in near:
        m = consider(point)
        if m is not None:
            scored_near.append((m, point))
    refuted = _decide_best(scored_near, relation, decide, DECIDE_LIMIT)
    if refuted is not None:
        out.refuted = refuted
    return out


def _decide_best(scored, relation, decide, limit):
    """Decide the candidates with the least margins (and every one that looks failing)."""
    scored = sorted(scored, key=lambda t: t[0])
    if relation == "=":  # the largest differences, each decided at rising precision
        limit = 3
        looks_failing = []
    else:
        looks_failing = [p for m, p in scored if (m <= 0 if relation in ("<", ">") else m < 0)]
    tried = 0
    for point in looks_failing[:limit] + [p for _, p in scored[:limit]]:
        if tried >= 2 * limit:
            break
        tried += 1
        result = decide(point)
        if result is not None:
            return result
    return None
