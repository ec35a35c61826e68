"""Exact profiles, total variation and trade-off functions vs enumeration on small cases."""

from fractions import Fraction

import pytest
import sympy as sp

from symdp.bagging import ORDERINGS, REMOVE_D_FIRST, Sampling
from symdp.bagging import enumeration as en
from symdp.bagging import paper
from symdp.bagging import profile as pf

WR, JOINT, INDEP = Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_JOINT, \
    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT

CASES = (
    [(WR, n, k, 1) for n in range(2, 7) for k in range(1, 5)]
    + [(WR, n, k, 2) for n in range(2, 5) for k in (1, 2)]
    + [(JOINT, n, k, m) for n in range(2, 8) for k in range(1, 6) for m in (1, 2) if m * k <= n - 1]
    + [(INDEP, n, k, 2) for n in range(2, 7) for k in range(1, 4) if k <= n - 1]
)
#: e^eps as exact rationals: below 1, at 1 (eps = 0), above 1
W_VALUES = [Fraction(0), Fraction(1, 3), Fraction(1), Fraction(6, 5), Fraction(2), Fraction(7)]
ALPHAS = [Fraction(0), Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(4, 5), Fraction(1)]


def _r(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _ids(case):
    s, n, k, m = case
    return f"{s.name}-n{n}-k{k}-N{m}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_profile_of_every_ordering_matches_sum_of_positive_parts(case):
    sampling, n, k, models = case
    for o in ORDERINGS:
        P, Q = en.pair(sampling, n, k, models, o)
        for w in W_VALUES:
            exact = en.hockey_stick(P, Q, w)   # sum_o (P(o) - w Q(o))_+, every output listed
            assert pf.privacy_profile(sampling, o, n, k, models, _r(w)) == _r(exact), (o.key, w)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_worst_case_for_eps_nonnegative_is_q_of_n_and_equals_paper_delta(case):
    sampling, n, k, models = case
    q = pf.max_privacy_profile(sampling, n, k, models)
    assert q == paper.paper_delta(sampling, n, k, models)
    for w in W_VALUES:
        if w < 1:
            continue
        worst = max(en.hockey_stick(*en.pair(sampling, n, k, models, o), w) for o in ORDERINGS)
        assert _r(worst) == q


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_paper_pair_holds_in_every_ordering_and_so_does_zero_epsilon(case):
    sampling, n, k, models = case
    w_paper = Fraction(str(paper.paper_exp_epsilon(sampling, n, k, models)))
    delta = paper.paper_delta(sampling, n, k, models)
    for o in ORDERINGS:
        P, Q = en.pair(sampling, n, k, models, o)
        assert _r(en.hockey_stick(P, Q, w_paper)) <= delta
        assert _r(en.hockey_stick(P, Q, 1)) <= delta


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_total_variation_is_q_of_the_larger_dataset(case):
    sampling, n, k, models = case
    for o in ORDERINGS:
        P, Q = en.pair(sampling, n, k, models, o)
        assert _r(en.total_variation(P, Q)) == pf.total_variation(sampling, o, n, k, models)
    assert pf.total_variation(sampling, None, n, k, models) == pf.inclusion_probability(sampling, n, k, models)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_tradeoff_of_every_ordering_and_the_tight_envelope(case):
    sampling, n, k, models = case
    q = pf.inclusion_probability(sampling, n, k, models)
    for alpha in ALPHAS + [Fraction(str(1 - q))]:
        values = []
        for o in ORDERINGS:
            P, Q = en.pair(sampling, n, k, models, o)
            t = _r(en.tradeoff_at(P, Q, alpha))
            assert pf.tradeoff(sampling, o, n, k, models, _r(alpha)) == t, (o.key, alpha)
            values.append(t)
        tight = pf.tight_tradeoff(sampling, n, k, models, _r(alpha))
        assert tight <= min(values)
        if alpha in (0, Fraction(str(1 - q))):   # the envelope touches the minimum there
            assert tight == min(values)


def test_inclusion_probability_decreases_with_dataset_size():
    for sampling, k, models in ((WR, 3, 2), (JOINT, 2, 1), (INDEP, 2, 3)):
        values = [pf.inclusion_probability(sampling, m, k, models) for m in range(7, 20)]
        assert all(a > b for a, b in zip(values, values[1:]))


def test_symbolic_identities():
    n, k, N, w = pf.n, pf.k, pf.N, pf.w
    for s in Sampling:
        assert sp.simplify(paper.paper_delta(s, n, k, N) - pf.max_privacy_profile(s, n, k, N)) == 0
        # the two profile forms agree for eps >= 0
        eps = sp.Symbol("e", nonnegative=True)
        for o in ORDERINGS:
            lhs = pf.privacy_profile(s, o, 5, 2, 1, sp.exp(eps))
            rhs = pf.privacy_profile_nonnegative_eps(s, o, 5, 2, 1, eps)
            for e in (0, sp.Rational(1, 3), 2):
                assert sp.simplify(lhs.subs(eps, e) - rhs.subs(eps, e)) == 0


def test_min_epsilon_and_min_delta():
    q = pf.inclusion_probability(WR, 4, 2)
    assert pf.min_epsilon_at(WR, q, 4, 2) == 0
    assert pf.min_epsilon_at(WR, q - sp.Rational(1, 100), 4, 2) == sp.oo
    assert pf.min_delta_at(WR, 3, 4, 2) == q
    # smaller-first ordering: (1 - e^eps (1 - q))_+ <= delta from eps = log((1 - delta)/(1 - q))
    o = [x for x in ORDERINGS if not x.larger_first][0]
    d = sp.Rational(1, 10)
    e = pf.ordering_min_epsilon(WR, o, d, 4, 2)
    assert sp.simplify(pf.privacy_profile_nonnegative_eps(WR, o, 4, 2, 1, e) - d) == 0
    assert pf.ordering_min_epsilon(WR, REMOVE_D_FIRST, d, 4, 2) == sp.oo


def test_tight_tradeoff_matches_the_tradeoff_algebra_of_the_first_seed():
    """C_q(0) built with symdp.tradeoff (Mixture, Inverse, PointwiseMin, ConvexEnvelope)."""
    tradeoff = pytest.importorskip("symdp.tradeoff")
    q = pf.inclusion_probability(WR, 6, 2)           # 11/36
    f_q = tradeoff.Mixture(tradeoff.Zero(), q)       # q 0 + (1 - q) Id
    assert sp.simplify(f_q.expr(pf.alpha) - pf.tradeoff(WR, ORDERINGS[1], 6, 2, 1, pf.alpha)) == 0
    envelope = tradeoff.ConvexEnvelope(tradeoff.PointwiseMin(f_q, tradeoff.Inverse(f_q)))
    for x in (0, sp.Rational(1, 5), sp.Rational(1, 2), sp.Rational(9, 10)):
        value = envelope.evaluate(x, dps=30)
        expected = pf.tight_tradeoff(WR, 6, 2, 1, x)
        assert abs(sp.Float(str(value), 30) - expected) < sp.Float("1e-12")
