"""Def. 4.1 (the p-sampling operator) and its three properties.

Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 4.1 and the properties listed after Thm. 4.2
(JRSS-B 84(1), 2022, Def. 4.1).  C_p(f) = min{f_p, f_p^{-1}}**, f_p = p f + (1 - p) Id.

1. For symmetric f and 0 <= p <= q <= 1: f = C_1(f) <= C_q(f) <= C_p(f) <= C_0(f) = Id.
2. f <= g implies C_p(f) <= C_p(g).
3. C_p(f) is a symmetric trade-off function.

The endpoints are exact (the operator returns f and Id); the inequalities are checked on the
Eq. 14 objects for the three families at 30 and 60 digits (NUMERIC); symmetry as
C(C(alpha)) = alpha on [0, C(0)] (a continuous decreasing function is its own inverse there)
and the trade-off conditions of Prop. 2.2 by their inequalities.
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.subsampling import subsample
from symdp.core.symbols import alpha, delta, eps, mu, p
from symdp.tradeoff import EpsDelta, Gaussian, Identity, Laplace, TradeOffAt

R = sp.Rational
CITE = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 4.1 and the properties after Thm. 4.2 " \
       "(JRSS-B 84(1), 2022, Def. 4.1)"
q = sp.Symbol("q", real=True)
nu = sp.Symbol("nu", real=True)
eps2 = sp.Symbol("eta", real=True)
delta2 = sp.Symbol("gamma", real=True)
a = sp.Symbol("a", real=True)
b = sp.Symbol("b", real=True)

hyp = {alpha: sp.Interval(0, 1), p: sp.Interval(0, 1), q: sp.Interval(0, 1),
       eps: sp.Interval(0, 5), delta: sp.Interval(0, 1), mu: sp.Interval.open(0, 4),
       nu: sp.Interval.open(0, 4), eps2: sp.Interval(0, 5), delta2: sp.Interval(0, 1),
       a: sp.Interval(0, 1), b: sp.Interval(0, 1)}

endpoints = Derivation(
    id="cp_at_p_one_is_f_and_at_p_zero_is_identity",
    statement="C_1(f) = f for symmetric f and C_0(f) = Id, exactly (the operator's values).",
    citation=CITE, hypotheses=hyp, chained=False,
    steps=tuple(
        Step(subsample(f, 1)(alpha), "=", f(alpha), "min{f, f^{-1}}** = f** = f for symmetric convex f")
        for f in (EpsDelta(eps, delta), Gaussian(mu), Laplace(mu))
    ) + tuple(
        Step(subsample(f, 0)(alpha), "=", Identity()(alpha), "f_0 = Id, symmetric and convex")
        for f in (EpsDelta(eps, delta), Gaussian(mu), Laplace(mu))
    ),
)

# The symbolic stage cannot decide inequalities between these Piecewise closed forms (it
# times out in simplify); the steps skip it and go on to the certified and numeric stages.
# Hypotheses of a claim (p <= q, f <= g) are side conditions of its step.
NO_SYMBOLIC = ("symbolic",)

monotone = Derivation(
    id="cp_is_monotone_in_p_between_f_and_identity",
    statement=("For 0 <= p <= q <= 1: f <= C_q(f) <= C_p(f) <= Id (f = f_{eps,delta}, and the "
               "Laplace trade-off function with mu = 1, p = 1/5, q = 1/2)."),
    citation=CITE, hypotheses=hyp, chained=False,
    steps=(
        Step(EpsDelta(eps, delta)(alpha), "<=", subsample(EpsDelta(eps, delta), q)(alpha), "f <= C_q(f)",
             skip=NO_SYMBOLIC),
        Step(subsample(EpsDelta(eps, delta), q)(alpha), "<=", subsample(EpsDelta(eps, delta), p)(alpha),
             "C_q(f) <= C_p(f) for p <= q", side_conditions=(sp.Le(p, q),)),
        Step(subsample(EpsDelta(eps, delta), p)(alpha), "<=", 1 - alpha, "C_p(f) <= Id",
             skip=NO_SYMBOLIC),
        Step(Laplace(1)(alpha), "<=", subsample(Laplace(1), R(1, 2))(alpha),
             "f <= C_q(f) (Laplace, mu = 1, q = 1/2)", skip=NO_SYMBOLIC),
        Step(subsample(Laplace(1), R(1, 2))(alpha), "<=", subsample(Laplace(1), R(1, 5))(alpha),
             "C_q(f) <= C_p(f) (Laplace, mu = 1, p = 1/5 <= q = 1/2)", skip=NO_SYMBOLIC),
    ),
)

monotone_gaussian = Derivation(
    id="cp_gaussian_is_monotone_in_p",
    statement="For G_1 and 0 < 1/5 <= 1/2 <= 1: G_1 <= C_{1/2}(G_1) <= C_{1/5}(G_1) <= Id.",
    citation=CITE, hypotheses={alpha: sp.FiniteSet(0, R(1, 100), R(1, 5), R(1, 2), R(4, 5), 1)},
    chained=True,
    steps=(
        Step(Gaussian(1)(alpha), "<=", subsample(Gaussian(1), R(1, 2))(alpha), "f <= C_q(f)",
             skip=NO_SYMBOLIC),
        Step(subsample(Gaussian(1), R(1, 2))(alpha), "<=", subsample(Gaussian(1), R(1, 5))(alpha),
             "C_q(f) <= C_p(f)", skip=NO_SYMBOLIC),
        Step(subsample(Gaussian(1), R(1, 5))(alpha), "<=", Identity()(alpha), "C_p(f) <= Id",
             skip=NO_SYMBOLIC),
    ),
)

order_preserving = Derivation(
    id="cp_preserves_the_order_of_trade_off_functions",
    statement=("f <= g implies C_p(f) <= C_p(g): for f_{eta,gamma} <= f_{eps,delta} (eps <= eta, "
               "delta <= gamma)."),
    citation=CITE, hypotheses=hyp, chained=False,
    steps=(
        Step(subsample(EpsDelta(eps2, delta2), p)(alpha), "<=", subsample(EpsDelta(eps, delta), p)(alpha),
             "order preserved for (eps, delta) pairs",
             side_conditions=(sp.Le(eps, eps2), sp.Le(delta, delta2))),
    ),
)

order_preserving_gaussian = Derivation(
    id="cp_preserves_the_order_for_gaussian_and_eps_delta",
    statement=("f_{1, 1/5} <= G_1 (the profile of G_1 at eps = 1 is 0.1269... <= 1/5) and G_2 <= G_1; "
               "so C_p(f_{1,1/5}) <= C_p(G_1) and C_p(G_2) <= C_p(G_1), at p in {1/5, 1/2}."),
    citation=CITE, hypotheses={alpha: sp.FiniteSet(R(1, 100), R(1, 5), R(1, 2), R(9, 10)),
                               p: sp.FiniteSet(R(1, 5), R(1, 2))},
    chained=False,
    steps=(
        Step(EpsDelta(1, R(1, 5))(alpha), "<=", Gaussian(1)(alpha), "hypothesis f_{1,1/5} <= G_1",
             skip=NO_SYMBOLIC),
        Step(subsample(EpsDelta(1, R(1, 5)), p)(alpha), "<=", subsample(Gaussian(1), p)(alpha),
             "so C_p(f_{1,1/5}) <= C_p(G_1)", skip=NO_SYMBOLIC),
        Step(subsample(Gaussian(2), p)(alpha), "<=", subsample(Gaussian(1), p)(alpha),
             "G_2 <= G_1 gives C_p(G_2) <= C_p(G_1)", skip=NO_SYMBOLIC),
    ),
)

C_fig = subsample(EpsDelta(3, R(1, 10)), R(1, 5))
C_gauss = subsample(Gaussian(1), R(1, 5))
C_sym = subsample(EpsDelta(eps, delta), p)
symmetric = Derivation(
    id="cp_is_a_symmetric_trade_off_function",
    statement=("C_p(f) is symmetric (C(C(alpha)) = alpha on [0, C(0)]) and a trade-off function "
               "(Prop. 2.2: 0 <= C <= Id, non-increasing, convex)."),
    citation=CITE + "; Prop. 2.2",
    hypotheses=hyp, chained=False,
    steps=(
        Step(C_sym(C_sym(alpha)), "=", alpha, "C_p(f_{eps,delta}) is an involution on [0, 1 - p delta]",
             side_conditions=(sp.Le(alpha, 1 - p * delta),)),
        Step(C_sym(alpha), ">=", 0, "C >= 0", skip=NO_SYMBOLIC),
        Step(C_sym(b), "<=", C_sym(a), "non-increasing: a <= b gives C(b) <= C(a)",
             side_conditions=(sp.Le(a, b),)),
        Step(C_sym((a + b) / 2), "<=", (C_sym(a) + C_sym(b)) / 2, "convex (midpoints)",
             side_conditions=(sp.Le(a, b),)),
    ),
)

gaussian_symmetric = Derivation(
    id="cp_gaussian_is_symmetric_and_convex",
    statement="C_{1/5}(G_1) is an involution on [0, 1] and midpoint convex.",
    citation=CITE + "; Prop. 2.2",
    hypotheses={alpha: sp.FiniteSet(R(1, 100), R(1, 5), R(1, 2), R(9, 10)),
                a: sp.FiniteSet(R(1, 50), R(1, 3)), b: sp.FiniteSet(R(1, 2), R(19, 20))},
    chained=False,
    steps=(
        Step(C_gauss(C_gauss(alpha)), "=", alpha, "C(C(alpha)) = alpha", skip=NO_SYMBOLIC),
        Step(C_gauss((a + b) / 2), "<=", (C_gauss(a) + C_gauss(b)) / 2, "convex (midpoints)",
             skip=NO_SYMBOLIC),
    ),
)

DERIVATIONS = [endpoints, monotone, monotone_gaussian, order_preserving, order_preserving_gaussian,
               symmetric, gaussian_symmetric]
