"""The kernel's z3 decider reads a closed number (``exp(-1)``, ``pi``) as an atom bounded by
its interval enclosure, as it reads a non-polynomial term of the parameters: Laplace's
breakpoint ``e^-mu/2`` at mu = 1 made ``alpha != 0`` on the piece ``alpha > e^-1/2``
undecidable, so every written ``Laplace(1)(alpha)`` was refused as possibly undefined.  The
values compared with come from mpmath at 50 digits: e^-1/2 = 0.18393972058572116...
"""

from __future__ import annotations

import mpmath
import sympy as sp

from symdp.proof.certificates import Domain, Fact
from symdp.proof.kernel import closed_forms, deciders, defined_on
from symdp.tradeoff.families import Laplace

alpha = sp.Symbol("alpha", real=True)
ABOVE = Domain(((alpha, sp.Interval(0, 1)),), (), (alpha > sp.exp(-1) / 2,))


def test_reference_value():
    with mpmath.workdps(50):
        assert mpmath.mpf(1) / 6 < mpmath.exp(-1) / 2 < mpmath.mpf(1) / 5


def test_a_true_fact_beyond_a_closed_breakpoint_is_confirmed():
    assert deciders.by_z3(Fact(alpha, "nonzero"), ABOVE)
    assert deciders.by_z3(Fact(alpha - sp.Rational(1, 6), "positive"), ABOVE)


def test_a_false_fact_beyond_a_closed_breakpoint_is_not():
    # alpha = 0.19 satisfies alpha > e^-1/2 but not alpha > 1/5
    assert not deciders.by_z3(Fact(alpha - sp.Rational(1, 5), "positive"), ABOVE)
    assert not deciders.by_z3(Fact(alpha - sp.Rational(19, 100), "nonzero"), ABOVE)


def test_laplace_written_is_defined_on_the_unit_interval():
    D = Domain.of({alpha: sp.Interval(0, 1)})
    unfolded = closed_forms.unfold(Laplace(1)(alpha), (), D)[0]
    assert defined_on((unfolded,), D) == ""
