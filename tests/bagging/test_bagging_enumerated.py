"""Enumerated atoms: unevaluated when symbolic, exact when integer; the checker uses them.

Expected values are worked out by hand from the definitions (Liu, Jia, Gong, IJCAI 2021,
Appendix) in each comment, not taken from the code.
"""

import pickle

import pytest
import sympy as sp

from symdp.bagging.counting import gamma_count, lambda_count
from symdp.bagging.enumerated import (NOTATION, HockeyStick, LeastTradeOff, LikelihoodRatio,
                                      RegionCount, RegionProbability, TotalVariation, TradeOff,
                                      WorstHockeyStick)
from symdp.bagging.schemes import Dataset, Extreme, First, Neighbour, Region, Sampling
from symdp.core.enumerable import Enumerated, enumerate_atoms
from symdp.core.errors import InvalidParameterError
from symdp.proof.derivation import Derivation, Step
from symdp.proof.verdict import Verdict

n, k = sp.symbols("n k", integer=True, positive=True)
WR = Sampling.WITH_REPLACEMENT
JOINT = Sampling.WITHOUT_REPLACEMENT_JOINT
INDEP = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
REMOVE, ADD = Neighbour.REMOVE, Neighbour.ADD


def test_atoms_stay_unevaluated_and_keep_their_arguments():
    e = RegionCount(WR, Region.ONLY_D, n, k, REMOVE)
    assert isinstance(e, Enumerated) and not e.is_enumerable
    assert e.parameters == (1, n, k, -1) and e.arg("sign") == -1
    assert e.sampling is WR and e.notation is NOTATION[WR]
    assert sp.simplify(e - (n ** k - (n - 1) ** k)) != 0   # nothing derived from the formula
    assert e.is_integer and e.is_nonnegative


def test_the_enums_are_the_integers_the_checker_substitutes():
    # plain integers and enum members build the same expression
    assert RegionCount(WR, 1, n, k, -1) == RegionCount(WR, Region.ONLY_D, n, k, REMOVE)
    assert HockeyStick(WR, n, k, 1, -1, 1, 0, 1, 1) == HockeyStick(
        WR, n, k, 1, REMOVE, First.D, Region.ALL, 1, 1)


def test_the_sampling_scheme_is_part_of_the_expression():
    assert HockeyStick(JOINT, n, k, 1, REMOVE, First.D, Region.ALL, 1, 1) != HockeyStick(
        INDEP, n, k, 1, REMOVE, First.D, Region.ALL, 1, 1)
    e = HockeyStick(JOINT, n, k, 1, REMOVE, First.D, Region.ALL, n + 1, n + 1 - k)
    rebuilt = e.xreplace({n: 5, k: 2})        # SymPy rebuilds through __new__
    assert rebuilt.sampling is JOINT and rebuilt.is_enumerable
    assert pickle.loads(pickle.dumps(e)) == e  # the parallel runner pickles steps
    with pytest.raises(InvalidParameterError, match="sampling must be"):
        HockeyStick("joint", n, k, 1, -1, 1, 0, 1, 1)


def test_atoms_enumerate_at_integers():
    # |Gamma_1|, n = 5, k = 2, remove: 2-sequences over 5 records holding record 4: 25 - 16
    assert RegionCount(WR, 1, n, k, REMOVE).xreplace({n: 5, k: 2}).enumerate() == 9
    # |Lambda_3|, n = 6, add: 2-subsets of D n D' = D: C(6, 2)
    assert RegionCount(JOINT, 3, 6, 2, ADD).enumerate() == 15
    # P[b(D) in Gamma_1] = 1 - ((n-1)/n)^k at n = 3, k = 2
    assert RegionProbability(WR, 1, 3, 2, REMOVE, Dataset.D).enumerate() == sp.Rational(5, 9)
    # P[a(D) in Lambda_1] = k/n at n = 5, k = 2
    assert RegionProbability(JOINT, 1, 5, 2, REMOVE, Dataset.D).enumerate() == sp.Rational(2, 5)
    # the paper's delta 1 - (2/3)^2 at its e^eps = (4/3)^2, n = 3, k = 2
    assert HockeyStick(WR, 3, 2, 1, REMOVE, First.D, Region.ALL, 16, 9).enumerate() == sp.Rational(5, 9)
    # joint, N k = 2 of n = 5 at w = 1: N k / n
    assert HockeyStick(JOINT, 5, 1, 2, REMOVE, First.D, Region.ALL, 1, 1).enumerate() == sp.Rational(2, 5)
    # independent, N = 2 singletons of n = 3 at w = 1: 1 - (2/3)^2
    assert HockeyStick(INDEP, 3, 1, 2, REMOVE, First.D, Region.ALL, 1, 1).enumerate() == sp.Rational(5, 9)
    # total variation, joint, add: q(n + 1) = k/(n + 1) = 2/6
    assert TotalVariation(JOINT, 5, 2, 1, ADD).enumerate() == sp.Rational(1, 3)
    # n = 2, k = 1, P = b(D') = point mass on record 0, Q = b(D) uniform on {0, 1}:
    # at alpha = 0 the test rejects the output 1 for free, power 1/2, T = 1/2
    assert TradeOff(WR, 2, 1, 1, REMOVE, First.D_PRIME, 0, 1).enumerate() == sp.Rational(1, 2)
    # on Gamma_3 (add, D first) P/Q = ((n+1)/n)^k = (5/4)^2
    assert LikelihoodRatio(WR, 4, 2, 1, ADD, First.D, Region.BOTH, Extreme.MAX).enumerate() == \
        sp.Rational(25, 16)
    # worst loss at w = 1 is q(n) = 1 - ((n-1)/n)^k = 1 - (1/2)^1; least trade-off at 0 is 1 - q(n)
    assert WorstHockeyStick(WR, 2, 1, 1, 1, 1).enumerate() == sp.Rational(1, 2)
    assert LeastTradeOff(WR, 2, 1, 1, 0, 1).enumerate() == sp.Rational(1, 2)


def test_enumerate_atoms_replaces_integer_atoms_inside_expressions():
    expr = RegionCount(WR, 1, n, k, REMOVE) - (n ** k - (n - 1) ** k)
    for nv in range(2, 7):
        for kv in range(1, 5):
            assert enumerate_atoms(expr.xreplace({n: nv, k: kv})) == 0
    assert gamma_count(2, 4, 3, 1) == RegionCount(WR, 2, 4, 3, ADD).enumerate()
    assert lambda_count(1, 6, 3, -1) == RegionCount(JOINT, 1, 6, 3, REMOVE).enumerate()


def test_evalf_goes_through_enumeration():
    assert sp.N(RegionProbability(WR, 1, 3, 2, REMOVE, Dataset.D), 20) == sp.Float(5, 20) / 9


@pytest.mark.parametrize("atom, message", [
    (RegionCount(WR, 1, 1, 2, -1), "n must be"),
    (RegionCount(WR, 0, 4, 2, -1), "region must be"),
    (RegionCount(WR, 1, 4, 2, 0), "sign must be"),
    (RegionProbability(WR, 1, 4, 2, -1, 2), "of_dprime must be"),
    (HockeyStick(WR, 4, 2, 1, -1, 1, 0, 1, 0), "den must be"),
    (HockeyStick(WR, 4, 2, 1, -1, 1, 0, -1, 1), "num must be"),
    (RegionCount(JOINT, 1, 4, 4, -1), "no output"),
    (HockeyStick(WR, 50, 9, 1, -1, 1, 0, 1, 1), "MAX_OUTPUTS"),
    (LikelihoodRatio(WR, 4, 2, 1, -1, 1, 3, 2), "extreme 0 or 1"),
])
def test_invalid_cases_raise_instead_of_guessing(atom, message):
    with pytest.raises(InvalidParameterError, match=message):
        atom.enumerate()


def test_wrong_argument_count_is_a_type_error():
    with pytest.raises(TypeError, match="takes a Sampling and 4 arguments"):
        RegionCount(WR, 1, n, k)


def test_str_names_the_cases():
    s = str(HockeyStick(WR, n, k, 1, -1, 1, 0, 1, 1))
    assert s == ("HockeyStick(Sampling.WITH_REPLACEMENT, n, k, 1, Neighbour.REMOVE, First.D, "
                 "Region.ALL, 1, 1)")


# --------------------------------------------------------------------------- paper symbols

def _as_paper(latex: str) -> str:
    """Our LaTeX in the paper's spelling: D' written D^{\\prime}, no sizing, no spaces."""
    out = latex.replace("\\left", "").replace("\\right", "").replace(" ", "")
    return out.replace("D'", "D^{\\prime}")


# The symbols as the seed transcription of the appendix writes them (proof of Thm. 2:
# "operator $b$", "$\Phi$ to denote the joint domain", "$\Gamma_{1}$"; proof of Thm. 3:
# "operator $a$", "$\Psi$", "$\Lambda_{1}$"), typed here from the paper text.
PAPER = {
    WR: {"op_D": "b(D)", "op_Dprime": "b(D^{\\prime})", "domain": "\\Phi",
         "regions": ("\\Gamma_{1}", "\\Gamma_{2}", "\\Gamma_{3}")},
    JOINT: {"op_D": "a(D)", "op_Dprime": "a(D^{\\prime})", "domain": "\\Psi",
            "regions": ("\\Lambda_{1}", "\\Lambda_{2}", "\\Lambda_{3}")},
}


@pytest.mark.parametrize("sampling", [WR, JOINT])
def test_counts_and_probabilities_print_the_papers_symbols(sampling):
    paper = PAPER[sampling]
    for i, region in enumerate(paper["regions"], start=1):
        count = _as_paper(sp.latex(RegionCount(sampling, i, n, k, REMOVE)))
        assert count.startswith("|" + region + "|")                       # |Gamma_1|, |Lambda_1|
        p_d = _as_paper(sp.latex(RegionProbability(sampling, i, n, k, REMOVE, Dataset.D)))
        p_dprime = _as_paper(sp.latex(RegionProbability(sampling, i, n, k, REMOVE, Dataset.D_PRIME)))
        assert p_d.startswith("P[" + paper["op_D"] + "\\in" + region + "]")
        assert p_dprime.startswith("P[" + paper["op_Dprime"] + "\\in" + region + "]")


@pytest.mark.parametrize("sampling", [WR, JOINT])
def test_pair_quantities_print_the_papers_operator_and_regions(sampling):
    paper = PAPER[sampling]
    other = PAPER[JOINT if sampling is WR else WR]
    pair = paper["op_D"] + "\\,\\|\\," + paper["op_Dprime"]
    loss = _as_paper(sp.latex(HockeyStick(sampling, n, k, 1, REMOVE, First.D, Region.ALL, 1, 1)))
    assert "_{" + paper["domain"] + "}" in loss and pair in loss
    for i, region in enumerate(paper["regions"], start=1):
        on_region = _as_paper(sp.latex(HockeyStick(sampling, n, k, 1, REMOVE, First.D, i, 1, 1)))
        assert "_{" + region + "}" in on_region
    ratio = _as_paper(sp.latex(LikelihoodRatio(sampling, n, k, 1, ADD, First.D_PRIME, Region.BOTH,
                                               Extreme.MAX)))
    assert "\\max_{o\\in" + paper["regions"][2] + "}" in ratio
    assert paper["op_Dprime"] + "\\,\\|\\," + paper["op_D"] in ratio
    tv = _as_paper(sp.latex(TotalVariation(sampling, n, k, 1, ADD)))
    assert paper["op_D"] + "," + paper["op_Dprime"] in tv
    for latex in (loss, ratio, tv):
        assert other["op_D"] not in latex and other["regions"][0][:-4] not in latex


def test_the_independent_scheme_borrows_the_without_replacement_symbols():
    assert NOTATION[INDEP].operator == "a" and NOTATION[INDEP].region == "\\Lambda"
    assert "a(D)" in sp.latex(TradeOff(INDEP, n, k, 2, REMOVE, First.D, 1, 2))


def test_latex_of_a_power_wraps_the_atom():
    assert sp.latex(RegionCount(WR, 1, n, k, REMOVE) ** 2).endswith("^{2}")


# --------------------------------------------------------------------------- the checker uses them

@pytest.fixture
def check():
    return pytest.importorskip("symdp.proof.check")


def _derivation(step, **extra):
    return Derivation(id="meta_count", statement="meta-test", citation="test",
                      hypotheses={n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)},
                      steps=(step,), chained=False,
                      enumeration={n: range(2, 7), k: range(1, 5)}, **extra)


def test_checker_proves_a_true_count_through_the_counting_lemmas(check):
    # issue #20: PROVED for every n, k (card_fun, card_sdiff), checked against enumeration
    d = _derivation(Step(RegionCount(WR, 1, n, k, REMOVE), "=", n ** k - (n - 1) ** k, "count"))
    report = check.check_derivation(d)
    assert report.steps[0].verdict is Verdict.PROVED and report.ok
    assert "card_fun" in report.steps[0].detail and "agreeing with enumeration" in report.steps[0].detail


def test_checker_refutes_a_false_count_with_a_counterexample(check):
    d = _derivation(Step(RegionCount(WR, 1, n, k, REMOVE), "=", n ** k - (n - 1) ** k + 1, "wrong"))
    result = check.check_derivation(d).steps[0]
    assert result.verdict is Verdict.REFUTED
    assert result.counterexample is not None and result.counterexample.exact


def test_checker_refutes_the_paper_ratio_in_the_reverse_ordering(check):
    d = _derivation(Step(LikelihoodRatio(WR, n, k, 1, REMOVE, First.D_PRIME, Region.BOTH, Extreme.MAX),
                         "<=", ((n + 1) / n) ** k, "reverse", expect=Verdict.REFUTED))
    result = check.check_derivation(d).steps[0]
    assert result.verdict is Verdict.REFUTED and result.matches_expectation
    assert result.counterexample.point == {"k": "1", "n": "2"}
