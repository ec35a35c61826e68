"""Issue #20: the power, exp and log lemmas of the residual algebra (Bernoulli
``one_add_mul_le_pow``, ``pow_lt_one`` of ``mul_pow``, ``Real.add_one_le_exp``,
``Real.log_le_sub_one_of_pos``, ``Real.one_sub_inv_le_log_of_pos``,
``Real.one_sub_div_pow_le_exp_neg``, the least value of an integer set apart) prove the
bagging inequalities for every n, k and never a false one.

Each mutant is false at a point named in its entry; that it is false there is checked here
with mpmath at 50 digits (never by symdp).  Its verdict must not hold everywhere.  The
forged certificates below state a lemma's conclusion the wrong way round, or outside the
lemma's hypotheses; the kernel must refuse each."""

import mpmath
import pytest
import sympy as sp

from symdp.proof.certificates import Domain, ResidualNode
from symdp.proof.check import check_step
from symdp.proof.derivation import Derivation, Step
from symdp.proof.kernel import rules
from symdp.proof.residual import domain_facts, prove_residual

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
HYP = {n: sp.Range(1, sp.oo), k: sp.Range(1, sp.oo)}
HYP2 = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}


def verdict(step, hypotheses=HYP):
    d = Derivation(id="power_mutant", statement="a claim on powers", citation="test",
                   hypotheses=hypotheses, steps=(step,), chained=False)
    return check_step(step, d, 0, certify=False, search=False)


def value(expr, point):
    """``expr`` at ``point`` (a dict) with mpmath at 50 digits (independent of symdp)."""
    symbols = list(point)
    f = sp.lambdify(symbols, sp.sympify(expr), modules="mpmath")
    with mpmath.workdps(50):
        return f(*[mpmath.mpf(point[s]) for s in symbols])


TRUE = [
    ("Thm. 2's delta <= k/n (Bernoulli)", 1 - ((n - 1) / n) ** k, "<=", k / n, HYP),
    ("bootstrap delta >= 1 - 1/e", 1 - ((n - 1) / n) ** n, ">=", 1 - sp.exp(-1), {n: sp.Range(1, sp.oo)}),
    ("(1 - 1/n)^n increases", ((n - 1) / n) ** n, "<=", (n / (n + 1)) ** (n + 1), {n: sp.Range(1, sp.oo)}),
    ("n log((n+1)/n) <= 1", n * sp.log((n + 1) / n), "<=", 1, {n: sp.Range(1, sp.oo)}),
    ("k log((n+1)/n) <= k/n", k * sp.log((n + 1) / n), "<=", k / n, HYP),
    ("(1 - 1/n^2)^k >= ((n-1)/n)^k", (1 - 1 / n ** 2) ** k, ">=", ((n - 1) / n) ** k, HYP2),
    ("((n-1)/n)^k <= ((n+1)/n)^k", ((n - 1) / n) ** k, "<=", ((n + 1) / n) ** k, HYP2),
]

#: (name, lhs, relation, rhs, hypotheses, a point where the claim is false)
MUTANTS = [
    ("Bernoulli the wrong way", 1 - ((n - 1) / n) ** k, ">=", k / n, HYP2, {n: 2, k: 2}),
    ("Bernoulli with k/(2n)", 1 - ((n - 1) / n) ** k, "<=", k / (2 * n), HYP2, {n: 2, k: 1}),
    ("bootstrap delta >= 1 - 1/e, exponent n + 1 on a base > 1 side",
     1 - (n / (n - 1)) ** n, ">=", 1 - sp.exp(-1), HYP2, {n: 2, k: 1}),
    ("(1 + 1/n)^n <= e^-1 (base > 1)", ((n + 1) / n) ** n, "<=", sp.exp(-1), HYP, {n: 1, k: 1}),
    ("(1 - 1/n)^n <= e^-2 (t = 2 > the base's t = 1)", ((n - 1) / n) ** n, "<=", sp.exp(-2),
     HYP2, {n: 3, k: 1}),
    ("(1 - 1/n)^n decreases", ((n - 1) / n) ** n, ">=", (n / (n + 1)) ** (n + 1), HYP, {n: 1, k: 1}),
    ("n log((n+1)/n) >= 1", n * sp.log((n + 1) / n), ">=", 1, HYP, {n: 1, k: 1}),
    ("log((n+1)/n) <= 1/(n+1) (the lower bound as an upper)", sp.log((n + 1) / n), "<=",
     1 / (n + 1), HYP, {n: 1, k: 1}),
    ("k log((n+1)/n) <= k/(n+1)", k * sp.log((n + 1) / n), "<=", k / (n + 1), HYP, {n: 1, k: 1}),
    ("(1 - 1/n^2)^k <= ((n-1)/n)^k (wrong direction)", (1 - 1 / n ** 2) ** k, "<=",
     ((n - 1) / n) ** k, HYP2, {n: 2, k: 1}),
    ("((n+1)/n)^k <= ((n-1)/n)^k", ((n + 1) / n) ** k, "<=", ((n - 1) / n) ** k, HYP2, {n: 2, k: 1}),
    ("((n-1)/n)^k ((n+1)/n)^k >= 1 (product below 1)", ((n - 1) / n) ** k * ((n + 1) / n) ** k,
     ">=", 1, HYP2, {n: 2, k: 1}),
    ("((n-1)/n)^k >= 1 - k/(n+1) holds; with 1 - k/(2n) it fails", ((n - 1) / n) ** k, ">=",
     1 - k / (2 * n), HYP2, {n: 2, k: 1}),
]


@pytest.mark.parametrize("name, lhs, rel, rhs, hypotheses", TRUE, ids=[t[0] for t in TRUE])
def test_the_bagging_power_inequalities_are_proved(name, lhs, rel, rhs, hypotheses):
    r = verdict(Step(lhs, rel, rhs, name), hypotheses)
    assert r.verdict.holds_everywhere, r.detail


@pytest.mark.parametrize("name, lhs, rel, rhs, hypotheses, point", MUTANTS,
                         ids=[m[0] for m in MUTANTS])
def test_a_false_power_inequality_is_never_proved(name, lhs, rel, rhs, hypotheses, point):
    left, right = value(lhs, point), value(rhs, point)
    holds = {"<=": left <= right, ">=": left >= right}[rel]
    assert not holds, f"the mutant {name} is not false at {point}: {left} {rel} {right}"
    r = verdict(Step(lhs, rel, rhs, name), hypotheses)
    assert not r.verdict.holds_everywhere, r.detail


def test_the_bootstrap_bound_sets_n_equal_1_apart_and_names_its_lemmas():
    r = verdict(Step(1 - ((n - 1) / n) ** n, ">=", 1 - sp.exp(-1), "(1 - 1/n)^n <= 1/e"),
                {n: sp.Range(1, sp.oo)})
    assert r.verdict.holds_everywhere
    assert "Real.one_sub_div_pow_le_exp_neg" in r.detail
    assert "least value of an integer parameter apart" in r.detail


# ---------------------------------------------------------------- forged certificates

DOM = Domain.of(HYP2)
P, Q, E, L = (sp.Symbol(s, positive=True) for s in ("P_0", "P_1", "E_0", "P_2"))
Lg = sp.Symbol("L_0", real=True)
base = (n - 1) / n


def z3_node(lhs, rel, rhs, reduced, atoms, facts):
    return ResidualNode(lhs, rel, rhs, (), "z3", reduced, tuple(atoms), tuple(facts))


def test_an_honest_bernoulli_certificate_is_accepted():
    goal = (1 - base ** k, "<=", k / n)
    fact = (sp.Ge(P, 1 + k * (base - 1), evaluate=False), "one_add_mul_le_pow",
            sp.Ge(base, -1, evaluate=False))
    node = z3_node(*goal, 1 - P - k / n, [(P, sp.Pow(base, k, evaluate=False))],
                   [(sp.Gt(P, 0, evaluate=False), "pow_pos", sp.Gt(base, 0, evaluate=False)), fact])
    assert rules.residual_error(node, DOM, 1 - base ** k, "<=", k / n) == ""


FORGED = [
    # Bernoulli stated as an upper bound
    ("Bernoulli reversed", (P, sp.Pow(base, k, evaluate=False)),
     (sp.Le(P, 1 + k * (base - 1), evaluate=False), "one_add_mul_le_pow",
      sp.Ge(base, -1, evaluate=False))),
    # Bernoulli with the exponent doubled
    ("Bernoulli with 2k", (P, sp.Pow(base, k, evaluate=False)),
     (sp.Ge(P, 1 + 2 * k * (base - 1), evaluate=False), "one_add_mul_le_pow",
      sp.Ge(base, -1, evaluate=False))),
    # Bernoulli for a real, not integer, exponent k/2
    ("Bernoulli, exponent not an integer", (P, sp.Pow(base, k / 2, evaluate=False)),
     (sp.Ge(P, 1 + k / 2 * (base - 1), evaluate=False), "one_add_mul_le_pow",
      sp.Ge(base, -1, evaluate=False))),
    # (1 + 1/n)^n <= e^-1: the base is not 1 - t/n with exp(-t)
    ("one_sub_div_pow_le_exp_neg on a base > 1", (P, sp.Pow((n + 1) / n, n, evaluate=False)),
     (sp.Le(P, E, evaluate=False), "Real.one_sub_div_pow_le_exp_neg",
      sp.Le(1, n, evaluate=False))),
    # log x <= x - 1 turned into log x >= x - 1
    ("log_le_sub_one reversed", (Lg, sp.log((n + 1) / n)),
     (sp.Ge(Lg, (n + 1) / n - 1, evaluate=False), "Real.log_le_sub_one_of_pos",
      sp.Gt((n + 1) / n, 0, evaluate=False))),
    # exp u >= u + 2
    ("add_one_le_exp with u + 2", (E, sp.exp(-1)),
     (sp.Ge(E, 1, evaluate=False), "Real.add_one_le_exp", sp.true)),
    # a product of powers below 1 claimed above 1
    ("one_lt_pow of mul_pow on a product < 1", None,
     (sp.Gt(P * Q, 1, evaluate=False), "one_lt_pow of mul_pow",
      sp.Gt(sp.cancel(base * (n + 1) / n), 1, evaluate=False))),
    # the true premise of pow_lt_one (the product's base is below 1), the conclusion reversed:
    # refused for its shape, not for its premise
    ("pow_lt_one of mul_pow with the conclusion reversed", None,
     (sp.Gt(P * Q, 1, evaluate=False), "pow_lt_one of mul_pow",
      sp.Lt(sp.cancel(base * (n + 1) / n), 1, evaluate=False))),
]


@pytest.mark.parametrize("name, atom, fact", FORGED, ids=[f[0] for f in FORGED])
def test_a_forged_power_fact_is_refused(name, atom, fact):
    atoms = {P: sp.Pow(base, k, evaluate=False), Q: sp.Pow((n + 1) / n, k, evaluate=False),
             E: sp.exp(-1)}
    if atom is not None:
        atoms[atom[0]] = atom[1]
    relational, lemma, premise = fact
    assert not rules.atom_fact_ok(relational, lemma, premise, atoms, DOM, ())


def test_a_first_value_split_must_cover_the_least_value():
    # proved on n >= 1 with n = 1 set apart; the same node does not prove n >= 0
    hyp = {n: sp.Range(1, sp.oo)}
    goal = (((n - 1) / n) ** n, "<=", sp.exp(-1))
    node = prove_residual(*goal, domain_facts(hyp), hyp)
    assert node is not None and node.method == "first_value"
    assert rules.residual_error(node, Domain.of(hyp), *goal) == ""
    assert rules.residual_error(node, Domain.of({n: sp.Range(0, sp.oo)}), *goal) != ""
    assert rules.residual_error(node, Domain.of({n: sp.Range(2, sp.oo)}), *goal) != ""


def test_the_reversed_mul_pow_mutant_fails_only_for_its_shape():
    """Its premise (n^2 - 1)/n^2 < 1 is true, and with the conclusion the right way round the
    same premise and atoms are accepted: the refusal above is the conclusion's shape."""
    atoms = {P: sp.Pow(base, k, evaluate=False), Q: sp.Pow((n + 1) / n, k, evaluate=False),
             E: sp.exp(-1)}
    premise = sp.Lt(sp.cancel(base * (n + 1) / n), 1, evaluate=False)
    assert rules.atom_fact_ok(sp.Lt(P * Q, 1, evaluate=False), "pow_lt_one of mul_pow", premise,
                              atoms, DOM, ())
