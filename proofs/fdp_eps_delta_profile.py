"""The privacy profile of f_{eps,delta} (Prop. 2.12 applied to Eq. 5).

``1 + f_{eps,delta}^*(-e^{eps'})`` is delta for eps' >= eps and
``1 - (1 - delta)(1 + e^{eps'})/(1 + e^eps)`` below: an (eps, delta)-DP
mechanism is (eps', delta(eps'))-DP for every eps' >= 0 with that delta.

Each value is proved with the supremum's attainment shown (kernel.convex): f^*(y) >= y x0 -
f(x0) at the point x0 (x = 0, or the kink), and y x - f(x) <= y x0 - f(x0) for every x in
[0, 1] (z3 on the formula of f_{eps,delta}, with e^{eps'} >= e^eps where eps' >= eps).
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import conjugate_attained_proof
from symdp.core.symbols import delta, eps
from symdp.tradeoff import ConjugateAt, EpsDelta

eps2 = sp.Symbol("eta", real=True)  # the profile's argument, eps' in the text
f = EpsDelta(eps, delta)

derivation = Derivation(
    id="eps_delta_privacy_profile",
    statement=("For eps' >= eps the profile of f_{eps,delta} is delta; for 0 <= eps' < eps it is "
               "1 - (1 - delta)(1 + e^{eps'})/(1 + e^{eps}) (eta stands for eps')."),
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Eq. 5 and Prop. 2.12",
    hypotheses={eps: sp.Interval(0, sp.oo), delta: sp.Interval(0, 1), eps2: sp.Interval(0, sp.oo)},
    chained=False,
    steps=(
        Step(1 + ConjugateAt(f, -sp.exp(eps2)), "=", delta,
             "sup of -e^{eps'} x - f(x) at x = 0", side_conditions=(sp.Ge(eps2, eps),),
             proof=conjugate_attained_proof(f, -sp.exp(eps2), sp.S.Zero)),
        Step(1 + ConjugateAt(f, -sp.exp(eps2)), "=",
             1 - (1 - delta) * (1 + sp.exp(eps2)) / (1 + sp.exp(eps)),
             "sup at the kink x = (1 - delta)/(1 + e^eps)", side_conditions=(sp.Lt(eps2, eps),),
             proof=conjugate_attained_proof(f, -sp.exp(eps2), (1 - delta) / (1 + sp.exp(eps)))),
    ),
)
