"""Each family against its definition T(P, Q): the Neyman–Pearson test on the actual
distributions, computed independently in mpmath (quadrature, root-finding) at 45 digits."""

from statistics import NormalDist

import mpmath
import pytest
import sympy as sp

from symdp import InvalidParameterError
from symdp.tradeoff import EpsDelta, Gaussian, Identity, Inverse, Laplace, Zero

ALPHAS = ["0", "1/1000", "1/50", "1/10", "1/4", "1/3", "1/2", "2/3", "9/10", "999/1000", "1"]
DPS = 45


def _alpha(s):
    return sp.Rational(s)


def np_discrete(P, Q, a):
    """T(P, Q)(a) for finite distributions: reject outcomes by decreasing Q/P, randomising the last."""
    order = sorted(range(len(P)), key=lambda i: -(Q[i] / P[i]) if P[i] > 0 else -mpmath.inf)
    budget, power = mpmath.mpf(a), mpmath.mpf(0)
    for i in order:
        if P[i] <= budget:
            budget -= P[i]
            power += Q[i]
        else:
            power += Q[i] * budget / P[i]
            break
    return 1 - power


@pytest.mark.parametrize("eps, delta", [("0", "0"), ("1", "0"), ("1", "1/10"), ("3", "1/10"),
                                        ("1/2", "1/2"), ("2", "1")])
def test_eps_delta_equals_neyman_pearson_of_two_point_construction(eps, delta):
    # Dong, Roth, Su 2022, Prop. 2.5: f_{eps,delta} = T(P, Q) on four points
    f = EpsDelta(eps, delta)
    with mpmath.workdps(DPS):
        e, d = mpmath.exp(mpmath.mpf(sp.Rational(eps))), mpmath.mpf(sp.Rational(delta).p) / sp.Rational(delta).q
        P = [d, (1 - d) * e / (1 + e), (1 - d) / (1 + e), mpmath.mpf(0)]
        Q = [mpmath.mpf(0), (1 - d) / (1 + e), (1 - d) * e / (1 + e), d]
        for s in ALPHAS:
            a = _alpha(s)
            expected = np_discrete(P, Q, mpmath.mpf(a.p) / a.q)
            got = f.evaluate(a, dps=DPS)
            assert mpmath.almosteq(got, expected, abs_eps=mpmath.mpf(10) ** (-DPS + 5)), (s, got, expected)


def _normal_density(x, mu):
    return mpmath.exp(-(x - mu) ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)


def _gauss_tail_quad(c, mu):
    """P(N(mu,1) <= c) by quadrature of the density (independent of Phi)."""
    dens = lambda x: _normal_density(x, mu)
    return mpmath.quad(dens, [-mpmath.inf, mu, c]) if c > mu else mpmath.quad(dens, [-mpmath.inf, c])


def _solve_increasing(F, dF, target, float_F):
    """The c with F(c) = target, F increasing with derivative dF (a density, so exact):
    Newton on the quadrature F, started from the root of float_F (stdlib floats) by bisection."""
    lo, hi = -40.0, 40.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if float_F(mid) < float(target) else (lo, mid)
    return mpmath.findroot(lambda t: F(t) - target, (lo + hi) / 2, solver="newton", df=dF)


@pytest.fixture(scope="module")
def normal_thresholds():
    """alpha -> c with P_{N(0,1)}(X > c) = alpha, at DPS digits: the Neyman–Pearson threshold,
    which does not depend on mu, so it is found once for every G_mu."""
    thresholds = {}
    with mpmath.workdps(DPS):
        for s in ALPHAS[1:-1]:
            a = mpmath.mpf(_alpha(s).p) / _alpha(s).q
            thresholds[s] = _solve_increasing(lambda t: _gauss_tail_quad(t, 0), lambda t: _normal_density(t, 0),
                                              1 - a, NormalDist().cdf)
    return thresholds


@pytest.mark.parametrize("mu", ["1/2", "1", "3"])
def test_gaussian_equals_neyman_pearson_on_normals(mu, normal_thresholds):
    f = Gaussian(mu)
    with mpmath.workdps(DPS):
        m = mpmath.mpf(sp.Rational(mu).p) / sp.Rational(mu).q
        for s in ALPHAS[1:-1]:
            # reject x > c with P_{N(0,1)}(X > c) = a: c from the density by root-finding
            c = normal_thresholds[s]
            expected = _gauss_tail_quad(c, m)
            got = f.evaluate(_alpha(s), dps=DPS)
            assert mpmath.almosteq(got, expected, abs_eps=mpmath.mpf(10) ** -35), (s, got, expected)


def _laplace_cdf(x, loc):
    """CDF of Lap(loc, 1) by quadrature of the density (independent of the pieces)."""
    dens = lambda t: mpmath.exp(-abs(t - loc)) / 2
    return mpmath.quad(dens, [-mpmath.inf, loc, x]) if x > loc else mpmath.quad(dens, [-mpmath.inf, x])


LAPLACE_ALPHAS = ["1/100", "1/10", "1/4", "1/2", "3/4", "99/100"]


@pytest.fixture(scope="module")
def laplace_thresholds():
    """alpha -> c with P_{Lap(0,1)}(X > c) = alpha, at DPS digits, found once for every L_mu:
    Newton on the quadrature (d/dc = -density), started from the float quantile."""
    thresholds = {}
    with mpmath.workdps(DPS):
        for s in LAPLACE_ALPHAS:
            a = mpmath.mpf(_alpha(s).p) / _alpha(s).q
            start = float(-mpmath.log(2 * a)) if a < 0.5 else float(mpmath.log(2 * (1 - a)))
            thresholds[s] = mpmath.findroot(lambda t: 1 - _laplace_cdf(t, 0) - a, start, solver="newton",
                                            df=lambda t: -mpmath.exp(-abs(t)) / 2)
    return thresholds


@pytest.mark.parametrize("mu", ["1/2", "2"])
def test_laplace_equals_neyman_pearson_on_laplace_pair(mu, laplace_thresholds):
    f = Laplace(mu)
    with mpmath.workdps(DPS):
        m = mpmath.mpf(sp.Rational(mu).p) / sp.Rational(mu).q
        for s in LAPLACE_ALPHAS:
            # the likelihood ratio is non-decreasing in x: reject x > c; invert P(X > c) = a
            c = laplace_thresholds[s]
            expected = _laplace_cdf(c, m)
            got = f.evaluate(_alpha(s), dps=DPS)
            assert mpmath.almosteq(got, expected, abs_eps=mpmath.mpf(10) ** -35), (s, got, expected)


def test_identity_and_zero_are_exact():
    assert Identity().evaluate("1/3") == sp.Rational(2, 3)
    assert Zero().evaluate("1/3") == 0
    assert EpsDelta(0, 0).evaluate("1/4") == sp.Rational(3, 4)  # f_{0,0} = Id, exact in, exact out


@pytest.mark.parametrize("f", [EpsDelta(1, "1/10"), Gaussian("3/2"), Laplace(1)])
def test_generic_inverse_of_symmetric_family_is_the_family(f):
    inverse = Inverse(f)  # computed piece by piece from Eq. 4, not the family's shortcut
    for s in ["1/20", "1/5", "1/2", "4/5", "19/20"]:
        assert mpmath.almosteq(inverse.evaluate(_alpha(s), dps=40), f.evaluate(_alpha(s), dps=40),
                               abs_eps=mpmath.mpf(10) ** -35)


def test_inverse_of_asymmetric_mixture_is_the_reversed_pair():
    # f = T(P, Q) with P = N(0,1), Q = p N(mu,1) + (1-p) N(0,1) (Dong, Roth, Su 2022, Sec. 4);
    # T(Q, P) by Neyman–Pearson: P/Q falls in x, so reject Q for x < c.
    p, mu = sp.Rational(1, 2), 1
    f = Gaussian(mu).mix(p)
    with mpmath.workdps(DPS):
        pm = mpmath.mpf(1) / 2
        for s in ["1/20", "1/5", "1/2", "4/5"]:
            a = mpmath.mpf(_alpha(s).p) / _alpha(s).q
            size = lambda c: pm * _gauss_tail_quad(c, 1) + (1 - pm) * _gauss_tail_quad(c, 0)
            density = lambda c: pm * _normal_density(c, 1) + (1 - pm) * _normal_density(c, 0)
            float_size = lambda c: 0.5 * NormalDist(1).cdf(c) + 0.5 * NormalDist(0).cdf(c)
            c = _solve_increasing(size, density, a, float_size)
            expected = 1 - _gauss_tail_quad(c, 0)
            got = f.inverse().evaluate(_alpha(s), dps=DPS)
            assert mpmath.almosteq(got, expected, abs_eps=mpmath.mpf(10) ** -35), (s, got, expected)


@pytest.mark.parametrize("f", [EpsDelta(1, "1/10"), EpsDelta(0, "1/2"), Gaussian(1), Gaussian("1/5"),
                               Laplace("1/2"), Laplace(3), Identity(), Zero()])
def test_fixed_point_satisfies_f_of_x_star_equals_x_star(f):
    x_star = f.fixed_point()
    with mpmath.workdps(50):
        value = sp.N(x_star, 50)
        assert mpmath.almosteq(f.evaluate(value, dps=50), mpmath.mpf(value._to_mpmath(200)),
                               abs_eps=mpmath.mpf(10) ** -45)


def test_gaussian_fixed_point_closed_form():
    mu = sp.Symbol("mu", positive=True)
    from symdp import Phi

    assert Gaussian(mu).fixed_point() == Phi(-mu / 2)


@pytest.mark.parametrize("make, message", [
    (lambda: EpsDelta(-1, 0), "eps must be >= 0; got eps=-1"),
    (lambda: EpsDelta(1, 1.5), "delta must be in [0, 1]; got delta=1.5"),
    (lambda: EpsDelta(1, float("nan")), "delta must be a finite number"),
    (lambda: EpsDelta(float("inf"), 0), "eps must be a finite number"),
    (lambda: EpsDelta("abc", 0), "eps must be a number; got eps='abc'"),
    (lambda: Gaussian(-2), "mu must be >= 0; got mu=-2"),
    (lambda: Laplace(sp.Symbol("m", negative=True)), "mu must be >= 0"),
    (lambda: Gaussian(1).mix(2), "p must be in [0, 1]; got p=2"),
    (lambda: Gaussian(1).evaluate("3/2"), "alpha must be in [0, 1]"),
])
def test_bad_parameters_raise_invalid_parameter_error(make, message):
    with pytest.raises(InvalidParameterError) as info:
        make()
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_symbolic_parameter_of_unknown_sign_is_accepted_and_recorded():
    d = sp.Symbol("delta")
    f = EpsDelta(1, d)
    assert sp.Ge(d, 0) in f.conditions and sp.Le(d, 1) in f.conditions


def test_mixture_endpoints_are_exact():
    f = Gaussian(1)
    assert f.mix(1) == f
    assert f.mix(0) == Identity()



def test_latex_of_every_object_including_powers():
    from symdp.tradeoff import ConjugateAt, alpha

    # the names as Dong, Roth, Su 2022 write them: f_{eps,delta} (Eq. 5), G_mu (Def. 2.7), Id,
    # f_p = p f + (1 - p) Id (Def. 4.1), f^{-1}, the conjugate f^* (Sec. 2.4); L_mu is symdp's
    objects = [(EpsDelta(sp.Symbol("varepsilon"), sp.Symbol("delta")), r"f_{\varepsilon,\delta}"),
               (Gaussian(sp.Symbol("mu")), r"G_{\mu}"), (Laplace(1), r"L_{1}"),
               (Identity(), r"\mathrm{Id}"), (Zero(), "0"),
               (Gaussian(1).mix(sp.Symbol("p")), r"\left(G_{1}\right)_{p}"),
               (Inverse(Gaussian(1).mix(sp.Rational(1, 2))), r"\left(G_{1}\right)_{\frac{1}{2}}^{-1}")]
    for f, name in objects:
        assert sp.latex(f) == name
        assert sp.latex(f(alpha) ** 2) == name + r"\left(\alpha\right)^{2}"
        star = name + "^{*}" if not name.endswith("^{-1}") else r"\left(%s\right)^{*}" % name
        assert sp.latex(ConjugateAt(f, -1) ** 2) == star + r"\left(-1\right)^{2}"



def test_failed_root_find_raises_with_residual():
    import mpmath as mp
    from symdp.core.errors import RootFindingError
    from symdp.tradeoff.numeric import decreasing_inverse

    with mp.workdps(30):
        with pytest.raises(RootFindingError) as info:
            decreasing_inverse(lambda t: 1 + 0 * t, mp.mpf("0.5"))  # never <= 1/2 on [0, 1]
    assert info.value.residual is not None and info.value.tolerance is not None
