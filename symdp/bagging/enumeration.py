r"""Exact output distributions of bagging's subsample map on real small datasets.

Nothing here uses a formula being checked: datasets are tuples of record ids,
every output (sequence, subset, tuple of subsets) is listed with
:mod:`itertools`, and probabilities are exact :class:`fractions.Fraction`.

* ``D = (0, 1, ..., n - 1)``; the removed record is ``x = n - 1`` and the added
  record is ``y = n`` (see :func:`neighbour`).
* :func:`distribution` lists the outputs of a scheme on a dataset;
  :func:`pair` gives the ordered pair ``(P, Q)`` of an
  :class:`~symdp.bagging.schemes.Ordering`.
* :func:`hockey_stick` is :math:`\sum_o (P(o) - wQ(o))_+`, equal to
  :math:`\sup_S P(S) - wQ(S)`; :func:`sup_over_events` computes the sup by
  listing every event (tiny cases only) as a second method.
* :func:`tradeoff_at` is :math:`T(P, Q)(\alpha)` by the Neyman--Pearson lemma.
* :func:`regions` splits the joint domain into the paper's
  :math:`\Gamma_1, \Gamma_2, \Gamma_3` (or :math:`\Lambda_1, \Lambda_2, \Lambda_3`):
  outputs only ``D`` can produce, only ``D'`` can produce, both can produce.
"""

from __future__ import annotations

import itertools
import math
import types
from fractions import Fraction
from functools import lru_cache

from ..core.errors import InvalidParameterError
from .schemes import Ordering, Sampling
from ..core.validation import shown

Distribution = types.MappingProxyType  # read-only: output -> Fraction

#: Largest number of outputs listed; beyond it enumeration refuses (it is for small cases).
MAX_OUTPUTS = 250_000


def dataset(size: int) -> tuple:
    """The dataset ``(0, 1, ..., size - 1)``."""
    return tuple(range(size))


def neighbour(n: int, sign: int) -> tuple:
    """``D'``: ``D`` without record ``n - 1`` (sign -1) or with record ``n`` (sign +1)."""
    if sign not in (-1, 1):
        raise InvalidParameterError(f"sign must be -1 or +1; got sign={shown(sign)}")
    return dataset(n + sign)


def _ordered_disjoint_subsets(records: tuple, k: int, models: int):
    """Every tuple of ``models`` pairwise disjoint ``k``-subsets (as sorted tuples)."""
    if models == 0:
        yield ()
        return
    for first in itertools.combinations(records, k):
        rest = tuple(r for r in records if r not in first)
        for tail in _ordered_disjoint_subsets(rest, k, models - 1):
            yield (first,) + tail


def output_count(sampling: Sampling, size: int, k: int, models: int = 1) -> int:
    """Number of outputs of the scheme on ``size`` records (computed, not listed)."""
    if sampling is Sampling.WITH_REPLACEMENT:
        return size ** (models * k)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        count = 1
        for i in range(models):
            count *= math.comb(size - i * k, k) if size - i * k >= 0 else 0
        return count
    if sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        return math.comb(size, k) ** models
    raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")


@lru_cache(maxsize=256)
def distribution(sampling: Sampling, records: tuple, k: int, models: int = 1) -> Distribution:
    """Exact output distribution of the scheme on ``records`` (every output listed).

    * with replacement: all ``|records|^(N k)`` sequences, equally likely;
    * without replacement, joint: all ordered ``N``-tuples of disjoint
      ``k``-subsets (a uniform ``N k``-subset split uniformly), equally likely;
    * without replacement, independent: all ``N``-tuples of ``k``-subsets.
    """
    if k < 1 or models < 1:
        raise InvalidParameterError(f"k and models must be >= 1; got k={k}, models={models}")
    count = output_count(sampling, len(records), k, models)
    if count > MAX_OUTPUTS:
        raise InvalidParameterError(
            f"enumeration lists every output; {count} outputs exceed MAX_OUTPUTS={MAX_OUTPUTS} "
            f"(|X|={len(records)}, k={k}, models={models})")
    if sampling is Sampling.WITH_REPLACEMENT:
        outputs = list(itertools.product(records, repeat=models * k))
    elif sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        outputs = list(_ordered_disjoint_subsets(records, k, models))
    elif sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        subsets = list(itertools.combinations(records, k))
        outputs = list(itertools.product(subsets, repeat=models))
    else:
        raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")
    if not outputs:
        raise InvalidParameterError(
            f"the scheme has no output on a dataset of {len(records)} records with k={k}, "
            f"models={models}")
    p = Fraction(1, len(outputs))
    return types.MappingProxyType({o: p for o in outputs})


def pair(sampling: Sampling, n: int, k: int, models: int, ordering: Ordering):
    """The ordered pair ``(P, Q)`` of ``ordering`` for ``|D| = n``."""
    p_d = distribution(sampling, dataset(n), k, models)
    p_dprime = distribution(sampling, neighbour(n, ordering.neighbour), k, models)
    return (p_d, p_dprime) if ordering.d_first else (p_dprime, p_d)


def hockey_stick(P: Distribution, Q: Distribution, w) -> Fraction:
    r""":math:`\sum_o (P(o) - wQ(o))_+` over all outputs, exactly."""
    w = Fraction(w)
    total = Fraction(0)
    for o, p in P.items():
        d = p - w * Q.get(o, 0)
        if d > 0:
            total += d
    return total


def hockey_stick_on(P: Distribution, Q: Distribution, w, outputs) -> Fraction:
    r""":math:`\sum_{o \in A} (P(o) - wQ(o))_+ = \sup_{S \subseteq A} P(S) - wQ(S)`."""
    w = Fraction(w)
    total = Fraction(0)
    for o in outputs:
        d = P.get(o, 0) - w * Q.get(o, 0)
        if d > 0:
            total += d
    return total


def sup_over_events(P: Distribution, Q: Distribution, w, limit: int = 16) -> Fraction:
    r""":math:`\max_S P(S) - wQ(S)` by listing all :math:`2^{|\Omega|}` events (second method)."""
    outcomes = sorted(set(P) | set(Q))
    if len(outcomes) > limit:
        raise InvalidParameterError(
            f"sup_over_events lists 2^|outputs| events; needs at most {limit} outputs, "
            f"got {len(outcomes)}")
    w = Fraction(w)
    best = Fraction(0)
    for mask in range(1 << len(outcomes)):
        event = [o for i, o in enumerate(outcomes) if mask >> i & 1]
        value = sum((P.get(o, 0) for o in event), Fraction(0)) - w * sum(
            (Q.get(o, 0) for o in event), Fraction(0))
        best = max(best, value)
    return best


def total_variation(P: Distribution, Q: Distribution) -> Fraction:
    r""":math:`\tfrac12 \sum_o |P(o) - Q(o)|` (a second method for :math:`\delta(0)`)."""
    outcomes = set(P) | set(Q)
    return sum((abs(P.get(o, 0) - Q.get(o, 0)) for o in outcomes), Fraction(0)) / 2


def tradeoff_at(P: Distribution, Q: Distribution, alpha) -> Fraction:
    r""":math:`T(P, Q)(\alpha) = \inf\{1 - E_Q\phi : E_P \phi \le \alpha\}`, exactly.

    Neyman--Pearson: reject first where :math:`Q/P` is largest (outputs with
    :math:`P = 0` are free), randomising on the boundary output.
    """
    alpha = Fraction(alpha)
    if not 0 <= alpha <= 1:
        raise InvalidParameterError(f"alpha must be in [0, 1]; got alpha={alpha}")
    outcomes = set(P) | set(Q)
    power = sum((Q.get(o, 0) for o in outcomes if P.get(o, 0) == 0), Fraction(0))
    budget = alpha
    ranked = sorted((o for o in outcomes if P.get(o, 0) > 0),
                    key=lambda o: Q.get(o, 0) / P[o], reverse=True)
    for o in ranked:
        if budget <= 0:
            break
        p, q = P[o], Q.get(o, 0)
        take = min(Fraction(1), budget / p)
        power += take * q
        budget -= take * p
    return 1 - power


def regions(sampling: Sampling, n: int, k: int, sign: int, models: int = 1) -> dict:
    r"""The paper's partition of the joint domain for ``|D'| = n + sign``.

    Region 1: outputs only ``b(D)`` can produce (:math:`\Gamma_1`/:math:`\Lambda_1`);
    region 2: only ``b(D')``; region 3: both.  Keys 1, 2, 3 map to frozensets.
    """
    p_d = distribution(sampling, dataset(n), k, models)
    p_dprime = distribution(sampling, neighbour(n, sign), k, models)
    return {1: frozenset(o for o in p_d if o not in p_dprime),
            2: frozenset(o for o in p_dprime if o not in p_d),
            3: frozenset(o for o in p_d if o in p_dprime)}


@lru_cache(maxsize=1024)
def table(sampling: Sampling, n: int, k: int, models: int, ordering: Ordering, region: int = 0) -> tuple:
    r"""The pair of ``ordering`` compressed to rows ``(P(o), Q(o), multiplicity)``.

    Built by listing every output once (``region`` 0: all outputs, 1-3: the
    paper's regions); every pair quantity (hockey stick, total variation,
    trade-off, likelihood ratios) is a function of these rows, so checks at
    many values of w or alpha list the outputs only once.
    """
    P, Q = pair(sampling, n, k, models, ordering)
    if region == 0:
        outputs = set(P) | set(Q)
    else:
        outputs = regions(sampling, n, k, ordering.neighbour, models)[region]
    rows = {}
    for o in outputs:
        key = (P.get(o, Fraction(0)), Q.get(o, Fraction(0)))
        rows[key] = rows.get(key, 0) + 1
    return tuple((p, q, count) for (p, q), count in sorted(rows.items()))


def table_hockey_stick(rows, w) -> Fraction:
    r""":math:`\sum_o (P(o) - wQ(o))_+` from the rows of :func:`table`."""
    w = Fraction(w)
    return sum((count * (p - w * q) for p, q, count in rows if p - w * q > 0), Fraction(0))


def table_total_variation(rows) -> Fraction:
    return sum((count * abs(p - q) for p, q, count in rows), Fraction(0)) / 2


def table_tradeoff_at(rows, alpha) -> Fraction:
    """:func:`tradeoff_at` from the rows of :func:`table` (rows merged into masses)."""
    alpha = Fraction(alpha)
    if not 0 <= alpha <= 1:
        raise InvalidParameterError(f"alpha must be in [0, 1]; got alpha={alpha}")
    power = sum((count * q for p, q, count in rows if p == 0), Fraction(0))
    budget = alpha
    for p, q, count in sorted((r for r in rows if r[0] > 0), key=lambda r: r[1] / r[0], reverse=True):
        if budget <= 0:
            break
        mass_p, mass_q = count * p, count * q
        take = min(Fraction(1), budget / mass_p)
        power += take * mass_q
        budget -= take * mass_p
    return 1 - power


def probability(P: Distribution, outputs) -> Fraction:
    """``P(outputs)``."""
    return sum((P.get(o, 0) for o in outputs), Fraction(0))
