"""symdp.proof.cascade.monotone: derivative-sign monotonicity proves classical inequalities and
never a false one.

The expected outcomes are the textbook facts: tanh x <= x on [0, 1] (d/dx (x - tanh x) =
tanh(x)**2 >= 0, value 0 at x = 0), e**x >= 1 + x, log(1 + x) <= x; and false claims that
fail at a hand-checked point."""

import sympy as sp

from symdp.proof.cascade.monotone import prove_by_monotonicity

x = sp.Symbol("x", real=True)
mu = sp.Symbol("mu", real=True)


def test_tanh_x_at_most_x_on_the_unit_interval():
    why = prove_by_monotonicity(x - sp.tanh(x), False, {x: sp.Interval(0, 1)})
    assert why and "x = 0" in why


def test_exp_at_least_one_plus_x():
    assert prove_by_monotonicity(sp.exp(x) - 1 - x, False, {x: sp.Interval(0, 5)})


def test_log_one_plus_x_at_most_x():
    assert prove_by_monotonicity(x - sp.log(1 + x), False, {x: sp.Interval(0, 10)})


def test_a_false_claim_is_not_proved():
    # x - tanh(x) > 0 fails at x = 0 (the margin is 0 there), so the strict claim on [0, 1]
    # is false; tanh(x) - x >= 0 fails at x = 1 (tanh 1 = 0.7616 < 1)
    assert prove_by_monotonicity(x - sp.tanh(x), True, {x: sp.Interval(0, 1)}) == ""
    assert prove_by_monotonicity(sp.tanh(x) - x, False, {x: sp.Interval(0, 1)}) == ""


def test_strict_claim_with_an_open_end():
    # on (0, 1] the margin x - tanh(x) is 0 only at the excluded end and strictly increasing
    assert prove_by_monotonicity(x - sp.tanh(x), True, {x: sp.Interval.Lopen(0, 1)})


def test_a_margin_with_a_pole_in_the_domain_is_not_proved():
    # 1/x - 1/2 >= 0 is false on [-1, 2] (the margin is -3/2 at x = -1) and the margin has a
    # pole at 0 that a monotonicity argument must not pass over
    assert prove_by_monotonicity(1 / x - sp.Rational(1, 2), False, {x: sp.Interval(-1, 2)}) == ""


def test_two_parameters_one_at_a_time():
    # exp(x) - exp(x - mu) >= 0 for mu >= 0: nondecreasing in mu, 0 at mu = 0
    assert prove_by_monotonicity(sp.exp(x) - sp.exp(x - mu), False,
                                 {x: sp.Interval(-1, 1), mu: sp.Interval(0, 2)})
