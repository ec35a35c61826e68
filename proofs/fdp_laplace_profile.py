"""The privacy profile of the Laplace trade-off function T(Lap(0,1), Lap(mu,1)).

From the pieces (Dong, Roth, Su 2022, Sec. 2.3): delta(eps) = 1 - e^{(eps - mu)/2}
for 0 <= eps < mu and 0 for eps >= mu -- mu-DP pure for the Laplace mechanism.
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.core.symbols import eps, mu
from symdp.tradeoff import ConjugateAt, Laplace

f = Laplace(mu)

derivation = Derivation(
    id="laplace_privacy_profile",
    statement="delta(eps) = 1 - e^{(eps - mu)/2} for eps < mu and 0 for eps >= mu.",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 2.3 (Laplace) and Prop. 2.12",
    hypotheses={eps: sp.Interval(0, sp.oo), mu: sp.Interval.open(0, sp.oo)},
    chained=False,
    steps=(
        Step(1 + ConjugateAt(f, -sp.exp(eps)), "=", 1 - sp.exp((eps - mu) / 2),
             "stationary point of e^{-mu}/(4x): x = e^{-(mu+eps)/2}/2",
             side_conditions=(sp.Lt(eps, mu),)),
        Step(1 + ConjugateAt(f, -sp.exp(eps)), "=", sp.S.Zero,
             "sup at x = 0 (slope e^eps above every slope of f)", side_conditions=(sp.Ge(eps, mu),)),
    ),
)
