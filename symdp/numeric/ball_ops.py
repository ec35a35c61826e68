r"""Ball arithmetic with tight enclosures: the operations the ball compiler is built from.

Arb's midpoint-radius operations are correct on every ball but inflate wide balls (the
product of two wide balls gains :math:`r_x r_y`; a function of a wide ball gets a
first-order error bound).  The operations here use monotonicity instead: a monotone
function's image of an interval lies between the images of its endpoints, a product's
range is the hull of the four corner products, an integer power is monotone on each side
of 0 (Johansson, Arb, IEEE Trans. Computers 66(8), 2017, for the inclusion property they
preserve).  Comparisons are *certified*: True or False only when they hold for every pair
of points of the balls, None otherwise.
"""

from __future__ import annotations

from .balls import arb, hull

_SQRT2: dict = {}


def sqrt2():
    """sqrt(2) at the working precision (computed once per precision)."""
    import flint

    prec = flint.ctx.prec
    try:
        return _SQRT2[prec]
    except KeyError:
        value = _SQRT2[prec] = arb(2).sqrt()
        return value


def phi(z):
    r""":math:`\Phi(z) = \tfrac12\operatorname{erfc}(-z/\sqrt2)` on a ball."""
    return (-z / sqrt2()).erfc() / 2


def phi_inv(a):
    r""":math:`\Phi^{-1}(a) = -\sqrt2\,\operatorname{erfc}^{-1}(2a)` on a ball."""
    return -sqrt2() * (2 * a).erfcinv()


def monotone_image(fn, x):
    """``{fn(t) : t in x}`` enclosed through the endpoints of x (fn monotone on x).

    For a monotone function the image of an interval is the interval between
    the images of its endpoints; each endpoint is an exact point, so the result
    is as tight as Arb evaluates a point.  A narrow ball (a point converted to binary, the
    usual case at sample points) is passed to fn once: Arb's own enclosure of a narrow ball
    is as tight, and the two endpoint evaluations would double the cost.
    """
    if x.rad() == 0 or not x.is_finite() or x.rel_accuracy_bits() >= _NARROW_BITS:
        return fn(x)
    return hull(fn(x.lower()), fn(x.upper()))


#: a ball with at least this many bits of relative accuracy is evaluated as it is
_NARROW_BITS = 48


def int_power(x, n: int):
    r"""``{t^n : t in x}`` for an integer n, tight on wide balls.

    Even n: :math:`[\min|t|^n, \max|t|^n]` (0 when x contains 0); odd n: monotone.
    Negative n: the reciprocal of the positive power (not finite if x contains 0).
    """
    if n == 0:
        return arb(1)
    if n < 0:
        return reciprocal(int_power(x, -n))
    if x.rad() == 0 or not x.is_finite():
        return x ** n
    lo, hi = x.lower(), x.upper()
    if n % 2 == 1:
        return hull(lo ** n, hi ** n)
    if lo >= 0:
        return hull(lo ** n, hi ** n)
    if hi <= 0:
        return hull(hi ** n, lo ** n)
    big = (-lo).max(hi)
    return hull(arb(0), big ** n)


def real_power(x, y):
    r""":math:`\{s^t : s \in x, t \in y\}` for :math:`s \ge 0`, via :math:`e^{t \log s}`.

    :math:`s^t` is monotone in s for fixed t (increasing for t > 0) and in t for
    fixed s (increasing for s > 1).  When neither direction changes over the
    box (y does not straddle 0, x does not straddle 1, or either is a point)
    the extremes sit at the four corners; :math:`0^t = 0` for t > 0.
    Otherwise Arb's own enclosure of :math:`e^{y \log x}` (maybe wide).
    """
    if not (x >= 0):
        return arb.nan()  # a base that may be negative, with a real exponent
    fixed_in_s = y.rad() == 0 or y > 0 or y < 0
    fixed_in_t = x.rad() == 0 or x >= 1 or x <= 1
    if fixed_in_s and fixed_in_t and (x > 0 or y > 0):
        return hull(*(point_power(s, t) for s in (x.lower(), x.upper())
                      for t in (y.lower(), y.upper())))
    if x > 0:
        return (y * x.log()).exp()
    if y > 0:  # x = [0, b] straddling 1: 0 at s = 0, increasing in s
        b = x.upper()
        return hull(arb(0), point_power(b, y.lower()), point_power(b, y.upper()))
    return arb.nan()


def point_power(s, t):
    if s == 0:
        if t > 0:
            return arb(0)
        return arb.nan()
    return (t * s.log()).exp()


def compare(x, op: str, y) -> bool | None:
    """``x op y`` for balls: True or False when certified for every pair of points, else None."""
    if not (x.is_finite() and y.is_finite()):
        return None
    if op in ("<", "<="):
        x, y, op = y, x, {"<": ">", "<=": ">="}[op]
    if op == ">":
        return True if x > y else False if x <= y else None
    if op == ">=":
        return True if x >= y else False if x < y else None
    if op == "==":
        if x.is_exact() and y.is_exact():
            return bool(x == y)
        return False if not x.overlaps(y) else None
    if op == "!=":
        inner = compare(x, "==", y)
        return None if inner is None else not inner
    raise ValueError(f"unknown relation {op}")


def all_of(values):
    if any(v is False for v in values):
        return False
    return True if all(v is True for v in values) else None


def any_of(values):
    if any(v is True for v in values):
        return True
    return False if all(v is False for v in values) else None


def negation(v):
    return None if v is None else not v


def ball_sum(values):
    total = arb(0)
    for v in values:
        total = total + v
    return total


def ball_prod(values):
    total = arb(1)
    for v in values:
        total = mul(total, v)
    return total


def is_wide(x) -> bool:
    """A ball whose radius is more than about 2^-20 of its magnitude."""
    return x.rad() != 0 and x.is_finite() and x.rel_accuracy_bits() < 20


def mul(x, y):
    r"""``x y``; when a ball is wide, the hull of the corner products, which is the
    exact range :math:`[\min, \max]\{ab\}` (midpoint-radius multiplication adds
    :math:`r_x r_y` and centres the result)."""
    if is_wide(x) or is_wide(y):
        xs, ys = (x.lower(), x.upper()), (y.lower(), y.upper())
        return hull(*(a * b for a in xs for b in ys))
    return x * y


def reciprocal(x):
    """``1/x``, through the endpoints when x is wide (1/t is monotone off 0)."""
    if is_wide(x) and (x > 0 or x < 0):
        return hull(1 / x.lower(), 1 / x.upper())
    return 1 / x


def ball_abs(x):
    if x >= 0:
        return x
    if x <= 0:
        return -x
    if not x.is_finite():
        return arb.nan()
    return hull(arb(0), (-x.lower()).max(x.upper()))


def ball_sqrt(x):
    if not (x >= 0):
        return arb.nan()
    return monotone_image(lambda t: t.sqrt(), x)


def fold(pick, values):
    out = values[0]
    for v in values[1:]:
        out = out.max(v) if pick == "max" else out.min(v)
    return out


def falling_over_factorial(n, k: int):
    """``C(n, k) = n (n-1) ... (n-k+1) / k!`` for an integer ``k >= 0`` and a ball n."""
    value = arb(1)
    for i in range(k):
        value = value * (n - i)
    return value / arb.fac_ui(k)
