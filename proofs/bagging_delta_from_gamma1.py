r"""Thm. 2, first half: the delta of bagging with replacement comes from Gamma_1.

Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. 2: for |D'| = n - 1 and any
Delta in Gamma_1, P[b(D) in Delta] <= P[b(D) in Gamma_1] = 1 - ((n-1)/n)^k while
P[b(D') in Delta] = 0.  In hockey-stick form,
sup_{Delta in Gamma_1} (P[b(D) in Delta] - e^eps P[b(D') in Delta]) = 1 - ((n-1)/n)^k
for *every* eps (b(D') never produces a sequence holding the removed record),
which is why the delta cannot be lowered whatever epsilon is allowed.
"""

import sympy as sp

from symdp.bagging.enumerated import HockeyStick, RegionCount, RegionProbability
from symdp.bagging.schemes import Dataset, First, Neighbour, Region, Sampling
from symdp.proof.derivation import Derivation, Step, chain

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
a = sp.Symbol("a", integer=True, nonnegative=True)
b = sp.Symbol("b", integer=True, positive=True)

WR = Sampling.WITH_REPLACEMENT
REMOVE, D_FIRST, GAMMA_1 = Neighbour.REMOVE, First.D, Region.ONLY_D
CITE = "Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. 2, choice of delta (Delta in Gamma_1, |D'| = n - 1)"
DELTA = 1 - ((n - 1) / n) ** k


def sup_on_gamma1(num, den):
    """sup over Delta in Gamma_1 of P[b(D) in Delta] - (num/den) P[b(D') in Delta], |D'| = n - 1."""
    return HockeyStick(WR, n, k, 1, REMOVE, D_FIRST, GAMMA_1, num, den)


derivation_paper = Derivation(
    id="loss_on_gamma1_eq_paper_delta_of_remove_neighbour",
    statement=("With replacement and |D'| = n - 1 (D first): on Gamma_1 the privacy loss at the "
               "paper's e^eps = ((n+1)/n)^k is exactly P[b(D) in Gamma_1] = 1 - ((n-1)/n)^k, the "
               "paper's delta. The paper's chain holds step by step."),
    citation=CITE,
    hypotheses={n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)},
    steps=chain(
        sup_on_gamma1((n + 1) ** k, n ** k),
        ("=", RegionProbability(WR, GAMMA_1, n, k, REMOVE, Dataset.D),
         "P[b(D') in Gamma_1] = 0, so the sup is attained at Delta = Gamma_1"),
        ("=", RegionCount(WR, GAMMA_1, n, k, REMOVE) / n ** k, "each of the n^k sequences of b(D) has probability n^-k"),
        ("=", (n ** k - (n - 1) ** k) / n ** k, "|Gamma_1| = |D|^k - |D n D'|^k = n^k - (n-1)^k"),
        ("=", DELTA, "algebra"),
    ),
    enumeration={n: range(2, 7), k: range(1, 5)},
)

derivation_every_eps = Derivation(
    id="loss_on_gamma1_eq_paper_delta_for_every_eps",
    statement=("With replacement and |D'| = n - 1: P[b(D') in Gamma_1] = 0, and for every "
               "e^eps = a/b >= 0 the loss on Gamma_1 is 1 - ((n-1)/n)^k. So no epsilon, however "
               "large, allows a delta below 1 - ((n-1)/n)^k: the paper's delta is exact."),
    citation=CITE,
    hypotheses={n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo), a: sp.Range(0, sp.oo),
                b: sp.Range(1, sp.oo)},
    steps=(
        Step(RegionProbability(WR, GAMMA_1, n, k, REMOVE, Dataset.D_PRIME), "=", 0,
             "b(D') never draws the removed record"),
        Step(sup_on_gamma1(a, b), "=", DELTA, "the loss on Gamma_1 does not depend on w = a/b"),
    ),
    chained=False,
    enumeration={n: range(2, 6), k: range(1, 4), a: range(0, 7), b: range(1, 4)},
)

DERIVATIONS = [derivation_paper, derivation_every_eps]
