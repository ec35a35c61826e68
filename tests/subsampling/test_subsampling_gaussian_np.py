"""C_p(G_mu) against Neyman-Pearson on the actual mixtures P = N(0,1), Q = p N(mu,1) + (1-p) N(0,1)."""

import mpmath
import pytest
import sympy as sp

from symdp import subsample
from symdp.subsampling.neyman_pearson import hockey_stick, tradeoff_p_vs_q, tradeoff_q_vs_p
from symdp.tradeoff import Gaussian

R = sp.Rational
DPS = 40
TOL = mpmath.mpf(10) ** (-DPS + 8)


@pytest.mark.parametrize("mu, p", [(1, R(1, 5)), (2, R(1, 2))])
def test_cp_gaussian_is_the_symmetrised_envelope_of_the_neyman_pearson_curves(mu, p):
    C = subsample(Gaussian(mu), p)
    xs, fxs = (sp.N(v, DPS + 10) for v in C.chord())
    with mpmath.workdps(DPS):
        for a in (R(1, 100), R(1, 10), R(1, 4), R(1, 2), R(3, 4), R(19, 20)):
            am = mpmath.mpf(a.p) / a.q
            pq, qp = tradeoff_p_vs_q(mu, mpmath.mpf(p.p) / p.q, am), tradeoff_q_vs_p(mu, mpmath.mpf(p.p) / p.q, am)
            c = C.evaluate(a, dps=DPS)
            assert c <= min(pq, qp) + TOL                       # a minorant of min{T(P,Q), T(Q,P)}
            if am <= xs:
                assert abs(c - pq) <= TOL                       # = T(P, Q) = f_p on [0, x*]
            elif am >= fxs:
                assert abs(c - qp) <= TOL                       # = T(Q, P) = f_p^{-1} beyond the chord
            else:                                               # the chord between NP points
                chord = mpmath.mpf(xs) + tradeoff_p_vs_q(mu, mpmath.mpf(p.p) / p.q, mpmath.mpf(xs)) - am
                assert abs(c - chord) <= TOL


def test_profile_of_cp_gaussian_is_the_larger_hockey_stick_divergence():
    mu, p = 1, R(1, 5)
    C = subsample(Gaussian(mu), p)
    e = sp.Symbol("e", real=True)
    profile = C.privacy_profile(e)
    for value in (0, R(1, 2), 2):
        with mpmath.workdps(DPS):
            g = mpmath.exp(mpmath.mpf(value.p if hasattr(value, "p") else value) / (value.q if hasattr(value, "q") else 1))
            q = mpmath.mpf(1) / 5
            reference = max(hockey_stick(mu, q, g), hockey_stick(mu, q, g, reverse=True))
            got = mpmath.mpf(sp.N(profile.subs(e, value), DPS + 5))
            assert abs(got - reference) <= TOL, (value, got, reference)
