r"""The counting arguments of the bagging appendix, checked by enumeration.

Liu, Jia, Gong, IJCAI 2021, Appendix, proofs of Thm. 2 (Gamma_1..3, ordered
k-sequences drawn with replacement) and Thm. 3 (Lambda_1..3, k-subsets).  Each
left-hand side lists the sequences/subsets of the real datasets
``D = {0..n-1}`` and ``D' = D \ {n-1}`` or ``D u {n}``; each right-hand side is
the paper's formula.
"""

import sympy as sp

from symdp.bagging.counting import (gamma_count, gamma_probability, lambda_count,
                                    lambda_probability)
from symdp.bagging.enumerated import RegionCount, RegionProbability
from symdp.bagging.schemes import Dataset, Neighbour, Region, Sampling
from symdp.proof.derivation import Derivation, Step

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)

CITE = "Liu, Jia, Gong, IJCAI 2021, Appendix, proof of Thm. {thm}, counts of {what}"
HYP = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}
WR, WO = Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_JOINT
NAME = {Neighbour.REMOVE: "remove (|D'| = n - 1)", Neighbour.ADD: "add (|D'| = n + 1)"}
WHICH = {Dataset.D: "D", Dataset.D_PRIME: "D'"}
REGIONS = (Region.ONLY_D, Region.ONLY_D_PRIME, Region.BOTH)
REGION = {Region.ONLY_D: "only from D", Region.ONLY_D_PRIME: "only from D'",
          Region.BOTH: "from both"}


def _gamma_steps(sign):
    steps = []
    for i in REGIONS:
        steps.append(Step(RegionCount(WR, i, n, k, sign), "=", gamma_count(i, n, k, sign),
                          f"|Gamma_{int(i)}| ({REGION[i]}): every k-sequence listed"))
    for i in REGIONS:
        for of in Dataset:
            steps.append(Step(RegionProbability(WR, i, n, k, sign, of), "=",
                              gamma_probability(i, n, k, sign, bool(of)),
                              f"P[b({WHICH[of]}) in Gamma_{int(i)}] = count / |{WHICH[of]}|^k "
                              f"(0 where {WHICH[of]} cannot produce the outputs)"))
    return steps


def _lambda_steps(sign):
    steps = []
    for i in REGIONS:
        steps.append(Step(RegionCount(WO, i, n, k, sign), "=", lambda_count(i, n, k, sign),
                          f"|Lambda_{int(i)}| ({REGION[i]}): every k-subset listed",
                          side_conditions=(sp.Le(k, n - 1),)))
    for i in REGIONS:
        for of in Dataset:
            steps.append(Step(RegionProbability(WO, i, n, k, sign, of), "=",
                              lambda_probability(i, n, k, sign, bool(of)),
                              f"P[a({WHICH[of]}) in Lambda_{int(i)}] = count / C(|{WHICH[of]}|, k)",
                              side_conditions=(sp.Le(k, n - 1),)))
    return steps


DERIVATIONS = [
    Derivation(
        id=f"gamma_counts_and_probabilities_of_{'remove' if s < 0 else 'add'}_neighbour",
        statement=(f"With replacement, {NAME[s]}: |Gamma_1| = |D|^k - |D n D'|^k, "
                   f"|Gamma_2| = |D'|^k - |D n D'|^k, |Gamma_3| = |D n D'|^k, and "
                   f"P[b(X) in Gamma_i] = |Gamma_i| / |X|^k (0 when X cannot produce Gamma_i). "
                   f"The paper's counts hold."),
        citation=CITE.format(thm=2, what="Gamma_1, Gamma_2, Gamma_3"),
        hypotheses=HYP,
        steps=_gamma_steps(s),
        chained=False,
        enumeration={n: range(2, 7), k: range(1, 5)},
    )
    for s in Neighbour
] + [
    Derivation(
        id=f"lambda_counts_and_probabilities_of_{'remove' if s < 0 else 'add'}_neighbour",
        statement=(f"Without replacement, {NAME[s]}: |Lambda_1| = C(|D|,k) - C(|D n D'|,k), "
                   f"|Lambda_2| = C(|D'|,k) - C(|D n D'|,k), |Lambda_3| = C(|D n D'|,k), and "
                   f"P[a(X) in Lambda_i] = |Lambda_i| / C(|X|,k). The paper's counts hold "
                   f"(for k <= n - 1, so that a(D') is defined for |D'| = n - 1)."),
        citation=CITE.format(thm=3, what="Lambda_1, Lambda_2, Lambda_3"),
        hypotheses=HYP,
        steps=_lambda_steps(s),
        chained=False,
        enumeration={n: range(2, 8), k: range(1, 6)},
    )
    for s in Neighbour
]
