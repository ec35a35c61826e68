"""Def. 4.1 (the p-sampling operator) and its three properties.

Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 4.1 and the properties listed after Thm. 4.2
(JRSS-B 84(1), 2022, Def. 4.1).  C_p(f) = min{f_p, f_p^{-1}}**, f_p = p f + (1 - p) Id.

1. For symmetric f and 0 <= p <= q <= 1: f = C_1(f) <= C_q(f) <= C_p(f) <= C_0(f) = Id.
2. f <= g implies C_p(f) <= C_p(g).
3. C_p(f) is a symmetric trade-off function.

The endpoints are exact (the operator returns f and Id).  Every inequality is proved from
Def. 4.1 by the lemmas of symdp/proof/kernel/convex.py, for every symmetric trade-off
function f (``f`` below is an AbstractTradeOff declared symmetric: the proofs use nothing
else about it) and, with the same scripts, for the families with symbolic parameters:

* f <= C_q(f): f <= f_q (f <= Id), f = f^{-1} <= f_q^{-1} (inverses reverse the order twice:
  every t with f_q(t) <= a has f(t) <= a), so f <= min{f_q, f_q^{-1}} and f = f** <= C_q(f)
  (Fenchel-Moreau: f is closed and convex);
* C_q(f) <= C_p(f) for p <= q: f_q <= f_p (f <= Id), so f_q^{-1} <= f_p^{-1}, the minima are
  ordered and so are their envelopes (envelope_mono);
* f <= g gives C_p(f) <= C_p(g) the same way (f_p <= g_p);
* C_p(f) is a trade-off function (Prop. 2.2): >= 0 (0 is an affine minorant), <= Id
  (h** <= h <= f_p <= Id), convex (a biconjugate), non-increasing (convex, >= 0 and
  C(1) <= 0); symmetric: C(C(x)) = x on [0, C(0)] (by Eq. 14 at x and at C(x): f_p^{-1} inverts
  f_p on [0, x*], the chord is its own inverse), which for a continuous non-increasing C is
  C^{-1} = C there.

The axioms these rest on (each cited in kernel/convex.py): Prop. 2.2 (f in [0, 1 - x],
non-increasing, convex; f_p and f^{-1} trade-off functions), Eq. 4 (the inverse as an
infimum), the fixed point, Rockafellar 1970 Thm. 12.2 and Cor. 12.1.1 (h** <= h, h** convex,
an affine minorant lies below h**, f** = f for a closed convex f, envelopes are monotone),
the greatest-convex-minorant characterisation (Eq. 14).
"""

import sympy as sp

from symdp import Phi
from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import (cp_ge_base_proof, cp_involution_proof, cp_monotone_proof,
                                       cp_order_proof, cp_property_proof, unfolded_proof)
from symdp.subsampling import subsample
from symdp.core.symbols import alpha, delta, eps, mu, p
from symdp.tradeoff import AbstractTradeOff, EpsDelta, Gaussian, Identity, Laplace, Mixture, TradeOffAt

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

ED = EpsDelta(eps, delta)
monotone = Derivation(
    id="cp_is_monotone_in_p_between_f_and_identity",
    statement=("For 0 <= p <= q <= 1: f <= C_q(f) <= C_p(f) <= Id (f = f_{eps,delta}, and the "
               "Laplace trade-off function with mu = 1, p = 1/5, q = 1/2)."),
    citation=CITE, hypotheses=hyp, chained=False,
    steps=(
        Step(ED(alpha), "<=", subsample(ED, q)(alpha), "f <= C_q(f)", skip=NO_SYMBOLIC,
             proof=cp_ge_base_proof(ED, q)),
        Step(subsample(ED, q)(alpha), "<=", subsample(ED, p)(alpha),
             "C_q(f) <= C_p(f) for p <= q", side_conditions=(sp.Le(p, q),),
             proof=cp_monotone_proof(ED, p, q)),
        Step(subsample(ED, p)(alpha), "<=", 1 - alpha, "C_p(f) <= Id", skip=NO_SYMBOLIC,
             proof=cp_property_proof(ED, p, "le_id")),
        Step(Laplace(1)(alpha), "<=", subsample(Laplace(1), R(1, 2))(alpha),
             "f <= C_q(f) (Laplace, mu = 1, q = 1/2)", skip=NO_SYMBOLIC,
             proof=cp_ge_base_proof(Laplace(1), R(1, 2))),
        Step(subsample(Laplace(1), R(1, 2))(alpha), "<=", subsample(Laplace(1), R(1, 5))(alpha),
             "C_q(f) <= C_p(f) (Laplace, mu = 1, p = 1/5 <= q = 1/2)", skip=NO_SYMBOLIC,
             proof=cp_monotone_proof(Laplace(1), R(1, 5), R(1, 2))),
    ),
)

monotone_gaussian = Derivation(
    id="cp_gaussian_is_monotone_in_p",
    statement="For G_1 and 0 < 1/5 <= 1/2 <= 1: G_1 <= C_{1/2}(G_1) <= C_{1/5}(G_1) <= Id.",
    citation=CITE, hypotheses={alpha: sp.FiniteSet(0, R(1, 100), R(1, 5), R(1, 2), R(4, 5), 1)},
    chained=True,
    steps=(
        Step(Gaussian(1)(alpha), "<=", subsample(Gaussian(1), R(1, 2))(alpha), "f <= C_q(f)",
             skip=NO_SYMBOLIC, proof=cp_ge_base_proof(Gaussian(1), R(1, 2))),
        Step(subsample(Gaussian(1), R(1, 2))(alpha), "<=", subsample(Gaussian(1), R(1, 5))(alpha),
             "C_q(f) <= C_p(f)", skip=NO_SYMBOLIC,
             proof=cp_monotone_proof(Gaussian(1), R(1, 5), R(1, 2))),
        Step(subsample(Gaussian(1), R(1, 5))(alpha), "<=", Identity()(alpha), "C_p(f) <= Id",
             skip=NO_SYMBOLIC, proof=cp_property_proof(Gaussian(1), R(1, 5), "le_id")),
    ),
)


def _eps_delta_order(P, D, t):
    """f_{eta,gamma}(t) <= f_{eps,delta}(t) for eps <= eta, delta <= gamma (their formulas)."""
    from symdp.proof.convex_proofs import unfold_all

    lo, hi = EpsDelta(eps2, delta2), EpsDelta(eps, delta)
    facts = unfold_all(P, lo(t), D) + unfold_all(P, hi(t), D)
    return P.arith(lo(t), "<=", hi(t), D, facts)


order_preserving = Derivation(
    id="cp_preserves_the_order_of_trade_off_functions",
    statement=("f <= g implies C_p(f) <= C_p(g): for f_{eta,gamma} <= f_{eps,delta} (eps <= eta, "
               "delta <= gamma)."),
    citation=CITE, hypotheses=hyp, chained=False,
    steps=(
        Step(subsample(EpsDelta(eps2, delta2), p)(alpha), "<=", subsample(EpsDelta(eps, delta), p)(alpha),
             "order preserved for (eps, delta) pairs",
             side_conditions=(sp.Le(eps, eps2), sp.Le(delta, delta2)),
             proof=cp_order_proof(EpsDelta(eps2, delta2), EpsDelta(eps, delta), p,
                                  order=_eps_delta_order)),
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

C_gauss = subsample(Gaussian(1), R(1, 5))
C_sym = subsample(ED, p)
symmetric = Derivation(
    id="cp_is_a_symmetric_trade_off_function",
    statement=("C_p(f) is symmetric (C(C(alpha)) = alpha on [0, C(0)]) and a trade-off function "
               "(Prop. 2.2: 0 <= C <= Id, non-increasing, convex)."),
    citation=CITE + "; Prop. 2.2",
    hypotheses=hyp, chained=False,
    steps=(
        Step(C_sym(C_sym(alpha)), "=", alpha, "C_p(f_{eps,delta}) is an involution on [0, 1 - p delta]",
             side_conditions=(sp.Le(alpha, 1 - p * delta),),
             proof=cp_involution_proof(ED, p, alpha, (1 - delta) / (1 + sp.exp(eps)))),
        Step(C_sym(alpha), ">=", 0, "C >= 0", skip=NO_SYMBOLIC,
             proof=cp_property_proof(ED, p, "nonneg")),
        Step(C_sym(b), "<=", C_sym(a), "non-increasing: a <= b gives C(b) <= C(a)",
             side_conditions=(sp.Le(a, b),), proof=cp_property_proof(ED, p, "antitone", a=a, b=b)),
        Step(C_sym((a + b) / 2), "<=", (C_sym(a) + C_sym(b)) / 2, "convex (midpoints)",
             side_conditions=(sp.Le(a, b),), proof=cp_property_proof(ED, p, "convex", a=a, b=b)),
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
        Step(C_gauss(C_gauss(alpha)), "=", alpha, "C(C(alpha)) = alpha", skip=NO_SYMBOLIC,
             proof=cp_involution_proof(Gaussian(1), R(1, 5), alpha, Phi(-R(1, 2)),
                                       "Phi identities + simplify")),
        Step(C_gauss((a + b) / 2), "<=", (C_gauss(a) + C_gauss(b)) / 2, "convex (midpoints)",
             skip=NO_SYMBOLIC, proof=cp_property_proof(Gaussian(1), R(1, 5), "convex", a=a, b=b)),
    ),
)

# ----------------------------------------------------------------- for every symmetric f
f = AbstractTradeOff("f", symmetric=True)
g = AbstractTradeOff("g", symmetric=True)
f_below_g = AbstractTradeOff("f", symmetric=True, below=(g,))
C_f = subsample(f, p)
ABSTRACT = {alpha: sp.Interval(0, 1), p: sp.Interval(0, 1), q: sp.Interval(0, 1),
            a: sp.Interval(0, 1), b: sp.Interval(0, 1)}
every_f = Derivation(
    id="cp_properties_for_every_symmetric_f",
    statement=("For every symmetric trade-off function f and 0 <= p <= q <= 1: f <= C_q(f) <= "
               "C_p(f) <= Id; C_p(f) >= 0, is non-increasing, convex and an involution on "
               "[0, f_p(0)] (a symmetric trade-off function)."),
    citation=CITE + "; Prop. 2.2",
    hypotheses=ABSTRACT, chained=False,
    notes="f is an AbstractTradeOff declared symmetric: nothing else about it is used.",
    steps=(
        Step(f(alpha), "<=", subsample(f, q)(alpha), "f <= C_q(f)", proof=cp_ge_base_proof(f, q)),
        Step(subsample(f, q)(alpha), "<=", C_f(alpha), "C_q(f) <= C_p(f) for p <= q",
             side_conditions=(sp.Le(p, q),), proof=cp_monotone_proof(f, p, q)),
        Step(C_f(alpha), "<=", 1 - alpha, "C_p(f) <= Id", proof=cp_property_proof(f, p, "le_id")),
        Step(C_f(alpha), ">=", 0, "C_p(f) >= 0", proof=cp_property_proof(f, p, "nonneg")),
        Step(C_f(b), "<=", C_f(a), "non-increasing: a <= b gives C(b) <= C(a)",
             side_conditions=(sp.Le(a, b),), proof=cp_property_proof(f, p, "antitone", a=a, b=b)),
        Step(C_f((a + b) / 2), "<=", (C_f(a) + C_f(b)) / 2, "convex (midpoints)",
             proof=cp_property_proof(f, p, "convex", a=a, b=b)),
        Step(C_f(C_f(alpha)), "=", alpha, "C(C(alpha)) = alpha on [0, f_p(0)]: symmetric",
             side_conditions=(sp.Le(alpha, TradeOffAt(Mixture(f, p), 0)),),
             proof=cp_involution_proof(f, p, alpha)),
    ),
)

order_every_f = Derivation(
    id="cp_preserves_the_order_for_every_f_below_g",
    statement="For symmetric trade-off functions f <= g and 0 <= p <= 1: C_p(f) <= C_p(g).",
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1), p: sp.Interval(0, 1)}, chained=False,
    notes="f is declared symmetric and below g (AbstractTradeOff(..., below=(g,))).",
    steps=(Step(subsample(f_below_g, p)(alpha), "<=", subsample(g, p)(alpha),
                "f_p <= g_p, so f_p^{-1} <= g_p^{-1}, the minima and their envelopes are ordered",
                proof=cp_order_proof(f_below_g, g, p)),),
)

DERIVATIONS = [endpoints, monotone, monotone_gaussian, order_preserving, order_preserving_gaussian,
               symmetric, gaussian_symmetric, every_f, order_every_f]
