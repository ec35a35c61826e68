r"""The kernel's definedness rule for the quantities check-tex reads (symdp.core.quantities).

Definedness is deny by default (issue #27, item 3): a node without a rule gives no verdict
that holds.  A probability ``\Pr[E]`` and an indicator ``\mathbb{1}[E]`` are numbers in
[0, 1] for every event as written, so the kernel treats them as defined wherever written
(their event is a set, not evaluated).  An expectation, a variance or a supremum may be
infinite or fail to exist (the mean of a Cauchy variable), so it keeps no rule: the mutant
that makes it total seals ``E[X] - E[X] = 0``, which is meaningless when ``E[X]`` is not a
number.
"""

from __future__ import annotations

import pytest
import sympy as sp

from symdp.parsing import parse_formula
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof import kernel
from symdp.proof.certificates import Claim, Domain, SymbolicCertificate
from symdp.proof.kernel import definedness

delta = sp.Symbol("delta", real=True)


def _read(latex: str):
    return parse_formula(latex, latex=True)


def _one_door(lhs, rel, rhs, domain):
    """``kernel.accept`` of SymPy's sign certificate for ``lhs REL rhs`` as written."""
    cert = SymbolicCertificate(lhs, rhs, rel, "symbolic", "simplify", sp.S.Zero)
    return kernel.accept(Claim(lhs, rel, rhs, domain), cert)


@pytest.mark.parametrize("latex", [r"\Pr[A]", r"\Pr[\log X \le 0]", r"\mathbb{1}[Y \in E]",
                                   r"\mathbb{I}[Y \in E]"])
def test_a_probability_and_an_indicator_are_defined_wherever_written(latex):
    # the event of \Pr[\log X \le 0] is a set: log X is not evaluated, X may be anything
    assert definedness.hazards(_read(latex)) == []


@pytest.mark.parametrize("latex", [r"\mathbb{E}[X]", r"\operatorname{Var}(X)",
                                   r"\sup_{z \in \mathbb{R}} z e^{-z}"])
def test_an_expectation_a_variance_and_a_supremum_have_no_rule(latex):
    with pytest.raises(definedness.NoRule):
        definedness.hazards(_read(latex))


def test_a_class_that_merely_shares_the_name_has_no_rule():
    class Probability(sp.Function):   # a user's class, not symdp.core.quantities.Probability
        pass

    with pytest.raises(definedness.NoRule):
        definedness.hazards(Probability(sp.Symbol("A")))


def test_the_rule_for_probabilities_is_load_bearing(monkeypatch):
    """Pr[A] <= Pr[A] + delta for delta >= 0 holds through the one door; without the rule the
    kernel refuses it (the side has a node it knows nothing of)."""
    p = _read(r"\Pr[A]")
    domains = {delta: sp.Interval(0, sp.oo), **{a: sp.Reals for a in p.free_symbols}}
    derivation = Derivation("t", "t", "test", domains,
                            (Step(p, "<=", p + delta, "test"),))
    assert check_derivation(derivation, points=8).steps[0].verdict is Verdict.PROVED
    monkeypatch.setattr(definedness, "_PROBABILITIES", ())
    refused = check_derivation(derivation, points=8).steps[0]
    assert not refused.holds_everywhere and "Event" in refused.detail


def test_the_refusal_of_an_expectation_is_load_bearing(monkeypatch):
    """E[X] - E[X] = 0 is no statement when E[X] does not exist (X Cauchy: the integral of
    |x| / (pi (1 + x^2)) diverges, like log of the range); the kernel refuses it, the mutant
    that reads every quantity as a number in its range seals it."""
    x = sp.Symbol("x", real=True)
    assert sp.integrate(x / (sp.pi * (1 + x ** 2)), (x, 0, sp.oo)) is sp.oo
    e = _read(r"\mathbb{E}[X]")
    written = sp.Add(e, -e, evaluate=False)   # as written (SymPy would cancel it)
    domain = Domain.of({})
    refused = _one_door(written, "=", sp.S.Zero, domain)
    assert not refused.holds_everywhere and "Expectation" in refused.detail
    expectation = definedness._ByName("symdp.core.quantities.Expectation")
    monkeypatch.setattr(definedness, "_PROBABILITIES",
                        definedness._PROBABILITIES + (expectation,))
    assert _one_door(written, "=", sp.S.Zero, domain).verdict is Verdict.PROVED
