"""mpmath evaluation of closed forms, scoped precision, and bracketed root-finding."""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from ..core.errors import RootFindingError
from ..core.special import mp_phi, mp_phi_inv


def _mp_max(*args):
    return max(args)


def _mp_min(*args):
    return min(args)


MPMATH_NAMESPACE = {"Phi": mp_phi, "PhiInv": mp_phi_inv, "Max": _mp_max, "Min": _mp_min}


@functools.lru_cache(maxsize=512)
def mp_callable(variables: tuple, expr: sp.Expr):
    """``expr`` as an mpmath function of ``variables``.

    Rational constants print as ``mpf(p)/mpf(q)`` and are built at call time,
    so the function computes at the caller's ``mpmath.workdps`` precision.
    Objects with their own numerics are compiled too: an implicit inverse
    ``InverseAt(f, a)`` calls :func:`decreasing_inverse` on f's compiled function
    (10 guard digits), ``TradeOffAt(f, x)`` calls f's compiled function; anything
    else that lambdify cannot print goes through ``evalf``.
    """
    from .base import InverseAt, TradeOff, TradeOffAt

    namespace = dict(MPMATH_NAMESPACE)
    replacements = {}
    for k, node in enumerate(sorted(expr.atoms(InverseAt, TradeOffAt), key=sp.default_sort_key)):
        f, arg = node.args
        name = f"_{type(node).__name__}_{k}"
        namespace[name] = _inverse_of(f) if isinstance(node, InverseAt) else _function_of(f)
        replacements[node] = sp.Function(name)(arg)
    compiled = expr.xreplace(replacements)
    if any(isinstance(node, TradeOff) for node in sp.preorder_traversal(compiled)):
        def via_evalf(*values):
            prec = mpmath.mp.prec
            sub = {v: sp.Float(mpmath.mpf(x), mpmath.mp.dps + 5) for v, x in zip(variables, values)}
            value = sp.N(expr.xreplace(sub), mpmath.mp.dps + 5)
            return mpmath.mpf(value._to_mpmath(prec + 10))
        return via_evalf
    return sp.lambdify(variables, compiled, modules=[namespace, "mpmath"])


def _function_of(f):
    """``x -> f(x)`` at the caller's precision, compiled on first use."""
    @functools.lru_cache(maxsize=1)
    def compiled():
        return f.mp_function()

    def value(x):
        return compiled()(x)
    return value


def _inverse_of(f):
    r"""``a -> f^{-1}(a)`` (Eq. 4) by :func:`decreasing_inverse` on f's compiled function,
    at 10 guard digits, rounded to the caller's precision."""
    @functools.lru_cache(maxsize=1)
    def compiled():
        return f.mp_function()

    def value(a):
        with mpmath.extradps(10):
            t = decreasing_inverse(compiled(), a)
        return +t
    return value


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


def decreasing_inverse(func, a, *, lo=0, hi=1, tol=None):
    r"""``inf{t in [lo, hi] : func(t) <= a}`` for a non-increasing ``func``.

    Bracketed: Anderson–Björck on ``func(t) - a`` when ``func(lo) > a > func(hi)``,
    checked against the tolerance, with bisection as the fallback that always
    converges.  Raises :class:`RootFindingError` with the residual when neither
    reaches ``tol`` (default: ``10**(-dps + 3)``).
    """
    a = mpmath.mpf(a)
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    tol = tol if tol is not None else mpmath.mpf(10) ** (-mpmath.mp.dps + 3)
    f_lo = func(lo)
    if f_lo <= a:
        return lo
    f_hi = func(hi)
    if f_hi > a:
        raise RootFindingError(
            f"no t in [{lo}, {hi}] with f(t) <= {mpmath.nstr(a, 10)}; f({hi}) = {mpmath.nstr(f_hi, 10)}",
            residual=f_hi - a, tolerance=tol)
    if f_hi < a:  # strictly inside: the root is unique for a trade-off function
        try:
            with mpmath.extraprec(20):
                t = mpmath.findroot(lambda s: func(s) - a, (lo, hi), solver="anderson",
                                    tol=tol ** 2, maxsteps=200)
            if lo <= t <= hi and abs(func(t) - a) <= tol:
                return +t
        except (ZeroDivisionError, ValueError):
            pass
    # bisection on the predicate func(t) <= a (also finds the start of a flat zero piece)
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if func(mid) <= a:
            hi = mid
        else:
            lo = mid
        if hi - lo <= tol * tol:
            break
    residual = func(hi) - a
    if abs(residual) > tol and not (a == 0 and residual <= 0):
        # a is not attained: f jumps (cannot happen for a continuous f) -- say so
        if hi - lo > tol:
            raise RootFindingError(f"bisection did not converge: interval width {mpmath.nstr(hi - lo, 5)}",
                                   residual=residual, tolerance=tol)
    return +hi


def golden_max(objective, a, b):
    """Max of a concave function on [a, b] at the current precision.

    Golden-section search until the bracket is narrower than 2^-(prec+4) in
    absolute terms: full precision also when the maximiser is a kink, where the
    objective is not flat and its value is only as accurate as the bracket is narrow.
    """
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    invphi = (mpmath.sqrt(5) - 1) / 2
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = objective(c), objective(d)
    steps = int(mpmath.ceil(mpmath.log((b - a) * mpmath.mpf(2) ** (mpmath.mp.prec + 4))
                            / mpmath.log(1 / invphi))) + 2
    for _ in range(steps):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = objective(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = objective(d)
    return max(fc, fd, objective(a), objective(b))


class ValueByDefinitionAt(sp.Expr):
    """``f(x)`` kept unevaluated for an ``f`` with no closed form (an envelope, a supremum):
    ``evalf`` calls ``f.evaluate`` at the point (exactly when the point is rational) with
    5 guard digits.  Subclasses print it."""

    is_commutative = True

    def _eval_is_real(self):
        return True

    def _eval_evalf(self, prec):
        x = self.args[1].evalf(prec)
        if not x.is_Number:
            return None
        dps = mpmath.libmp.prec_to_dps(prec)
        point = self.args[1] if self.args[1].is_Rational else x
        return sp.Float(self.args[0].evaluate(point, dps=dps + 5), dps + 5)
