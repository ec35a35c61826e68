r"""CERTIFIED at points: both sides of a step as balls at exact parameter points.

At an exact point (Rationals from :mod:`symdp.proof.sampling`) each side is
evaluated as a ball, first at ``dps + 10`` digits, then at twice and four times
that precision while the balls do not decide.  For ``lhs REL rhs``:

* an inequality *holds* at the point when the balls are ordered for every pair
  of their points (``lhs <= rhs``: the upper end of lhs is at most the lower end
  of rhs) and *fails* when they are ordered the other way -- a certified
  counterexample;
* an equality fails when the ball of ``lhs - rhs`` excludes 0 (the sides certainly
  differ).  While the ball contains 0 the precision is raised -- at the first
  points of a step up to thousands of bits, at least as far as the sizes of the
  exact constants call for (``exp(10**-80) - 1`` needs about 270 bits to be seen
  non-zero) -- and only a ball that still contains 0 at the highest precision,
  within :math:`[-\rho, \rho]` (default :math:`\rho = 10^{-(dps-20)}`, 1e-40 at 60
  digits), lets the equality hold *to the radius* it has there: evidence at the
  point, weaker than an exact equality, and said so;
* when both sides are exact rationals at the point (SymPy evaluates them
  exactly), the relation is decided exactly.

A point is *not evaluable* when a side's ball is not finite at the exact point
(a pole or an edge of a function's domain, e.g. ``log`` at 0); such points are
counted and named, like the numeric stage's skipped points.  A point where
finite balls still overlap at the highest precision is *undecided*: the step
is then not certified (points are not all parameter values, and even these
points are not all decided).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from ....core.exact_cost import exact_is_cheap  # noqa: F401 - the cascade's guard too

from ....numeric.balls import arb, digits_to_bits, fmt, fmt_bound, point_ball, working_bits
from ....numeric.ball_compiler import compare

HOLDS, FAILS, UNDECIDED, NOT_FINITE = "holds", "fails", "undecided", "not finite"


@dataclass(frozen=True)
class PointCheck:
    """The outcome at one point: status, both balls (as text), how it was decided."""

    point: dict
    status: str
    lhs: str = ""
    rhs: str = ""
    difference: str = ""
    how: str = ""          # "balls", "exact", "radius"
    bound: object = None   # for an equality to a radius: the certified bound on |lhs - rhs|
    margin: object = None  # for an inequality: a certified lower bound of the margin (a ball)
    bits: int = 0


@dataclass(frozen=True)
class PointsResult:
    relation: str
    checks: tuple
    radius: object
    dps: int
    notes: tuple = field(default_factory=tuple)

    def count(self, status) -> int:
        return sum(1 for c in self.checks if c.status == status)

    @property
    def failure(self):
        return next((c for c in self.checks if c.status == FAILS), None)

    @property
    def certified(self) -> bool:
        """Every evaluable point decided (and holds), at least one point."""
        return (self.count(HOLDS) > 0 and self.count(UNDECIDED) == 0
                and self.count(FAILS) == 0)


def _exact(expr, point):
    # a large exponent (exact_is_cheap), or a tower x^(x^x) whose exponent is itself a
    # variable power (3^3^3^3 has more digits than memory holds): leave it to the balls
    if not exact_is_cheap(expr, point) or any(
            any(q.exp.free_symbols for q in pw.exp.atoms(sp.Pow)) for pw in expr.atoms(sp.Pow)):
        return None
    value = expr.xreplace(point)
    return value if value.is_Rational else None


#: the highest precision an equality is raised to before it is accepted to a radius
MAX_EQUALITY_BITS = 16384
#: how many points of a step get the full rise of precision (the others stop at 4x)
DEEP_POINTS = 3


def magnitude_bits(*exprs) -> int:
    """Bits needed to see the smallest and largest exact constants of ``exprs``.

    ``exp(10**-80) - 1`` differs from 0 by about 1e-80: a ball of its difference excludes 0
    only once the working precision resolves 1e-80 next to 1, i.e. about 266 bits plus a
    guard.  The sizes of the exact numbers in the expressions (numerators, denominators,
    exponents of Floats) give that precision before any evaluation.
    """
    need = 0
    for e in exprs:
        for a in sp.sympify(e).atoms(sp.Number):
            if a.is_Rational and a != 0:
                need = max(need, int(abs(a.p)).bit_length(), int(a.q).bit_length())
            elif a.is_Float and a != 0:
                need = max(need, abs(int(a._mpf_[2])) + int(a._mpf_[3]))
        for pw in sp.sympify(e).atoms(sp.Pow):  # 10**-400 kept unevaluated
            if pw.base.is_Integer and pw.exp.is_Integer and abs(int(pw.base)) > 1:
                need = max(need, int(abs(pw.exp) * abs(int(pw.base)).bit_length()))
    return need


def _ladder(dps: int, deep: bool, need: int) -> list:
    base = digits_to_bits(dps + 10)
    bits = [base, 2 * base, 4 * base]
    if deep:
        limit = min(MAX_EQUALITY_BITS, max(1024, 2 * need + 128))
        while bits[-1] < limit:
            bits.append(min(2 * bits[-1], MAX_EQUALITY_BITS))
    return bits


def check_point(lhs_fn, rhs_fn, lhs, rhs, relation, point, *, dps: int, radius,
                deep: bool = True) -> PointCheck:
    """Decide ``lhs relation rhs`` at one exact point with balls (rising precision).

    An equality whose difference ball still contains 0 is raised further (``deep``):
    doubling the precision up to :data:`MAX_EQUALITY_BITS`, at least to the precision the
    magnitudes of the constants call for (:func:`magnitude_bits`), so that sides differing
    by 1e-400 are told apart; only a ball that contains 0 at the highest precision is
    accepted, to the radius it has there.
    """
    names = {getattr(s, "name", str(s)): str(v) for s, v in point.items()}
    op = "==" if relation == "=" else relation
    last = None
    # an inequality between sides that differ by 1e-800 needs the same rise as an equality
    ladder = _ladder(dps, deep, magnitude_bits(lhs, rhs, *point.values()))
    for i, bits in enumerate(ladder):
        final = i == len(ladder) - 1
        with working_bits(bits):
            env = {s: point_ball(v) for s, v in point.items()}
            L, R = lhs_fn(env), rhs_fn(env)
            if not (L.is_finite() and R.is_finite()):
                last = PointCheck(names, NOT_FINITE, fmt(L), fmt(R), how="balls", bits=bits)
                break  # more precision does not help at a pole
            D = L - R
            if relation == "=":
                if not D.contains(0):
                    return PointCheck(names, FAILS, fmt(L), fmt(R), fmt(D), "balls", bits=bits)
                bound = D.abs_upper()
                if L.is_exact() and R.is_exact():  # equal exact balls: equal exactly
                    return PointCheck(names, HOLDS, fmt(L), fmt(R), fmt(D), "exact", arb(0),
                                      bits=bits)
                if final and bound <= radius:
                    return PointCheck(names, HOLDS, fmt(L), fmt(R), fmt(D), "radius", bound,
                                      bits=bits)
                last = PointCheck(names, UNDECIDED, fmt(L), fmt(R), fmt(D), "balls", bits=bits)
                continue
            decided = compare(L, op, R)
            if decided is True:
                margin = (R - L) if relation in ("<", "<=") else (L - R)
                return PointCheck(names, HOLDS, fmt(L), fmt(R), fmt(D), "balls",
                                  margin=margin.lower(), bits=bits)
            if decided is False:
                return PointCheck(names, FAILS, fmt(L), fmt(R), fmt(D), "balls", bits=bits)
            last = PointCheck(names, UNDECIDED, fmt(L), fmt(R), fmt(D), "balls", bits=bits)
    # the balls did not decide: exact rationals decide ties (and strictness)
    el, er = _exact(lhs, point), _exact(rhs, point)
    if el is not None and er is not None:
        ok = {"=": el == er, "<=": el <= er, "<": el < er, ">=": el >= er, ">": el > er}[relation]
        return PointCheck(names, HOLDS if ok else FAILS, str(el), str(er), str(el - er), "exact",
                          bound=arb(0) if relation == "=" else None,
                          margin=arb(0) if ok and relation != "=" else None)
    return last


def certify_at_points(lhs, rhs, relation, points, *, lhs_fn, rhs_fn, dps: int = 60,
                      radius=None) -> PointsResult:
    """Check every point; stop at the first certified failure (a counterexample)."""
    radius_digits = dps - 20
    with working_bits(digits_to_bits(dps + 10)):
        rho = arb(10) ** (-radius_digits) if radius is None else point_ball(radius)
    checks = []
    for index, point in enumerate(points):
        try:
            if exact_is_cheap(lhs, point):
                L0 = lhs.xreplace(point)  # noqa: F841 - an object may reject the point
        except ValueError:
            checks.append(PointCheck({getattr(s, "name", str(s)): str(v) for s, v in point.items()},
                                     NOT_FINITE, how="rejected"))
            continue
        c = check_point(lhs_fn, rhs_fn, lhs, rhs, relation, point, dps=dps, radius=rho,
                        deep=index < DEEP_POINTS)
        checks.append(c)
        if c.status == FAILS:
            break
    return PointsResult(relation, tuple(checks), rho, dps)


def describe(result: PointsResult) -> str:
    """The detail line of a certified-at-points verdict, honest about what it covers."""
    held = result.count(HOLDS)
    skipped = result.count(NOT_FINITE)
    exact = sum(1 for c in result.checks if c.status == HOLDS and c.how == "exact")
    if result.relation == "=":
        bounds = [c.bound for c in result.checks if c.status == HOLDS and c.bound is not None]
        worst = max(bounds, key=lambda b: float(b.upper().mid())) if bounds else None
        if exact == held:
            what = f"at {held} points: the sides are equal exactly there"
        else:
            what = (f"at {held} points: |lhs - rhs| <= {fmt_bound(worst)} at every point "
                    f"(required radius {fmt_bound(result.radius)}"
                    + (f"; {exact} exactly equal" if exact else "") + "); "
                    "an equality certified to a radius is weaker than PROVED")
    else:
        margins = [c.margin for c in result.checks if c.status == HOLDS and c.margin is not None]
        smallest = min(margins, key=lambda m: float(m.mid())) if margins else None
        what = (f"at {held} points: the balls are ordered at every point"
                + (f", smallest certified margin {_fmt_margin(smallest)}" if smallest is not None else "")
                + (f" ({exact} decided exactly)" if exact else ""))
    tail = f"; {skipped} points not evaluable (a ball is not finite there)" if skipped else ""
    return f"{what}{tail}; only these points, not all parameter values"


def _fmt_margin(m) -> str:
    if m == 0:
        return "0 (exact tie)"
    value = float(m.mid())
    return f"{value:.3e}"
