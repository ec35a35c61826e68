r"""Thm. 2, second half: Delta = Delta_1 u Delta_2 u Delta_3, for |D'| = n + 1 and n - 1.

Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. 2.  With the paper's
e^eps = ((n+1)/n)^k and delta = 1 - ((n-1)/n)^k, the privacy loss
sup_Delta (P(Delta) - e^eps Q(Delta)) is computed region by region on the real
datasets, for all four orderings of a neighbouring pair:

* remove, P = b(D) (the paper's case |D'| = n - 1): loss = delta exactly;
* add, P = b(D) (the paper's case |D'| = n + 1): loss = 0 (pure eps-DP there);
* remove, P = b(D') and add, P = b(D') -- not treated in the paper: the loss is
  1 - (1 - 1/n^2)^k and 1 - (n/(n+1))^k, both <= delta, so Thm. 2 holds in
  both orders.  The paper's delta-free ratio step does *not* transfer to the
  reverse remove ordering: there P/Q = (n/(n-1))^k > ((n+1)/n)^k on Gamma_3
  (a recorded finding; the conclusion survives only because of delta).
"""

import sympy as sp

from symdp.bagging.enumerated import HockeyStick, LikelihoodRatio, RegionCount, RegionProbability
from symdp.bagging.schemes import Dataset, Extreme, First, Neighbour, Region, Sampling
from symdp.proof.derivation import Derivation, Step, chain
from symdp.proof.verdict import Verdict

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)

WR = Sampling.WITH_REPLACEMENT
REMOVE, ADD = Neighbour.REMOVE, Neighbour.ADD
D_FIRST, D_PRIME_FIRST = First.D, First.D_PRIME
ALL, GAMMA_1, GAMMA_2, GAMMA_3 = Region.ALL, Region.ONLY_D, Region.ONLY_D_PRIME, Region.BOTH
MAX, MIN = Extreme.MAX, Extreme.MIN
HYP = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}
ENUM = {n: range(2, 7), k: range(1, 5)}
CITE = "Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. 2, decomposition Delta = Delta_1 u Delta_2 u Delta_3"
W_NUM, W_DEN = (n + 1) ** k, n ** k          # the paper's e^eps = ((n+1)/n)^k
DELTA = 1 - ((n - 1) / n) ** k                # the paper's delta


def H(sign, d_first, region):
    """Loss on a region (ALL = the whole domain Phi) at the paper's epsilon."""
    return HockeyStick(WR, n, k, 1, sign, d_first, region, W_NUM, W_DEN)


def ratio(sign, d_first, extreme):
    """max or min of P(o)/Q(o) over Gamma_3."""
    return LikelihoodRatio(WR, n, k, 1, sign, d_first, GAMMA_3, extreme)


remove_D_first = Derivation(
    id="loss_eq_paper_delta_of_remove_neighbour_D_first",
    statement=("|D'| = n - 1, P = b(D), e^eps = ((n+1)/n)^k: the loss sup_Delta P(Delta) - "
               "e^eps Q(Delta) equals 1 - ((n-1)/n)^k, the paper's delta. The paper's step "
               "P[b(D) in Delta] <= delta + ((n-1)/n)^k P[b(D') in Delta_3] holds."),
    citation=CITE + " (case |D'| = n - 1)",
    hypotheses=HYP,
    steps=chain(
        H(REMOVE, D_FIRST, ALL),
        ("=", H(REMOVE, D_FIRST, GAMMA_1) + H(REMOVE, D_FIRST, GAMMA_2)
         + H(REMOVE, D_FIRST, GAMMA_3),
         "Delta = Delta_1 u Delta_2 u Delta_3 with Delta_i in Gamma_i: the sup splits"),
        ("=", H(REMOVE, D_FIRST, GAMMA_1) + H(REMOVE, D_FIRST, GAMMA_3),
         "Gamma_2 is empty when D' is a subset of D"),
        ("=", RegionProbability(WR, GAMMA_1, n, k, REMOVE, Dataset.D) + H(REMOVE, D_FIRST, GAMMA_3),
         "P[b(D') in Gamma_1] = 0: the sup on Gamma_1 is P[b(D) in Gamma_1]"),
        ("=", RegionProbability(WR, GAMMA_1, n, k, REMOVE, Dataset.D),
         "on Gamma_3, P[b(D) = o] = ((n-1)/n)^k P[b(D') = o] <= e^eps P[b(D') = o]"),
        ("=", DELTA, "P[b(D) in Gamma_1] = |Gamma_1| / n^k"),
    ),
    enumeration=ENUM,
)

add_D_first = Derivation(
    id="loss_eq_zero_of_add_neighbour_D_first_at_paper_eps",
    statement=("|D'| = n + 1, P = b(D), e^eps = ((n+1)/n)^k: the loss is 0, i.e. this ordering "
               "is pure (k ln((n+1)/n), 0)-DP, as the paper's case |D'| = n + 1 argues."),
    citation=CITE + " (case |D'| = n + 1)",
    hypotheses=HYP,
    steps=chain(
        H(ADD, D_FIRST, ALL),
        ("=", H(ADD, D_FIRST, GAMMA_1) + H(ADD, D_FIRST, GAMMA_2) + H(ADD, D_FIRST, GAMMA_3),
         "the sup splits over Gamma_1, Gamma_2, Gamma_3"),
        ("=", H(ADD, D_FIRST, GAMMA_3),
         "Gamma_1 is empty (D is a subset of D') and P[b(D) in Gamma_2] = 0"),
        ("=", 0, "on Gamma_3, P[b(D) = o] = ((n+1)/n)^k P[b(D') = o] = e^eps P[b(D') = o]"),
    ),
    enumeration=ENUM,
)

remove_Dprime_first = Derivation(
    id="loss_le_paper_delta_of_remove_neighbour_Dprime_first",
    statement=("|D'| = n - 1, P = b(D') (the reverse ordering, not treated in the paper): the "
               "loss at the paper's epsilon is 1 - (1 - 1/n^2)^k <= 1 - ((n-1)/n)^k, so Thm. 2 "
               "holds in this order too -- but only thanks to delta (see the finding in "
               "likelihood_ratios_on_gamma3_of_every_ordering)."),
    citation=CITE + " (reverse ordering; not in the paper)",
    hypotheses=HYP,
    steps=chain(
        H(REMOVE, D_PRIME_FIRST, ALL),
        ("=", H(REMOVE, D_PRIME_FIRST, GAMMA_3), "P[b(D') in Gamma_1] = 0 and Gamma_2 is empty"),
        ("=", 1 - ((n + 1) / n) ** k * ((n - 1) / n) ** k,
         "on Gamma_3, P[b(D') = o] = (n/(n-1))^k P[b(D) = o] and P[b(D') in Gamma_3] = 1"),
        ("=", 1 - (1 - 1 / n ** 2) ** k, "algebra"),
        ("<=", DELTA, "1 - 1/n^2 >= (n - 1)/n"),
    ),
    enumeration=ENUM,
)

add_Dprime_first = Derivation(
    id="loss_le_paper_delta_of_add_neighbour_Dprime_first",
    statement=("|D'| = n + 1, P = b(D') (the reverse ordering, not treated in the paper): the "
               "loss at the paper's epsilon is P[b(D') in Gamma_2] = 1 - (n/(n+1))^k <= "
               "1 - ((n-1)/n)^k, so Thm. 2 holds in this order too."),
    citation=CITE + " (reverse ordering; not in the paper)",
    hypotheses=HYP,
    steps=chain(
        H(ADD, D_PRIME_FIRST, ALL),
        ("=", H(ADD, D_PRIME_FIRST, GAMMA_2) + H(ADD, D_PRIME_FIRST, GAMMA_3),
         "Gamma_1 is empty when D is a subset of D'"),
        ("=", RegionProbability(WR, GAMMA_2, n, k, ADD, Dataset.D_PRIME)
         + H(ADD, D_PRIME_FIRST, GAMMA_3), "P[b(D) in Gamma_2] = 0"),
        ("=", RegionProbability(WR, GAMMA_2, n, k, ADD, Dataset.D_PRIME),
         "on Gamma_3, P[b(D') = o] = (n/(n+1))^k P[b(D) = o] <= e^eps P[b(D) = o]"),
        ("=", RegionCount(WR, GAMMA_2, n, k, ADD) / (n + 1) ** k,
         "each sequence of b(D') has probability (n+1)^-k"),
        ("=", 1 - (n / (n + 1)) ** k, "|Gamma_2| = (n+1)^k - n^k"),
        ("<=", DELTA, "n/(n+1) >= (n-1)/n"),
    ),
    enumeration=ENUM,
)

ratios = Derivation(
    id="likelihood_ratios_on_gamma3_of_every_ordering",
    statement=("On Gamma_3 the likelihood ratio P(o)/Q(o) is constant: ((n-1)/n)^k (remove, "
               "D first), ((n+1)/n)^k (add, D first), (n/(n-1))^k (remove, D' first), "
               "(n/(n+1))^k (add, D' first); the paper's comparison ((n-1)/n)^k <= ((n+1)/n)^k "
               "holds. FINDING: the paper's delta-free ratio bound P(Delta_3) <= e^eps Q(Delta_3) "
               "with e^eps = ((n+1)/n)^k fails in the reverse remove ordering, where the ratio is "
               "(n/(n-1))^k (n = 2, k = 1: 2 > 3/2); the theorem survives there only through delta."),
    citation=CITE,
    hypotheses=HYP,
    steps=tuple(
        Step(ratio(sign, first, extreme), "=", value,
             f"ratio of the uniform probabilities {extreme.name.lower()} over Gamma_3")
        for sign, first, value in ((REMOVE, D_FIRST, ((n - 1) / n) ** k),
                                   (ADD, D_FIRST, ((n + 1) / n) ** k),
                                   (REMOVE, D_PRIME_FIRST, (n / (n - 1)) ** k),
                                   (ADD, D_PRIME_FIRST, (n / (n + 1)) ** k))
        for extreme in (MAX, MIN)
    ) + (
        Step(RegionCount(WR, GAMMA_2, n, k, REMOVE), "=", 0, "Gamma_2 is empty for |D'| = n - 1"),
        Step(RegionCount(WR, GAMMA_1, n, k, ADD), "=", 0, "Gamma_1 is empty for |D'| = n + 1"),
        Step(((n - 1) / n) ** k, "<=", ((n + 1) / n) ** k, "the paper's comparison of the two ratios"),
        Step(ratio(REMOVE, D_PRIME_FIRST, MAX), "<=", W_NUM / W_DEN,
             "the paper's delta-free ratio bound, transferred to the reverse remove ordering",
             expect=Verdict.REFUTED,
             note="finding: (n/(n-1))^k > ((n+1)/n)^k; this ordering needs delta"),
    ),
    chained=False,
    enumeration=ENUM,
)

DERIVATIONS = [remove_D_first, add_D_first, remove_Dprime_first, add_Dprime_first, ratios]
