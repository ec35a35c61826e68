r"""The trade-off functions of Dong, Roth, Su 2022 (arXiv 1905.02383v3), Sec. 2.

=================  ==========================================================
``EpsDelta``       :math:`f_{\varepsilon,\delta}(\alpha) = \max\{0,\ 1-\delta-e^{\varepsilon}\alpha,\
                   e^{-\varepsilon}(1-\delta-\alpha)\}` (Eq. 5)
``Gaussian``       :math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha)-\mu) = T(N(0,1), N(\mu,1))` (Def. 2.7)
``Laplace``        :math:`T(\mathrm{Lap}(0,1), \mathrm{Lap}(\mu,1))` (Sec. 2.3)
``Identity``       :math:`\mathrm{Id}(\alpha) = 1-\alpha` (perfect privacy)
``Zero``           the zero function (blatant non-privacy)
``TradeOff``       any expression, validated against Prop. 2.2 (see :mod:`.custom`)
=================  ==========================================================
"""

from __future__ import annotations

import sympy as sp

from ..core.special import Phi, PhiInv
from ..core.validation import nonnegative, probability
from .base import Piece, TradeOff, alpha, piece

_t = sp.Dummy("t", real=True)


class EpsDelta(TradeOff):
    r""":math:`f_{\varepsilon,\delta}`: (ε, δ)-DP is exactly :math:`f_{\varepsilon,\delta}`-DP
    (Dong, Roth, Su 2022, Eq. 5 and Prop. 2.5).

    >>> from symdp import EpsDelta
    >>> EpsDelta(0, 0).evaluate("0.25")
    3/4
    """

    symmetric_by_construction = True

    def __new__(cls, eps, delta):
        conditions = []
        eps = nonnegative("eps", eps, conditions)
        delta = probability("delta", delta, conditions)
        return super().__new__(cls, eps, delta, conditions=conditions)

    @property
    def eps(self):
        return self.args[0]

    @property
    def delta(self):
        return self.args[1]

    @property
    def kink(self) -> sp.Expr:
        r"""The fixed point :math:`(1-\delta)/(1+e^{\varepsilon})`, where the two lines meet."""
        return (1 - self.delta) / (1 + sp.exp(self.eps))

    def fixed_point(self):
        r"""The kink :math:`(1-\delta)/(1+e^{\varepsilon})` (tests check f(x*) = x*)."""
        return self.kink

    def pieces(self):
        e, d = self.eps, self.delta
        return [piece(0, self.kink, 1 - d - sp.exp(e) * _t, _t),
                piece(self.kink, 1 - d, sp.exp(-e) * (1 - d - _t), _t),
                piece(1 - d, 1, sp.S.Zero, _t)]

    def expr(self, x=alpha):
        e, d = self.eps, self.delta
        x = sp.sympify(x)
        return sp.Max(0, 1 - d - sp.exp(e) * x, sp.exp(-e) * (1 - d - x))

    def inverse(self):
        return self

    def _latex_name(self, printer):
        return r"f_{%s,%s}" % (printer._print(self.eps), printer._print(self.delta))

    def _sympystr(self, printer):
        return "EpsDelta(%s, %s)" % (printer._print(self.eps), printer._print(self.delta))


class _ShiftFamily(TradeOff):
    """A symmetric family T(P_0, P_mu) of a location shift mu >= 0 (Gaussian, Laplace)."""

    symmetric_by_construction = True

    def __new__(cls, mu):
        conditions = []
        mu = nonnegative("mu", mu, conditions)
        return super().__new__(cls, mu, conditions=conditions)

    @property
    def mu(self):
        return self.args[0]


class Gaussian(_ShiftFamily):
    r""":math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)`, the trade-off between
    N(0, 1) and N(μ, 1) (Dong, Roth, Su 2022, Def. 2.7)."""

    def pieces(self):
        if self.mu == 0:
            return [piece(0, 1, 1 - _t, _t)]
        return [piece(0, 1, Phi(PhiInv(1 - _t) - self.mu), _t)]

    def inverse(self):
        return self

    def _latex_name(self, printer):
        return r"G_{%s}" % printer._print(self.mu)

    def _sympystr(self, printer):
        return "Gaussian(%s)" % printer._print(self.mu)


class Laplace(_ShiftFamily):
    r"""The trade-off between Lap(0, 1) and Lap(μ, 1) (Dong, Roth, Su 2022, Sec. 2.3):

    .. math::
        1 - e^{\mu}\alpha \ (\alpha < e^{-\mu}/2),\quad
        e^{-\mu}/(4\alpha) \ (e^{-\mu}/2 \le \alpha \le 1/2),\quad
        e^{-\mu}(1-\alpha) \ (\alpha > 1/2).
    """

    def fixed_point(self):
        r""":math:`e^{-\mu/2}/2`, on the middle piece (tests check f(x*) = x*)."""
        return sp.exp(-self.mu / 2) / 2

    def pieces(self):
        m = self.mu
        if m == 0:
            return [piece(0, 1, 1 - _t, _t)]
        return [piece(0, sp.exp(-m) / 2, 1 - sp.exp(m) * _t, _t),
                piece(sp.exp(-m) / 2, sp.S.Half, sp.exp(-m) / (4 * _t), _t),
                piece(sp.S.Half, 1, sp.exp(-m) * (1 - _t), _t)]

    def inverse(self):
        return self

    def _latex_name(self, printer):
        return r"L_{%s}" % printer._print(self.mu)

    def _sympystr(self, printer):
        return "Laplace(%s)" % printer._print(self.mu)


class Identity(TradeOff):
    r""":math:`\mathrm{Id}(\alpha) = 1 - \alpha`: perfect privacy."""

    symmetric_by_construction = True

    def __new__(cls):
        return super().__new__(cls)

    def pieces(self):
        return [piece(0, 1, 1 - _t, _t)]

    def inverse(self):
        return self

    def _latex_name(self, printer):
        return r"\mathrm{Id}"

    def _sympystr(self, printer):
        return "Identity()"


class Zero(TradeOff):
    r"""The zero trade-off function: blatant non-privacy (``T(P, Q)`` for disjoint P, Q)."""

    symmetric_by_construction = True

    def __new__(cls):
        return super().__new__(cls)

    def pieces(self):
        return [piece(0, 1, sp.S.Zero, _t)]

    def expr(self, x=alpha):
        return sp.S.Zero

    def inverse(self):
        return self

    def _latex_name(self, printer):
        return r"0"

    def _sympystr(self, printer):
        return "Zero()"
