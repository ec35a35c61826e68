r"""Each enumerated bagging quantity derived symbolically through the counting lemmas of
:mod:`symdp.core.counting` -- for every n, k and N, not at points.

Liu, Jia, Gong, IJCAI 2021, Appendix, proofs of Thms. 2 and 3.  For a neighbouring pair
``S`` (smaller) and ``L = S u {z}`` (larger; ``L = D`` for the remove neighbour, ``D'``
for the add neighbour) the outputs of the subsample map on ``X`` are

* with replacement: ``Seq(X, N k)``, the :math:`|X|^{Nk}` sequences (``card_fun``);
* without replacement, jointly: ``Splits(X, N, k)``, the ordered N-tuples of disjoint
  k-subsets, :math:`\binom{|X|}{Nk}(Nk)!/(k!)^N` of them (``card_ordered_splits``);
* without replacement, independently: ``Tuples(KSubsets(X, k), N)``,
  :math:`\binom{|X|}{k}^N` of them (``card_powersetCard``, ``card_pi``);

each equally likely.  ``S <= L`` gives ``Out(S) <= Out(L)`` (``output_mono``); the
outputs that hold ``z`` are ``Out(L) \ Out(S)``, :math:`c_L - c_S` of them
(``card_sdiff``); ``Out(S) \ Out(L)`` is empty (``sdiff_eq_empty_of_subset``); the common
outputs are ``Out(D) n Out(D') = Out(S)`` (``output_inter``).  Hence every pair quantity
is a sum over two blocks, ``Out(L) \ Out(S)`` (probability :math:`1/c_L` under ``b(L)``,
0 under ``b(S)``) and ``Out(S)`` (:math:`1/c_L` and :math:`1/c_S`).

:func:`derive` returns a :class:`Derived` record: the applications (re-checked by
:func:`symdp.core.counting.check_derivation`), the blocks of the quantity, and its closed
form.  The kernel re-checks the applications and recomputes the closed form from the
blocks; the enumeration of :mod:`symdp.bagging.enumeration` is the independent check on
small cases.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..core import counting as ct
from .schemes import Dataset, Extreme, First, Neighbour, Region, Sampling


Derived = ct.Derived


def _out(sampling: Sampling, records: ct.Records, k, models):
    if sampling is Sampling.WITH_REPLACEMENT:
        return ct.Seq(records, models * k)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return ct.Splits(records, models, k)
    return ct.Tuples(ct.KSubsets(records, k), models)


def _card_applications(sampling, out) -> list:
    s = ct.records_of(out).size
    if sampling is Sampling.WITH_REPLACEMENT:
        return [ct.Application("card_fun", ct.Card(out, s ** out.length))]
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        total = out.count * out.block
        return [ct.Application("card_ordered_splits", ct.Card(
            out, sp.binomial(s, total) * sp.factorial(total) / sp.factorial(out.block) ** out.count))]
    inner = out.of
    c = sp.binomial(s, inner.size)
    return [ct.Application("card_powersetCard", ct.Card(inner, c)),
            ct.Application("card_pi", ct.Card(out, c ** out.count))]


@dataclass(frozen=True)
class _Pair:
    """The records, output sets, region sets and their counts for one neighbouring pair."""

    D: ct.Records
    Dp: ct.Records
    S: ct.Records
    L: ct.Records
    out: dict
    applications: tuple
    context: ct.Context
    c: dict          # records -> number of outputs
    regions: dict    # Region -> set
    new: object      # Out(L) \ Out(S)


def _pair(sampling, n, k, models, sign) -> _Pair:
    D = ct.Records("D", n)
    Dp = ct.Records("D'", n + sign)
    S, L = (Dp, D) if sign == Neighbour.REMOVE else (D, Dp)
    context = ct.Context(((S, L),))
    out = {X: _out(sampling, X, k, models) for X in (D, Dp)}
    apps = _card_applications(sampling, out[S]) + _card_applications(sampling, out[L])
    c = {X: ct.card_of([a.conclusion for a in apps], out[X]) for X in (S, L)}
    new = ct.Diff(out[L], out[S])
    empty = ct.Diff(out[S], out[L])
    common = ct.Inter(out[D], out[Dp])
    apps += [
        ct.Application("output_mono", ct.Subset(out[S], out[L])),
        ct.Application("card_sdiff", ct.Card(new, c[L] - c[S])),
        ct.Application("sdiff_eq_empty_of_subset", ct.Card(empty, sp.Integer(0))),
        ct.Application("output_inter", ct.SetEq(common, out[S])),
        ct.Application("card_congr", ct.Card(common, c[S])),
    ]
    only_d = ct.Diff(out[D], out[Dp])
    only_dp = ct.Diff(out[Dp], out[D])
    regions = {Region.ONLY_D: only_d, Region.ONLY_D_PRIME: only_dp, Region.BOTH: common}
    return _Pair(D, Dp, S, L, out, tuple(apps), context, c, regions, new)


def _blocks(pair: _Pair, region, p_records, q_records) -> tuple:
    """The blocks of ``region`` (ALL: both blocks) for P = b(p_records), Q = b(q_records)."""
    old = pair.out[pair.S]
    if region == Region.ALL:
        sets = [pair.new, old]
    else:
        r = pair.regions[Region(int(region))]
        sets = [] if r == ct.Diff(pair.out[pair.S], pair.out[pair.L]) else \
            [pair.new] if r == pair.new else [old]
    blocks = []
    for s in sets:
        count = pair.c[pair.L] - pair.c[pair.S] if s == pair.new else pair.c[pair.S]
        values = []
        for X in (p_records, q_records):
            support = pair.out[X]
            inside = not (s == pair.new and X == pair.S)
            values.append((support, inside, (1 / pair.c[X]) if inside else sp.Integer(0)))
        (ps, pin, p), (qs, qin, q) = values
        # the common block is named by the set it was shown equal to
        blocks.append(ct.Block(old if s == old else s, count, p, q, ps, qs, pin, qin))
    return tuple(blocks)


def derive(quantity) -> Derived | None:
    """The Derived record of an enumerated bagging quantity (symbolic arguments allowed), or
    None when no derivation is known."""
    from . import enumerated as en   # the quantity classes (this module is imported by them)

    name = type(quantity).__name__
    s = quantity.sampling
    arg = quantity.arg
    if name == "RegionCount":
        region = arg("region")
        if region == Region.ALL:
            return None
        pair = _pair(s, arg("n"), arg("k"), 1, int(arg("sign")))
        target = pair.regions[Region(int(region))]
        value = ct.card_of([a.conclusion for a in pair.applications], target)
        return Derived("count", value, pair.applications, pair.context, region=target)
    if name == "RegionProbability":
        region = arg("region")
        if region == Region.ALL:
            return None
        pair = _pair(s, arg("n"), arg("k"), 1, int(arg("sign")))
        X = pair.Dp if arg("of_dprime") == Dataset.D_PRIME else pair.D
        blocks = _blocks(pair, region, X, X)
        return Derived("probability", ct.probability_of_blocks(blocks), pair.applications,
                       pair.context, blocks)
    if name in ("HockeyStick", "TradeOff", "TotalVariation", "LikelihoodRatio"):
        first = arg("d_first") if name != "TotalVariation" else First.D
        pair = _pair(s, arg("n"), arg("k"), arg("models"), int(arg("sign")))
        P, Q = (pair.D, pair.Dp) if first == First.D else (pair.Dp, pair.D)
        region = arg("region") if name in ("HockeyStick", "LikelihoodRatio") else Region.ALL
        blocks = _blocks(pair, region, P, Q)
        if name == "HockeyStick":
            w = arg("num") / arg("den")
            return Derived("hockey_stick", ct.hockey_stick_of_blocks(blocks, w), pair.applications,
                           pair.context, blocks, w)
        if name == "TotalVariation":
            return Derived("total_variation", ct.total_variation_of_blocks(blocks),
                           pair.applications, pair.context, blocks)
        if name == "TradeOff":
            alpha = arg("a") / arg("b")
            value = ct.tradeoff_of_blocks(blocks, alpha)
            if value is None:
                return None
            return Derived("tradeoff", value, pair.applications, pair.context, blocks, alpha)
        # LikelihoodRatio: constant on each block; over a region the extreme of the blocks'
        if any(b.q == 0 for b in blocks) or not blocks:
            return None
        ratios = [b.p / b.q for b in blocks]
        value = sp.Max(*ratios) if arg("extreme") == Extreme.MAX else sp.Min(*ratios)
        return Derived("likelihood_ratio", value, pair.applications, pair.context, blocks,
                       sp.Integer(int(arg("extreme"))))
    if name in ("WorstHockeyStick", "LeastTradeOff"):
        from .schemes import ORDERINGS

        parts = []
        for o in ORDERINGS:
            if name == "WorstHockeyStick":
                q = en.HockeyStick(s, arg("n"), arg("k"), arg("models"), o.neighbour, o.first,
                                   Region.ALL, arg("num"), arg("den"))
            else:
                q = en.TradeOff(s, arg("n"), arg("k"), arg("models"), o.neighbour, o.first,
                                arg("a"), arg("b"))
            d = derive(q)
            if d is None:
                return None
            parts.append(d)
        op = sp.Max if name == "WorstHockeyStick" else sp.Min
        return Derived("max" if op is sp.Max else "min", op(*[d.value for d in parts]),
                       parts=tuple(parts))
    return None
