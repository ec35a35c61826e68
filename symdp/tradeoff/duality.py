r"""From a family of (ε, δ(ε)) guarantees back to a trade-off function (Prop. 2.12's companion).

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Prop. 2.12: a mechanism that is
(ε, δ(ε))-DP for every ε >= 0 is f-DP with

.. math::
    f(\alpha) = \sup_{\varepsilon \ge 0} f_{\varepsilon,\delta(\varepsilon)}(\alpha)
             = \max\Big\{0,\ \sup_{s \ge 1}\big(1 - \delta(\log s) - s\alpha\big),\
               \sup_{0 < t \le 1} t\big(1 - \delta(-\log t) - \alpha\big)\Big\}.

When δ is a privacy profile, δ(ε) = 1 + g*(−e^ε) for a trade-off function g,
both inner objectives are concave (in s and in t respectively: the second is
:math:`-(g^{-1})^*(-t) - t\alpha`), so each supremum is found by golden-section
search to full precision.  :meth:`ProfileTradeOff.upper_branch` also tries the
closed form: the stationary point of :math:`1 - \delta(\varepsilon) - e^{\varepsilon}\alpha`
solves :math:`\alpha = -e^{-\varepsilon}\delta'(\varepsilon)`.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.special import phi_normal_form
from ..core.validation import precision
from ..numeric.digits import with_digits
from .base import TradeOff, _simplify, alpha, varepsilon
from .numeric import ValueByDefinitionAt, golden_max, mp_callable, to_mpf
from .solve import solve_for


class ProfileTradeOff(TradeOff):
    r""":math:`\sup_{\varepsilon \ge 0} f_{\varepsilon, \delta(\varepsilon)}` for a profile δ(ε)."""

    def __new__(cls, delta, eps=varepsilon):
        delta = sp.sympify(delta)
        if not isinstance(eps, sp.Symbol):
            raise InvalidParameterError(f"eps must be a Symbol; got eps={eps!r}")
        extra = delta.free_symbols - {eps}
        if extra and any(s.is_number is None and s.is_real is None for s in extra):
            pass  # symbolic parameters are allowed; numerics need them substituted
        return super().__new__(cls, sp.Lambda(eps, delta))

    @property
    def delta(self) -> sp.Lambda:
        return self.args[0]

    def pieces(self):
        raise NotImplementedError("the supremum over eps is evaluated from its definition")

    def upper_branch(self, x=alpha):
        r"""Closed form of :math:`\sup_{\varepsilon\ge0}(1 - \delta(\varepsilon) - e^{\varepsilon}x)`
        on the range where the stationary ε is >= 0, or None when no closed form is found."""
        e = sp.Dummy("varepsilon", nonnegative=True)
        d = self.delta(e)
        stationarity = sp.simplify(sp.powsimp(sp.expand(-sp.exp(-e) * sp.diff(d, e)), force=True))
        xs = sp.Dummy("x", positive=True)
        eps_of_x = solve_for(stationarity, xs, e)
        if eps_of_x is None:
            return None
        value = 1 - d.xreplace({e: eps_of_x}) - sp.exp(eps_of_x) * xs
        value = _simplify(phi_normal_form(sp.expand(value)))
        return value.xreplace({xs: sp.sympify(x)})

    def expr(self, x=alpha):
        return ProfileSupAt(self, sp.sympify(x))

    def evaluate(self, x, dps=None):
        from .base import _check_alpha

        x = _check_alpha(x)
        dps = 15 if dps is None else precision("dps", dps)
        if self.delta.expr.free_symbols - set(self.delta.variables):
            raise InvalidParameterError("delta(eps) has free parameters; substitute them first")
        with mpmath.workdps(dps + 15):
            value = sup_of_eps_delta_family(self.delta, to_mpf(x))
        return with_digits(value, dps)

    def _latex_name(self, printer):
        return r"\sup_{\varepsilon \ge 0} f_{\varepsilon,%s}" % printer._print(
            self.delta(sp.Symbol("varepsilon")))

    def _sympystr(self, printer):
        return "ProfileTradeOff(%s)" % printer._print(self.delta)


def sup_of_eps_delta_family(delta: sp.Lambda, x):
    r""":math:`\sup_{\varepsilon\ge0} f_{\varepsilon,\delta(\varepsilon)}(x)` at the current
    precision (x an mpf in [0, 1]); both branches are concave (module docstring)."""
    e = delta.variables[0]
    d = mp_callable((e,), delta.expr)

    def over_s(s):  # s = e^eps >= 1
        return 1 - d(mpmath.log(s)) - s * x

    def over_t(t):  # t = e^-eps in (0, 1]
        return t * (1 - d(-mpmath.log(t)) - x)

    # widen the s-bracket until the maximiser is inside (over_s is concave)
    hi = mpmath.mpf(2)
    while over_s(hi) > over_s(hi / 2) and hi < mpmath.mpf(10) ** 40:
        hi *= 4
    best_s = golden_max(over_s, 1, hi)
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 8)
    best_t = golden_max(over_t, tiny, 1)
    return max(mpmath.mpf(0), best_s, best_t)


def from_privacy_profile(delta, eps=varepsilon) -> ProfileTradeOff:
    r"""The trade-off function :math:`\sup_{\varepsilon\ge0} f_{\varepsilon,\delta(\varepsilon)}`
    of a family of (ε, δ(ε))-DP guarantees (Prop. 2.12)."""
    return ProfileTradeOff(delta, eps)


class ProfileSupAt(ValueByDefinitionAt):
    """The supremum at one point, unevaluated; evalf runs the golden-section search."""

    def _latex(self, printer, exp=None):
        body = r"\left(%s\right)\left(%s\right)" % (printer._print(self.args[0]),
                                                    printer._print(self.args[1]))
        return body if exp is None else r"%s^{%s}" % (body, exp)
