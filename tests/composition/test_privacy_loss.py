r"""symdp.composition.privacy_loss against hand derivations, DRS theorems and direct
quadrature of the densities (Dong, Roth, Su 2022, arXiv 1905.02383v3).

By hand, for f_{eps,delta} (loss +oo w.p. delta, eps w.p. (1-delta) e^eps/(1+e^eps), -eps w.p.
(1-delta)/(1+e^eps); KOV 2015, DRS Prop. 2.5):
* delta(e') = delta + (1-delta)(e^eps - e^e')/(1+e^eps) for 0 <= e' <= eps, delta beyond.
* the 2-fold product of (eps, 0): delta(0) = (e^{2eps} - 1)/(1+e^eps)^2 = (e^eps-1)/(e^eps+1).
* f_{eps,delta}(a) = max(0, 1 - delta - e^eps a, e^{-eps}(1 - delta - a)) (DRS Eq. 5).
Gaussian: G_a (x) G_b = G_sqrt(a^2+b^2) (DRS Cor. 3.3); profiles by Cor. 2.13 with erfc.
"""

import mpmath
import pytest
import sympy as sp

from symdp.core.errors import InvalidParameterError
from symdp.composition.privacy_loss import (GaussianLoss, LaplaceLoss, LossAtoms,
                                            epsilon_for_delta, product_profile)
from symdp.tradeoff.base import TradeOff, alpha

R = sp.Rational
DPS = 30
TOL = mpmath.mpf(10) ** (-DPS + 8)


def _phi(z):
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


def _gaussian_profile(mu, e):
    return _phi(-e / mu + mu / 2) - mpmath.exp(e) * _phi(-e / mu - mu / 2)


@pytest.mark.parametrize("e", [0, R(1, 2), 1, 2])
def test_eps_delta_profile_is_the_hand_formula(e):
    eps, delta = 1, R(1, 10)
    atoms = LossAtoms.from_eps_delta(eps, delta)
    E = sp.exp(eps)
    expected = delta + (1 - delta) * (E - sp.exp(e)) / (1 + E) if e <= eps else delta
    assert sp.simplify(atoms.profile_exact(e) - expected) == 0
    assert sp.simplify(sum(m for _, m in atoms.atoms)) == 1


def test_two_fold_product_at_zero():
    eps = R(3, 4)
    twice = LossAtoms.from_eps_delta(eps, 0).power(2)
    E = sp.exp(eps)
    assert sp.simplify(twice.profile_exact(0) - (E - 1) / (E + 1)) == 0
    assert len(twice) == 3                       # losses 2eps, 0, -2eps (equal losses merged)
    d = R(1, 5)
    with_delta = LossAtoms.from_eps_delta(eps, d).power(2)
    assert sp.simplify(with_delta.infinite_mass - (1 - (1 - d) ** 2)) == 0


def test_epsilon_exact_inverts_the_profile():
    atoms = LossAtoms.from_eps_delta(1, R(1, 10))
    assert sp.simplify(atoms.epsilon_exact(R(1, 10)) - 1) == 0
    assert atoms.epsilon_exact(R(1, 20)) == sp.oo         # below the mass at +oo
    assert atoms.epsilon_exact(1) == 0
    # a delta between: substitute the returned eps back into the hand formula
    target = R(1, 5)
    e = atoms.epsilon_exact(target)
    E = sp.E
    assert abs(sp.N(R(1, 10) + R(9, 10) * (E - sp.exp(e)) / (1 + E) - target, 40)) < 1e-35


@pytest.mark.parametrize("a", [0, R(1, 50), R(1, 5), R(1, 2), R(9, 10)])
def test_trade_off_by_neyman_pearson_is_f_eps_delta(a):
    eps, delta = 1, R(1, 10)
    with mpmath.workdps(DPS):
        got = LossAtoms.from_eps_delta(eps, delta).trade_off(a)
        am, e, d = mpmath.mpf(a.p if a else 0) / (a.q if a else 1), mpmath.e, mpmath.mpf(1) / 10
        ref = max(0, 1 - d - e * am, (1 - d - am) / e)
        assert abs(got - ref) <= TOL


def test_from_piecewise_linear_reads_slopes_as_losses():
    # f = 1 - 2a on [0, 1/4], (2/3)(1 - a) on [1/4, 1]: Q-masses 1/2, 1/2 at losses log 2, log(2/3)
    f = TradeOff(sp.Piecewise((1 - 2 * alpha, alpha <= R(1, 4)), (R(2, 3) * (1 - alpha), True)))
    atoms = LossAtoms.from_piecewise_linear(f)
    got = sorted((sp.N(loss, 30), m) for loss, m in atoms.atoms)
    assert len(got) == 2 and [m for _, m in got] == [R(1, 2), R(1, 2)]
    assert sp.simplify(sum(loss for loss, _ in atoms.atoms) - sp.log(R(4, 3))) == 0
    assert {sp.simplify(sp.exp(loss)) for loss, _ in atoms.atoms} == {2, R(2, 3)}
    assert atoms.profile_exact(0) == R(1, 4)     # 1/2 (1 - 1/2)
    with pytest.raises(InvalidParameterError):
        LossAtoms.from_piecewise_linear(TradeOff((1 - alpha) ** 2))


@pytest.mark.parametrize("e", ["-1", "0", "0.7", "3"])
def test_gaussian_and_laplace_profiles_against_quadrature(e):
    with mpmath.workdps(DPS):
        e, mu = mpmath.mpf(e), mpmath.mpf("1.5")
        x0 = e / mu + mu / 2                     # q = e^e p  at x0 for N(0,1), N(mu,1)
        ref = mpmath.quad(lambda x: mpmath.npdf(x, mu) - mpmath.exp(e) * mpmath.npdf(x),
                          [x0, x0 + 10, mpmath.inf])
        assert abs(GaussianLoss(mu).profile(e) - ref) <= TOL
        # Laplace: p = e^{-|x|}/2, q = e^{-|x-mu|}/2; integrate (q - e^e p)_+ piecewise
        lap = lambda x, c: mpmath.exp(-abs(x - c)) / 2  # noqa: E731
        g = lambda x: max(lap(x, mu) - mpmath.exp(e) * lap(x, 0), 0)  # noqa: E731
        ref_l = mpmath.quad(g, [-mpmath.inf, -20, 0, (e + mu) / 2, mu, mu + 20, mpmath.inf])
        assert abs(LaplaceLoss(mu).profile(e) - ref_l) <= TOL


def test_product_of_gaussians_is_gaussian():
    with mpmath.workdps(20):
        for e in (mpmath.mpf(0), mpmath.mpf(1)):
            got = product_profile([GaussianLoss(R(3, 5)), GaussianLoss(R(4, 5))], e)
            assert abs(got - _gaussian_profile(mpmath.mpf(1), e)) <= mpmath.mpf(10) ** -14


def test_epsilon_for_delta_by_substitution():
    with mpmath.workdps(DPS):
        loss = GaussianLoss(1)
        d = mpmath.mpf("1e-5")
        e = epsilon_for_delta(loss.profile, d)
        assert abs(_gaussian_profile(mpmath.mpf(1), e) - d) <= d * mpmath.mpf(10) ** -15
        assert epsilon_for_delta(loss.profile, 1) == 0


@pytest.mark.parametrize("call", [lambda: LossAtoms.from_eps_delta(-1, 0),
                                  lambda: LossAtoms.from_eps_delta(1, 2),
                                  lambda: LossAtoms.from_eps_delta(1, 0).power(0),
                                  lambda: GaussianLoss(-1)])
def test_bad_input(call):
    with pytest.raises(InvalidParameterError):
        call()
