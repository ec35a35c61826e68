"""Review (issue #16): a REFUTED audit of --uniform-gaussian must refute a realised pair.

C_p(G_{1/sigma})^{(x)T} (Dong-Roth-Su 2022 Thm 4.2, composed) is an upper bound on the
mechanism's profile, not its exact profile: for T >= 2 it lies strictly above the profile of the
adjacent datasets x = 1 / x' = 0 (all other records 0), whose steps are the pairs
((1-p)N(0, s^2) + pN(1, s^2), N(0, s^2)) and the reverse.  A claim between the two must not be
REFUTED.  The realised delta is computed here independently: T = 2 by a 1-D integral of the
conditional Gaussian tails (30-digit mpmath), split at the kink of the integrand."""

from fractions import Fraction

import mpmath as mp

from symdp.accountant import uniform_gaussian
from symdp.cli.audit import audit


def _delta2(s, q, eps, direction):
    """delta(eps) of two steps of one direction of the pair above (x ~ first coordinate)."""
    s, q, eps = mp.mpf(s), mp.mpf(q), mp.mpf(eps)
    lq = mp.log(1 - q)

    def L(x):                               # log d((1-q)N0 + qN1)/dN0
        return mp.log(1 - q + q * mp.exp((2 * x - 1) / (2 * s * s)))

    def Linv(y):
        return s * s * mp.log((mp.exp(y) - (1 - q)) / q) + mp.mpf(1) / 2

    def below_least(y):                     # y <= log(1 - q), the least value of L (rounding-safe)
        return mp.exp(y) - (1 - q) <= 0

    if direction == "remove":               # P = mixture, Q = N0, loss L
        def g(x):
            r = eps - L(x)
            p1 = (1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, 1, s)
            if below_least(r):
                return p1 * (1 - mp.exp(r))
            c = Linv(r)
            return p1 * ((1 - q) * mp.ncdf(-c / s) + q * mp.ncdf((1 - c) / s) - mp.exp(r) * mp.ncdf(-c / s))
        kink = [Linv(eps - lq)]
    else:                                   # P = N0, Q = mixture, loss -L
        def g(x):
            r = -eps - L(x)
            if below_least(r):
                return mp.mpf(0)
            c = Linv(r)
            return mp.npdf(x, 0, s) * (mp.ncdf(c / s) - mp.exp(eps + L(x))
                                       * ((1 - q) * mp.ncdf(c / s) + q * mp.ncdf((c - 1) / s)))
        kink = [Linv(-eps - lq)] if -eps - lq > lq else []
    pts = sorted(set([-12 * s, -5 * s, mp.mpf(0), mp.mpf(1), 5 * s, 12 * s] + kink))
    return mp.quad(g, [-mp.inf] + pts + [mp.inf], maxdegree=10)


def test_uniform_audit_refutes_only_below_the_realised_pair():
    with mp.workdps(30):
        realised = max(_delta2(1, "0.1", "0.05", "remove"), _delta2(1, "0.1", "0.05", "add"))
    assert 0.0435 < realised < 0.0445        # about 0.04396
    phases = uniform_gaussian(Fraction(1), Fraction(1, 10), 2)
    E = Fraction(5, 100)
    # D above the realised delta(E) but below C_p(G_1)^{(x)2}'s (about 0.0481): not refuted
    verdict, info = audit(phases, E, Fraction(46, 1000), precision=0)
    assert Fraction(46, 1000) > Fraction(mp.nstr(realised, 20))
    assert verdict != "REFUTED", info
    # D below the realised delta(E): a true refutation, and its delta_lo is below the reference
    verdict, info = audit(phases, E, Fraction(43, 1000), precision=0)
    assert verdict == "REFUTED", info
    assert info["delta_lo"] <= Fraction(mp.nstr(realised, 20))
