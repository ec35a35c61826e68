r"""mpmath evaluation of SymPy expressions at the caller's precision.

:func:`mp_callable` turns an expression into an mpmath function of its variables with
``lambdify``; :math:`\Phi` is ``mpmath.ncdf`` and :math:`\Phi^{-1}` is
:func:`symdp.core.special.mp_phi_inv`.  Rational constants print as ``mpf(p)/mpf(q)`` and
are built at call time, so the function computes at the caller's ``mpmath.workdps``.

Objects with numerics of their own compile themselves: a node with a method
``_mpmath_compile_(compiler)`` returns ``(function, arguments)``, an mpmath function and the
sub-expressions it is applied to; the node is replaced by that call.  The compiler
(:data:`COMPILER`) offers the generic pieces such a hook needs (:meth:`MpCompiler.deferred`,
:meth:`MpCompiler.decreasing_inverse`), so this module knows no trade-off objects.
(The hook is not called ``_mpmath_``: that name is mpmath's own conversion protocol.)
An expression that still holds a node that is neither an expression nor a condition
(a trade-off object inside an unevaluated conjugate, say) is evaluated by ``evalf``.
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp
from sympy.logic.boolalg import Boolean

from ..core.special import mp_phi, mp_phi_inv
from .roots import decreasing_inverse, golden_max

__all__ = ["MPMATH_NAMESPACE", "COMPILER", "MpCompiler", "mp_callable", "to_mpf"]


def _mp_max(*args):
    return max(args)


def _mp_min(*args):
    return min(args)


MPMATH_NAMESPACE = {"Phi": mp_phi, "PhiInv": mp_phi_inv, "Max": _mp_max, "Min": _mp_min}


class MpCompiler:
    """What an ``_mpmath_compile_`` hook may use: lazily compiled functions and inverses."""

    @staticmethod
    def callable(variables: tuple, expr: sp.Expr):
        """``expr`` as an mpmath function of ``variables`` (:func:`mp_callable`)."""
        return mp_callable(variables, expr)

    @staticmethod
    def deferred(make_function):
        """``x -> make_function()(x)``, with ``make_function`` called once, on first use
        (compiling an object's function only when a value is asked for)."""
        @functools.lru_cache(maxsize=1)
        def compiled():
            return make_function()

        def value(x):
            return compiled()(x)
        return value

    @staticmethod
    def decreasing_inverse(make_function):
        r"""``a -> inf{t in [0, 1] : f(t) <= a}`` (Dong, Roth, Su 2022, Eq. 4) for the
        non-increasing ``f = make_function()`` (compiled on first use), by
        :func:`symdp.numeric.roots.decreasing_inverse` at 10 guard digits, rounded to the
        caller's precision."""
        @functools.lru_cache(maxsize=1)
        def compiled():
            return make_function()

        def value(a):
            with mpmath.extradps(10):
                t = decreasing_inverse(compiled(), a)
            return +t
        return value


    @staticmethod
    def conjugate(make_function):
        r"""``y -> sup_{0 <= x <= 1} (x y - f(x))`` for the convex ``f = make_function()``
        (compiled on first use): golden-section search on the concave objective
        (:func:`symdp.numeric.roots.golden_max`) at 10 guard digits, rounded to the caller's
        precision -- the definition of the convex conjugate, not a closed form."""
        @functools.lru_cache(maxsize=1)
        def compiled():
            return make_function()

        def value(y):
            f = compiled()
            with mpmath.extradps(10):
                top = golden_max(lambda x: x * y - f(x), 0, 1)
            return +top
        return value


#: the compiler handed to ``_mpmath_compile_`` hooks
COMPILER = MpCompiler()


def _opaque(node) -> bool:
    """A node lambdify cannot print: neither an expression, nor a condition, nor a tuple
    (a Piecewise's (expression, condition) pairs are tuples)."""
    return isinstance(node, sp.Basic) and not isinstance(node, (sp.Expr, Boolean, sp.Tuple))


@functools.lru_cache(maxsize=512)
def mp_callable(variables: tuple, expr: sp.Expr):
    """``expr`` as an mpmath function of ``variables``, computing at the caller's precision.

    Nodes with an ``_mpmath_compile_`` hook become calls of the function it returns;
    anything else that lambdify cannot print goes through ``evalf`` (5 guard digits).
    """
    namespace = dict(MPMATH_NAMESPACE)
    replacements = {}
    hooked = {node for node in sp.preorder_traversal(expr)
              if getattr(node, "_mpmath_compile_", None) is not None}
    for k, node in enumerate(sorted(hooked, key=sp.default_sort_key)):
        function, arguments = node._mpmath_compile_(COMPILER)
        name = f"_{type(node).__name__}_{k}"
        namespace[name] = function
        replacements[node] = sp.Function(name)(*arguments)
    compiled = expr.xreplace(replacements)
    if any(_opaque(node) for node in sp.preorder_traversal(compiled)):
        def via_evalf(*values):
            prec = mpmath.mp.prec
            sub = {v: sp.Float(mpmath.mpf(x), mpmath.mp.dps + 5) for v, x in zip(variables, values)}
            value = sp.N(expr.xreplace(sub), mpmath.mp.dps + 5)
            return mpmath.mpf(value._to_mpmath(prec + 10))
        return via_evalf
    return sp.lambdify(variables, compiled, modules=[namespace, "mpmath"])


def to_mpf(value) -> mpmath.mpf:
    """An exact SymPy number or a Python number as an mpf at the current precision."""
    if isinstance(value, mpmath.mpf):
        return +value
    if isinstance(value, sp.Basic):
        if value.is_Rational:
            return mpmath.mpf(int(value.p)) / int(value.q)
        return mpmath.mpf(sp.N(value, mpmath.mp.dps + 10)._to_mpmath(mpmath.mp.prec + 30))
    if isinstance(value, str):
        return mpmath.mpf(value)
    return mpmath.mpf(value)
