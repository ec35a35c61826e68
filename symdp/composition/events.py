r"""The symbolic views of an event (``symdp.events``): its trade-off function and its
privacy-loss law (issue #23).

=====================================  =========================================================
event                                  trade-off function (Dong-Roth-Su 2022, arXiv 1905.02383v3)
=====================================  =========================================================
``Gaussian(sigma)``                    :math:`G_{1/\sigma}` (Def. 2.7)
``Laplace(b)``                         the Laplace family at :math:`\mu = 1/b` (Sec. 2.3)
``RandomizedResponse(rho, 2)``         :math:`f_{\varepsilon_0, 0}`, :math:`\varepsilon_0 = \log(\mathrm{keep}/\mathrm{other}) = \log\frac{2-\rho}{\rho}`
``EpsDelta(eps, delta)``               :math:`f_{\varepsilon,\delta}` (Eq. 5)
``TradeOffFunction(expr)``             the expression (``TradeOff(expr)``, checked against Prop. 2.2)
``SampledWithoutReplacement(e, p)``    :math:`C_p(f)` (Def. 4.1, Thm. 4.2)
``PoissonSampled(e, q)``               :math:`C_q(f) = \min\{f_q, f_q^{-1}\}^{**}`: the two
                                       directions' trade-off functions are :math:`f_q` and
                                       :math:`f_q^{-1}` (remove, add), and the worse of the two
                                       profiles is the profile of this envelope (Def. 4.1)
``SelfComposed(e, T)``                 :math:`f^{\otimes T}` (Def. 3.1)
``Composed([e1, ...])``                :math:`f_1 \otimes f_2 \otimes \cdots`
=====================================  =========================================================

The bootstrap (``SampledWithReplacement``) and k-ary randomized response with k > 2 have no
trade-off object here yet: :class:`InvalidParameterError` says so.
"""

from __future__ import annotations

import sympy as sp

from ..core.errors import InvalidParameterError
from ..events import (Composed, EpsDelta, Event, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                      SampledWithReplacement, SampledWithoutReplacement, SelfComposed, TradeOffFunction)
from ..events.backends import SYMPY
from ..events.base import event_argument
from ..subsampling import subsample
from ..tradeoff import EpsDelta as EpsDeltaTradeOff
from ..tradeoff import Gaussian as GaussianTradeOff
from ..tradeoff import Laplace as LaplaceTradeOff
from ..tradeoff import TradeOff
from .products import loss_of, tensor, tensor_power


def _q(x) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def tradeoff_of(event: Event) -> TradeOff:
    """The trade-off function of ``event`` as a symdp trade-off object (exact, unevaluated).

    Identical events of a composition are one self-composition (``Composed([e] * 100)`` is
    :math:`f^{\\otimes 100}`: the tensor product is commutative), and a sub-event that occurs
    several times is converted once."""
    return _tradeoff(event_argument("event", event), {})


def _tradeoff(event: Event, memo: dict) -> TradeOff:
    if id(event) not in memo:
        memo[id(event)] = (event, _tradeoff_of(event, memo))   # the event kept: ids stay unique
    return memo[id(event)][1]


def _tradeoff_of(event: Event, memo: dict) -> TradeOff:
    tradeoff_of = lambda e: _tradeoff(e, memo)   # noqa: E731 - the recursion, memoised
    if isinstance(event, Gaussian):
        return GaussianTradeOff(_q(event.mu))
    if isinstance(event, Laplace):
        return LaplaceTradeOff(_q(event.mu))
    if isinstance(event, EpsDelta):
        return EpsDeltaTradeOff(_q(event.eps), _q(event.delta))
    if isinstance(event, RandomizedResponse):
        if event.num_buckets != 2:
            raise InvalidParameterError(f"the trade-off view of randomized response needs num_buckets=2; "
                                        f"got num_buckets={event.num_buckets}")
        return EpsDeltaTradeOff(event.loss(SYMPY), 0)
    if isinstance(event, TradeOffFunction):
        return TradeOff(event.expr)
    if isinstance(event, SampledWithoutReplacement):
        return subsample(tradeoff_of(event.event), _q(event.p))
    if isinstance(event, PoissonSampled):
        return subsample(tradeoff_of(event.event), _q(event.q))
    if isinstance(event, SelfComposed):
        return tensor_power(tradeoff_of(event.event), event.count)
    if isinstance(event, Composed):
        counts: dict = {}
        for e in event.events:
            counts[e] = counts.get(e, 0) + 1
        factors = [tradeoff_of(e) if n == 1 else tensor_power(tradeoff_of(e), n)
                   for e, n in counts.items()]
        return factors[0] if len(factors) == 1 else tensor(*factors)
    if isinstance(event, SampledWithReplacement):
        raise InvalidParameterError("the bootstrap (SampledWithReplacement) has no trade-off object yet; "
                                    "symdp.account(event) gives its certified (eps, delta)")
    raise InvalidParameterError(f"no trade-off view of {event!r}")


def privacy_loss_of(event: Event):
    """The privacy-loss law of a one-step mechanism event (``GaussianLoss``, ``LaplaceLoss``,
    ``LossAtoms``), derived from its trade-off function (``products.loss_of``)."""
    if isinstance(event, (SelfComposed, Composed)):
        raise InvalidParameterError("privacy_loss_of takes one step; compose the losses with product_profile")
    return loss_of(tradeoff_of(event))
