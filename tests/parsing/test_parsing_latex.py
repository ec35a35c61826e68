"""symdp.parsing.latex: TeX's own rules (one-token arguments, scripts, subscripts, functions)."""

import pytest
import sympy as sp

from symdp.core.errors import ParseError
from symdp.core.special import PhiInv
from symdp.parsing import parse_formula

x, n = sp.symbols("x n")


@pytest.mark.parametrize("text, expected", [
    (r"\frac12", sp.Rational(1, 2)), (r"\sqrt[3]{8}", sp.Integer(2)),
    (r"\log_{2} 8", sp.Integer(3)), (r"\Phi^{-1}(x)", PhiInv(x)),
    (r"x_{1}^{2}", sp.Symbol("x_1") ** 2), (r"\varepsilon^{\prime}", sp.Symbol("varepsilon'")),
    (r"\ln^{2} x", sp.log(x) ** 2), (r"\ln(2) n", n * sp.log(2)), (r"\min\{1, x\}", sp.Min(1, x)),
    (r"\mathrm{tot}", sp.Symbol("tot")),
])
def test_tex_rules(text, expected):
    got = parse_formula(text, latex=True)
    assert got == expected or sp.simplify(got - expected) == 0


@pytest.mark.parametrize("text, message", [
    ("x^23", "TeX reads only the first digit"),
    ("x^2^3", "double superscript"),
    (r"\min x", "needs its arguments in parentheses or braces"),
    (r"\exp^{-1}(x)", "ambiguous"),
    (r"\frac{1}", "needs an argument in braces"),
    (r"\foo", "unknown function or command"),
])
def test_tex_problems(text, message):
    with pytest.raises(ParseError, match=message):
        parse_formula(text, latex=True)
