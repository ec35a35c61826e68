r"""The events: frozen value objects, validated once, at construction.

The mechanisms (noise and guarantee events) live one module each, with every formula of
theirs: ``gaussian.py``, ``laplace.py``, ``randomized_response.py``, ``eps_delta.py``; this
module adds the trade-off formula, sampling and composition.

Conventions (those of dp_accounting's ``dp_event.py``, which this mirrors):

* a noise event has **sensitivity 1** under the adjacency in force: :class:`Gaussian` adds
  :math:`N(0, \sigma^2)` (``sigma`` is the noise multiplier), :class:`Laplace` adds
  :math:`\mathrm{Lap}(0, b)`;
* :class:`RandomizedResponse` reports the true value of one of ``num_buckets`` values with
  probability :math:`1 - \rho` and a uniformly random value with probability :math:`\rho`
  (``noise_parameter`` :math:`\rho`, dp_accounting's ``RandomizedResponseDpEvent``);
* the adjacency (:class:`Adjacency`) is fixed by the sampling event: Poisson sampling by
  adding or removing one record, sampling without or with replacement from a dataset of
  fixed size n by replacing one record.  Noise and guarantee events hold under either;
  a composition must not mix two (:class:`InvalidParameterError`).

Parameters are exact rationals (:class:`fractions.Fraction`): a float is read as its shortest
decimal (0.01 is 1/100), a string as the decimal or fraction it spells.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..core.errors import InvalidParameterError
from .base import Event, count, event_argument, real, set_field
from .eps_delta import EpsDelta
from .gaussian import Gaussian
from .laplace import Laplace
from .randomized_response import RandomizedResponse

__all__ = ["Adjacency", "Event", "Gaussian", "Laplace", "RandomizedResponse", "EpsDelta",
           "TradeOffFunction", "PoissonSampled", "SampledWithoutReplacement", "SampledWithReplacement",
           "SelfComposed", "Composed", "walk", "adjacency_of", "real", "count"]

class Adjacency(enum.Enum):
    """Neighbouring datasets (dp_accounting's ``NeighboringRelation``)."""

    ADD_OR_REMOVE_ONE = "add_or_remove_one"
    REPLACE_ONE = "replace_one"


@dataclass(frozen=True)
class TradeOffFunction(Event):
    r"""A mechanism given by its trade-off function, a SymPy expression in
    ``symdp.core.symbols.alpha`` (validated as a trade-off function by ``symdp.tradeoff``
    when an analysis reads it: Prop. 2.2 of Dong-Roth-Su 2022 is a claim to check, not a
    constructor argument).  ``text`` keeps the formula as typed, for messages and JSON."""

    expr: sp.Expr
    text: str = ""
    kind = "tradeoff"

    def __post_init__(self):
        from ..core.symbols import alpha
        if not isinstance(self.expr, sp.Expr):
            raise InvalidParameterError(f"expr must be a SymPy expression in alpha; got expr={self.expr!r}")
        extra = self.expr.free_symbols - {alpha}
        if extra:
            raise InvalidParameterError(f"expr must have no free symbol but alpha; got {sorted(map(str, extra))} "
                                        f"in expr={self.expr}")
        if not self.text:
            set_field(self, "text", str(self.expr))


# ----------------------------------------------------------------------------- sampling

@dataclass(frozen=True)
class PoissonSampled(Event):
    """Each record enters the batch independently with probability q (add/remove one)."""

    event: Event
    q: Fraction
    kind = "poisson_sampled"

    def __post_init__(self):
        event_argument("event", self.event)
        set_field(self, "q", real("q", self.q, 0, 1, lower_open=True))

    def children(self):
        return (self.event,)


@dataclass(frozen=True)
class SampledWithoutReplacement(Event):
    """A uniformly random m-subset of the n records (replace one); or, given ``p`` alone,
    a fraction p of them (Dong-Roth-Su 2022, Sec. 4: the operator C_p)."""

    event: Event
    n: int | None = None
    m: int | None = None
    p: Fraction | None = None
    kind = "sampled_without_replacement"

    def __post_init__(self):
        event_argument("event", self.event)
        if self.n is None and self.m is None:
            if self.p is None:
                raise InvalidParameterError("SampledWithoutReplacement needs n and m, or p; got neither")
            set_field(self, "p", real("p", self.p, 0, 1, lower_open=True))
            return
        if self.n is None or self.m is None:
            raise InvalidParameterError(f"SampledWithoutReplacement needs both n and m; got n={self.n!r}, m={self.m!r}")
        n, m = count("n", self.n), count("m", self.m)
        if m > n:
            raise InvalidParameterError(f"m must be <= n (a subset of the records); got m={m}, n={n}")
        set_field(self, "n", n)
        set_field(self, "m", m)
        ratio = Fraction(m, n)
        if self.p is not None and real("p", self.p, 0, 1) != ratio:
            raise InvalidParameterError(f"p must equal m/n = {ratio} when n and m are given; got p={self.p}")
        set_field(self, "p", ratio)

    def children(self):
        return (self.event,)


@dataclass(frozen=True)
class SampledWithReplacement(Event):
    r"""The bootstrap: k draws with replacement from the n records (replace one).  A record
    appears :math:`j \sim \mathrm{Binomial}(k, 1/n)` times (docs/bagging.md)."""

    event: Event
    n: int
    k: int
    kind = "sampled_with_replacement"

    def __post_init__(self):
        event_argument("event", self.event)
        set_field(self, "n", count("n", self.n, 2))
        set_field(self, "k", count("k", self.k))

    def children(self):
        return (self.event,)

    def multiplicity(self, j: int) -> Fraction:
        """P(a given record is drawn exactly j times) = C(k, j) n^{-j} (1 − 1/n)^{k−j}, exact."""
        from math import comb
        if not 0 <= j <= self.k:
            return Fraction(0)
        return comb(self.k, j) * Fraction(1, self.n) ** j * Fraction(self.n - 1, self.n) ** (self.k - j)


# ----------------------------------------------------------------------------- composition

@dataclass(frozen=True)
class SelfComposed(Event):
    """``count`` independent runs of ``event`` on the same dataset."""

    event: Event
    count: int
    kind = "self_composed"

    def __post_init__(self):
        event_argument("event", self.event)
        set_field(self, "count", count("count", self.count))

    def children(self):
        return (self.event,)


@dataclass(frozen=True)
class Composed(Event):
    """The events run one after another (independently) on the same dataset."""

    events: tuple
    kind = "composed"

    def __post_init__(self):
        events = tuple(self.events) if not isinstance(self.events, Event) else None
        if not events:
            raise InvalidParameterError(f"events must be a non-empty sequence of events; got events={self.events!r}")
        for i, e in enumerate(events):
            event_argument(f"events[{i}]", e)
        set_field(self, "events", events)
        adjacency_of(self)      # refuses a mixture of adjacencies

    def children(self):
        return self.events


def walk(event: Event):
    """The event and all its sub-events, depth first."""
    yield event
    for child in event.children():
        yield from walk(child)


def adjacency_of(event: Event) -> Adjacency | None:
    """The adjacency the event's sampling fixes (None: no sampling event, either holds)."""
    found = set()
    for e in walk(event):
        if isinstance(e, PoissonSampled):
            found.add(Adjacency.ADD_OR_REMOVE_ONE)
        elif isinstance(e, (SampledWithoutReplacement, SampledWithReplacement)):
            found.add(Adjacency.REPLACE_ONE)
    if len(found) > 1:
        raise InvalidParameterError("a composition must use one adjacency; got both add/remove-one "
                                    "(Poisson sampling) and replace-one (sampling from n records)")
    return found.pop() if found else None
