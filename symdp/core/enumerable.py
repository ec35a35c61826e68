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

    def __new__(cls, *args):
        # Expr.__new__ keeps Python ints as they are; the atom's arguments must be SymPy
        # objects (is_enumerable, xreplace, printing)
        return super().__new__(cls, *(sp.sympify(a) for a in args))

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
    """Replace every Enumerated atom whose args are integers by its enumerated value.

    Innermost first: an atom whose argument is another atom becomes enumerable once that
    argument is replaced, so the replacement is repeated until no atom is enumerable.
    """
    while True:
        mapping = {atom: atom.enumerate() for atom in expr.atoms(Enumerated) if atom.is_enumerable}
        if not mapping:
            return expr
        expr = expr.xreplace(mapping)
