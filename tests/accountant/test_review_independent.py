"""Review (issue #16): brackets against references computed here by routes the accountant does
not use.

* sigma = 0.5, q = 1e-4, T = 1000 (a range corner, delta near 1e-12): the test "some
  coordinate exceeds c" gives the rigorous lower bound P(max x_i >= c) - e^eps Q(max x_i >= c)
  on delta_remove(eps) (closed form in Phi, 50 digits), which the certified upper end must not
  undercut.  (dp_accounting's connect-the-dots at h = 1e-4 returns eps(1e-12) = 5.740 here,
  *below* the eps = 5.7672 this test proves; symdp's bracket is [5.76874, 5.76884].)
* C_p(G_1)^{(x)2}, p = 0.1: delta(eps) = E_{L1 ~ P}[H(e^{eps - L1})] over the loss law of
  the C_p pair (remove part for L > 0, add part for L < 0, the atom at 0 of the slope -1
  segment), a 1-D mpmath quadrature -- not a discretised convolution."""

from fractions import Fraction

import mpmath as mp

from symdp.accountant import certified_delta, poisson_gaussian, uniform_gaussian


def _max_test_delta(sigma, q, T, eps):
    s, q, e = mp.mpf(sigma), mp.mpf(q), mp.mpf(eps)

    def g(c):
        pt = (1 - q) * mp.ncdf(-c / s) + q * mp.ncdf((1 - c) / s)
        return -mp.expm1(T * mp.log1p(-pt)) + mp.exp(e) * mp.expm1(T * mp.log(mp.ncdf(c / s)))
    c0 = max((g(mp.mpf(c) / 20), mp.mpf(c) / 20) for c in range(20, 120))[1]
    return max(g(c0 + mp.mpf(k) / 2000) for k in range(-50, 51))


def test_corner_upper_end_is_not_below_the_max_test():
    with mp.workdps(50):
        ref = _max_test_delta("0.5", "0.0001", 1000, "5.7")
    assert ref > 1e-12                       # the test is informative here (about 1.9e-12)
    b = certified_delta(poisson_gaussian(Fraction(1, 2), Fraction(1, 10000), 1000), Fraction(57, 10),
                        precision=0)
    assert b.hi >= Fraction(mp.nstr(ref, 30))
    assert b.lo <= b.hi < 2 * Fraction(mp.nstr(ref, 30))    # and the bracket is near it


def _cp_two_steps(eps, sigma="1", q="0.1"):
    s, q, eps = mp.mpf(sigma), mp.mpf(q), mp.mpf(eps)
    L = lambda x: mp.log(1 - q + q * mp.exp((2 * x - 1) / (2 * s * s)))          # noqa: E731
    Linv = lambda y: s * s * mp.log((mp.exp(y) - (1 - q)) / q) + mp.mpf(1) / 2     # noqa: E731

    def H(u):          # one step's profile at alpha = e^u: remove pair for u >= 0, add pair below
        if u >= 0:
            x = Linv(u)
            return (1 - q) * mp.ncdf(-x / s) + q * mp.ncdf((1 - x) / s) - mp.exp(u) * mp.ncdf(-x / s)
        if mp.exp(-u) - (1 - q) <= 0:
            return mp.mpf(0)
        x = Linv(-u)
        return mp.ncdf(x / s) - mp.exp(u) * ((1 - q) * mp.ncdf(x / s) + q * mp.ncdf((x - 1) / s))

    x0 = mp.mpf(1) / 2                                        # L(x) > 0 iff x > 1/2
    mix = lambda x: (1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, 1, s)               # noqa: E731
    atom = 1 - ((1 - q) * mp.ncdf(-x0 / s) + q * mp.ncdf((1 - x0) / s)) - mp.ncdf(-x0 / s)
    pts = sorted({x0, Linv(eps) if eps > 0 else x0, x0 + 1, x0 + 4, x0 + 10}) + [mp.inf]
    pos = mp.quad(lambda x: mix(x) * H(eps - L(x)), pts)
    neg = mp.quad(lambda x: mp.npdf(x, 0, s) * H(eps + L(x)), pts)
    return pos + atom * H(eps) + neg


def test_uniform_two_steps_by_the_loss_law():
    phases = uniform_gaussian(Fraction(1), Fraction(1, 10), 2)
    for eps in ("0", "0.05", "0.3"):
        with mp.workdps(25):
            ref = _cp_two_steps(eps)
        b = certified_delta(phases, Fraction(eps), precision=0)
        assert b.lo <= Fraction(mp.nstr(ref, 20)) <= b.hi, (eps, ref, b.lo, b.hi)
