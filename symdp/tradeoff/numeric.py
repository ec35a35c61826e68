"""Numerics of trade-off objects without a closed form, and the numeric names tradeoff uses.

The evaluation machinery is generic and lives in :mod:`symdp.numeric`: the mpmath compiler
(:mod:`symdp.numeric.mp_compiler`) and the root-finders (:mod:`symdp.numeric.roots`); their
names are re-exported here for the code of this layer and above that imports them from
``symdp.tradeoff.numeric``.  Objects compile themselves through hooks
(``_mpmath_compile_``, ``_arb_compile_`` in :mod:`symdp.tradeoff.base`).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..numeric.mp_compiler import MPMATH_NAMESPACE, mp_callable, to_mpf
from ..numeric.roots import decreasing_inverse, golden_max

__all__ = ["MPMATH_NAMESPACE", "mp_callable", "to_mpf", "decreasing_inverse", "golden_max",
           "ValueByDefinitionAt"]


class ValueByDefinitionAt(sp.Expr):
    """``f(x)`` kept unevaluated for an ``f`` with no closed form (an envelope, a supremum):
    ``evalf`` calls ``f.evaluate`` at the point (exactly when the point is rational) with
    5 guard digits.  Subclasses print it."""

    is_commutative = True

    def _eval_is_real(self):
        return True

    def _eval_evalf(self, prec):
        x = self.args[1].evalf(prec)
        if not x.is_Number:
            return None
        dps = mpmath.libmp.prec_to_dps(prec)
        point = self.args[1] if self.args[1].is_Rational else x
        return sp.Float(self.args[0].evaluate(point, dps=dps + 5), dps + 5)
