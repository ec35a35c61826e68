"""symdp.tradeoff.operators: f_p, f^{-1}, min{f, g} and the convex envelope against formulas
written with mpmath (Dong, Roth, Su 2022, Eq. 4, Def. 4.1), not through symdp.

(``dominates``/``compare`` are being rewritten by the sound-engine work and are tested there.)
"""

import mpmath
import pytest
import sympy as sp

from symdp.tradeoff import EpsDelta, Gaussian, Identity
from symdp.tradeoff.operators import ConvexEnvelope, Inverse, Mixture, PointwiseMin

R = sp.Rational
DPS = 40


def G(mu, a):
    """G_mu(a) = Phi(Phi^{-1}(1 - a) - mu) (Def. 2.7), Phi^{-1}(y) = sqrt(2) erfinv(2y - 1)."""
    return mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - mu)


def f_p(mu, p, a):
    return p * G(mu, a) + (1 - p) * (1 - a)


def _value(f, a):
    return f.evaluate(a, dps=DPS)


def _close(got, expected, digits=30):
    assert abs(got - expected) <= mpmath.mpf(10) ** -digits, (got, expected)


@pytest.mark.parametrize("a", [R(1, 100), R(3, 10), R(1, 2), R(9, 10)])
def test_mixture_is_p_f_plus_one_minus_p_identity(a):
    with mpmath.workdps(DPS + 10):
        _close(_value(Mixture(Gaussian(1), R(1, 3)), a), f_p(1, mpmath.mpf(1) / 3, mpmath.mpf(a)))


def test_mixture_at_the_ends_is_exactly_f_or_the_identity():
    f = Gaussian(2)
    assert Mixture(f, 1) == f and Mixture(f, 0) == Identity()
    assert sp.latex(Mixture(f, R(1, 2))) == r"\left(G_{2}\right)_{\frac{1}{2}}"


@pytest.mark.parametrize("a", [R(1, 10), R(3, 10), R(7, 10)])
def test_inverse_solves_f_of_t_equal_to_a(a):
    # Eq. 4: f^{-1}(a) = inf{t : f(t) <= a}; f_p of G_1 (p = 1/2) decreases strictly from 1,
    # so f^{-1}(a) is the root of f_p(t) = a, found here by mpmath's bisection-type solver
    with mpmath.workdps(DPS + 10):
        target = mpmath.mpf(a)
        root = mpmath.findroot(lambda t: f_p(1, mpmath.mpf(1) / 2, t) - target,
                               (mpmath.mpf(10) ** -30, 1 - mpmath.mpf(10) ** -30), solver="anderson")
        _close(_value(Inverse(Mixture(Gaussian(1), R(1, 2))), a), root, 25)


def test_inverse_of_inverse_and_of_a_symmetric_function():
    f = Mixture(Gaussian(1), R(1, 2))
    assert Inverse(Inverse(f)) == f
    g = EpsDelta(1, R(1, 10))     # symmetric: its inverse takes the same values
    with mpmath.workdps(DPS):
        for a in (R(1, 20), R(1, 4), R(3, 5)):
            _close(_value(Inverse(g), a), _value(g, a))


@pytest.mark.parametrize("a", [R(1, 20), R(1, 4), R(1, 2), R(4, 5)])
def test_pointwise_min(a):
    # f_{1,0}(a) = max(0, 1 - e a, e^{-1}(1 - a)) (Eq. 5) against G_1 written with mpmath
    with mpmath.workdps(DPS + 10):
        x = mpmath.mpf(a)
        eps_delta = max(0, 1 - mpmath.e * x, (1 - x) / mpmath.e)
        _close(_value(PointwiseMin(EpsDelta(1, 0), Gaussian(1)), a), min(eps_delta, G(1, x)))


def test_convex_envelope_of_min_fp_fp_inverse_is_the_chord_between_the_tangent_points():
    # Def. 4.1 by hand: f_p and f_p^{-1} are mirror images in the diagonal; the envelope of
    # their minimum follows f_p up to x* = Phi(-mu/2) (where G_mu' = -1), then the chord of
    # slope -1 to (f_p(x*), x*), then f_p^{-1}.
    p, mu = R(1, 5), 1
    C = ConvexEnvelope(PointwiseMin(Mixture(Gaussian(mu), p), Inverse(Mixture(Gaussian(mu), p))))
    with mpmath.workdps(DPS + 10):
        pm = mpmath.mpf(p)
        x_star = mpmath.ncdf(-mpmath.mpf(mu) / 2)
        y_star = f_p(mu, pm, x_star)
        for a in (R(1, 10), R(3, 10)):                  # before x* = 0.3085...
            _close(_value(C, a), f_p(mu, pm, mpmath.mpf(a)), 20)
        for a in (R(1, 3), R(1, 2), R(3, 5)):           # on the chord [x*, f_p(x*)]
            _close(_value(C, a), x_star + y_star - mpmath.mpf(a), 20)
    assert sp.latex(C).endswith(r"\right)^{**}")
