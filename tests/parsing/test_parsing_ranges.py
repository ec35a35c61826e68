"""symdp.parsing.ranges: ``--box`` text to a Range, without eval."""

import pytest
import sympy as sp

from symdp import InvalidParameterError
from symdp.parsing.ranges import parse_range

R = sp.Rational


@pytest.mark.parametrize("text, lo, hi", [
    ("p=0..1", 0, 1), (" p = 1/4 .. 3/4 ", R(1, 4), R(3, 4)), ("eps=0.5..inf", R(1, 2), sp.oo),
    ("x=-oo..-2", -sp.oo, -2), ("x=-1e-3..+2.5", R(-1, 1000), R(5, 2)), ("t=0..∞", 0, sp.oo),
])
def test_bounds_are_exact_numbers_fractions_or_infinity(text, lo, hi):
    r = parse_range(text)
    assert (r.lo, r.hi) == (lo, hi)
    assert r.symbol.is_real and not r.integer


def test_names_become_the_given_symbols_and_integers_are_marked():
    n = sp.Symbol("n", integer=True, positive=True)
    r = parse_range("n=2..10", symbols={"n": n}, integers={"n"})
    assert r.symbol is n and r.integer and r.text() == "n in [2, 10] (integer)"


@pytest.mark.parametrize("text, message", [
    ("p", "name=lo..hi"), ("p=0-1", "name=lo..hi"), ("2p=0..1", "parameter name"),
    ("p=a..1", "must be a number"), ("p=1/0..1", "must be a number"), ("p=__import__..1", "must be a number"),
    ("p=1..0", "lower <= upper"), ("eps=-oo..oo", "both ends"), ("p=oo..oo", "no finite values"),
])
def test_bad_text_is_an_invalid_parameter_error(text, message):
    with pytest.raises(InvalidParameterError, match=message):
        parse_range(text)
