"""The Sec. 4 statements the kernel now proves, checked by routes independent of it.

* the privacy profiles of f_{eps,delta} and Laplace (proofs/fdp_*_profile.py): the supremum of
  -e^eps x - f(x) over a fine grid at 50 digits, f written here from Eq. 5 / Sec. 2.3;
* Thm. 4.2's conclusion for G_1 and f_{3,1/10} at p = 1/5 (formerly numeric steps of
  proofs/drs_thm_4_2_proof.py): the trade-off function of the guarantees of Eq. 16,
  sup_eps f_{eps, delta_{f_p}(eps)}, evaluated from its definition, equals C_p(f);
* the abstract objects refuse bad input by name.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from symdp.core.errors import InvalidParameterError
from symdp.subsampling import subsample
from symdp.subsampling.duality import DualSup, eq16_profile
from symdp.subsampling.mechanism import Mechanism, MechanismTradeOff, SampledMechanism
from symdp.tradeoff import AbstractTradeOff, EpsDelta, FixedPoint, Gaussian, TradeOffAt

R = sp.Rational


def _sup(f, y, n=20000):
    """sup over x in [0, 1] of y x - f(x), on a grid with the kinks added (f convex and
    piecewise smooth: the grid's error is O(1/n^2) at a smooth maximum, 0 at a kink)."""
    xs = [mpmath.mpf(i) / n for i in range(n + 1)]
    return max(y * t - f(t) for t in xs)


@pytest.mark.parametrize("eps, delta, eta", [(1, R(1, 10), R(1, 2)), (1, R(1, 10), 2),
                                             (3, R(1, 5), 1), (R(1, 2), 0, 3)])
def test_eps_delta_profile(eps, delta, eta):
    with mpmath.workdps(50):
        E, d, h = mpmath.e ** mpmath.mpf(eps), mpmath.mpf(delta), mpmath.mpf(eta)
        f = lambda t: max(0, 1 - d - E * t, (1 - d - t) / E)
        kink = (1 - d) / (1 + E)
        numeric = 1 + max(_sup(f, -mpmath.e ** h, 2000), -mpmath.e ** h * kink - f(kink))
        claimed = d if eta >= eps else 1 - (1 - d) * (1 + mpmath.e ** h) / (1 + E)
        assert abs(numeric - claimed) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("mu, eps", [(1, R(1, 2)), (2, R(1, 3)), (1, 2), (R(1, 2), R(1, 2))])
def test_laplace_profile(mu, eps):
    with mpmath.workdps(50):
        m, e = mpmath.mpf(mu), mpmath.mpf(eps)

        def f(t):
            if t < mpmath.e ** -m / 2:
                return 1 - mpmath.e ** m * t
            if t <= mpmath.mpf(1) / 2:
                return mpmath.e ** -m / (4 * t)
            return mpmath.e ** -m * (1 - t)
        y = -mpmath.e ** e
        stationary = mpmath.e ** (-(m + e) / 2) / 2
        candidates = [stationary] if e < m else []
        numeric = 1 + max([_sup(f, y, 4000)] + [y * t - f(t) for t in candidates])
        claimed = 1 - mpmath.e ** ((e - m) / 2) if e < m else 0
        assert abs(numeric - claimed) < mpmath.mpf(10) ** -12     # the grid near the maximum
        if e < m:   # and the stationary point is the maximiser: exact there
            assert abs(1 + y * stationary - f(stationary) - claimed) < mpmath.mpf(10) ** -45


@pytest.mark.parametrize("f", [Gaussian(1), EpsDelta(3, R(1, 10))])
@pytest.mark.parametrize("a", [R(1, 100), R(1, 5), R(1, 2)])
def test_guarantees_of_eq16_give_cp(f, a):
    """Prop. 4.5's conclusion at points: sup_eta f_{eta, delta_{f_p}(eta)}(a) (its definition,
    golden section) is C_p(f)(a) (Eq. 14), p = 1/5."""
    eta = sp.Symbol("eta", real=True)
    q = R(1, 5)
    dual = DualSup(sp.Lambda(eta, eq16_profile(f, q, eta)), a)
    assert abs(sp.N(dual, 30) - sp.N(subsample(f, q)(a), 30)) < 1e-20


def test_abstract_objects_refuse_bad_input():
    with pytest.raises(InvalidParameterError, match="name"):
        AbstractTradeOff("not a name")
    with pytest.raises(InvalidParameterError, match="below"):
        AbstractTradeOff("f", below=(1,))
    with pytest.raises(InvalidParameterError, match="dp"):
        Mechanism("M", dp="f")
    with pytest.raises(InvalidParameterError, match="p"):
        SampledMechanism(Mechanism("M"), 2)
    with pytest.raises(TypeError):
        FixedPoint(1)


def test_abstract_objects_have_no_values_but_print():
    f = AbstractTradeOff("f", symmetric=True)
    assert str(f(sp.Symbol("x"))) == "f(x)" and not f.free_symbols
    assert f.is_symmetric_declared and not AbstractTradeOff("f").is_symmetric_declared
    with pytest.raises(NotImplementedError):
        f.evaluate(R(1, 2))
    T = MechanismTradeOff(SampledMechanism(Mechanism("M", dp=f), R(1, 2)))
    assert isinstance(T(R(1, 2)), TradeOffAt)
    assert sp.latex(T) == r"T_{M \circ \mathrm{Sample}_{\frac{1}{2}}}"
    # C_p(f) of an abstract f has no closed form: its definition
    assert not subsample(f, sp.Symbol("p", real=True)).has_closed_form
