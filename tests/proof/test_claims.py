"""Claims about trade-off functions in the proof layer (issues #12, #13): dominance, symmetry
and Prop. 2.2 say their scope; objects are built without the checker."""

import warnings

import pytest
import sympy as sp

import symdp
from symdp import InvalidParameterError, NotATradeOffFunctionError
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof.claims import dominates, is_symmetric, validate_tradeoff
from symdp.tradeoff import Gaussian, Identity, alpha
from symdp.tradeoff.custom import UndecidedConditionWarning


def test_dominates_orders_families_and_refutes_the_reverse():
    assert dominates(Identity(), Gaussian(1)).verdict.supports
    r = dominates(Gaussian(1), Gaussian(2))
    assert r.verdict.supports
    # the scope is stated: evidence at points never reads as dominance that holds
    if not r.holds_everywhere:
        assert r.evidence_only and "points only" in r.scope and "holds" not in r.scope
    r = dominates(Gaussian(2), Gaussian(1))
    assert r.verdict is Verdict.REFUTED and r.counterexample is not None
    with pytest.raises(InvalidParameterError, match="domain for mu"):
        dominates(Gaussian(sp.Symbol("mu")), Gaussian(1))


def test_a_step_result_has_no_truth_value():
    with pytest.raises(TypeError, match="holds_everywhere"):
        bool(dominates(Identity(), Gaussian(1)))


def test_is_symmetric_decides_with_the_engine():
    assert is_symmetric(Gaussian(sp.Rational(3, 2))) is True         # by construction
    assert is_symmetric(Gaussian(1).mix(sp.Rational(1, 2))) is False  # f_p is not symmetric


def test_objects_have_no_checker_methods():
    assert not hasattr(Gaussian(1), "dominates") and not hasattr(Gaussian(1), "is_symmetric")


KINKED = sp.Piecewise((1 - 2 * alpha, alpha <= sp.Rational(1, 3)), ((1 - alpha) / 2, True))


def test_validate_tradeoff_checks_prop_2_2_and_symmetry():
    good = validate_tradeoff(KINKED)
    assert {c.verdict for c in good.validation} == {"PROVED"}
    assert all(c.holds_everywhere for c in good.validation) and good.assumptions == ()
    # 1 - 2a and (1 - a)/2 are inverse to each other: f = f^{-1}, so Eq. 14 applies
    assert good.proved_symmetric and symdp.subsample(good, sp.Rational(1, 2)).has_closed_form
    for expr, reason in [(1 - alpha ** 2, "not convex"), (alpha, "not non-increasing"),
                         (1 - alpha + sp.Rational(1, 10), "not at most 1 - alpha")]:
        with pytest.raises(NotATradeOffFunctionError) as info:
            validate_tradeoff(expr)
        assert reason in str(info.value) and "fails at" in str(info.value)


def test_validate_tradeoff_needs_domains_for_parameters():
    c = sp.Symbol("c")
    with pytest.raises(InvalidParameterError, match="domain for the parameter"):
        validate_tradeoff(c * (1 - alpha))


def test_unproved_condition_warns_with_its_scope_and_stays_an_assumption():
    c = sp.Symbol("c")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            f = validate_tradeoff((1 - alpha) ** (1 + c), domains={c: sp.Interval(0, 1)})
        except NotATradeOffFunctionError:
            pytest.skip("the cascade refutes a true condition: a matter for the engine")
    open_ = [x for x in f.validation if not x.holds_everywhere]
    if not open_:
        assert f.assumptions == ()
        return
    assert any(issubclass(w.category, UndecidedConditionWarning) for w in caught)
    assert {a for a in f.assumptions} and all("Prop. 2.2" in a.reason for a in f.assumptions)
    with pytest.raises(NotATradeOffFunctionError, match="not shown for every value"):
        validate_tradeoff((1 - alpha) ** (1 + c), domains={c: sp.Interval(0, 1)}, strict=True)


def test_an_unvalidated_trade_off_carries_prop_2_2_into_every_derivation_using_it():
    f = symdp.TradeOff(1 - alpha ** 2)  # not convex: built without the checker, not validated
    assert f.validation is None and {a.reason for a in f.assumptions}
    d = Derivation("uses_f", "f <= 1", "test", {alpha: sp.Interval(0, 1)},
                   (Step(f(alpha), "<=", 1, "f <= 1"),))
    r = check_derivation(d, points=8).steps[0]
    assert r.verdict.supports and not r.holds_everywhere
    assert any("-2 >= 0" in h for h in r.hypotheses)  # the convexity it does not have
    assert "REFUTED at" in r.detail


def test_a_validation_holds_over_its_domains_only():
    """Issue #19: the validation cache was keyed by the expression alone, so a validation of
    c (1 - alpha) over c in [0, 1/2] made every later TradeOff(c (1 - alpha)) look validated;
    but f <= 1 - alpha fails for every c > 1 (at alpha = 0, f(0) = c > 1)."""
    c = sp.Symbol("c")
    f = validate_tradeoff(c * (1 - alpha), domains={c: sp.Interval(0, sp.Rational(1, 2))})
    assert f.validation is not None and f.assumptions == ()
    half = symdp.TradeOff(c * (1 - alpha), domains={c: sp.Interval(0, sp.Rational(1, 2))})
    assert half.validation == f.validation  # the same function over the same domain
    for g in (symdp.TradeOff(c * (1 - alpha)),
              symdp.TradeOff(c * (1 - alpha), domains={c: sp.Interval(0, 2)})):
        assert g.validation is None and not g.proved_symmetric
        claims = {sp.sstr(a.claim) for a in g.assumptions}
        assert any("<= 1 - " in text for text in claims), claims  # f <= 1 - alpha is carried
    # used over c in [0, 2], the object's Prop. 2.2 condition is carried, refuted at c > 1
    for h in (symdp.TradeOff(c * (1 - alpha)), f):
        d = Derivation("uses_g", "g >= 0", "test", {alpha: sp.Interval(0, 1), c: sp.Interval(0, 2)},
                       (Step(h(alpha), ">=", 0, "g >= 0"),))
        r = check_derivation(d, points=8).steps[0]
        assert not r.holds_everywhere and any("<= 1 - alpha" in t for t in r.hypotheses), r.detail
        cx = r.detail.split("REFUTED at ")[1].split(":")[0]
        assert sp.Rational(cx.split("c=")[1].split(",")[0]) > 1, cx
    # a parameter-free function's validation does not depend on any domain
    validate_tradeoff(KINKED)
    assert symdp.TradeOff(KINKED).validation is not None
    assert symdp.TradeOff(KINKED, domains={c: sp.Interval(0, 2)}).validation is not None


def _continuity(f):
    return next(c for c in f.validation if c.condition == "continuous")


def test_continuity_of_a_piece_with_a_parameter_goes_through_the_kernel():
    """(1 - a)^2 / (1 - c a): a pole at a = 1/c, inside [0, 1] for c >= 1.  Truth by direct
    evaluation (mpmath, 30 digits): at c = 2 the values on either side of a = 1/2 differ by
    more than 10^8, so f is not continuous for every c in [0, 2]; for c in [0, 1/2] the
    denominator stays >= 1/2."""
    import mpmath

    c = sp.Symbol("c", real=True)
    g = lambda a, cv: (1 - a) ** 2 / (1 - cv * a)   # noqa: E731
    with mpmath.workdps(30):
        h = mpmath.mpf(10) ** -9
        assert abs(g(mpmath.mpf(1) / 2 - h, 2) - g(mpmath.mpf(1) / 2 + h, 2)) > 10 ** 8
    expr = (1 - alpha) ** 2 / (1 - c * alpha)
    with pytest.raises(NotATradeOffFunctionError, match="not continuous.*undefined at"):
        validate_tradeoff(expr, domains={c: sp.Interval(0, 2)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndecidedConditionWarning)
        f = validate_tradeoff(expr, domains={c: sp.Interval(0, sp.Rational(1, 2))})
    cont = _continuity(f)
    assert cont.verdict == "PROVED" and cont.holds_everywhere and "continuous in alpha" in cont.detail


def test_pieces_that_meet_only_for_some_parameter_values_are_not_continuous():
    """1 - a on [0, 1/2], c (1 - a) after: the pieces meet at a = 1/2 only for c = 1 (left
    1/2, right c/2; at c = 1/2: 1/4 != 1/2, exactly)."""
    from fractions import Fraction

    c = sp.Symbol("c", real=True)
    assert 1 - Fraction(1, 2) != Fraction(1, 2) * (1 - Fraction(1, 2))
    expr = sp.Piecewise((1 - alpha, alpha <= sp.Rational(1, 2)), (c * (1 - alpha), True))
    with pytest.raises(NotATradeOffFunctionError, match="continuous"):
        validate_tradeoff(expr, domains={c: sp.Interval(sp.Rational(1, 2), 1)})


def test_a_function_the_kernel_does_not_know_to_be_continuous_is_not_proved_continuous():
    # floor(2a)/4 + (1 - a)/2 jumps by 1/4 at a = 1/2 (the floor is 0 just below, 1 at 1/2);
    # asked of the kernel directly, since validate_tradeoff refutes this function on another
    # condition first (f(1) = 1/2 > 0)
    from symdp.proof import kernel
    from symdp.proof.certificates import Claim, ContinuityCertificate, Domain

    g = sp.floor(2 * alpha) / 4 + (1 - alpha) / 2
    below, at = sp.Rational(1, 2) - sp.Rational(1, 10 ** 9), sp.Rational(1, 2)
    assert g.subs(alpha, at) - g.subs(alpha, below) > sp.Rational(1, 5)     # the jump, exactly
    domain = Domain.of({alpha: sp.Interval(0, 1)})
    result = kernel.accept(Claim.continuity(g, alpha, domain),
                           ContinuityCertificate(g, g, "=", "continuity", variable=alpha))
    assert not result.holds_everywhere
    # the same certificate for a continuous function is accepted (the test can fail)
    h = (1 - alpha) / 2
    ok = kernel.accept(Claim.continuity(h, alpha, domain),
                       ContinuityCertificate(h, h, "=", "continuity", variable=alpha))
    assert ok.holds_everywhere
