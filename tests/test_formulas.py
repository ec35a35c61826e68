"""symdp.formulas: the registry behind ``symdp latex NAME``, filled by explicit imports."""

import pytest
import sympy as sp

from symdp import formulas
from symdp.core.special import Phi, PhiInv

SUBSAMPLING = {"subsampling_eq14", "subsampling_lemma_4_4_eps", "subsampling_lemma_4_4_delta",
               "subsampling_cor_4_3"}
BAGGING = {f"bagging_{what}_{scheme}" for what in ("q", "paper_epsilon", "paper_delta", "tradeoff")
           for scheme in ("with_replacement", "joint", "independent")}


def test_names_come_from_core_subsampling_and_bagging():
    names = set(formulas.names())
    assert {"f_eps_delta", "gaussian", "laplace", "gdp_privacy_profile"} <= names
    assert SUBSAMPLING <= names and BAGGING <= names
    assert formulas.names() == sorted(names)


def test_gaussian_is_def_2_7():
    _, eq = formulas.formula("gaussian")
    syms = {s.name: s for s in eq.rhs.free_symbols}
    assert set(syms) == {"alpha", "mu"}
    a, mu = syms["alpha"], syms["mu"]
    difference = (eq.rhs - Phi(PhiInv(1 - a) - mu)).subs({a: sp.Rational(1, 3), mu: 2})
    assert abs(sp.N(difference, 30)) < sp.Float("1e-28")


def test_bagging_q_joint_is_n_k_over_n():
    description, eq = formulas.formula("bagging_q_joint")
    N, k, n = sorted(eq.rhs.free_symbols, key=str)
    assert sp.simplify(eq.rhs - N * k / n) == 0 and "jointly" in description


def test_unknown_names_are_key_errors_and_registration_adds_a_name():
    with pytest.raises(KeyError):
        formulas.formula("no_such_formula")
    formulas.register("test_only_x_squared", "x^2", lambda: sp.Symbol("x") ** 2)
    try:
        assert formulas.formula("test_only_x_squared") == ("x^2", sp.Symbol("x") ** 2)
        assert "gaussian" in formulas.names()      # registering first does not hide the built-ins
    finally:
        formulas._REGISTRY.pop("test_only_x_squared")
