"""The compiled 50-digit paths: Phi^{-1} by a double start and Halley's method, implicit
inverses compiled into mpmath callables, precision taken from the caller's scope -- each
against an independent route (mpmath's erfinv, the residual of Phi, the evalf route)."""

import subprocess
import sys

import mpmath
import pytest
import sympy as sp

from symdp import Gaussian
from symdp.core.special import PhiInv, mp_phi, mp_phi_inv
from symdp.subsampling import subsample
from symdp.tradeoff import alpha
from symdp.tradeoff.numeric import mp_callable

MODERATE = ["0.5", "0.4999999999999", "0.3", "0.123456789", "1e-3", "1e-10", "1e-16", "1e-50",
            "1e-200", "1e-299", "0.7", "0.999", "0.9999999999"]
TINY = ["1e-300", "1e-301", "2.5e-308", "1e-5000", "1e-100000"]     # below doubles: log-space Newton


@pytest.mark.parametrize("dps", [15, 30, 50, 100])
@pytest.mark.parametrize("a", MODERATE)
def test_phi_inv_agrees_with_mpmath_erfinv(a, dps):
    with mpmath.workdps(dps):
        z = mp_phi_inv(mpmath.mpf(a))
    extra = 20 + int(-mpmath.log10(min(mpmath.mpf(a), 1 - mpmath.mpf(a))))
    with mpmath.workdps(dps + extra):  # 2a - 1 loses log10(1/a) digits: carry them
        with mpmath.workdps(dps):
            a_used = mpmath.mpf(a)     # the argument as the caller's precision rounded it
        reference = mpmath.sqrt(2) * mpmath.erfinv(2 * a_used - 1)
        assert abs(z - reference) <= mpmath.mpf(10) ** (-dps + 1) * max(1, abs(reference))


@pytest.mark.parametrize("dps", [15, 50, 100])
@pytest.mark.parametrize("a", TINY)
def test_phi_inv_in_the_far_tail_solves_phi_z_equals_a(a, dps):
    with mpmath.workdps(dps):
        a_mp = mpmath.mpf(a)
        z = mp_phi_inv(a_mp)
    with mpmath.workdps(2 * dps + 20):
        relative_residual = abs(mp_phi(z) / a_mp - 1)
    # d log Phi / dz ~ |z| in the tail: a z accurate to 10^-dps relative moves Phi by |z|^2 10^-dps
    assert relative_residual <= mpmath.mpf(10) ** (-dps + 2) * (1 + z ** 2)


def test_phi_inv_keeps_its_edges_and_domain():
    assert mp_phi_inv(0) == -mpmath.inf and mp_phi_inv(1) == mpmath.inf and mp_phi_inv("0.5") == 0
    with pytest.raises(ValueError):
        mp_phi_inv("1.5")


def test_phi_inv_evalf_still_goes_through_the_same_numerics():
    value = PhiInv(sp.Rational(1, 3)).evalf(50)
    with mpmath.workdps(60):
        reference = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(2) / 3 - 1)
    assert abs(value - sp.Float(reference, 60)) < sp.Float("1e-49")


def test_compiled_callable_follows_the_callers_precision():
    fn = Gaussian(1).mp_function()
    values = {}
    for dps in (20, 60):
        with mpmath.workdps(dps):
            values[dps] = fn(mpmath.mpf(1) / 3)
    with mpmath.workdps(60):
        assert abs(values[20] - values[60]) < mpmath.mpf(10) ** -18
        assert abs(values[20] - values[60]) > mpmath.mpf(10) ** -40   # 20 digits really were 20


def test_implicit_inverse_is_compiled_and_agrees_with_the_evalf_route():
    # C_p(G_1) at p = 1/5: the right piece is InverseAt(f_p, alpha) (no closed form)
    C = subsample(Gaussian(1), "1/5")
    expr = C.expr(alpha)
    fn = mp_callable((alpha,), expr)
    assert fn.__name__ == "_lambdifygenerated"            # compiled, not the evalf fallback
    fp = Gaussian(1).mix(sp.Rational(1, 5)).mp_function()
    for x in ["0.7", "0.9", "0.999999", "0.62"]:
        with mpmath.workdps(50):
            t = fn(mpmath.mpf(x))
        via_evalf = expr.subs(alpha, sp.Rational(x)).evalf(50)
        assert abs(sp.Float(t, 50) - via_evalf) < sp.Float("1e-48")
        with mpmath.workdps(70):   # the value solves f_p(t) = x (f_p falls with slope <= -(1 - p))
            assert abs(fp(t) - mpmath.mpf(x)) < mpmath.mpf(10) ** -49


def test_import_symdp_does_not_import_matplotlib():
    # matplotlib is imported lazily, by the plotting commands only; the numpy float path
    # (symdp.tradeoff.vectorized) is imported only when asked for
    code = ("import sys, symdp, symdp.cli.main as m; m.build_parser(); "
            "heavy = [n for n in ('matplotlib', 'symdp.tradeoff.vectorized') if n in sys.modules]; "
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
