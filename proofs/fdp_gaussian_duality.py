"""Cor. 2.13 of Dong, Roth, Su: mu-GDP is (eps, delta(eps))-DP for all eps >= 0.

The left-hand side is the Legendre transform that symdp computes from the
pieces of G_mu (stationary point found by reparametrising x = Phi(-z)); the
right-hand side is the paper's formula, typed in.  The chain shows the two
are the same function.
"""

import sympy as sp

from symdp import Phi
from symdp.proof import Derivation, chain
from symdp.core.symbols import eps, mu
from symdp.tradeoff import ConjugateAt, Gaussian

G = Gaussian(mu)

derivation = Derivation(
    id="gdp_privacy_profile_eq_cor_2_13",
    statement=("The privacy profile 1 + G_mu^*(-e^eps) of G_mu, computed by the Legendre "
               "transform, is Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Cor. 2.13)."),
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Prop. 2.12 and Cor. 2.13 (JRSS-B 84(1), Cor. 2.13)",
    hypotheses={eps: sp.Interval(0, sp.oo), mu: sp.Interval.open(0, sp.oo)},
    steps=chain(
        1 + ConjugateAt(G, -sp.exp(eps)),
        ("=", 1 - sp.exp(eps) * Phi(-eps / mu - mu / 2) - Phi(eps / mu - mu / 2),
         "Legendre transform: sup at the stationary point G_mu'(x) = -e^eps, "
         "x = Phi(-eps/mu - mu/2)"),
        ("=", Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2),
         "1 - Phi(u) = Phi(-u)"),
    ),
)
