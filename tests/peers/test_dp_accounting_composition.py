"""Composition: symdp against dp_accounting's privacy-loss-distribution accountant.

The peer discretises the privacy loss pessimistically (value_discretization_interval 1e-4)
and evaluates in doubles, so its delta(eps) is an upper bound close to the exact value: the
tests assert the direction (peer >= symdp, up to double rounding) and closeness, never
equality.  symdp's values are exact or 30-digit (KOV 2015 Thm. 3.3, the Gaussian closed
form, the privacy-loss integral for Laplace, Arb polynomial powers for C_p(f_{eps,delta})).

Peer version: dp_accounting 0.6 (``pip install -e '.[peers]'``).
"""

import mpmath
import pytest
import sympy as sp

dp_accounting = pytest.importorskip(
    "dp_accounting", reason="peer tests need dp_accounting: pip install -e '.[peers]'")
from dp_accounting.pld import privacy_loss_distribution as pld  # noqa: E402
from dp_accounting.pld.common import DifferentialPrivacyParameters  # noqa: E402

from symdp import Gaussian, Laplace  # noqa: E402
from symdp.composition import LossAtoms, kov_epsilon_value, kov_profile_value, loss_of, tensor, \
    tensor_power  # noqa: E402
from symdp.composition.privacy_loss import LatticeLoss  # noqa: E402
from symdp.subsampling.eps_delta import lemma_4_4, subsampled_eps_delta  # noqa: E402

GRID = 1e-4
#: the peer's pessimism from the 1e-4 loss grid, relative (measured: below 1e-8 here)
PEER_SLACK = 1e-6


def _peer_above(peer, ours, slack=PEER_SLACK):
    """The pessimistic peer is above symdp's value, and close to it."""
    ours = float(ours)
    assert peer >= ours * (1 - 1e-12) - 1e-15
    assert peer - ours <= slack * max(ours, 1e-12) + 1e-14


@pytest.mark.parametrize("sigma,k,eps", [(2.0, 10, 1.0), (1.0, 4, 2.0), (4.0, 50, 0.5)])
def test_gaussian_composition(sigma, k, eps):
    peer = pld.from_gaussian_mechanism(standard_deviation=sigma, value_discretization_interval=GRID) \
        .self_compose(k).get_delta_for_epsilon(eps)
    ours = tensor_power(Gaussian(1 / sp.Rational(str(sigma))), k).delta(str(eps))
    _peer_above(peer, ours)


@pytest.mark.parametrize("b,k,eps", [(1.0, 2, 0.5), (2.0, 2, 0.2)])
def test_laplace_composition(b, k, eps):
    peer = pld.from_laplace_mechanism(parameter=b, sensitivity=1, value_discretization_interval=GRID) \
        .self_compose(k).get_delta_for_epsilon(eps)
    mu = 1 / sp.Rational(str(b))
    ours = tensor(*[Laplace(mu)] * k).delta(str(eps), dps=20)
    _peer_above(peer, ours)


@pytest.mark.parametrize("e,d,k,eps", [("0.1", "1e-6", 100, 2.0), ("0.5", "0", 20, 3.0)])
def test_eps_delta_composition(e, d, k, eps):
    peer = pld.from_privacy_parameters(DifferentialPrivacyParameters(float(e), float(d)),
                                       value_discretization_interval=GRID) \
        .self_compose(k).get_delta_for_epsilon(eps)
    _peer_above(peer, kov_profile_value(e, d, k, str(eps)))


def test_eps_of_delta_for_eps_delta_composition():
    peer = pld.from_privacy_parameters(DifferentialPrivacyParameters(0.1, 0.0),
                                       value_discretization_interval=GRID) \
        .self_compose(100).get_epsilon_for_delta(1e-5)
    ours = float(kov_epsilon_value("0.1", 0, 100, "1e-5"))
    assert ours <= peer <= ours + 2 * GRID  # the peer rounds losses up to its grid


def test_subsampled_eps_delta_composition_of_the_seed_table():
    """C_p(f_{1,1e-8}), p = 0.01, composed 100 times: its pair (P, Q) read off Eq. 14 handed to
    the peer as two probability mass functions; and Lemma 4.4's f_{eps',delta'} likewise."""
    eps, delta, p, T = 1, sp.Rational(1, 10 ** 8), sp.Rational(1, 100), 100
    for loss in (loss_of(subsampled_eps_delta(eps, delta, p)),
                 LossAtoms.from_eps_delta(*lemma_4_4(eps, delta, p))):
        log_p, log_q = {}, {}  # the peer takes log masses; a zero mass is an absent key
        for j, (L, m) in enumerate(loss.atoms):
            log_q[j] = float(sp.N(sp.log(m), 20))
            if L != sp.oo:
                log_p[j] = float(sp.N(sp.log(m) - L, 20))
        mass_p = 1 - sum(sp.N(m * sp.exp(-L), 30) for L, m in loss.atoms if L != sp.oo)
        if mass_p > 1e-30:  # P's mass where Q has none (loss -inf)
            log_p["p_only"] = float(sp.N(sp.log(mass_p), 20))
        # the hockey stick is sum (upper - e^eps lower)_+: upper = Q, lower = P
        # the peer rounds each of the T losses (~0.017) up (pessimistic) or down (optimistic) to
        # its grid: the two estimates must bracket the exact value
        upper, lower = (pld.from_two_probability_mass_functions(
            log_p, log_q, value_discretization_interval=1e-5, pessimistic_estimate=pe)
            .self_compose(T).get_delta_for_epsilon(0.3) for pe in (True, False))
        eps1 = lemma_4_4(eps, delta, p)[0]
        ours = LatticeLoss.from_atoms(loss, eps1).power(T).profile_ball("0.3")
        with mpmath.workdps(30):
            value = float(mpmath.mpf(ours.mid().str(30, radius=False)))
        assert lower <= value <= upper
        assert upper - lower < 0.02 * value
