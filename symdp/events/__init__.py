r"""Privacy events: the one description of a mechanism, read by every analysis (issue #23).

An event is a frozen value object naming a mechanism and how it is used -- noise
(:class:`Gaussian`, :class:`Laplace`, :class:`RandomizedResponse`), a guarantee
(:class:`EpsDelta`, :class:`TradeOffFunction`), sampling (:class:`PoissonSampled`,
:class:`SampledWithoutReplacement`, :class:`SampledWithReplacement`) and composition
(:class:`Composed`, :class:`SelfComposed`) -- in the manner of dp_accounting's
``dp_event.py``.  Parameters are validated here, once; the analyses derive their views
from the event:

* the certified accountant: ``symdp.accountant.events`` (dominating pairs, brackets);
* the trade-off function and the privacy-loss law: ``symdp.composition.events``.

>>> from symdp.events import Gaussian, PoissonSampled, SelfComposed
>>> SelfComposed(PoissonSampled(Gaussian(1), "0.01"), 1000).count
1000
"""

from .events import (Adjacency, Composed, EpsDelta, Event, Gaussian, Laplace, PoissonSampled,
                     RandomizedResponse, SampledWithReplacement, SampledWithoutReplacement,
                     SelfComposed, TradeOffFunction, adjacency_of, tree_of, walk, MAX_DEPTH,
                     MAX_EVENTS)
from .convert import from_dp_accounting
from .serial import from_json, from_json_text, to_json

__all__ = ["Adjacency", "Composed", "EpsDelta", "Event", "Gaussian", "Laplace", "PoissonSampled",
           "RandomizedResponse", "SampledWithReplacement", "SampledWithoutReplacement",
           "SelfComposed", "TradeOffFunction", "adjacency_of", "tree_of", "walk", "from_json",
           "from_json_text", "to_json", "from_dp_accounting", "MAX_DEPTH", "MAX_EVENTS"]
