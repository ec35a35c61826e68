"""Certified inverses f^{-1}(a): the regula-falsi bracket and the bisection fallback.

References come from an independent route: mpmath's ``ncdf`` and ``findroot`` on the
definition f_p(t) = p G_mu(t) + (1 - p)(1 - t) = a at 60 digits, and exact values where
the inverse has a closed form.
"""

import pytest

pytest.importorskip("flint")

import mpmath  # noqa: E402
import sympy as sp  # noqa: E402
from flint import arb  # noqa: E402

from symdp import EpsDelta, Gaussian  # noqa: E402
from symdp.numeric.balls import working_bits  # noqa: E402
from symdp.numeric.ball_compiler import evaluate_ball  # noqa: E402
from symdp.numeric.ball_inverse import isolate_decreasing_root  # noqa: E402
from symdp.tradeoff.base import InverseAt  # noqa: E402

R = sp.Rational
x = sp.Symbol("x")


def _contains(ball, value) -> bool:
    with working_bits(300):  # the reference is parsed at 300 bits, not Arb's default 53
        return ball.lower() <= arb(mpmath.nstr(value, 90)) <= ball.upper()


@pytest.mark.parametrize("a", [R(1, 1000), R(1, 20), R(1, 3), R(7, 10), R(99, 100)])
def test_inverse_of_gaussian_mixture_contains_60_digit_root(a):
    mu, p = 1, R(1, 5)
    fp = Gaussian(mu).mix(p)
    ball = evaluate_ball(InverseAt(fp, x), {x: a}, bits=220)
    with mpmath.workdps(90):  # a reference more accurate than the 220-bit ball
        def fp_minus_a(t):
            # G_mu(t) = Phi(Phi^{-1}(1 - t) - mu), Phi^{-1}(u) = sqrt(2) erfinv(2u - 1)
            z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * t)
            return (mpmath.mpf(p.p) / p.q * mpmath.ncdf(z - mu)
                    + (1 - mpmath.mpf(p.p) / p.q) * (1 - t) - mpmath.mpf(a.p) / a.q)
        lo, hi = mpmath.mpf("1e-40"), 1 - mpmath.mpf("1e-40")
        for _ in range(320):  # plain bisection: f_p - a falls from > 0 to < 0
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if fp_minus_a(mid) > 0 else (lo, mid)
        ref = (lo + hi) / 2
        assert abs(fp_minus_a(ref)) < mpmath.mpf(10) ** -85
    assert _contains(ball, ref), (a, ball, ref)
    # the bracket is narrow (not a wide enclosure that contains anything)
    assert ball.rad() < arb(2) ** -180


def test_inverse_of_eps_delta_matches_its_closed_form():
    # f_{eps,delta} is symmetric, f^{-1} = f; with e^eps = 2 its values at rationals are
    # rational: 1 - delta - 2a on [0, (1 - delta)/3], (1 - delta - a)/2 after
    f = EpsDelta(sp.log(2), R(1, 10))
    for a, exact in ((R(1, 10), R(7, 10)), (R(1, 2), R(1, 5)), (R(4, 5), R(1, 20)), (R(9, 10), 0)):
        ball = evaluate_ball(InverseAt(f, x), {x: a}, bits=200)
        with working_bits(300):
            exact_ball = arb(int(sp.Rational(exact).p)) / int(sp.Rational(exact).q)
            assert ball.lower() <= exact_ball <= ball.upper(), (a, ball, exact)
            assert ball.rad() < arb(2) ** -150


def test_flat_piece_falls_back_to_bisection_and_stays_correct():
    # g(t) = max(1/2 - t, 0): inf{t : g(t) <= 0} = 1/2, but g = 0 on all of [1/2, 1], so the
    # secant lands anywhere there; the certification must reject it and bisection find 1/2
    def g(t):
        d = arb(1) / 2 - t
        return d if d > 0 else (arb(0) if d < 0 else d.union(arb(0)))

    with working_bits(120):
        ball = isolate_decreasing_root(g, arb(0))
    assert ball.lower() <= arb(1) / 2 <= ball.upper()
    assert ball.rad() < arb(2) ** -100
