r"""symdp.tradeoff.base: the generic algorithms (fixed point, convex conjugate, privacy
profile, inverse, evaluation) against hand derivations and definitions.

Piecewise-linear reference, by hand: f = 1 - 2a on [0, 1/4], (2/3)(1 - a) on [1/4, 1].
* fixed point: 1 - 2a = a gives 1/3 > 1/4 (not on the piece); (2/3)(1 - a) = a gives 2/5.
* f*(y) = sup_x (yx - f(x)) is attained at a vertex x in {0, 1/4, 1}:
  max(-1, y/4 - 1/2, y).
* delta(eps) = 1 + f*(-e^eps) = max(0, 1/2 - e^eps/4, 1 - e^eps) (Prop. 2.12).
* f^{-1}(1/3) = inf{t : f(t) <= 1/3} = 1/2.
Gaussian: G_mu fixed point Phi(-mu/2); profile Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
(Dong, Roth, Su 2022, Cor. 2.13), evaluated with mpmath erfc.
"""

import mpmath
import pytest
import sympy as sp

from symdp.core.errors import InvalidParameterError
from symdp.tradeoff import Gaussian
from symdp.tradeoff.base import Piece, TradeOff, alpha, piece, varepsilon

R = sp.Rational
KINKED = TradeOff(sp.Piecewise((1 - 2 * alpha, alpha <= R(1, 4)), (R(2, 3) * (1 - alpha), True)))
DPS = 40
TOL = mpmath.mpf(10) ** (-DPS + 5)


def _phi(z):
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


def test_piece_helpers():
    t = sp.Symbol("t")
    p = piece(0, R(1, 2), 1 - t ** 2, t)
    assert isinstance(p, Piece) and p.at(R(1, 2)) == R(3, 4)
    assert p.slope(R(1, 4)) == -R(1, 2)          # d/dt (1 - t^2) = -2t
    assert not p.is_linear and piece(0, 1, 1 - t, t).is_linear


def test_fixed_point_of_piecewise_linear():
    assert KINKED.fixed_point() == R(2, 5)


@pytest.mark.parametrize("y", [-5, -2, -1, R(-2, 3), R(-1, 2), 0, 3])
def test_conjugate_is_the_max_over_vertices(y):
    expected = max(-1, R(y) / 4 - R(1, 2), R(y))
    assert sp.simplify(KINKED.conjugate(y) - expected) == 0


@pytest.mark.parametrize("eps", [0, sp.log(R(3, 2)), sp.log(2), 1])
def test_privacy_profile_of_piecewise_linear(eps):
    e = sp.exp(eps)
    expected = sp.Max(0, R(1, 2) - e / 4, 1 - e)
    got = KINKED.privacy_profile().subs(varepsilon, eps)
    assert sp.simplify(got - expected) == 0


def test_inverse_by_definition():
    assert KINKED.inverse().evaluate(R(1, 3)) == R(1, 2)
    assert KINKED.inverse().evaluate(R(1, 2)) == R(1, 4)   # f(1/4) = 1/2, f > 1/2 before


def test_evaluate_exact_and_bad_alpha():
    assert KINKED.evaluate(R(3, 4)) == R(1, 6)
    for bad in (2, -R(1, 10), sp.oo):
        with pytest.raises(InvalidParameterError):
            KINKED.evaluate(bad)
    with pytest.raises(InvalidParameterError):
        KINKED.evaluate(sp.Symbol("x"))


@pytest.mark.parametrize("mu", [R(1, 2), 1, 3])
def test_gaussian_fixed_point_and_value(mu):
    G = Gaussian(mu)
    with mpmath.workdps(DPS):
        m = mpmath.mpf(mu.p) / mu.q if isinstance(mu, sp.Rational) else mpmath.mpf(mu)
        got = mpmath.mpf(sp.N(G.fixed_point(), DPS + 5))
        assert abs(got - _phi(-m / 2)) <= TOL
        # G_mu(a) = Phi(Phi^{-1}(1 - a) - mu) at a = 1/10, Phi^{-1} by erfinv
        a = mpmath.mpf(1) / 10
        ref = _phi(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - m)
        assert abs(mpmath.mpf(G.evaluate(R(1, 10), dps=DPS)) - ref) <= TOL


@pytest.mark.parametrize("eps", [0, R(1, 2), 2])
def test_gaussian_privacy_profile_is_corollary_2_13(eps):
    mu = 1
    got = Gaussian(mu).privacy_profile().subs(varepsilon, eps)
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps.p) / eps.q if isinstance(eps, sp.Rational) else mpmath.mpf(eps)
        ref = _phi(-e / mu + mpmath.mpf(mu) / 2) - mpmath.exp(e) * _phi(-e / mu - mpmath.mpf(mu) / 2)
        assert abs(mpmath.mpf(sp.N(got, DPS + 5)) - ref) <= TOL


def test_evaluation_node_prints_as_the_paper():
    x = sp.Symbol("x")
    assert sp.latex(Gaussian(1)(x)) == r"G_{1}\left(x\right)"
    assert Gaussian(1)(x).doit() == Gaussian(1).expr(x)
