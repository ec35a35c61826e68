"""C_p(f): the Eq. 14 object against the definition route (biconjugate of the min) at 50 digits."""

import mpmath
import pytest
import sympy as sp

from symdp import Phi, subsample
from symdp.core.errors import InvalidParameterError, NotATradeOffFunctionError
from symdp.subsampling import Subsampled, inverse_conjugate
from symdp.tradeoff import EpsDelta, Gaussian, Identity, Laplace, PointwiseMin, Zero
from symdp.tradeoff.base import conjugate as conjugate_from_pieces

R = sp.Rational
DPS = 50
TOL = mpmath.mpf(10) ** (-DPS + 5)
ALPHAS = (R(0), R(1, 1000), R(1, 50), R(1, 7), R(1, 3), R(1, 2), R(2, 3), R(9, 10), R(999, 1000), R(1))

CASES = [
    (EpsDelta(3, R(1, 10)), R(1, 5)),
    (EpsDelta(R(1, 2), R(1, 3)), R(7, 10)),
    (EpsDelta(0, R(1, 10)), R(1, 2)),
    (EpsDelta(2, 0), R(1, 3)),
    (EpsDelta(5, 1), R(1, 4)),
    (Laplace(1), R(1, 5)),
    (Zero(), R(1, 3)),
]


def _agree(C, alphas):
    D = C.definition()
    with mpmath.workdps(DPS):
        for a in alphas:
            closed, definition = C.evaluate(a, dps=DPS), D.evaluate(a, dps=DPS)
            assert abs(closed - definition) <= TOL, (C, a, closed, definition)


@pytest.mark.parametrize("f, p", CASES, ids=[f"{f}-{p}" for f, p in CASES])
def test_eq14_closed_form_equals_the_definition_at_50_digits(f, p):
    _agree(subsample(f, p), ALPHAS)


def test_laplace_with_a_quadratic_inverse_piece_equals_the_definition():
    _agree(subsample(Laplace(3), R(2, 3)), (R(1, 50), R(1, 3), R(4, 5), R(19, 20)))


@pytest.mark.parametrize("mu, p", [(1, R(1, 5)), (R(5, 2), R(1, 20))])
def test_gaussian_closed_form_with_implicit_inverse_equals_the_definition(mu, p):
    _agree(subsample(Gaussian(mu), p), (R(1, 100), R(1, 2), R(9, 10)))


def test_gaussian_pieces_keep_the_inverse_exact_and_the_fixed_point_is_phi():
    C = subsample(Gaussian(1), R(1, 5))
    assert C.base_fixed_point() == Phi(-R(1, 2))
    assert any("InverseAt" in sp.srepr(q.g.expr) for q in C.pieces())


def test_endpoints_are_exact():
    f = EpsDelta(3, R(1, 10))
    assert subsample(f, 0) == Identity()
    assert subsample(f, 1) is f
    assert subsample(Gaussian(2), "1") == Gaussian(2)


def test_latex_prints_the_operator():
    C = subsample(EpsDelta(3, "0.1"), "0.2")
    assert sp.latex(C) == r"C_{\frac{1}{5}}\left(f_{3,\frac{1}{10}}\right)"
    a = sp.Symbol("alpha")
    assert sp.latex(C(a) ** 2).startswith(r"C_{\frac{1}{5}}")  # _latex(..., exp) handled


def test_fixed_point_and_min_error_sum():
    C = subsample(EpsDelta(3, R(1, 10)), R(1, 5))
    xs = C.fixed_point()
    with mpmath.workdps(40):
        assert abs(C.evaluate(xs, dps=40) - sp.N(xs, 45)) < mpmath.mpf(10) ** -35
        assert abs(sp.N(C.min_error_sum() - 2 * xs, 45)) < 1e-40
        expected = 1 - R(1, 5) + 2 * R(1, 5) * R(9, 10) / (1 + sp.exp(3))
        assert abs(sp.N(C.min_error_sum() - expected, 45)) < 1e-40


def test_symbolic_parameters_build_the_pieces():
    eps, delta, p = sp.symbols("varepsilon delta p", real=True)
    C = subsample(EpsDelta(eps, delta), p)
    value = C.expr(R(1, 3)).xreplace({eps: 1, delta: R(1, 5), p: R(1, 2)})
    numeric = subsample(EpsDelta(1, R(1, 5)), R(1, 2)).evaluate(R(1, 3), dps=30)
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(sp.N(value, 35)) - numeric) < mpmath.mpf(10) ** -25


def test_inverse_conjugate_reflection_matches_the_pieces():
    fp = EpsDelta(3, R(1, 10)).mix(R(1, 5))
    y = sp.Symbol("y", real=True)
    pieces, reflected = conjugate_from_pieces(fp.inverse(), y), inverse_conjugate(fp, y)
    for v in (R(-1, 3), R(-1), R(-3), R(-50, 7), R(2)):
        a = sp.N(pieces.subs(y, v), 40)
        b = sp.N(reflected.subs(y, v), 40)
        assert abs(a - b) < 1e-35, (y, a, b)


def test_conjugate_of_cp_is_max_of_the_two_conjugates():
    C = subsample(EpsDelta(3, R(1, 10)), R(1, 5))
    for y in (R(-1, 2), R(-1), R(-7, 2), R(-30)):
        assert abs(sp.N(C.conjugate(y) - C.conjugate_from_definition(y), 40)) < 1e-35


@pytest.mark.parametrize("p", [-0.1, 1.5, "2", "abc"])
def test_bad_p_is_rejected_naming_p(p):
    with pytest.raises(InvalidParameterError, match="p"):
        subsample(EpsDelta(1, 0), p)


@pytest.mark.parametrize("make, name", [(lambda: EpsDelta(-1, 0), "eps"), (lambda: EpsDelta(1, 2), "delta"),
                                        (lambda: Gaussian(-1), "mu"), (lambda: Laplace(-2), "mu")])
def test_bad_family_parameters_are_rejected_naming_them(make, name):
    with pytest.raises(InvalidParameterError, match=name):
        subsample(make(), R(1, 2))


def test_not_a_trade_off_function_is_rejected():
    fp = EpsDelta(1, 0).mix(R(1, 2))
    with pytest.raises(NotATradeOffFunctionError):
        subsample(PointwiseMin(fp, fp.inverse()), R(1, 2))
    with pytest.raises(NotATradeOffFunctionError):
        subsample("not a function", R(1, 2))


def test_asymmetric_f_goes_through_the_definition():
    g = Zero().mix(R(1, 2))  # (1/2) Id: not symmetric, C_p(g) only from the definition
    C = Subsampled(g, R(1, 2))
    assert not C.has_closed_form
    # g_p = (3/4) Id and its inverse max{0, 1 - 4a/3}: the envelope of the min is the chord
    # from (0, 3/4) to (3/4, 0) -- a second route, by hand
    with mpmath.workdps(30):
        for a in (R(1, 5), R(1, 2), R(9, 10)):
            assert abs(C.evaluate(a, dps=30) - mpmath.mpf(max(0, R(3, 4) - a))) < mpmath.mpf(10) ** -25
