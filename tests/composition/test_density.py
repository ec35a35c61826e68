"""DensityPair: T(P, Q) from two densities enters products through the privacy-loss route."""

import mpmath
import pytest
import sympy as sp

from symdp import Gaussian, Laplace
from symdp.composition import DensityPair, tensor
from symdp.core.errors import InvalidParameterError

x = sp.Symbol("x", real=True)


def phi(m):
    return sp.exp(-(x - m) ** 2 / 2) / sp.sqrt(2 * sp.pi)


def lap(m):
    return sp.exp(-sp.Abs(x - m)) / 2


def test_gaussian_densities_give_cor_2_13():
    f = DensityPair(phi(0), phi(1), x)
    with mpmath.workdps(30):
        for e in ("0", "0.5", "2"):
            ee = mpmath.mpf(e)
            cor = mpmath.ncdf(-ee + mpmath.mpf(1) / 2) - mpmath.exp(ee) * mpmath.ncdf(-ee - mpmath.mpf(1) / 2)
            assert abs(f.delta(e, dps=25) - cor) < 1e-22


def test_density_pair_in_a_product_matches_the_closed_form():
    f = DensityPair(phi(0), phi(1), x)
    assert sp.latex(tensor(f, Gaussian(2))) == r"T\left(P, Q\right) \otimes G_{2}"
    with mpmath.workdps(25):
        assert abs(tensor(f, Gaussian(2)).delta(1, dps=20) - Gaussian(sp.sqrt(5)).privacy_profile()
                   .subs(sp.Symbol("varepsilon", real=True), 1).evalf(25)) < 1e-17


def test_laplace_densities_times_laplace_family():
    g = DensityPair(lap(0), lap(1), x, breakpoints=(0, 1), kinks=(-1, 1))
    with mpmath.workdps(20):
        assert abs(tensor(g, Laplace(1)).delta("0.5", dps=15) - tensor(Laplace(1), Laplace(1)).delta("0.5", dps=15)) < 1e-12
        assert abs(g.delta("0.5", dps=15) - (1 - mpmath.exp(-mpmath.mpf(1) / 4))) < 1e-12


@pytest.mark.parametrize("args,match", [((2 * phi(0), phi(1), x), "probability density"),
                                        ((phi(0), phi(1), sp.Integer(1)), "Symbol"),
                                        ((phi(0), phi(sp.Symbol("y")), x), "expression in x only"),
                                        ((phi(0), phi(1), x, 1, 0), "lo < hi")])
def test_bad_densities(args, match):
    with pytest.raises(InvalidParameterError, match=match):
        DensityPair(*args)


@pytest.mark.parametrize("name", ["products", "density", "eps_delta", "privacy_loss", "clt"])
def test_module_doctests(name):
    import doctest
    import importlib

    module = importlib.import_module(f"symdp.composition.{name}")
    failures, _ = doctest.testmod(module)
    assert failures == 0
