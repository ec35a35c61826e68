"""Is an exact evaluation affordable?  A guard before SymPy's exact arithmetic at a point.

SymPy evaluates ``x**(10**100)`` at ``x = 5`` exactly, as an integer of 10^100 digits: it
never returns.  Every place that substitutes a point into a user's expression and lets SymPy
evaluate it -- the kernel's second looks at points, the search for counterexamples -- asks
:func:`exact_is_cheap` first and, when it says no, leaves the point to Arb balls or to no
method at all.  Saying no never makes a verdict hold: it only withholds an exact value.
"""
from __future__ import annotations

import sympy as sp

__all__ = ["EXACT_EXPONENT_LIMIT", "EXACT_ROOT_LIMIT", "EXACT_DIGIT_LIMIT", "exact_is_cheap"]

#: an exact evaluation with an exponent this large at the point is not attempted
#: (``(1 + 1/n)**n`` at n = 10**12 is a rational of 10**13 digits)
EXACT_EXPONENT_LIMIT = 10 ** 4
#: the largest denominator of an exact fractional exponent: SymPy extracts the root of
#: b^(p/q) by factoring b, which never ends for large b and q
EXACT_ROOT_LIMIT = 12
#: the most digits an exact power at a point may have (``(9999/9998)^9998`` has 40 000)
EXACT_DIGIT_LIMIT = 50_000


def _digits(value) -> int:
    value = sp.Rational(value) if getattr(value, "is_Rational", False) else None
    return 1 if value is None else max(len(str(abs(value.p))), len(str(value.q)))


def _powers(expr):
    """The (base, exponent) pairs of ``expr``'s powers; ``exp(c log x)`` counts as ``x^c``,
    which SymPy makes of it."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow):
            yield node.base, node.exp
        elif isinstance(node, sp.exp) and node.args[0].has(sp.log):
            arg = sp.expand_mul(node.args[0])
            for lg in arg.atoms(sp.log):
                yield lg.args[0], arg.coeff(lg)


def exact_is_cheap(expr, point=None) -> bool:
    """Can ``expr`` be evaluated exactly at ``point`` (a dict symbol -> Rational) in reasonable
    time and memory?

    Every power must have, at the point, an exponent of at most :data:`EXACT_EXPONENT_LIMIT`
    in size, integer or with a denominator of at most :data:`EXACT_ROOT_LIMIT`, and a result
    of at most :data:`EXACT_DIGIT_LIMIT` digits; a tower (a power in an exponent that takes a
    value from the point) is never evaluated exactly."""
    point = {s: sp.sympify(v) for s, v in (point or {}).items()}
    for base, exponent in _powers(sp.sympify(expr)):
        if not (exponent.free_symbols | base.free_symbols) & point.keys():
            continue  # a constant power: SymPy has already evaluated it as far as it will
        if any(abs(point[s]) > EXACT_EXPONENT_LIMIT for s in exponent.free_symbols
               if s in point):
            return False
        if exponent.has(sp.exp) or any(q.exp.free_symbols & point.keys()
                                       for q in exponent.atoms(sp.Pow)):
            return False
        value = exponent.xreplace(point) if exponent.free_symbols & point.keys() else exponent
        if not value.is_Rational:
            if value.is_number and not value.is_real:
                return False
            continue
        if value.is_Integer and abs(value) <= 1:
            continue
        if abs(value) > EXACT_EXPONENT_LIMIT or \
                (not value.is_Integer and value.q > EXACT_ROOT_LIMIT):
            return False
        size = max([_digits(point[s]) for s in base.free_symbols if s in point] +
                   [_digits(n) for n in base.atoms(sp.Rational)] + [1])
        if size * (abs(value.p) // value.q + 1) > EXACT_DIGIT_LIMIT:
            return False
    return True
