"""Issue #20: the counting lemmas, the algebra after them and induction never prove a false
counting claim.  Each mutant below is false for some admissible n, k, N (the comment says
where); its verdict must be REFUTED or evidence, never one that holds everywhere.  The
true claims next to them are PROVED, so the tests cannot pass by proving nothing."""

import pytest
import sympy as sp

from symdp.bagging.counting import gamma_count, lambda_count
from symdp.bagging.enumerated import HockeyStick, RegionCount, RegionProbability, WorstHockeyStick
from symdp.bagging.schemes import Dataset, First, Neighbour, Region, Sampling
from symdp.core import counting as ct
from symdp.proof.check import check_step
from symdp.proof.derivation import Derivation, Step
from symdp.proof.verdict import Verdict

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
x = sp.Symbol("x", real=True)
WR, WO, INDEP = (Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_JOINT,
                 Sampling.WITHOUT_REPLACEMENT_INDEPENDENT)
REMOVE, ADD = Neighbour.REMOVE, Neighbour.ADD
HYP = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}
ENUM = {n: range(2, 6), k: range(1, 4)}


def verdict(step, hypotheses=HYP, constraints=(), enumeration=ENUM):
    d = Derivation(id="mutant", statement="a false counting claim", citation="test",
                   hypotheses=hypotheses, steps=(step,), constraints=constraints,
                   chained=False, enumeration=enumeration)
    return check_step(step, d, 0, certify=False)


MUTANTS = [
    # off-by-one counts
    ("|Gamma_1| = n^k - (n-2)^k", Step(RegionCount(WR, Region.ONLY_D, n, k, REMOVE), "=",
                                        n ** k - (n - 2) ** k)),
    ("|Gamma_1| = (n+1)^k - n^k for the remove neighbour",
     Step(RegionCount(WR, Region.ONLY_D, n, k, REMOVE), "=", (n + 1) ** k - n ** k)),
    ("|Gamma_3| = n^k for remove", Step(RegionCount(WR, Region.BOTH, n, k, REMOVE), "=", n ** k)),
    ("|Gamma_2| = (n+1)^k - n^k + 1", Step(RegionCount(WR, Region.ONLY_D_PRIME, n, k, ADD), "=",
                                           (n + 1) ** k - n ** k + 1)),
    ("|Lambda_1| = C(n, k) - C(n-1, k-1)", Step(RegionCount(WO, Region.ONLY_D, n, k, REMOVE), "=",
                                                sp.binomial(n, k) - sp.binomial(n - 1, k - 1))),
    ("|Lambda_3| = C(n, k) for remove", Step(RegionCount(WO, Region.BOTH, n, k, REMOVE), "=",
                                             sp.binomial(n, k))),
    ("|Lambda_2| = C(n+1, k+1) - C(n, k+1)",
     Step(RegionCount(WO, Region.ONLY_D_PRIME, n, k, ADD), "=",
          sp.binomial(n + 1, k + 1) - sp.binomial(n, k + 1))),
    # wrong complement
    ("P[b(D) in Gamma_1] = ((n-1)/n)^k (the complement's probability)",
     Step(RegionProbability(WR, Region.ONLY_D, n, k, REMOVE, Dataset.D), "=", ((n - 1) / n) ** k)),
    ("P[b(D') in Gamma_1] = 1 - ((n-1)/n)^k (b(D') cannot produce Gamma_1)",
     Step(RegionProbability(WR, Region.ONLY_D, n, k, REMOVE, Dataset.D_PRIME), "=",
          1 - ((n - 1) / n) ** k)),
    ("P[a(D) in Lambda_1] = (n-k)/n", Step(RegionProbability(WO, Region.ONLY_D, n, k, REMOVE,
                                                             Dataset.D), "=", (n - k) / n)),
    ("P[b(D) in Gamma_3] = 1 for remove", Step(RegionProbability(WR, Region.BOTH, n, k, REMOVE,
                                                                 Dataset.D), "=", 1)),
    # losses
    ("remove-ordering loss at the paper's epsilon is 0",
     Step(HockeyStick(WR, n, k, 1, REMOVE, First.D, Region.ALL, (n + 1) ** k, n ** k), "=", 0)),
    ("remove-ordering loss is 1 - ((n-1)/n)^(k+1)",
     Step(HockeyStick(WR, n, k, 1, REMOVE, First.D, Region.ALL, 1, 1), "=",
          1 - ((n - 1) / n) ** (k + 1))),
    ("worst loss at eps = 0 is k/n with replacement (only an upper bound)",
     Step(WorstHockeyStick(WR, n, k, 1, 1, 1), "=", k / n)),
    ("the reverse add ordering has loss <= k/(n+2) without replacement",
     Step(HockeyStick(WO, n, k, 1, ADD, First.D_PRIME, Region.ALL, n + 1, n + 1 - k), "<=",
          k / (n + 2))),
]

ALGEBRA = [
    # identities of binomials and powers for symbolic n, k
    ("Pascal with the wrong offset", Step(sp.binomial(n, k) - sp.binomial(n - 1, k), "=",
                                          sp.binomial(n - 1, k + 1)), {}),
    ("C(k, 5) = 0: true only for k <= 4", Step(sp.binomial(k, 5), "=", 0), {}),
    ("C(n, k) <= n^4: true only for small k", Step(sp.binomial(n, k), "<=", n ** 4),
     {"constraints": (sp.Le(k, n),)}),
    ("((n-1)/n)^k >= ((n+1)/(n+2))^k: the bases in the wrong order",
     Step(((n - 1) / n) ** k, ">=", ((n + 1) / (n + 2)) ** k), {}),
    ("1 - (1 - 1/n)^k >= k/n: Bernoulli reversed", Step(1 - (1 - 1 / n) ** k, ">=", k / n), {}),
    ("2^k <= 16 k: true for k <= 6 only, its inductive step fails at k = 7",
     Step(2 ** k, "<=", 16 * k, induction=(k, 1)), {"hypotheses": {k: sp.Range(1, sp.oo)}}),
    ("k! <= 10^k: the inductive step fails at k = 10, the claim at k = 25",
     Step(sp.factorial(k), "<=", 10 ** k, induction=(k, 1)),
     {"hypotheses": {k: sp.Range(1, sp.oo)}}),
    ("sum_{i<=k} i = k(k+1)/2 + 1: wrong base case",
     Step(sp.Sum(sp.Symbol("i", integer=True), (sp.Symbol("i", integer=True), 1, k)), "=",
          k * (k + 1) / 2 + 1, induction=(k, 1)), {"hypotheses": {k: sp.Range(1, sp.oo)}}),
]


@pytest.mark.parametrize("name, step", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_false_count_is_never_proved(name, step):
    result = verdict(step)
    assert not result.verdict.holds_everywhere, (name, result.detail)
    assert result.verdict in (Verdict.REFUTED,) or result.verdict.is_evidence, result.detail


@pytest.mark.parametrize("name, step, where", ALGEBRA, ids=[m[0] for m in ALGEBRA])
def test_a_false_identity_or_induction_is_never_proved(name, step, where):
    hypotheses = where.get("hypotheses", HYP)
    result = verdict(step, hypotheses, where.get("constraints", ()),
                     {s: range(1, 6) for s in hypotheses})
    assert not result.verdict.holds_everywhere, (name, result.detail)


def test_the_true_counterparts_are_proved():
    true = [Step(RegionCount(WR, Region.ONLY_D, n, k, REMOVE), "=", gamma_count(1, n, k, -1)),
            Step(RegionCount(WO, Region.ONLY_D_PRIME, n, k, ADD), "=", lambda_count(2, n, k, 1)),
            Step(RegionProbability(WR, Region.ONLY_D, n, k, REMOVE, Dataset.D), "=",
                 1 - ((n - 1) / n) ** k),
            Step(WorstHockeyStick(WR, n, k, 1, 1, 1), "=", 1 - ((n - 1) / n) ** k)]
    for step in true:
        result = verdict(step, constraints=(sp.Le(k, n - 1),))
        assert result.verdict is Verdict.PROVED, result.detail
        assert "counting lemmas" in result.detail


def test_induction_proves_bernoulli_and_says_so():
    h = {n: sp.Range(1, sp.oo), x: sp.Interval.open(-1, sp.oo)}
    result = verdict(Step((1 + x) ** n, ">=", 1 + n * x, induction=(n, 1)), h, (), {})
    assert result.verdict is Verdict.PROVED and "by induction on n from 1" in result.detail


def test_a_forged_lemma_application_is_refused():
    D = ct.Records("D", n)
    good = ct.Derived("count", n ** k, (ct.Application("card_fun", ct.Card(ct.Seq(D, k), n ** k)),),
                      region=ct.Seq(D, k))
    assert ct.check_derived(good) == ""
    off_by_one = ct.Derived("count", n ** (k + 1), (ct.Application(
        "card_fun", ct.Card(ct.Seq(D, k), n ** (k + 1))),), region=ct.Seq(D, k))
    assert "not an instance of card_fun" in ct.check_derived(off_by_one)
    S = ct.Records("D'", n - 1)
    # a complement without the subset premise
    no_subset = ct.Derived("count", n ** k - (n - 1) ** k, (
        ct.Application("card_fun", ct.Card(ct.Seq(D, k), n ** k)),
        ct.Application("card_fun", ct.Card(ct.Seq(S, k), (n - 1) ** k)),
        ct.Application("card_sdiff", ct.Card(ct.Diff(ct.Seq(D, k), ct.Seq(S, k)),
                                             n ** k - (n - 1) ** k))),
        region=ct.Diff(ct.Seq(D, k), ct.Seq(S, k)))
    assert "card_sdiff" in ct.check_derived(no_subset)
    # the subset in the wrong direction
    wrong_way = ct.Context(((D, S),))
    apps = (ct.Application("card_fun", ct.Card(ct.Seq(D, k), n ** k)),
            ct.Application("output_mono", ct.Subset(ct.Seq(S, k), ct.Seq(D, k))))
    with pytest.raises(ct.CountingError):
        ct.check_derivation(apps, wrong_way)
