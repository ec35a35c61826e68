r"""symdp.tradeoff.custom: TradeOff(expr) builds a UserTradeOff without running the checker;
the conditions of Prop. 2.2 (Dong, Roth, Su 2022, arXiv 1905.02383v3) stay assumptions.

Reference function, by hand: f = 1 - 2a on [0, 1/4], (2/3)(1 - a) on [1/4, 1]; continuous
(both 1/2 at 1/4), slopes -2 <= -2/3 (convex), f <= 1 - a, f >= 0 -- a trade-off function.
"""

import pytest
import sympy as sp

from symdp.core.errors import InvalidParameterError
from symdp.tradeoff.base import TradeOff, alpha
from symdp.tradeoff.custom import UserTradeOff, prop_2_2_conditions

R = sp.Rational
KINKED = sp.Piecewise((1 - 2 * alpha, alpha <= R(1, 4)), (R(2, 3) * (1 - alpha), True))
CONDITIONS = {"continuous", "convex", "non-increasing", "at most 1 - alpha", "non-negative"}


def _holds(assumption, value):
    """The assumption's claim at one value of its bound variable (exact; None if unbound)."""
    claim = assumption.claim
    for s, _ in assumption.over:
        if not all(bool(w.subs(s, value)) for w in assumption.where):
            return None
        claim = claim.subs(s, value)
    return bool(claim.func(*claim.args))   # re-evaluate the unevaluated relation


def test_construction_does_not_run_the_checker():
    f = TradeOff(KINKED)
    assert isinstance(f, UserTradeOff)
    assert f.validation is None and f.proved_symmetric is False
    names = {name for name, _ in prop_2_2_conditions(f)}
    assert names == CONDITIONS
    assert len(f.assumptions) == len(prop_2_2_conditions(f))


def test_pieces_and_exact_values():
    f = TradeOff(KINKED)
    assert [(p.lo, p.hi) for p in f.pieces()] == [(0, R(1, 4)), (R(1, 4), 1)]
    assert f.evaluate(R(1, 8)) == R(3, 4)              # 1 - 2/8
    assert f(R(1, 2)).doit() == R(1, 3)                # (2/3)(1/2)
    assert f(R(1, 4)).doit() == R(1, 2)


def test_assumptions_of_a_trade_off_function_hold_at_points_of_their_pieces():
    f = TradeOff(KINKED)
    for assumption in f.assumptions:
        for value in (0, R(1, 8), R(1, 4), R(1, 2), 1):
            assert _holds(assumption, value) in (True, None), assumption


def test_an_increasing_function_is_built_and_its_failed_condition_is_recorded():
    f = TradeOff(alpha / 2)               # increasing: not a trade-off function
    failing = [name for name, a in prop_2_2_conditions(f) if _holds(a, R(1, 2)) is False]
    assert failing == ["non-increasing"]   # d/da (a/2) = 1/2 > 0


def test_variable_is_renamed_to_alpha():
    t = sp.Symbol("t")
    f = TradeOff((1 - t) ** 2, variable=t)
    assert f.expr() == (1 - alpha) ** 2
    assert f.evaluate(R(1, 3)) == R(4, 9)


@pytest.mark.parametrize("bad, kwargs", [
    ("1 - alpha", {}),                                           # text is never sympified
    (sp.nan * alpha, {}),
    (1 - alpha, {"variable": "alpha"}),
    (sp.Piecewise((1 - alpha, alpha > R(1, 2)), (0, True)), {}),  # condition not alpha <= c
])
def test_bad_input_is_an_invalid_parameter_error(bad, kwargs):
    with pytest.raises(InvalidParameterError):
        TradeOff(bad, **kwargs)


def test_printing():
    f = TradeOff(1 - alpha ** 2 / 2 - alpha / 2)
    assert str(f) == "TradeOff(-alpha**2/2 - alpha/2 + 1)"
    assert sp.latex(f).startswith(r"\left(\alpha \mapsto ")
