"""The tensor product objects against definitions: product distributions, quadrature."""

import mpmath
import pytest
import sympy as sp

from symdp import EpsDelta, Gaussian, Laplace
from symdp.composition import DensityLoss, GaussianLoss, LaplaceLoss, LossAtoms, TensorPower, \
    TensorProduct, loss_of, product_profile, tensor, tensor_power
from symdp.composition.privacy_loss import LatticeLoss
from symdp.core.errors import InvalidParameterError
from symdp.subsampling import subsample
from symdp.tradeoff import Identity, Zero

from ._product import eps_delta_pair, neyman_pearson, product

a, b = sp.symbols("a b", nonnegative=True)


def test_latex_prints_as_the_paper():
    assert sp.latex(tensor(Gaussian(a), EpsDelta(1, 0))) == r"G_{a} \otimes f_{1,0}"
    assert sp.latex(tensor_power(Gaussian(a), 3)) == r"G_{a}^{\otimes 3}"
    assert sp.latex(tensor_power(tensor(Gaussian(a), Gaussian(b)), 2)) == \
        r"\left(G_{a} \otimes G_{b}\right)^{\otimes 2}"


def test_gaussian_closed_form_and_identity_and_zero():
    assert tensor(Gaussian(a), Gaussian(b), Identity()).doit() == Gaussian(sp.sqrt(a ** 2 + b ** 2))
    n = sp.Symbol("n", integer=True, positive=True)
    assert tensor_power(Gaussian(a), n).doit() == Gaussian(sp.sqrt(n) * a)
    assert tensor(EpsDelta(1, 0), Identity()).doit() == EpsDelta(1, 0)
    assert tensor(EpsDelta(1, 0), Zero()).doit() == Zero()
    # kept as written: commutativity is a theorem, not a rewrite
    assert TensorProduct(Gaussian(1), Gaussian(2)) != TensorProduct(Gaussian(2), Gaussian(1))


@pytest.mark.parametrize("bad,match", [(lambda: TensorPower(Gaussian(1), 0), "n must be"),
                                       (lambda: TensorPower(Gaussian(1), "1.5"), "n must be"),
                                       (lambda: TensorProduct(Gaussian(1)), "at least 2"),
                                       (lambda: tensor(Gaussian(1), "x"), "trade-off")])
def test_bad_input(bad, match):
    with pytest.raises(InvalidParameterError, match=match):
        bad()


def test_gaussian_product_profile_closed_form_vs_quadrature():
    """G_1 (x) G_2 = G_sqrt5 (closed form, Cor. 2.13) vs E_{L1}[delta_{G_2}(eps - L1)] by
    quadrature vs the definition int (q - e^eps p)_+ for N(0,1), N(sqrt5,1)."""
    with mpmath.workdps(50):
        for e in ("0", "0.5", "2", "5"):
            closed = tensor(Gaussian(1), Gaussian(2)).delta(e, dps=45)
            quad = product_profile([GaussianLoss(1), GaussianLoss(2)], mpmath.mpf(e))
            r5 = mpmath.sqrt(5)
            direct = DensityLoss(lambda x: mpmath.npdf(x), lambda x: mpmath.npdf(x, r5),
                                 [-mpmath.inf, 0, r5, mpmath.inf]).profile(mpmath.mpf(e))
            assert abs(closed - quad) < mpmath.mpf(10) ** -40
            assert abs(closed - direct) < mpmath.mpf(10) ** -40


def _two_dim_profile(q1, p1, q2, p2, cuts_x, cuts_y, t):
    """int int (q1 q2 - e^t p1 p2)_+ dx dy with the integration split at the given cuts."""
    e = mpmath.exp(t)

    def inner(x):
        return mpmath.quad(lambda y: max(q1(x) * q2(y) - e * p1(x) * p2(y), 0), cuts_y(x))

    return mpmath.quad(inner, cuts_x)


def test_laplace_product_against_the_two_dimensional_definition():
    with mpmath.workdps(15):
        t = mpmath.mpf("0.5")
        lap = lambda x, m: mpmath.exp(-abs(x - m)) / 2  # noqa: E731
        base = [-mpmath.inf, 0, 1, mpmath.inf]
        # {L > t} has boundary y = t/2 (x >= 1) and y = (t + 2)/2 - x (0 < x < 1)
        cuts_y = lambda x: sorted(set(base) | {t / 2} | ({(t + 2) / 2 - x} if 0 < (t + 2) / 2 - x < 1 else set()))  # noqa: E731,E501
        direct = _two_dim_profile(lambda x: lap(x, 1), lambda x: lap(x, 0), lambda y: lap(y, 1),
                                  lambda y: lap(y, 0), sorted(set(base) | {t / 2, t / 2}), cuts_y, t)
        ours = tensor(Laplace(1), Laplace(1)).delta("0.5", dps=15)
        assert abs(ours - direct) < mpmath.mpf(10) ** -12


def test_laplace_profile_closed_form_is_its_loss_integral():
    """1 - e^{(t - mu)/2} on |t| <= mu etc. vs E_Q[(1 - e^{t - L})_+] by quadrature of the loss."""
    with mpmath.workdps(40):
        L = LaplaceLoss(sp.Rational(3, 2))
        for t in ("-2", "-1", "0", "0.7", "1.4", "2"):
            tt = mpmath.mpf(t)
            by_loss = L.expect(lambda l: max(1 - mpmath.exp(tt - l), 0), cuts=[tt])
            assert abs(L.profile(tt) - by_loss) < mpmath.mpf(10) ** -35


def test_product_with_discrete_factor_trade_off_by_neyman_pearson():
    f = tensor(EpsDelta(sp.Rational(1, 2), sp.Rational(1, 100)), EpsDelta(1, 0))
    with mpmath.workdps(30):
        atoms = product([eps_delta_pair(mpmath.mpf("0.5"), mpmath.mpf("0.01")),
                         eps_delta_pair(mpmath.mpf(1), mpmath.mpf(0))])
        for x in ("0", "0.05", "0.2", "0.5", "0.9", "1"):
            assert abs(f.evaluate(x, dps=25) - neyman_pearson(atoms, mpmath.mpf(x))) < 1e-22
    # the exact pieces give the same values
    pieces_expr = f.expr(sp.Rational(1, 5))
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(sp.N(pieces_expr, 30)) - neyman_pearson(atoms, mpmath.mpf("0.2"))) < 1e-22


def test_identity_factor_leaves_the_profile_unchanged():
    f = EpsDelta(sp.Rational(7, 10), sp.Rational(1, 20))
    with mpmath.workdps(30):
        for t in ("0", "0.3", "0.7", "1"):
            loss = loss_of(f).tensor(loss_of(Identity()))
            assert loss.profile(t) == loss_of(f).profile(t)


def test_subsampled_eps_delta_is_a_discrete_pair():
    """C_p(f_{eps,delta}) read off its Eq. 14 pieces as a pair (P, Q): Neyman--Pearson on the
    atoms gives back C_p(f) (its own closed form) at every point."""
    C = subsample(EpsDelta(1, sp.Rational(1, 1000)), sp.Rational(1, 10))
    loss = loss_of(C)
    assert loss.infinite_mass == sp.Rational(1, 10000)
    with mpmath.workdps(30):
        for x in ("0", "0.1", "0.3", "0.5", "0.8", "0.9999", "1"):
            assert abs(loss.trade_off(mpmath.mpf(x)) - C.evaluate(x, dps=30)) < 1e-25


def test_lattice_power_agrees_with_exact_atoms():
    C = subsample(EpsDelta(1, sp.Rational(1, 1000)), sp.Rational(1, 10))
    loss = loss_of(C)
    g = [l for l, _ in loss.atoms if l not in (sp.oo, 0)][0]
    lattice = LatticeLoss.from_atoms(loss, abs(g)).power(3)
    exact = loss.power(3)
    with mpmath.workdps(40):
        for t in ("0", "0.1", "0.25", "0.5"):
            ball = lattice.profile_ball(t)
            assert abs(mpmath.mpf(ball.mid().str(40, radius=False)) - exact.profile(t)) < 1e-30
        e_ball = lattice.epsilon_ball("0.01")
        assert abs(mpmath.mpf(e_ball.mid().str(40, radius=False)) - exact.epsilon("0.01")) < 1e-30


def test_loss_of_unknown_function_says_how_to_proceed():
    from symdp.tradeoff import TradeOff, alpha

    f = TradeOff((1 - alpha) ** 2)
    with pytest.raises(NotImplementedError, match="DensityLoss"):
        loss_of(f)


def test_loss_atoms_from_piecewise_linear_sum_to_one():
    atoms = LossAtoms.from_piecewise_linear(EpsDelta(2, sp.Rational(1, 10)))
    assert sp.simplify(sum(m for _, m in atoms.atoms) - 1) == 0


def test_trade_off_from_the_profile_route():
    """(L_0 (x) G_1)(alpha) = G_1(alpha) by the profile route: the sup over s of
    1 - delta(log s) - s alpha, with delta from the loss objects (L_0 = Id has loss 0)."""
    from symdp.composition.products import trade_off_value

    f = TensorProduct(Laplace(0), Gaussian(1))
    for a in ("0.05", "0.3", "0.7"):
        with mpmath.workdps(30):
            assert abs(trade_off_value(f, a, dps=25) - Gaussian(1).evaluate(a, dps=30)) < 1e-22


def test_profile_object_of_a_continuous_product_evaluates():
    f = tensor(Laplace(1), Laplace(1))
    value = f.privacy_profile(sp.Rational(1, 2))
    assert "delta" in sp.latex(value)
    with mpmath.workdps(20):
        assert abs(mpmath.mpf(value.evalf(15)) - f.delta("0.5", dps=15)) < 1e-12


def test_ties_at_lattice_points_are_decided_exactly():
    """At t = (2i - k) eps exactly, the atom at t contributes 0 whichever side it is put on;
    the grouped route decides the tie exactly and agrees with KOV as printed."""
    from symdp.composition.eps_delta import grouped_profile_value, kov_theorem_3_3

    e_l, d_l = kov_theorem_3_3(sp.Rational(1, 10), sp.Rational(1, 100), 6, 2)
    with mpmath.workdps(40):
        assert abs(grouped_profile_value([(sp.Rational(1, 10), sp.Rational(1, 100), 6)], e_l, 35)
                   - mpmath.mpf(sp.N(d_l, 45))) < 1e-33


def test_laplace_product_at_50_digits_against_a_hand_derived_closed_form():
    """delta of L_1 (x) L_1 at eps = 1/2 by hand from the loss of L_1 (atoms 1 w.p. 1/2, -1 w.p.
    e^-1/2, density e^{(l-1)/2}/4 on (-1, 1)) and the profile 1 - e^{(u-1)/2} on |u| <= 1:
    1/2 (1 - e^{-3/4}) + int_{-1/2}^{1} e^{(l-1)/2}/4 (1 - e^{-1/4 - l/2}) dl = 1 - (11/8) e^{-3/4}."""
    with mpmath.workdps(60):
        exact = 1 - mpmath.mpf(11) / 8 * mpmath.exp(-mpmath.mpf(3) / 4)
        assert abs(tensor(Laplace(1), Laplace(1)).delta("0.5", dps=50) - exact) < mpmath.mpf(10) ** -48


def test_privacy_profile_at_a_decimal_string_stays_exact():
    f = tensor(EpsDelta(1, sp.Rational(1, 100)), EpsDelta(sp.Rational(1, 2), 0))
    value = f.privacy_profile("0.3")
    assert not value.atoms(sp.Float)
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(sp.N(value, 35)) - f.delta("0.3", dps=30)) < 1e-28
    power = tensor_power(EpsDelta(sp.Rational(1, 10), 0), 100).privacy_profile("0.3")
    assert not power.atoms(sp.Float)
