r"""Balls of ``flint.arb``: exact conversions, scoped precision, certified comparisons.

A ball :math:`[m \pm r]` contains the real number it stands for; every
operation of Arb returns a ball containing every result of the operation on
points of its arguments (F. Johansson, "Arb: efficient arbitrary-precision
midpoint-radius interval arithmetic", IEEE Trans. Computers 66(8), 2017).
A comparison of two balls is therefore *certified* when it is decided:
``x < y`` is True only when every point of x is below every point of y.

Precision is scoped: :func:`working_bits` wraps ``flint.ctx.workprec`` and is the
only way symdp sets Arb's precision (the global ``flint.ctx.prec`` is never
assigned).  Constants are converted at evaluation time, inside that scope.
"""

from __future__ import annotations

import contextlib
import math

import sympy as sp

try:  # python-flint is a dependency; a missing install makes the stage say so
    import flint
    from flint import arb, fmpq
except ImportError:  # pragma: no cover - exercised only without python-flint
    flint = None
    arb = fmpq = None

#: why the CERTIFIED stage cannot run (None when python-flint is importable)
UNAVAILABLE = None if flint is not None else "python-flint not installed"


def digits_to_bits(dps: int) -> int:
    """Bits of mantissa for ``dps`` decimal digits (``ceil(dps log2 10)``)."""
    return int(math.ceil(dps * math.log2(10))) + 4


@contextlib.contextmanager
def working_bits(bits: int):
    """Arb's working precision for the block (restored afterwards, also on error)."""
    with flint.ctx.workprec(int(bits)):
        yield


def from_rational(q: sp.Rational):
    """The ball of an exact rational (exact when the rational is dyadic and fits)."""
    return arb(fmpq(int(q.p), int(q.q)))


def from_float(f: sp.Float):
    """The ball of a SymPy Float: its exact binary value ``man * 2**exp``."""
    sign, man, exp, _ = f._mpf_
    if man == 0:
        if exp != 0:  # +-inf or nan in mpmath's encoding
            raise ValueError(f"not a finite number: {f}")
        return arb(0)
    man = -int(man) if sign else int(man)
    q = fmpq(man * 2 ** exp) if exp >= 0 else fmpq(man, 2 ** (-exp))
    return arb(q)


def point_ball(value):
    """A ball for an exact SymPy number (Rational, Integer, Float)."""
    value = sp.sympify(value)
    if value.is_Rational:
        return from_rational(value)
    if value.is_Float:
        return from_float(value)
    raise ValueError(f"not an exact number: {value}")


def interval(lo, hi):
    """The smallest ball Arb builds containing the real interval ``[lo, hi]``."""
    lo_b, hi_b = point_ball(lo), point_ball(hi)
    return hull(lo_b, hi_b)


def hull(*balls):
    r"""The convex hull of balls, keeping an exact endpoint exact.

    Arb's ``union`` rounds the midpoint and the radius (a 30-bit ``mag``) up, so
    the hull of the exact point 0 and a positive ball reaches slightly below 0,
    and a margin that is exactly 0 on an edge could never be certified
    :math:`\ge 0`.  Here the radius :math:`M \ge (hi - lo)/2` is chosen first
    (exactly representable) and the midpoint is :math:`lo + M`, computed exactly:
    the ball :math:`[lo + M \pm M]` has lower end exactly ``lo`` and upper end
    :math:`lo + 2M \ge hi`.
    Which end is kept exact: the one that comes
    from an exact input (e.g. ``exp(0) = 1``), else the lower one.
    """
    if len(balls) == 1:
        return balls[0]
    if not all(b.is_finite() for b in balls):
        out = balls[0]
        for b in balls[1:]:
            out = out.union(b)
        return out
    lo, hi = balls[0].lower(), balls[0].upper()
    lo_exact = hi_exact = balls[0].rad() == 0
    for b in balls[1:]:
        a, c, exact = b.lower(), b.upper(), b.rad() == 0
        if a < lo or (a == lo and exact):
            lo, lo_exact = a, exact or (a == lo and lo_exact)
        if c > hi or (c == hi and exact):
            hi, hi_exact = c, exact or (c == hi and hi_exact)
    if hi_exact and not lo_exact:
        anchor_high = True
    elif hi_exact and lo_exact:
        anchor_high = _bits(hi) < _bits(lo)
    else:
        anchor_high = False
    return span(lo, hi, anchor_high=anchor_high)


def _bits(x) -> int:
    man, _ = x.man_exp()
    return int(abs(int(man))).bit_length()


def span(lo, hi, anchor_high: bool = False):
    """The ball ``[lo, hi]`` for exact points lo <= hi; the anchored end (lower by
    default) is exact, the other is rounded outwards."""
    if lo == hi:
        return lo
    z = arb(0, ((hi - lo) / 2).upper())
    radius = z.rad()
    with flint.ctx.workprec(4 * flint.ctx.prec + 64):
        mid = (hi - radius) if anchor_high else (lo + radius)
        if not mid.is_exact():
            return lo.union(hi)
        return mid + z


def is_finite(x) -> bool:
    return x.is_finite()


def lower(x):
    """The exact lower endpoint of ``x`` (a ball of radius 0)."""
    return x.lower()


def upper(x):
    return x.upper()


def fmt(x, digits: int = 20) -> str:
    """``[m +/- r]`` with ``digits`` significant digits of the midpoint."""
    if not x.is_finite():
        return "[not finite]"
    return x.str(digits, radius=True)


def fmt_bound(x, digits: int = 3) -> str:
    """A short decimal upper bound of a non-negative ball (for radii and margins)."""
    if not x.is_finite():
        return "inf"
    value = float(x.upper().mid()) if x.upper().mid() != 0 else 0.0
    return f"{value:.{digits - 1}e}" if value else "0"


def fmt_decimal(x, digits: int = 5) -> str:
    """The midpoint of ``x`` as a short decimal (for readable reports)."""
    if not x.is_finite():
        return "inf"
    return x.str(digits, radius=False)


def to_rational_lower(x) -> sp.Rational:
    """The exact lower endpoint of a finite ball as a SymPy Rational."""
    return _exact_to_rational(x.lower())


def to_rational_upper(x) -> sp.Rational:
    return _exact_to_rational(x.upper())


def _exact_to_rational(x) -> sp.Rational:
    man, exp = x.man_exp()
    return sp.Integer(int(man)) * sp.Integer(2) ** int(exp)
