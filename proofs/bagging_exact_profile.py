r"""Beyond the paper: the exact privacy of bagging's subsample map.

For every scheme (with replacement, N k draws; without replacement, N k jointly;
without replacement, N independent k-subsets) and every ordering of a
neighbouring pair (n = |D|, D' = D minus/plus one record, P = b(D) or b(D')),
with q(m) the probability that a fixed record of an m-record dataset is drawn
(1 - ((m-1)/m)^(N k),  N k / m,  1 - ((m-k)/m)^N):

* the exact privacy profile at w = e^eps >= 0 is q + (1 - q - w)_+ when the
  larger dataset comes first and (1 - w (1 - q))_+ otherwise, with q = q(n)
  (remove) or q(n + 1) (add);
* for eps >= 0 the worst ordering gives the constant q(n): the map is exactly
  (eps, q(n))-DP for every eps >= 0 -- the paper's delta is exact and its
  epsilon can be 0;
* the total variation is q(n) (remove) and q(n + 1) (add);
* the trade-off functions are f_q^{-1} = (1 - alpha/(1 - q))_+ (larger first) and
  f_q = (1 - q)(1 - alpha) (smaller first), with f_q = q 0 + (1 - q) Id the
  p-sampling operator of Dong--Roth--Su Def. 4.1 applied to the zero function;
  the exact f-DP guarantee is C_{q(n)}(0) = min{f_q, f_q^{-1}}** = (1 - q(n) - alpha)_+,
  which lies below every ordering and touches the minimum at alpha = 0 and
  alpha = 1 - q(n): a convex g below the minimum has g(0) <= 1 - q and
  g(1 - q) <= 0, hence g <= 1 - q - alpha on [0, 1 - q] by convexity and g <= 0
  after, so C_{q(n)}(0) is the greatest trade-off function below all orderings;
* Balle--Barthe--Gaboardi 2018 (arXiv 1807.01647): for the identity base
  mechanism (delta_j = 1 for every group size j >= 1) their with-replacement
  delta' = sum_{j>=1} Binomial(N k, 1/n)(j) delta_j equals q(n), and their eps' =
  log(1 + q (e^eps - 1)) tends to 0: the same (0, q(n)) pair.

Every formula is checked against exact enumeration of the output distributions
on real datasets, at rational w = a/b and alpha = a/b.
"""

import sympy as sp

from symdp.bagging import profile as pf
from symdp.bagging.enumerated import (HockeyStick, LeastTradeOff, TotalVariation, TradeOff,
                                      WorstHockeyStick)
from symdp.bagging.schemes import ORDERINGS, Neighbour, Region, Sampling
from symdp.proof.derivation import Derivation, Step

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
a = sp.Symbol("a", integer=True, nonnegative=True)
b = sp.Symbol("b", integer=True, positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)

HYP = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo), N: sp.Range(1, sp.oo),
       a: sp.Range(0, sp.oo), b: sp.Range(1, sp.oo)}
CITE = ("beyond Liu, Jia, Gong, IJCAI 2021 (Appendix, Thms. 2-3): exact hockey-stick profile; "
        "Dong, Roth, Su 2022 (arXiv 1905.02383v3) Def. 2.1, Def. 4.1")

#: enumeration ranges (with replacement: N k <= 4, a sample) and the side condition keeping each
#: scheme defined (without replacement: the smaller dataset must have k, or N k, records)
SCHEMES = {
    Sampling.WITH_REPLACEMENT: (
        "with_replacement", {n: range(2, 6), k: range(1, 3), N: range(1, 3)}, ()),
    Sampling.WITHOUT_REPLACEMENT_JOINT: (
        "joint_subsets", {n: range(2, 7), k: range(1, 4), N: range(1, 3)}, (sp.Le(N * k, n - 1),)),
    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: (
        "independent_subsets", {n: range(2, 7), k: range(1, 4), N: range(1, 3)}, (sp.Le(k, n - 1),)),
}
W_RANGE = {a: range(0, 5), b: range(1, 3)}      # w in {0, 1/2, 1, 3/2, 2, 3, 4}
ALPHA_RANGE = {a: range(0, 4), b: range(1, 4)}  # alpha in {0, 1/3, 1/2, 2/3, 1}


def _one_minus_q_fraction(sampling):
    """1 - q(n) as (numerator, denominator), integer-valued expressions in n, k, N."""
    if sampling is Sampling.WITH_REPLACEMENT:
        return (n - 1) ** (N * k), n ** (N * k)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return n - N * k, n
    return (n - k) ** N, n ** N


def _q(sampling, size):
    return pf.inclusion_probability(sampling, size, k, N)


def profile_derivation(sampling):
    name, ranges, cond = SCHEMES[sampling]
    w = a / b
    steps = [
        Step(HockeyStick(sampling, n, k, N, o.neighbour, o.first, Region.ALL, a, b), "=",
             pf.privacy_profile(sampling, o, n, k, N, w),
             f"{o.key}: b(L) = (1 - q) b(S) + q R with R on outputs holding the extra record; "
             f"{'q + (1 - q - w)_+' if o.larger_first else '(1 - w(1 - q))_+'}",
             side_conditions=cond)
        for o in ORDERINGS
    ]
    worst = WorstHockeyStick(sampling, n, k, N, a, b)
    steps.append(Step(worst, "=", _q(sampling, n),
                      "eps >= 0: the worst ordering is remove with D first, constant q(n)",
                      side_conditions=cond + (sp.Ge(a, b),)))
    return Derivation(
        id=f"privacy_profile_of_{name}_eq_mixture_profile",
        statement=(f"Sampling {sampling.value}: for every ordering and every w = e^eps = a/b >= 0 the "
                   f"exact privacy profile is q + (1 - q - w)_+ (larger dataset first) or "
                   f"(1 - w(1 - q))_+ (smaller first), q = q(n) or q(n + 1); for eps >= 0 the "
                   f"maximum over the four orderings is the constant q(n) = {_q(sampling, n)}."),
        citation=CITE,
        hypotheses=HYP,
        steps=tuple(steps),
        chained=False,
        enumeration={**ranges, **W_RANGE},
    )


def tradeoff_derivation(sampling):
    name, ranges, cond = SCHEMES[sampling]
    alpha = a / b
    in_unit = (sp.Le(a, b),)
    steps = [
        Step(TradeOff(sampling, n, k, N, o.neighbour, o.first, a, b), "=",
             pf.tradeoff(sampling, o, n, k, N, alpha),
             f"{o.key}: Neyman-Pearson on the enumerated pair; "
             f"{'f_q^{-1}' if o.larger_first else 'f_q'} with q = q({'n' if o.neighbour < 0 else 'n + 1'})",
             side_conditions=cond + in_unit)
        for o in ORDERINGS
    ]
    minimum = LeastTradeOff(sampling, n, k, N, a, b)
    steps.append(Step(minimum, ">=", pf.tight_tradeoff(sampling, n, k, N, alpha),
                      "C_q(0) = (1 - q(n) - alpha)_+ lies below every ordering",
                      side_conditions=cond + in_unit))
    q = _q(sampling, n)
    one_minus_q = _one_minus_q_fraction(sampling)
    at_zero = LeastTradeOff(sampling, n, k, N, 0, 1)
    at_corner = LeastTradeOff(sampling, n, k, N, one_minus_q[0], one_minus_q[1])
    steps.append(Step(at_zero, "=", 1 - q, "the minimum touches C_q(0) at alpha = 0",
                      side_conditions=cond))
    steps.append(Step(at_corner, "=", 0, "... and at alpha = 1 - q(n) (so C_q(0) is its convex envelope)",
                      side_conditions=cond))
    for sign in Neighbour:
        steps.append(Step(TotalVariation(sampling, n, k, N, sign), "=",
                          _q(sampling, n if sign < 0 else n + 1),
                          f"total variation, {'remove' if sign < 0 else 'add'}: (1/2) sum |P - Q|",
                          side_conditions=cond))
    return Derivation(
        id=f"tradeoff_of_{name}_eq_subsampled_zero_function",
        statement=(f"Sampling {sampling.value}: T(P, Q) = f_q^{{-1}} (larger dataset first) or f_q "
                   f"(smaller first), f_q = q 0 + (1 - q) Id; the exact f-DP guarantee is "
                   f"C_q(0) = min{{f_q, f_q^{{-1}}}}** = (1 - q(n) - alpha)_+ (below every ordering, "
                   f"touching their minimum at alpha = 0 and alpha = 1 - q(n)); the total variation is "
                   f"q(n) (remove) and q(n + 1) (add)."),
        citation=CITE + "; Dong, Roth, Su Eq. 14 with f = 0 (fixed point x* = 0)",
        hypotheses=HYP,
        steps=tuple(steps),
        chained=False,
        enumeration={**ranges, **ALPHA_RANGE},
    )


m = sp.Symbol("m", integer=True, positive=True)   # m = n - 1 = |D n D'| for the remove neighbour
bbg = Derivation(
    id="bbg_with_replacement_delta_of_identity_eq_inclusion_probability",
    statement=("Balle-Barthe-Gaboardi's with-replacement bound for the identity base mechanism "
               "(delta_j = 1 for every group size j >= 1) gives delta' = sum_{j=1}^{K} "
               "C(K, j) n^-j (1 - 1/n)^(K - j) = 1 - ((n-1)/n)^K = q(n) with K = N k draws, and "
               "eps' = log(1 + q(e^eps - 1)) -> 0: the exact (0, q(n)) pair of the map. Written "
               "with m = n - 1 >= 1 (the binomial sum over j of C(K, j) m^(K-j), divided by (m+1)^K)."),
    citation="Balle, Barthe, Gaboardi 2018, arXiv 1807.01647 (as quoted in MATH.md, last section)",
    hypotheses={m: sp.Range(1, sp.oo), k: sp.Range(1, sp.oo)},
    steps=(
        Step(sp.Sum(sp.binomial(k, j) * m ** (k - j), (j, 1, k)) / (m + 1) ** k, "=",
             1 - (m / (m + 1)) ** k, "binomial theorem: the j = 0 term is (m/(m+1))^K"),
    ),
    chained=False,
)

DERIVATIONS = [profile_derivation(s) for s in SCHEMES] + [tradeoff_derivation(s) for s in SCHEMES] + [bbg]
