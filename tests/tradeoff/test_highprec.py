"""``evaluate_many``: 50-digit values by ball arithmetic, against independent references.

References: G_mu(a) = Phi(Phi^{-1}(1 - a) - mu) written with mpmath's ``ncdf`` and
``erfinv`` at 80 digits; C_p(f) from its definition (the envelope's chord, written out by
hand) for one point and from the mpmath route of Eq. 14 at 80 digits for many;
exact values where f is rational at rational points.
"""

import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp import EpsDelta, Gaussian, InvalidParameterError, Laplace
from symdp.subsampling import subsample
from symdp.tradeoff.highprec import evaluate_many

R = sp.Rational
pytest.importorskip("flint")


def _gaussian_reference(mu, a):
    with mpmath.workdps(80):
        a = mpmath.mpf(a.p) / a.q
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a)   # Phi^{-1}(1 - a)
        return mpmath.ncdf(z - mu)


def _agree(value, ref, dps):
    with mpmath.workdps(dps + 20):
        return abs(value - ref) <= abs(ref) * mpmath.mpf(10) ** (1 - dps)


def test_gaussian_at_50_digits_matches_an_independent_formula():
    rng = random.Random(7)
    points = [R(rng.randrange(1, 10 ** 6), 10 ** 6) for _ in range(40)] + [R(1, 10 ** 12), R(1, 2)]
    stats = {}
    values = evaluate_many(Gaussian(R(3, 2)), points, 50, stats=stats)
    assert stats == {"arb": len(points), "mpmath": 0}
    for a, v in zip(points, values):
        assert _agree(v, _gaussian_reference(R(3, 2), a), 50), a


def test_subsampled_gaussian_matches_the_mpmath_route_and_the_definition():
    C = subsample(Gaussian(1), R(1, 5))
    rng = random.Random(11)
    points = [R(rng.randrange(1, 10 ** 4), 10 ** 4) for _ in range(25)]
    values = evaluate_many(C, points, 50)
    with mpmath.workdps(80):   # Eq. 14 through mpmath (InverseAt by mpmath root-finding)
        fn = C.mp_function()
        refs = [fn(mpmath.mpf(a.p) / a.q) for a in points]
    for a, v, ref in zip(points, values, refs):
        assert _agree(v, ref, 50), a
    # one point against Def. 4.1 by hand, not through symdp: f_p = p G_1 + (1 - p) Id is convex
    # and symmetric about the diagonal to f_p^{-1}, so the envelope of min{f_p, f_p^{-1}} is the
    # chord of slope -1 touching f_p where G_1' = -1, i.e. at x* = Phi(-1/2) (G_1(x*) = x*);
    # 1/3 lies in [x*, f_p(x*)] = [0.309, 0.615], where C(a) = x* + f_p(x*) - a.
    (v,) = evaluate_many(C, [R(1, 3)], 50)
    with mpmath.workdps(80):
        x_star, p = mpmath.ncdf(-mpmath.mpf(1) / 2), mpmath.mpf(1) / 5
        chord = x_star + (p * x_star + (1 - p) * (1 - x_star)) - mpmath.mpf(1) / 3
        assert x_star < mpmath.mpf(1) / 3 < p * x_star + (1 - p) * (1 - x_star)
    assert _agree(v, chord, 50)


def test_exact_values_and_input_types():
    f = EpsDelta(sp.log(2), R(1, 10))   # e^eps = 2: rational values at rational points
    points = [0, Fraction(1, 10), "0.5", 0.25, mpmath.mpf("0.75"), R(9, 10), 1, sp.Float(0.5)]
    exact = [R(9, 10), R(7, 10), R(1, 5), R(2, 5), R(3, 40), 0, 0, R(1, 5)]
    for v, e in zip(evaluate_many(f, points, 40), exact):
        if e == 0:
            assert v == 0
        else:
            with mpmath.workdps(60):
                assert _agree(v, mpmath.mpf(e.p) / e.q, 40), (v, e)


def test_laplace_agrees_with_the_neyman_pearson_formula_at_60_digits():
    # T(Lap(0, 1), Lap(mu, 1))(a), from the likelihood ratio test (Dong, Roth, Su, Sec. 2):
    # 1 - e^mu a for a <= e^-mu / 2, e^-mu / (4a) for a <= 1/2, e^-mu (1 - a) after
    mu = 2
    points = [R(1, 1000), R(1, 7), R(1, 2), R(5, 6)]
    for a, v in zip(points, evaluate_many(Laplace(mu), points, 60)):
        with mpmath.workdps(80):
            x, e = mpmath.mpf(a.p) / a.q, mpmath.exp(mu)
            ref = 1 - e * x if x <= 1 / (2 * e) else (1 / (4 * e * x) if x <= 0.5 else (1 - x) / e)
            assert _agree(v, ref, 60), a


@pytest.mark.parametrize("bad", [R(3, 2), -1, float("nan"), "x", None, sp.nan, sp.Symbol("a")])
def test_bad_points_raise_naming_alpha(bad):
    with pytest.raises(InvalidParameterError, match="alpha"):
        evaluate_many(Gaussian(1), [R(1, 2), bad])


@pytest.mark.parametrize("points", [R(1, 2), "0.5", 0.5])
def test_points_must_be_a_sequence(points):
    with pytest.raises(InvalidParameterError, match="points must be a sequence"):
        evaluate_many(Gaussian(1), points)


def test_symbolic_parameters_and_bad_dps_are_rejected():
    with pytest.raises(InvalidParameterError, match="mu"):
        evaluate_many(Gaussian(sp.Symbol("mu", positive=True)), [R(1, 2)])
    with pytest.raises(InvalidParameterError, match="dps"):
        evaluate_many(Gaussian(1), [R(1, 2)], dps=0)


def test_docstring_example():
    import doctest

    import symdp.tradeoff.highprec as module

    assert doctest.testmod(module).failed == 0
