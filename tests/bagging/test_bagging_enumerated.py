"""Enumerated atoms: unevaluated when symbolic, exact when integer; the checker uses them."""

import pytest
import sympy as sp

from symdp.bagging.counting import gamma_count, lambda_count
from symdp.bagging.enumerated import (GammaCount, GammaProbability, HockeyStickIndependent,
                                      HockeyStickJoint, HockeyStickWithReplacement, LambdaCount,
                                      LambdaProbability, LikelihoodRatioWithReplacement,
                                      TotalVariationJoint, TradeOffWithReplacement)
from symdp.core.errors import InvalidParameterError
from symdp.proof.derivation import Derivation, Step
from symdp.core.enumerable import Enumerated, enumerate_atoms
from symdp.proof.verdict import Verdict

n, k = sp.symbols("n k", integer=True, positive=True)


def test_atoms_stay_unevaluated_and_keep_their_arguments():
    e = GammaCount(1, n, k, -1)
    assert isinstance(e, Enumerated) and not e.is_enumerable
    assert e.args == (1, n, k, -1) and e.arg("sign") == -1
    assert sp.simplify(e - (n ** k - (n - 1) ** k)) != 0   # nothing derived from the formula
    assert e.is_integer and e.is_nonnegative


def test_atoms_enumerate_at_integers():
    assert GammaCount(1, n, k, -1).xreplace({n: 5, k: 2}).enumerate() == 9
    assert LambdaCount(3, 6, 2, 1).enumerate() == 15
    assert GammaProbability(1, 3, 2, -1, 0).enumerate() == sp.Rational(5, 9)
    assert LambdaProbability(1, 5, 2, -1, 0).enumerate() == sp.Rational(2, 5)
    assert HockeyStickWithReplacement(3, 2, 1, -1, 1, 0, 16, 9).enumerate() == sp.Rational(5, 9)
    assert HockeyStickJoint(5, 1, 2, -1, 1, 0, 1, 1).enumerate() == sp.Rational(2, 5)
    assert HockeyStickIndependent(3, 1, 2, -1, 1, 0, 1, 1).enumerate() == sp.Rational(5, 9)
    assert TotalVariationJoint(5, 2, 1, 1).enumerate() == sp.Rational(1, 3)
    assert TradeOffWithReplacement(2, 1, 1, -1, 0, 0, 1).enumerate() == sp.Rational(1, 2)
    assert LikelihoodRatioWithReplacement(4, 2, 1, 1, 1, 3, 1).enumerate() == sp.Rational(25, 16)


def test_enumerate_atoms_replaces_integer_atoms_inside_expressions():
    expr = GammaCount(1, n, k, -1) - (n ** k - (n - 1) ** k)
    for nv in range(2, 7):
        for kv in range(1, 5):
            assert enumerate_atoms(expr.xreplace({n: nv, k: kv})) == 0
    assert gamma_count(2, 4, 3, 1) == GammaCount(2, 4, 3, 1).enumerate()
    assert lambda_count(1, 6, 3, -1) == LambdaCount(1, 6, 3, -1).enumerate()


def test_evalf_goes_through_enumeration():
    assert sp.N(GammaProbability(1, 3, 2, -1, 0), 20) == sp.Float(5, 20) / 9


@pytest.mark.parametrize("atom, message", [
    (GammaCount(1, 1, 2, -1), "n must be"),
    (GammaCount(0, 4, 2, -1), "region must be"),
    (GammaCount(1, 4, 2, 0), "sign must be"),
    (GammaProbability(1, 4, 2, -1, 2), "of_dprime must be"),
    (HockeyStickWithReplacement(4, 2, 1, -1, 1, 0, 1, 0), "den must be"),
    (HockeyStickWithReplacement(4, 2, 1, -1, 1, 0, -1, 1), "num must be"),
    (LambdaCount(1, 4, 4, -1), "no output"),
    (HockeyStickWithReplacement(50, 9, 1, -1, 1, 0, 1, 1), "MAX_OUTPUTS"),
])
def test_invalid_cases_raise_instead_of_guessing(atom, message):
    with pytest.raises(InvalidParameterError, match=message):
        atom.enumerate()


def test_wrong_argument_count_is_a_type_error():
    with pytest.raises(TypeError, match="takes 4 arguments"):
        GammaCount(1, n, k)


def test_latex_prints():
    assert r"\Gamma_{1}" in sp.latex(GammaCount(1, n, k, -1))
    assert r"\Lambda_{3}" in sp.latex(LambdaProbability(3, n, k, 1, 1))
    assert r"\mathcal{H}" in sp.latex(HockeyStickWithReplacement(n, k, 1, -1, 1, 0, (n + 1) ** k, n ** k))
    assert "T^" in sp.latex(TradeOffWithReplacement(n, k, 1, -1, 0, 1, 2))
    assert sp.latex(GammaCount(1, n, k, -1) ** 2)


@pytest.fixture
def check():
    return pytest.importorskip("symdp.proof.check")


def _derivation(step, **extra):
    return Derivation(id="meta_count", statement="meta-test", citation="test",
                      hypotheses={n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)},
                      steps=(step,), chained=False,
                      enumeration={n: range(2, 7), k: range(1, 5)}, **extra)


def test_checker_gives_enumerated_for_a_true_count(check):
    d = _derivation(Step(GammaCount(1, n, k, -1), "=", n ** k - (n - 1) ** k, "count"))
    report = check.check_derivation(d)
    assert report.steps[0].verdict is Verdict.ENUMERATED and report.ok


def test_checker_refutes_a_false_count_with_a_counterexample(check):
    d = _derivation(Step(GammaCount(1, n, k, -1), "=", n ** k - (n - 1) ** k + 1, "wrong count"))
    result = check.check_derivation(d).steps[0]
    assert result.verdict is Verdict.REFUTED
    assert result.counterexample is not None and result.counterexample.exact


def test_checker_refutes_the_paper_ratio_in_the_reverse_ordering(check):
    d = _derivation(Step(LikelihoodRatioWithReplacement(n, k, 1, -1, 0, 3, 1), "<=",
                         ((n + 1) / n) ** k, "reverse", expect=Verdict.REFUTED))
    result = check.check_derivation(d).steps[0]
    assert result.verdict is Verdict.REFUTED and result.matches_expectation
    assert result.counterexample.point == {"k": "1", "n": "2"}
