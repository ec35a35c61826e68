r"""The certified accountant for every event of ``symdp.events`` (issue #23; docs/accountant.md §1b).

The event tree is flattened into steps (a composition is commutative: ``SelfComposed`` multiplies
counts, ``Composed`` concatenates), each step is given its dominating pair in every direction
of the adjacency, and the phases go to :func:`symdp.accountant.certify.certified_epsilon` /
``certified_delta`` unchanged -- the numerics (and their argument) are those of certify.py
and discrete.py.

>>> from symdp.events import Gaussian, PoissonSampled, SelfComposed
>>> b = account(SelfComposed(PoissonSampled(Gaussian(1), "0.01"), 1000), delta="1e-5")  # doctest: +SKIP
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from ..core.errors import InvalidParameterError
from ..events.base import event_argument
from ..events import (Adjacency, Composed, EpsDelta, Event, Gaussian, Laplace, PoissonSampled,
                      RandomizedResponse, SampledWithReplacement, SampledWithoutReplacement,
                      SelfComposed, TradeOffFunction, adjacency_of)
from . import pairs
from .certify import (EPS_MAX, Q_RANGE, SIGMA_RANGE, STEPS_MAX, Bracket, Phase, certified_delta,
                      certified_epsilon)
from .pairs import check_range
from .sampled import BootstrapSumPair, PoissonSubsampled, bootstrap_upper

#: what the lower end of a bracket is a lower bound of
MECHANISM = "the mechanism"
GUARANTEE = "the guarantee only"

#: supported ranges of the accountant (outside: a clear error); sigma and q as for the CLI flags
LAPLACE_B = (0.05, 100.0)
RR_EPS_MAX = 20.0
K_MAX_REALISED = 64          # realised bootstrap pairs enumerate all multiplicities j <= k
BOOTSTRAP_T = (Fraction(0), Fraction(3, 4), Fraction(1))


def steps_of(event: Event, times: int = 1) -> list[tuple[Event, int]]:
    """[(one-step event, count)] of a composition tree, in order."""
    if isinstance(event, SelfComposed):
        return steps_of(event.event, times * event.count)
    if isinstance(event, Composed):
        return [s for e in event.events for s in steps_of(e, times)]
    return [(event, times)]


def base_pair(event: Event):
    """The dominating pair of an unsampled mechanism (symmetric: one for both directions)."""
    if isinstance(event, Gaussian):
        check_range("sigma", float(event.sigma), *SIGMA_RANGE)
        return pairs.Gaussian(event.mu)
    if isinstance(event, Laplace):
        check_range("b", float(event.b), *LAPLACE_B)
        return pairs.Laplace(event.b)
    if isinstance(event, RandomizedResponse):
        pair = pairs.RandomizedResponse.of(event)
        check_range("randomized response epsilon log(keep/other)", pair.loss_window(0)[1], 0.0, RR_EPS_MAX)
        return pair
    if isinstance(event, EpsDelta):
        check_range("eps", float(event.eps), 0.0, EPS_MAX)
        return pairs.EpsDelta(event.eps, event.delta)
    if isinstance(event, TradeOffFunction):
        raise InvalidParameterError(
            f"the certified accountant needs a dominating pair; a trade-off function given by a formula "
            f"({event.text}) has none computed here -- use symdp compose or symdp step for it")
    raise InvalidParameterError(f"cannot sample a {event.kind} event inside another sampling event "
                                f"(give the mechanism itself)")


def step_pairs(event: Event, adjacency) -> tuple:
    """The dominating pairs of one step: (remove, add) under add/remove-one, one pair otherwise."""
    if isinstance(event, PoissonSampled):
        check_range("q", float(event.q), *Q_RANGE)
        if isinstance(event.event, Gaussian):
            check_range("sigma", float(event.event.sigma), *SIGMA_RANGE)
            return (pairs.PoissonGaussian(event.event.sigma, event.q, "remove"),
                    pairs.PoissonGaussian(event.event.sigma, event.q, "add"))
        base = base_pair(event.event)
        return PoissonSubsampled(base, event.q, "remove"), PoissonSubsampled(base, event.q, "add")
    if isinstance(event, SampledWithoutReplacement):
        check_range("p", float(event.p), *Q_RANGE)
        if isinstance(event.event, Gaussian):
            check_range("sigma", float(event.event.sigma), *SIGMA_RANGE)
            return (pairs.UniformGaussian(event.event.sigma, event.p),)
        return (pairs.Subsampled(base_pair(event.event), event.p),)
    if isinstance(event, SampledWithReplacement):
        base_pair(event.event)            # validates the base and its range
        return (bootstrap_upper(event.event, event.n, event.k),)
    pair = base_pair(event)
    return (pair, pair) if adjacency is Adjacency.ADD_OR_REMOVE_ONE else (pair,)


def pair_of(event: Event) -> tuple:
    """The dominating pairs of a one-step event (a mechanism, or a sampled one): one per
    direction of its adjacency (``pairs.Gaussian`` for ``Gaussian(sigma)``, the two
    ``pairs.PoissonGaussian`` for ``PoissonSampled(Gaussian(sigma), q)``, ...)."""
    event = event_argument("event", event)
    if isinstance(event, (SelfComposed, Composed)):
        raise InvalidParameterError("pair_of takes one step; phases_of gives the phases of a composition")
    return step_pairs(event, adjacency_of(event))


def phases_of(event: Event) -> list[Phase]:
    """The phases (one per step kind) whose composition dominates the event."""
    event = event_argument("event", event)
    adjacency = adjacency_of(event)
    phases = []
    for step, steps in steps_of(event):
        if steps > STEPS_MAX:
            raise InvalidParameterError(f"the number of steps must be at most {STEPS_MAX}; got {steps}")
        phases.append(Phase(step_pairs(step, adjacency), steps))
    if all(len(ph.pairs) == 2 and ph.pairs[0] == ph.pairs[1] for ph in phases):
        phases = [Phase(ph.pairs[:1], ph.steps) for ph in phases]     # no sampling: one direction
    return phases


def lower_bounds_what(event: Event) -> str:
    """Whether the lower end of the bracket of :func:`phases_of` bounds the mechanism itself."""
    for step, _ in steps_of(event):
        if isinstance(step, (SampledWithoutReplacement, SampledWithReplacement, TradeOffFunction)):
            return GUARANTEE
    return MECHANISM


def realised_phases(event: Event):
    """For SelfComposed(SampledWithReplacement(Gaussian), N) (or one round): the phases of the
    realised dataset pairs of :class:`BootstrapSumPair`, one list per t; else None."""
    steps = steps_of(event)
    if len(steps) != 1:
        return None
    step, count = steps[0]
    if not (isinstance(step, SampledWithReplacement) and isinstance(step.event, Gaussian)
            and step.k <= K_MAX_REALISED):
        return None
    return [[Phase((BootstrapSumPair(step.event.sigma, step.n, step.k, t),), count)] for t in BOOTSTRAP_T]


@dataclass
class Accounting:
    """A certified bracket ``lo <= value <= hi`` for an event, and what its ends bound."""

    event: Event
    quantity: str            # "epsilon" or "delta"
    given: Fraction
    lo: Fraction
    hi: Fraction
    lower_bounds: str        # MECHANISM or GUARANTEE
    seconds: float
    precision: int
    upper: Bracket = field(repr=False)
    realised: list = field(default_factory=list, repr=False)

    @property
    def width(self) -> float:
        return float(self.hi - self.lo)


def account(event: Event, *, delta=None, eps=None, precision: int = 2, progress=None) -> Accounting:
    """Certified bracket on ε(δ) (give ``delta``) or δ(ε) (give ``eps``) of ``event``.

    ``hi`` always bounds the mechanism.  ``lo`` bounds the mechanism when ``lower_bounds`` is
    ``"the mechanism"``; for sampling without replacement (the C_p guarantee) and the
    bootstrap's revealed-multiplicity pair it bounds the guarantee only -- except for a
    bootstrapped Gaussian (k <= 64), whose ``lo`` is the largest certified lower end over
    realised neighbouring datasets (:class:`BootstrapSumPair`), a bound on the mechanism."""
    if not isinstance(event, Event):
        raise InvalidParameterError(f"event must be a symdp event; got event={event!r}")
    if (delta is None) == (eps is None):
        raise InvalidParameterError("give exactly one of delta (to bound epsilon) or eps (to bound delta)")
    start = time.perf_counter()
    run = ((lambda ph: certified_epsilon(ph, delta, precision=precision, progress=progress, closed=True))
           if delta is not None else
           (lambda ph: certified_delta(ph, eps, precision=precision, progress=progress, closed=True)))
    upper = run(phases_of(event))
    lo, what, realised = upper.lo, lower_bounds_what(event), []
    extra = realised_phases(event)
    if extra is not None:
        lo = Fraction(0)
        for phases in extra:
            if delta is not None:
                b = certified_epsilon(phases, delta, precision=precision, progress=progress, limits=False)
            else:
                b = certified_delta(phases, eps, precision=precision, progress=progress)
            realised.append((phases[0].pairs[0].t, b.lo))
            lo = max(lo, b.lo)
        what = MECHANISM
    hi = upper.hi
    if lo > hi:
        raise ArithmeticError(f"certified lower end {lo} above upper end {hi}: a bug, please report")
    return Accounting(event, upper.quantity, upper.given, lo, hi, what, time.perf_counter() - start,
                      precision, upper, realised)
