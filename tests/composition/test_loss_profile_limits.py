"""The profiles of the continuous loss laws at eps = +-inf and at NaN (review of issue #23's
change: LaplaceLoss(1).profile(inf) had become NaN, 0 * e^inf).  The limits come from the
definition delta(eps) = sup_S P(S) - e^eps Q(S): 0 as eps -> inf, and 1 as eps -> -inf for
a pair with no loss atom at -inf (both laws have full support).  The finite values are the
closed forms of Dong, Roth, Su (2022): G_mu's Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2),
and the Laplace profile 1 - e^{(eps - mu)/2} on |eps| <= mu."""

import mpmath
import pytest

from symdp import InvalidParameterError
from symdp.composition.privacy_loss import GaussianLoss, LaplaceLoss


@pytest.mark.parametrize("loss", [GaussianLoss(1), LaplaceLoss(1)])
def test_profile_limits_and_nan(loss):
    assert loss.profile(mpmath.inf) == 0
    assert loss.profile(-mpmath.inf) == 1
    with pytest.raises(InvalidParameterError, match="eps must be a real number"):
        loss.profile(mpmath.nan)


def test_profiles_at_a_finite_eps_are_the_closed_forms():
    e = mpmath.mpf("0.5")
    gaussian = mpmath.ncdf(-e + mpmath.mpf(1) / 2) - mpmath.exp(e) * mpmath.ncdf(-e - mpmath.mpf(1) / 2)
    assert abs(GaussianLoss(1).profile(e) - gaussian) < mpmath.mpf(10) ** -14
    assert abs(LaplaceLoss(1).profile(e) - (1 - mpmath.exp((e - 1) / 2))) < mpmath.mpf(10) ** -14
