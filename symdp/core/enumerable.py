"""Expressions whose value at integer arguments is computed by exact enumeration.

A counting argument ("``|Γ1| = n^k - (n-1)^k``") is a claim about finite
objects.  Its left-hand side is an :class:`Enumerated` expression: SymPy keeps it
unevaluated, and the check cascade's enumeration stage substitutes small
integers and calls :meth:`Enumerated.enumerate`, which lists every object
(sequence, subset, ...) and returns an exact Rational.  Nothing is derived from
the formula being checked.
"""

from __future__ import annotations

import sympy as sp


class Enumerated(sp.Expr):
    """Base class: subclasses implement :meth:`enumerate` on Integer arguments."""

    is_commutative = True
    is_real = True

    def enumerate(self) -> sp.Rational:  # pragma: no cover - abstract
        """Exact value, by listing objects; called only when all args are Integers."""
        raise NotImplementedError

    @property
    def is_enumerable(self) -> bool:
        return all(a.is_Integer for a in self.args)

    def _eval_evalf(self, prec):
        if self.is_enumerable:
            return self.enumerate()._eval_evalf(prec)
        return None


def enumerate_atoms(expr: sp.Basic) -> sp.Basic:
    """Replace every Enumerated atom whose args are integers by its enumerated value."""
    # innermost first: an Enumerated inside another is replaced before its parent
    mapping = {}
    for atom in sorted(expr.atoms(Enumerated), key=lambda a: sp.count_ops(a)):
        if atom.is_enumerable:
            mapping[atom] = atom.enumerate()
    return expr.xreplace(mapping) if mapping else expr
