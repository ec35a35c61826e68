"""The families are symmetric (f^{-1} = f, Eq. 4) and their fixed points.

The inverse on the left is computed generically, piece by piece, from
inf{t : f(t) <= a}; the fixed points are checked by f(x*) = x*.
"""

import sympy as sp

from symdp import Phi
from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import inverse_proof, unfolded_proof
from symdp.core.symbols import alpha, delta, eps, mu
from symdp.tradeoff import EpsDelta, Gaussian, Inverse, Laplace

hyp = {alpha: sp.Interval(0, 1), eps: sp.Interval(0, sp.oo), delta: sp.Interval(0, 1),
       mu: sp.Interval.open(0, sp.oo)}
cite = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Eq. 4, Prop. 2.4 and Sec. 2.3"

DERIVATIONS = [
    Derivation(
        id="tradeoff_families_are_symmetric",
        statement="f^{-1} = f for f_{eps,delta}, G_mu and the Laplace trade-off function.",
        citation=cite, hypotheses=hyp, chained=False,
        steps=(Step(Inverse(EpsDelta(eps, delta))(alpha), "=", EpsDelta(eps, delta)(alpha),
                    "Eq. 4: f(f(a)) <= a and every t with f(t) <= a is at least f(a) (the "
                    "inverse's two bounds, from the formula of f_{eps,delta})",
                    proof=inverse_proof(EpsDelta(eps, delta), EpsDelta(eps, delta).expr(alpha))),)
        + tuple(Step(Inverse(f)(alpha), "=", f(alpha), "Eq. 4, inverted piece by piece")
                for f in (Gaussian(mu), Laplace(mu))),
    ),
    Derivation(
        id="tradeoff_family_fixed_points",
        statement=("The fixed points: (1 - delta)/(1 + e^eps) for f_{eps,delta}, Phi(-mu/2) for "
                   "G_mu, e^{-mu/2}/2 for the Laplace trade-off function."),
        citation=cite, hypotheses=hyp, chained=False,
        steps=(
            Step(EpsDelta(eps, delta)((1 - delta) / (1 + sp.exp(eps))), "=",
                 (1 - delta) / (1 + sp.exp(eps)), "f(x*) = x*: both lines meet there, above 0",
                 proof=unfolded_proof()),
            Step(Gaussian(mu)(Phi(-mu / 2)), "=", Phi(-mu / 2), "f(x*) = x*"),
            Step(Laplace(mu)(sp.exp(-mu / 2) / 2), "=", sp.exp(-mu / 2) / 2, "f(x*) = x*"),
        ),
    ),
]
