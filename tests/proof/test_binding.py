"""A verdict is bound to the statement it is about (issue #27, items 1 and 2).

``kernel.accept(claim, certificate)`` seals a verdict only when the certificate proves *that*
claim: its relation proves the claim's, its sides are the written ones or are shown equal to
them by a rule of the kernel (definitions, a checked conjugate, SymPy's evaluation compared at
points), a mapping is a renaming, a box's main search is of the claim's margin.  For each
check, a mutation test switches it off and shows a false statement turning into a false
"holds" (the pattern of test_kernel_mutations.py).  Truth is established here without symdp:
exact rational arithmetic, ``math.comb``, mpmath at 50 digits with mpmath's own normal law.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp import EpsDelta, Gaussian, Inverse, Laplace, Mixture, TradeOff
from symdp.core.special import Phi, PhiInv
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof import kernel
from symdp.proof.cascade.unfold import conjugate_evidence
from symdp.proof.certificates import (BoxCertificate, BoxSearch, Claim, ContinuityCertificate,
                                      Domain, StructuralCertificate, SymbolicCertificate,
                                      Unfolding)
from symdp.proof.kernel import closed_forms, conjugate
from symdp.tradeoff import ConjugateAt
from symdp.tradeoff.base import alpha

x, y = sp.symbols("x y", real=True)
UNIT = sp.Interval(0, 1)
ZERO = sp.S.Zero


def _on_unit(*symbols) -> Domain:
    return Domain.of({s: UNIT for s in symbols})


# ------------------------------------------------------------------ the API

def test_accept_takes_a_claim_and_a_certificate():
    cert = StructuralCertificate(x, x, "=", "structural")
    with pytest.raises(TypeError, match="Claim"):
        kernel.accept(cert, _on_unit(x))


def test_the_token_carries_the_claim_it_was_issued_for():
    claim = Claim(x, "<=", x, _on_unit(x))
    r = kernel.accept(claim, StructuralCertificate(x, x, "<=", "structural"))
    assert r.verdict is Verdict.PROVED and r.acceptance.claim == claim
    assert kernel.bound_to(r.acceptance, claim)
    assert not kernel.bound_to(r.acceptance, Claim(x, "<=", x, Domain.of({x: sp.Interval(0, 2)})))


def test_a_continuity_certificate_proves_only_continuity():
    g = 1 - x
    cert = ContinuityCertificate(g, g, "=", "continuity", variable=x)
    assert kernel.accept(Claim.continuity(g, x, _on_unit(x)), cert).holds_everywhere
    assert not kernel.accept(Claim(g, "=", g, _on_unit(x)), cert).holds_everywhere


# ------------------------------------------------------------------ 1. the claim, not the certificate's

def test_a_certificate_of_zero_equals_zero_does_not_prove_the_step():
    claim = Claim(x, "=", sp.S.One, _on_unit(x))
    r = kernel.accept(claim, StructuralCertificate(ZERO, ZERO, "=", "structural"))
    assert not r.holds_everywhere and "does not prove the claim" in r.detail


def test_binding_the_sides_is_load_bearing(monkeypatch):
    """x = 1 on [0, 1] is false at x = 0 (0 != 1); a certificate of 0 = 0 is handed in."""
    assert Fraction(0) != Fraction(1)
    claim = Claim(x, "=", sp.S.One, _on_unit(x))
    cert = StructuralCertificate(ZERO, ZERO, "=", "structural")
    assert not kernel.accept(claim, cert).holds_everywhere
    monkeypatch.setattr(closed_forms, "bind_side",
                        lambda written, side, unfoldings, domain: ("", written, (), ()))
    assert kernel.accept(claim, cert).holds_everywhere


def test_a_certificate_of_x_le_x_does_not_prove_x_lt_x():
    r = kernel.accept(Claim(x, "<", x, _on_unit(x)), StructuralCertificate(x, x, "<=", "structural"))
    assert not r.holds_everywhere and "does not prove <" in r.detail


def test_the_relation_check_is_load_bearing(monkeypatch):
    """x < x is false at every point (0 < 0 is false)."""
    assert not Fraction(0) < Fraction(0)
    claim, cert = Claim(x, "<", x, _on_unit(x)), StructuralCertificate(x, x, "<=", "structural")
    assert not kernel.accept(claim, cert).holds_everywhere
    monkeypatch.setitem(closed_forms.PROVES, "<=", ("<=", "<"))
    assert kernel.accept(claim, cert).holds_everywhere


def test_an_equality_proves_the_inequalities_and_a_strict_one_the_weak_one():
    cert = SymbolicCertificate(x + 1, x, ">", "symbolic", "simplify", sp.S.One)
    assert kernel.accept(Claim(x + 1, ">=", x, _on_unit(x)), cert).holds_everywhere
    eq = StructuralCertificate(x, x, "=", "structural")
    assert kernel.accept(Claim(x, "<=", x, _on_unit(x)), eq).holds_everywhere


def test_a_stage_cannot_return_a_verdict_about_another_claim(monkeypatch):
    """check_step refuses a token issued for another claim (TypeError); with that check off,
    x = 1 on [0, 1] -- false at x = 0 -- would hold."""
    real_accept = kernel.accept

    def elsewhere(claim, certificate):   # a door that judges a statement of its own choosing
        other = Claim(ZERO, "=", ZERO, claim.domain)
        return real_accept(other, StructuralCertificate(ZERO, ZERO, "=", "structural"))

    import symdp.proof.check as check

    d = Derivation("t", "t", "test", {x: UNIT}, (Step(x, "=", sp.S.One, "test"),))
    monkeypatch.setattr(kernel, "accept", elsewhere)
    monkeypatch.setattr(check, "structural_certificate",   # a stage that proposes anyway
                        lambda step: StructuralCertificate(step.lhs, step.lhs, "=", "structural"))
    with pytest.raises(TypeError, match="not for the step's claim"):
        _check_step(d)
    monkeypatch.setattr(kernel, "require_bound", lambda result, claim: result)
    assert _check_step(d).holds_everywhere


def _check_step(d):
    from symdp.proof.check import check_step

    return check_step(d.steps[0], d, 0, search=False)


# ------------------------------------------------------------------ renaming

def test_a_mapping_that_merges_two_symbols_is_refused():
    t = sp.Dummy("t", real=True)
    cert = SymbolicCertificate(x, y, "=", "symbolic", "simplify", ZERO, mapping=((x, t), (y, t)))
    r = kernel.accept(Claim(x, "=", y, _on_unit(x, y)), cert)
    assert not r.holds_everywhere and "not injective" in r.detail


def test_the_renaming_check_is_load_bearing(monkeypatch):
    """x = y on [0, 1]^2 is false at (0, 1)."""
    assert Fraction(0) != Fraction(1)
    t = sp.Dummy("t", real=True)
    cert = SymbolicCertificate(x, y, "=", "symbolic", "simplify", ZERO, mapping=((x, t), (y, t)))
    claim = Claim(x, "=", y, _on_unit(x, y))
    assert not kernel.accept(claim, cert).holds_everywhere
    monkeypatch.setattr(kernel, "renaming_error", lambda mapping, sides: "")
    monkeypatch.setattr(closed_forms, "violated_at", lambda *a, **k: "")   # the second look too
    assert kernel.accept(claim, cert).verdict is Verdict.PROVED


def test_a_mapping_onto_a_symbol_of_the_claim_is_refused():
    cert = SymbolicCertificate(x, y, "=", "symbolic", "simplify", ZERO, mapping=((x, y),))
    assert "not a fresh symbol" in kernel.accept(Claim(x, "=", y, _on_unit(x, y)), cert).detail


# ------------------------------------------------------------------ a box of another margin

def _box_of(lhs, rhs, searched_rhs):
    whole = ((Fraction(0), Fraction(1)),)
    search = BoxSearch(lhs, searched_rhs, "<=", ((x, x, Fraction(0), Fraction(1), False, None),),
                       None, ((whole, "decided", None),))
    return BoxCertificate(lhs, rhs, "<=", "certified", searches=(search,), bits=80)


def test_a_box_whose_search_is_of_another_margin_is_refused():
    cert = _box_of(x, sp.Rational(1, 2), sp.Integer(2))
    r = kernel.accept(Claim(x, "<=", sp.Rational(1, 2), _on_unit(x)), cert)
    assert not r.holds_everywhere and "no search is of the claim's margin" in r.detail
    # the same search for its own margin is accepted (the test can fail)
    two = sp.Integer(2)
    assert kernel.accept(Claim(x, "<=", two, _on_unit(x)), _box_of(x, two, two)
                         ).verdict is Verdict.CERTIFIED


def test_the_main_search_check_is_load_bearing(monkeypatch):
    """x <= 1/2 on [0, 1] is false at x = 1; the box searched x <= 2."""
    assert Fraction(1) > Fraction(1, 2)
    claim, cert = Claim(x, "<=", sp.Rational(1, 2), _on_unit(x)), _box_of(x, sp.Rational(1, 2),
                                                                          sp.Integer(2))
    assert not kernel.accept(claim, cert).holds_everywhere
    monkeypatch.setattr(kernel, "_same_relation", lambda searched, target: True)
    assert kernel.accept(claim, cert).verdict is Verdict.CERTIFIED


# ------------------------------------------------------------------ unfoldings

def _gaussian_inverse_at_half_50_digits():
    """G_1^{-1}(1/2) = G_1(1/2) = Phi(Phi^-1(1/2) - 1) = Phi(-1) (G_mu is symmetric), by
    mpmath's own ncdf at 50 digits: 0.1586..., not 1/2."""
    with mpmath.workdps(50):
        return mpmath.ncdf(-1)


def _inverse_claim():
    node = Inverse(Gaussian(1))(alpha)
    return node, Claim(node, "=", 1 - alpha, Domain.of({alpha: UNIT}))


def test_an_unfolding_by_a_rule_the_kernel_does_not_have_for_the_node_is_refused():
    node, claim = _inverse_claim()
    assert abs(_gaussian_inverse_at_half_50_digits() - mpmath.mpf(1) / 2) > mpmath.mpf("0.3")
    cert = StructuralCertificate(1 - alpha, 1 - alpha, "=", "structural",
                                 unfoldings=(Unfolding(node, 1 - alpha, "definition"),))
    r = kernel.accept(claim, cert)
    assert not r.holds_everywhere and "not a kernel rule" in r.detail


def test_the_rule_check_of_unfoldings_is_load_bearing(monkeypatch):
    """Inverse(G_1)(alpha) = 1 - alpha is false at alpha = 1/2 (Phi(-1) = 0.1587 != 1/2)."""
    node, claim = _inverse_claim()
    cert = StructuralCertificate(1 - alpha, 1 - alpha, "=", "structural",
                                 unfoldings=(Unfolding(node, 1 - alpha, "definition"),))
    assert not kernel.accept(claim, cert).holds_everywhere
    monkeypatch.setattr(closed_forms, "_proposed", lambda u, domain, hypotheses: u.closed_form)
    assert kernel.accept(claim, cert).holds_everywhere


def test_a_derived_closed_form_is_a_hypothesis_of_the_verdict(monkeypatch):
    node, claim = _inverse_claim()
    cert = StructuralCertificate(1 - alpha, 1 - alpha, "=", "structural",
                                 unfoldings=(Unfolding(node, 1 - alpha, "derived"),))
    r = kernel.accept(claim, cert)
    assert r.verdict is Verdict.PROVED and not r.holds_everywhere and r.under_hypotheses
    assert r.hypotheses[0].endswith(f"({closed_forms.UNCHECKED})")
    # the mutant trusts the derived closed form: the false statement holds everywhere
    real = closed_forms._proposed

    def trusting(u, domain, hypotheses):
        return u.closed_form if u.rule == "derived" else real(u, domain, hypotheses)
    monkeypatch.setattr(closed_forms, "_proposed", trusting)
    assert kernel.accept(claim, cert).holds_everywhere


def test_the_definitions_table_reproduces_the_families():
    """Each definition of the kernel's table, written there from the paper, is the family's
    own formula -- compared exactly at rational points of [0, 1] (the two are written
    independently: the kernel's in kernel/closed_forms.py, the families' in symdp.events)."""
    mu, e, d, p = sp.Rational(3, 2), sp.Rational(1, 2), sp.Rational(1, 10), sp.Rational(1, 3)
    t = sp.Symbol("t", real=True)
    for f in (Gaussian(mu), EpsDelta(e, d), Laplace(mu), Mixture(Gaussian(mu), p),
              Mixture(EpsDelta(e, d), p), TradeOff((1 - alpha) ** 2)):
        mine = closed_forms.function_definition(f, t)
        assert mine is not None, f
        for v in (sp.Rational(1, 7), sp.Rational(1, 3), sp.Rational(5, 8), sp.Rational(19, 20)):
            a, b = sp.N(mine.xreplace({t: v}), 40), sp.N(f.expr(v), 40)
            assert abs(a - b) < sp.Float(10) ** -35, (f, v, a, b)


# ------------------------------------------------------------------ the conjugate rule

def _gaussian_conjugate_50_digits(mu, y0):
    """sup_x (x y - G_mu(x)) for y < 0 by mpmath alone: the maximiser solves G_mu'(x) = y,
    G_mu'(x) = -exp(mu z - mu^2/2) with z = Phi^-1(1 - x), i.e. z = (log(-y) + mu^2/2)/mu."""
    with mpmath.workdps(50):
        mu, y0 = mpmath.mpf(mu), mpmath.mpf(y0)
        z = (mpmath.log(-y0) + mu ** 2 / 2) / mu
        xs = 1 - mpmath.ncdf(z)
        return xs * y0 - mpmath.ncdf(z - mu)


def test_the_conjugate_of_cor_2_13_is_checked_and_proved():
    mu, eps = sp.Symbol("mu", positive=True), sp.Symbol("varepsilon", real=True)
    node = ConjugateAt(Gaussian(mu), -sp.exp(eps))
    cor = -sp.exp(eps) * Phi(-mu / 2 - eps / mu) - Phi(-mu / 2 + eps / mu)
    d = Derivation("cor", "Cor. 2.13", "DRS 2022", {mu: sp.Interval.open(0, 4),
                                                    eps: sp.Interval(0, 5)},
                   (Step(node + 1, "=", cor + 1, "the conjugate"),))
    r = check_derivation(d).steps[0]
    assert r.holds_everywhere, r.detail
    # the closed form, at mu = 1, eps = 1, is the supremum (mpmath, 50 digits)
    with mpmath.workdps(50):
        value = -mpmath.e * mpmath.ncdf(-mpmath.mpf(3) / 2) - mpmath.ncdf(mpmath.mpf(1) / 2)
        assert abs(value - _gaussian_conjugate_50_digits(1, -mpmath.e)) < mpmath.mpf(10) ** -45


def _wrong_stationary_point():
    """G_1^*(-3) with the maximiser moved to 1/2 and the value -3/2 - G_1(1/2) that goes with
    it: the true supremum is -0.8901... (mpmath), the claimed -1.6587..."""
    node = ConjugateAt(Gaussian(1), -3)
    evidence = conjugate_evidence(node, {})
    (v0, c0, m0, k0, kind0), (v, c, m, k, kind), rest = evidence.branches[0], \
        evidence.branches[1], evidence.branches[2:]
    half = sp.Rational(1, 2)
    wrong_value = -3 * half - Phi(PhiInv(1 - half) - 1)
    from dataclasses import replace

    bad = replace(evidence, branches=((v0, c0, m0, k0, kind0), (wrong_value, c, half, k, kind))
                  + tuple(rest))
    claim = Claim(node, "=", wrong_value, Domain(()))
    cert = StructuralCertificate(wrong_value, wrong_value, "=", "structural",
                                 unfoldings=(Unfolding(node, wrong_value, "conjugate", bad),))
    return claim, cert, wrong_value


def test_a_conjugate_with_a_wrong_stationary_point_is_refused():
    claim, cert, wrong = _wrong_stationary_point()
    truth = _gaussian_conjugate_50_digits(1, -3)
    assert abs(truth - mpmath.mpf(str(sp.N(wrong, 30)))) > mpmath.mpf("0.5")
    r = kernel.accept(claim, cert)
    assert not r.holds_everywhere and "g'(x) = y is not shown" in r.detail


def test_the_stationarity_check_is_load_bearing(monkeypatch):
    claim, cert, _ = _wrong_stationary_point()
    assert not kernel.accept(claim, cert).holds_everywhere
    real = conjugate._branch_error

    def no_stationarity(value, point, pieces, k, kind, x_, y_, region):
        if kind == "stationary":   # the mutant: any point of the piece is "stationary"
            return ""
        return real(value, point, pieces, k, kind, x_, y_, region)
    monkeypatch.setattr(conjugate, "_branch_error", no_stationarity)
    assert kernel.accept(claim, cert).holds_everywhere


def _concave_conjugate():
    """f(x) = 1 - x^2 is concave; at y = -1 the point x = 1/2 is stationary for x y - f(x)
    (-1 + 2x = 0) with the value -1/2 - 3/4 = -5/4 -- a minimum.  The supremum over [0, 1] of
    x^2 - x - 1 is -1 (x^2 <= x there, equality at 0 and 1), exactly: the claim f^*(-1) = -5/4
    is false, and only convexity is missing from its evidence."""
    f = TradeOff(1 - alpha ** 2)
    node = ConjugateAt(f, -1)
    assert max(Fraction(k, 100) ** 2 - Fraction(k, 100) - 1 for k in range(101)) == -1
    from dataclasses import replace

    evidence = replace(conjugate_evidence(node, {}),
                       branches=((sp.Rational(-5, 4), sp.true, sp.Rational(1, 2), 0, "stationary"),))
    claim = Claim(node, "=", sp.Rational(-5, 4), Domain(()))
    cert = StructuralCertificate(sp.Rational(-5, 4), sp.Rational(-5, 4), "=", "structural",
                                 unfoldings=(Unfolding(node, sp.Rational(-5, 4), "conjugate",
                                                       evidence),))
    return claim, cert


def test_a_conjugate_of_a_concave_function_is_refused():
    claim, cert = _concave_conjugate()
    r = kernel.accept(claim, cert)
    assert not r.holds_everywhere and "g'' >= 0" in r.detail


def test_the_convexity_check_is_load_bearing(monkeypatch):
    claim, cert = _concave_conjugate()
    assert not kernel.accept(claim, cert).holds_everywhere
    monkeypatch.setattr(conjugate, "_second_derivative", lambda g, x_, inside: "")
    assert kernel.accept(claim, cert).holds_everywhere


def test_the_conjugate_of_a_mixture_of_eps_delta_at_a_kink_is_checked():
    """(f_{eps,delta})_p^* at y = -p e^eps + p - 1, Lemma 4.4: + 1 it is delta p."""
    e, d, p = sp.symbols("varepsilon delta p", real=True)
    node = ConjugateAt(Mixture(EpsDelta(e, d), p), -p * sp.exp(e) + p - 1)
    dom = {e: sp.Interval(0, sp.oo), d: UNIT, p: UNIT}
    evidence = conjugate_evidence(node, {})
    value, why = conjugate.checked_conjugate(node, evidence, Domain.of(dom))
    assert why == "" and sp.simplify(value + 1 - d * p) == 0


def test_the_ball_compiler_evaluates_a_conjugate_from_its_definition():
    """The supremum by branch and bound, against mpmath's own maximiser at 50 digits; and a
    wrong closed form does not leak in: the hook never calls doit."""
    from symdp.numeric.ball_compiler import evaluate_ball

    for mu, y0 in ((1, -3), (2, -sp.Rational(1, 2)), (sp.Rational(1, 2), -2)):
        ball = evaluate_ball(ConjugateAt(Gaussian(mu), y0), {}, bits=160)
        truth = _gaussian_conjugate_50_digits(mu, y0)
        assert ball.rad() < 1e-35
        with mpmath.workdps(50):
            assert abs(mpmath.mpf(ball.mid().str(45, radius=False)) - truth) < mpmath.mpf(10) ** -35


def test_the_ball_hook_does_not_use_the_derived_closed_form(monkeypatch):
    from symdp.numeric.ball_compiler import evaluate_ball

    monkeypatch.setattr(ConjugateAt, "doit", lambda self, **hints: sp.Integer(7))
    ball = evaluate_ball(ConjugateAt(Gaussian(1), -3), {}, bits=128)
    assert abs(float(ball.mid()) - float(_gaussian_conjugate_50_digits(1, -3))) < 1e-12


# ------------------------------------------------------------------ evaluation under assumptions

def _sympy_1_14_binomial_sign(self):
    """SymPy 1.14's own handler (wrong for odd k and n of unknown sign), for the mutant."""
    n, k = self.args
    if n.is_integer and k.is_integer:
        if n.is_nonnegative or k.is_negative or k.is_even:
            return True
        elif k.is_even is False:
            return False


def _abs_binomial_step(sign):
    from symdp.parsing import parse_formula

    n = sp.Symbol("n")
    written = (parse_formula("Abs(binomial(n-5,3))", evaluate=False, symbols={"n": n}),
               parse_formula(f"{sign}binomial(n-5,3)", evaluate=False, symbols={"n": n}))
    sides = tuple(parse_formula(t, symbols={"n": n})
                  for t in ("Abs(binomial(n-5,3))", f"{sign}binomial(n-5,3)"))
    return Derivation("abs_binomial", "typed", "issue #27", {n: sp.Range(8, 16)},
                      (Step(sides[0], "=", sides[1], "typed", written=written),))


@pytest.fixture
def unpatched_sympy(monkeypatch):
    from sympy.core.cache import clear_cache
    from sympy.functions.combinatorial.factorials import binomial

    monkeypatch.setitem(binomial._prop_handler, "nonnegative", _sympy_1_14_binomial_sign)
    clear_cache()
    yield
    clear_cache()


def test_a_wrong_evaluation_under_assumptions_is_caught_by_the_comparison_at_points(
        unpatched_sympy, monkeypatch):
    """|C(n-5, 3)| = -C(n-5, 3) for 8 <= n <= 15 is false at n = 8 (1 != -1, math.comb).
    With SymPy's wrong sign the evaluated side is -C(n-5, 3); the kernel's comparison of the
    written and the evaluated sides at points refuses it; switched off, the false step holds."""
    assert abs(math.comb(3, 3)) == 1 != -math.comb(3, 3)
    r = check_derivation(_abs_binomial_step("-")).steps[0]
    assert r.verdict is Verdict.REFUTED and r.counterexample.point == {"n": "8"}
    monkeypatch.setattr(closed_forms, "violated_at", lambda *a, **k: "")
    assert check_derivation(_abs_binomial_step("-")).steps[0].holds_everywhere


def test_the_issue_examples_as_a_user_types_them():
    import json
    import subprocess
    import sys

    def step(rhs):
        out = subprocess.run([sys.executable, "-m", "symdp.cli.main", "step", "--integer", "n",
                              "--assume", "8<=n<=15", "--json", "--", "Abs(binomial(n-5,3))",
                              "=", rhs], capture_output=True, text=True, timeout=300)
        record = json.loads(out.stdout)
        return record["steps"][0] if "steps" in record else record

    false = step("-binomial(n-5,3)")
    assert false["verdict"] == "REFUTED" and false["counterexample"]["point"] == {"n": "8"}
    true = step("binomial(n-5,3)")
    assert true["verdict"] != "REFUTED" and true["holds_everywhere"], true
    assert all(math.comb(n - 5, 3) > 0 for n in range(8, 16))   # so |C| = C there


# ------------------------------------------------------------------ signs by structure

def test_signs_by_structure_are_right_and_modest():
    from symdp.proof.certificates import Fact

    mu_ = sp.Symbol("mu", real=True)
    dom = Domain.of({x: sp.Interval.open(0, 1), mu_: sp.Interval.open(0, 4)})
    g2 = sp.sqrt(2 * sp.pi) * mu_ * sp.exp(PhiInv(1 - x) ** 2 - (mu_ - PhiInv(1 - x)) ** 2 / 2)
    assert conjugate.by_structure(Fact(g2, "positive", "t", dom), dom)
    assert conjugate.by_structure(Fact(1 - Phi(x), "positive", "t", dom), dom)
    assert not conjugate.by_structure(Fact(x - sp.Rational(1, 2), "nonnegative", "t", dom), dom)
    assert not conjugate.by_structure(Fact(-g2, "nonnegative", "t", dom), dom)
    # Phi^-1(v) is real only for 0 < v < 1: on x in (0, 2), Phi^-1(1 - x) is not
    wide = Domain.of({x: sp.Interval.open(0, 2)})
    assert not conjugate.by_structure(Fact(sp.exp(PhiInv(1 - x)), "positive", "t", wide), wide)


# ------------------------------------------------------------------ the inverse rule (Eq. 4)

def test_the_inverses_of_the_symmetric_families_are_checked_and_proved():
    mu = sp.Symbol("mu", positive=True)
    for f in (Gaussian(mu), Laplace(mu)):
        d = Derivation("sym", "f^-1 = f", "DRS 2022, Eq. 4", {mu: sp.Interval.open(0, 4),
                                                             alpha: UNIT},
                       (Step(Inverse(f)(alpha), "=", f(alpha), "symmetric"),))
        r = check_derivation(d).steps[0]
        assert r.holds_everywhere, (f, r.detail)


def _flat_in_the_middle():
    """f = 1 - 2t on [0, 1/4], 1/2 on [1/4, 1/2], 1 - t on [1/2, 1]: inf{t : f(t) <= 1/2} is
    1/4 (exactly: f(1/4) = 1/2 and f > 1/2 before), but the branch h(a) = 1 - a that inverts
    the last piece gives 1/2 at a = 1/2.  The evidence is right about everything except that
    f is strictly decreasing."""
    from symdp.proof.certificates import InverseEvidence

    t = sp.Symbol("t", real=True)
    quarter, half = sp.Rational(1, 4), sp.Rational(1, 2)
    f = TradeOff(sp.Piecewise((1 - 2 * alpha, alpha <= quarter), (half, alpha <= half),
                              (1 - alpha, True)))
    assert min(Fraction(k, 1000) for k in range(1001)
               if (1 - 2 * Fraction(k, 1000) if k <= 250 else Fraction(1, 2) if k <= 500
                   else 1 - Fraction(k, 1000)) <= Fraction(1, 2)) == Fraction(1, 4)
    s_, a_ = sp.Dummy("x", real=True), sp.Dummy("a", real=True)
    pieces = ((0, quarter, 1 - 2 * s_), (quarter, half, half + 0 * s_), (half, 1, 1 - s_))
    evidence = InverseEvidence(f, s_, a_, pieces, ((0, half, 1 - a_, 2), (half, 1, (1 - a_) / 2, 0)))
    node = Inverse(f)(half)
    claim = Claim(node, "=", half, Domain(()))
    cert = StructuralCertificate(half, half, "=", "structural",
                                 unfoldings=(Unfolding(node, half, "inverse", evidence),))
    return claim, cert


def test_an_inverse_of_a_function_that_is_not_strictly_decreasing_is_refused():
    claim, cert = _flat_in_the_middle()
    r = kernel.accept(claim, cert)
    assert not r.holds_everywhere and "strictly decreasing" in r.detail


def test_the_strict_decrease_check_is_load_bearing(monkeypatch):
    claim, cert = _flat_in_the_middle()
    assert not kernel.accept(claim, cert).holds_everywhere
    real = conjugate._shown

    def trusting(expr, prop, domain, source):
        return "" if "strictly decreasing" in source else real(expr, prop, domain, source)
    monkeypatch.setattr(conjugate, "_shown", trusting)
    assert kernel.accept(claim, cert).holds_everywhere


def test_the_privacy_profiles_are_proved_through_their_checked_conjugates():
    """The (eps, delta) and Laplace privacy profiles of proofs/ (Prop. 2.12: delta(eps) =
    1 + f^*(-e^eps), each under a side condition that picks the conjugate's branch): the
    kernel checks the conjugate, drops the branches the side condition decides, and the
    identity left is PROVED (issue #27; they were CHECKED_AT_POINTS before)."""
    from pathlib import Path

    from symdp.proof.loader import load_file

    root = Path(__file__).resolve().parents[2] / "proofs"
    for name in ("fdp_eps_delta_profile.py", "fdp_laplace_profile.py"):
        for d in load_file(root / name):
            for r in check_derivation(d).steps:
                assert r.holds_everywhere, (name, r.detail)
