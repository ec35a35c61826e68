"""The numpy float path (symdp.tradeoff.vectorized) against the exact mpmath route.

Expected values come from the exact objects (EpsDelta, Gaussian, Subsampled -- Eq. 14 built
from the pieces of f_p) evaluated at 30 digits at the *same* points: every float sample is
converted to the Rational it is exactly, so both routes see one point.
"""

import random

import mpmath
import numpy as np
import pytest
import sympy as sp

from symdp import EpsDelta, Gaussian, InvalidParameterError, Laplace
from symdp.subsampling import subsample
from symdp.tradeoff import vectorized as V
from symdp.tradeoff.operators import ConvexEnvelope, PointwiseMin

TOL = 1e-12


def _points(kinks=(), n=120, seed=7):
    rng = random.Random(seed)
    xs = [0.0, 1.0, 1e-12, 0.5, 1 - 2 ** -40] + [rng.random() for _ in range(n)]
    for k in kinks:  # the kinks and their float neighbours
        k = float(k)
        xs += [k, np.nextafter(k, 0.0), np.nextafter(k, 1.0)]
    return np.array(sorted(x for x in xs if 0.0 <= x <= 1.0))


def _exact(f, xs, dps=30):
    return np.array([float(f.evaluate(sp.Rational(float(x)), dps=dps)) for x in xs])


@pytest.mark.parametrize("eps, delta", [("0", "0"), ("1", "0"), ("3", "1/10"), ("1/2", "1/2"),
                                        ("7", "1/1000")])
def test_eps_delta_agrees_with_exact_route(eps, delta):
    f = EpsDelta(eps, delta)
    xs = _points([f.kink, 1 - f.delta])
    fast = V.eps_delta(xs, float(sp.Rational(eps)), float(sp.Rational(delta)))
    assert np.max(np.abs(fast - _exact(f, xs))) <= TOL


@pytest.mark.parametrize("eps, delta, p", [("3", "1/10", "1/5"), ("1", "0", "1/2"),
                                           ("1/2", "1/100", "9/10"), ("5", "1/1000", "1/100"),
                                           ("2", "1/4", "1")])
def test_subsampled_eps_delta_agrees_with_eq_14_from_the_pieces(eps, delta, p):
    C = subsample(EpsDelta(eps, delta), p)
    kinks = [q.hi for q in C.pieces()] if hasattr(C, "pieces") else []
    xs = _points(kinks)
    fast = V.subsampled_eps_delta(xs, *(float(sp.Rational(v)) for v in (eps, delta, p)))
    assert np.max(np.abs(fast - _exact(C, xs))) <= TOL


def test_subsampled_eps_delta_is_not_the_printed_line():
    # the seed's printed chord is lower by p delta (e^eps - 1)/(e^eps + 1) on the chord
    eps, delta, p = 3.0, 0.1, 0.2
    x = np.array([0.5])
    printed = max(float(V.eps_delta(x, np.log(1 - p + p * np.exp(eps)), p * delta)[0]),
                  1 - p * delta - p * (np.exp(eps) - 1) / (np.exp(eps) + 1) - 0.5)
    gap = float(V.subsampled_eps_delta(x, eps, delta, p)[0]) - printed
    assert gap == pytest.approx(p * delta * (np.exp(eps) - 1) / (np.exp(eps) + 1), abs=1e-15)


@pytest.mark.parametrize("mu", ["0", "1/2", "1", "3"])
def test_gaussian_agrees_with_exact_route(mu):
    f = Gaussian(mu)
    xs = _points(n=60)
    assert np.max(np.abs(V.gaussian(xs, float(sp.Rational(mu))) - _exact(f, xs))) <= TOL


def test_gaussian_keeps_digits_at_small_alpha():
    # 1 - alpha would round alpha = 1e-20 away; Phi^-1(1 - alpha) = -Phi^-1(alpha) keeps it
    with mpmath.workdps(40):
        exact = float(Gaussian(1).evaluate(sp.Rational(1, 10 ** 20), dps=30))
    assert abs(float(V.gaussian(1e-20, 1.0)) - exact) <= 1e-15 * exact


@pytest.mark.parametrize("f", [EpsDelta(3, "1/10"), Gaussian(1), Laplace(1),
                               subsample(EpsDelta(3, "1/10"), "1/5")],
                         ids=["eps_delta", "gaussian", "laplace", "C_p(eps_delta)"])
def test_vectorize_from_the_pieces_agrees_with_exact_route(f):
    xs = _points(n=60)
    assert np.max(np.abs(V.vectorize(f)(xs) - _exact(f, xs))) <= TOL


def test_vectorize_inverts_implicit_pieces_by_bisection():
    # C_p(G_mu): the right piece is f_p^{-1}, which has no closed form (InverseAt)
    C = subsample(Gaussian(1), "1/5")
    xs = _points(n=25)
    assert np.max(np.abs(V.vectorize(C)(xs) - _exact(C, xs, dps=20))) <= TOL


def test_hand_written_and_generic_routes_agree_on_a_large_grid():
    xs = np.linspace(0, 1, 20001)
    C = subsample(EpsDelta(3, "1/10"), "1/5")
    assert np.max(np.abs(V.vectorize(C)(xs) - V.subsampled_eps_delta(xs, 3.0, 0.1, 0.2))) <= 1e-15
    assert np.max(np.abs(V.vectorize(Gaussian(2))(xs) - V.gaussian(xs, 2.0))) <= 1e-13


def test_decreasing_inverse_on_arrays_is_the_infimum():
    a = np.array([0.0, 0.25, 0.5, 1.0])
    t = V.decreasing_inverse(lambda x: np.maximum(0.0, 0.5 - x), a)   # flat zero on [1/2, 1]
    assert np.max(np.abs(t - [0.5, 0.25, 0.0, 0.0])) <= 1e-16
    assert t[0] == 0.5 and t[3] == 0.0     # the start of the flat piece; f(0) <= 1 at once


def test_invalid_inputs_raise_named_errors():
    with pytest.raises(InvalidParameterError, match="alpha must be in"):
        V.eps_delta([0.5, 1.5], 1.0, 0.0)
    with pytest.raises(InvalidParameterError, match="delta must be in"):
        V.eps_delta(0.5, 1.0, 2.0)
    with pytest.raises(InvalidParameterError, match="p must be in"):
        V.subsampled_eps_delta(0.5, 1.0, 0.0, -0.1)
    with pytest.raises(InvalidParameterError, match="mu must be"):
        V.gaussian(0.5, -1.0)
    with pytest.raises(InvalidParameterError, match="must be (a number|numbers)"):
        V.vectorize(Gaussian(sp.Symbol("mu", positive=True)))
    with pytest.raises(NotImplementedError):
        V.vectorize(ConvexEnvelope(PointwiseMin(Gaussian(1), Gaussian(2))))


@pytest.mark.parametrize("route", ["scipy", "standard library"])
def test_normal_law_on_arrays_against_mpmath(route, monkeypatch):
    if route == "standard library":
        monkeypatch.setattr(V, "_scipy_special", lambda: None)
    elif V._scipy_special() is None:
        pytest.skip("SciPy is not installed; the standard-library route is tested")
    z = np.array([-30.0, -5.0, -0.3, 0.0, 2.0, 8.0])
    a = np.array([1e-300, 1e-9, 0.2, 0.5, 0.9, 1 - 2 ** -40])
    with mpmath.workdps(30):
        cdf = np.array([float(mpmath.ncdf(mpmath.mpf(v))) for v in z])
    with mpmath.workdps(340):  # 2a - 1 must keep a = 1e-300: 300 digits more than 30
        quantile = np.array([float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(v) - 1)) for v in a])
    # Phi(z) is conditioned like z^2 in relative terms (z / sqrt 2 is rounded): allow 4 ulp * (1 + z^2)
    assert np.all(np.abs(V.normal_cdf(z) - cdf) <= 4 * 2.0 ** -52 * (1 + z ** 2) * cdf)
    assert np.all(np.abs(V.normal_quantile(a) - quantile) <= 1e-14 * np.maximum(1, np.abs(quantile)))
    assert V.normal_quantile(np.array([0.0, 1.0])).tolist() == [-np.inf, np.inf]


@pytest.mark.parametrize("route", ["scipy", "standard library"])
def test_normal_law_takes_scalars_and_zero_dimensional_arrays(route, monkeypatch):
    # a 0-d input made np.frompyfunc return a Python float (no .astype): issue #14
    if route == "standard library":
        monkeypatch.setattr(V, "_scipy_special", lambda: None)
    elif V._scipy_special() is None:
        pytest.skip("SciPy is not installed; the standard-library route is tested")
    with mpmath.workdps(30):
        expected_cdf = float(mpmath.ncdf(mpmath.mpf("0.5")))
        expected_quantile = float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("0.3") - 1))
    for z in (0.5, np.float64(0.5), np.array(0.5)):
        assert abs(float(V.normal_cdf(z)) - expected_cdf) <= 4 * 2.0 ** -52
    for a in (0.3, np.array(0.3)):
        assert abs(float(V.normal_quantile(a)) - expected_quantile) <= 1e-15
