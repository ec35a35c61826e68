r"""symdp.tradeoff.solve: peel / solve_for on equations with known roots, each root
checked by substitution into the equation (not against the solver's own output)."""

import mpmath
import pytest
import sympy as sp

from symdp.core.special import Phi, PhiInv
from symdp.tradeoff.solve import peel, phi_normal_form, solve_for

x = sp.Symbol("x", real=True)
t = sp.Symbol("t", positive=True)
mu = sp.Symbol("mu", positive=True)


def _residual_at(lhs, rhs, root, values, dps=40):
    """|lhs - rhs| at x = root and numeric values of the parameters, at `dps` digits."""
    expr = (lhs - rhs).subs(x, root).subs(values)
    return abs(sp.N(expr, dps))


def test_peel_linear_exp_log():
    # 3 exp(x) + 2 = t  =>  x = log((t - 2)/3)
    root = peel(3 * sp.exp(x) + 2, t, x)
    assert sp.simplify(root - sp.log((t - 2) / 3)) == 0
    # log(2 x) = t  =>  x = e^t / 2
    assert sp.simplify(peel(sp.log(2 * x), t, x) - sp.exp(t) / 2) == 0


def test_peel_through_phi_gives_the_gaussian_tradeoff_inverse():
    # G_mu(a) = Phi(PhiInv(1 - a) - mu) = t  =>  a = 1 - Phi(PhiInv(t) + mu)
    a = sp.Symbol("a")
    root = peel(Phi(PhiInv(1 - a) - mu), t, a)
    expected = 1 - Phi(PhiInv(t) + mu)
    assert sp.simplify(root - expected) == 0
    vals = {t: sp.Rational(1, 3), mu: 1}
    assert abs(sp.N(Phi(PhiInv(1 - root) - mu).subs(vals), 40) - sp.Rational(1, 3)) < 1e-35


def test_peel_power_takes_the_positive_root_and_refuses_otherwise():
    assert peel(x ** 2, t, x) == sp.sqrt(t)
    assert peel(x ** 2, t, x, positive_root=False) is None
    # 2^x = t  =>  x = log t / log 2
    assert sp.simplify(peel(2 ** x, t, x) - sp.log(t) / sp.log(2)) == 0


def test_peel_refuses_unknown_layers_and_repeated_unknown():
    assert peel(sp.sin(x), t, x) is None
    assert peel(x + sp.exp(x), t, x) is None


def test_solve_for_fixed_point_of_gaussian_tradeoff():
    # G_mu(a) = a has the root a* = Phi(-mu/2) (by symmetry of G_mu about the diagonal)
    a = sp.Symbol("a")
    G = Phi(PhiInv(1 - a) - mu)
    root = solve_for(G, a, a)
    assert root is not None
    for m in (sp.Rational(1, 2), 1, 3):
        with mpmath.workdps(40):
            got = mpmath.mpf(sp.N(root.subs(mu, m), 45))
            assert abs(got - mpmath.ncdf(-mpmath.mpf(m) / 2)) < mpmath.mpf(10) ** -35
        assert abs(sp.N((G - a).subs(a, root).subs(mu, m), 40)) < 1e-35


def test_solve_for_with_unknown_on_the_right():
    # t = exp(-x) + 1  =>  x = -log(t - 1)
    root = solve_for(t, sp.exp(-x) + 1, x)
    assert _residual_at(t, sp.exp(-x) + 1, root, {t: 3}) < 1e-35


def test_solve_for_phi_equation_with_two_phi_terms():
    # Phi(x) + Phi(x - 1) = 1  <=>  Phi(x) = Phi(1 - x)  <=>  x = 1/2
    assert solve_for(Phi(x) + Phi(x - 1), sp.S.One, x) == sp.Rational(1, 2)
    # Phi(2x) = Phi(x + 3)  <=>  x = 3
    assert solve_for(Phi(2 * x), Phi(x + 3), x) == 3


def test_solve_for_polynomial_falls_back_to_sympy():
    root = solve_for(x ** 3 + x, sp.Integer(10), x)   # x^3 + x - 10 = (x-2)(x^2+2x+5)
    assert root == 2


def test_phi_normal_form_identities():
    u = sp.Symbol("u")
    assert phi_normal_form(PhiInv(1 - u)) == -PhiInv(u)
    assert phi_normal_form(1 - Phi(u)) == Phi(-u)
    # both sides agree numerically (Phi^{-1}(1-u) = -Phi^{-1}(u)) at u = 0.3
    lhs = sp.N(PhiInv(1 - sp.Rational(3, 10)), 40)
    rhs = sp.N(-PhiInv(sp.Rational(3, 10)), 40)
    assert abs(lhs - rhs) < 1e-35
