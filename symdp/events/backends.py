r"""The number kinds a mechanism's formulas are evaluated in (issue #23).

A mechanism's formulas (``symdp.events.gaussian`` and its siblings) are written once, as
functions of a backend ``ops`` and the backend's numbers, and each analysis evaluates them in
its own kind of number:

=========  =================================  ==============================================
backend    numbers                            read by
=========  =================================  ==============================================
``ARB``    python-flint ``arb`` balls         the certified accountant (``symdp.accountant``)
``MPMATH`` ``mpmath.mpf`` at the working dps  loss laws and profiles (``symdp.composition``)
``SYMPY``  SymPy expressions (exact)          trade-off objects (``symdp.tradeoff``)
``FLOAT``  Python floats                      only to choose a grid (never a result)
=========  =================================  ==============================================

Each has ``number`` (an exact rational into the backend), ``exp``, ``log``, ``phi``
(:math:`\Phi`), ``phi_bar`` (:math:`\bar\Phi(z) = 1 - \Phi(z)`, computed without cancellation in
the upper tail), ``phi_inv`` (:math:`\Phi^{-1}`) and ``max``.
"""

from __future__ import annotations

import functools
import math
import statistics
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath
import sympy as sp
from flint import arb, fmpq

from ..core.special import Phi, PhiInv, mp_phi, mp_phi_inv


@dataclass(frozen=True)
class Backend:
    """The operations a mechanism's formulas use, in one kind of number."""

    name: str
    number: Callable
    exp: Callable
    log: Callable
    phi: Callable
    phi_bar: Callable
    phi_inv: Callable
    max: Callable

    def __repr__(self):
        return f"Backend({self.name})"


def _arb_number(x) -> arb:
    x = Fraction(x)
    return arb(fmpq(x.numerator, x.denominator))


def arb_phi_bar(z: arb) -> arb:
    r""":math:`\bar\Phi(z) = \tfrac12\,\mathrm{erfc}(z/\sqrt2)` as a ball."""
    return (z / arb(2).sqrt()).erfc() / 2


def _no_arb_phi_inv(a):
    raise NotImplementedError("Phi^-1 of a ball: use symdp.numeric.ball_inverse")


def _arb_max(*xs):
    return functools.reduce(lambda a, b: a.max(b), xs)


ARB = Backend("arb", _arb_number, lambda x: x.exp(), lambda x: x.log(), lambda z: arb_phi_bar(-z),
              arb_phi_bar, _no_arb_phi_inv, _arb_max)

MPMATH = Backend("mpmath", lambda x: mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator,
                 mpmath.exp, mpmath.log, mp_phi, lambda z: mp_phi(-z), mp_phi_inv, max)

SYMPY = Backend("sympy", lambda x: sp.Rational(Fraction(x).numerator, Fraction(x).denominator)
                if isinstance(x, (int, Fraction)) else sp.sympify(x),
                sp.exp, sp.log, Phi, lambda z: Phi(-z), PhiInv, sp.Max)

_NORMAL = statistics.NormalDist()

FLOAT = Backend("float", float, math.exp, math.log, lambda z: 0.5 * math.erfc(-z / math.sqrt(2)),
                lambda z: 0.5 * math.erfc(z / math.sqrt(2)), _NORMAL.inv_cdf, max)
