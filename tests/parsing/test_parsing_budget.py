"""symdp.parsing.budget: constructions are refused before they run, with the limit named."""

import pytest
import sympy as sp

from symdp.parsing.budget import (MAX_DIGITS, MAX_ROOT_DIGITS, MAX_SECONDS, _Builder, _Value,
                                  _expression_digits)
from symdp.parsing.tokens import _Problem


def test_digits_of_an_expression_count_its_rationals():
    # 123 (3 digits) and 1/1000 (4 digits in its denominator)
    assert _expression_digits(sp.Integer(123) * sp.Symbol("x") + sp.Rational(1, 1000)) == 3 + 4


def test_a_power_too_large_is_refused_before_sympy_computes_it():
    b = _Builder()
    with pytest.raises(_Problem, match=f"more than {MAX_DIGITS} digits"):
        b.pow(_Value(sp.Integer(10), 2), _Value(sp.Integer(MAX_DIGITS + 5), 4), col=3)
    ok = b.pow(_Value(sp.Integer(10), 2), _Value(sp.Integer(50), 2), col=3)
    assert ok.expr == 10 ** 50 and ok.digits <= 60


def test_fractional_powers_have_their_own_budget():
    b = _Builder()
    big = _Value(sp.Integer(10) ** 400 + 1, 401)
    with pytest.raises(_Problem, match=f"at most {MAX_ROOT_DIGITS}"):
        b.pow(big, _Value(sp.Rational(2, 3), 2), col=1)


def test_the_time_limit_is_a_parameter():
    assert MAX_SECONDS > 0
    with pytest.raises(_Problem, match=r"takes too long to build \(over -1 s\)"):
        _Builder(seconds=-1).check(0, 0, 1, col=1)
    _Builder(seconds=60).check(0, 0, 1, col=1)     # within every limit: no problem


def test_undefined_values_are_refused():
    b = _Builder()
    with pytest.raises(_Problem, match="division by zero"):
        b.inverse(_Value(sp.S.Zero, 1), col=2)
    with pytest.raises(_Problem, match="nan"):
        b.add([_Value(sp.oo), _Value(-sp.oo)], [1, 3])
