r"""symdp.core.special: Phi and PhiInv against the definition Phi(z) = erfc(-z/sqrt 2)/2
evaluated by mpmath at 50 digits (an independent route: mpmath.erfc, not ncdf)."""

import mpmath
import pytest
import sympy as sp

from symdp.core.special import Phi, PhiInv, mp_phi, mp_phi_inv, to_erfc

DPS = 50
TOL = mpmath.mpf(10) ** (-DPS + 3)


def _phi_by_definition(z):
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


def test_special_values_are_exact():
    assert Phi(0) == sp.S.Half
    assert Phi(sp.oo) == 1 and Phi(-sp.oo) == 0
    assert PhiInv(sp.S.Half) == 0
    assert PhiInv(1) == sp.oo and PhiInv(0) == -sp.oo


@pytest.mark.parametrize("x", ["-7.5", "-1.25", "0.3", "2", "11"])
def test_mp_phi_matches_erfc_definition_and_symmetry(x):
    with mpmath.workdps(DPS):
        x = mpmath.mpf(x)
        assert abs(mp_phi(x) - _phi_by_definition(x)) <= TOL * _phi_by_definition(x)
        # Phi(-x) = 1 - Phi(x)
        assert abs(mp_phi(-x) - (1 - mp_phi(x))) <= TOL


@pytest.mark.parametrize("x", ["-30", "-5", "-0.7", "0.1", "1.5"])
def test_mp_phi_inv_inverts_phi_at_50_digits(x):
    # (upper tail left out: a = Phi(x) near 1 fixes x only to ~TOL/phi(x), ill-conditioned)
    with mpmath.workdps(DPS):
        x = mpmath.mpf(x)
        a = _phi_by_definition(x)
        assert abs(mp_phi_inv(a) - x) <= TOL * max(1, abs(x))


def test_mp_phi_inv_known_quantile_and_domain():
    # Phi^{-1}(0.975) = 1.959963984540054... (the two-sided 95% normal quantile)
    with mpmath.workdps(DPS):
        z = mp_phi_inv(mpmath.mpf("0.975"))
        assert abs(_phi_by_definition(z) - mpmath.mpf("0.975")) <= TOL
        assert mpmath.nstr(z, 16) == "1.959963984540054"
        assert mp_phi_inv(0) == -mpmath.inf and mp_phi_inv(1) == mpmath.inf
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError):
            mp_phi_inv(bad)


def test_evalf_agrees_with_definition():
    got = sp.N(Phi(sp.Rational(3, 2)), DPS)
    back = sp.N(PhiInv(sp.Rational(1, 10)), DPS)
    with mpmath.workdps(DPS + 10):
        ref = _phi_by_definition(mpmath.mpf(3) / 2)
        assert abs(mpmath.mpf(got) - ref) <= TOL
        assert abs(_phi_by_definition(mpmath.mpf(back)) - mpmath.mpf(1) / 10) <= TOL


def test_inverse_pairs_cancel_symbolically():
    x = sp.Symbol("x", real=True)
    a = sp.Symbol("a")
    assert Phi(PhiInv(a)) == a
    assert PhiInv(Phi(x)) == x


def test_derivative_is_the_normal_density():
    x = sp.Symbol("x", real=True)
    assert sp.simplify(sp.diff(Phi(x), x) - sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)) == 0
    # (Phi^{-1})'(a) = 1/phi(Phi^{-1}(a)), checked numerically at a = 1/5
    a = sp.Symbol("a")
    d = sp.diff(PhiInv(a), a).subs(a, sp.Rational(1, 5))
    with mpmath.workdps(DPS):
        z = mp_phi_inv(mpmath.mpf(1) / 5)
        assert abs(mpmath.mpf(sp.N(d, DPS)) - 1 / mpmath.npdf(z)) <= TOL * 10


def test_rewrite_to_erfc_matches_definition():
    x = sp.Symbol("x", real=True)
    assert sp.simplify(to_erfc(Phi(x)) - sp.erfc(-x / sp.sqrt(2)) / 2) == 0
    assert to_erfc(Phi(x) + 1) == sp.erfc(-sp.sqrt(2) * x / 2) / 2 + 1


def test_printing():
    x = sp.Symbol("x")
    assert sp.latex(Phi(x)) == r"\Phi\left(x\right)"
    assert sp.latex(PhiInv(x)) == r"\Phi^{-1}\left(x\right)"
    assert sp.latex(Phi(x) ** 2) == r"\Phi\left(x\right)^{2}"
    assert sp.latex(PhiInv(x) ** 2) == r"\left(\Phi^{-1}\left(x\right)\right)^{2}"
    assert str(Phi(x)) == "Phi(x)" and str(PhiInv(1 - x)) == "PhiInv(1 - x)"
