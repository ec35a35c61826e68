"""Exact composition of (eps, delta)-DP against the product distributions written out."""

import mpmath
import pytest
import sympy as sp

from symdp.composition import LossAtoms, heterogeneous_loss, kov_epsilon, kov_epsilon_value, \
    kov_profile, kov_profile_value, kov_theorem_3_3
from symdp.composition.eps_delta import MAX_HETEROGENEOUS
from symdp.core.errors import InvalidParameterError

from ._product import eps_delta_pair, hockey_stick, product

EPS, DELTA = sp.Rational(3, 10), sp.Rational(1, 50)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("t", ["-0.7", "0", "0.3", "0.45", "0.9", "1.6"])
def test_kov_profile_is_the_hockey_stick_of_the_product(k, t):
    with mpmath.workdps(40):
        direct = hockey_stick(product([eps_delta_pair(mpmath.mpf(EPS), mpmath.mpf(DELTA))] * k),
                              mpmath.mpf(t))
        exact = sp.N(kov_profile(EPS, DELTA, k, t), 40)
        fast = kov_profile_value(EPS, DELTA, k, t, dps=35)
        atoms = LossAtoms.from_eps_delta(EPS, DELTA).power(k).profile(t)
        for value in (exact, fast, atoms):
            assert abs(mpmath.mpf(value) - direct) < mpmath.mpf(10) ** -33


@pytest.mark.parametrize("k,l", [(4, 0), (4, 1), (4, 2), (7, 3), (10, 2)])
def test_kov_theorem_3_3_as_printed_matches_the_profile(k, l):
    eps_l, delta_l = kov_theorem_3_3(EPS, DELTA, k, l)
    assert eps_l == (k - 2 * l) * EPS
    assert abs(sp.N(delta_l - kov_profile(EPS, DELTA, k, eps_l), 40)) < 1e-35


def test_epsilon_of_delta_solves_the_profile_k_100():
    """The required CLI case: eps such that delta_100(eps) = 1e-5, checked on the profile
    (KOV's printed formula gives the profile at the lattice points around it)."""
    with mpmath.workdps(50):
        e = kov_epsilon_value("0.1", 0, 100, "1e-5", dps=45)
        assert abs(kov_profile_value("0.1", 0, 100, sp.Float(e, 45), dps=45) - mpmath.mpf("1e-5")) \
            < mpmath.mpf(10) ** -40
        # the lattice points bracketing eps: the profile there straddles 1e-5 (KOV as printed)
        l_hi = int(mpmath.floor((100 - 10 * e) / 2))  # the largest l with (100 - 2l) * 0.1 >= e
        below = sp.N(kov_theorem_3_3("0.1", 0, 100, l_hi)[1], 50)
        above = sp.N(kov_theorem_3_3("0.1", 0, 100, l_hi + 1)[1], 50)
        assert below <= 1e-5 <= above


def test_epsilon_closed_form_agrees_with_the_walk():
    exact = kov_epsilon(EPS, DELTA, 3, "0.1")
    assert isinstance(exact, sp.log)
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(sp.N(exact, 40)) - kov_epsilon_value(EPS, DELTA, 3, "0.1", 38)) < 1e-35
        assert abs(mpmath.mpf(sp.N(kov_profile(EPS, DELTA, 3, exact), 40)) - mpmath.mpf("0.1")) < 1e-35


def test_epsilon_is_infinite_below_the_mass_at_infinity():
    assert kov_epsilon_value("0.1", "0.001", 10, "0.001") == mpmath.inf  # 1 - 0.999^10 > 0.001
    assert kov_epsilon("0.1", "0.001", 10, "0.001") == sp.oo


def test_heterogeneous_product_by_enumeration():
    pairs = [(sp.Rational(1, 2), sp.Rational(1, 100)), (sp.Rational(1, 5), 0), (1, sp.Rational(1, 1000))]
    loss = heterogeneous_loss(pairs)
    with mpmath.workdps(40):
        atoms = product([eps_delta_pair(mpmath.mpf(e), mpmath.mpf(d)) for e, d in
                         [(sp.Rational(1, 2), sp.Rational(1, 100)), (sp.Rational(1, 5), 0),
                          (1, sp.Rational(1, 1000))]])
        for t in ("0", "0.3", "0.7", "1.2", "1.7"):
            assert abs(loss.profile(t) - hockey_stick(atoms, mpmath.mpf(t))) < mpmath.mpf(10) ** -35


def test_heterogeneous_limit_is_enforced():
    pairs = [(sp.Rational(1, 10 + j), 0) for j in range(MAX_HETEROGENEOUS + 1)]
    with pytest.raises(InvalidParameterError, match="at most 12"):
        heterogeneous_loss(pairs)


@pytest.mark.parametrize("bad,match", [(dict(eps=-1), "eps"), (dict(delta=2), "delta"),
                                       (dict(k=0), "k")])
def test_bad_input_names_the_parameter(bad, match):
    args = dict(eps="0.1", delta=0, k=3)
    args.update(bad)
    with pytest.raises(InvalidParameterError, match=match):
        kov_epsilon_value(args["eps"], args["delta"], args["k"], "1e-5")


def test_grouped_heterogeneous_product_against_the_product_distributions():
    from symdp.composition.eps_delta import grouped_epsilon_value, grouped_profile_value

    groups = [(sp.Rational(1, 2), sp.Rational(1, 100), 2), (1, 0, 2), (sp.Rational(1, 5), sp.Rational(1, 1000), 1)]
    with mpmath.workdps(40):
        pairs = [eps_delta_pair(mpmath.mpf(sp.N(e, 45)), mpmath.mpf(sp.N(d, 45))) for e, d, k in groups
                 for _ in range(k)]
        atoms = product(pairs)
        for t in ("-0.5", "0", "0.7", "1.5", "2.7"):
            assert abs(grouped_profile_value(groups, t, dps=38) - hockey_stick(atoms, mpmath.mpf(t))) < 1e-35
        e = grouped_epsilon_value(groups, "0.05", dps=38)
        assert abs(hockey_stick(atoms, e) - mpmath.mpf("0.05")) < 1e-33


def test_grouped_limit_is_enforced():
    from symdp.composition.eps_delta import MAX_GROUPED_ATOMS, grouped_profile_value

    groups = [(sp.Rational(1, 10 + j), 0, 3) for j in range(9)]  # 4^9 > 2^16 losses
    assert 4 ** 9 > MAX_GROUPED_ATOMS
    with pytest.raises(InvalidParameterError, match="#P-hard"):
        grouped_profile_value(groups, 1)
