r"""The Gaussian mechanism, described once (issue #23): its parameters, its pair, its loss law
and its trade-off function.  Every analysis reads these formulas, each in its own numbers
(``symdp.events.backends``).

Sensitivity 1, noise :math:`N(0, \sigma^2)`: the pair :math:`(N(1, \sigma^2), N(0, \sigma^2))`,
which after scaling by :math:`1/\sigma` is :math:`(N(\mu, 1), N(0, 1))`, :math:`\mu = 1/\sigma`
(Dong-Roth-Su 2022, arXiv 1905.02383v3, Def. 2.7).  Its privacy loss
:math:`L(x) = \log\frac{dP}{dQ}(x) = \mu x - \mu^2/2` is :math:`N(\mu^2/2, \mu^2)` under P and
:math:`N(-\mu^2/2, \mu^2)` under Q, so

.. math::
    A(y) = P(L \ge y) = \bar\Phi(y/\mu - \mu/2), \qquad B(y) = Q(L \ge y) = \bar\Phi(y/\mu + \mu/2),

and the Neyman--Pearson trade-off of the pair (reject on :math:`x \ge \Phi^{-1}(1-\alpha)`
under Q, type II error under P) is :math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)`.
The profile :math:`A(\varepsilon) - e^\varepsilon B(\varepsilon)` is DRS Cor. 2.13.
tests/events/test_one_description.py checks each formula against the others at 50 digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core.validation import nonnegative
from .base import Event, real, set_field, validated

# ----------------------------------------------------------------------------- parameters


def check_mu(value, conditions=None):
    """The parameter μ ≥ 0 of the family :math:`G_\\mu` (a SymPy number, or a symbol whose
    side condition μ ≥ 0 is appended to ``conditions``)."""
    return nonnegative("mu", value, conditions)


@validated
@dataclass(frozen=True)
class Gaussian(Event):
    r"""The Gaussian mechanism, sensitivity 1, noise :math:`N(0, \sigma^2)`: the pair
    (N(1, σ²), N(0, σ²)), trade-off function :math:`G_{1/\sigma}` (Dong-Roth-Su 2022, Def. 2.7)."""

    sigma: Fraction
    kind = "gaussian"

    def __post_init__(self):
        set_field(self, "sigma", real("sigma", self.sigma, 0, lower_open=True))

    @classmethod
    def from_mu(cls, mu) -> "Gaussian":
        """The mechanism whose trade-off function is :math:`G_\\mu`, μ > 0 (σ = 1/μ)."""
        return cls(1 / real("mu", mu, 0, lower_open=True))

    @property
    def mu(self) -> Fraction:
        """The GDP parameter 1/sigma."""
        return 1 / self.sigma

    def at_distance(self, j: int) -> "Gaussian":
        """The mechanism on datasets j records apart (j copies of the changed record): a shift
        by j, noise σ, i.e. :math:`G_{j/\\sigma}`."""
        return Gaussian(self.sigma / j)


# ----------------------------------------------------------------------------- formulas
# ``ops`` is a backend of symdp.events.backends; ``mu`` and the point are its numbers.

def tails(ops, mu, y):
    r""":math:`(A(y), B(y)) = (\bar\Phi(y/\mu - \mu/2),\ \bar\Phi(y/\mu + \mu/2))`, μ > 0."""
    return ops.phi_bar(y / mu - mu / 2), ops.phi_bar(y / mu + mu / 2)


def lower_tails(ops, mu, y):
    r""":math:`(P(L < y), Q(L < y)) = (\Phi(y/\mu - \mu/2),\ \Phi(y/\mu + \mu/2))`: the complements
    of :func:`tails`, computed directly so that small ones keep their relative accuracy."""
    return ops.phi(y / mu - mu / 2), ops.phi(y / mu + mu / 2)


def trade_off(ops, mu, alpha):
    r""":math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)` (DRS Def. 2.7)."""
    return ops.phi(ops.phi_inv(1 - alpha) - mu)


def loss_law(mu):
    r"""The law of the loss under P: normal with mean :math:`\mu^2/2` and standard deviation μ
    (``(mean, sd)`` in the numbers of ``mu``)."""
    return mu * mu / 2, mu
