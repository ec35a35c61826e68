r""":math:`T(P, Q)` for P, Q given by densities: a trade-off function that can enter a tensor product.

``DensityPair(p, q, x, lo, hi)`` holds two SymPy densities in ``x`` on ``[lo, hi]`` (ends may
be ±oo).  Nothing is assumed about the likelihood ratio: the privacy profile is the
hockey-stick integral :math:`\int (q - e^{\varepsilon}p)_+\,dx` (DRS Prop. 2.12 read as
:math:`\sup_\varphi E_Q\varphi - e^\varepsilon E_P\varphi`), the loss is
:math:`\log(q/p)` under Q (:class:`~.privacy_loss.DensityLoss`), products go through
:math:`\delta_{f\otimes g}(\varepsilon) = E_{L_1}[\delta_g(\varepsilon - L_1)]`, and the
trade-off function itself comes back from the profile (:func:`~.tensor.trade_off_value`).

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> phi = lambda m: sp.exp(-(x - m) ** 2 / 2) / sp.sqrt(2 * sp.pi)
>>> f = DensityPair(phi(0), phi(1), x)
>>> sp.latex(f)
'T\\left(P, Q\\right)'
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..tradeoff.base import TradeOff, alpha
from ..numeric.mp_compiler import mp_callable, to_mpf
from .privacy_loss import DensityLoss
from ..core.validation import shown

__all__ = ["DensityPair"]


class DensityPair(TradeOff):
    r""":math:`T(P, Q)` with densities ``p``, ``q`` (SymPy expressions in ``x``) on ``[lo, hi]``;
    ``breakpoints`` are points where a density is not smooth (they split the quadrature);
    ``kinks`` are values of the loss log(q/p) taken on a set of positive mass (where the
    profile has a kink, e.g. ±μ for the Laplace pair): they split the quadrature of products.
    Without them a product of two such pairs is evaluated less accurately."""

    def __new__(cls, p, q, x, lo=-sp.oo, hi=sp.oo, breakpoints=(), kinks=()):
        if not isinstance(x, sp.Symbol):
            raise InvalidParameterError(f"x must be a SymPy Symbol; got x={shown(x)}")
        for name, d in (("p", p), ("q", q)):
            if not isinstance(d, sp.Expr) or d.free_symbols - {x}:
                raise InvalidParameterError(f"{name} must be a SymPy expression in {x} only; got {name}={d}")
        lo, hi = sp.sympify(lo), sp.sympify(hi)
        if not (lo < hi) == sp.true:
            raise InvalidParameterError(f"the support must have lo < hi; got lo={lo}, hi={hi}")
        obj = super().__new__(cls, sp.Lambda(x, p), sp.Lambda(x, q), lo, hi,
                              sp.Tuple(*[sp.sympify(b) for b in breakpoints]),
                              sp.Tuple(*[sp.sympify(k) for k in kinks]))
        with mpmath.workdps(30):
            for name, d in (("p", p), ("q", q)):
                mass = obj._quad(mp_callable((x,), d))
                if abs(mass - 1) > mpmath.mpf(10) ** -20:
                    raise InvalidParameterError(
                        f"{name} must be a probability density on [{lo}, {hi}]; it integrates to "
                        f"{mpmath.nstr(mass, 10)}")
        return obj

    def _support(self):
        lo, hi, bps = self.args[2], self.args[3], self.args[4]
        pts = [to_mpf(lo) if lo.is_finite else mpmath.inf * (1 if lo == sp.oo else -1)]
        pts += sorted(to_mpf(b) for b in bps)
        pts.append(to_mpf(hi) if hi.is_finite else mpmath.inf * (1 if hi == sp.oo else -1))
        return pts

    def _quad(self, fn):
        return mpmath.quad(fn, self._support())

    def loss(self) -> DensityLoss:
        p, q = self.args[0], self.args[1]
        x = p.variables[0]
        return DensityLoss(mp_callable((x,), p.expr), mp_callable((x,), q.expr.xreplace({q.variables[0]: x})),
                           self._support(), kinks=[to_mpf(k) for k in self.args[5]])

    def pieces(self):
        raise NotImplementedError("T(P, Q) from densities is evaluated from its profile")

    def expr(self, x=alpha):
        from .products import TensorAt

        return TensorAt(self, sp.sympify(x))

    def evaluate(self, x, dps=None):
        from .products import trade_off_value

        return trade_off_value(self, x, 15 if dps is None else dps)

    def losses(self):
        return [self.loss()]

    def doit(self, **hints):
        return self

    def delta(self, eps, dps: int = 30):
        r""":math:`\delta(\varepsilon) = \int (q - e^\varepsilon p)_+` at ``dps`` digits."""
        from .products import profile_value

        return profile_value(self, eps, dps)

    def epsilon(self, delta, dps: int = 30):
        """The smallest ε ≥ 0 with δ(ε) ≤ delta (bracketed root-finding on the profile)."""
        from .products import epsilon_value

        return epsilon_value(self, delta, dps)

    def _latex_name(self, printer):
        return r"T\left(P, Q\right)"

    def _sympystr(self, printer):
        return "DensityPair(%s, %s, %s, %s)" % tuple(printer._print(a) for a in self.args[:4])
