r"""The events: frozen value objects, validated once, at construction.

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
from ..core.validation import positive_integer, rational


class Adjacency(enum.Enum):
    """Neighbouring datasets (dp_accounting's ``NeighboringRelation``)."""

    ADD_OR_REMOVE_ONE = "add_or_remove_one"
    REPLACE_ONE = "replace_one"


def real(name: str, value, lower=None, upper=None, *, lower_open=False, upper_open=False) -> Fraction:
    """A finite real parameter as an exact rational, checked against its bounds.

    The one conversion of the project, :func:`symdp.core.validation.rational` (int, Fraction,
    decimal string, float, NumPy number, mpf, SymPy number -- a SymPy ``Float`` as its exact
    binary value; NaN, infinities and irrationals refused, naming ``name``)."""
    return rational(name, value, lower, upper, lower_open=lower_open, upper_open=upper_open)


def count(name: str, value, minimum: int = 1) -> int:
    """An integer parameter >= ``minimum``."""
    v = positive_integer(name, value) if minimum >= 1 else int(real(name, value, minimum))
    if v < minimum:
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}; got {name}={v}")
    return v


class Event:
    """A privacy event.  Subclasses are frozen dataclasses."""

    #: the JSON ``kind`` (docs/events.md)
    kind = "event"

    def children(self) -> tuple:
        return ()


def _set(obj, name, value):
    object.__setattr__(obj, name, value)


def _event(name: str, value) -> Event:
    if not isinstance(value, Event):
        raise InvalidParameterError(f"{name} must be a symdp event; got {name}={value!r}")
    return value


# ----------------------------------------------------------------------------- mechanisms

@dataclass(frozen=True)
class Gaussian(Event):
    r"""The Gaussian mechanism, sensitivity 1, noise :math:`N(0, \sigma^2)`: the pair
    (N(1, σ²), N(0, σ²)), trade-off function :math:`G_{1/\sigma}` (Dong-Roth-Su 2022, Def. 2.7)."""

    sigma: Fraction
    kind = "gaussian"

    def __post_init__(self):
        _set(self, "sigma", real("sigma", self.sigma, 0, lower_open=True))

    @property
    def mu(self) -> Fraction:
        """The GDP parameter 1/sigma."""
        return 1 / self.sigma


@dataclass(frozen=True)
class Laplace(Event):
    r"""The Laplace mechanism, sensitivity 1, noise :math:`\mathrm{Lap}(0, b)`: the pair
    (Lap(1, b), Lap(0, b)); the trade-off function of Dong-Roth-Su 2022 Sec. 2.3 at μ = 1/b."""

    b: Fraction
    kind = "laplace"

    def __post_init__(self):
        _set(self, "b", real("b", self.b, 0, lower_open=True))

    @property
    def mu(self) -> Fraction:
        return 1 / self.b


@dataclass(frozen=True)
class RandomizedResponse(Event):
    r"""k-ary randomized response (dp_accounting's ``RandomizedResponseDpEvent``): the true
    value with probability :math:`1-\rho`, else uniform over the k values.  Changing the
    true value a to b, the tight pair is on {a, b, other} with
    P = (1 − ρ + ρ/k, ρ/k, (k−2)ρ/k), Q = (ρ/k, 1 − ρ + ρ/k, (k−2)ρ/k): losses
    :math:`\pm\varepsilon_0`, :math:`\varepsilon_0 = \log(1 + k(1-\rho)/\rho)`, and 0."""

    noise_parameter: Fraction
    num_buckets: int = 2
    kind = "randomized_response"

    def __post_init__(self):
        _set(self, "noise_parameter", real("noise_parameter", self.noise_parameter, 0, 1, lower_open=True))
        _set(self, "num_buckets", count("num_buckets", self.num_buckets, 2))

    @classmethod
    def binary(cls, eps0) -> "RandomizedResponse":
        r"""One bit kept with probability :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`:
        :math:`\rho = 2/(1+e^{\varepsilon_0})` -- exact only when that is rational, so this
        takes the rational ρ nearest below (more noise) to 40 digits; prefer ``noise_parameter``."""
        e = real("eps0", eps0, 0, lower_open=True)
        rho = sp.Rational(2) / (1 + sp.exp(sp.Rational(e.numerator, e.denominator)))
        value = Fraction(str(sp.N(rho, 45)))
        return cls(Fraction(value.limit_denominator(10 ** 40)))

    @property
    def keep(self) -> Fraction:
        """P(report a | true value a) = 1 − ρ + ρ/k."""
        return 1 - self.noise_parameter + self.noise_parameter / self.num_buckets

    @property
    def other(self) -> Fraction:
        """P(report b | true value a), b ≠ a: ρ/k."""
        return self.noise_parameter / self.num_buckets


@dataclass(frozen=True)
class EpsDelta(Event):
    r"""A mechanism known only to be (ε, δ)-DP: the guarantee :math:`f_{\varepsilon,\delta}`
    (Dong-Roth-Su 2022, Eq. 5, Prop. 2.5), whose pair is that of Kairouz-Oh-Viswanath 2015."""

    eps: Fraction
    delta: Fraction
    kind = "eps_delta"

    def __post_init__(self):
        _set(self, "eps", real("eps", self.eps, 0))
        _set(self, "delta", real("delta", self.delta, 0, 1, upper_open=True))


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
            _set(self, "text", str(self.expr))


# ----------------------------------------------------------------------------- sampling

@dataclass(frozen=True)
class PoissonSampled(Event):
    """Each record enters the batch independently with probability q (add/remove one)."""

    event: Event
    q: Fraction
    kind = "poisson_sampled"

    def __post_init__(self):
        _event("event", self.event)
        _set(self, "q", real("q", self.q, 0, 1, lower_open=True))

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
        _event("event", self.event)
        if self.n is None and self.m is None:
            if self.p is None:
                raise InvalidParameterError("SampledWithoutReplacement needs n and m, or p; got neither")
            _set(self, "p", real("p", self.p, 0, 1, lower_open=True))
            return
        if self.n is None or self.m is None:
            raise InvalidParameterError(f"SampledWithoutReplacement needs both n and m; got n={self.n!r}, m={self.m!r}")
        n, m = count("n", self.n), count("m", self.m)
        if m > n:
            raise InvalidParameterError(f"m must be <= n (a subset of the records); got m={m}, n={n}")
        _set(self, "n", n)
        _set(self, "m", m)
        ratio = Fraction(m, n)
        if self.p is not None and real("p", self.p, 0, 1) != ratio:
            raise InvalidParameterError(f"p must equal m/n = {ratio} when n and m are given; got p={self.p}")
        _set(self, "p", ratio)

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
        _event("event", self.event)
        _set(self, "n", count("n", self.n, 2))
        _set(self, "k", count("k", self.k))

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
        _event("event", self.event)
        _set(self, "count", count("count", self.count))

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
            _event(f"events[{i}]", e)
        _set(self, "events", events)
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
