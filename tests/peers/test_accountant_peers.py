"""symdp's certified accountant against dp_accounting's PLD accountant (a peer no one here wrote).

dp_accounting's connect-the-dots PLD is an estimate (floating point, no error bound) and its
pessimistic PLD an upper bound by design (up to floating point and its truncation): the test
asserts that the certified bracket contains the former and that the latter is not below the
certified lower end -- never equality.
"""

from fractions import Fraction

import pytest

pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution",
                          reason="peer tests need dp_accounting: pip install -e '.[peers]'")

from symdp.accountant import certified_delta, certified_epsilon, poisson_gaussian  # noqa: E402


def peer(sigma, q, T, connect_dots, interval=1e-4):
    return pld.from_gaussian_mechanism(sigma, sampling_prob=q, value_discretization_interval=interval,
                                       use_connect_dots=connect_dots).self_compose(T)


@pytest.mark.parametrize("sigma,q,T,eps", [(1.0, 0.05, 50, 1.0), (2.0, 0.2, 20, 0.5), (0.8, 0.01, 200, 2.0)])
def test_delta_bracket_contains_connect_the_dots(sigma, q, T, eps):
    b = certified_delta(poisson_gaussian(sigma, q, T), eps, precision=1)
    ctd = peer(sigma, q, T, True).get_delta_for_epsilon(eps)
    pes = peer(sigma, q, T, False).get_delta_for_epsilon(eps)
    assert b.lo <= Fraction(ctd) <= b.hi
    assert Fraction(pes) >= b.lo


def test_epsilon_bracket_contains_connect_the_dots():
    b = certified_epsilon(poisson_gaussian(1.0, 0.05, 50), 1e-6, precision=1)
    ctd = peer(1.0, 0.05, 50, True).get_epsilon_for_delta(1e-6)
    assert b.lo <= Fraction(ctd) <= b.hi


def test_a_two_phase_schedule_contains_connect_the_dots():
    """Phases (sigma=1, q=0.05, 30 steps) then (sigma=2, q=0.1, 40 steps), each direction kept
    through both phases; the peer composes its two PLDs."""
    b = certified_delta([poisson_gaussian(1, "0.05", 30), poisson_gaussian(2, "0.1", 40)], 1, precision=1)
    ctd = peer(1.0, 0.05, 30, True).compose(peer(2.0, 0.1, 40, True)).get_delta_for_epsilon(1.0)
    assert b.lo <= Fraction(ctd) <= b.hi
