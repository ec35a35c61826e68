"""A step whose side is undefined somewhere on its domain, and false somewhere it is defined,
is REFUTED at the defined point (the stronger answer); a step true wherever it is defined stays
UNDECIDED, naming the undefined point (issue #19, the Piecewise-with-a-pole row of its table).
Truth is established by exact evaluation here, not by symdp."""

import sympy as sp

from symdp.proof.check import check_step
from symdp.proof.derivation import Derivation, Step
from symdp.proof.verdict import Verdict

x, y = sp.symbols("x y", real=True)
R = sp.Rational


def _one_step(hypotheses, lhs, relation, rhs):
    d = Derivation("t", "t", "test", hypotheses, [Step(lhs, relation, rhs)])
    return check_step(d.steps[0], d, 0)


def test_piecewise_with_a_pole_in_its_condition_is_refuted_at_a_defined_point():
    lhs = sp.Piecewise((10 * (x - R(1, 5)) * (x - R(1, 2)), (x - R(9, 10)) / (x - R(1, 2)) > 0),
                       (1, True)) + sp.Abs(x - R(1, 5)) - (x - R(1, 5))
    assert lhs.subs(x, R(3, 10)) == R(-1, 5)       # false there, and defined (x != 1/2)
    r = _one_step({x: sp.Interval(0, 1)}, lhs, ">=", sp.S.Zero)
    assert r.verdict is Verdict.REFUTED
    (value_at,) = r.counterexample.point.values()    # an exact string such as "4/11"
    value = lhs.subs(x, sp.Rational(value_at))
    assert value.is_Rational and value < 0
    assert "undefined at x = 1/2" in r.detail


def test_true_wherever_defined_stays_undecided_naming_the_point():
    r = _one_step({x: sp.Interval(0, 1), y: sp.Interval(0, 1)},
                  (x ** 2 - y ** 2) / (x - y), "=", x + y)
    assert r.verdict is Verdict.UNDECIDED
    assert "undefined at" in r.detail
