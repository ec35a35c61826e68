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
* any node with an ``_arb_compile_(compiler)`` method: the node compiles itself with
  the :class:`BallCompiler` it is given (a trade-off value ``f(x)`` through its closed
  form; an implicit inverse through :meth:`BallCompiler.decreasing_inverse`, certified
  root isolation by :mod:`symdp.numeric.ball_inverse`; a convex conjugate from its
  definition, the supremum, through :meth:`BallCompiler.conjugate`).  The evaluator knows no
  trade-off objects: the objects know the evaluator (a layer above calls down).

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
from .ball_inverse import enclose_conjugate, isolate_decreasing_root
from .ball_ops import (all_of, any_of, ball_abs, ball_prod, ball_sqrt, ball_sum, compare,
                      falling_over_factorial, fold, int_power, monotone_image, mul, negation, phi,
                      phi_inv, real_power, reciprocal)
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
    Phi: (phi, +1),
    PhiInv: (phi_inv, +1),
}


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


class BallCompiler:
    """Compiles SymPy expressions over ``symbols`` to ball functions ``env -> ball``.

    Calling it on an expression gives the (cached) ball function; an object with an
    ``_arb_compile_(compiler)`` method is compiled by that method, which may call back
    into the compiler (``compiler(sub_expression)``, :meth:`decreasing_inverse`).
    """

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
            return lambda env: ball_sum(f(env) for f in parts)
        if e.is_Mul:
            parts = [self(a) for a in e.args]
            if len(parts) == 2:
                first, second = parts
                return lambda env: mul(first(env), second(env))
            return lambda env: ball_prod(f(env) for f in parts)
        if e.is_Pow:
            return self.power(e)
        hook = getattr(e, "_arb_compile_", None)
        if hook is not None:  # an object that compiles itself (a trade-off value, an inverse)
            return hook(self)
        if isinstance(e, sp.Piecewise):
            return self.piecewise(e)
        if e.func in _MONOTONE and len(e.args) == 1:
            fn, _ = _MONOTONE[e.func]
            inner = self(e.args[0])
            return lambda env: monotone_image(fn, inner(env))
        if isinstance(e, sp.Abs):
            inner = self(e.args[0])
            return lambda env: ball_abs(inner(env))
        if isinstance(e, (sp.Max, sp.Min)):
            parts = [self(a) for a in e.args]
            pick = "max" if isinstance(e, sp.Max) else "min"
            return lambda env: fold(pick, [f(env) for f in parts])
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
            return lambda env: ball_sqrt(inner(env))
        if exponent == -sp.S.Half:
            inner = self(base)
            return lambda env: reciprocal(ball_sqrt(inner(env)))
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
            return lambda env: falling_over_factorial(top(env), k)
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

    def _function_in(self, node, function_of):
        """``(t, inner, g)``: a fresh symbol t, a compiler that also knows t, and the ball
        function of f's expression ``function_of(t)``; ``node`` names the object in an
        :class:`UnsupportedExpression`."""
        t = sp.Dummy("t", real=True)
        inner = BallCompiler(set(self.symbols) | {t})
        try:
            g = inner(function_of(t))
        except UnsupportedExpression:
            raise
        except Exception as exc:  # noqa: BLE001 - a function without a closed form in t
            raise UnsupportedExpression(node, f"no closed form of the function: {type(exc).__name__}")
        return t, inner, g

    def decreasing_inverse(self, node, function_of, level) -> BallFn:
        r"""Ball function of :math:`\inf\{t \in [0,1] : f(t) \le a\}` for a non-increasing f.

        ``function_of(t)`` is f's expression in a symbol t, ``level`` the expression of a;
        ``node`` names the object in an :class:`UnsupportedExpression`.  The bracket is
        certified by :func:`~symdp.numeric.ball_inverse.isolate_decreasing_root`.
        """
        t, inner, g = self._function_in(node, function_of)
        a_fn = self(level)

        def evaluate(env):
            a = a_fn(env)
            if not a.is_finite():
                return arb.nan()
            base = {k: v for k, v in env.items() if k is not MEMO}
            return isolate_decreasing_root(lambda s: g({**base, t: s, MEMO: {}}), a)

        return evaluate

    def conjugate(self, node, function_of, level) -> BallFn:
        r"""Ball function of :math:`f^*(y) = \sup_{0 \le x \le 1}(x y - f(x))` from the
        definition (:func:`~symdp.numeric.ball_inverse.enclose_conjugate`, branch and bound
        over [0, 1]), never a closed form of the conjugate: ``function_of(t)`` is f's
        expression in a symbol t, ``level`` the expression of y."""
        t, inner, g = self._function_in(node, function_of)
        try:   # f' for the centred form (a derivative SymPy or the compiler lacks: without)
            dg = inner(sp.diff(function_of(t), t))
        except Exception:  # noqa: BLE001 - the plain interval bound alone is still valid
            dg = None
        y_fn = self(level)

        def evaluate(env):
            base = {k: v for k, v in env.items() if k is not MEMO}
            slope = (lambda s: dg({**base, t: s, MEMO: {}})) if dg is not None else None
            return enclose_conjugate(lambda s: g({**base, t: s, MEMO: {}}), y_fn(env),
                                     dg=slope)

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
            return lambda env: all_of([f(env) for f in parts])
        if isinstance(c, sp.Or):
            parts = [self.condition(a) for a in c.args]
            return lambda env: any_of([f(env) for f in parts])
        if isinstance(c, sp.Not):
            inner = self.condition(c.args[0])
            return lambda env: negation(inner(env))
        if isinstance(c, sp.core.relational.Relational):
            left, right = self(c.lhs), self(c.rhs)
            op = c.rel_op
            return lambda env: compare(left(env), op, right(env))
        raise UnsupportedExpression(c, "condition")


class BallFunction:
    """A compiled expression: ``f(env)`` is a ball containing ``expr`` on the balls of env.

    ``variables`` are the symbols the expression may contain; any other symbol
    (or any unsupported node) raises :class:`UnsupportedExpression` at
    construction, before any evaluation.
    """

    def __init__(self, expr: sp.Basic, variables):
        self.expr = sp.sympify(expr)
        self.variables = tuple(variables)
        self._fn = BallCompiler(self.variables)(self.expr)

    def __call__(self, env: dict):
        env = dict(env)
        env[MEMO] = {}
        return self._fn(env)


class BallCondition:
    """A compiled condition: True / False when certified on the balls of env, else None."""

    def __init__(self, cond, variables):
        self.cond = cond
        self._fn = BallCompiler(tuple(variables)).condition(cond)

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
