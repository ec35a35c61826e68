r"""Thm. 3: bagging without replacement, the Lambda chain, N models jointly and independently.

Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. 3.  a(D) is a uniform
k-subset of D.  With e^eps = (n+1)/(n+1-k) and delta = k/n:

* delta: for |D'| = n - 1, P[a(D) in Lambda_1] = 1 - C(n-1,k)/C(n,k) = k/n and
  P[a(D') in Lambda_1] = 0 (the transcription says "|D| = n - 1" here; it is
  |D'| = n - 1, as in the proof of Thm. 2);
* decomposition: the loss is k/n (remove, a(D) first), 0 (add, a(D) first),
  k/(n(n+1-k)) (remove, a(D') first) and k/(n+1) (add, a(D') first), all <= k/n;
  the paper's ratios C(n+1,k)/C(n,k) = (n+1)/(n+1-k) and (n-k)/n hold, and
  (n-k)/n <= (n+1)/(n+1-k).  FINDING: the delta-free ratio bound does not
  transfer to the reverse remove ordering, where the ratio is n/(n-k) >
  (n+1)/(n+1-k) (n = 2, k = 1: 2 > 3/2); the theorem holds there through delta.
* N models, N k examples sampled at once and split evenly (the paper's scheme,
  N k <= n - 1): the split is post-processing both ways, the loss equals that of
  one N k-subset, and (ln((n+1)/(n+1-N k)), N k/n)-DP holds in every ordering.
* N independent k-subsets (not covered by the paper): the natural statement
  (N ln((n+1)/(n+1-k)), 1 - ((n-k)/n)^N) holds in every ordering and its delta is
  exact; the joint formula's delta N k/n still bounds it (union bound) but is not
  exact for N >= 2 (FINDING, n = 2, k = 1, N = 2: 3/4 < 1).
* Loose: as with replacement, every one of these holds already at eps = 0.
"""

import sympy as sp

from symdp.bagging.enumerated import (HockeyStick, LikelihoodRatio, RegionCount, RegionProbability,
                                      WorstHockeyStick)
from symdp.bagging.schemes import ORDERINGS, Dataset, Extreme, First, Neighbour, Region, Sampling
from symdp.proof.derivation import Derivation, Step, chain
from symdp.proof.verdict import Verdict

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)

JOINT, INDEP = Sampling.WITHOUT_REPLACEMENT_JOINT, Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
REMOVE, ADD = Neighbour.REMOVE, Neighbour.ADD
D_FIRST, D_PRIME_FIRST = First.D, First.D_PRIME
ALL, LAMBDA_1, LAMBDA_2, LAMBDA_3 = Region.ALL, Region.ONLY_D, Region.ONLY_D_PRIME, Region.BOTH
MAX, MIN = Extreme.MAX, Extreme.MIN
HYP = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}
HYP_N = {**HYP, N: sp.Range(1, sp.oo)}
ENUM = {n: range(2, 8), k: range(1, 6)}
ENUM_N = {n: range(2, 8), k: range(1, 4), N: range(1, 3)}
CITE = "Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. 3"
W_NUM, W_DEN = n + 1, n + 1 - k           # the paper's e^eps = (n+1)/(n+1-k)
DELTA = k / n


def H(sign, d_first, region, num=W_NUM, den=W_DEN):
    return HockeyStick(JOINT, n, k, 1, sign, d_first, region, num, den)


def ratio(sign, d_first, extreme):
    return LikelihoodRatio(JOINT, n, k, 1, sign, d_first, LAMBDA_3, extreme)


delta_chain = Derivation(
    id="loss_on_lambda1_eq_k_over_n_of_remove_neighbour",
    statement=("Without replacement, |D'| = n - 1 (the transcription's '|D| = n - 1' is a slip): "
               "the loss on Lambda_1 at the paper's epsilon is P[a(D) in Lambda_1] = k/n, the "
               "paper's delta. The chain holds."),
    citation=CITE + ", choice of delta (Delta in Lambda_1)",
    hypotheses=HYP,
    constraints=(sp.Le(k, n - 1),),
    steps=chain(
        H(REMOVE, D_FIRST, LAMBDA_1),
        ("=", RegionProbability(JOINT, LAMBDA_1, n, k, REMOVE, Dataset.D),
         "P[a(D') in Lambda_1] = 0"),
        ("=", RegionCount(JOINT, LAMBDA_1, n, k, REMOVE) / sp.binomial(n, k),
         "each k-subset of D has probability 1/C(n,k)"),
        ("=", (sp.binomial(n, k) - sp.binomial(n - 1, k)) / sp.binomial(n, k),
         "|Lambda_1| = C(n,k) - C(n-1,k)"),
        ("=", DELTA, "C(n-1,k)/C(n,k) = (n-k)/n"),
    ),
    enumeration=ENUM,
)

remove_D_first = Derivation(
    id="loss_eq_k_over_n_of_remove_neighbour_a_D_first",
    statement="|D'| = n - 1, P = a(D): the loss at e^eps = (n+1)/(n+1-k) is exactly k/n.",
    citation=CITE + ", decomposition (case |D'| = n - 1)",
    hypotheses=HYP,
    constraints=(sp.Le(k, n - 1),),
    steps=chain(
        H(REMOVE, D_FIRST, ALL),
        ("=", H(REMOVE, D_FIRST, LAMBDA_1) + H(REMOVE, D_FIRST, LAMBDA_2)
         + H(REMOVE, D_FIRST, LAMBDA_3), "the sup splits over Lambda_1..3"),
        ("=", RegionProbability(JOINT, LAMBDA_1, n, k, REMOVE, Dataset.D)
         + H(REMOVE, D_FIRST, LAMBDA_3),
         "Lambda_2 is empty and P[a(D') in Lambda_1] = 0"),
        ("=", RegionProbability(JOINT, LAMBDA_1, n, k, REMOVE, Dataset.D),
         "on Lambda_3, P[a(D) = o] = ((n-k)/n) P[a(D') = o] <= e^eps P[a(D') = o]"),
        ("=", DELTA, "P[a(D) in Lambda_1] = k/n"),
    ),
    enumeration=ENUM,
)

add_D_first = Derivation(
    id="loss_eq_zero_of_add_neighbour_a_D_first_at_paper_eps",
    statement="|D'| = n + 1, P = a(D): the loss at e^eps = (n+1)/(n+1-k) is 0 (pure eps-DP in this order).",
    citation=CITE + ", decomposition (case |D'| = n + 1)",
    hypotheses=HYP,
    constraints=(sp.Le(k, n - 1),),
    steps=chain(
        H(ADD, D_FIRST, ALL),
        ("=", H(ADD, D_FIRST, LAMBDA_3), "Lambda_1 is empty and P[a(D) in Lambda_2] = 0"),
        ("=", 0, "on Lambda_3, P[a(D) = o] = C(n+1,k)/C(n,k) P[a(D') = o] = e^eps P[a(D') = o]"),
    ),
    enumeration=ENUM,
)

reverse = Derivation(
    id="loss_le_k_over_n_of_reverse_orderings_without_replacement",
    statement=("The reverse orderings (P = a(D'), not treated in the paper): the loss at the "
               "paper's epsilon is k/(n(n+1-k)) (remove) and k/(n+1) (add), both <= k/n."),
    citation=CITE + " (reverse orderings; not in the paper)",
    hypotheses=HYP,
    constraints=(sp.Le(k, n - 1),),
    steps=(
        Step(H(REMOVE, D_PRIME_FIRST, ALL), "=", k / (n * (n + 1 - k)),
             "only Lambda_3 contributes: 1 - e^eps (n-k)/n"),
        Step(k / (n * (n + 1 - k)), "<=", DELTA, "n + 1 - k >= 2"),
        Step(H(ADD, D_PRIME_FIRST, ALL), "=",
             RegionProbability(JOINT, LAMBDA_2, n, k, ADD, Dataset.D_PRIME),
             "Lambda_1 is empty; on Lambda_3 the ratio (n+1-k)/(n+1) <= 1 <= e^eps"),
        Step(RegionProbability(JOINT, LAMBDA_2, n, k, ADD, Dataset.D_PRIME), "=", k / (n + 1),
             "1 - C(n,k)/C(n+1,k)"),
        Step(k / (n + 1), "<=", DELTA, "n + 1 > n"),
    ),
    chained=False,
    enumeration=ENUM,
)

ratios = Derivation(
    id="likelihood_ratios_on_lambda3_of_every_ordering",
    statement=("On Lambda_3 the likelihood ratio is constant: (n-k)/n (remove, a(D) first), "
               "(n+1)/(n+1-k) = C(n+1,k)/C(n,k) (add, a(D) first), n/(n-k) and (n+1-k)/(n+1) "
               "(reverse orders); (n-k)/n <= (n+1)/(n+1-k) as the paper says. FINDING: the "
               "delta-free bound with e^eps = (n+1)/(n+1-k) fails in the reverse remove ordering "
               "(ratio n/(n-k); n = 2, k = 1: 2 > 3/2)."),
    citation=CITE,
    hypotheses=HYP,
    constraints=(sp.Le(k, n - 1),),
    steps=tuple(
        Step(ratio(sign, first, extreme), "=", value,
             f"ratio of uniform probabilities ({extreme.name.lower()})")
        for sign, first, value in ((REMOVE, D_FIRST, (n - k) / n),
                                   (ADD, D_FIRST, (n + 1) / (n + 1 - k)),
                                   (REMOVE, D_PRIME_FIRST, n / (n - k)),
                                   (ADD, D_PRIME_FIRST, (n + 1 - k) / (n + 1)))
        for extreme in (MAX, MIN)
    ) + (
        Step(sp.binomial(n + 1, k) / sp.binomial(n, k), "=", (n + 1) / (n + 1 - k),
             "the paper's ratio on Lambda_3 for |D'| = n + 1"),
        Step((n - k) / n, "<=", (n + 1) / (n + 1 - k), "the paper's comparison"),
        Step(ratio(REMOVE, D_PRIME_FIRST, MAX), "<=", W_NUM / W_DEN,
             "the delta-free ratio bound transferred to the reverse remove ordering",
             expect=Verdict.REFUTED, note="finding: n/(n-k) > (n+1)/(n+1-k); this order needs delta"),
    ),
    chained=False,
    enumeration=ENUM,
)

JOINT_W = (n + 1, n + 1 - N * k)
joint = Derivation(
    id="joint_subsets_N_models_is_paper_eps_delta_dp_in_every_ordering",
    statement=("N models from N k examples sampled at once without replacement and split evenly "
               "(N k <= n - 1): the split is post-processing (the loss equals that of one N k-subset), "
               "and the loss at e^eps = (n+1)/(n+1-N k) is at most N k/n in every ordering, with "
               "equality in the worst: Thm. 3 holds, delta exact. Loose: the same delta holds at eps = 0."),
    citation=CITE + ", N models (N k examples, split evenly)",
    hypotheses=HYP_N,
    constraints=(sp.Le(N * k, n - 1),),
    steps=tuple(
        Step(HockeyStick(JOINT, n, k, N, o.neighbour, o.first, ALL, *JOINT_W), "=",
             HockeyStick(JOINT, n, N * k, 1, o.neighbour, o.first, ALL, *JOINT_W),
             f"{o.key}: splitting the N k-subset evenly is post-processing both ways")
        for o in ORDERINGS
    ) + tuple(
        Step(HockeyStick(JOINT, n, k, N, o.neighbour, o.first, ALL, *JOINT_W), "<=", N * k / n,
             f"{o.key}: loss at the paper's epsilon")
        for o in ORDERINGS
    ) + (
        Step(WorstHockeyStick(JOINT, n, k, N, *JOINT_W), "=", N * k / n,
             "the worst ordering attains N k/n"),
    ) + tuple(
        Step(HockeyStick(JOINT, n, k, N, o.neighbour, o.first, ALL, 1, 1), "<=", N * k / n,
             f"{o.key}: the same delta at eps = 0")
        for o in ORDERINGS
    ),
    chained=False,
    enumeration=ENUM_N,
)

INDEP_W = ((n + 1) ** N, (n + 1 - k) ** N)
INDEP_DELTA = 1 - ((n - k) / n) ** N
independent = Derivation(
    id="independent_subsets_N_models_is_natural_eps_delta_dp",
    statement=("N independent k-subsets without replacement (not covered by the paper's argument; "
               "k <= n - 1, N k may exceed n): the natural statement (N ln((n+1)/(n+1-k)), "
               "1 - ((n-k)/n)^N)-DP holds in every ordering and the worst ordering attains the "
               "delta (exact); it holds at eps = 0 too. The joint formula's delta N k/n is an upper "
               "bound but not exact for N >= 2 (FINDING, n = 2, k = 1, N = 2: 3/4 vs 1)."),
    citation=CITE + "; extension to independent subsamples (not in the paper)",
    hypotheses=HYP_N,
    constraints=(sp.Le(k, n - 1),),
    steps=tuple(
        Step(HockeyStick(INDEP, n, k, N, o.neighbour, o.first, ALL, *INDEP_W), "<=",
             INDEP_DELTA, f"{o.key}: loss at e^eps = ((n+1)/(n+1-k))^N")
        for o in ORDERINGS
    ) + (
        Step(WorstHockeyStick(INDEP, n, k, N, 1, 1), "=", INDEP_DELTA,
             "eps = 0: the worst ordering (remove, a(D) first) has loss 1 - ((n-k)/n)^N"),
        Step(HockeyStick(INDEP, n, k, N, REMOVE, D_FIRST, ALL, 1, 1), "<=", N * k / n,
             "union bound: the joint formula's delta bounds the independent one"),
        Step(HockeyStick(INDEP, n, k, N, REMOVE, D_FIRST, ALL, 1, 1), "=", N * k / n,
             "the joint formula's delta taken as exact for independent subsets",
             expect=Verdict.REFUTED, note="finding: 1 - (1 - k/n)^N < N k/n for N >= 2"),
        Step(((n - k) / n) ** N, ">=", 1 - N * k / n,
             "the union bound of step 6 is Bernoulli in N, by induction on N from 1: "
             "((n-k)/n)^(N+1) >= (1 - N k/n)(n-k)/n = 1 - (N+1) k/n + N k^2/n^2",
             induction=(N, 1)),
    ),
    chained=False,
    enumeration=ENUM_N,
)

DERIVATIONS = [delta_chain, remove_D_first, add_D_first, reverse, ratios, joint, independent]
