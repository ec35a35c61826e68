r"""An integer parameter on an infinite range: boxes up to N0, a symbolic argument beyond.

For a claim :math:`m(n, y) \ge 0` with n an integer in :math:`[a, \infty)` (y the
other parameters, on bounded ranges) the range is cut at :math:`N_0 = a + 63`:

* **finite part** -- :math:`n \in \{a, \dots, N_0\}` by the box search, with n split
  and snapped at integers, so every n is examined exactly;
* **tail** -- :math:`n \ge N_0` by one of two symbolic arguments (SymPy's
  assumptions after the shift :math:`n = N_0 + k`, :math:`k \ge 0`, the sign
  analysis of :mod:`symdp.certified.reduce`):

  1. the sign of m itself on the tail (n integer);
  2. monotonicity: :math:`\partial m / \partial n \ge 0` for every *real*
     :math:`n \ge N_0` (mean value theorem), so :math:`m(n) \ge m(N_0)`, which the
     finite part certified; or :math:`\partial m/\partial n \le 0` and the limit
     :math:`\lim_{n\to\infty} m` (SymPy, a number, for a margin in n alone) is
     :math:`\ge 0` (:math:`> 0` for a strict claim).

The result says which part is which ("certified on n in 1..64 by boxes; n >= 64
symbolic: ...").  When no tail argument is found the caller falls back to the
relaxed search (n real, :math:`n = a + t/(1-t)`), which is stated as such.
"""

from __future__ import annotations

import sympy as sp

TAIL_SPAN = 63   # N0 = a + TAIL_SPAN: 64 integers in the finite part


def split_point(r) -> int:
    return int(sp.ceiling(r.lo)) + TAIL_SPAN


def tail_argument(margin, relation: str, n, n0: int, ranges, constraints) -> str:
    """A symbolic reason why ``margin >= 0`` (``> 0`` for strict relations) for every
    integer ``n >= n0`` with the other parameters in ``ranges``; "" when none is found."""
    from ..proof.check import _Timeout, time_limit
    from .reduce import _Signs

    strict = relation in ("<", ">")
    want = ">" if strict else ">="
    others = {r.symbol: (sp.Range(int(sp.ceiling(r.lo)), r.hi + 1 if r.hi.is_finite else sp.oo)
                         if r.integer else sp.Interval(r.lo, r.hi))
              for r in ranges if r.symbol != n}
    relevant = [c for c in constraints if c.free_symbols <= set(others) | {n}]
    try:
        on_integers = _Signs({**others, n: sp.Range(n0, sp.oo)}, relevant)
        ok, why = on_integers.sign(margin, want)
        if ok:
            return f"the sign of the margin for {n.name} = {n0} + j, j >= 0 ({why})"
        with time_limit(2.0):
            d = sp.diff(margin, n)
        on_reals = _Signs({**others, n: sp.Interval(n0, sp.oo)}, relevant)
        # m(n, y) >= m(n0, y) needs (n0, y) admissible whenever (n, y) is: no constraint on n
        if not any(n in c.free_symbols for c in relevant) and on_reals.sign(d, ">=")[0]:
            return (f"d(margin)/d{n.name} >= 0 for every real {n.name} >= {n0}, so the margin "
                    f"is at least its value at {n.name} = {n0}, certified above")
        if margin.free_symbols == {n} and on_reals.sign(-d, ">=")[0]:
            with time_limit(3.0):
                limit = sp.limit(margin, n, sp.oo)
            if limit.is_number and limit.is_finite:
                decided = limit.is_positive if strict else limit.is_nonnegative
                if decided:
                    return (f"d(margin)/d{n.name} <= 0 for every real {n.name} >= {n0} and "
                            f"the margin tends to {sp.sstr(limit)} {'>' if strict else '>='} 0")
    except (_Timeout, Exception):  # noqa: BLE001 - no tail argument, not a wrong one
        return ""
    return ""
