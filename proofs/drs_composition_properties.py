r"""Properties of the tensor product, checked exactly on products of randomized-response pairs.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Def. 3.1 and the properties listed after it
(Sec. 3): f (x) g = T(P x P', Q x Q') is well defined, commutative, associative,
f (x) Id = f, and monotone (f >= f' => f (x) g >= f' (x) g); and the privacy profile of a
product is read off its privacy-loss distribution.  Kairouz, Oh, Viswanath 2015, Thm. 3.3:
the profile of f_{eps,delta}^{(x)k}.

Each side is a symdp.composition.enumerated quantity: the product measure listed atom by
atom, every value an exact rational.  The parameters are integers encoding
E = e^eps = 1 + a/2, delta = b/10, s = e^t = c/2, alpha = x/10 (a = b = 0 is Id = f_{0,0});
ENUMERATED means: every point of that grid, exactly -- not every real parameter.  The
hypotheses of each derivation ARE that finite grid (built from its enumeration ranges), so
the verdict claims no more than was enumerated.
"""

import sympy as sp

from symdp.composition.enumerated import (NestedProductProfile, PowerProfile, PowerProfileAtLattice,
                                          ProductProfile, ProductProfileFromLoss, ProductTradeOff)
from symdp.proof import Derivation, Step


def grid(enumeration: dict) -> dict:
    """The hypotheses of a grid derivation: each symbol ranges over exactly its enumerated values."""
    return {s: sp.Range(min(r), max(r) + 1) for s, r in enumeration.items()}


GRID_SCOPE = (" [a claim about the finite grid only: E = e^eps = 1 + a/2, delta = b/10, s = e^t = c/2, "
              "alpha = x/10, each integer over the enumerated range -- not every real parameter]")


def GridDerivation(**kw):
    kw["statement"] = kw["statement"] + GRID_SCOPE
    return Derivation(hypotheses=grid(kw["enumeration"]), **kw)

a1, b1, a2, b2, a3, b3, c, x, k, l, i = (sp.Symbol(n, integer=True, nonnegative=True) for n in
                                         ("a1", "b1", "a2", "b2", "a3", "b3", "c", "x", "k", "l", "i"))
CITE = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 3.1 and Sec. 3 (properties of the tensor product)"
A, B, C = range(0, 4), range(0, 3), range(1, 7)

DERIVATIONS = [
    GridDerivation(
        id="tensor_product_is_commutative_on_rr_grid",
        statement="delta_{f (x) g} = delta_{g (x) f} for f, g randomized response with delta, at every grid point",
        citation=CITE, chained=False,
        steps=(Step(ProductProfile(c, a1, b1, a2, b2), "=", ProductProfile(c, a2, b2, a1, b1),
                    "P x P' and P' x P list the same atoms (commutativity)"),),
        enumeration={a1: A, b1: B, a2: A, b2: B, c: C},
    ),
    GridDerivation(
        id="tensor_product_is_associative_on_rr_grid",
        statement="delta_{(f (x) g) (x) h} = delta_{f (x) (g (x) h)}, the inner product replaced by the "
                  "canonical pair of its trade-off function",
        citation=CITE, chained=False,
        steps=(Step(NestedProductProfile(c, 1, a1, b1, a2, b2, a3, b3), "=",
                    NestedProductProfile(c, 0, a1, b1, a2, b2, a3, b3),
                    "associativity, and independence of the pair representing f (x) g"),),
        enumeration={a1: range(0, 3), b1: range(0, 2), a2: range(0, 3), b2: range(0, 2),
                     a3: range(1, 3), b3: range(0, 2), c: range(1, 6)},
    ),
    GridDerivation(
        id="tensor_with_identity_is_neutral_on_rr_grid",
        statement="f (x) Id = f (Id = f_{0,0} = T(P, P)), as privacy profiles and as trade-off functions",
        citation=CITE, chained=False,
        steps=(Step(ProductProfile(c, a1, b1, 0, 0), "=", ProductProfile(c, a1, b1), "f (x) Id = f (profiles)"),
               Step(ProductTradeOff(x, a1, b1, 0, 0), "=", ProductTradeOff(x, a1, b1),
                    "f (x) Id = f (trade-off functions, Neyman--Pearson)")),
        enumeration={a1: A, b1: B, c: C, x: range(0, 11)},
    ),
    GridDerivation(
        id="tensor_product_is_monotone_on_rr_grid",
        statement="f_{E1,d1} >= f_{E2,d2} (E1 <= E2, d1 <= d2), and then f_{E1,d1} (x) g >= f_{E2,d2} (x) g",
        citation=CITE, chained=False,
        constraints=(sp.Le(a1, a2), sp.Le(b1, b2)),
        steps=(Step(ProductTradeOff(x, a1, b1), ">=", ProductTradeOff(x, a2, b2),
                    "the premise: f >= f' pointwise"),
               Step(ProductTradeOff(x, a1, b1, a3, b3), ">=", ProductTradeOff(x, a2, b2, a3, b3),
                    "monotonicity of the tensor product")),
        enumeration={a1: range(0, 3), b1: range(0, 2), a2: range(0, 3), b2: range(0, 2),
                     a3: range(0, 3), b3: range(0, 2), x: range(0, 11)},
    ),
    GridDerivation(
        id="eps_delta_is_f_0_delta_tensor_f_eps_0_on_rr_grid",
        statement="f_{eps,delta} = f_{0,delta} (x) f_{eps,0}, and so eps's and delta's of a product of "
                  "randomized responses may be exchanged between the factors",
        citation="Kairouz, Oh, Viswanath 2015, Sec. 3 (the (eps, delta) pair as a product); "
                 "Murtagh, Vadhan 2016 (the same decomposition)",
        chained=False,
        steps=(Step(ProductProfile(c, a1, b1), "=", ProductProfile(c, 0, b1, a1, 0),
                    "under Q: loss +inf w.p. delta, else +-eps -- the loss of f_{0,delta} plus that of f_{eps,0}"),
               Step(ProductProfile(c, a1, b1, a2, b2), "=", ProductProfile(c, a2, b1, a1, b2),
                    "the finite part of the loss, +-eps1 +-eps2, does not depend on delta1, delta2")),
        enumeration={a1: A, b1: B, a2: A, b2: B, c: C},
    ),
    GridDerivation(
        id="product_profile_from_privacy_loss_distribution_on_rr_grid",
        statement="sum (Q x Q' - s P x P')_+ = E[(1 - s/R)_+] with R the product of the factors' "
                  "likelihood ratios under Q (the privacy-loss route)",
        citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Prop. 2.12 and Def. 3.1",
        chained=False,
        steps=(Step(ProductProfile(c, a1, b1, a2, b2), "=", ProductProfileFromLoss(c, a1, b1, a2, b2),
                    "hockey-stick divergence of the product = expectation over the loss distribution"),),
        enumeration={a1: A, b1: B, a2: A, b2: B, c: C},
    ),
]

# KOV 2015 Thm. 3.3, in E = 1 + a/2, delta = b/10, s = c/2 (the formula of symdp.composition.eps_delta)
a = sp.Symbol("a", integer=True, nonnegative=True)
b = sp.Symbol("b", integer=True, nonnegative=True)
Ea, da, s = 1 + a / 2, b / sp.Integer(10), c / sp.Integer(2)
kov = 1 - (1 - da) ** k + (1 - da) ** k / (1 + Ea) ** k * sp.Sum(
    sp.binomial(k, i) * sp.Max(0, Ea ** i - s * Ea ** (k - i)), (i, 0, k))
tilde = sp.Sum(sp.binomial(k, i) * (Ea ** (k - i) - Ea ** (k - 2 * l + i)), (i, 0, l - 1)) / (1 + Ea) ** k
KOV_GRID = {a: range(0, 4), b: range(0, 3), c: range(1, 7), k: range(1, 5), l: range(0, 3)}
DERIVATIONS.append(Derivation(
    id="kov_composition_profile_on_rr_grid",
    statement="delta of f_{eps,delta}^{(x)k} at s = e^t is 1 - (1-delta)^k + (1-delta)^k (1+E)^-k "
              "sum_i C(k,i) (E^i - s E^(k-i))_+, and at t = (k - 2l) eps KOV's printed "
              "1 - (1-delta)^k (1 - delta_tilde_l)" + GRID_SCOPE.replace("alpha = x/10", "k <= 4, l <= 2"),
    citation="Kairouz, Oh, Viswanath 2015 (ICML; arXiv 1311.0776), Thm. 3.3",
    hypotheses=grid(KOV_GRID), chained=False, constraints=(sp.Le(2 * l, k),),
    steps=(Step(PowerProfile(c, a, b, k), "=", kov, "the profile for every t (segment form)"),
           Step(PowerProfileAtLattice(a, b, k, l), "=", 1 - (1 - da) ** k * (1 - tilde),
                "KOV Thm. 3.3 as printed, at eps_l = (k - 2l) eps, 0 <= l <= k/2")),
    enumeration=KOV_GRID,
))
