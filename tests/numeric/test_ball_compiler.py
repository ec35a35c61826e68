"""Ball results contain 60-digit mpmath references, for every supported function, tails included."""

import mpmath
import pytest
import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p

pytest.importorskip("flint")

from symdp import Gaussian, Phi, PhiInv  # noqa: E402
from symdp.numeric.balls import arb, fmpq, hull, interval, working_bits  # noqa: E402
from symdp.numeric.ball_compiler import (UnsupportedExpression, compile_ball,  # noqa: E402
                                      evaluate_ball)
from symdp.core.special import mp_phi, mp_phi_inv  # noqa: E402
from symdp.tradeoff.base import InverseAt  # noqa: E402

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
R = sp.Rational


def _contains(ball, reference) -> bool:
    """Does the ball contain the mpmath reference (as an exact decimal string at 60 digits)?"""
    with working_bits(400):
        ref = arb(mpmath.nstr(reference, 70, strip_zeros=False))
        # the reference is good to 60 digits: widen it by 1e-57 relative (a 60-digit test)
        ref = arb(ref.mid(), abs(ref.mid()) * arb(10) ** -57 + arb(10) ** -400)
    return ball.overlaps(ref) and ball.rad() < abs(ref.mid()) * arb(10) ** -40 + arb(10) ** -300


# (expression, mpmath function of x, points)
CASES = [
    (sp.exp(x), mpmath.exp, [R(-700), R(-1, 3), 0, R(5, 7), R(300)]),
    (sp.log(x), mpmath.log, [R(1, 10 ** 30), R(1, 3), 1, R(10 ** 20)]),
    (log1p(x), mpmath.log1p, [R(1, 10 ** 40), R(-1, 10 ** 25), R(1, 3), R(-1, 2), R(1000)]),
    (expm1(x), mpmath.expm1, [R(1, 10 ** 40), R(-1, 10 ** 25), R(1, 3), R(-20)]),
    (sp.erf(x), mpmath.erf, [R(-6), R(1, 10 ** 30), R(1, 3), R(5)]),
    (sp.erfc(x), mpmath.erfc, [R(-3), R(1, 3), R(10), R(25)]),
    (sp.erfinv(x), mpmath.erfinv, [R(-99, 100), R(1, 10 ** 20), R(1, 3), 1 - R(1, 10 ** 30)]),
    (sp.erfcinv(x), mpmath.erfinv and (lambda v: mpmath.erfinv(1 - v)),
     [R(1, 10 ** 50), R(1, 3), R(3, 2)]),
    (Phi(x), mp_phi, [R(-30), R(-38), R(-1, 3), 0, R(2), R(8)]),
    (PhiInv(x), mp_phi_inv, [R(1, 10 ** 50), R(1, 10 ** 12), R(1, 3), R(1, 2) + R(1, 10 ** 20),
                             R(999, 1000), 1 - R(1, 10 ** 30)]),
    (sp.sqrt(x), mpmath.sqrt, [R(2), R(1, 10 ** 30), R(10 ** 40)]),
    (x ** R(3, 2), lambda v: v ** mpmath.mpf(1.5), [R(2), R(1, 7)]),
    (x ** x, lambda v: v ** v, [R(1, 3), R(5, 2)]),
    (sp.binomial(x, 3), lambda v: mpmath.binomial(v, 3), [R(10), R(7, 2), R(60000)]),
    (sp.gamma(x), mpmath.gamma, [R(1, 3), R(30)]),
    (sp.Max(x, 1 - x), lambda v: max(v, 1 - v), [R(1, 3), R(5, 7)]),
    (sp.Abs(x - R(1, 2)), lambda v: abs(v - mpmath.mpf(1) / 2), [R(1, 3), R(5, 7)]),
    (sp.Piecewise((1 - sp.exp(1) * x, x <= R(1, 4)), (sp.exp(-1) * (1 - x), True)),
     lambda v: 1 - mpmath.e * v if v <= 0.25 else mpmath.exp(-1) * (1 - v), [R(1, 5), R(1, 3)]),
]


@pytest.mark.parametrize("expr, reference, points", CASES, ids=[str(c[0])[:30] for c in CASES])
def test_ball_contains_sixty_digit_reference(expr, reference, points):
    for v in points:
        v = sp.Rational(v)
        ball = evaluate_ball(expr, {x: v}, bits=260)
        with mpmath.workdps(120):  # 120 digits in, compared to 57: a 60-digit reference
            ref = reference(mpmath.mpf(v.p) / v.q)
        assert ball.is_finite(), (expr, v)
        assert _contains(ball, ref), (expr, v, ball, ref)


def test_phi_tail_and_phi_inv_of_tiny_are_accurate():
    ball = evaluate_ball(Phi(x), {x: -30}, bits=200)
    assert ball.rel_accuracy_bits() > 150  # no cancellation in the tail
    z = evaluate_ball(PhiInv(x), {x: R(1, 10 ** 50)}, bits=200)
    assert z.rel_accuracy_bits() > 150


def test_inverse_at_is_isolated_by_certified_bisection():
    f = Gaussian(R(1))
    ball = evaluate_ball(InverseAt(f, x), {x: R(1, 3)}, bits=160)
    with mpmath.workdps(60):
        ref = mpmath.mpf(1) - mp_phi(mp_phi_inv(mpmath.mpf(1) / 3) + 1)  # G_1^{-1} = G_1
    assert _contains(ball, ref)


def test_tradeoff_at_goes_through_its_closed_form():
    f = Gaussian(y)
    ball = evaluate_ball(f(x), {x: R(1, 5), y: R(1, 2)}, bits=200)
    with mpmath.workdps(60):
        ref = mp_phi(mp_phi_inv(1 - mpmath.mpf(1) / 5) - mpmath.mpf(1) / 2)
    assert _contains(ball, ref)


def test_wide_ball_encloses_every_value():
    fn = compile_ball(sp.exp(x) * Phi(-x) - x ** 2, [x])
    with working_bits(64):
        ball = fn({x: interval(0, 1)})
    with mpmath.workdps(30):
        for i in range(101):
            t = mpmath.mpf(i) / 100
            value = mpmath.exp(t) * mp_phi(-t) - t ** 2
            assert ball.lower() <= arb(mpmath.nstr(value, 25)) <= ball.upper()


def test_piecewise_straddling_a_condition_takes_both_branches():
    fn = compile_ball(sp.Piecewise((x, x < 1), (2 * x, True)), [x])
    with working_bits(64):
        ball = fn({x: interval(R(1, 2), R(3, 2))})
    assert ball.lower() <= R(1, 2) and ball.upper() >= 3


def test_hull_keeps_an_exact_endpoint():
    with working_bits(64):
        b = hull(arb(0), arb(fmpq(1, 3)))
        assert b >= 0 and b.lower() == 0
        e = hull(arb(1), arb(fmpq(1, 10)).exp())
        assert (e - 1) >= 0


def test_unsupported_node_is_named():
    with pytest.raises(UnsupportedExpression, match="unsupported Integral"):
        compile_ball(sp.Integral(x, (x, 0, 1)) + x, [x])
    with pytest.raises(UnsupportedExpression, match="symbol y"):
        compile_ball(x + y, [x])


def test_domain_edges_give_non_finite_balls_not_values():
    assert not evaluate_ball(sp.log(x), {x: 0}).is_finite()
    assert not evaluate_ball(1 / x, {x: 0}).is_finite()
    assert not evaluate_ball(sp.sqrt(x), {x: -1}).is_finite()
