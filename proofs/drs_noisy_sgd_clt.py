"""Noisy SGD under the CLT: the limits mu = nu sqrt(2 c) for uniform and Poisson subsampling.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Sec. 3.3 (CLT: mu = 2K/s) and Sec. 5 (noisy SGD,
uniform subsampling, mu = nu sqrt(2(e^{1/sigma^2} Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2)));
Bu, Dong, Long, Su 2020 (HDSR; Poisson subsampling, mu = nu sqrt(e^{1/sigma^2} - 1)).

With mu0 = 1/sigma, w = exp(mu0 z - mu0^2/2) and u = log(1 + p(w - 1)):
kl(C_p(G_mu0)) = int_{z >= mu0/2} p (w - 1) u phi(z) dz (Eq. 14's three pieces; see
symdp.composition.clt.sgd_functionals), and for Poisson kl = E[-u(Z)] with E[w - 1] = 0.
Expanding u in p gives kl = c p^2 + O(p^3), kappa_2 = 2 c p^2 + O(p^3); then with T steps,
K = T kl, s^2 = T (kappa_2 - kl^2) and p sqrt(T) = nu, mu = 2K/s -> nu sqrt(2c).
"""

import sympy as sp

from symdp.core.special import Phi
from symdp.proof import Derivation, Step

p, mu0, nu, c, T = (sp.Symbol(n, positive=True) for n in ("p", "mu_0", "nu", "c", "T"))
w = sp.Symbol("w", positive=True)
z = sp.Symbol("z", real=True)
phi = sp.exp(-z ** 2 / 2) / sp.sqrt(2 * sp.pi)
W = sp.exp(mu0 * z - mu0 ** 2 / 2)

derivation = Derivation(
    id="noisy_sgd_clt_limit_mu",
    statement="kl ~ c p^2, kappa_2 ~ 2 c p^2 with c the published constants, and mu = 2K/s -> nu sqrt(2c)",
    citation="Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 3.3 and Sec. 5; Bu, Dong, Long, Su 2020, HDSR",
    hypotheses={p: sp.Interval.open(0, 1), mu0: sp.Interval.open(0, sp.oo), nu: sp.Interval.open(0, sp.oo),
                c: sp.Interval.open(0, sp.oo), T: sp.Interval.open(0, sp.oo), w: sp.Interval.open(0, sp.oo),
                z: sp.Reals},
    chained=False,
    steps=(
        Step(sp.Limit(p * (w - 1) * sp.log(1 + p * (w - 1)) / p ** 2, p, 0), "=", (w - 1) ** 2,
             "uniform: the kl integrand p (w - 1) u is (w - 1)^2 p^2 + O(p^3)"),
        Step(sp.Limit((sp.log(1 + p * (w - 1)) ** 2 * (2 + p * (w - 1))) / p ** 2, p, 0), "=",
             2 * (w - 1) ** 2, "uniform: the kappa_2 integrand u^2 + (1 + p(w - 1)) u^2 is 2 (w - 1)^2 p^2 + O(p^3)"),
        Step(sp.Integral((W - 1) ** 2 * phi, (z, mu0 / 2, sp.oo)), "=",
             sp.exp(mu0 ** 2) * Phi(3 * mu0 / 2) + 3 * Phi(-mu0 / 2) - 2,
             "uniform: c = int_{mu0/2}^oo (w - 1)^2 phi = e^{mu0^2} Phi(1.5 mu0) + 3 Phi(-0.5 mu0) - 2 (DRS Sec. 5)"),
        Step(sp.Limit((-sp.log(1 + p * (w - 1)) + p * (w - 1)) / p ** 2, p, 0), "=", (w - 1) ** 2 / 2,
             "Poisson: -u = -p(w - 1) + p^2 (w - 1)^2/2 + O(p^3), and E[p(w - 1)] = 0"),
        Step(sp.Integral((W - 1) * phi, (z, -sp.oo, sp.oo)), "=", 0, "Poisson: E[w - 1] = 0"),
        Step(sp.Integral((W - 1) ** 2 * phi, (z, -sp.oo, sp.oo)) / 2, "=", (sp.exp(mu0 ** 2) - 1) / 2,
             "Poisson: c = E[(w - 1)^2]/2 = (e^{mu0^2} - 1)/2, so nu sqrt(2c) = nu sqrt(e^{1/sigma^2} - 1) (Bu et al.)"),
        Step((2 * T * c * p ** 2 / sp.sqrt(T * 2 * c * p ** 2)).subs(p, nu / sp.sqrt(T)), "=",
             nu * sp.sqrt(2 * c), "CLT: mu = 2K/s with K = T c p^2, s^2 = 2 T c p^2 (kl^2 = O(p^4)), p sqrt(T) = nu"),
    ),
)
