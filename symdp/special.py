r"""The standard normal CDF :math:`\Phi` and its inverse as SymPy functions.

SymPy has ``erf``/``erfc`` but no :math:`\Phi`; papers write :math:`\Phi`, so
symdp keeps it as a function of its own that prints as ``\Phi`` and rewrites to
``erfc`` for simplification:

.. math::
    \Phi(z) = \tfrac12 \operatorname{erfc}(-z/\sqrt2),\qquad
    \Phi^{-1}(a) = -\sqrt2\,\operatorname{erfc}^{-1}(2a).

Numerical evaluation goes through mpmath with ``erfc`` (no cancellation in
either tail); :math:`\Phi^{-1}` of a tiny argument is evaluated as
:math:`-\sqrt2\,\operatorname{erfinv}(1-2a)` at a working precision raised by
the number of digits lost in ``1 - 2a``, then polished by Newton's method on
:math:`\Phi`.
"""

from __future__ import annotations

import mpmath
import sympy as sp
from sympy.core.function import ArgumentIndexError


def mp_phi(z):
    """Standard normal CDF at the current mpmath precision (erfc in both tails)."""
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


def mp_phi_inv(a):
    """Inverse standard normal CDF at the current mpmath precision.

    ``a`` must be in [0, 1]; 0 and 1 give -inf and +inf.
    """
    a = mpmath.mpf(a)
    if a <= 0:
        if a == 0:
            return mpmath.mpf("-inf")
        raise ValueError(f"Phi^-1 needs an argument in [0, 1]; got {a}")
    if a >= 1:
        if a == 1:
            return mpmath.mpf("inf")
        raise ValueError(f"Phi^-1 needs an argument in [0, 1]; got {a}")
    if a > 0.5:
        return -mp_phi_inv(1 - a)
    # a <= 1/2: lose ~log10(1/a) digits forming 1 - 2a; work with that many more
    extra = int(-mpmath.log10(a)) + 10 if a < 0.1 else 10
    with mpmath.extradps(extra):
        z = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a)
        # Newton polish on Phi(z) = a, relative residual
        for _ in range(3):
            r = mp_phi(z) - a
            z -= r / mpmath.npdf(z)
    return +z


class Phi(sp.Function):
    r"""Standard normal CDF :math:`\Phi(z)`."""

    nargs = 1

    @classmethod
    def eval(cls, z):
        if z is sp.S.Zero:
            return sp.S.Half
        if z is sp.S.Infinity:
            return sp.S.One
        if z is sp.S.NegativeInfinity:
            return sp.S.Zero
        if isinstance(z, PhiInv):
            return z.args[0]
        return None

    def fdiff(self, argindex=1):
        if argindex != 1:
            raise ArgumentIndexError(self, argindex)
        z = self.args[0]
        return sp.exp(-z ** 2 / 2) / sp.sqrt(2 * sp.pi)

    def _eval_is_real(self):
        return self.args[0].is_extended_real

    def _eval_is_positive(self):
        if self.args[0].is_extended_real and self.args[0].is_finite:
            return True
        return None

    def _eval_rewrite_as_erfc(self, z, **kwargs):
        return sp.erfc(-z / sp.sqrt(2)) / 2

    def _eval_rewrite_as_erf(self, z, **kwargs):
        return (1 + sp.erf(z / sp.sqrt(2))) / 2

    def _eval_evalf(self, prec):
        z = self.args[0]._eval_evalf(prec)
        if z is None or not z.is_Number:
            return None
        with mpmath.workprec(prec + 20):
            value = mp_phi(mpmath.mpf(z._to_mpmath(prec + 20)))
        return sp.Float._new(value._mpf_, prec)

    def _latex(self, printer, exp=None):
        body = r"\Phi\left(%s\right)" % printer._print(self.args[0])
        return body if exp is None else r"%s^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "Phi(%s)" % printer._print(self.args[0])


class PhiInv(sp.Function):
    r"""Inverse standard normal CDF :math:`\Phi^{-1}(a)`, for a in [0, 1]."""

    nargs = 1

    @classmethod
    def eval(cls, a):
        if a is sp.S.Half:
            return sp.S.Zero
        if a is sp.S.One:
            return sp.S.Infinity
        if a is sp.S.Zero:
            return sp.S.NegativeInfinity
        if isinstance(a, Phi) and a.args[0].is_extended_real:
            return a.args[0]
        return None

    def fdiff(self, argindex=1):
        if argindex != 1:
            raise ArgumentIndexError(self, argindex)
        return sp.sqrt(2 * sp.pi) * sp.exp(self ** 2 / 2)

    def _eval_is_real(self):
        a = self.args[0]
        if a.is_positive and (1 - a).is_positive:
            return True
        return None

    def _eval_rewrite_as_erfc(self, a, **kwargs):
        return -sp.sqrt(2) * sp.erfcinv(2 * a)

    def _eval_rewrite_as_erf(self, a, **kwargs):
        return sp.sqrt(2) * sp.erfinv(2 * a - 1)

    def _eval_evalf(self, prec):
        a = self.args[0]._eval_evalf(prec)
        if a is None or not a.is_Number:
            return None
        if a < 0 or a > 1:
            return None  # outside the domain: stay unevaluated (SymPy's convention)
        with mpmath.workprec(prec + 20):
            value = mp_phi_inv(mpmath.mpf(a._to_mpmath(prec + 20)))
        if mpmath.isinf(value):
            return sp.oo if value > 0 else -sp.oo
        return sp.Float._new(value._mpf_, prec)

    def _latex(self, printer, exp=None):
        body = r"\Phi^{-1}\left(%s\right)" % printer._print(self.args[0])
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "PhiInv(%s)" % printer._print(self.args[0])


def to_erfc(expr: sp.Basic) -> sp.Basic:
    """Rewrite Phi and PhiInv in terms of erfc / erfcinv (for simplification)."""
    return expr.replace(lambda e: isinstance(e, (Phi, PhiInv)), lambda e: e.rewrite(sp.erfc))
