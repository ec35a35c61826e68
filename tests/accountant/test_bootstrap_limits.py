r"""The bootstrap at sizes that used to run for minutes or never finish (issue #32).

Its dominating pair (docs/bagging.md) needs the weights :math:`w_j = \binom{k}{j} n^{-j}
(1-1/n)^{k-j}` only where they are not negligible; beyond 4096 bits of :math:`n^k` they are
rounded down and the rest of the mass goes to the perfectly distinguishable component.  The
exact weights are computed here with integers, an independent route.
"""

from fractions import Fraction

import pytest

from symdp.accountant.events import BOOTSTRAP_DISTANCE_MAX, account
from symdp.accountant.sampled import EXACT_WEIGHT_BITS, bootstrap_upper, multiplicities
from symdp.core.errors import InvalidParameterError
from symdp.events import Gaussian, SampledWithReplacement


@pytest.mark.parametrize("n,k", [(1000, 1000), (3, 5000)])
def test_rounded_weights_are_below_the_exact_ones(n, k):
    """n^k has far more than 4096 bits: each weight is rounded down, by less than 2^-128 (the
    exact weight computed here with integers), and what is not given -- the rounding and the
    multiplicities left out -- is the residual, the perfectly distinguishable component,
    which is what makes the pair still dominate (docs/accountant.md §8)."""
    from math import comb

    assert k * n.bit_length() > EXACT_WEIGHT_BITS
    pair = bootstrap_upper(Gaussian(2) if n > 3 else Gaussian(100), n, k)
    kept = dict(zip(multiplicities(n, k), (w for w, _ in pair.components)))
    denominator = n ** k
    for j, w in kept.items():
        exact = Fraction(comb(k, j) * (n - 1) ** (k - j), denominator)
        assert w <= exact and exact - w < Fraction(1, 2 ** 128), j
    # the residual: every weight not kept (below 2^-40, or not among the multiplicities) and
    # the rounding, so the exact weights of the kept components plus it exceed 1 by nothing
    kept_exactly = sum(Fraction(comb(k, j) * (n - 1) ** (k - j), denominator)
                       for j, w in kept.items() if w >= Fraction(1, 2 ** 40))
    assert pair.residual == 1 - sum(w for w, _ in pair.kept) >= 1 - kept_exactly > 0


def test_the_multiplicities_that_matter():
    """From the mode outwards while the weight is above about 2^-48: Poisson(1)-like for k = n."""
    assert multiplicities(1000, 1000) == range(0, 17)
    r = multiplicities(2, 1000)       # Binomial(1000, 1/2): about 500 ± 8.2 sd
    assert r.start > 350 and r.stop < 650 and 500 in r


@pytest.mark.parametrize("sigma,n,k", [(1, 1000, 1000), (0.5, 1000, 1000), (2, 1000, 10_000)])
def test_a_far_group_pair_is_refused_by_its_limit(sigma, n, k):
    """n = k = 1000 at sigma = 1 (j up to 16, j/sigma = 16) ran for minutes: refused at once,
    naming the limit; sigma = 2 (j/sigma = 8) is within it."""
    with pytest.raises(InvalidParameterError, match=f"at most {BOOTSTRAP_DISTANCE_MAX}"):
        account(SampledWithReplacement(Gaussian(sigma), n, k), delta="1e-5", precision=0)
