r"""Thm. 2 with N base models: bagging with replacement is
(N k ln((n+1)/n), 1 - ((n-1)/n)^(N k))-DP -- in all four orderings.

Liu, Jia, Gong, IJCAI 2021, Thm. 2 and Appendix, proof of Thm. 4 ("for N > 1,
we can use N k as a new subsample"): N models of k draws with replacement are
one sequence of N k i.i.d. draws.  Checked by enumerating the N k-sequences on
the real datasets, at the paper's e^eps = ((n+1)/n)^(N k), in both orders of
both neighbour relations.

The pair holds, but it is loose in epsilon: already at eps = 0 every ordering's
loss is at most the paper's delta, i.e. the subsample map is
(0, 1 - ((n-1)/n)^(N k))-DP, and its worst loss at the paper's epsilon *equals*
the paper's delta (delta is exact).
"""

import sympy as sp

from symdp.bagging.enumerated import HockeyStick, WorstHockeyStick
from symdp.bagging.schemes import ORDERINGS, Region, Sampling
from symdp.proof.derivation import Derivation, Step

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)

HYP = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo), N: sp.Range(1, sp.oo)}
# every n, k, N (proved through the counting lemmas); the enumeration sample keeps N k <= 4
ENUM = {n: range(2, 6), k: range(1, 3), N: range(1, 3)}
W_NUM, W_DEN = (n + 1) ** (N * k), n ** (N * k)
DELTA = 1 - ((n - 1) / n) ** (N * k)
WR = Sampling.WITH_REPLACEMENT
CITE = "Liu, Jia, Gong, IJCAI 2021, Thm. 2 (N models: Appendix, proof of Thm. 4)"


def loss(o, num, den):
    return HockeyStick(WR, n, k, N, o.neighbour, o.first, Region.ALL, num, den)


derivation = Derivation(
    id="with_replacement_N_models_is_paper_eps_delta_dp_in_every_ordering",
    statement=("Bagging with replacement, N models of k draws, n = |D|: in each of the four "
               "orderings the loss sup_S P(S) - e^eps Q(S) at e^eps = ((n+1)/n)^(N k) is at most "
               "1 - ((n-1)/n)^(N k): Thm. 2 holds as stated, in both orders (the paper's proof "
               "treats only P = b(D)). The maximum over the orderings equals the paper's delta "
               "(delta is exact). Loose: at eps = 0 the same delta already holds, so the map is "
               "(0, 1 - ((n-1)/n)^(N k))-DP and the paper's epsilon is not needed."),
    citation=CITE,
    hypotheses=HYP,
    steps=tuple(
        Step(loss(o, W_NUM, W_DEN), "<=", DELTA, f"{o.key}: enumerated loss at the paper's epsilon")
        for o in ORDERINGS
    ) + (
        Step(WorstHockeyStick(WR, n, k, N, W_NUM, W_DEN), "=", DELTA,
             "the worst ordering (remove, D first) attains the paper's delta"),
    ) + tuple(
        Step(loss(o, 1, 1), "<=", DELTA, f"{o.key}: the same delta at eps = 0")
        for o in ORDERINGS
    ),
    chained=False,
    enumeration=ENUM,
)
