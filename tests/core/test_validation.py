"""symdp.core.validation: exact conversion, bounds, symbolic conditions, integers."""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp.core.errors import InvalidParameterError
from symdp.core.validation import (nonnegative, parameter, positive_integer, probability,
                                   to_exact)

R = sp.Rational


@pytest.mark.parametrize("value, exact", [
    ("0.1", R(1, 10)), (0.1, R(1, 10)), ("1e-3", R(1, 1000)), (" -2.50 ", R(-5, 2)),
    ("3/4", R(3, 4)), ("-7 / 2", R(-7, 2)), (5, 5), (Fraction(2, 3), R(2, 3)),
    (sp.sqrt(2), sp.sqrt(2)), (".5", R(1, 2)),
])
def test_numbers_and_text_become_exact(value, exact):
    out = to_exact("x", value)
    assert out == exact


def test_floats_keep_their_shortest_decimal_not_their_binary_value():
    assert to_exact("x", 0.1) != R(0.1)          # the binary double is not 1/10
    assert to_exact("x", 0.1) == R(1, 10)


@pytest.mark.parametrize("value, message", [
    ("__import__('os')", "x must be a number"), ("1/0", "finite"), (float("nan"), "finite"),
    (float("inf"), "finite"), (True, "must be a number"), (sp.oo, "finite"), (sp.I, "real"),
    (mpmath.mpf("inf"), "finite"), ([1], "must be a number"), ("1e", "must be a number"),
])
def test_bad_values_name_the_parameter(value, message):
    with pytest.raises(InvalidParameterError, match=message) as info:
        to_exact("x", value)
    assert str(info.value).startswith("x must be")


def test_mpmath_values_keep_every_bit():
    with mpmath.workdps(40):
        third = mpmath.mpf(1) / 3
        out = to_exact("x", third)
    man, exp = third.man_exp
    assert out == sp.Integer(man) * sp.Integer(2) ** exp and abs(out - R(1, 3)) < R(1, 10 ** 39)   # not a double
    assert to_exact("x", mpmath.mpf("0.75")) == R(3, 4)


@pytest.mark.parametrize("kwargs, value, ok", [
    (dict(lower=0, upper=1), "0", True), (dict(lower=0, upper=1), "1", True),
    (dict(lower=0, upper=1, lower_open=True), "0", False),
    (dict(lower=0, upper=1, upper_open=True), "1", False),
    (dict(lower=0), "-0.001", False), (dict(upper=2), "2.5", False),
])
def test_bounds_open_and_closed(kwargs, value, ok):
    if ok:
        assert parameter("p", value, **kwargs) == R(value)
    else:
        with pytest.raises(InvalidParameterError, match=r"^p must be (in|>|<)"):
            parameter("p", value, **kwargs)


def test_the_message_shows_the_constraint_and_the_value_as_typed():
    with pytest.raises(InvalidParameterError) as info:
        probability("delta", 1.5)
    assert str(info.value) == "delta must be in [0, 1]; got delta=1.5"
    with pytest.raises(InvalidParameterError) as info:
        probability("p", "0", open_=True)
    assert str(info.value) == "p must be in (0, 1); got p=0"


def test_symbolic_bounds_become_conditions_instead_of_guesses():
    t = sp.Symbol("t", real=True)
    conditions = []
    assert probability("p", t, conditions) == t
    assert conditions == [sp.Ge(t, 0), sp.Le(t, 1)]
    with pytest.raises(InvalidParameterError, match="cannot decide"):
        probability("p", t)
    positive = sp.Symbol("m", positive=True)
    conditions = []
    nonnegative("mu", positive, conditions)
    assert conditions == []                       # decided by the assumptions


def test_integer_parameters():
    assert parameter("n", "4", 1, integer=True) == 4
    with pytest.raises(InvalidParameterError, match="n must be an integer >= 1; got n=2.5"):
        parameter("n", 2.5, 1, integer=True)
    s = sp.Symbol("s", real=True)
    conditions = []
    parameter("n", s, 1, integer=True, conditions=conditions)
    assert sp.Eq(s, sp.floor(s)) in conditions


@pytest.mark.parametrize("value, out", [(3, 3), ("12", 12), (" +7 ", 7), (60000.0, 60000),
                                        (sp.Integer(9), 9)])
def test_positive_integers(value, out):
    assert positive_integer("k", value) == out and type(positive_integer("k", value)) is int


@pytest.mark.parametrize("value", [0, -1, "0", "1.5", 2.5, float("inf"), True, sp.Rational(1, 2),
                                   "1e3", None])
def test_positive_integers_refuse_everything_else(value):
    with pytest.raises(InvalidParameterError, match=r"^k must be an integer >= 1; got k="):
        positive_integer("k", value)


HUGE = 10 ** 100_000   # Python refuses to turn it into text: repr() raises ValueError


def _curve():
    import symdp
    from symdp.events import Gaussian
    return symdp.tradeoff_curve(Gaussian(1), [0.1], precision=HUGE)


def _evaluate_many():
    from symdp import Gaussian
    return Gaussian(1).evaluate_many(HUGE)


def _account():
    import symdp
    from symdp.events import Gaussian
    return symdp.account(Gaussian(1), delta="1e-5", precision=HUGE)


@pytest.mark.parametrize("call", [_curve, _evaluate_many, _account])
def test_a_value_python_cannot_print_is_refused_by_name(call):
    # the error message shows the value: a bare repr() of it raised ValueError instead
    with pytest.raises(InvalidParameterError, match="an integer of about 100001 digits"):
        call()
