"""symdp.proof.cascade.certified.ranges: a box coordinate's range and the box's own checks."""

import pytest
import sympy as sp

from symdp import InvalidParameterError
from symdp.proof.cascade.certified.ranges import Range

x = sp.Symbol("x", real=True)


def test_range_checks_are_the_boxes_own():
    assert Range(x, 0, sp.oo).bounded is False and Range(x, 0, 1).bounded
    with pytest.raises(InvalidParameterError, match="finite lower bound"):
        Range(x, -sp.oo, 3, integer=True)
    with pytest.raises(InvalidParameterError, match="must be a real number"):
        Range(x, sp.I, 1)


def test_bounds_become_sympy_numbers_and_text_shows_them():
    r = Range(x, 0, sp.Rational(1, 2))
    assert r.hi == sp.Rational(1, 2) and r.text() == "x in [0, 1/2]"
    assert Range(x, -sp.oo, 0).text() == "x in [-oo, 0]"
    with pytest.raises(InvalidParameterError, match="lower <= upper"):
        Range(x, 1, 0)
    with pytest.raises(InvalidParameterError, match="both ends"):
        Range(x, -sp.oo, sp.oo)
    with pytest.raises(InvalidParameterError, match="not text"):
        Range(x, 0, "__import__('os')")
