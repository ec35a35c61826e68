r"""The primal--dual route of the proof of Thm. 4.2 (Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 4.2).

Notation: for a trade-off function g, its privacy profile is
:math:`\delta_g(\varepsilon) = 1 + g^*(-e^{\varepsilon})` (Prop. 2.12).

* **Mixture conjugate.**  :math:`f_p^*(y) = \sup_x (yx - pf(x) - (1-p)(1-x))
  = p\,f^*\!\big(\tfrac{y + 1 - p}{p}\big) - (1 - p)` for 0 < p <= 1.
* **Eq. 16.**  With :math:`\varepsilon' = \log(1 - p + p e^{\varepsilon})` the Lemma 4.4 pair
  :math:`(\varepsilon', p\,\delta_f(\varepsilon))` is exactly
  :math:`(\varepsilon', \delta_{f_p}(\varepsilon'))`: eliminating ε,
  :math:`\delta_{f_p}(\varepsilon') = 1 + f_p^*(-e^{\varepsilon'})`, and conversely
  :math:`\delta_{f_p}(\eta) = p\,\delta_f\big(\log(1 + (e^\eta - 1)/p)\big)`.
* **Prop. 4.5** (special case of Prop. F.2): if :math:`\delta_g \ge \delta_{g^{-1}}` on
  :math:`\varepsilon \ge 0` and M is :math:`(\varepsilon, \delta_g(\varepsilon))`-DP for all
  ε >= 0, then M is :math:`\min\{g, g^{-1}\}^{**}`-DP.  The trade-off function that the
  collection of guarantees gives (companion of Prop. 2.12) is
  :math:`\sup_{\varepsilon \ge 0} f_{\varepsilon, \delta_g(\varepsilon)}`;
  :class:`DualSup` evaluates it numerically, independently of the conjugate machinery.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..tradeoff.duality import sup_of_eps_delta_family
from ..tradeoff.numeric import to_mpf

__all__ = ["mixture_conjugate", "eq16_profile", "DualSup"]


def mixture_conjugate(f, p, y) -> sp.Expr:
    r""":math:`f_p^*(y) = p\,f^*((y + 1 - p)/p) - (1 - p)`, the conjugate of
    :math:`f_p = pf + (1-p)\mathrm{Id}` through that of f (0 < p <= 1)."""
    p, y = sp.sympify(p), sp.sympify(y)
    return p * f.conjugate((y + 1 - p) / p) - (1 - p)


def eq16_profile(f, p, eta) -> sp.Expr:
    r""":math:`\delta_{f_p}(\eta) = p\,\delta_f\big(\log(1 + (e^\eta - 1)/p)\big)`: the Lemma 4.4
    guarantees with ε eliminated (Eq. 16), for η >= 0 and 0 < p <= 1."""
    p, eta = sp.sympify(p), sp.sympify(eta)
    return p * (1 + f.conjugate(-(sp.exp(eta) - 1 + p) / p))


class DualSup(sp.Expr):
    r""":math:`\sup_{\varepsilon \ge 0} f_{\varepsilon,\delta(\varepsilon)}(\alpha)` for a privacy
    profile δ given as ``Lambda(varepsilon, expr)``: the trade-off function determined by the
    guarantees (ε, δ(ε)), ε >= 0 (Prop. 2.12's companion; Prop. 4.5's conclusion).

    Evaluated from its definition.  With :math:`f_{\varepsilon,\delta} = \max\{0,
    1 - \delta - e^\varepsilon\alpha, e^{-\varepsilon}(1 - \delta - \alpha)\}`,

    .. math::
        \sup_\varepsilon f_{\varepsilon,\delta(\varepsilon)}(\alpha) = \max\Big\{0,\
        \sup_{s \ge 1} \big(1 - \delta(\log s) - s\alpha\big),\
        \sup_{0 < t \le 1} t\big(1 - \delta(-\log t) - \alpha\big)\Big\};

    when :math:`\delta = \delta_g` is a profile both objectives are concave (an infimum of
    affine functions of s; the perspective of one in t), so golden-section search on each,
    to an absolute bracket width :math:`2^{-(\mathrm{prec}+4)}`, finds the supremum.
    """

    is_commutative = True

    def __new__(cls, profile: sp.Lambda, x):
        if not isinstance(profile, sp.Lambda):
            raise TypeError("DualSup needs the profile as a Lambda of one variable")
        return super().__new__(cls, profile, sp.sympify(x))

    @property
    def profile(self) -> sp.Lambda:
        return self.args[0]

    @property
    def point(self):
        return self.args[1]

    def _eval_is_real(self):
        return True

    def _eval_evalf(self, prec):
        if self.free_symbols:
            return None
        dps = mpmath.libmp.prec_to_dps(prec)
        with mpmath.workdps(dps + 15):
            value = dual_sup_value(self.profile, to_mpf(self.point))
        return sp.Float(value, dps + 5)

    def _latex(self, printer, exp=None):
        e = self.profile.variables[0]
        body = r"\sup_{%s \ge 0} f_{%s, %s}\left(%s\right)" % (
            printer._print(e), printer._print(e), printer._print(self.profile.expr),
            printer._print(self.point))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "DualSup(%s, %s)" % (printer._print(self.profile), printer._print(self.point))


def dual_sup_value(profile: sp.Lambda, x):
    """:class:`DualSup` at the current precision (x an mpf in [0, 1])."""
    return sup_of_eps_delta_family(profile, x)
