"""The kernel's rules for convex analysis and f-DP (symdp/proof/kernel/convex.py, issue #28).

* every named lemma is refused outside its hypotheses (one case per lemma);
* every check of a rule, switched off, lets a false statement hold (its truth from exact
  arithmetic, independent of symdp), and with the check on the kernel refuses it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from symdp.proof import kernel
from symdp.proof.certificates import Claim, Domain, Inference, Judgement, LemmaCertificate
from symdp.proof.kernel import convex as K
from symdp.proof.kernel import definedness
from symdp.subsampling.mechanism import Mechanism, MechanismTradeOff, SampledMechanism
from symdp.tradeoff import (AbstractTradeOff, ConjugateAt, ConvexEnvelope, EpsDelta, FixedPoint,
                            Identity, Inverse, InverseAt, Mixture, PointwiseMin, TradeOff,
                            TradeOffAt, Zero)

R = sp.Rational
x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
p = sp.Symbol("p", real=True)
e = sp.Symbol("e", real=True)
UNIT = sp.Interval(0, 1)
D = Domain.of({x: UNIT})
f = AbstractTradeOff("f", symmetric=True)
f_plain = AbstractTradeOff("f")          # a trade-off function, not declared symmetric
M = Mechanism("M", dp=f)
M_plain = Mechanism("M")                  # declares nothing


# a check switched off by a test must not leave what it let through in the kernel's memos
pytestmark = pytest.mark.usefixtures("fresh_kernel_memos")


def lemma(name, premises=(), **data):
    return Inference("lemma", tuple(sorted({"name": name, **data}.items(), key=lambda kv: kv[0])),
                     tuple(premises))


def arith(lhs, rel, rhs, dom, premises=()):
    return Inference("arith", (("goal", Judgement(sp.sympify(lhs), rel, sp.sympify(rhs), dom)),
                               ("method", "z3")), tuple(premises))


def accept(proof, lhs, rel, rhs, dom):
    """The kernel's verdict on the claim ``lhs REL rhs`` with ``proof``."""
    c = LemmaCertificate(sp.sympify(lhs), sp.sympify(rhs), rel, "lemmas", proof=tuple(proof))
    return kernel.accept(Claim(sp.sympify(lhs), rel, sp.sympify(rhs), dom), c)


def refused(inference, premises=()):
    with pytest.raises(K.Refused):
        K._derive(inference, tuple(premises))


# ------------------------------------------------------------------ lemmas outside their hypotheses

def _nonneg_premise():
    return K._derive(lemma("tradeoff_nonneg", g=f, at=x, domain=D), ())


MISUSES = {
    # a point outside [0, 1]
    "tradeoff_nonneg": lambda: lemma("tradeoff_nonneg", g=f, at=x + 1, domain=D),
    "tradeoff_le_id": lambda: lemma("tradeoff_le_id", g=f, at=2 * x, domain=D),
    # a > b
    "tradeoff_antitone": lambda: lemma("tradeoff_antitone", g=f, a=x, b=x / 2, domain=D),
    # lam outside [0, 1]
    "tradeoff_convex": lambda: lemma("tradeoff_convex", g=f, a=x, b=R(1, 2), lam=R(3, 2), domain=D),
    # not a trade-off function
    "fixed_point": lambda: lemma("fixed_point", g=TradeOff(2 * (1 - sp.Symbol("alpha", real=True))),
                                 domain=D),
    "fixed_point_nonneg": lambda: lemma("fixed_point_nonneg", g=Mechanism("N"), domain=D),
    "fixed_point_le_one": lambda: lemma("fixed_point_le_one", g=sp.Integer(2), domain=D),
    # f(1/2) = 1/2 is not shown for an arbitrary f
    "fixed_point_unique": lambda: lemma("fixed_point_unique", g=f, x0=R(1, 2), domain=D),
    # f(x) <= 0 is not shown
    "inverse_le": lambda: lemma("inverse_le", g=f, t=x, a=sp.S.Zero, domain=D),
    # not every t with f(t) <= x is >= 1
    "le_inverse": lambda: lemma("le_inverse", g=f, a=x, bound=sp.S.One, t=t, domain=D),
    # x <= f(0) is not shown
    "apply_inverse": lambda: lemma("apply_inverse", g=f, a=x, domain=D),
    # f = Id on [0, 1] is not shown
    "inverse_congr": lambda: lemma("inverse_congr", g=f, h=Identity(), a=x, t=t, domain=D),
    # f_plain is not declared symmetric
    "symmetric_inverse": lambda: lemma("symmetric_inverse", g=f_plain, a=x, domain=D),
    # an abstract function has no definition
    "unfold": lambda: lemma("unfold", term=TradeOffAt(f, x), domain=D),
    # the point 2 is outside [0, 1]
    "envelope_le": lambda: lemma("envelope_le", h=f, at=sp.Integer(2), domain=D),
    # 1/2 + t/2 <= f(t) is not shown
    "affine_le_envelope": lambda: lemma("affine_le_envelope", h=f, c0=R(1, 2), c1=R(1, 2), at=x,
                                        t=t, domain=D),
    "envelope_convex": lambda: lemma("envelope_convex", h=f, a=x, b=x + 1, lam=R(1, 2), domain=D),
    # f <= Zero on [0, 1] is not shown
    "envelope_mono": lambda: lemma("envelope_mono", h1=f, h2=Zero(), at=x, t=t, domain=D),
    # an unknown object is not a trade-off function
    "envelope_of_tradeoff": lambda: lemma("envelope_of_tradeoff", g=PointwiseMin(f, Identity()),
                                          at=x, domain=D),
    "le_conjugate": lambda: lemma("le_conjugate", g=f, y=x, at=x + 2, domain=D),
    # y t - f(t) <= -1 is not shown
    "conjugate_le": lambda: lemma("conjugate_le", g=f, y=x, bound=sp.Integer(-1), t=t, domain=D),
    "conjugate_of_envelope": lambda: lemma("conjugate_of_envelope", h=Mechanism("N"), y=x,
                                           domain=D),
    # M_plain is not declared f-DP
    "dp_hypothesis": lambda: lemma("dp_hypothesis", mechanism=M_plain, at=x, domain=D),
    "dp_profile_hypothesis": lambda: lemma("dp_profile_hypothesis", mechanism=M, eps=e,
                                           at=x, domain=Domain.of({x: UNIT, e: sp.Interval(0, sp.oo)})),
    # M_plain is not shown (eps, delta)-DP
    "lemma_4_4": lambda: lemma("lemma_4_4", mechanism=M_plain, p=R(1, 2), eps=sp.S.Zero,
                               delta=sp.S.Zero, at=x, domain=D),
    # f_plain is not symmetric
    "prop_2_12_dual": lambda: lemma("prop_2_12_dual", T=MechanismTradeOff(M), k=f_plain, eps=e,
                                    at=x, domain=D),
    "declared_order": lambda: lemma("declared_order", f=f, g=Identity(), at=x, domain=D),
    "declared_profile_condition": lambda: lemma("declared_profile_condition", g=f, eps=e,
                                                domain=Domain.of({e: sp.Interval(0, sp.oo)})),
}


def test_every_lemma_has_a_misuse_case():
    assert set(MISUSES) == set(K.LEMMAS)


@pytest.mark.parametrize("name", sorted(MISUSES))
def test_a_lemma_outside_its_hypotheses_is_refused(name):
    inference = MISUSES[name]()
    try:
        K._derive(inference, ())
    except (K.Refused, TypeError, ValueError, AttributeError):
        return
    pytest.fail(f"{name} was applied outside its hypotheses")


def test_lemmas_carry_a_citation():
    for name, fn in K.LEMMAS.items():
        assert getattr(fn, "citation", ""), name


# ------------------------------------------------------------------ checks switched off

def test_lemma_hypothesis_check_switched_off_lets_a_false_inverse_hold(monkeypatch):
    """inverse_le needs g(t) <= a: with it, Id(0) = 1 <= 1/2 is not shown.  Off, the kernel
    would prove Id^{-1}(1/2) <= 0 -- false: Id^{-1}(1/2) = inf{t : 1 - t <= 1/2} = 1/2."""
    claim = (InverseAt(Identity(), R(1, 2)), "<=", sp.S.Zero)
    proof = [lemma("inverse_le", g=Identity(), t=sp.S.Zero, a=R(1, 2), domain=Domain(()))]
    assert Fraction(1, 2) > 0                      # the truth, exactly
    assert not accept(proof, *claim, Domain(())).holds_everywhere
    K._DERIVED.clear()
    monkeypatch.setattr(K, "_need", lambda *a, **k: None)
    assert accept(proof, *claim, Domain(())).holds_everywhere


def test_arith_entailment_switched_off_lets_a_false_inequality_hold(monkeypatch):
    proof = [arith(x, ">=", R(1, 2), D)]
    assert not accept(proof, x, ">=", R(1, 2), D).holds_everywhere   # false at x = 0
    K._DERIVED.clear()
    monkeypatch.setattr(K, "entails", lambda *a, **k: True)
    assert accept(proof, x, ">=", R(1, 2), D).holds_everywhere


def test_premise_coverage_switched_off_lets_a_premise_of_half_the_domain_hold_on_all(monkeypatch):
    half = Domain.of({x: sp.Interval(0, R(1, 2))})
    proof = [arith(x, "<=", R(1, 2), half), arith(x, "<=", R(1, 2), D, (0,))]
    assert not accept(proof, x, "<=", R(1, 2), D).holds_everywhere   # false at x = 1
    K._DERIVED.clear()
    K._ENTAILS_CACHE.clear()
    monkeypatch.setattr(K, "usable", lambda premise, domain: tuple(premise.domain.conditions))
    assert accept(proof, x, "<=", R(1, 2), D).holds_everywhere


def test_instantiation_membership_switched_off_lets_a_false_instance_hold(monkeypatch):
    """x <= 1 on [0, 1], instantiated at x := 2, would give 2 <= 1."""
    two = Domain(())
    proof = [arith(x, "<=", 1, D),
             Inference("instantiate", (("mapping", ((x, sp.Integer(2)),)), ("domain", two)), (0,))]
    assert not accept(proof, 2, "<=", 1, two).holds_everywhere
    K._DERIVED.clear()
    monkeypatch.setattr(K, "_need", lambda *a, **k: None)
    assert accept(proof, 2, "<=", 1, two).holds_everywhere


def test_instantiation_of_a_conditional_premise_needs_its_condition(monkeypatch):
    """x <= 1/2 on [0, 1] where x <= 1/2, instantiated at x := 1, would give 1 <= 1/2."""
    cond = Domain(((x, UNIT),), (), (sp.Le(x, R(1, 2)),))
    proof = [arith(x, "<=", R(1, 2), cond),
             Inference("instantiate", (("mapping", ((x, sp.S.One),)), ("domain", Domain(()))), (0,))]
    assert not accept(proof, 1, "<=", R(1, 2), Domain(())).holds_everywhere
    K._DERIVED.clear()
    real = K.entails
    monkeypatch.setattr(K, "entails", lambda dom, prem, goal: True if isinstance(goal, sp.Basic)
                        and not isinstance(goal, tuple) else real(dom, prem, goal))
    assert accept(proof, 1, "<=", R(1, 2), Domain(())).holds_everywhere


def test_instantiation_of_a_conditional_premise_needs_its_condition(monkeypatch):
    """x <= 1/2 on [0, 1] where x <= 1/2, instantiated at x := 1, would give 1 <= 1/2."""
    cond = Domain(((x, UNIT),), (), (sp.Le(x, R(1, 2)),))
    proof = [arith(x, "<=", R(1, 2), cond),
             Inference("instantiate", (("mapping", ((x, sp.S.One),)), ("domain", Domain(()))), (0,))]
    assert not accept(proof, 1, "<=", R(1, 2), Domain(())).holds_everywhere
    K._DERIVED.clear()
    monkeypatch.setattr(K, "_holds", lambda *a, **k: True)
    assert accept(proof, 1, "<=", R(1, 2), Domain(())).holds_everywhere


def test_rewrite_needs_the_equality_on_the_whole_domain(monkeypatch):
    """Id(x) = 0 holds where x >= 1 only; rewriting 'Id(x) = 1 - x' on [0, 1] with it would
    give 0 = 1 - x, false at x = 0."""
    g = Identity()
    at_one = Domain(((x, UNIT),), (), (sp.Ge(x, 1),))
    proof = [lemma("unfold", term=TradeOffAt(g, x), domain=at_one),
             arith(TradeOffAt(g, x), "=", 0, at_one, (0,)),
             lemma("unfold", term=TradeOffAt(g, x), domain=D),
             Inference("rewrite", (("backward", False),), (2, 1))]
    assert not accept(proof, 0, "=", 1 - x, D).holds_everywhere
    K._DERIVED.clear()
    monkeypatch.setattr(K, "_holds", lambda *a, **k: True)
    assert accept(proof, 0, "=", 1 - x, D).holds_everywhere


def test_cases_must_cover_the_domain(monkeypatch):
    lower = Domain(((x, UNIT),), (), (sp.Le(x, R(1, 2)),))
    proof = [arith(x, "<=", R(1, 2), lower),
             Inference("cases", (("domain", D),), (0,))]
    assert not accept(proof, x, "<=", R(1, 2), D).holds_everywhere    # false at x = 1
    K._DERIVED.clear()
    monkeypatch.setattr(K, "_holds", lambda *a, **k: True)
    assert accept(proof, x, "<=", R(1, 2), D).holds_everywhere


def test_tradeoff_check_switched_off_lets_a_non_trade_off_function_below_id(monkeypatch):
    """g(x) = 2(1 - x) is not a trade-off function; tradeoff_le_id would say g(1/2) <= 1/2,
    while g(1/2) = 1 exactly."""
    alpha = sp.Symbol("alpha", real=True)
    g = TradeOff(2 * (1 - alpha))
    claim = (TradeOffAt(g, R(1, 2)), "<=", R(1, 2))
    proof = [lemma("tradeoff_le_id", g=g, at=R(1, 2), domain=Domain(()))]
    assert not accept(proof, *claim, Domain(())).holds_everywhere
    K._DERIVED.clear()
    monkeypatch.setattr(K, "tradeoff_reason", lambda *a, **k: "off")
    # the definedness rules refuse the Lambda of a custom g on their own (no rule for it):
    # let it through, so that only the trade-off check stands between g and the false claim
    original = definedness._hazards
    monkeypatch.setattr(definedness, "_hazards", lambda e, *a: [] if isinstance(e, sp.Lambda)
                        else original(e, *a))
    assert accept(proof, *claim, Domain(())).holds_everywhere
    assert 2 * (1 - Fraction(1, 2)) == 1 > Fraction(1, 2)


def test_symmetry_check_switched_off_lets_an_asymmetric_inverse_equal_the_function(monkeypatch):
    """g = f_{1/2} for f = f_{log 4, 0} is not symmetric: g(1/2) = 5/16 but g^{-1}(1/2) = 1/5
    (g = 1 - 5t/2 on [0, 1/5]: exact)."""
    g = Mixture(EpsDelta(sp.log(4), 0), R(1, 2))
    claim = (InverseAt(g, R(1, 2)), "=", TradeOffAt(g, R(1, 2)))
    proof = [lemma("symmetric_inverse", g=g, a=R(1, 2), domain=Domain(()))]
    assert not accept(proof, *claim, Domain(())).holds_everywhere
    K._DERIVED.clear()
    monkeypatch.setattr(K, "symmetric_reason", lambda *a, **k: "off")
    assert accept(proof, *claim, Domain(())).holds_everywhere
    # the truth: g(1/2) = (1/2)(1 - 1/2)/4 + (1/2)(1/2) = 5/16; g(1/5) = 1/2
    assert Fraction(1, 2) * Fraction(1, 2) / 4 + Fraction(1, 4) == Fraction(5, 16)
    assert 1 - Fraction(5, 2) * Fraction(1, 5) == Fraction(1, 2)


def test_the_claim_must_be_the_last_judgement(monkeypatch):
    proof = [arith(x, "<=", 1, D)]
    assert not accept(proof, x, "<=", R(1, 2), D).holds_everywhere    # false at x = 1
    monkeypatch.setattr(K, "_same_sides", lambda judgement, claim: True)
    assert accept(proof, x, "<=", R(1, 2), D).holds_everywhere


def test_a_weaker_relation_does_not_prove_a_strict_claim(monkeypatch):
    proof = [arith(x, "<=", 1, D)]
    assert not accept(proof, x, "<", 1, D).holds_everywhere          # false at x = 1
    monkeypatch.setattr(K, "_implies", lambda have, want: True)
    assert accept(proof, x, "<", 1, D).holds_everywhere


def test_the_conclusion_must_cover_the_steps_domain(monkeypatch):
    lower = Domain(((x, UNIT),), (), (sp.Le(x, R(1, 2)),))
    proof = [arith(x, "<=", R(1, 2), lower)]
    assert not accept(proof, x, "<=", R(1, 2), D).holds_everywhere
    monkeypatch.setattr(K, "_holds", lambda *a, **k: True)
    assert accept(proof, x, "<=", R(1, 2), D).holds_everywhere


def test_a_claim_at_a_point_outside_unit_interval_is_refused(monkeypatch):
    """f(x + 1) on x in [0, 1] is undefined (f lives on [0, 1]); with the check off the kernel
    would prove a statement about it."""
    claim = (TradeOffAt(f, x + 1), "=", TradeOffAt(f, x + 1))
    proof = [arith(*claim, D)]
    assert not accept(proof, *claim, D).holds_everywhere
    monkeypatch.setattr(K, "_arguments_in_unit", lambda *a, **k: None)
    # the definedness rule of f(y) (0 <= y <= 1, kernel/definedness.py) refuses it too: both
    # checks must be off for the false "holds"
    assert not accept(proof, *claim, D).holds_everywhere
    monkeypatch.setattr(definedness, "_in", lambda *a, **k: [])
    assert accept(proof, *claim, D).holds_everywhere


# ------------------------------------------------------------------ z3 arithmetic

def test_exp_facts_are_sound_and_used():
    E = sp.exp(e)
    dom = Domain.of({e: sp.Interval.open(0, sp.oo)})
    assert K.entails(dom, (), (E, ">", 1))
    assert K.entails(dom, (), (E * sp.exp(-e), "=", 1))
    assert not K.entails(dom, (), (E, ">", 2))                     # false at e = 1/10
    assert K.entails(Domain(()), (), (sp.exp(3), ">", 20))
    assert not K.entails(Domain(()), (), (sp.exp(3), ">", R(201, 10)))   # e^3 = 20.0855...
    assert K.entails(Domain(()), (), (sp.E * sp.exp(-1), "=", 1))


def test_congruence_of_a_function_at_equal_points():
    y = sp.Symbol("y", real=True)
    dom = Domain(((x, UNIT), (y, UNIT)), (), (sp.Eq(x, y),))
    assert K.entails(dom, (), (TradeOffAt(f, x), "=", TradeOffAt(f, y)))
    assert not K.entails(Domain.of({x: UNIT, y: UNIT}), (), (TradeOffAt(f, x), "=", TradeOffAt(f, y)))


def test_a_piecewise_without_default_is_not_encoded():
    pw = sp.Piecewise((x, x < R(1, 2)))
    assert not K.entails(D, (), (pw, "<=", R(1, 2)))
