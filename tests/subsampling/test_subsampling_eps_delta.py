"""C_p(f_{eps,delta}): Cor. 4.3 (derived and printed), its profile, the shaded triangle."""

import mpmath
import pytest
import sympy as sp

from symdp import subsample
from symdp.subsampling.eps_delta import (cor_4_3, cor_4_3_line, cor_4_3_line_printed, cor_4_3_printed,
                                         lemma_4_4, shaded_triangle)
from symdp.tradeoff import EpsDelta

R = sp.Rational
PARAMS = [(3, R(1, 10), R(1, 5)), (R(1, 2), R(1, 3), R(7, 10)), (1, R(1, 2), R(1, 2)), (2, 0, R(1, 3)),
          (0, R(1, 10), R(1, 2)), (R(3, 2), R(1, 20), R(1, 20))]
ALPHAS = [R(k, 40) for k in range(41)]
x = sp.Symbol("x", real=True)


@pytest.mark.parametrize("eps, delta, p", PARAMS)
def test_derived_cor_4_3_equals_the_eq14_object_at_50_digits(eps, delta, p):
    C = subsample(EpsDelta(eps, delta), p)
    fn = sp.lambdify(x, cor_4_3(eps, delta, p, x), modules="mpmath")
    with mpmath.workdps(50):
        for a in ALPHAS:
            assert abs(C.evaluate(a, dps=50) - fn(mpmath.mpf(a.p) / a.q)) < mpmath.mpf(10) ** -45


def test_printed_cor_4_3_is_strictly_below_on_the_chord_for_positive_delta():
    eps, delta, p = 3, R(1, 10), R(1, 5)
    C = subsample(EpsDelta(eps, delta), p)
    with mpmath.workdps(40):
        a = R(1, 2)
        gap = C.evaluate(a, dps=40) - mpmath.mpf(sp.N(cor_4_3_printed(eps, delta, p, a), 45))
        expected = sp.N(p * delta * (sp.exp(eps) - 1) / (sp.exp(eps) + 1), 45)  # the lines' gap
        assert abs(gap - mpmath.mpf(expected)) < mpmath.mpf(10) ** -35
    # and the two lines agree when delta = 0
    assert sp.simplify(cor_4_3_line(2, 0, p) - cor_4_3_line_printed(2, 0, p)) == 0


def _profile_from_vertices(eps, delta, p, e):
    """delta(e) = 1 - min over the vertices of e^e x + C(x): C is piecewise linear and convex."""
    with mpmath.workdps(60):
        E = mpmath.exp(mpmath.mpf(sp.N(eps, 70)))
        d, q = mpmath.mpf(sp.N(delta, 70)), mpmath.mpf(sp.N(p, 70))
        xs = (1 - d) / (1 + E)
        fxs = q * xs + (1 - q) * (1 - xs)
        vertices = [(0, 1 - q * d), (xs, fxs), (fxs, xs), (1 - q * d, 0), (1, 0)]
        s = mpmath.exp(mpmath.mpf(sp.N(e, 70)))
        return 1 - min(s * vx + vy for vx, vy in vertices)


@pytest.mark.parametrize("eps, delta, p", PARAMS[:4])
def test_profile_equals_an_independent_sup_over_the_vertices(eps, delta, p):
    C = subsample(EpsDelta(eps, delta), p)
    e = sp.Symbol("e", real=True)
    profile = C.privacy_profile(e)
    eps1, _ = lemma_4_4(eps, delta, p)
    for value in (0, R(1, 10), R(1, 2), 1, 2, 5, eps1):
        with mpmath.workdps(50):  # build the mpf inside the block: it keeps the precision it is made at
            got = mpmath.mpf(sp.N(profile.subs(e, value), 55))
            assert abs(got - _profile_from_vertices(eps, delta, p, value)) < mpmath.mpf(10) ** -40


def test_profile_at_eps_prime_is_delta_prime():
    eps, delta, p = 3, R(1, 10), R(1, 5)
    eps1, delta1 = lemma_4_4(eps, delta, p)
    e = sp.Symbol("e", real=True)
    assert abs(sp.N(subsample(EpsDelta(eps, delta), p).privacy_profile(e).subs(e, eps1) - delta1, 40)) < 1e-35


@pytest.mark.parametrize("eps, delta, p", PARAMS)
def test_triangle_area_closed_form_equals_the_shoelace_formula(eps, delta, p):
    T = shaded_triangle(eps, delta, p)
    assert abs(sp.N(T.area - T.area_from_vertices(), 50)) < 1e-45
    strict = sp.sympify(eps) > 0 and 0 < p < 1
    assert (sp.N(T.area, 30) > 0) == bool(strict)


def test_lemma_4_4_values():
    eps1, delta1 = lemma_4_4(3, "0.1", "0.2")
    assert delta1 == R(1, 50)
    assert abs(sp.N(eps1, 40) - sp.log(sp.Rational(4, 5) + sp.exp(3) / 5).evalf(40)) < 1e-35
