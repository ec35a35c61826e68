r"""A certified evaluator: SymPy expressions to ``flint.arb`` balls.

:func:`compile_ball` turns an expression into a function of a dict
``{Symbol: ball}`` whose value is a ball containing the expression's value at
*every* point of the argument balls (the inclusion property of interval
arithmetic; Johansson, Arb, IEEE Trans. Computers 66(8), 2017).  Supported:

* numbers (exact rationals, SymPy Floats by their binary value, :math:`\pi`, e),
  ``+``, ``*``, powers (integer powers and square roots tight on wide balls,
  :math:`x^y = e^{y\log x}` otherwise, by its monotonicity in each argument);
* ``exp``, ``log``, ``log1p``, ``expm1`` (``sympy.codegen.cfunctions``), ``sqrt``,
  ``erf``, ``erfc``, ``erfinv``, ``erfcinv``, and :math:`\Phi`, :math:`\Phi^{-1}`
  of :mod:`symdp.core.special`:

  .. math::
      \Phi(z) = \tfrac12\operatorname{erfc}(-z/\sqrt2),\qquad
      \Phi^{-1}(a) = -\sqrt2\,\operatorname{erfc}^{-1}(2a),

  each evaluated at the two endpoints of a wide ball (they are monotone), so an
  enclosure is not inflated by Arb's first-order error bound;
* ``Abs``, ``Max``, ``Min``, ``binomial``, ``factorial``, ``gamma``;
* ``Piecewise``: conditions are decided with certified comparisons; a ball
  straddling a condition takes the union of the branches it may reach;
* :class:`~symdp.tradeoff.base.TradeOffAt` and ``ConjugateAt`` (through their
  closed forms, ``doit()``) and :class:`~symdp.tradeoff.base.InverseAt`
  (certified root isolation, :mod:`symdp.numeric.ball_inverse`).

Anything else raises :class:`UnsupportedExpression` naming the node -- never a
silent float fallback.  A ball that is not finite (a pole, a domain edge such
as ``log`` at a ball reaching 0) is returned as it is: callers treat a
non-finite ball as "does not decide".
"""

from __future__ import annotations

from typing import Callable

import sympy as sp
from sympy.codegen.cfunctions import expm1 as sp_expm1
from sympy.codegen.cfunctions import log1p as sp_log1p

from ..core.errors import SymdpError
from ..core.special import Phi, PhiInv
from .balls import arb, from_float, from_rational, hull

BallFn = Callable[[dict], "arb"]


class UnsupportedExpression(SymdpError, TypeError):
    """The certified evaluator does not support a node of the expression.

    ``node`` is the SymPy node (its class name is in the message), so that a
    report can say *what* kept a step from being certified.
    """

    def __init__(self, node, reason: str = ""):
        self.node = node
        name = type(node).__name__
        text = f"unsupported {name}" + (f" ({reason})" if reason else "")
        super().__init__(text)
        self.name = name


# ------------------------------------------------------------------ monotone functions

_SQRT2: dict = {}


def _sqrt2():
    """sqrt(2) at the working precision (computed once per precision)."""
    import flint

    prec = flint.ctx.prec
    try:
        return _SQRT2[prec]
    except KeyError:
        value = _SQRT2[prec] = arb(2).sqrt()
        return value


def _phi(z):
    return (-z / _sqrt2()).erfc() / 2


def _phi_inv(a):
    return -_sqrt2() * (2 * a).erfcinv()


#: unary functions, with +1 for non-decreasing and -1 for non-increasing on their domain
_MONOTONE = {
    sp.exp: (lambda x: x.exp(), +1),
    sp.log: (lambda x: x.log(), +1),
    sp_log1p: (lambda x: x.log1p(), +1),
    sp_expm1: (lambda x: x.expm1(), +1),
    sp.erf: (lambda x: x.erf(), +1),
    sp.erfc: (lambda x: x.erfc(), -1),
    sp.erfinv: (lambda x: x.erfinv(), +1),
    sp.erfcinv: (lambda x: x.erfcinv(), -1),
    sp.atan: (lambda x: x.atan(), +1),
    sp.tanh: (lambda x: x.tanh(), +1),
    sp.sinh: (lambda x: x.sinh(), +1),
    Phi: (_phi, +1),
    PhiInv: (_phi_inv, +1),
}


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
        return hull(*(_point_power(s, t) for s in (x.lower(), x.upper())
                      for t in (y.lower(), y.upper())))
    if x > 0:
        return (y * x.log()).exp()
    if y > 0:  # x = [0, b] straddling 1: 0 at s = 0, increasing in s
        b = x.upper()
        return hull(arb(0), _point_power(b, y.lower()), _point_power(b, y.upper()))
    return arb.nan()


def _point_power(s, t):
    if s == 0:
        if t > 0:
            return arb(0)
        return arb.nan()
    return (t * s.log()).exp()


# ------------------------------------------------------------------ compilation

#: the key of the per-evaluation memo in an env dict
MEMO = object()


def _memoised(fn, token):
    def evaluate(env):
        memo = env.get(MEMO)
        if memo is None:
            return fn(env)
        try:
            return memo[token]
        except KeyError:
            value = memo[token] = fn(env)
            return value

    return evaluate


def _constant(fn):
    import flint

    values: dict = {}

    def evaluate(env):
        prec = flint.ctx.prec
        try:
            return values[prec]
        except KeyError:
            value = values[prec] = fn(env)
            return value

    return evaluate


class _Compiler:
    def __init__(self, symbols):
        self.symbols = set(symbols)
        self.cache: dict = {}

    def __call__(self, e) -> BallFn:
        try:
            return self.cache[e]
        except KeyError:
            fn = self.compile(e)
            if not getattr(e, "free_symbols", True):
                # a constant (a rational, Phi(-1/2), a fixed point): its ball depends only on
                # the precision, so it is computed once per precision, not once per point
                fn = _constant(fn)
            elif e.args:  # shared sub-expressions are evaluated once per call (a DAG, not a tree)
                fn = _memoised(fn, len(self.cache))
            self.cache[e] = fn
            return fn

    # -------------------------------------------------------------- expressions
    def compile(self, e) -> BallFn:  # noqa: C901 - one dispatch, read top to bottom
        from ..tradeoff.base import ConjugateAt, InverseAt, TradeOffAt

        if isinstance(e, sp.Symbol):
            if e not in self.symbols:
                raise UnsupportedExpression(e, f"no value for the symbol {e.name}")
            return lambda env, s=e: env[s]
        if e.is_Rational:
            return lambda env, q=e: from_rational(q)
        if e.is_Float:
            return lambda env, f=e: from_float(f)
        if e is sp.pi:
            return lambda env: arb.pi()
        if e is sp.E:
            return lambda env: arb(1).exp()
        if e in (sp.oo, -sp.oo, sp.zoo, sp.nan) or e is sp.S.ComplexInfinity:
            raise UnsupportedExpression(e, "not a finite real number")
        if e.is_Add:
            parts = [self(a) for a in e.args]
            if len(parts) == 2:   # the common case, without a generator
                first, second = parts
                return lambda env: first(env) + second(env)
            return lambda env: _sum(f(env) for f in parts)
        if e.is_Mul:
            parts = [self(a) for a in e.args]
            if len(parts) == 2:
                first, second = parts
                return lambda env: mul(first(env), second(env))
            return lambda env: _prod(f(env) for f in parts)
        if e.is_Pow:
            return self.power(e)
        if isinstance(e, (TradeOffAt, ConjugateAt)):
            return self(e.doit())
        if isinstance(e, InverseAt):
            from .ball_inverse import compile_inverse

            return compile_inverse(e, self)
        if isinstance(e, sp.Piecewise):
            return self.piecewise(e)
        if e.func in _MONOTONE and len(e.args) == 1:
            fn, _ = _MONOTONE[e.func]
            inner = self(e.args[0])
            return lambda env: monotone_image(fn, inner(env))
        if isinstance(e, sp.Abs):
            inner = self(e.args[0])
            return lambda env: _abs(inner(env))
        if isinstance(e, (sp.Max, sp.Min)):
            parts = [self(a) for a in e.args]
            pick = "max" if isinstance(e, sp.Max) else "min"
            return lambda env: _fold(pick, [f(env) for f in parts])
        if isinstance(e, sp.cosh):
            # cosh u = (e^u + e^-u)/2: each exp monotone, so the enclosure is as tight as theirs
            a = e.args[0]
            return self((sp.exp(a) + sp.exp(-a)) / 2)
        if isinstance(e, sp.binomial):
            return self.binomial(e)
        if isinstance(e, sp.factorial):
            inner = self(e.args[0])
            return lambda env: (inner(env) + 1).gamma()
        if isinstance(e, sp.gamma):
            inner = self(e.args[0])
            return lambda env: inner(env).gamma()
        raise UnsupportedExpression(e)

    def power(self, e) -> BallFn:
        base, exponent = e.args
        if exponent.is_Integer:
            n = int(exponent)
            if base is sp.E:
                return lambda env: arb(n).exp()
            inner = self(base)
            return lambda env: int_power(inner(env), n)
        if exponent == sp.S.Half:
            inner = self(base)
            return lambda env: _sqrt(inner(env))
        if exponent == -sp.S.Half:
            inner = self(base)
            return lambda env: reciprocal(_sqrt(inner(env)))
        if base is sp.E:
            inner = self(exponent)
            return lambda env: monotone_image(lambda x: x.exp(), inner(env))
        b, x = self(base), self(exponent)
        return lambda env: real_power(b(env), x(env))

    def binomial(self, e) -> BallFn:
        n_expr, k_expr = e.args
        top = self(n_expr)
        if k_expr.is_Integer and k_expr >= 0:
            k = int(k_expr)
            return lambda env: _falling_over_factorial(top(env), k)
        low = self(k_expr)

        def via_gamma(env):  # C(n, k) = Gamma(n + 1) / (Gamma(k + 1) Gamma(n - k + 1))
            nn, kk = top(env), low(env)
            return (nn + 1).gamma() * (kk + 1).rgamma() * (nn - kk + 1).rgamma()

        return via_gamma

    def piecewise(self, e) -> BallFn:
        branches = [(self(expr), self.condition(cond)) for expr, cond in e.args]

        def evaluate(env):
            reached = []
            for value, cond in branches:
                decided = cond(env)
                if decided is False:
                    continue
                reached.append(value(env))
                if decided is True:
                    return hull(*reached)
            # no condition is certainly true: the Piecewise may be undefined here
            return arb.nan()

        return evaluate

    # -------------------------------------------------------------- conditions
    def condition(self, c) -> Callable[[dict], "bool | None"]:
        """A condition as a function of the balls: True / False (certified) or None."""
        if c is sp.true or c is True:
            return lambda env: True
        if c is sp.false or c is False:
            return lambda env: False
        if isinstance(c, sp.And):
            parts = [self.condition(a) for a in c.args]
            return lambda env: _and([f(env) for f in parts])
        if isinstance(c, sp.Or):
            parts = [self.condition(a) for a in c.args]
            return lambda env: _or([f(env) for f in parts])
        if isinstance(c, sp.Not):
            inner = self.condition(c.args[0])
            return lambda env: _not(inner(env))
        if isinstance(c, sp.core.relational.Relational):
            left, right = self(c.lhs), self(c.rhs)
            op = c.rel_op
            return lambda env: compare(left(env), op, right(env))
        raise UnsupportedExpression(c, "condition")


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


def _and(values):
    if any(v is False for v in values):
        return False
    return True if all(v is True for v in values) else None


def _or(values):
    if any(v is True for v in values):
        return True
    return False if all(v is False for v in values) else None


def _not(v):
    return None if v is None else not v


def _sum(values):
    total = arb(0)
    for v in values:
        total = total + v
    return total


def _prod(values):
    total = arb(1)
    for v in values:
        total = mul(total, v)
    return total


def _wide(x) -> bool:
    """A ball whose radius is more than about 2^-20 of its magnitude."""
    return x.rad() != 0 and x.is_finite() and x.rel_accuracy_bits() < 20


def mul(x, y):
    r"""``x y``; when a ball is wide, the hull of the corner products, which is the
    exact range :math:`[\min, \max]\{ab\}` (midpoint-radius multiplication adds
    :math:`r_x r_y` and centres the result)."""
    if _wide(x) or _wide(y):
        xs, ys = (x.lower(), x.upper()), (y.lower(), y.upper())
        return hull(*(a * b for a in xs for b in ys))
    return x * y


def reciprocal(x):
    """``1/x``, through the endpoints when x is wide (1/t is monotone off 0)."""
    if _wide(x) and (x > 0 or x < 0):
        return hull(1 / x.lower(), 1 / x.upper())
    return 1 / x


def _abs(x):
    if x >= 0:
        return x
    if x <= 0:
        return -x
    if not x.is_finite():
        return arb.nan()
    return hull(arb(0), (-x.lower()).max(x.upper()))


def _sqrt(x):
    if not (x >= 0):
        return arb.nan()
    return monotone_image(lambda t: t.sqrt(), x)


def _fold(pick, values):
    out = values[0]
    for v in values[1:]:
        out = out.max(v) if pick == "max" else out.min(v)
    return out


def _falling_over_factorial(n, k: int):
    """``C(n, k) = n (n-1) ... (n-k+1) / k!`` for an integer ``k >= 0`` and a ball n."""
    value = arb(1)
    for i in range(k):
        value = value * (n - i)
    return value / arb.fac_ui(k)


class BallFunction:
    """A compiled expression: ``f(env)`` is a ball containing ``expr`` on the balls of env.

    ``variables`` are the symbols the expression may contain; any other symbol
    (or any unsupported node) raises :class:`UnsupportedExpression` at
    construction, before any evaluation.
    """

    def __init__(self, expr: sp.Basic, variables):
        self.expr = sp.sympify(expr)
        self.variables = tuple(variables)
        self._fn = _Compiler(self.variables)(self.expr)

    def __call__(self, env: dict):
        env = dict(env)
        env[MEMO] = {}
        return self._fn(env)


class BallCondition:
    """A compiled condition: True / False when certified on the balls of env, else None."""

    def __init__(self, cond, variables):
        self.cond = cond
        self._fn = _Compiler(tuple(variables)).condition(cond)

    def __call__(self, env: dict):
        env = dict(env)
        env[MEMO] = {}
        return self._fn(env)


def compile_ball(expr, variables) -> BallFunction:
    """Compile ``expr`` for ball evaluation; raise :class:`UnsupportedExpression` if it cannot."""
    return BallFunction(expr, variables)


def evaluate_ball(expr, values: dict, bits: int = 200):
    """``expr`` at exact values ``{Symbol: number}`` as a ball at ``bits`` of precision."""
    from .balls import point_ball, working_bits

    fn = compile_ball(expr, tuple(values))
    with working_bits(bits):
        env = {s: point_ball(v) for s, v in values.items()}
        return fn(env)
