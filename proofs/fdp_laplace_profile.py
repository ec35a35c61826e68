"""The privacy profile of the Laplace trade-off function T(Lap(0,1), Lap(mu,1)).

From the pieces (Dong, Roth, Su 2022, Sec. 2.3): delta(eps) = 1 - e^{(eps - mu)/2}
for 0 <= eps < mu and 0 for eps >= mu -- mu-DP pure for the Laplace mechanism.

Each value is proved with the supremum's attainment shown (kernel.convex): the stationary
point x = e^{-(mu+eps)/2}/2 of the middle piece, or x = 0; z3 bounds -e^eps x - f(x) by the
value there for every x in [0, 1] (on the middle piece it is the arithmetic-geometric mean
inequality).
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import conjugate_attained_proof
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
             side_conditions=(sp.Lt(eps, mu),),
             proof=conjugate_attained_proof(f, -sp.exp(eps), sp.exp(-(mu + eps) / 2) / 2)),
        Step(1 + ConjugateAt(f, -sp.exp(eps)), "=", sp.S.Zero,
             "sup at x = 0 (slope e^eps above every slope of f)", side_conditions=(sp.Ge(eps, mu),),
             proof=conjugate_attained_proof(f, -sp.exp(eps), sp.S.Zero)),
    ),
)
