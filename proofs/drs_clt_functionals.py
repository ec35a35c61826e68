r"""The CLT functionals kl, kappa_2, kappa_3, kappa_3-bar in closed form, and mu = 2K/s.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Sec. 3.3: kl(f) = -int_0^1 log|f'(x)| dx,
kappa_2(f) = int log^2|f'|, kappa_3(f) = int |log|f'||^3, kappa_3-bar(f) = int |log|f'| + kl(f)|^3.
For f = T(P, Q), |f'| at alpha is the likelihood ratio q/p at the Neyman--Pearson threshold and
that threshold is distributed as P when alpha is uniform, so each functional is an expectation
under P of the log-likelihood ratio l = log(q/p):

* G_mu = T(N(0,1), N(mu,1)): l(x) = mu x - mu^2/2, x ~ N(0,1);
* f_{eps,0}: l = -eps with P-probability E/(1+E), +eps with 1/(1+E) (E = e^eps);
* Laplace T(Lap(0,1), Lap(mu,1)): l(x) = |x| - |x - mu|, x ~ Lap(0,1).

Each right-hand side is symdp.composition.clt.functionals(...), so the steps also check the code.
"""

import sympy as sp

from symdp.composition.clt import clt_mu, functionals
from symdp.proof import Derivation, Step
from symdp.tradeoff import EpsDelta, Gaussian, Laplace

mu, eps = sp.Symbol("mu", positive=True), sp.Symbol("varepsilon", positive=True)
x = sp.Symbol("x", real=True)
n = sp.Symbol("n", integer=True, positive=True)
phi = sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi)
l_gauss = mu * x - mu ** 2 / 2
FG, FE, FL = functionals(Gaussian(mu)), functionals(EpsDelta(eps, 0)), functionals(Laplace(mu))
E = sp.exp(eps)
lap = sp.exp(-sp.Abs(x)) / 2


def lap_expect(h0, h1, h2, cut=None):
    """E_P[h(l)] for P = Lap(0,1): l = -mu on x <= 0, 2x - mu on (0, mu), mu on x >= mu;
    the middle piece is split at ``cut`` (where h has a kink)."""
    mid = [(0, mu)] if cut is None else [(0, cut), (cut, mu)]
    middle = sum(sp.Integral(h1(i) * sp.exp(-x) / 2, (x, a, b)) for i, (a, b) in enumerate(mid))
    return h0 * sp.Rational(1, 2) + middle + h2 * sp.exp(-mu) / 2


DERIVATIONS = [Derivation(
    id="clt_functionals_closed_forms",
    statement="kl, kappa_2, kappa_3, kappa_3-bar of G_mu, f_{eps,0} and the Laplace trade-off function, "
              "and 2K/s = sqrt(n) mu for G_mu^{(x)n} (the CLT is exact for Gaussians)",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 3.3 (definitions of the functionals and the CLT)",
    hypotheses={mu: sp.Interval.open(0, sp.oo), eps: sp.Interval.open(0, sp.oo), x: sp.Reals,
                n: sp.Range(1, sp.oo)},
    chained=False,
    steps=(
        Step(-sp.Integral(l_gauss * phi, (x, -sp.oo, sp.oo)), "=", FG.kl, "kl(G_mu) = E[-l] = mu^2/2"),
        Step(sp.Integral(l_gauss ** 2 * phi, (x, -sp.oo, sp.oo)), "=", FG.kappa2, "kappa_2(G_mu)"),
        Step(sp.Integral(-(l_gauss + FG.kl) ** 3 * phi, (x, -sp.oo, 0)) + sp.Integral((l_gauss + FG.kl) ** 3 * phi, (x, 0, sp.oo)),
             "=", FG.kappa3_bar, "kappa_3-bar(G_mu) = E|mu X|^3 = 2 sqrt(2/pi) mu^3"),
        Step(-(-eps * E / (1 + E) + eps / (1 + E)), "=", FE.kl, "kl(f_{eps,0}) = eps (E - 1)/(E + 1)"),
        Step(eps ** 2 * E / (1 + E) + eps ** 2 / (1 + E), "=", FE.kappa2, "kappa_2(f_{eps,0}) = eps^2"),
        Step(eps ** 3 * E / (1 + E) + eps ** 3 / (1 + E), "=", FE.kappa3, "kappa_3(f_{eps,0}) = eps^3"),
        Step(-lap_expect(-mu, lambda i: 2 * x - mu, mu), "=", FL.kl,
             "kl(Laplace) = KL(Lap(0,1) || Lap(mu,1)) = mu - 1 + e^-mu"),
        Step(lap_expect(mu ** 2, lambda i: (2 * x - mu) ** 2, mu ** 2), "=", FL.kappa2, "kappa_2(Laplace)"),
        Step(lap_expect(mu ** 3, lambda i: (-1 if i == 0 else 1) * (2 * x - mu) ** 3, mu ** 3, cut=mu / 2),
             "=", FL.kappa3, "kappa_3(Laplace): |l|^3 split where l = 0 (x = mu/2)"),
        Step(clt_mu([Gaussian(mu)] * 5), "=", sp.sqrt(5) * mu, "CLT: mu = 2K/s is exact for 5 Gaussians"),
    ),
), Derivation(
    id="clt_kappa3_of_gaussian_closed_form",
    statement="kappa_3(G_mu) = E|mu X - mu^2/2|^3 in closed form (Phi and exp)",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 3.3",
    hypotheses={mu: sp.Interval.open(0, sp.oo), x: sp.Reals},
    chained=False,
    notes="SymPy's integral leaves erf/erfc terms it does not combine: decided at points only.",
    steps=(
        Step(sp.Integral(-l_gauss ** 3 * phi, (x, -sp.oo, mu / 2)) + sp.Integral(l_gauss ** 3 * phi, (x, mu / 2, sp.oo)),
             "=", FG.kappa3, "kappa_3(G_mu): |l|^3 split where l = 0 (x = mu/2)"),
    ),
)]
