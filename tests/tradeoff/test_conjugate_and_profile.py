"""Conjugates against a numeric supremum at 50 digits; Cor. 2.13 out of the machinery."""

import mpmath
import pytest
import sympy as sp

from symdp import Phi
from symdp.tradeoff import EpsDelta, Gaussian, Identity, Laplace, Zero


def numeric_conjugate(f, y, dps=50):
    """sup_{x in [0,1]} (y x - f(x)) by golden-section search (the objective is concave)."""
    with mpmath.workdps(dps + 20):
        y = mpmath.mpf(y)
        g = lambda x: y * x - f.evaluate(sp.Float(x, dps + 20), dps=dps + 15)
        a, b = mpmath.mpf(0), mpmath.mpf(1)
        r = (mpmath.sqrt(5) - 1) / 2
        c, d = b - r * (b - a), a + r * (b - a)
        gc, gd = g(c), g(d)
        for _ in range(260):
            if gc >= gd:
                b, d, gd = d, c, gc
                c = b - r * (b - a)
                gc = g(c)
            else:
                a, c, gc = c, d, gd
                d = a + r * (b - a)
                gd = g(d)
        return max(gc, gd, g(mpmath.mpf(0)), g(mpmath.mpf(1)))


@pytest.mark.parametrize("f", [EpsDelta(1, "1/10"), Gaussian(1), Laplace(1), Identity(), Zero()])
@pytest.mark.parametrize("y", ["-7", "-2", "-1", "-1/3"])
def test_conjugate_matches_numeric_supremum(f, y):
    ys = sp.Symbol("y", real=True)
    closed = f.conjugate(ys)
    with mpmath.workdps(50):
        got = sp.N(closed.subs(ys, sp.Rational(y)), 50)
        expected = numeric_conjugate(f, sp.Rational(y))
        assert mpmath.almosteq(mpmath.mpf(got._to_mpmath(200)), expected,
                               abs_eps=mpmath.mpf(10) ** -20), (f, y, got, expected)


def test_gaussian_profile_is_cor_2_13():
    mu = sp.Symbol("mu", positive=True)
    eps = sp.Symbol("varepsilon", nonnegative=True)
    derived = Gaussian(mu).privacy_profile(eps)
    paper = Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2)
    assert sp.simplify(derived - paper) == 0


@pytest.mark.parametrize("mu, eps", [("1", "0"), ("1", "1"), ("1/2", "2"), ("3", "1/10")])
def test_gaussian_profile_equals_hockey_stick_by_quadrature(mu, eps):
    # delta(eps) = sup_S P(S) - e^eps Q(S) = int (p - e^eps q)_+ for P = N(mu,1), Q = N(0,1)
    f = Gaussian(mu)
    value = f.privacy_profile(sp.Rational(eps))
    with mpmath.workdps(40):
        m, e = mpmath.mpf(sp.Rational(mu)), mpmath.mpf(sp.Rational(eps))
        p = lambda x: mpmath.npdf(x, m, 1)
        q = lambda x: mpmath.npdf(x, 0, 1)
        cut = e / m + m / 2  # p > e^eps q exactly for x > cut
        expected = mpmath.quad(lambda x: p(x) - mpmath.exp(e) * q(x), [cut, cut + 10, mpmath.inf])
        assert mpmath.almosteq(mpmath.mpf(sp.N(value, 40)._to_mpmath(150)), expected,
                               abs_eps=mpmath.mpf(10) ** -30)


def test_eps_delta_profile_is_delta_beyond_eps():
    value = EpsDelta(1, sp.Rational(1, 10)).privacy_profile(sp.Integer(2))
    assert value == sp.Rational(1, 10)


def test_laplace_profile_closed_form():
    # Laplace mechanism: delta(eps) = 1 - e^{(eps - mu)/2} below mu (independent: hockey stick of
    # Lap(mu,1) vs Lap(0,1) by quadrature)
    mu, eps = 2, sp.Rational(1, 2)
    value = Laplace(mu).privacy_profile(eps)
    with mpmath.workdps(40):
        p = lambda x: mpmath.exp(-abs(x - mu)) / 2
        q = lambda x: mpmath.exp(-abs(x)) / 2
        e = mpmath.exp(mpmath.mpf(1) / 2)
        # p > e q iff x > c, with c in (0, mu): x - mu + ... solve (x - mu) vs -x: c = (mu + 1/2)/2
        c = (mpmath.mpf(mu) + mpmath.mpf(1) / 2) / 2
        expected = mpmath.quad(lambda x: p(x) - e * q(x), [c, mu, mpmath.inf])
        assert mpmath.almosteq(mpmath.mpf(sp.N(value, 40)._to_mpmath(150)), expected,
                               abs_eps=mpmath.mpf(10) ** -30)
