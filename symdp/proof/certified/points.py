r"""CERTIFIED at points: both sides of a step as balls at exact parameter points.

At an exact point (Rationals from :mod:`symdp.proof.sampling`) each side is
evaluated as a ball, first at ``dps + 10`` digits, then at twice and four times
that precision while the balls do not decide.  For ``lhs REL rhs``:

* an inequality *holds* at the point when the balls are ordered for every pair
  of their points (``lhs <= rhs``: the upper end of lhs is at most the lower end
  of rhs) and *fails* when they are ordered the other way -- a certified
  counterexample;
* an equality holds *to a radius* ρ when the ball of ``lhs - rhs`` contains 0
  and lies within :math:`[-\rho, \rho]` (default :math:`\rho = 10^{-(dps-20)}`,
  1e-40 at 60 digits) -- weaker than an exact equality, and said so; it fails
  when the ball excludes 0 (the sides certainly differ);
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

from ...numeric.balls import arb, digits_to_bits, fmt, fmt_bound, point_ball, working_bits
from ...numeric.ball_compiler import compare

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
    value = expr.xreplace(point)
    return value if value.is_Rational else None


def check_point(lhs_fn, rhs_fn, lhs, rhs, relation, point, *, dps: int, radius) -> PointCheck:
    """Decide ``lhs relation rhs`` at one exact point with balls (rising precision)."""
    names = {getattr(s, "name", str(s)): str(v) for s, v in point.items()}
    op = "==" if relation == "=" else relation
    last = None
    for factor in (1, 2, 4):
        bits = digits_to_bits(factor * (dps + 10))
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
                if bound <= radius:
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
    for point in points:
        try:
            L0 = lhs.xreplace(point)  # noqa: F841 - an object may reject the point
        except ValueError:
            checks.append(PointCheck({getattr(s, "name", str(s)): str(v) for s, v in point.items()},
                                     NOT_FINITE, how="rejected"))
            continue
        c = check_point(lhs_fn, rhs_fn, lhs, rhs, relation, point, dps=dps, radius=rho)
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
