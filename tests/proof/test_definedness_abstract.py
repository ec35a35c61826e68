"""Definedness of issue #28's objects in the kernel's deny-by-default rules (kernel/definedness.py).

An abstract trade-off function f lives on [0, 1] (Dong, Roth, Su 2022, Def. 2.1): ``f(x)``
has a value only for 0 <= x <= 1, so a statement about ``f(x)`` for x in [0, 2] gets no
holding verdict -- even ``f(x) = f(x)``, whose sides are one tree.  The mutant switches the
definedness check off and shows that the same certificate would then hold: the check is what
refuses.  The fixed point of a trade-off function, an abstract mechanism and ``M o Sample_p``
for p in [0, 1] are defined; a rate p outside [0, 1] is not; a trade-off function's value as
the argument of another is in [0, 1] only when the kernel shows the inner function to be a
trade-off function.
"""

from __future__ import annotations

import sympy as sp

from symdp.proof import kernel
from symdp.proof.certificates import Claim, Domain, StructuralCertificate
from symdp.subsampling.mechanism import Mechanism, MechanismTradeOff, SampledMechanism
from symdp.tradeoff.abstract import AbstractTradeOff, FixedPoint
from symdp.tradeoff.operators import Mixture

x = sp.Symbol("x", real=True)
p = sp.Symbol("p", real=True)
f = AbstractTradeOff("f", symmetric=True)


def _same_tree(e, sets):
    """``e = e`` on the domain ``sets``, with the certificate "both sides are one tree"."""
    claim = Claim(e, "=", e, Domain.of(sets))
    return kernel.accept(claim, StructuralCertificate(e, e, "=", "structural"))


def test_f_of_x_holds_on_the_unit_interval():
    assert _same_tree(f(x), {x: sp.Interval(0, 1)}).holds_everywhere


def test_f_of_x_outside_the_unit_interval_gets_no_holding_verdict():
    result = _same_tree(f(x), {x: sp.Interval(0, 2)})
    assert not result.holds_everywhere
    assert "1 - x >= 0 is not shown" in result.detail


def test_mutant_without_the_definedness_check_f_outside_unit_interval_would_hold(monkeypatch):
    monkeypatch.setattr(kernel, "defined_on", lambda sides, domain: "")
    assert _same_tree(f(x), {x: sp.Interval(0, 2)}).holds_everywhere


def test_the_fixed_point_of_a_trade_off_function_is_defined():
    assert _same_tree(f(FixedPoint(f)), {}).holds_everywhere


def test_an_abstract_mechanism_is_looked_into_and_its_sampling_rate_must_be_in_the_unit_interval():
    M = Mechanism("M", dp=f)
    T = MechanismTradeOff(SampledMechanism(M, p))
    assert _same_tree(T(x), {x: sp.Interval(0, 1), p: sp.Interval(0, 1)}).holds_everywhere
    wider = _same_tree(T(x), {x: sp.Interval(0, 1), p: sp.Interval(0, 2)})
    assert not wider.holds_everywhere
    assert "1 - p >= 0 is not shown" in wider.detail


def test_a_value_of_a_trade_off_function_as_argument_needs_the_inner_function_to_be_one():
    # f_p = p f + (1 - p) Id is a trade-off function for p in [0, 1]: f_p(x) in [0, 1]
    inner = Mixture(f, p)(x)
    assert _same_tree(f(inner), {x: sp.Interval(0, 1), p: sp.Interval(0, 1)}).holds_everywhere
    # for p in [0, 2] it is not (f_2(x) = 2 f(x) - 1 + x can exceed 1): the argument's range
    # stays an obligation the kernel cannot show
    wider = _same_tree(f(inner), {x: sp.Interval(0, 1), p: sp.Interval(0, 2)})
    assert not wider.holds_everywhere


def test_the_fixed_point_of_a_function_not_shown_to_be_a_trade_off_function_has_no_rule():
    g = Mixture(f, p)   # a trade-off function for p in [0, 1] only
    assert _same_tree(FixedPoint(g), {p: sp.Interval(0, 1)}).holds_everywhere
    result = _same_tree(FixedPoint(g), {p: sp.Interval(0, 2)})
    assert not result.holds_everywhere
    assert "no definedness rule for FixedPoint" in result.detail
