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
from ..core.validation import shown
from ..events.base import event_argument
from ..events import (Adjacency, Composed, EpsDelta, Event, Gaussian, Laplace, PoissonSampled,
                      RandomizedResponse, SampledWithReplacement, SampledWithoutReplacement,
                      SelfComposed, TradeOffFunction, adjacency_of)
from . import pairs
from .certify import (EPS_MAX, MAX_PHASES, Q_RANGE, SIGMA_RANGE, STEPS_MAX, Bracket, Phase,
                      certified_delta, certified_epsilon)
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


#: the bootstrap's draws k and dataset size n: the multiplicities j <= k of the changed record
#: are enumerated where their weight is not negligible (about sqrt(k/n) of them), and every
#: group pair at distance j is put on one grid
BOOTSTRAP_K_MAX = 10 ** 6
BOOTSTRAP_N_MAX = 10 ** 12
#: the bootstrap's farthest group pair: the multiplicities j of non-negligible weight (up to
#: about k/n + 8 sqrt(k/n)) each give the base's pair at distance j, whose privacy loss grows
#: with j/sigma (Gaussian), j/b (Laplace) or j eps (eps_delta); the grid must hold the
#: farthest one, and beyond j/sigma = 10 the work grows past minutes
BOOTSTRAP_DISTANCE_MAX = 10


def steps_of(event: Event, times: int = 1) -> list[tuple[Event, int]]:
    """[(one-step event, count)] of a composition tree, identical steps merged (a composition
    is commutative: ``Composed([e] * 100)`` is e run 100 times), in order of first
    appearance.  Iterative, and a sub-event that occurs several times is flattened once
    (``Composed((s, s))`` doubles the counts of s, it does not read s twice)."""
    event_argument("event", event)
    counts: dict = {}     # id(node) -> {step: count} of the subtree, one step run once
    stack = [(event, False)]
    keep = []             # the nodes whose ids are keys of counts
    while stack:
        node, children_done = stack.pop()
        if id(node) in counts:
            continue
        kids = node.children() if isinstance(node, (SelfComposed, Composed)) else ()
        if kids and not children_done:
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in counts)
            continue
        if isinstance(node, SelfComposed):
            merged = {step: n * node.count for step, n in counts[id(node.event)].items()}
        elif isinstance(node, Composed):
            merged = {}
            for k in node.events:
                for step, n in counts[id(k)].items():
                    merged[step] = merged.get(step, 0) + n
        else:
            merged = {node: 1}
        counts[id(node)] = merged
        keep.append(node)
    return [(step, n * times) for step, n in counts[id(event)].items()]


def base_pair(event: Event):
    """The dominating pair of an unsampled mechanism (symmetric: one for both directions)."""
    if isinstance(event, Gaussian):
        check_range("sigma", event.sigma, *SIGMA_RANGE)
        return pairs.Gaussian(event.mu)
    if isinstance(event, Laplace):
        check_range("b", event.b, *LAPLACE_B)
        return pairs.Laplace(event.b)
    if isinstance(event, RandomizedResponse):
        if event.eps0 == 0 or event.noise_parameter == 1:
            name, value = ("eps0", 0) if event.eps0 is not None else ("noise_parameter", 1)
            raise InvalidParameterError(
                f"{'eps0 must be > 0' if name == 'eps0' else 'noise_parameter must be < 1'} for "
                f"randomized response in the certified accountant: {name}={value} reports a "
                f"uniformly random value, so its privacy loss is 0 and its epsilon 0 at every "
                f"delta; leave it out of the event")
        pair = pairs.RandomizedResponse.of(event)
        check_range("randomized response epsilon log(keep/other)", pair.loss_window(0)[1], 0.0, RR_EPS_MAX)
        return pair
    if isinstance(event, EpsDelta):
        if event.eps == 0:
            raise InvalidParameterError(
                f"eps must be > 0 for an eps_delta event in the certified accountant: the "
                f"(0, delta) pair has no privacy loss but 0 and +-infinity to put on its grid; "
                f"got eps=0, delta={event.delta}")
        check_range("eps", event.eps, 0.0, EPS_MAX)
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
        check_range("q", event.q, *Q_RANGE)
        if isinstance(event.event, Gaussian):
            check_range("sigma", event.event.sigma, *SIGMA_RANGE)
            return (pairs.PoissonGaussian(event.event.sigma, event.q, "remove"),
                    pairs.PoissonGaussian(event.event.sigma, event.q, "add"))
        base = base_pair(event.event)
        return PoissonSubsampled(base, event.q, "remove"), PoissonSubsampled(base, event.q, "add")
    if isinstance(event, SampledWithoutReplacement):
        check_range("p", event.p, *Q_RANGE)
        if isinstance(event.event, Gaussian):
            check_range("sigma", event.event.sigma, *SIGMA_RANGE)
            return (pairs.UniformGaussian(event.event.sigma, event.p),)
        return (pairs.Subsampled(base_pair(event.event), event.p),)
    if isinstance(event, SampledWithReplacement):
        base_pair(event.event)            # validates the base and its range
        check_bootstrap(event)
        return (bootstrap_upper(event.event, event.n, event.k),)
    pair = base_pair(event)
    return (pair, pair) if adjacency is Adjacency.ADD_OR_REMOVE_ONE else (pair,)


def check_bootstrap(event: SampledWithReplacement) -> None:
    """Refuse a bootstrap beyond :data:`BOOTSTRAP_K_MAX`, :data:`BOOTSTRAP_N_MAX` or
    :data:`BOOTSTRAP_DISTANCE_MAX`, naming the limit, before any work."""
    from .sampled import multiplicities

    if event.k > BOOTSTRAP_K_MAX:
        raise InvalidParameterError(f"k must be at most {BOOTSTRAP_K_MAX} draws for the bootstrap "
                                    f"in the certified accountant (the limit on work); got k={event.k}")
    if event.n > BOOTSTRAP_N_MAX:
        raise InvalidParameterError(f"n must be at most {BOOTSTRAP_N_MAX} records for the bootstrap "
                                    f"in the certified accountant (the limit on work); got n={event.n}")
    far = multiplicities(event.n, event.k)[-1]
    base = event.event
    scale, what = ((1 / base.sigma, "j/sigma") if isinstance(base, Gaussian) else
                   (1 / base.b, "j/b") if isinstance(base, Laplace) else
                   (base.eps, "j eps") if isinstance(base, EpsDelta) else (0, ""))
    if far * scale > BOOTSTRAP_DISTANCE_MAX:
        raise InvalidParameterError(
            f"the bootstrap's farthest group pair must have {what} at most "
            f"{BOOTSTRAP_DISTANCE_MAX} in the certified accountant (the limit on work); got "
            f"{what} = {float(far * scale):.4g} (the record drawn up to j={far} times of k={event.k} "
            f"draws from n={event.n}): more noise, or fewer draws per record")


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
    steps_list = steps_of(event)
    if len(steps_list) > MAX_PHASES:
        raise InvalidParameterError(f"an event may have at most {MAX_PHASES} distinct steps (phases) "
                                    f"in the certified accountant (the limit on work: each is composed "
                                    f"on its own); got {len(steps_list)}")
    for step, steps in steps_list:
        if steps > STEPS_MAX:
            raise InvalidParameterError(f"the number of steps must be at most {STEPS_MAX}; got "
                                        f"{steps if steps < 10 ** 30 else 'more than 1e30'}")
    phases = []
    for step, steps in steps_list:
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
    event = event_argument("event", event)
    if (delta is None) == (eps is None):
        raise InvalidParameterError("give exactly one of delta (to bound epsilon) or eps (to bound delta)")
    if isinstance(precision, bool) or not isinstance(precision, int) or not 0 <= precision <= 6:
        raise InvalidParameterError(f"precision must be an integer in [0, 6]; got "
                                    f"precision={shown(precision)}")
    if progress is not None and not callable(progress):
        raise InvalidParameterError(f"progress must be a function of one message; got "
                                    f"progress={shown(progress)}")
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
