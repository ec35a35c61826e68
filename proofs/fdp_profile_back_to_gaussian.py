"""The way back (Prop. 2.12): sup over eps of f_{eps, delta(eps)} for the GDP profile is G_mu.

The left-hand side is what symdp computes from the profile alone: the stationary
point of 1 - delta(eps) - e^eps alpha in eps, substituted back.  The profile
itself is Cor. 2.13 (checked in fdp_gaussian_duality.py).
"""

import sympy as sp

from symdp import Phi
from symdp.proof import Derivation, chain
from symdp.core.symbols import alpha, eps, mu
from symdp.tradeoff import Gaussian, from_privacy_profile

profile = Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2)
branch = from_privacy_profile(profile, eps).upper_branch(alpha)

derivation = Derivation(
    id="sup_eps_delta_of_gdp_profile_eq_gaussian",
    statement=("From the GDP profile alone, sup over eps >= 0 of 1 - delta(eps) - e^eps alpha "
               "(stationary point alpha = -e^{-eps} delta'(eps)) is G_mu(alpha)."),
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Prop. 2.12 (companion) and Cor. 2.13",
    hypotheses={alpha: sp.Interval.open(0, 1), mu: sp.Interval.open(0, sp.oo)},
    steps=chain(
        branch,
        ("=", Gaussian(mu)(alpha), "Phi^{-1}(1 - alpha) = -Phi^{-1}(alpha); definition of G_mu"),
    ),
)
