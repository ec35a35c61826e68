r"""Corrections to SymPy answers that are known to be wrong, applied once where symdp sets
SymPy up (imported by :mod:`symdp.core`, so by every import of symdp).

A wrong answer of SymPy's assumption system becomes part of a statement before any stage of
the check cascade sees it: SymPy rewrites ``Abs(u)`` to ``-u`` as soon as it believes
``u < 0`` (issue #27).  Each correction below names the SymPy version it was found in, the
wrong answer, the right one and why; ``tests/core/test_sympy_fixes.py`` fails on the
unpatched behaviour.

* ``binomial(n, k)._eval_is_nonnegative`` (SymPy 1.14) answers False for every odd k when n
  is an integer of unknown sign, so that ``Abs(binomial(n - 5, 3))`` with an integer n is
  rewritten to ``-binomial(n - 5, 3)`` (wrong at n = 8: C(3, 3) = 1).  For integers n, k:
  :math:`\binom{n}{k} = n(n-1)\cdots(n-k+1)/k!` for k >= 0 and 0 for k < 0, so it is
  nonnegative when n >= 0 (a count), when k < 0 (zero) or when k is even (a product of k
  factors that are all negative, or one of which is 0, when n < 0); it is negative exactly
  when n < 0 and k >= 1 is odd (k negative factors n, ..., n - k + 1).  Otherwise the sign
  depends on the values: None.

* ``sympy.core.assumptions._ask`` (SymPy 1.12 and later) shuffles, with a random generator
  seeded from the operating system in every process, the order in which it visits the facts
  that may decide an assumption query.  SymPy's own comment says the order "should not lead
  to any non-determinism if all handlers are logically consistent", and that a handler bug
  makes the answer depend on it: then a verdict could differ between two processes on one
  input.  The order is made fixed (the queue SymPy builds, unshuffled; issue #30): the same
  answer in every process, and 2.5 million calls of ``random.shuffle`` fewer in a run of
  ``symdp check`` over proofs/ (about 3 % of its CPU time).
"""

from __future__ import annotations

import sympy.core.assumptions as _assumptions
from sympy.functions.combinatorial.factorials import binomial


def _binomial_is_nonnegative(self):
    n, k = self.args
    if n.is_integer and k.is_integer:
        if n.is_nonnegative or k.is_negative or k.is_even:
            return True
        if k.is_even is False and n.is_negative and k.is_nonnegative:
            return False
    return None


def _replace_handler(cls, fact: str, handler) -> None:
    """Install ``handler`` as ``cls._eval_is_<fact>``: SymPy reads its assumption handlers
    from ``cls._prop_handler``, filled when the class was created, so both are replaced."""
    setattr(cls, f"_eval_is_{fact}", handler)
    cls._prop_handler[fact] = handler


_replace_handler(binomial, "nonnegative", _binomial_is_nonnegative)


def _in_order(facts: list) -> None:
    """The order SymPy built (instead of a shuffle): fixed in every process."""
    return None


_assumptions.shuffle = _in_order
