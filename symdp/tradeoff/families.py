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

The formulas (and parameter checks) of the mechanisms are not written here: ``Gaussian``,
``Laplace`` and ``EpsDelta`` are the trade-off views of ``symdp.events.gaussian``,
``laplace`` and ``eps_delta`` (issue #23), evaluated in SymPy (``backends.SYMPY``); their
parameters may be symbols (a family of trade-off functions), with the side conditions those
modules state.  ``symdp.composition.events.tradeoff_of(event)`` builds them from an event.
"""

from __future__ import annotations

import sympy as sp

from ..events import eps_delta as eps_delta_mechanism
from ..events import gaussian as gaussian_mechanism
from ..events import laplace as laplace_mechanism
from ..events.backends import SYMPY
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
        eps = eps_delta_mechanism.check_eps(eps, conditions)
        delta = eps_delta_mechanism.check_delta(delta, conditions)
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
        return eps_delta_mechanism.kink(SYMPY, self.eps, self.delta)

    def fixed_point(self):
        r"""The kink :math:`(1-\delta)/(1+e^{\varepsilon})` (tests check f(x*) = x*)."""
        return self.kink

    def pieces(self):
        return [piece(lo, hi, g(_t), _t)
                for lo, hi, g in eps_delta_mechanism.trade_off_pieces(SYMPY, self.eps, self.delta)]

    def expr(self, x=alpha):
        return eps_delta_mechanism.trade_off(SYMPY, self.eps, self.delta, sp.sympify(x))

    def inverse(self):
        return self

    def _latex_name(self, printer):
        return r"f_{%s,%s}" % (printer._print(self.eps), printer._print(self.delta))

    def _sympystr(self, printer):
        return "EpsDelta(%s, %s)" % (printer._print(self.eps), printer._print(self.delta))


class _ShiftFamily(TradeOff):
    """A symmetric family T(P_0, P_mu) of a location shift mu >= 0 (Gaussian, Laplace)."""

    symmetric_by_construction = True
    #: the mechanism's module (``check_mu`` and the formulas)
    mechanism = None

    def __new__(cls, mu):
        conditions = []
        mu = cls.mechanism.check_mu(mu, conditions)
        return super().__new__(cls, mu, conditions=conditions)

    @property
    def mu(self):
        return self.args[0]


class Gaussian(_ShiftFamily):
    r""":math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)`, the trade-off between
    N(0, 1) and N(μ, 1) (Dong, Roth, Su 2022, Def. 2.7): :func:`symdp.events.gaussian.trade_off`."""

    mechanism = gaussian_mechanism

    def pieces(self):
        if self.mu == 0:
            return [piece(0, 1, 1 - _t, _t)]
        return [piece(0, 1, gaussian_mechanism.trade_off(SYMPY, self.mu, _t), _t)]

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
        e^{-\mu}(1-\alpha) \ (\alpha > 1/2)

    (:func:`symdp.events.laplace.trade_off_pieces`).
    """

    mechanism = laplace_mechanism

    def fixed_point(self):
        r""":math:`e^{-\mu/2}/2`, on the middle piece (tests check f(x*) = x*)."""
        return laplace_mechanism.fixed_point(SYMPY, self.mu)

    def pieces(self):
        if self.mu == 0:
            return [piece(0, 1, 1 - _t, _t)]
        return [piece(lo, hi, g(_t), _t) for lo, hi, g in laplace_mechanism.trade_off_pieces(SYMPY, self.mu)]

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
