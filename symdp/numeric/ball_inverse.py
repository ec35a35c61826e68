r"""Certified root isolation for implicit inverses :math:`f^{-1}(a) = \inf\{t \in [0,1] : f(t) \le a\}`,
and certified enclosures of convex conjugates from their definition (:func:`enclose_conjugate`).

A trade-off function f is non-increasing (Dong, Roth, Su 2022, arXiv
1905.02383v3, Prop. 2.2), so for every t

.. math::
    f(t) > a \;\Rightarrow\; f^{-1}(a) \ge t, \qquad
    f(t) \le a \;\Rightarrow\; f^{-1}(a) \le t

(if f(t) > a then every s <= t has f(s) >= f(t) > a).  Two bisections on these
*certified* predicates -- one for the largest t where a ball evaluation proves
``f(t) > a``, one for the smallest t where it proves ``f(t) <= a`` -- bracket
:math:`f^{-1}(a)` for every point of the balls of a and of f's parameters.
A midpoint where the ball does not decide stops that side's refinement (the
bracket stays valid, only wider): the result is never a guess.
"""

from __future__ import annotations

from .balls import arb, hull
from .roots import bisect, illinois


def isolate_decreasing_root(g, a, steps: int | None = None):
    r"""A ball containing :math:`\inf\{t \in [0,1] : g(t) \le a\}` for a non-increasing g.

    ``g`` maps a ball t to a ball; ``a`` is a ball.  ``steps`` bisections per
    side (default: the working precision in bits).  A trade-off function has
    f(1) = 0 (Prop. 2.2: 0 <= f(1) <= 1 - 1), so for a >= 0 the set is not empty
    and 1 bounds the infimum; f(0) <= 1 likewise gives 0 for a >= 1.  Returns
    NaN when a >= 0 is not certified.
    """
    from flint import ctx

    steps = steps if steps is not None else ctx.prec + 4
    zero, one = arb(0), arb(1)
    if not (a >= 0):
        return arb.nan()
    if a >= 1 or g(zero) <= a:  # certified: the infimum is 0
        return zero
    quick = _bracket_by_regula_falsi(g, a, ctx.prec)
    if quick is not None:
        return quick
    # lower end: the largest t found with g(t) > a certified (0 is a valid lower bound)
    lower, _ = bisect(lambda mid: not (g(mid) > a), zero, one, steps)
    # upper end: the smallest t found with g(t) <= a certified (1 is a valid upper bound)
    _, upper = bisect(lambda mid: bool(g(mid) <= a), lower, one, steps)
    return hull(lower, upper)


def _bracket_by_regula_falsi(g, a, prec: int, iterations: int = 80):
    r"""A narrow certified bracket of :math:`g^{-1}(a)`, or None.

    Regula falsi with the Illinois modification (Dowell and Jarratt 1971) on the midpoints
    of the balls finds a candidate root in a few dozen evaluations where bisection needs
    two per bit; the first 40 bits are found at 64-bit precision, where an evaluation is
    several times cheaper.  The candidate is then *certified* exactly as bisection's
    brackets are: ``g(t - d) > a`` and ``g(t + d) <= a`` decided by balls put the infimum
    in ``[t - d, t + d]`` (g non-increasing).  When either test does not decide (a flat
    piece, a jump, a slope too small for the precision) the caller bisects instead.
    """
    from flint import ctx

    target = a.mid()

    def h(t):  # the midpoint of g(t) - a, or None where g(t) is not finite
        g_t = g(t)
        return g_t.mid() - target if g_t.is_finite() else None

    lo, hi = arb(0), arb(1)
    with ctx.workprec(min(prec, 64)):
        g_lo, g_hi = g(lo), g(hi)
        # f(0) may be a pole of the formula (Phi^{-1}(1) = oo); its value there is at most 1
        # and f(1) is at least 0, which is all the secant needs from the ends
        h_lo = (g_lo.mid() if g_lo.is_finite() else arb(1)) - target
        h_hi = (g_hi.mid() if g_hi.is_finite() else arb(0)) - target
        if not (h_lo > 0 and h_hi <= 0):
            return None
        coarse = illinois(h, lo, hi, h_lo, h_hi, arb(2) ** -40, iterations, point=_mid)
    if coarse is None:
        return None
    t = coarse[0]
    if prec > 64:
        # a bracket around the coarse root whose signs hold at full precision (the 64-bit
        # signs need not, that close to the root), widened until they do
        for shift in (36, 28, 20):
            width = arb(2) ** -shift
            lo, hi = max(t - width, arb(0)).mid(), min(t + width, arb(1)).mid()
            g_lo, g_hi = g(lo), g(hi)
            if not (g_lo.is_finite() and g_hi.is_finite()):
                return None
            h_lo, h_hi = g_lo.mid() - target, g_hi.mid() - target
            if h_lo > 0 and h_hi <= 0:
                break
        else:
            return None
        fine = illinois(h, lo, hi, h_lo, h_hi, arb(2) ** (8 - prec), iterations, point=_mid)
        if fine is None:
            return None
        t = fine[0]
    for shift in (8, 24):
        d = (arb(2) ** (shift - prec)) * (1 + abs(t))
        below, above = (t - d).mid(), (t + d).mid()
        if below < 0 or above > 1:
            return None
        if g(below) > a and g(above) <= a:
            return hull(below, above)
    return None


def _mid(x):
    return x.mid()


def enclose_conjugate(g, y, boxes: int = 600, dg=None):
    r"""A ball containing :math:`f^*(y) = \sup_{x \in [0,1]} (x y - f(x))` (the definition of
    the convex conjugate, Dong, Roth, Su 2022, Sec. 2.4) for the ball ``y``, by branch and
    bound over [0, 1]: ``g`` maps a ball x to a ball containing f on it.

    Lower bound: the objective at points (0, 1 and every midpoint), as balls.  Upper bound:
    the objective's ball on each remaining sub-interval; a sub-interval ``[a, b]`` where f's
    ball is not finite (Phi^-1 at 0 or 1) is bounded with what every trade-off function
    satisfies (Prop. 2.2): f is non-increasing and non-negative, so there
    :math:`x y - f(x) \le \max(a y, b y) - \max(0, f(b))`.  The interval with the largest
    upper bound is split first; after ``boxes`` splits, or once the bounds meet at the
    working precision, the ball ``[lower, max upper]`` is returned (NaN when an upper bound
    stays infinite).  With ``dg`` (a ball function of f'), an upper bound is also taken in
    the centred form :math:`\phi(m) + \phi'([a, b])\,[-(b-a)/2, (b-a)/2]` (the mean value
    theorem), whose excess shrinks with the square of the width near the maximiser.  No closed
    form of the conjugate is used."""
    from fractions import Fraction

    from flint import ctx

    from .balls import interval, point_ball

    if not y.is_finite():
        return arb.nan()

    def objective_on(a: Fraction, b: Fraction):
        x = interval(a, b) if a != b else point_ball(a)
        value = x * y - g(x)
        if value.is_finite() and dg is not None and a != b:
            m = (a + b) / 2
            slope = y - dg(x)
            centred = (point_ball(m) * y - g(point_ball(m))) + \
                slope * interval(-(b - a) / 2, (b - a) / 2)
            if centred.is_finite() and centred.upper() < value.upper():
                return centred
        if value.is_finite():
            return value
        fb = g(point_ball(b))
        floor = fb.lower() if fb.is_finite() and fb.lower() > 0 else arb(0)
        return hull(point_ball(a) * y, point_ball(b) * y) - floor   # its upper end bounds

    lower = None
    for x in (Fraction(0), Fraction(1), Fraction(1, 2)):
        value = point_ball(x) * y - g(point_ball(x))
        if value.is_finite() and (lower is None or value.lower() > lower):
            lower = value.lower()
    live = [(Fraction(0), Fraction(1), objective_on(Fraction(0), Fraction(1)))]
    tolerance = arb(2) ** (-(ctx.prec - 8))
    def key(item):   # the exact upper end point (a float would tie boxes 1e-17 apart)
        top = item[2]
        if not top.is_finite():
            return Fraction(10) ** 400
        man, exp = top.upper().man_exp()
        return Fraction(int(man)) * Fraction(2) ** int(exp)

    for _ in range(boxes):
        live.sort(key=key)
        a, b, top = live[-1]
        if lower is not None and top.is_finite() and \
                top.upper() - lower <= tolerance * (1 + abs(lower)):
            break
        live.pop()
        mid = (a + b) / 2
        value = point_ball(mid) * y - g(point_ball(mid))
        if value.is_finite() and (lower is None or value.lower() > lower):
            lower = value.lower()
        for lo, hi in ((a, mid), (mid, b)):
            bound = objective_on(lo, hi)
            if lower is None or not bound.is_finite() or not (bound.upper() < lower):
                live.append((lo, hi, bound))
    if lower is None or not all(top.is_finite() for *_, top in live):
        return arb.nan()
    upper = live[0][2].upper()
    for *_, top in live[1:]:   # exact end points: the comparisons are decided
        if top.upper() > upper:
            upper = top.upper()
    return hull(lower, upper)
