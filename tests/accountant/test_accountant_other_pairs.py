"""f_{eps,delta} and Laplace steps: the bracket contains exact references.

* f_{eps0,delta0}^{x T}: enumerated exactly -- outcomes holding a +oo-loss atom count fully
  (Q = 0 there), those holding a -oo atom not at all, the rest are randomized response:
  delta_T(eps) = 1 - (1 - delta0)^T + (1 - delta0)^T * delta_RR,T(eps)
  (the enumeration behind Kairouz-Oh-Viswanath 2015, Thm 3.4);
* Laplace, T = 1: symdp's trade-off object Laplace(mu) (Dong-Roth-Su 2022, Sec. 2.3) and its
  privacy profile 1 + f*(-e^eps), a route through the trade-off function, not the loss tails;
* Laplace, T = 2: 50-digit quadrature of the outer integral with the inner one in closed form.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp.accountant import EpsDelta, Laplace

from test_accountant_bracket import bracket, mpf, rr_delta


@pytest.mark.parametrize("eps0,delta0,T,eps", [("0.5", "0.001", 1, "0.2"), ("0.5", "0.001", 12, "1"),
                                               ("0.25", "1e-6", 40, "2")])
def test_eps_delta_composition_by_enumeration(eps0, delta0, T, eps):
    with mpmath.workdps(80):
        d0 = mpf(delta0)
        exact = 1 - (1 - d0) ** T + (1 - d0) ** T * rr_delta(eps0, T, eps)
        lo, hi = bracket([(EpsDelta(eps0, delta0), T)], eps)
        assert lo <= exact <= hi
        assert hi - lo < 1e-6


@pytest.mark.parametrize("eps", ["0", "0.4", "0.9"])
def test_laplace_one_step_against_the_tradeoff_object(eps):
    from symdp import Laplace as LaplaceTradeOff

    f = LaplaceTradeOff(sp.Integer(1))           # Lap(0,1) vs Lap(1,1): scale b = 1
    e = sp.Symbol("e_", nonnegative=True)
    profile = f.privacy_profile(e)
    with mpmath.workdps(50):
        exact = mpmath.mpf(str(sp.N(profile.subs(e, sp.Rational(eps)), 50)))
        lo, hi = bracket([(Laplace(1), 1)], eps)
        assert lo <= exact <= hi


def test_laplace_two_steps_by_quadrature():
    b, eps = mpmath.mpf(1), mpmath.mpf("0.8")
    with mpmath.workdps(30):
        p = lambda x: mpmath.exp(-abs(x - 1) / b) / (2 * b)   # noqa: E731
        q = lambda x: mpmath.exp(-abs(x) / b) / (2 * b)       # noqa: E731
        L = lambda x: (abs(x) - abs(x - 1)) / b               # noqa: E731

        def tails(y):     # (P(L >= y), Q(L >= y)) for one Laplace step
            if y <= -1 / b:
                return mpmath.mpf(1), mpmath.mpf(1)
            if y > 1 / b:
                return mpmath.mpf(0), mpmath.mpf(0)
            x = (y * b + 1) / 2
            return 1 - mpmath.exp((x - 1) / b) / 2, mpmath.exp(-x / b) / 2

        def inner(x):
            A, B = tails(eps - L(x))
            return p(x) * A - mpmath.exp(eps) * q(x) * B

        exact = mpmath.quad(inner, [-mpmath.inf, 0, mpmath.mpf("0.1"), mpmath.mpf("0.9"), 1, mpmath.inf])
        lo, hi = bracket([(Laplace(1), 2)], Fraction(4, 5))
        assert lo <= exact <= hi


def test_subsampled_gaussian_two_routes_agree():
    """C_p(G_1) built generically (symmetry for the negative losses) and UniformGaussian
    (the Poisson 'add' tails there): independent code paths, overlapping brackets at T = 5."""
    from symdp.accountant import Gaussian, Subsampled, UniformGaussian

    with mpmath.workdps(30):
        a = bracket([(Subsampled(Gaussian(1), "0.2"), 5)], "0.3")
        b = bracket([(UniformGaussian(1, "0.2"), 5)], "0.3")
        assert max(a[0], b[0]) <= min(a[1], b[1])
        assert a[1] - a[0] < 1e-4 and b[1] - b[0] < 1e-4


@pytest.mark.parametrize("base,eps", [("laplace", "0"), ("laplace", "0.1"), ("laplace", "0.5"),
                                      ("epsdelta", "0.05"), ("epsdelta", "0.3")])
def test_subsampled_one_step_against_the_cp_object(base, eps):
    from symdp import EpsDelta as EpsDeltaTradeOff
    from symdp import Laplace as LaplaceTradeOff
    from symdp.accountant import Subsampled
    from symdp.subsampling import subsample

    if base == "laplace":
        f, pair = LaplaceTradeOff(sp.Integer(1)), Laplace(1)
    else:
        f, pair = EpsDeltaTradeOff(sp.Rational(1, 2), sp.Rational(1, 100)), EpsDelta("0.5", "0.01")
    C = subsample(f, sp.Rational(1, 5))
    e = sp.Symbol("e_", nonnegative=True)
    profile = C.privacy_profile(e)
    with mpmath.workdps(50):
        exact = mpmath.mpf(str(sp.N(profile.subs(e, sp.Rational(eps)), 50)))
        lo, hi = bracket([(Subsampled(pair, "0.2"), 1)], eps)
        assert lo <= exact <= hi
        assert hi - lo < 1e-4
