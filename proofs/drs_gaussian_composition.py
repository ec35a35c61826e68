"""G_a (x) G_b = G_sqrt(a^2 + b^2), derived through the privacy-loss distribution.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Def. 3.1 and Sec. 3 (Gaussian composition):
the loss of G_mu = T(N(0,1), N(mu,1)) is L(x) = log(phi(x - mu)/phi(x)) = mu x - mu^2/2,
under Q = N(mu, 1) a N(mu^2/2, mu^2) variable; independent losses add (product measures,
Def. 3.1) and the moment generating functions multiply; a loss N(m^2/2, m^2) is the loss of
G_m; and the profile E[(1 - e^{eps - L})_+] of that loss is Cor. 2.13's formula.
"""

import sympy as sp

from symdp.core.special import Phi, PhiInv
from symdp.composition import TensorPower, TensorProduct
from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import arith_proof
from symdp.tradeoff import Gaussian, Identity, alpha

a, b, mu, m = (sp.Symbol(n, positive=True) for n in ("a", "b", "mu", "m"))
x, t, l = (sp.Symbol(n, real=True) for n in ("x", "t", "l"))
eps = sp.Symbol("varepsilon", nonnegative=True)
n = sp.Symbol("n", integer=True, positive=True)


def npdf(z, mean, var):
    return sp.exp(-(z - mean) ** 2 / (2 * var)) / sp.sqrt(2 * sp.pi * var)


DERIVATIONS = [Derivation(
    id="gaussian_tensor_is_gaussian_sqrt_sum_squares",
    statement="G_a (x) G_b = G_sqrt(a^2+b^2), from the privacy-loss distribution N(mu^2/2, mu^2) of G_mu",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 3.1 and Sec. 3; Prop. 2.12, Cor. 2.13",
    hypotheses={a: sp.Interval.open(0, sp.oo), b: sp.Interval.open(0, sp.oo),
                mu: sp.Interval.open(0, sp.oo), m: sp.Interval.open(0, sp.oo),
                x: sp.Reals, t: sp.Reals, alpha: sp.Interval(0, 1), eps: sp.Interval(0, sp.oo), n: sp.Range(1, sp.oo)},
    chained=False,
    steps=(
        Step(sp.expand_log(sp.log(npdf(x, mu, 1) / npdf(x, 0, 1)), force=True), "=",
             mu * x - mu ** 2 / 2, "the privacy loss of G_mu: log of the density ratio"),
        Step(sp.Integral((mu * x - mu ** 2 / 2) * npdf(x, mu, 1), (x, -sp.oo, sp.oo)), "=", mu ** 2 / 2,
             "its mean under Q = N(mu, 1)"),
        Step(sp.Integral((mu * x - mu ** 2 / 2 - mu ** 2 / 2) ** 2 * npdf(x, mu, 1), (x, -sp.oo, sp.oo)),
             "=", mu ** 2, "its variance under Q (it is normal: an affine map of a normal)"),
        Step(sp.exp(t * a ** 2 / 2 + t ** 2 * a ** 2 / 2) * sp.exp(t * b ** 2 / 2 + t ** 2 * b ** 2 / 2), "=",
             sp.exp(t * (a ** 2 + b ** 2) / 2 + t ** 2 * (a ** 2 + b ** 2) / 2),
             "independent losses add (Def. 3.1: product measures): MGFs multiply; the sum is "
             "N(m^2/2, m^2) with m^2 = a^2 + b^2, which by steps 1-3 (mu = m) is the loss of G_m; "
             "the loss distribution under Q determines the profile E_Q[(1 - e^{eps - L})_+], and "
             "the profile determines a symmetric trade-off function (Prop. 2.12)"),
        Step(TensorProduct(Gaussian(a), Gaussian(b))(alpha), "=", Gaussian(sp.sqrt(a ** 2 + b ** 2))(alpha),
             "symdp's closed form of the product agrees"),
        Step(TensorPower(Gaussian(mu), n)(alpha), "=", Gaussian(sp.sqrt(n) * mu)(alpha),
             "n-fold: m^2 = n mu^2"),
    ),
), Derivation(
    id="gaussian_loss_profile_is_cor_2_13",
    statement="a privacy loss N(m^2/2, m^2) under Q has the profile of Cor. 2.13",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Prop. 2.12 and Cor. 2.13",
    hypotheses={m: sp.Interval.open(0, sp.oo), eps: sp.Interval(0, sp.oo), x: sp.Reals},
    chained=False,
    notes="Evidence only, on purpose: SymPy integrates the left side to erf terms (with a "
          "removable 0/0 at m^2 = 2 eps) that cancel only after erfc -> 1 - erf, and the kernel "
          "does not take SymPy's integrate on trust, so the cascade decides it at points.",
    steps=(
        Step(sp.Integral(npdf(x, 0, 1), (x, (eps - m ** 2 / 2) / m, sp.oo))
             - sp.exp(eps - m ** 2 / 2) * sp.Integral(sp.exp(-m * x) * npdf(x, 0, 1),
                                                     (x, (eps - m ** 2 / 2) / m, sp.oo)), "=",
             Phi(-eps / m + m / 2) - sp.exp(eps) * Phi(-eps / m - m / 2),
             "a loss L = m^2/2 + m Z, Z ~ N(0,1), has profile E[(1 - e^{eps - L})_+] (the integrand "
             "is positive for L > eps, i.e. Z > (eps - m^2/2)/m) = Cor. 2.13's profile of G_m, "
             "and a profile determines a symmetric trade-off function (Prop. 2.12)"),
    ),
)]

# The properties of Def. 3.1's product, for the Gaussian family over its whole domain: each side's
# closed form comes from the derivation above (the loss N(m^2/2, m^2) of G_m).
c, t = sp.Symbol("c", positive=True), sp.Symbol("t", nonnegative=True)
z = sp.Symbol("z", real=True)
G_HYP = {a: sp.Interval.open(0, sp.oo), b: sp.Interval.open(0, sp.oo), c: sp.Interval.open(0, sp.oo),
         t: sp.Interval(0, sp.oo), alpha: sp.Interval(0, 1), z: sp.Reals}
DERIVATIONS.append(Derivation(
    id="gaussian_tensor_product_properties",
    statement="For Gaussians: G_a (x) G_b = G_b (x) G_a, (G_a (x) G_b) (x) G_c = G_a (x) (G_b (x) G_c), "
              "G_a (x) Id = G_a, and a <= b => G_a (x) G_c >= G_b (x) G_c (through sqrt(a^2 + c^2) <= sqrt(b^2 + c^2))",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 3.1 and Sec. 3 (properties of the tensor product)",
    hypotheses=G_HYP, chained=False,
    steps=(
        Step(TensorProduct(Gaussian(a), Gaussian(b))(alpha), "=", TensorProduct(Gaussian(b), Gaussian(a))(alpha),
             "commutativity"),
        Step(TensorProduct(TensorProduct(Gaussian(a), Gaussian(b)), Gaussian(c))(alpha), "=",
             TensorProduct(Gaussian(a), TensorProduct(Gaussian(b), Gaussian(c)))(alpha), "associativity"),
        Step(TensorProduct(Gaussian(a), Identity())(alpha), "=", Gaussian(a)(alpha), "G_a (x) Id = G_a"),
        Step(sp.sqrt((a + t) ** 2 + c ** 2), ">=", sp.sqrt(a ** 2 + c ** 2),
             "monotonicity: the parameter of G_{a+t} (x) G_c is at least that of G_a (x) G_c"),
        Step(Gaussian(c)(alpha), "=", Phi(PhiInv(1 - alpha) - c), "G_m(alpha) = Phi(Phi^{-1}(1 - alpha) - m)"),
        # Phi'(z) as SymPy differentiates symdp's Phi, the density phi(z): a Derivative node
        # has no definedness rule in the kernel (deny by default, issue #27), its value has
        Step(sp.diff(Phi(z), z), ">", 0, "Phi' = phi > 0, so Phi is increasing and G_m(alpha) = "
             "Phi(Phi^{-1}(1 - alpha) - m) is non-increasing in m: with step 4, "
             "G_a (x) G_c = G_sqrt(a^2+c^2) >= G_sqrt((a+t)^2+c^2) = G_{a+t} (x) G_c",
             proof=arith_proof("doit + z3")),
    ),
))
