"""Exact output distributions, and the pair quantities computed two ways."""

import math
from fractions import Fraction

import pytest

from symdp.bagging import ORDERINGS, Sampling
from symdp.bagging import enumeration as en
from symdp.core.errors import InvalidParameterError

WR, JOINT, INDEP = Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_JOINT, \
    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
W_VALUES = [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(4)]


def test_distributions_are_uniform_over_the_listed_outputs():
    P = en.distribution(WR, (0, 1, 2), 2)
    assert len(P) == 9 and set(P.values()) == {Fraction(1, 9)}
    P = en.distribution(JOINT, (0, 1, 2, 3), 1, 2)
    assert len(P) == 12 and all(len(set(a) | set(b)) == 2 for a, b in P)
    P = en.distribution(INDEP, (0, 1, 2, 3), 2, 2)
    assert len(P) == 36 and sum(P.values()) == 1


@pytest.mark.parametrize("sampling, size, k, models", [
    (WR, 4, 3, 1), (WR, 3, 1, 2), (JOINT, 6, 2, 2), (JOINT, 5, 2, 1), (INDEP, 5, 2, 2)])
def test_output_count_matches_the_listing(sampling, size, k, models):
    assert en.output_count(sampling, size, k, models) == len(
        en.distribution(sampling, tuple(range(size)), k, models))


def test_joint_split_is_a_uniform_subset_split_uniformly():
    P = en.distribution(JOINT, tuple(range(5)), 2, 2)
    assert len(P) == math.comb(5, 4) * math.comb(4, 2)


def test_distributions_are_read_only():
    P = en.distribution(WR, (0, 1), 1)
    with pytest.raises(TypeError):
        P[(0,)] = Fraction(1)


def test_enumeration_refuses_huge_cases():
    with pytest.raises(InvalidParameterError, match="MAX_OUTPUTS"):
        en.distribution(WR, tuple(range(100)), 10)


@pytest.mark.parametrize("sampling, n, k, models", [
    (WR, 2, 1, 1), (WR, 3, 1, 1), (WR, 2, 2, 1), (JOINT, 3, 1, 1), (JOINT, 4, 2, 1),
    (INDEP, 2, 1, 2)])
@pytest.mark.parametrize("ordering", ORDERINGS, ids=lambda o: o.key)
def test_hockey_stick_is_the_sup_over_all_events(sampling, n, k, models, ordering):
    P, Q = en.pair(sampling, n, k, models, ordering)
    for w in W_VALUES:
        assert en.hockey_stick(P, Q, w) == en.sup_over_events(P, Q, w)


@pytest.mark.parametrize("sampling, n, k, models", [
    (WR, 4, 2, 1), (WR, 3, 2, 2), (JOINT, 6, 2, 2), (INDEP, 5, 2, 2)])
@pytest.mark.parametrize("ordering", ORDERINGS, ids=lambda o: o.key)
def test_compressed_tables_agree_with_the_full_listing(sampling, n, k, models, ordering):
    P, Q = en.pair(sampling, n, k, models, ordering)
    rows = en.table(sampling, n, k, models, ordering)
    assert sum(c for _, _, c in rows) == len(set(P) | set(Q))
    for w in W_VALUES:
        assert en.table_hockey_stick(rows, w) == en.hockey_stick(P, Q, w)
    assert en.table_total_variation(rows) == en.total_variation(P, Q) == en.hockey_stick(P, Q, 1)
    for alpha in (Fraction(0), Fraction(1, 7), Fraction(1, 2), Fraction(5, 6), Fraction(1)):
        assert en.table_tradeoff_at(rows, alpha) == en.tradeoff_at(P, Q, alpha)
    for region in (1, 2, 3):
        outputs = en.regions(sampling, n, k, ordering.neighbour, models)[region]
        assert en.table_hockey_stick(en.table(sampling, n, k, models, ordering, region), 2) == \
            en.hockey_stick_on(P, Q, 2, outputs)


def _tradeoff_by_brute_force(P, Q, alpha):
    """Lower convex hull of (alpha, beta) over every deterministic test (exact, tiny cases)."""
    outcomes = sorted(set(P) | set(Q))
    points = set()
    for mask in range(1 << len(outcomes)):
        reject = [o for i, o in enumerate(outcomes) if mask >> i & 1]
        points.add((sum((P.get(o, 0) for o in reject), Fraction(0)),
                    1 - sum((Q.get(o, 0) for o in reject), Fraction(0))))
    hull = []
    for pt in sorted(points):
        while len(hull) >= 2 and (hull[-1][0] - hull[-2][0]) * (pt[1] - hull[-2][1]) - \
                (hull[-1][1] - hull[-2][1]) * (pt[0] - hull[-2][0]) <= 0:
            hull.pop()
        hull.append(pt)
    best = min(b for a, b in hull if a <= alpha)  # randomising never needs more than alpha
    for (a1, b1), (a2, b2) in zip(hull, hull[1:]):
        if a1 <= alpha <= a2 and a1 < a2:
            best = min(best, b1 + (b2 - b1) * (alpha - a1) / (a2 - a1))
    return best


@pytest.mark.parametrize("sampling, n, k, models", [(WR, 3, 1, 1), (WR, 2, 2, 1), (JOINT, 4, 2, 1)])
@pytest.mark.parametrize("ordering", ORDERINGS, ids=lambda o: o.key)
def test_neyman_pearson_matches_brute_force_over_tests(sampling, n, k, models, ordering):
    P, Q = en.pair(sampling, n, k, models, ordering)
    for alpha in (Fraction(0), Fraction(1, 5), Fraction(1, 2), Fraction(3, 4), Fraction(1)):
        assert en.tradeoff_at(P, Q, alpha) == _tradeoff_by_brute_force(P, Q, alpha)


def test_regions_partition_the_joint_domain():
    for sign in (-1, 1):
        parts = en.regions(WR, 4, 2, sign)
        union = set(en.distribution(WR, en.dataset(4), 2)) | set(
            en.distribution(WR, en.neighbour(4, sign), 2))
        assert parts[1] | parts[2] | parts[3] == union
        assert not (parts[1] & parts[2] or parts[1] & parts[3] or parts[2] & parts[3])
