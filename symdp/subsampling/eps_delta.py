r"""Subsampling an (ε, δ)-DP mechanism: Lemma 4.4, Cor. 4.3, Eq. 15 and the shaded triangle.

Dong, Roth, Su 2022 (arXiv 1905.02383v3, Sec. 4.1; JRSS-B 84(1), 2022, Sec. 4).
Throughout :math:`E = e^{\varepsilon}` and

.. math::
    \varepsilon' = \log(1 - p + p e^{\varepsilon}),\qquad \delta' = p\delta
    \qquad\text{(Lemma 4.4, the classical amplification)}.

**Cor. 4.3 as the seed prints it** (the only surviving form is in the seed note's code):
:math:`C_p(f_{\varepsilon,\delta}) = \max\{f_{\varepsilon',\delta'}, L_{\mathrm{printed}}\}` with
:math:`L_{\mathrm{printed}}(\alpha) = 1 - p\delta - p\frac{e^\varepsilon - 1}{e^\varepsilon + 1} - \alpha`.

**Cor. 4.3 as derived here from Eq. 14.**  For :math:`f = f_{\varepsilon,\delta}`,
:math:`x^* = (1-\delta)/(1+E)` and on [0, x*]
:math:`f_p(\alpha) = p(1-\delta-E\alpha) + (1-p)(1-\alpha) = 1 - \delta' - e^{\varepsilon'}\alpha`,
so the chord of Eq. 14 is

.. math::
    L(\alpha) = x^* + f_p(x^*) - \alpha = 1 - p + \frac{2p(1-\delta)}{1+e^\varepsilon} - \alpha,
    \qquad C_p(f_{\varepsilon,\delta}) = \max\{f_{\varepsilon',\delta'}, L\}.

The two lines differ by :math:`L - L_{\mathrm{printed}} = p\delta\,(e^\varepsilon-1)/(e^\varepsilon+1)`,
which is positive for δ > 0, ε > 0, p > 0: the printed corollary is a valid but strictly
weaker bound there, not :math:`C_p(f_{\varepsilon,\delta})`.

**Eq. 15 and the shaded triangle.**  :math:`C_p(f_{\varepsilon,\delta}) \ge f_{\varepsilon',\delta'}`,
with equality outside the chord; over the chord the gap is the triangle with vertices
:math:`A = (x^*, f_p(x^*))`, :math:`K = (k', k')` (the kink of :math:`f_{\varepsilon',\delta'}`,
:math:`k' = (1-\delta')/(1+e^{\varepsilon'})`) and :math:`B = (f_p(x^*), x^*)`, of area

.. math::
    \tfrac12\,(f_p(x^*) - x^*)\,(x^* + f_p(x^*) - 2k')
    = \frac{p(1-p)^2 (E-1)(E+2\delta-1)^2}{2(E+1)^2(pE - p + 2)},

positive exactly when 0 < p < 1 and ε > 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..tradeoff.base import alpha
from ..tradeoff.families import EpsDelta
from ..core.validation import nonnegative, probability
from .operator import Subsampled

__all__ = ["lemma_4_4", "lemma_4_4_tradeoff", "cor_4_3_line", "cor_4_3_line_printed",
           "cor_4_3", "cor_4_3_printed", "ShadedTriangle", "shaded_triangle",
           "subsampled_eps_delta"]


def _params(eps, delta, p):
    conditions = []
    return (nonnegative("eps", eps, conditions), probability("delta", delta, conditions),
            probability("p", p, conditions))


def lemma_4_4(eps, delta, p) -> tuple:
    r"""Lemma 4.4 (classical; Ullman): an (ε, δ)-DP mechanism on a p-subsample is
    :math:`(\varepsilon', \delta') = (\log(1 - p + p e^\varepsilon),\ p\delta)`-DP.

    >>> lemma_4_4(3, "0.1", "0.2")
    (log(4/5 + exp(3)/5), 1/50)
    """
    eps, delta, p = _params(eps, delta, p)
    return sp.log(1 - p + p * sp.exp(eps)), p * delta


def lemma_4_4_tradeoff(eps, delta, p) -> EpsDelta:
    r""":math:`f_{\varepsilon',\delta'}`, the trade-off function of Lemma 4.4."""
    return EpsDelta(*lemma_4_4(eps, delta, p))


def cor_4_3_line_printed(eps, delta, p, x=alpha) -> sp.Expr:
    r"""The seed's line :math:`1 - p\delta - p(e^\varepsilon - 1)/(e^\varepsilon + 1) - \alpha`
    (its code's ``Cp_eps_delta``), typed in as printed: a claim to check, not a result."""
    eps, delta, p = _params(eps, delta, p)
    E = sp.exp(eps)
    return 1 - p * delta - p * (E - 1) / (E + 1) - sp.sympify(x)


def cor_4_3_line(eps, delta, p, x=alpha) -> sp.Expr:
    r"""The chord of Eq. 14 for :math:`f_{\varepsilon,\delta}`:
    :math:`x^* + f_p(x^*) - \alpha = 1 - p + 2p(1-\delta)/(1+e^\varepsilon) - \alpha`."""
    eps, delta, p = _params(eps, delta, p)
    return 1 - p + 2 * p * (1 - delta) / (1 + sp.exp(eps)) - sp.sympify(x)


def cor_4_3_printed(eps, delta, p, x=alpha) -> sp.Expr:
    r""":math:`\max\{f_{\varepsilon',\delta'}(\alpha), L_{\mathrm{printed}}(\alpha)\}`: Cor. 4.3
    as the seed prints it."""
    return sp.Max(lemma_4_4_tradeoff(eps, delta, p).expr(x), cor_4_3_line_printed(eps, delta, p, x))


def cor_4_3(eps, delta, p, x=alpha) -> sp.Expr:
    r""":math:`\max\{f_{\varepsilon',\delta'}(\alpha), L(\alpha)\}` with the derived chord L:
    the closed form of :math:`C_p(f_{\varepsilon,\delta})` (checked against the definition)."""
    return sp.Max(lemma_4_4_tradeoff(eps, delta, p).expr(x), cor_4_3_line(eps, delta, p, x))


def subsampled_eps_delta(eps, delta, p):
    r""":math:`C_p(f_{\varepsilon,\delta})` as the exact operator object (Eq. 14 pieces)."""
    return Subsampled(EpsDelta(eps, delta), p)


@dataclass(frozen=True)
class ShadedTriangle:
    r"""Where :math:`C_p(f_{\varepsilon,\delta})` improves strictly on :math:`f_{\varepsilon',\delta'}`
    (Figure 6's shaded region): the triangle A, K, B.  Coordinates are exact SymPy
    expressions; ``area`` is in closed form."""

    A: tuple
    K: tuple
    B: tuple
    area: sp.Expr

    @property
    def vertices(self) -> tuple:
        return (self.A, self.K, self.B)

    def area_from_vertices(self) -> sp.Expr:
        """The shoelace formula on the vertices (an independent route to ``area``)."""
        (ax, ay), (kx, ky), (bx, by) = self.vertices
        return sp.Abs((kx - ax) * (by - ay) - (bx - ax) * (ky - ay)) / 2


def shaded_triangle(eps, delta, p) -> ShadedTriangle:
    r"""Vertices :math:`A = (x^*, f_p(x^*))`, :math:`K = (k', k')`, :math:`B = (f_p(x^*), x^*)`
    and area :math:`p(1-p)^2(E-1)(E+2\delta-1)^2 / (2(E+1)^2(pE-p+2))`, :math:`E = e^\varepsilon`."""
    eps, delta, p = _params(eps, delta, p)
    E = sp.exp(eps)
    xs = (1 - delta) / (1 + E)
    fxs = p * xs + (1 - p) * (1 - xs)
    eps1, delta1 = lemma_4_4(eps, delta, p)
    k = (1 - delta1) / (1 + sp.exp(eps1))
    area = p * (1 - p) ** 2 * (E - 1) * (E + 2 * delta - 1) ** 2 / (2 * (E + 1) ** 2 * (p * E - p + 2))
    return ShadedTriangle((xs, fxs), (k, k), (fxs, xs), area)
