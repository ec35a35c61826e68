r"""symdp.subsampling.neyman_pearson against hand derivations evaluated with mpmath erfc.

P = N(0,1), Q = p N(mu,1) + (1-p) N(0,1).  By hand:

* T(P,Q)(a): the threshold is t = Phi^{-1}(1-a), so T(P,Q)(a) = Q(X <= t)
  = p Phi(Phi^{-1}(1-a) - mu) + (1-p)(1-a).
* p = 1: T(Q,P) = T(P,Q) = G_mu (Gaussian shift, symmetric); p = 0: T = 1 - a.
* H_gamma(Q||P), gamma > 1-p: the likelihood ratio p e^{mu x - mu^2/2} + 1 - p exceeds gamma
  iff x > x0 = (log((gamma-1+p)/p) + mu^2/2)/mu, so H = p Phi(mu-x0) + (1-p-gamma) Phi(-x0).
* H_gamma(P||Q), 1/gamma > 1-p: P/Q > gamma iff x < x1 with the same formula at 1/gamma,
  so H = Phi(x1) - gamma (p Phi(x1-mu) + (1-p) Phi(x1)).
Phi here is erfc(-z/sqrt 2)/2 and Phi^{-1}(a) is sqrt 2 erfinv(2a - 1) (not ncdf, not symdp).
"""

import mpmath
import pytest

from symdp.subsampling.neyman_pearson import hockey_stick, tradeoff_p_vs_q, tradeoff_q_vs_p

DPS = 30
TOL = mpmath.mpf(10) ** (-DPS + 6)


def Phi(z):
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


def PhiInv(a):
    return mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1)


def _mpf(s):
    return mpmath.mpf(s)


@pytest.mark.parametrize("mu, p", [("1", "0.2"), ("2.5", "0.5"), ("0.5", "0.9")])
@pytest.mark.parametrize("a", ["0.01", "0.3", "0.5", "0.85"])
def test_tradeoff_p_vs_q_matches_the_threshold_derivation(mu, p, a):
    with mpmath.workdps(DPS):
        mu, p, a = _mpf(mu), _mpf(p), _mpf(a)
        expected = p * Phi(PhiInv(1 - a) - mu) + (1 - p) * (1 - a)
        assert abs(tradeoff_p_vs_q(mu, p, a) - expected) <= TOL


@pytest.mark.parametrize("a", ["0.05", "0.4", "0.7"])
def test_full_sampling_is_gaussian_and_no_sampling_is_identity(a):
    with mpmath.workdps(DPS):
        a, mu = _mpf(a), _mpf("1.5")
        g_mu = Phi(PhiInv(1 - a) - mu)
        assert abs(tradeoff_p_vs_q(mu, 1, a) - g_mu) <= TOL
        assert abs(tradeoff_q_vs_p(mu, 1, a) - g_mu) <= TOL
        assert abs(tradeoff_q_vs_p(mu, 0, a) - (1 - a)) <= TOL


def test_tradeoff_q_vs_p_solves_its_own_threshold():
    # T(Q,P)(a) = P(X >= t) with Q(X < t) = a: check via the threshold t = Phi^{-1}(1 - T)
    with mpmath.workdps(DPS):
        mu, p, a = _mpf(2), _mpf("0.3"), _mpf("0.2")
        beta = tradeoff_q_vs_p(mu, p, a)
        t = PhiInv(1 - beta)
        assert abs(p * Phi(t - mu) + (1 - p) * Phi(t) - a) <= TOL


def test_tradeoff_endpoints():
    with mpmath.workdps(DPS):
        for f in (tradeoff_p_vs_q, tradeoff_q_vs_p):
            assert f(1, "0.5", 0) == 1 and f(1, "0.5", 1) == 0


@pytest.mark.parametrize("mu, p, gamma", [("1", "0.2", "1"), ("1", "0.2", "1.6"),
                                          ("2", "0.5", "3"), ("1", "0.5", "0.7")])
def test_hockey_stick_q_over_p(mu, p, gamma):
    with mpmath.workdps(DPS):
        mu, p, gamma = _mpf(mu), _mpf(p), _mpf(gamma)
        x0 = (mpmath.log((gamma - 1 + p) / p) + mu ** 2 / 2) / mu
        expected = p * Phi(mu - x0) + (1 - p - gamma) * Phi(-x0)
        assert abs(hockey_stick(mu, p, gamma) - expected) <= TOL


@pytest.mark.parametrize("mu, p, gamma", [("1", "0.2", "1"), ("2", "0.5", "1.5")])
def test_hockey_stick_p_over_q(mu, p, gamma):
    with mpmath.workdps(DPS):
        mu, p, gamma = _mpf(mu), _mpf(p), _mpf(gamma)
        x1 = (mpmath.log((1 / gamma - 1 + p) / p) + mu ** 2 / 2) / mu
        expected = Phi(x1) - gamma * (p * Phi(x1 - mu) + (1 - p) * Phi(x1))
        assert abs(hockey_stick(mu, p, gamma, reverse=True) - expected) <= TOL


def test_hockey_stick_below_the_ratio_floor_is_one_minus_gamma():
    # Q/P > 1 - p >= gamma everywhere: E = whole line, H = 1 - gamma
    with mpmath.workdps(DPS):
        assert abs(hockey_stick(1, "0.3", "0.5") - _mpf("0.5")) <= TOL
