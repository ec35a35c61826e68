r"""The bootstrap's multiplicity law, checked by listing every draw sequence (issue #23).

A bootstrap sample of size k from n records draws k indices uniformly with replacement; a
given record appears j ~ Binomial(k, 1/n) times.  The certified accountant's bootstrap pairs
(docs/bagging.md, "Bagging with a private base learner"; ``symdp/accountant/sampled.py``) are
mixtures over j with these weights, and the paper's data-independent delta
1 - ((n-1)/n)^k (Liu, Jia, Gong, IJCAI 2021, Thm. 2) is P(j >= 1).  Each left-hand side is
computed by enumerating all n^k sequences.
"""

import sympy as sp

from symdp.accountant.enumerated import BootstrapMultiplicity
from symdp.proof.derivation import Derivation, Step

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)

DERIVATIONS = [
    Derivation(
        id="bootstrap_multiplicity_is_binomial",
        statement=("In k draws with replacement from n records a given record appears exactly j times "
                   "with probability C(k, j) n^(-j) (1 - 1/n)^(k - j), and at least once with probability "
                   "1 - ((n - 1)/n)^k (the paper's data-independent delta)."),
        citation="the bootstrap of Liu, Jia, Gong, IJCAI 2021, Sec. 3; issue #23",
        hypotheses={n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo), j: sp.Range(0, sp.oo)},
        steps=[
            Step(BootstrapMultiplicity(n, k, j), "=",
                 sp.binomial(k, j) * n ** (-j) * (1 - 1 / n) ** (k - j),
                 "P(j copies) by listing all n^k sequences = the Binomial(k, 1/n) mass",
                 side_conditions=(sp.Le(j, k),)),
            Step(1 - BootstrapMultiplicity(n, k, 0), "=", 1 - ((n - 1) / n) ** k,
                 "P(j >= 1) = 1 - ((n-1)/n)^k, the paper's delta"),
        ],
        chained=False,
        enumeration={n: range(2, 6), k: range(1, 5), j: range(0, 5)},
    ),
]
