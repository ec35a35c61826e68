"""A value computed at N digits prints N digits; exact input gives an exact elementary value
(issue #14).  References are computed here with mpmath at 130 digits."""

import pickle

import mpmath
import sympy as sp

from symdp.numeric.digits import Digits
from symdp.tradeoff import EpsDelta, Gaussian, Laplace


def significant(text: str) -> int:
    mantissa = text.split("e")[0].replace("-", "").replace(".", "")
    return len(mantissa.lstrip("0"))


def test_digits_print_their_precision_and_survive_pickling():
    with mpmath.workdps(80):
        root2 = mpmath.sqrt(2)
        d = Digits(root2, 40)
        assert abs(d - root2) < mpmath.mpf(10) ** -39
    assert str(d) == "1.414213562373095048801688724209698078570"
    assert repr(d) == "mpf('1.414213562373095048801688724209698078570')"
    back = pickle.loads(pickle.dumps(d))
    assert back == d and str(back) == str(d)
    assert type(d + 1) is mpmath.mpf and isinstance(d, mpmath.mpf)
    assert str(Digits(mpmath.mpf(1) / 4, 6)) == "0.250000"


def test_evaluate_prints_the_digits_asked_for():
    with mpmath.workdps(130):
        reference = mpmath.ncdf(-1)   # G_1(1/2) = Phi(Phi^-1(1/2) - 1) = Phi(-1)
    for dps in (5, 15, 40, 100):
        value = Gaussian(1).evaluate("1/2", dps=dps)
        assert significant(str(value)) == dps
        with mpmath.workdps(130):
            assert abs(value - reference) <= mpmath.mpf(10) ** (-dps + 1) * reference


def test_evaluate_many_prints_the_digits_asked_for():
    values = Gaussian(1).evaluate_many(["0.01", "0.5"], dps=50)
    assert [significant(str(v)) for v in values] == [50, 50]


def test_exact_in_exact_out_for_elementary_values():
    value = EpsDelta(1, "0.1").evaluate("1/20")
    # f_{1,1/10}(1/20) = max(0, 1 - 1/10 - e/20, e^-1 (1 - 1/10 - 1/20)) = 9/10 - e/20
    assert isinstance(value, sp.Expr) and sp.simplify(value - (sp.Rational(9, 10) - sp.E / 20)) == 0
    assert str(value) == "9/10 - E/20"
    lap = Laplace(1).evaluate("1/4")
    # Laplace: e^-mu / (4 alpha) for e^-mu/2 <= alpha <= 1/2 (Dong, Roth, Su 2022, Ex. 2.4
    # / App. A): at mu = 1, alpha = 1/4 that is e^-1, exactly
    assert isinstance(lap, sp.Expr) and sp.simplify(lap - sp.exp(-1)) == 0
    # a value with a special function is not "elementary": a 15-digit number, printing 15
    gauss = Gaussian(1).evaluate("1/2")
    assert isinstance(gauss, mpmath.mpf) and significant(str(gauss)) == 15
