r"""Closed forms: a composition whose profile is known exactly, evaluated in Arb balls
(docs/accountant.md §5b; issue #31, D5).

A composition of Gaussian mechanisms with no sampling is again Gaussian: the T-fold product of
:math:`(N(\mu_i, 1), N(0, 1))` pairs is the pair of :math:`G_\mu` with
:math:`\mu^2 = \sum_i T_i \mu_i^2` (Dong-Roth-Su 2022, arXiv 1905.02383v3, Cor. 3.3), whose
profile is (Cor. 2.13)

.. math::
    \delta(\varepsilon) = \bar\Phi\Big(\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)
        - e^{\varepsilon}\,\bar\Phi\Big(\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)

and trade-off function :math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)` (Def. 2.7).  Both
are evaluated here in Arb from the exact rational :math:`\mu^2`, so a query costs
microseconds and its ball is the bracket (no grid, no FFT): ``symdp account`` of a plain
Gaussian took 6-12 s of CPU through the grid before.

:class:`ClosedComposed` has the interface of a composed direction of ``certify``
(``upper.delta``, ``lower.delta``, ``estimator``), so ε(δ), δ(ε) and the trade-off curve read
it unchanged.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction

import flint
from flint import arb, fmpq

from ..events import gaussian
from ..events.backends import ARB, FLOAT
from ..events.losses import profile_from_tails
from ..numeric.ball_ops import phi_inv as ball_phi_inv

#: the Arb backend with Phi^-1 of a ball (``erfc^-1``; the backend itself leaves it out)
ARB_INVERSE = dataclasses.replace(ARB, name="arb+phi_inv", phi_inv=ball_phi_inv)

#: working precisions tried until a ball is relatively this narrow
PRECISIONS = (128, 256, 512, 1024, 2048, 4096)
REL_TARGET = 2.0 ** -60


def _ball(x: Fraction) -> arb:
    x = Fraction(x)
    return arb(fmpq(x.numerator, x.denominator))


def _tight(compute):
    """``compute()`` at increasing Arb precision until its ball is relatively narrow (the
    profile cancels ~log10(A/δ) digits at large ε); the last ball if none is."""
    value = None
    for prec in PRECISIONS:
        with flint.ctx.workprec(prec):
            value = compute()
            if value.is_finite() and (value.rad() <= abs(value.mid()) * arb(REL_TARGET)
                                      or value.rad() < arb(2) ** -1000):
                return value
    return value


@dataclass(frozen=True)
class GaussianProfile:
    r"""The profile and trade-off function of :math:`G_\mu`, :math:`\mu^2` an exact rational > 0."""

    mu2: Fraction

    def mu(self) -> arb:
        return _ball(self.mu2).sqrt()

    def delta(self, eps, cut=None) -> arb:
        r"""A ball containing :math:`\delta(\varepsilon)` (Cor. 2.13), :math:`\varepsilon` exact: the
        Gaussian mechanism's tails (``symdp.events.gaussian.tails``) in the profile
        :math:`A(\varepsilon) - e^\varepsilon B(\varepsilon)` (``symdp.events.losses``)."""
        E = _ball(Fraction(eps))

        def compute():
            mu = self.mu()
            return profile_from_tails(ARB, lambda y: gaussian.tails(ARB, mu, y), E).max(arb(0))
        return _tight(compute)

    def trade_off(self, alpha) -> arb:
        r"""A ball containing :math:`G_\mu(\alpha)` (``symdp.events.gaussian.trade_off`` on balls,
        :math:`\Phi^{-1}` by ``symdp.numeric.ball_ops``), 0 < α < 1."""
        A = _ball(Fraction(alpha))
        return _tight(lambda: gaussian.trade_off(ARB_INVERSE, self.mu(), A))

    def estimator(self):
        """A float function eps -> delta(eps) (candidates only)."""
        mu = math.sqrt(float(self.mu2))

        def f(eps):
            a, b = gaussian.tails(FLOAT, mu, eps)
            return max(0.0, a - math.exp(min(eps, 700)) * b)
        return f


@dataclass
class ClosedComposed:
    """A composed direction given by a closed form: ``upper`` and ``lower`` are the same exact
    profile (its ball's ends are the bracket)."""

    upper: GaussianProfile
    lower: GaussianProfile
    name: str


def gaussian_closed_form(pairs, steps) -> ClosedComposed | None:
    """The closed form of a composition of plain Gaussian pairs (``pairs.Gaussian``), else None."""
    from .pairs import Gaussian

    if not all(type(p) is Gaussian for p in pairs):
        return None
    mu2 = sum((T * p.mu ** 2 for p, T in zip(pairs, steps)), Fraction(0))
    profile = GaussianProfile(mu2)
    return ClosedComposed(profile, profile, "Gaussian G_mu (closed form)")
