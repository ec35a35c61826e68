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
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.validation import shown
from .base import Event, count, event_argument, real, set_field, validated
from .eps_delta import EpsDelta
from .gaussian import Gaussian
from .laplace import Laplace
from .randomized_response import RandomizedResponse

__all__ = ["Adjacency", "Event", "Gaussian", "Laplace", "RandomizedResponse", "EpsDelta",
           "TradeOffFunction", "PoissonSampled", "SampledWithoutReplacement", "SampledWithReplacement",
           "SelfComposed", "Composed", "walk", "adjacency_of", "tree_of", "real", "count",
           "MAX_DEPTH", "MAX_EVENTS"]

class Adjacency(enum.Enum):
    """Neighbouring datasets (dp_accounting's ``NeighboringRelation``)."""

    ADD_OR_REMOVE_ONE = "add_or_remove_one"
    REPLACE_ONE = "replace_one"


#: the deepest event tree (an event inside another is one level deeper): real trees are a
#: few levels deep; the limit keeps every reader and writer of a tree far from Python's
#: recursion limit
MAX_DEPTH = 64
#: the most events in one tree, counted as written out (a sub-event that occurs twice counts
#: twice; ``SelfComposed(e, n)`` is n runs of e in two events): every reading of a tree
#: (equality, hashing, JSON, the accountant's flattening) is bounded by it
MAX_EVENTS = 100_000


def _own_adjacency(event) -> frozenset:
    if isinstance(event, PoissonSampled):
        return frozenset({Adjacency.ADD_OR_REMOVE_ONE})
    if isinstance(event, (SampledWithoutReplacement, SampledWithReplacement)):
        return frozenset({Adjacency.REPLACE_ONE})
    return frozenset()


def tree_of(event: Event) -> tuple[int, int, frozenset]:
    """``(depth, events written out, adjacencies)`` of the tree of ``event``: cached on the
    events built here (:func:`_settle`), else computed iteratively, each sub-event once."""
    cached = event.__dict__.get("_tree")
    if cached is not None:
        return cached
    memo: dict = {}
    stack = [(event, False)]
    while stack:
        e, children_done = stack.pop()
        if id(e) in memo:
            continue
        cached = e.__dict__.get("_tree")
        kids = () if cached is not None else e.children()
        if cached is None and kids and not children_done:
            stack.append((e, True))
            stack.extend((k, False) for k in kids if id(k) not in memo)
            continue
        if cached is None:
            parts = [memo[id(k)] for k in kids]
            cached = (1 + max((d for d, _, _ in parts), default=0),
                      1 + sum(n for _, n, _ in parts),
                      _own_adjacency(e).union(*(a for _, _, a in parts)))
        memo[id(e)] = cached
    return memo[id(event)]


def _settle(event: Event) -> None:
    """Cache :func:`tree_of` on a new event with sub-events, refusing a tree over
    :data:`MAX_DEPTH` or :data:`MAX_EVENTS` (before any analysis reads it)."""
    parts = [tree_of(child) for child in event.children()]
    depth = 1 + max((d for d, _, _ in parts), default=0)
    size = 1 + sum(n for _, n, _ in parts)
    if depth > MAX_DEPTH:
        raise InvalidParameterError(f"events may be nested at most {MAX_DEPTH} deep (the limit); "
                                    f"got a tree {depth} deep")
    if size > MAX_EVENTS:
        raise InvalidParameterError(
            f"an event tree may hold at most {MAX_EVENTS} events written out (the limit: a "
            f"sub-event that occurs n times counts n times; SelfComposed(event, n) is n runs in "
            f"two events); got {size}")
    set_field(event, "_tree", (depth, size, _own_adjacency(event).union(*(a for _, _, a in parts))))


@validated
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

@validated
@dataclass(frozen=True)
class PoissonSampled(Event):
    """Each record enters the batch independently with probability q (add/remove one)."""

    event: Event
    q: Fraction
    kind = "poisson_sampled"

    def __post_init__(self):
        event_argument("event", self.event)
        set_field(self, "q", real("q", self.q, 0, 1, lower_open=True))
        _settle(self)

    def children(self):
        return (self.event,)


@validated
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
            _settle(self)
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
        _settle(self)

    def children(self):
        return (self.event,)


@validated
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
        _settle(self)

    def children(self):
        return (self.event,)

    def multiplicity(self, j: int) -> Fraction:
        """P(a given record is drawn exactly j times) = C(k, j) n^{-j} (1 − 1/n)^{k−j}, exact."""
        from math import comb
        if not 0 <= j <= self.k:
            return Fraction(0)
        return comb(self.k, j) * Fraction(1, self.n) ** j * Fraction(self.n - 1, self.n) ** (self.k - j)


# ----------------------------------------------------------------------------- composition

@validated
@dataclass(frozen=True)
class SelfComposed(Event):
    """``count`` independent runs of ``event`` on the same dataset."""

    event: Event
    count: int
    kind = "self_composed"

    def __post_init__(self):
        event_argument("event", self.event)
        set_field(self, "count", count("count", self.count))
        _settle(self)

    def children(self):
        return (self.event,)


@validated
@dataclass(frozen=True)
class Composed(Event):
    """The events run one after another (independently) on the same dataset."""

    events: tuple
    kind = "composed"

    def __post_init__(self):
        given = self.events
        if isinstance(given, (str, bytes, dict, Event)) or not isinstance(given, Iterable):
            raise InvalidParameterError(f"events must be a non-empty sequence of events; got "
                                        f"events={shown(given)}")
        events = tuple(itertools.islice(given, MAX_EVENTS + 1))   # an endless iterator stops here
        if not events:
            raise InvalidParameterError(f"events must be a non-empty sequence of events; got "
                                        f"events={shown(given)}")
        if len(events) > MAX_EVENTS:
            raise InvalidParameterError(f"events may hold at most {MAX_EVENTS} events (the limit; "
                                        f"SelfComposed(event, n) is n runs of one event); got more")
        for i, e in enumerate(events):
            event_argument(f"events[{i}]", e)
        set_field(self, "events", events)
        _settle(self)
        adjacency_of(self)      # refuses a mixture of adjacencies

    def children(self):
        return self.events


def walk(event: Event):
    """The event and all its sub-events, depth first (iteratively: no recursion limit; a
    sub-event that occurs twice is visited twice, at most :data:`MAX_EVENTS` in all)."""
    stack = [event]
    while stack:
        e = stack.pop()
        yield e
        stack.extend(reversed(e.children()))


def adjacency_of(event: Event) -> Adjacency | None:
    """The adjacency the event's sampling fixes (None: no sampling event, either holds)."""
    found = tree_of(event_argument("event", event))[2]
    if len(found) > 1:
        raise InvalidParameterError("a composition must use one adjacency; got both add/remove-one "
                                    "(Poisson sampling) and replace-one (sampling from n records)")
    return next(iter(found)) if found else None
