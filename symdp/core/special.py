r"""The standard normal CDF :math:`\Phi` and its inverse as SymPy functions.

SymPy has ``erf``/``erfc`` but no :math:`\Phi`; papers write :math:`\Phi`, so
symdp keeps it as a function of its own that prints as ``\Phi`` and rewrites to
``erfc`` for simplification:

.. math::
    \Phi(z) = \tfrac12 \operatorname{erfc}(-z/\sqrt2),\qquad
    \Phi^{-1}(a) = -\sqrt2\,\operatorname{erfc}^{-1}(2a).

Numerical evaluation of :math:`\Phi` is ``mpmath.ncdf`` (``erfc`` in the lower tail: no
cancellation); :math:`\Phi^{-1}(a)` solves :math:`\Phi(z) = a` by Halley's method
from a double-precision start (Newton's method on :math:`\log\Phi` below
``1e-300``), with :math:`-\sqrt2\,\operatorname{erfinv}(1-2a)` at raised precision
as the fallback (see :func:`mp_phi_inv`).
"""

from __future__ import annotations

import statistics

import mpmath
import sympy as sp
from sympy.core.function import ArgumentIndexError


#: Standard normal CDF at the current mpmath precision: mpmath's own ``ncdf``
#: (``erfc(-z/sqrt 2)/2`` below 0, so the lower tail keeps its relative accuracy)
mp_phi = mpmath.ncdf


def mp_phi_inv(a):
    """Inverse standard normal CDF at the current mpmath precision.

    ``a`` must be in [0, 1]; 0 and 1 give -inf and +inf.  A double-precision start
    (Wichura's AS 241, ``statistics.NormalDist.inv_cdf``) is polished by Halley's
    method on :math:`\\Phi(z) = a`, which triples the correct digits per step
    (:func:`_halley_polish`); below ``1e-300`` (no double start) Newton's method on
    :math:`\\log\\Phi(z) = \\log a` from the tail asymptotics
    (:func:`_newton_in_log_space`); the erfinv route (:func:`_phi_inv_by_erfinv`)
    only if neither settles.
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
    if a >= _SMALLEST_DOUBLE_START:
        z = _halley_polish(a, _STANDARD_NORMAL.inv_cdf(float(a)))
    else:
        z = _newton_in_log_space(a)
    return z if z is not None else _phi_inv_by_erfinv(a)


_STANDARD_NORMAL = statistics.NormalDist()
#: below this, ``float(a)`` loses digits (subnormals) and the double start is not used
_SMALLEST_DOUBLE_START = mpmath.mpf("1e-300")


def _halley_polish(a, start, max_steps=8):
    r"""Solve :math:`\Phi(z) = a` from ``start`` by Halley's method, or None if it does not settle.

    With :math:`r = (\Phi(z) - a)/\varphi(z)` (the Newton step) and
    :math:`\Phi'' = -z\varphi`, Halley's step is :math:`s = r / (1 + z r / 2)`; the residual
    is formed at 10 extra digits (erfc: relative accuracy in the tail).  Halley's error
    recursion for this equation is :math:`e' \approx \frac{z^2+2}{12} e^3` and a step
    estimates the error it removes, so iteration stops once
    :math:`\frac{z^2+2}{12}|s|^3 \le 2^{-\mathrm{prec}-10}\max(1, |z|)` (from a double start:
    two steps up to about 140 digits).
    """
    target = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    with mpmath.extradps(10):
        z = mpmath.mpf(start)
        root_two_pi = mpmath.sqrt(2 * mpmath.pi)
        for _ in range(max_steps):
            density = mpmath.exp(-z * z / 2) / root_two_pi
            r = (mp_phi(z) - a) / density
            step = r / (1 + z * r / 2)
            z -= step
            if (z * z + 2) / 12 * abs(step) ** 3 <= target * max(1, abs(z)):
                break
        else:
            return None
    return +z


def _newton_in_log_space(a, max_steps=60):
    r"""Solve :math:`\log\Phi(z) = \log a` for a tiny a (below doubles), or None if it does not settle.

    Start from the tail asymptotics :math:`\Phi(-x) \approx \varphi(x)/x`, i.e.
    :math:`x_0 = \sqrt{2L - \log(4\pi L)}` with :math:`L = -\log a`; Newton's method on the
    concave :math:`\log\Phi` (step :math:`(\log\Phi(z) - \log a)\,\Phi(z)/\varphi(z)`)
    then converges quadratically from that start.
    """
    target = mpmath.mpf(2) ** (-mpmath.mp.prec)
    with mpmath.extradps(10):
        log_a = mpmath.log(a)
        z = -mpmath.sqrt(-2 * log_a - mpmath.log(-4 * mpmath.pi * log_a))
        for _ in range(max_steps):
            cdf = mp_phi(z)
            step = (mpmath.log(cdf) - log_a) * cdf / mpmath.npdf(z)
            z -= step
            if abs(step) <= target * max(1, abs(z)):
                break
        else:
            return None
    return +z


def _phi_inv_by_erfinv(a):
    """Phi^-1(a) for 0 < a <= 1/2 as -sqrt(2) erfinv(1 - 2a), at a precision raised by the
    digits lost in ``1 - 2a``, then three Newton steps on Phi (slower; any a)."""
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


def phi_normal_form(expr: sp.Basic) -> sp.Basic:
    r"""Canonical :math:`\Phi` forms: :math:`\Phi^{-1}(1-u) \to -\Phi^{-1}(u)`,
    :math:`1 - \Phi(u) \to \Phi(-u)` -- identities of the standard normal law (its density is
    even), which hold wherever both sides are defined.  Part of the kernel's trusted
    rewriting (:func:`symdp.proof.kernel.deciders.rewritings`); the trade-off layer's solver
    (:mod:`symdp.tradeoff.solve`) uses it from here."""

    def fix_phiinv(e):
        a = e.args[0]
        rest = 1 - a
        if sp.Add.make_args(a)[0] == 1 or (a.is_Add and sp.S.One in a.args):
            return -PhiInv(sp.expand(rest))
        return e

    expr = expr.replace(lambda e: isinstance(e, PhiInv), fix_phiinv)

    def fix_add(e):
        args = list(e.args)
        if sp.S.One not in args:
            return e
        for i, t in enumerate(args):
            if t.is_Mul and len(t.args) == 2 and t.args[0] == -1 and isinstance(t.args[1], Phi):
                rest = args[:i] + args[i + 1:]
                rest.remove(sp.S.One)
                return sp.Add(Phi(-t.args[1].args[0]), *rest)
        return e

    return expr.replace(lambda e: e.is_Add, fix_add)
