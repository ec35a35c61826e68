r"""CERTIFIED over a box: branch and bound with ball evaluation of the margin.

(One module of about 730 lines on purpose: the search, its cutting at exact piece breakpoints
and its hand-off to a tail argument share the private ``_Problem`` state and are one
algorithm.  What stands apart has its own module: ranges (ranges.py), reductions
(reduce.py), tail arguments (tail.py), breakpoints (pieces.py).)

For an inequality ``lhs REL rhs`` the *margin* is :math:`m = rhs - lhs` for
``<=``/``<`` and :math:`m = lhs - rhs` for ``>=``/``>``; the claim is
:math:`m \ge 0` (or :math:`m > 0`) at every point of a box
:math:`B = \prod_i [a_i, b_i]` (up to three parameters) satisfying the
constraints.  A ball evaluation of m over a sub-box :math:`B'` (its parameters
as balls) contains every value :math:`m(x), x \in B'` (Johansson, Arb, IEEE
Trans. Computers 66(8), 2017), so each sub-box is

* **decided** when the ball of m is :math:`\ge 0` (``> 0`` for strict);
* **vacuous** when a constraint is certainly false on it;
* a **counterexample box** when the ball of m is certainly negative and every
  constraint certainly holds on it: the relation fails at *every* point of it;
* **split** in two along its widest coordinate otherwise, down to a limit on
  the number of sub-boxes and on their width; a sub-box left at the limit
  *resists*, and the verdict is UNDECIDED naming it.

*Monotonicity test.* When :math:`\partial m / \partial x_i` has a certified sign
on a sub-box, m is monotone in :math:`x_i` there, so its minimum over the
sub-box lies on the face where :math:`x_i` is at its worst end; the sub-box is
replaced by that face (Hansen & Walster, *Global Optimization Using Interval
Analysis*, 2nd ed., 2004, Sec. 12.4).  This is what decides relations that are
tight on an edge of the box (e.g. :math:`m = 0` at p = 0).  It is used only for
expressions without Piecewise, Max, Min, Abs or implicit inverses, where SymPy's
derivative is the derivative everywhere on the sub-box.

*Integer parameters* are split at integers and a sub-box narrower than 1 in an
integer coordinate is snapped to the integers it contains (none: vacuous).

*Unbounded ranges* are mapped to bounded ones by a change of variables, stated
in the result: :math:`x = a + t/(1-t)` for :math:`[a, \infty)` and
:math:`x = b - t/(1-t)` for :math:`(-\infty, b]`, :math:`t \in [0, 1)` (the
expression is simplified after the substitution, so that a limit at t = 1 can
be seen by a ball).  A parameter infinite at both ends has no transformation:
:class:`~symdp.core.errors.InvalidParameterError`.
"""

from __future__ import annotations

import collections
import dataclasses
import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from ....core.errors import InvalidParameterError
from ....numeric.balls import arb, fmpq, hull, working_bits
from ....numeric.ball_compiler import BallCondition, UnsupportedExpression, compile_ball
from .ranges import Range

DEFAULT_MAX_BOXES = 3000
DEFAULT_BITS = 96
MIN_WIDTH = Fraction(1, 2 ** 40)
MAX_DIMENSION = 3


# ------------------------------------------------------------------ boxes

def range_from_domain(symbol, domain: sp.Set, integer: bool) -> Range | None:
    """The closure of an Interval/Range domain as a :class:`Range` (None for other sets: a
    union with holes is never replaced by its hull, where a point of a hole would refute)."""
    if isinstance(domain, (sp.Interval, sp.Range)):
        lo, hi = domain.inf, domain.sup
        if not (lo.is_number and hi.is_number):
            return None
        if lo == -sp.oo and hi == sp.oo:
            return None
        return Range(symbol, lo, hi, integer=integer)
    return None


# ------------------------------------------------------------------ changes of variables

@dataclass(frozen=True)
class Coordinate:
    """How a box coordinate ``t`` in ``[lo, hi]`` (exact Fractions) maps to a parameter."""

    range: Range
    variable: sp.Symbol
    lo: Fraction
    hi: Fraction
    transform: sp.Expr | None = None  # parameter = transform(variable); None: the identity
    integer: bool = False              # split and snap at integers (identity coordinates only)

    def to_parameter(self, t: Fraction):
        if self.transform is None:
            return sp.Rational(t.numerator, t.denominator)
        if t == 1 and not self.range.bounded:
            return sp.oo if self.range.hi == sp.oo else -sp.oo
        return self.transform.subs(self.variable, sp.Rational(t.numerator, t.denominator))

    def describe(self) -> str:
        if self.transform is None:
            return self.range.text()
        end = "1]" if self.range.bounded else "1)"
        return (f"{self.range.text()} via {self.range.symbol.name} = {sp.sstr(self.transform)}, "
                f"{self.variable.name} in [0, {end}")


def coordinates(box) -> list[Coordinate]:
    out = []
    for r in box:
        if r.bounded and not (r.lo.is_Rational and r.hi.is_Rational) and not r.integer:
            # exact irrational ends (a breakpoint of a Piecewise): x = lo + (hi - lo) t
            t = sp.Symbol(f"t_{r.symbol.name}", nonnegative=True)
            out.append(Coordinate(r, t, Fraction(0), Fraction(1), r.lo + (r.hi - r.lo) * t, False))
            continue
        if r.bounded:
            if r.integer:   # the integers of [lo, hi], exactly (an irrational end too)
                lo, hi = Fraction(int(sp.ceiling(r.lo))), Fraction(int(sp.floor(r.hi)))
            else:
                lo, hi = _to_fraction(r.lo), _to_fraction(r.hi)
            out.append(Coordinate(r, r.symbol, lo, hi, None, r.integer))
            continue
        t = sp.Symbol(f"t_{r.symbol.name}", nonnegative=True)
        if r.hi == sp.oo:
            a = sp.ceiling(r.lo) if r.integer else r.lo
            transform = a + t / (1 - t)
        else:
            transform = r.hi - t / (1 - t)
        out.append(Coordinate(r, t, Fraction(0), Fraction(1), transform, False))
    return out


def _to_fraction(x) -> Fraction:
    if not x.is_Rational:
        raise InvalidParameterError(f"box bounds must be rational; got {x}")
    return Fraction(int(x.p), int(x.q))


def _ceil(q: Fraction) -> int:
    return -((-q.numerator) // q.denominator)


def _floor(q: Fraction) -> int:
    return q.numerator // q.denominator


# ------------------------------------------------------------------ the search

@dataclass
class BoxResult:
    """What branch and bound found over a box."""

    status: str                       # "certified", "refuted", "undecided"
    box: tuple                        # the Ranges, as given
    coordinates: tuple
    sub_boxes: int = 0                # sub-boxes examined
    decided: int = 0
    vacuous: int = 0
    monotone: int = 0                 # faces taken by the monotonicity test
    smallest_margin: object = None    # a ball: certified lower bound of the margin on decided boxes
    resisting: list = field(default_factory=list)   # sub-boxes (parameter ranges) left undecided
    counterexample: dict | None = None              # {"box": {...}, "lhs": str, "rhs": str, ...}
    reason: str = ""
    certified_part: str = ""          # for an UNDECIDED box: a part certified all the same
    seconds: float = 0.0
    pieces: list = field(default_factory=list)      # breakpoints of a Piecewise margin (text)
    tail: str = ""                    # an integer range split: "n in 2..65 by boxes; n >= 65: ..."
    searches: list = field(default_factory=list)    # the search trees, for the kernel to replay

    def box_dict(self) -> dict:
        return {c.range.symbol.name: _range_json(c) for c in self.coordinates}

    def as_dict(self) -> dict:
        return {
            "status": self.status, "box": self.box_dict(),
            "changes_of_variables": {c.range.symbol.name: sp.sstr(c.transform)
                                     for c in self.coordinates if c.transform is not None},
            "sub_boxes": self.sub_boxes, "decided": self.decided, "vacuous": self.vacuous,
            "monotone_faces": self.monotone,
            "smallest_margin": _margin_text(self.smallest_margin),
            "resisting": self.resisting[:5], "resisting_count": len(self.resisting),
            "counterexample_box": self.counterexample, "reason": self.reason,
            "certified_part": self.certified_part or None,
            "breakpoints": list(self.pieces) or None,
            "integer_tail": self.tail or None,
        }


def _range_json(c: Coordinate) -> list:
    r = c.range
    return [_end_text(r.lo), _end_text(r.hi)] + (["integer"] if r.integer else [])


def _end_text(v) -> str:
    return "oo" if v == sp.oo else "-oo" if v == -sp.oo else str(v)


def _margin_text(m) -> str | None:
    if m is None:
        return None
    if m == 0:
        return "0"
    return f"{float(m.mid()):.4e}"


class _Problem:
    """The margin and constraints compiled in the box coordinates."""

    def __init__(self, margin: sp.Expr, strict: bool, constraints, coords, lhs, rhs, domains=None):
        self.coords = coords
        self.domains = domains or {}
        self.raw_constraints = list(constraints)
        self.vars = [c.variable for c in coords]
        self.strict = strict
        sub = {c.range.symbol: c.transform for c in coords if c.transform is not None}
        if sub:
            # t/(1 - t) needs tidying for a ball to see a limit at t = 1; an affine map of a
            # piece does not (its ends are simplified exactly when a face is pinned there)
            tidy = _simplify_after if any(not c.range.bounded for c in coords
                                          if c.transform is not None) else (lambda e: e)
            margin = tidy(margin.xreplace(sub))
            constraints = [c.xreplace(sub) for c in constraints]
            lhs, rhs = tidy(lhs.xreplace(sub)), tidy(rhs.xreplace(sub))
        self.margin_expr = margin
        self.lhs_expr, self.rhs_expr = lhs, rhs
        self.constraint_exprs = list(constraints)
        self.faces: dict = {}
        self._compile(margin, lhs, rhs, constraints)

    def _compile(self, margin, lhs, rhs, constraints):
        self.margin = compile_ball(margin, self.vars)
        self.lhs = compile_ball(lhs, self.vars)
        self.rhs = compile_ball(rhs, self.vars)
        self.constraints = [BallCondition(c, self.vars) for c in constraints]
        self.derivatives = self.second = None
        self._firsts = None
        self.branched = margin.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs) and \
            not _has_implicit(margin)
        self._branches, self._node_fns = {}, {}
        if not margin.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs) and not _has_implicit(margin):
            try:
                self._firsts = [sp.diff(margin, v) for v in self.vars]
                self.derivatives = [compile_ball(d, self.vars) for d in self._firsts]
            except Exception:  # noqa: BLE001 - no monotonicity test, not a wrong one
                self.derivatives = self._firsts = None

    def second_derivative(self, i):
        """d2m/dx_i2, compiled on first use (None when it cannot be)."""
        if self.second is None:
            self.second = {}
        return _second_derivative(self.second, self._firsts, self.vars, i)

    def on_face(self, sub):
        """The problem with the coordinates pinned at an *end of the whole box* substituted
        exactly (and simplified): a margin identically 0 on a face is then seen as 0."""
        pinned = tuple((i, lo) for i, (c, (lo, hi)) in enumerate(zip(self.coords, sub))
                       if lo == hi and lo in (c.lo, c.hi))
        if not pinned:
            return self
        if pinned not in self.faces:
            values = {self.vars[i]: sp.Rational(v.numerator, v.denominator) for i, v in pinned}
            face = object.__new__(_Problem)
            face.__dict__.update(self.__dict__)
            face.faces = {}
            try:
                face._compile(_simplify_after(self.margin_expr.xreplace(values)),
                              self.lhs_expr.xreplace(values), self.rhs_expr.xreplace(values),
                              [c.xreplace(values) for c in self.constraint_exprs])
            except Exception:  # noqa: BLE001 - an end where the expression is not defined
                face = self
            self.faces[pinned] = face
        return self.faces[pinned]


def _has_implicit(expr) -> bool:
    from ....tradeoff.base import InverseAt

    return bool(expr.atoms(InverseAt))


def _simplify_after(expr):
    """Tidy an expression after a change of variables (cancel 1/(1 - t) factors)."""
    from ...budgets import INTERVAL_FORM_WORK, WorkExhausted, work_limit

    try:
        with work_limit(INTERVAL_FORM_WORK):
            return sp.simplify(sp.together(expr))
    except (WorkExhausted, Exception):  # noqa: BLE001 - keep the plain substitution
        return expr


def _env(coords, box):
    env = {}
    for c, (lo, hi) in zip(coords, box):
        a = arb(fmpq(lo.numerator, lo.denominator))
        env[c.variable] = a if lo == hi else hull(a, arb(fmpq(hi.numerator, hi.denominator)))
    return env


def _sub_box_text(coords, box) -> dict:
    out = {}
    for c, (lo, hi) in zip(coords, box):
        a, b = c.to_parameter(lo), c.to_parameter(hi)
        out[c.range.symbol.name] = [_short(a), _short(b)]
    return out


def _short(v) -> str:
    if v in (sp.oo, -sp.oo):
        return _end_text(v)
    if v.is_Rational and v.q <= 10 ** 6:
        return str(v)
    return str(sp.N(v, 12))


def _split(coords, box, derivs=None):
    """Split the widest coordinate (relative to its range) at its midpoint."""
    best, best_w = None, -1
    for i, (c, (lo, hi)) in enumerate(zip(coords, box)):
        if lo == hi:
            continue
        full = (c.hi - c.lo) or Fraction(1)
        w = (hi - lo) / full
        if w > best_w:
            best, best_w = i, w
    if best is None:
        return None
    c = coords[best]
    lo, hi = box[best]
    if c.integer:
        mid = Fraction(_floor((lo + hi) / 2))
        left, right = (lo, mid), (mid + 1, hi)
    else:
        mid = (lo + hi) / 2
        left, right = (lo, mid), (mid, hi)
    a, b = list(box), list(box)
    a[best], b[best] = left, right
    return tuple(a), tuple(b)


def certify_box(lhs, rhs, relation: str, box, *, constraints=(), domains=None,
                max_boxes: int = DEFAULT_MAX_BOXES, bits: int = DEFAULT_BITS) -> BoxResult:
    """Branch and bound for ``lhs relation rhs`` over ``box`` (a sequence of :class:`Range`).

    Raises :class:`UnsupportedExpression` when a side cannot be evaluated with
    balls, :class:`~symdp.core.errors.InvalidParameterError` for a bad box, and
    ``ValueError`` for an equality (a box cannot certify one: the ball of
    ``lhs - rhs`` over a sub-box of positive width never shrinks to 0).
    """
    start = time.perf_counter()
    if relation == "=":
        raise ValueError("a box certifies inequalities only; equalities are certified at points")
    box = tuple(box)
    if len(box) > MAX_DIMENSION:
        raise InvalidParameterError(f"a box has at most {MAX_DIMENSION} parameters; got {len(box)}")
    coords = coordinates(box)
    for c in coords:
        if c.lo > c.hi:
            raise InvalidParameterError(f"{c.range.symbol.name} has no integer in "
                                        f"{c.range.lo}..{c.range.hi}")
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    strict = relation in ("<", ">")
    margin = (rhs - lhs) if relation in ("<", "<=") else (lhs - rhs)
    tail_note = ""
    infinite = [r for r in box if r.integer and r.hi == sp.oo]
    if len(infinite) == 1 and all(r.bounded for r in box if r is not infinite[0]):
        split, tail_note = _with_tail(lhs, rhs, relation, margin, box, infinite[0], constraints,
                                      domains, max_boxes, bits, start)
        if split is not None:
            return split
    if margin.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs):
        split = _by_pieces(lhs, rhs, relation, margin, box, coords, constraints, domains,
                           max_boxes, bits, start)
        if split is not None:
            return split
    problem = _Problem(margin, strict, list(constraints), coords, lhs, rhs, domains)
    result = BoxResult("undecided", box, tuple(coords))
    initial = tuple((c.lo, c.hi) for c in coords)
    queue = collections.deque([initial])  # breadth first: what is left at the limit is small
    leaves = []                           # the search tree, replayed by the kernel
    with working_bits(bits):
        while queue:
            if result.sub_boxes >= max_boxes:
                result.resisting.extend(_sub_box_text(coords, b) for b in queue)
                result.reason = f"limit of {max_boxes} sub-boxes reached"
                break
            sub = queue.popleft()
            result.sub_boxes += 1
            outcome = _examine(problem, sub, result)
            if outcome == "refuted":
                result.status = "refuted"
                break
            if outcome in ("decided", "vacuous"):
                leaves.append((sub, outcome, None))
            if outcome == "split":
                halves = _split(coords, sub)
                leaves.append((sub, "split", halves))
                too_narrow = halves is None or all(
                    (hi - lo) < MIN_WIDTH * max(Fraction(1), c.hi - c.lo)
                    for c, (lo, hi) in zip(coords, sub) if lo != hi and not c.integer)
                if halves is None or (too_narrow and not any(
                        c.integer and lo != hi for c, (lo, hi) in zip(coords, sub))):
                    result.resisting.append(_sub_box_text(coords, sub))
                    result.reason = result.reason or "a sub-box is undecided at the smallest width"
                    continue
                queue.extend(halves)
            elif isinstance(outcome, tuple):  # a face from the monotonicity test
                leaves.append((sub, "monotone", outcome))
                queue.append(outcome)
    unbounded = any(c.transform is not None and not c.range.bounded for c in coords)
    result.searches = [_search_record(lhs, rhs, relation, coords,
                                      problem.margin_expr if unbounded else None, leaves)]
    if result.status != "refuted":
        result.status = "certified" if not result.resisting else "undecided"
        if result.status == "undecided":
            result.certified_part = "; ".join(x for x in (tail_note,
                                                          _certified_part(coords, result)) if x)
    result.seconds = time.perf_counter() - start
    return result


def _search_record(lhs, rhs, relation, coords, searched, leaves):
    from ...certificates import BoxSearch

    return BoxSearch(lhs, rhs, relation, tuple(
        (c.range.symbol, c.variable, c.lo, c.hi, c.integer, c.transform) for c in coords),
        searched, tuple(leaves))


def _examine(problem: _Problem, sub, result: BoxResult):
    problem = problem.on_face(sub)
    env = _env(problem.coords, sub)
    states = [c(env) for c in problem.constraints]
    if any(s is False for s in states):
        result.vacuous += 1
        return "vacuous"
    m = problem.margin(env)
    if m.is_finite():
        ok = (m > 0) if problem.strict else (m >= 0)
        if ok:
            result.decided += 1
            low = m.lower()
            if result.smallest_margin is None or low < result.smallest_margin:
                result.smallest_margin = low
            return "decided"
        fails = (m <= 0) if problem.strict else (m < 0)
        if fails and all(s is True for s in states):
            point = _inner_point(problem, sub)
            if point is not None:
                L, R = problem.lhs(env), problem.rhs(env)
                result.counterexample = {
                    "box": _sub_box_text(problem.coords, sub),
                    "point": {s.name: str(v) for s, v in point.items()},
                    "lhs": _ball_text(L), "rhs": _ball_text(R), "margin": _ball_text(m),
                }
                return "refuted"
    if not all(s is True for s in states):
        # the monotonicity test moves to a face of the sub-box; that face may lie outside
        # the constraints (x + y >= 1 with m increasing in x and y: the face x = y = 0)
        # while the sub-box still holds admissible points where m is smaller than
        # anywhere on the admissible part of the face.  Only a sub-box that lies wholly
        # inside the constraints may be replaced by a face (issue #12).
        return "split"
    smooth = problem
    if problem.derivatives is None and problem.branched and any(lo != hi for lo, hi in sub):
        smooth = _branch_for(problem, env)  # one branch on the whole sub-box: its derivatives
    if smooth is not None and smooth.derivatives is not None and any(lo != hi for lo, hi in sub):
        face = list(sub)
        moved = False
        for i, d in enumerate(smooth.derivatives):
            lo, hi = sub[i]
            if lo == hi:
                continue
            sign = _derivative_sign(smooth, i, sub, env, d)
            if sign > 0:    # m non-decreasing in x_i: its minimum is at x_i = lo
                face[i] = (lo, lo)
                moved = True
            elif sign < 0:  # non-increasing: minimum at x_i = hi
                face[i] = (hi, hi)
                moved = True
        if moved:
            result.monotone += 1
            return tuple(face)
    return "split"


def _derivative_sign(problem: _Problem, i: int, sub, env, d) -> int:
    """+1 when dm/dx_i >= 0 is certified on the sub-box, -1 when <= 0, else 0.

    First the ball of the derivative; if it straddles 0 (as it does when the
    derivative vanishes on an edge), its own monotonicity: with
    d2m/dx_i2 >= 0 the derivative is smallest at x_i = lo, so dm/dx_i >= 0 follows
    from its value on that face (and symmetrically).
    """
    g = d(env)
    if g.is_finite():
        if g >= 0:
            return 1
        if g <= 0:
            return -1
    second = problem.second_derivative(i)
    if second is None:
        return 0
    h = second(env)
    if not h.is_finite():
        return 0
    lo, hi = sub[i]
    for end, rising in ((lo, True), (hi, False)):
        face = list(sub)
        face[i] = (end, end)
        g_end = d(_env(problem.coords, face))
        if not g_end.is_finite():
            continue
        # rising (h >= 0): g >= g(lo) and g <= g(hi); falling (h <= 0): g >= g(hi), g <= g(lo)
        if (h >= 0 and rising) or (h <= 0 and not rising):
            if g_end >= 0:
                return 1
        if (h >= 0 and not rising) or (h <= 0 and rising):
            if g_end <= 0:
                return -1
    return 0


def _inner_point(problem: _Problem, sub) -> dict | None:
    """The midpoint of a failing sub-box in the parameters, if it is admissible
    (a face on an excluded edge of a domain, or at infinity, refutes nothing)."""
    point = {}
    for c, (lo, hi) in zip(problem.coords, sub):
        mid = (lo + hi) / 2
        if c.integer:
            mid = Fraction(_floor(mid))
        value = c.to_parameter(mid)
        if value in (sp.oo, -sp.oo):
            return None
        if c.range.integer and c.transform is not None:  # relaxed integer: an integer inside
            a, b = c.to_parameter(lo), c.to_parameter(hi)
            value = sp.floor(value)
            if (value < a) == sp.true:
                value = value + 1
            if not ((a <= value) == sp.true and (b == sp.oo or (value <= b) == sp.true)):
                return None
        domain = problem.domains.get(c.range.symbol)
        if domain is not None and domain.contains(value) is not sp.true:
            return None
        point[c.range.symbol] = value
    for cond in problem.raw_constraints:
        if cond.xreplace(point) is not sp.true:
            return None
    return point


def _ball_text(x) -> str:
    if not x.is_finite():
        return "[not finite]"
    lo, hi = x.lower(), x.upper()
    return f"[{lo.str(12, radius=False)}, {hi.str(12, radius=False)}]"


def _certified_part(coords, result: BoxResult) -> str:
    """When every resisting sub-box lies beyond some value of one coordinate, the
    relation is certified on the box cut there: say so (e.g. ``eps in [0, 99)``)."""
    for c in coords:
        name = c.range.symbol.name
        try:
            starts = [sp.Rational(r[name][0]) for r in result.resisting]
        except (TypeError, ValueError):
            continue
        cut = min(starts)
        if c.range.lo.is_finite and cut > c.range.lo:
            others = ", ".join(o.range.text() for o in coords if o is not c)
            return f"{name} in [{c.range.lo}, {cut})" + (f" with {others}" if others else "")
    return ""


def _by_pieces(lhs, rhs, relation, margin, box, coords, constraints, domains, max_boxes, bits,
               start):
    """A one-parameter Piecewise/Max/Min margin searched piece by piece between its exact
    breakpoints (:mod:`symdp.proof.cascade.certified.pieces`); None when that does not apply or does not
    certify (the ordinary search then runs and names what resists)."""
    from .pieces import breakpoints, sign_at, specialise

    if len(box) != 1 or box[0].integer or not box[0].bounded or coords[0].transform is not None:
        return None
    r = box[0]
    x = r.symbol
    cuts = breakpoints(margin, x, r.lo, r.hi)
    if not cuts:
        return None
    strict = relation in ("<", ">")
    ends = [r.lo] + list(cuts) + [r.hi]
    # the margin at every cut and end, exactly (the branch taken *at* the point)
    for point in ends:
        admissible = True
        for c in constraints:
            v = c.xreplace({x: point})
            v = v if v in (sp.true, sp.false) else sp.simplify(v)
            if v == sp.false:
                admissible = False
            elif v != sp.true:
                return None
        if admissible and sign_at(margin, x, point, strict) is not True:
            return None
    result = BoxResult("certified", tuple(box), tuple(coords))
    result.pieces = [sp.sstr(c) for c in cuts]
    for a, b in zip(ends, ends[1:]):
        mid = (a + b) / 2
        L, R = specialise(lhs, x, mid), specialise(rhs, x, mid)
        if L is None or R is None:
            return None
        try:
            piece = certify_box(L, R, relation, [Range(x, a, b)], constraints=constraints,
                                domains=domains, max_boxes=max(1, max_boxes - result.sub_boxes),
                                bits=bits)
        except (UnsupportedExpression, InvalidParameterError):
            return None
        result.sub_boxes += piece.sub_boxes
        result.decided += piece.decided
        result.vacuous += piece.vacuous
        result.monotone += piece.monotone
        result.searches += [dataclasses.replace(q, piece_of=(lhs, relation, rhs))
                            for q in piece.searches]
        if piece.status == "refuted" and piece.counterexample is not None:
            # the branch fails inside the piece: a counterexample of the claim only where the
            # claim's own margin, at the exact point, is certified to fail
            point = sp.Rational(piece.counterexample["point"][x.name])
            if sign_at(margin, x, point, strict) is False:
                piece.box, piece.coordinates = tuple(box), tuple(coords)
                piece.seconds = time.perf_counter() - start
                return piece
            return None
        if piece.status != "certified":
            return None
        m = piece.smallest_margin
        if m is not None and (result.smallest_margin is None or m < result.smallest_margin):
            result.smallest_margin = m
    result.seconds = time.perf_counter() - start
    return result


def _with_tail(lhs, rhs, relation, margin, box, r, constraints, domains, max_boxes, bits, start):
    """``(result or None, note)``: boxes for the integer ``r.symbol`` in ``lo..N0`` and a
    symbolic argument (:mod:`symdp.proof.cascade.certified.tail`) for ``>= N0``.  A counterexample in the
    finite part is returned as it is; a certified finite part without a tail argument gives
    None and a note (the caller goes on with the relaxed search)."""
    from .tail import split_point, tail_argument

    n, n0 = r.symbol, split_point(r)
    finite_box = [Range(n, r.lo, n0, integer=True) if q is r else q for q in box]
    finite = certify_box(lhs, rhs, relation, finite_box, constraints=constraints, domains=domains,
                         max_boxes=max_boxes, bits=bits)
    span = f"{n.name} in {int(sp.ceiling(r.lo))}..{n0}"
    if finite.status == "refuted":
        finite.box = tuple(box)
        return finite, ""
    if finite.status != "certified":
        return None, ""
    why = tail_argument(margin, relation, n, n0, box, constraints)
    if not why:
        return None, f"{span} by boxes (no symbolic argument found for {n.name} >= {n0})"
    finite.box = tuple(box)
    finite.tail = f"certified on {span} by boxes; {n.name} >= {n0} symbolic: {why}"
    finite.seconds = time.perf_counter() - start
    return finite, ""


class _Branch:
    """The smooth expression a branched margin *is* on a sub-box where every Piecewise
    condition, every Max/Min comparison and every Abs sign is certified: its derivatives are
    the margin's derivatives on that sub-box (the monotonicity test for Piecewise margins)."""

    def __init__(self, expr, coords, variables):
        self.coords, self.vars = coords, variables
        self._firsts = [_factored(sp.diff(expr, v)) for v in variables]
        self.derivatives = [compile_ball(d, variables) for d in self._firsts]
        self.second = {}

    def second_derivative(self, i):
        return _second_derivative(self.second, self._firsts, self.vars, i)


def _second_derivative(cache: dict, firsts, variables, i):
    """d2m/dx_i2 from the first derivatives, compiled once into ``cache`` (None when it
    cannot be compiled: then there is no second-order test, never a wrong one)."""
    if i not in cache:
        try:
            cache[i] = compile_ball(sp.diff(firsts[i], variables[i]), variables)
        except Exception:  # noqa: BLE001
            cache[i] = None
    return cache[i]


def _factored(expr):
    """``expr`` factored when that is quick (a product of signed factors has a tighter ball
    than the expanded sum: ``y (3 - 2 x y)`` vs ``3 y - 2 x y^2`` near ``x = y = 0``)."""
    from ...budgets import FACTOR_WORK, WorkExhausted, work_limit

    try:
        with work_limit(FACTOR_WORK):
            return sp.factor(expr)
    except (WorkExhausted, Exception):  # noqa: BLE001
        return expr


class _NoBranch(Exception):
    pass


def _branch_for(problem: _Problem, env):
    """The :class:`_Branch` of the margin on the sub-box of ``env``, or None when a
    condition or a comparison is not certified there."""
    fns = problem._node_fns

    def ball(e):
        if e not in fns:
            fns[e] = compile_ball(e, problem.vars)
        return fns[e](env)

    def cond(c):
        key = ("cond", c)
        if key not in fns:
            fns[key] = BallCondition(c, problem.vars)
        return fns[key](env)

    def walk(e):
        if not e.args or not e.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs):
            return e
        if isinstance(e, sp.Piecewise):
            for branch, c in e.args:
                state = True if c == sp.true else False if c == sp.false else cond(c)
                if state is True:
                    return walk(branch)
                if state is not False:
                    raise _NoBranch
            raise _NoBranch
        if isinstance(e, (sp.Max, sp.Min)):
            balls = [ball(a) for a in e.args]
            for i, bi in enumerate(balls):
                if isinstance(e, sp.Max) and all(bi >= bj for j, bj in enumerate(balls) if j != i):
                    return walk(e.args[i])
                if isinstance(e, sp.Min) and all(bi <= bj for j, bj in enumerate(balls) if j != i):
                    return walk(e.args[i])
            raise _NoBranch
        if isinstance(e, sp.Abs):
            b = ball(e.args[0])
            if b >= 0:
                return walk(e.args[0])
            if b <= 0:
                return walk(-e.args[0])
            raise _NoBranch
        return e.func(*[walk(a) for a in e.args])

    try:
        expr = walk(problem.margin_expr)
    except (_NoBranch, UnsupportedExpression):
        return None
    except Exception:  # noqa: BLE001 - no monotonicity test, not a wrong one
        return None
    if expr not in problem._branches:
        try:
            problem._branches[expr] = _Branch(expr, problem.coords, problem.vars)
        except Exception:  # noqa: BLE001
            problem._branches[expr] = None
    return problem._branches[expr]
