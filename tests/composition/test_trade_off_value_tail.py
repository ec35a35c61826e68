"""``trade_off_value`` near alpha = 1, where the supremum of Prop. 2.12 (Dong, Roth, Su 2022)
is attained at a slope s far below 1e-12 and 1 - delta(log s) - s*alpha cancels to a tiny value.

The reference is the Neyman--Pearson test itself, computed without symdp: for
f_{eps,0} (x) G_mu the privacy loss is L = +-eps + (mu X - mu^2/2); the test that rejects when
L > t has type I error alpha(t) = sum_j q_j Phi((l_j - t - mu^2/2)/mu) and type II error
beta(t) = sum_j p_j Phi((t - l_j - mu^2/2)/mu), and the trade-off at alpha(t) is beta(t); its
slope there is e^t.  Before the fix, the search stopped at s = 1e-12: at t = -30 (s = 1e-13) it
returned a value below the truth, at t = -45 one wrong in the fifth digit.
"""

import mpmath
import pytest
import sympy as sp

from symdp.composition.products import TensorProduct, trade_off_value
from symdp.tradeoff import EpsDelta, Gaussian

EPS, MU = 1, 4


def neyman_pearson(t):
    """(alpha(t), beta(t)) of the likelihood-ratio test at threshold t, at the current precision."""
    e, m = mpmath.mpf(EPS), mpmath.mpf(MU)
    p_plus = mpmath.e ** e / (1 + mpmath.e ** e)     # RR_eps: loss +eps has this mass under P
    atoms = [(e, 1 - p_plus, p_plus), (-e, p_plus, 1 - p_plus)]
    alpha = sum(q * mpmath.ncdf((l - t - m ** 2 / 2) / m) for l, q, _ in atoms)
    beta = sum(p * mpmath.ncdf((t - l - m ** 2 / 2) / m) for l, _, p in atoms)
    return alpha, beta


@pytest.mark.parametrize("t", [0, -10, -30, -45])
def test_trade_off_value_matches_neyman_pearson_near_alpha_one(t):
    f = TensorProduct(EpsDelta(EPS, 0), Gaussian(MU))
    with mpmath.workdps(100):
        alpha, beta = neyman_pearson(mpmath.mpf(t))
        x = sp.Rational(mpmath.nstr(alpha, 95))    # within 1e-95 of alpha(t): beta moves by e^t 1e-95
        reference = +beta
    value = trade_off_value(f, x, 15)
    assert value > 0
    assert abs(value - reference) <= mpmath.mpf(10) ** -13 * reference


def test_trade_off_value_at_alpha_one_is_zero_and_outside_zero_one_is_refused():
    """f(1) = 0 for every trade-off function (0 <= f(alpha) <= 1 - alpha); alpha > 1 is no
    type I error.  The downward slope search must not run there (it gave 1.9e-53 at
    alpha = 1 and a RootFindingError at alpha = 3/2)."""
    from symdp import InvalidParameterError

    f = TensorProduct(EpsDelta(EPS, 0), Gaussian(MU))
    assert trade_off_value(f, 1, 15) == 0
    for bad in (sp.Rational(3, 2), -1):
        with pytest.raises(InvalidParameterError, match="alpha"):
            trade_off_value(f, bad, 15)
