"""The appendix's counts of Gamma_i / Lambda_i vs exact enumeration on real datasets."""

import itertools
from fractions import Fraction

import pytest
import sympy as sp

from symdp.bagging.counting import (gamma_count, gamma_output_probability, gamma_probability,
                                    lambda_count, lambda_output_probability, lambda_probability)
from symdp.core.errors import InvalidParameterError

CASES_WR = [(n, k) for n in range(2, 7) for k in range(1, 5)]
CASES_WO = [(n, k) for n in range(2, 8) for k in range(1, 6) if k <= n - 1]


def _regions(d, dprime, outputs):
    """Split the joint domain by hand: only from D, only from D', from both."""
    sd, sdp = set(d), set(dprime)
    only_d = [o for o in outputs if set(o) <= sd and not set(o) <= sdp]
    only_dp = [o for o in outputs if set(o) <= sdp and not set(o) <= sd]
    both = [o for o in outputs if set(o) <= sd and set(o) <= sdp]
    return {1: only_d, 2: only_dp, 3: both}


def _datasets(n, sign):
    d = list(range(n))
    dprime = list(range(n - 1)) if sign < 0 else list(range(n + 1))
    return d, dprime


@pytest.mark.parametrize("sign", [-1, 1])
@pytest.mark.parametrize("n, k", CASES_WR)
def test_gamma_counts_and_probabilities_match_enumeration(n, k, sign):
    d, dprime = _datasets(n, sign)
    universe = sorted(set(d) | set(dprime))
    outputs = list(itertools.product(universe, repeat=k))
    parts = _regions(d, dprime, outputs)
    assert sum(len(p) for p in parts.values()) == len(set(itertools.product(d, repeat=k))
                                                       | set(itertools.product(dprime, repeat=k)))
    for i in (1, 2, 3):
        assert gamma_count(i, n, k, sign) == len(parts[i])
        for of_dprime, x in ((False, d), (True, dprime)):
            # P[b(X) in Gamma_i]: count the sequences of X^k that fall in the region
            inside = sum(1 for o in itertools.product(x, repeat=k) if o in set(parts[i]))
            expected = Fraction(inside, len(x) ** k)
            assert gamma_probability(i, n, k, sign, of_dprime) == sp.Rational(expected.numerator,
                                                                               expected.denominator)
    assert gamma_output_probability(n, k, sign, True) == sp.Rational(1, len(dprime) ** k)


@pytest.mark.parametrize("sign", [-1, 1])
@pytest.mark.parametrize("n, k", CASES_WO)
def test_lambda_counts_and_probabilities_match_enumeration(n, k, sign):
    d, dprime = _datasets(n, sign)
    universe = sorted(set(d) | set(dprime))
    outputs = list(itertools.combinations(universe, k))
    parts = _regions(d, dprime, outputs)
    for i in (1, 2, 3):
        assert lambda_count(i, n, k, sign) == len(parts[i])
        for of_dprime, x in ((False, d), (True, dprime)):
            subsets = list(itertools.combinations(x, k))
            inside = sum(1 for o in subsets if o in set(parts[i]))
            expected = Fraction(inside, len(subsets))
            assert lambda_probability(i, n, k, sign, of_dprime) == sp.Rational(expected.numerator,
                                                                                expected.denominator)
    assert lambda_output_probability(n, k, sign) == sp.Rational(1, sp.binomial(n, k))


def test_paper_delta_of_lambda1_is_k_over_n_symbolically():
    n, k = sp.symbols("n k", integer=True, positive=True)
    assert sp.simplify(lambda_probability(1, n, k, -1) - k / n) == 0
    assert sp.simplify(gamma_probability(1, n, k, -1) - (1 - ((n - 1) / n) ** k)) == 0


@pytest.mark.parametrize("bad", [dict(region=4), dict(region=0), dict(sign=0), dict(sign=2)])
def test_bad_region_or_sign_raise(bad):
    args = dict(region=1, n=5, k=2, sign=-1) | bad
    with pytest.raises(InvalidParameterError, match=next(iter(bad))):
        gamma_count(args["region"], args["n"], args["k"], args["sign"])
