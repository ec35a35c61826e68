"""The numeric layer's compilers call objects through hooks (that they import none is
tests/test_architecture.py's job); Phi is
mpmath's ``ncdf``, checked in both tails against the incomplete-gamma route at 50 digits."""

import mpmath
import pytest
import sympy as sp

from symdp.core.special import Phi, mp_phi
from symdp.numeric.mp_compiler import mp_callable, to_mpf

x = sp.Symbol("x", real=True)


@pytest.mark.parametrize("z", ["-40", "-8", "-1", "-0.001", "0", "0.5", "3", "9"])
def test_phi_is_the_normal_cdf_to_50_digits_in_both_tails(z):
    with mpmath.workdps(50):
        value = mp_phi(mpmath.mpf(z))
    with mpmath.workdps(80):
        # Phi(-u) = Gamma(1/2, u^2/2) / (2 sqrt(pi)) for u >= 0 (incomplete gamma, not erfc)
        u = abs(mpmath.mpf(z))
        lower_tail = mpmath.gammainc(mpmath.mpf(1) / 2, u ** 2 / 2) / (2 * mpmath.sqrt(mpmath.pi))
        reference = lower_tail if mpmath.mpf(z) <= 0 else 1 - lower_tail
        # relative accuracy in the lower tail (Phi(-40) ~ 1e-350), absolute near 1
        assert abs(value - reference) <= mpmath.mpf(10) ** -49 * reference


def test_compiled_phi_is_the_same_function():
    fn = mp_callable((x,), Phi(x) - 1)
    with mpmath.workdps(50):
        assert fn(mpmath.mpf(-3)) == mpmath.ncdf(-3) - 1


class _Doubled(sp.Expr):
    """A node from outside the numeric layer: 2 u, known to the compilers only by its hooks."""

    def _mpmath_compile_(self, compiler):
        return (lambda u: 2 * u), self.args

    def _arb_compile_(self, compiler):
        inner = compiler(self.args[0])
        return lambda env: 2 * inner(env)


def test_mpmath_compiler_calls_the_hook():
    fn = mp_callable((x,), _Doubled(x) + 1)
    with mpmath.workdps(30):
        assert fn(mpmath.mpf(3)) == 7


def test_ball_compiler_calls_the_hook():
    pytest.importorskip("flint")
    from symdp.numeric.ball_compiler import evaluate_ball

    ball = evaluate_ball(_Doubled(x) + 1, {x: sp.Rational(1, 4)})
    assert ball.lower() == 1.5 and ball.upper() == 1.5


def test_to_mpf_of_an_exact_rational_is_rounded_at_the_callers_precision():
    with mpmath.workdps(40):
        assert to_mpf(sp.Rational(1, 3)) == mpmath.mpf(1) / 3
