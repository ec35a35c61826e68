r"""Many high-precision values of a trade-off function, by ball arithmetic.

:func:`evaluate_many` computes :math:`f(\alpha_i)` at many points to ``dps`` significant
digits.  The closed form of f is compiled once to a function of Arb balls
(:func:`symdp.numeric.ball_compiler.compile_ball`: :math:`\Phi`, :math:`\Phi^{-1}`, exp, log,
Piecewise, implicit inverses by certified root isolation), and each point is evaluated at
``dps`` digits plus guard bits.  The ball's radius bounds the error of its midpoint, so
every returned value is *known* to be accurate to ``dps`` digits: when a ball is too wide
the point is recomputed at twice the bits (up to three times), and a point that still
resists is computed by the mpmath route (:meth:`TradeOff.mp_function` at ``dps + 20``
digits) and counted in ``stats["mpmath"]``.

This is the route for tables and plots at 50 digits: Arb's erfc and erfcinv are several
times faster than mpmath's at that precision, and the bracket of an implicit inverse is
found by regula falsi rather than by a root-finder's tolerance loop.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.symbols import alpha
from ..core.validation import precision, shown
from ..numeric.digits import with_digits

__all__ = ["evaluate_many"]

_GUARD_BITS = 24
_RETRIES = 3


def _exact(value, index: int) -> sp.Rational:
    """An exact rational for one point (floats and mpf by their binary value)."""
    if isinstance(value, sp.Rational):
        if 0 <= value.p <= value.q:   # q > 0 always: the common case, without SymPy comparisons
            return value
        v = value
    elif isinstance(value, sp.Float):
        v = sp.Rational(value)   # its exact binary value
    elif isinstance(value, sp.Basic):
        v = value
    elif isinstance(value, (int, Fraction)):
        v = sp.Rational(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidParameterError(f"alpha must be in [0, 1]; got alpha[{index}]={value}")
        v = sp.Rational(*value.as_integer_ratio())
    elif isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise InvalidParameterError(f"alpha must be in [0, 1]; got alpha[{index}]={value}")
        man, exp = value.man_exp
        v = sp.Integer(man) * sp.Integer(2) ** exp
    elif isinstance(value, str):
        from ..core.validation import to_exact

        v = to_exact(f"alpha[{index}]", value)
    else:
        raise InvalidParameterError(f"alpha[{index}] must be a real number in [0, 1]; got "
                                    f"{type(value).__name__} {value!r}")
    if not v.is_Rational or v < 0 or v > 1:
        small = not v.is_Rational or max(abs(v.p), v.q).bit_length() < 3000
        raise InvalidParameterError(f"alpha must be a number in [0, 1]; got alpha[{index}]="
                                    + (f"{v}" if small else "a number of over 900 digits"))
    return v


def evaluate_many(f, points, dps: int = 50, *, stats: dict | None = None) -> list:
    r"""``[f(a) for a in points]`` as mpmath numbers with ``dps`` correct significant digits
    (:class:`~symdp.numeric.digits.Digits`: they print those ``dps`` digits).

    ``f`` is a :class:`~symdp.tradeoff.base.TradeOff` with numeric parameters; ``points``
    are numbers in [0, 1] (int, Fraction, SymPy Rational, decimal strings, floats and mpf
    by their exact binary value).  The values are rounded to ``dps`` digits (mpmath's
    precision is scoped: ``mpmath.workdps``).  ``stats``, when given, receives the counts
    ``{"arb": ..., "mpmath": ...}`` of the two routes.

    >>> from symdp import Gaussian
    >>> [mpmath.nstr(v, 20) for v in evaluate_many(Gaussian(1), ["0.1", "0.5"], dps=30)]
    ['0.61085630835463903096', '0.15865525393145705141']
    """
    from ..numeric.balls import UNAVAILABLE, arb, digits_to_bits, point_ball, working_bits
    from ..numeric.ball_compiler import UnsupportedExpression, compile_ball

    dps = precision("dps", dps)
    if isinstance(points, (str, bytes)) or not hasattr(points, "__iter__"):
        raise InvalidParameterError(f"points must be a sequence of numbers in [0, 1]; got "
                                    f"{type(points).__name__} {shown(points)}")
    exact = [_exact(v, i) for i, v in enumerate(points)]
    counts = {"arb": 0, "mpmath": 0}
    expr = f.expr(alpha)
    if expr.free_symbols - {alpha}:
        names = ", ".join(sorted(s.name for s in expr.free_symbols - {alpha}))
        raise InvalidParameterError(f"f must have numeric parameters to be evaluated; {names} "
                                    f"are symbolic in {f}")
    ball_fn = None
    if UNAVAILABLE is None:
        try:
            ball_fn = compile_ball(expr, [alpha])
        except UnsupportedExpression:
            ball_fn = None
    bits = digits_to_bits(dps) + _GUARD_BITS
    settled: list = [None] * len(exact)       # (man, exp) of each settled midpoint
    pending = list(range(len(exact))) if ball_fn is not None else []
    for attempt in range(_RETRIES + 1):
        if not pending:
            break
        with working_bits(bits << attempt):   # one precision scope for all the points
            tolerance = arb(10) ** (-dps - 1)
            left = []
            for i in pending:
                ball = ball_fn({alpha: point_ball(exact[i])})
                # the midpoint's relative error is at most rad/|mid| <= 10^-(dps+1)
                if ball.is_finite() and (ball.rad() == 0 or ball.rad() <= abs(ball.mid()) * tolerance):
                    man, exp = ball.mid().man_exp()
                    settled[i] = (int(man), int(exp))
                else:
                    left.append(i)
            pending = left
    counts["arb"] = sum(1 for v in settled if v is not None)
    out = []
    mp_fn = None
    for i, a in enumerate(exact):
        if settled[i] is None:   # a ball that does not settle: the mpmath route, 20 guard digits
            with mpmath.workdps(dps + 20):
                mp_fn = mp_fn or f.mp_function()
                settled[i] = mp_fn(mpmath.mpf(a.p) / a.q)
            counts["mpmath"] += 1
    with mpmath.workdps(dps):   # each value rounded once, to dps digits (and printing them)
        out = [with_digits(mpmath.mpf(v) if isinstance(v, tuple) else v, dps) for v in settled]
    if stats is not None:
        stats.update(counts)
    return out

