"""symdp.parsing.plain: the plain syntax's own rules (names, constants, calls)."""

import pytest
import sympy as sp

from symdp.core.errors import ParseError
from symdp.parsing import parse_formula


@pytest.mark.parametrize("text, expected", [
    ("eps", sp.Symbol("varepsilon")), ("epsilon_0", sp.Symbol("varepsilon_0")),
    ("eps'", sp.Symbol("varepsilon'")), ("x_1", sp.Symbol("x_1")),
    ("e", sp.E), ("E", sp.E), ("pi", sp.pi), ("inf", sp.oo),
    ("log(8, 2)", sp.Integer(3)), ("ceil(5/2)", sp.Integer(3)), ("max(1, 2, 3)", sp.Integer(3)),
])
def test_names_constants_and_calls(text, expected):
    got = parse_formula(text)
    assert got == expected or sp.simplify(got - expected) == 0


@pytest.mark.parametrize("text, message", [
    ("exp 2", "exp is a function: write exp(...)"),
    ("exp(1, 2)", "exp takes 1 argument, got 2"),
    ("binomial(5)", "binomial takes 2 arguments, got 1"),
    ("log(1, 2, 3)", "log takes 1 or 2 arguments, got 3"),
])
def test_calls_check_their_arity(text, message):
    with pytest.raises(ParseError, match=message):
        parse_formula(text)


def test_a_name_followed_by_a_parenthesis_is_a_product():
    n = sp.Symbol("n")
    assert parse_formula("n(n-1)") == n * (n - 1)
