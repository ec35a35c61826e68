r"""An (ε, δ)-DP mechanism, described once (issue #23): the guarantee
:math:`f_{\varepsilon,\delta}` and its pair (read by every analysis, each in its own numbers).

:math:`f_{\varepsilon,\delta}(\alpha) = \max\{0,\ 1-\delta-e^{\varepsilon}\alpha,\
e^{-\varepsilon}(1-\delta-\alpha)\}` (Dong-Roth-Su 2022, arXiv 1905.02383v3, Eq. 5; (ε, δ)-DP
is exactly :math:`f_{\varepsilon,\delta}`-DP, Prop. 2.5) is the trade-off function of the
four-outcome pair of Kairouz-Oh-Viswanath 2015 (Sec. 3): with
:math:`r = e^\varepsilon/(1+e^\varepsilon)`,

.. math::
    P = (\delta,\ (1-\delta)r,\ (1-\delta)(1-r),\ 0), \qquad
    Q = (0,\ (1-\delta)(1-r),\ (1-\delta)r,\ \delta),

losses :math:`+\infty, \varepsilon, -\varepsilon, -\infty`.  The atoms are the one description;
tails, profile and loss law follow (``symdp.events.losses``), and the closed form of
:math:`f_{\varepsilon,\delta}` is checked against Neyman--Pearson on the atoms
(tests/events/test_one_description.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core.validation import nonnegative, probability
from .base import Event, real, set_field, validated


def check_eps(value, conditions=None, name: str = "eps"):
    """ε ≥ 0 (SymPy; a symbol's side condition appended to ``conditions``)."""
    return nonnegative(name, value, conditions)


def check_delta(value, conditions=None, name: str = "delta"):
    """δ ∈ [0, 1] (SymPy; a symbol's side condition appended to ``conditions``)."""
    return probability(name, value, conditions)


@validated
@dataclass(frozen=True)
class EpsDelta(Event):
    r"""A mechanism known only to be (ε, δ)-DP: the guarantee :math:`f_{\varepsilon,\delta}`
    (Dong-Roth-Su 2022, Eq. 5, Prop. 2.5), whose pair is that of Kairouz-Oh-Viswanath 2015.
    δ < 1 (δ = 1 promises nothing)."""

    eps: Fraction
    delta: Fraction
    kind = "eps_delta"

    def __post_init__(self):
        set_field(self, "eps", real("eps", self.eps, 0))
        set_field(self, "delta", real("delta", self.delta, 0, 1, upper_open=True))

    @classmethod
    def named(cls, eps, delta, eps_name: str, delta_name: str) -> "EpsDelta":
        """The event, its parameters validated under the names a caller's API gives them."""
        return cls(real(eps_name, eps, 0), real(delta_name, delta, 0, 1, upper_open=True))


# ----------------------------------------------------------------------------- formulas

def masses(E, delta) -> tuple:
    r"""P on the outcomes of losses :math:`(+\infty, \varepsilon, -\varepsilon, -\infty)`, in
    terms of :math:`E = e^\varepsilon` (any numbers: Fractions when E is rational, balls, SymPy);
    Q is the reverse (module docstring)."""
    return delta, (1 - delta) * E / (1 + E), (1 - delta) / (1 + E), 0 * delta


def atoms(ops, eps, delta):
    r"""The pair of :math:`f_{\varepsilon,\delta}` as ``[(loss, P-mass, Q-mass)]``, by
    decreasing loss (module docstring)."""
    P = masses(ops.exp(eps), delta)
    return [(loss, p, q) for loss, p, q in zip(("+inf", eps, -eps, "-inf"), P, P[::-1])]


def kink(ops, eps, delta):
    r"""The fixed point :math:`(1-\delta)/(1+e^{\varepsilon})`, where the two lines meet."""
    return (1 - delta) / (1 + ops.exp(eps))


def trade_off_pieces(ops, eps, delta):
    r""":math:`f_{\varepsilon,\delta}` as ``[(lo, hi, g)]`` (DRS Eq. 5)."""
    x = kink(ops, eps, delta)
    return [(0, x, lambda t: 1 - delta - ops.exp(eps) * t),
            (x, 1 - delta, lambda t: ops.exp(-eps) * (1 - delta - t)),
            (1 - delta, 1, lambda t: ops.number(0))]


def trade_off(ops, eps, delta, alpha):
    r""":math:`\max\{0,\ 1-\delta-e^{\varepsilon}\alpha,\ e^{-\varepsilon}(1-\delta-\alpha)\}`."""
    return ops.max(0, 1 - delta - ops.exp(eps) * alpha, ops.exp(-eps) * (1 - delta - alpha))


def group_delta(ops, eps, delta, j: int):
    r"""Group privacy over j records: an (ε, δ)-DP mechanism is
    :math:`(j\varepsilon,\ \delta\sum_{l<j} e^{l\varepsilon})`-DP on datasets j records apart
    (Dwork-Roth 2014, Thm. 2.2 and its δ version; Vadhan 2017, Lemma 2.2); this is the δ."""
    total = 0
    for l in range(j):
        total = total + ops.exp(l * eps)
    return total * delta
