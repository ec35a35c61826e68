"""Tightness of Thm. 4.2 for the zero trade-off function (blatant non-privacy).

Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 6 (Discussion) and App. F (JRSS-B 84(1), 2022).
f = 0 has fixed point x* = 0 and f_p = (1 - p) Id, so Eq. 14 is the chord alone:
C_p(0)(alpha) = max{0, 1 - p - alpha} = f_{0,p}(alpha) -- proved from Def. 4.1 (the minorant
certificate of Eq. 14 with x* = 0, and f_p^{-1} = 0 above f_p(0) = 1 - p).  It is attained: a mechanism that
releases its input subset is 0-DP, and on a p = m/n subsample the differing record is in the
sample with probability p; the two output laws are then
P = (1 - p, p, 0) and Q = (1 - p, 0, p) on {both, only-S, only-S'} with T(P, Q) = f_{0,p}.
The last derivation lists every m-subset of S = {1..n} and of its neighbour S' for n <= 5
and computes T(P, Q)(j/K) exactly by Neyman-Pearson (ENUMERATED).
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import cp_closed_form_proof, cp_instance_proof
from symdp.subsampling import subsample
from symdp.subsampling.tightness import SampleReleaseTradeOff, blatant_pair, finite_tradeoff
from symdp.core.symbols import alpha, p
from symdp.tradeoff import EpsDelta, Zero

R = sp.Rational
CITE = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Thm. 4.2, Sec. 6 and App. F (JRSS-B 84(1), 2022)"
n, m, j, K = sp.symbols("n m j K", integer=True)

closed_form = Derivation(
    id="cp_of_zero_is_f_0_p",
    statement="C_p(0) = f_{0,p}: max{0, 1 - p - alpha}.",
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1), p: sp.Interval(0, 1)},
    chained=False,
    steps=(
        Step(subsample(Zero(), p)(alpha), "=", 1 - p - alpha, "Eq. 14 with x* = 0: the chord",
             side_conditions=(sp.Le(alpha, 1 - p),),
             proof=cp_closed_form_proof(Zero(), p, alpha, sp.S.Zero)),
        Step(subsample(Zero(), p)(alpha), "=", 0, "Eq. 14: f_p^{-1} = 0 on [1 - p, 1]",
             side_conditions=(sp.Ge(alpha, 1 - p),),
             proof=cp_closed_form_proof(Zero(), p, alpha, sp.S.Zero, inverse=sp.S.Zero)),
        Step(EpsDelta(0, p)(alpha), "=", sp.Max(0, 1 - p - alpha), "f_{0,p}, by definition"),
    ),
)

P, Q = blatant_pair(R(3, 10))
pair = Derivation(
    id="cp_of_zero_is_attained_by_the_blatant_pair",
    statement=("T(P, Q) for P = (1 - p, p, 0), Q = (1 - p, 0, p) equals C_p(0), at p = 3/10 "
               "(exact Neyman-Pearson on three outcomes)."),
    citation=CITE,
    hypotheses={},
    chained=False,
    # C_p(0)(a) by Eq. 14 = Def. 4.1 (the minorant certificate, x* = 0) at p = 3/10: no
    # closed form of symdp's doit; f_p^{-1}(a) = 0 on [1 - p, 1]
    steps=tuple(Step(finite_tradeoff(P, Q, a), "=", subsample(Zero(), R(3, 10))(a),
                     f"T(P, Q)({a}) by Neyman-Pearson = C_p(0)({a})",
                     proof=cp_instance_proof(Zero(), R(3, 10), sp.S(a), sp.S.Zero,
                                             inverse=sp.S.Zero if a >= R(7, 10) else None))
                for a in (0, R(1, 10), R(1, 2), R(7, 10), R(9, 10), 1)),
)

enumerated = Derivation(
    id="subsampled_release_mechanism_attains_cp_of_zero",
    statement=("For M = release the subset (0-DP), T(M(Sample_m(S)), M(Sample_m(S')))(j/K) = "
               "C_{m/n}(0)(j/K) for every n <= 5, m <= n, K <= 4, j <= K, by listing all subsets."),
    citation=CITE,
    hypotheses={n: sp.Range(1, 6), m: sp.Range(0, 6), j: sp.Range(0, 5), K: sp.Range(1, 5)},
    constraints=(sp.Le(m, n), sp.Le(j, K)),
    enumeration={n: range(1, 6), m: range(0, 6), j: range(0, 5), K: range(1, 5)},
    steps=(Step(SampleReleaseTradeOff(n, m, j, K), "=", subsample(Zero(), m / n)(j / K),
                "exact enumeration of the subsampled release mechanism vs C_{m/n}(0) = f_{0,m/n}"),),
)

DERIVATIONS = [closed_form, pair, enumerated]
