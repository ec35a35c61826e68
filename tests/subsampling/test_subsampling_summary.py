"""symdp.subsampling.summary: the numbers of ``symdp subsample``, against formulas written out.

Independent routes, at 50 digits with mpmath:
* Lemma 4.4: eps' = log(1 - p + p e^eps), delta' = p delta;
* min_alpha (alpha + f(alpha)) of a symmetric f is twice its fixed point x*:
  2(1 - delta)/(1 + e^eps) for f_{eps,delta} (Eq. 5), 2 Phi(-mu/2) for G_mu (Def. 2.7);
* for C_p(f) the minimum is x* + f_p(x*) = 1 - p + 2 p x* (f_p = p f + (1 - p) Id, Def. 4.1);
* the privacy profile at eps = 0 is the total variation, 1 - min_alpha (alpha + C_p(f)(alpha)).
"""

import mpmath
import pytest
import sympy as sp

from symdp import EpsDelta, Gaussian, InvalidParameterError
from symdp.subsampling.summary import decimal, default_epsilons, family_name, summary

EPS, DELTA, P, MU = 3, sp.Rational(1, 10), sp.Rational(1, 5), 1


def _close(text: str, value, digits=28):
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(text) - value) <= mpmath.mpf(10) ** -digits * max(1, abs(value)), (text, value)


def test_eps_delta_summary_matches_lemma_4_4_and_the_fixed_points():
    out = summary(EpsDelta(EPS, DELTA), P, [0, 1], dps=30)
    with mpmath.workdps(50):
        e, d, p = mpmath.e ** EPS, mpmath.mpf(1) / 10, mpmath.mpf(1) / 5
        _close(out["eps_prime"], mpmath.log(1 - p + p * e))
        _close(out["delta_prime"], p * d)
        x_star = (1 - d) / (1 + e)
        _close(out["min_error_sum"]["original"], 2 * x_star)
        _close(out["min_error_sum"]["subsampled"], 1 - p + 2 * p * x_star)
        e1 = 1 - p + p * e
        _close(out["min_error_sum"]["lemma_4_4"], 2 * (1 - p * d) / (1 + e1))
        _close(out["profile"][0]["delta"], 1 - (1 - p + 2 * p * x_star))
    assert out["family"] == "eps_delta" and out["parameters"] == {"eps": "3", "delta": "1/10", "p": "1/5"}
    assert out["latex"].startswith(r"C_{\frac{1}{5}}\left(f_{3,\frac{1}{10}}\right)")


def test_gaussian_summary_has_no_lemma_4_4_and_matches_phi():
    out = summary(Gaussian(MU), P, [0], dps=30)
    with mpmath.workdps(50):
        x_star = mpmath.ncdf(-mpmath.mpf(MU) / 2)
        p = mpmath.mpf(1) / 5
        _close(out["min_error_sum"]["original"], 2 * x_star)
        _close(out["min_error_sum"]["subsampled"], 1 - p + 2 * p * x_star)
        _close(out["profile"][0]["delta"], p * (1 - 2 * x_star))
    assert out["eps_prime"] is None and out["min_error_sum"]["lemma_4_4"] is None


def test_default_epsilons_add_eps_prime_for_eps_delta_only():
    assert len(default_epsilons(Gaussian(MU), P)) == 4
    at = default_epsilons(EpsDelta(EPS, DELTA), P)
    assert at[:4] == [0, sp.Rational(1, 2), 1, 2]
    assert sp.simplify(at[4] - sp.log(1 - P + P * sp.exp(EPS))) == 0


def test_decimal_prints_the_requested_digits():
    assert decimal(sp.Rational(1, 3), 30) == "0." + "3" * 30
    assert decimal(0, 5) == "0.00000"


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="p must be"):
        summary(EpsDelta(EPS, DELTA), sp.Rational(3, 2), [0])
    with pytest.raises(InvalidParameterError, match="f must be"):
        family_name("G_1")
