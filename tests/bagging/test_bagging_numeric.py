"""Large n, k, N: mpmath log1p/expm1 values vs references computed another way."""

import time
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp.bagging import ORDERINGS, Bagging, Sampling
from symdp.bagging import profile as pf
from symdp.bagging.numeric import analyse
from symdp.core.errors import InvalidParameterError

WR, JOINT, INDEP = Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_JOINT, \
    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
BIG = 10 ** 18


def _close(decimal: str, reference, digits: int) -> bool:
    """Relative agreement to ``digits`` significant digits (reference an mpf at >= 200 digits)."""
    with mpmath.workdps(250):
        x, r = mpmath.mpf(decimal), mpmath.mpf(reference)
        if r == 0:
            return x == 0
        return abs(x - r) <= abs(r) * mpmath.mpf(10) ** (-digits)


def _fraction_to_mpf(f: Fraction):
    return mpmath.mpf(f.numerator) / f.denominator


@pytest.mark.parametrize("n, k, models", [(60000, 1000, 1), (1000, 37, 3), (7, 250, 1), (10 ** 6, 1, 1)])
def test_with_replacement_matches_exact_fraction_power(n, k, models):
    a = analyse(Bagging(n, k, models), at=("0", "1/2"), dps=50)
    exact_q = 1 - Fraction(n - 1, n) ** (models * k)          # exact rational
    with mpmath.workdps(250):
        ref_q = _fraction_to_mpf(exact_q)
        ref_eps = models * k * mpmath.log(mpmath.mpf(n + 1) / n)
        w = mpmath.exp(mpmath.mpf(1) / 2)
        ref_remove_dprime = max(mpmath.mpf(0), 1 - w * _fraction_to_mpf(1 - exact_q))
        exact_q_add = 1 - Fraction(n, n + 1) ** (models * k)
        ref_add_d = max(mpmath.mpf(0), 1 - w * _fraction_to_mpf(1 - exact_q_add))
        ref_q_add = _fraction_to_mpf(exact_q_add)
    for value in (a.q, a.tv, a.paper_delta, a.min_delta_at_paper_epsilon, a.profile[0].delta):
        assert _close(value.decimal(), ref_q, 48)
    assert _close(a.paper_epsilon.decimal(), ref_eps, 48)
    assert _close(a.q_add.decimal(), ref_q_add, 48)
    assert _close(a.profile[1].orderings["remove_Dprime_first"].decimal(), ref_remove_dprime, 48)
    assert _close(a.profile[1].orderings["add_D_first"].decimal(), ref_add_d, 48)
    assert a.min_epsilon_at_paper_delta.decimal() == "0"


def test_at_n_equal_k_equal_1e18_matches_200_digit_power():
    a = analyse(Bagging(BIG, BIG), at=("0", "0.5", "1"), dps=40)
    with mpmath.workdps(200):
        n = mpmath.mpf(BIG)
        ref_q = 1 - mpmath.power(1 - 1 / n, BIG)                 # direct power, no log1p
        ref_q_add = 1 - mpmath.power(n / (n + 1), BIG)
        ref_eps = BIG * mpmath.log((n + 1) / n)
        half = 1 - mpmath.exp(mpmath.mpf("0.5")) * mpmath.power(1 - 1 / n, BIG)
        at_one = 1 - mpmath.e * mpmath.power(1 - 1 / n, BIG)     # about 1/(2n)
        at_paper = 1 - mpmath.power((n + 1) / n, BIG) * mpmath.power((n - 1) / n, BIG)
    assert abs(mpmath.mpf(a.q.decimal()) - mpmath.mpf("0.632120558828557678")) < 1e-17
    assert _close(a.q.decimal(), ref_q, 38)
    assert _close(a.q_add.decimal(), ref_q_add, 38)
    assert _close(a.paper_epsilon.decimal(), ref_eps, 38)
    assert _close(a.profile[1].orderings["remove_Dprime_first"].decimal(), half, 38)
    assert _close(a.profile[2].orderings["remove_Dprime_first"].decimal(), at_one, 35)
    assert a.profile[2].orderings["add_D_first"].decimal() == "0"
    assert _close(a.paper_epsilon_orderings["remove_Dprime_first"].decimal(), at_paper, 35)
    # the float formula the issue warns about
    assert 1 - ((BIG - 1) / BIG) ** BIG == 0.0


def test_without_replacement_at_large_sizes():
    a = analyse(Bagging(BIG, 10 ** 17, 9, JOINT), at=("0.25",), dps=45)
    assert a.q.exact == sp.Rational(9, 10) and a.q.decimal(45).startswith("0.9000000000")
    with mpmath.workdps(200):
        ref_eps = mpmath.log(mpmath.mpf(BIG + 1) / (BIG + 1 - 9 * 10 ** 17))
        ref = 1 - mpmath.exp(mpmath.mpf("0.25")) * (1 - mpmath.mpf(9 * 10 ** 17) / BIG)
    assert _close(a.paper_epsilon.decimal(), ref_eps, 43)
    assert _close(a.profile[0].orderings["remove_Dprime_first"].decimal(), ref, 43)

    b = analyse(Bagging(BIG, 12345, BIG, INDEP), dps=40)
    with mpmath.workdps(200):
        ref_q = 1 - mpmath.power(1 - mpmath.mpf(12345) / BIG, BIG)
    assert _close(b.q.decimal(), ref_q, 38)


def test_extreme_inclusion_probabilities_keep_the_complement():
    a = analyse(Bagging(2, BIG), dps=40)        # 1 - q = 2^-(10^18)
    with mpmath.workdps(60):
        ref = mpmath.power(2, -BIG)
    assert _close(a.min_error_sum.decimal(), ref, 38)
    b = analyse(Bagging(BIG, 1), dps=40)        # q = 1/n exactly
    assert b.q.exact == sp.Rational(1, BIG)


@pytest.mark.parametrize("sampling", list(Sampling))
def test_small_cases_agree_with_the_symbolic_formulas(sampling):
    bagging = Bagging(9, 2, 2, sampling)
    a = analyse(bagging, at=("0", "3/10", "2"), dps=40)
    for point in a.profile:
        for o in ORDERINGS:
            exact = pf.privacy_profile_nonnegative_eps(sampling, o, 9, 2, 2, point.eps)
            assert _close(point.orderings[o.key].decimal(), sp.N(exact, 80), 38)
    assert a.q.exact == pf.inclusion_probability(sampling, 9, 2, 2)


def test_fast_at_1e18_and_precision_is_scoped():
    before = mpmath.mp.dps
    analyse(Bagging(BIG, BIG), at=("1",), dps=40)               # warm caches
    start = time.perf_counter()
    for sampling, k in ((WR, BIG), (JOINT, 10 ** 17), (INDEP, 10 ** 17)):
        analyse(Bagging(BIG, k, 1, sampling), at=("0", "1", "2.5"), dps=40)
    assert time.perf_counter() - start < 1.0
    assert mpmath.mp.dps == before


def test_requested_precision_is_honoured():
    a = analyse(Bagging(BIG, BIG), dps=120)
    with mpmath.workdps(300):
        ref = 1 - mpmath.power(1 - 1 / mpmath.mpf(BIG), BIG)
    assert len(a.q.decimal().replace("0.", "", 1)) >= 120
    assert _close(a.q.decimal(), ref, 118)


@pytest.mark.parametrize("at, name", [(("-1",), "eps"), (("nan",), "eps"), (("inf",), "eps"),
                                      (("1/0",), "eps"), ((True,), "eps")])
def test_bad_epsilons_raise(at, name):
    with pytest.raises(InvalidParameterError, match=f"^{name} must"):
        analyse(Bagging(10, 2), at=at)


def test_huge_epsilon_is_exact_and_quick():
    # the largest size the number syntax accepts (symdp.core.validation: 1e1000); beyond it, a
    # clear error naming the parameter (issue #14: every input's size is bounded)
    with pytest.raises(InvalidParameterError, match="eps must be between"):
        analyse(Bagging(10, 2), at=("1e99999",), dps=40)
    a = analyse(Bagging(10, 2), at=("1e999",), dps=40)
    orderings = a.profile[0].orderings
    assert orderings["remove_Dprime_first"].decimal() == orderings["add_D_first"].decimal() == "0"
    assert orderings["remove_D_first"].exact == sp.Rational(19, 100)
    assert a.profile[0].eps_value.decimal().endswith("e+999")


@pytest.mark.parametrize("dps", [0, -3, "x", 2.5])
def test_bad_dps_raise(dps):
    with pytest.raises(InvalidParameterError, match="^dps must"):
        analyse(Bagging(10, 2), dps=dps)
