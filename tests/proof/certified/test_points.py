"""symdp.proof.cascade.certified.points: balls at exact points refute tiny differences, accept true
relations, and name the points where a side is not finite.

Expected outcomes come from hand derivations stated at each test, not from the code."""

import sympy as sp

from symdp.numeric.ball_compiler import compile_ball
from symdp.proof.cascade.certified.points import FAILS, HOLDS, NOT_FINITE, certify_at_points

x = sp.Symbol("x", positive=True)


def run(lhs, rhs, relation, values, dps=60):
    points = [{x: sp.Rational(v)} for v in values]
    return certify_at_points(lhs, rhs, relation, points, lhs_fn=compile_ball(lhs, (x,)),
                             rhs_fn=compile_ball(rhs, (x,)), dps=dps)


def test_a_tiny_nonzero_difference_refutes_an_equality():
    # exp(x) - 1 - x = x**2/2 + x**3/6 + ... > 0 for x > 0; at x = 10**-30 the sides differ by
    # about 5e-61, far below the default radius 1e-40 at 60 digits: only a rise in precision
    # tells them apart, and it must.
    result = run(sp.exp(x) - 1, x, "=", ["1/1000000000000000000000000000000"])
    assert result.count(FAILS) == 1 and not result.certified
    assert result.failure.point == {"x": "1/1000000000000000000000000000000"}


def test_an_exact_identity_is_accepted_at_every_point():
    # (x + 1)**2 = x**2 + 2x + 1 identically; cosh(x)**2 - sinh(x)**2 = 1 identically
    assert run((x + 1) ** 2, x ** 2 + 2 * x + 1, "=", ["1/3", "7/2", "1000"]).certified
    result = run(sp.cosh(x) ** 2 - sp.sinh(x) ** 2, sp.Integer(1), "=", ["1/3", "5"])
    assert result.certified and result.count(HOLDS) == 2


def test_inequality_holds_inside_and_fails_outside_its_range():
    # x**2 <= x exactly for 0 <= x <= 1
    assert run(x ** 2, x, "<=", ["1/10", "1/2", "9/10"]).certified
    failed = run(x ** 2, x, "<=", ["1/2", "2", "3"])
    assert failed.failure is not None and failed.failure.point == {"x": "2"}
    # the first certified counterexample ends the run: x = 3 is never looked at
    assert len(failed.checks) == 2


def test_a_tie_is_decided_exactly():
    # x**2 <= x at x = 1 is a tie (1 <= 1): true non-strictly, false strictly
    assert run(x ** 2, x, "<=", ["1"]).certified
    assert run(x ** 2, x, "<", ["1"]).count(FAILS) == 1


def test_a_pole_is_not_finite_and_not_a_verdict():
    # 1/(x - 1) has a pole at x = 1: the point is counted as not evaluable, nothing is claimed
    result = run(1 / (x - 1), sp.Integer(0), "<=", ["1"])
    assert result.count(NOT_FINITE) == 1
    assert not result.certified and result.failure is None
