"""BootstrapSumPair.tails(y) does not depend on the calls before it.

Its root finder warm-starts from the last root.  A call below the loss's support leaves a root
near -inf, from which Newton's relative step test "converged" at once: tails(21.875) after
tails(-1) gave (1, 1) instead of masses of order 1e-44 (seen by the fftspeed helper; n = 100,
k = 10, sigma = 2).  The reference is the same pair's answer in a fresh object."""

from fractions import Fraction

import pytest
from flint import arb

from symdp.accountant.sampled import BootstrapSumPair


@pytest.mark.parametrize("sigma, n, k", [(2, 100, 10), (1, 100, 64), (Fraction(1, 2), 10, 5)])
def test_tails_after_a_call_below_the_support_equal_a_fresh_pair(sigma, n, k):
    fresh = BootstrapSumPair(Fraction(sigma), n, k, Fraction(1)).tails(arb(21.875))
    used = BootstrapSumPair(Fraction(sigma), n, k, Fraction(1))
    used.tails(arb(-1))
    again = used.tails(arb(21.875))
    for a, b in zip(fresh, again):
        assert a.overlaps(b) and b.upper() < 0.01
