"""Review (issue #15): the CLT functionals and the Berry-Esseen numbers from an independent route.

DRS 2022 (arXiv 1905.02383v3), Sec. 3.3 defines kl(f) = -int_0^1 log|f'|, kappa_2 = int log^2|f'|,
kappa_3 = int |log|f'||^3, kappa_3-bar = int |log|f'| + kl|^3, mu = 2K/s with
s^2 = sum(kappa_2 - kl^2) and gamma = 0.56 sum kappa_3-bar / s^3.  Here every functional is
integrated over alpha in [0, 1] from the trade-off function itself (its derivative taken by
finite differences or by the ratio of normal densities), not from the privacy-loss form the
code uses."""

import json

import mpmath as mp
import sympy as sp

from symdp.composition.clt import berry_esseen, functionals
from symdp.tradeoff import EpsDelta, Gaussian


def _moments(logderiv, pieces):
    I = lambda h: mp.quad(lambda a: h(logderiv(a)), pieces)   # noqa: E731
    kl = -I(lambda v: v)
    return kl, I(lambda v: v * v), I(lambda v: abs(v) ** 3), I(lambda v: abs(v + kl) ** 3)


def test_eps0_functionals_by_integrating_the_tradeoff_derivative():
    with mp.workdps(20):
        eps = mp.mpf("0.7")
        E = mp.exp(eps)
        f = lambda a: max(0, 1 - E * a, (1 - a) / E)                            # noqa: E731
        h = mp.mpf("1e-9")
        dlog = lambda a: mp.log(abs((f(a + h) - f(a - h)) / (2 * h)))           # noqa: E731
        kink = 1 / (1 + E)
        got = _moments(dlog, [mp.mpf("1e-15"), kink - 2 * h, kink + 2 * h, 1 - mp.mpf("1e-15")])
        F = functionals(EpsDelta(sp.Rational(7, 10), 0))
        for g, w in zip(got, (F.kl, F.kappa2, F.kappa3, F.kappa3_bar)):
            assert abs(g - mp.mpf(sp.N(w, 25))) < 1e-7


def test_gaussian_functionals_by_integrating_over_alpha():
    with mp.workdps(20):
        mu = mp.mpf("1.3")

        def logderiv(a):            # log|G_mu'(a)| = log phi(z - mu)/phi(z), z = Phi^{-1}(1 - a)
            z = -mp.sqrt(2) * mp.erfinv(2 * a - 1)
            return mp.log(mp.npdf(z - mu) / mp.npdf(z))

        G = lambda a: mp.ncdf(-mp.sqrt(2) * mp.erfinv(2 * a - 1) - mu)          # noqa: E731
        assert abs(mp.log(-mp.diff(G, mp.mpf("0.3"))) - logderiv(mp.mpf("0.3"))) < 1e-12
        got = _moments(logderiv, [mp.mpf("1e-12"), mp.mpf("0.001"), mp.mpf("0.5"), mp.mpf("0.999"),
                                  1 - mp.mpf("1e-12")])
        F = functionals(Gaussian(sp.Rational(13, 10)))
        for g, w in zip(got, (F.kl, F.kappa2, F.kappa3, F.kappa3_bar)):
            assert abs(g - mp.mpf(sp.N(w, 25))) < 1e-8


def test_berry_esseen_mu_and_gamma_of_eps0_power():
    with mp.workdps(30):
        n, e = 100, mp.mpf("0.1")
        E = mp.exp(e)
        kl = e * (E - 1) / (E + 1)                     # -int log|f'|: +e on 1/(1+E), -e on E/(1+E)
        s = mp.sqrt(n * (e ** 2 - kl ** 2))
        k3b = (abs(e + kl) ** 3 + E * abs(kl - e) ** 3) / (1 + E)
        be = berry_esseen([EpsDelta(sp.Rational(1, 10), 0)] * n)
        assert abs(mp.mpf(sp.N(be.mu, 30)) - 2 * n * kl / s) < 1e-25
        assert abs(mp.mpf(sp.N(be.gamma, 30)) - mp.mpf("0.56") * n * k3b / s ** 3) < 1e-25


def test_poisson_gamma_is_not_reported_as_a_bound(capsys):
    from symdp.cli.main import main

    code = main(["compose", "--subsampled-gaussian", "--sigma", "2", "--p", "0.05", "--steps", "400",
                 "--clt", "--poisson", "--json"])
    assert code == 0
    r = json.loads(capsys.readouterr().out)["clt"]
    assert r["berry_esseen_valid"] is False     # T(N0, (1-p)N0 + pN1) is not symmetric
