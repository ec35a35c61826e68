r"""The Laplace mechanism, described once (issue #23): its parameters, its pair, its loss law
and its trade-off function (read by every analysis, each in its own numbers).

Sensitivity 1, noise :math:`\mathrm{Lap}(0, b)`: the pair :math:`(\mathrm{Lap}(1, b),
\mathrm{Lap}(0, b))`, after scaling by :math:`1/b` the pair :math:`(\mathrm{Lap}(\mu, 1),
\mathrm{Lap}(0, 1))`, :math:`\mu = 1/b` (Dong-Roth-Su 2022, arXiv 1905.02383v3, Sec. 2.3).
The privacy loss :math:`L(x) = |x| - |x - \mu|` takes the value μ for :math:`x \ge \mu`
(P-mass 1/2, Q-mass :math:`e^{-\mu}/2`), −μ for :math:`x \le 0` (P-mass :math:`e^{-\mu}/2`,
Q-mass 1/2) and :math:`2x - \mu` in between, with density :math:`e^{(l-\mu)/2}/4` under P on
(−μ, μ).  For :math:`-\mu < y \le \mu`, :math:`L \ge y \iff x \ge (y + \mu)/2`, so

.. math::
    A(y) = 1 - \tfrac12 e^{(y-\mu)/2}, \qquad B(y) = \tfrac12 e^{-(y+\mu)/2},

(1, 1) for :math:`y \le -\mu` and (0, 0) for :math:`y > \mu`.  The trade-off function
(Neyman--Pearson on the pair) is :math:`1 - e^{\mu}\alpha` for :math:`\alpha < e^{-\mu}/2`,
:math:`e^{-\mu}/(4\alpha)` for :math:`e^{-\mu}/2 \le \alpha \le 1/2`, :math:`e^{-\mu}(1-\alpha)`
above.  tests/events/test_one_description.py checks each formula against the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core.validation import nonnegative
from .base import Event, real, set_field, validated


def check_mu(value, conditions=None):
    """The parameter μ ≥ 0 of the Laplace family (a symbol's side condition appended to
    ``conditions``)."""
    return nonnegative("mu", value, conditions)


@validated
@dataclass(frozen=True)
class Laplace(Event):
    r"""The Laplace mechanism, sensitivity 1, noise :math:`\mathrm{Lap}(0, b)`: the pair
    (Lap(1, b), Lap(0, b)); the trade-off function of Dong-Roth-Su 2022 Sec. 2.3 at μ = 1/b."""

    b: Fraction
    kind = "laplace"

    def __post_init__(self):
        set_field(self, "b", real("b", self.b, 0, lower_open=True))

    @property
    def mu(self) -> Fraction:
        return 1 / self.b

    def at_distance(self, j: int) -> "Laplace":
        """The mechanism on datasets j records apart: Lap(j, b) against Lap(0, b), the Laplace
        pair of scale b/j."""
        return Laplace(self.b / j)


# ----------------------------------------------------------------------------- formulas

def tails(ops, mu, y):
    r""":math:`(A(y), B(y))` (module docstring); a ball straddling ±μ raises ``ArithmeticError``."""
    if y <= -mu:
        return ops.number(1), ops.number(1)
    if y > mu:
        return ops.number(0), ops.number(0)
    if y > -mu and y <= mu:
        return 1 - ops.exp((y - mu) / 2) / 2, ops.exp(-(y + mu) / 2) / 2
    raise ArithmeticError("grid node ball straddles a loss atom")


def trade_off_pieces(ops, mu):
    r"""The trade-off function as ``[(lo, hi, g)]``, g on [lo, hi] (DRS Sec. 2.3), μ > 0."""
    e = ops.exp(-mu)
    return [(0, e / 2, lambda t: 1 - ops.exp(mu) * t),
            (e / 2, ops.number(Fraction(1, 2)), lambda t: e / (4 * t)),
            (ops.number(Fraction(1, 2)), 1, lambda t: e * (1 - t))]


def fixed_point(ops, mu):
    r""":math:`e^{-\mu/2}/2`, on the middle piece."""
    return ops.exp(-mu / 2) / 2


def loss_atoms(ops, mu):
    """The atoms of the loss: ``[(loss, P-mass, Q-mass)]``."""
    half = ops.number(Fraction(1, 2))
    return [(mu, half, ops.exp(-mu) / 2), (-mu, ops.exp(-mu) / 2, half)]


def loss_density(ops, mu, l):
    r"""The density of the loss under P on (−μ, μ): :math:`e^{(l-\mu)/2}/4` (under Q it is
    :math:`e^{-l}` times this, as for every pair)."""
    return ops.exp((l - mu) / 2) / 4
