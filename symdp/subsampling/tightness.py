r"""Tightness of Thm. 4.2 when f is the zero function (Dong, Roth, Su 2022, arXiv 1905.02383v3,
Sec. 6 and App. F).

**Closed form.**  f = 0 is symmetric with fixed point x* = 0 and
:math:`f_p = (1-p)\,\mathrm{Id}`, so Eq. 14 is the chord alone:

.. math::
    C_p(0)(\alpha) = \max\{0,\ 1 - p - \alpha\} = f_{0,p}(\alpha).

**The pair attaining it.**  A blatantly non-private M (0-DP: e.g. M releases its input
subset) run on a p-subsample: the record where neighbours S, S' differ is in the sample
with probability p, and then the outputs are disjoint; otherwise they are identically
distributed.  On three outcomes {both, only-S, only-S'}:

.. math::
    P = (1-p,\ p,\ 0),\qquad Q = (1-p,\ 0,\ p),\qquad T(P, Q) = \max\{0, 1-p-\alpha\}.

:class:`SampleReleaseTradeOff` computes :math:`T(P,Q)(j/K)` exactly for the actual
mechanism "release the m-subset of an n-record dataset" by listing every subset (no
formula from this module is used), so the cascade's enumeration stage checks
:math:`T = C_{m/n}(0)` case by case.
"""

from __future__ import annotations

import itertools
from collections import Counter

import sympy as sp

from ..core.enumerable import Enumerated
from ..core.validation import probability

__all__ = ["blatant_pair", "finite_tradeoff", "SampleReleaseTradeOff"]


def blatant_pair(p) -> tuple:
    """``(P, Q)`` on the outcomes (both, only-S, only-S'): ``((1-p, p, 0), (1-p, 0, p))``."""
    p = probability("p", p)
    return (1 - p, p, sp.S.Zero), (1 - p, sp.S.Zero, p)


def finite_tradeoff(P, Q, a) -> sp.Expr:
    r""":math:`T(P,Q)(a) = \inf\{1 - E_Q\phi : E_P\phi \le a\}` for distributions on a finite set,
    exactly (Neyman--Pearson: reject outcomes in decreasing order of Q/P, randomising on the
    last one).  ``P`` and ``Q`` are sequences of exact probabilities over the same outcomes."""
    P = [sp.nsimplify(v) for v in P]
    Q = [sp.nsimplify(v) for v in Q]
    a = sp.nsimplify(a)
    # outcomes with P = 0 first (infinite ratio), then decreasing Q/P
    order = sorted(range(len(P)), key=lambda i: (P[i] != 0, -(Q[i] / P[i]) if P[i] != 0 else 0))
    budget, power = a, sp.S.Zero
    for i in order:
        if P[i] == 0:
            power += Q[i]
            continue
        if budget <= 0:
            break
        take = min(sp.S.One, budget / P[i])
        power += take * Q[i]
        budget -= take * P[i]
    return sp.Max(sp.S.Zero, 1 - power)


def _release_distribution(dataset, m) -> Counter:
    """The law of the released m-subset of ``dataset`` (uniform over the m-subsets)."""
    return Counter(frozenset(c) for c in itertools.combinations(dataset, m))


class SampleReleaseTradeOff(Enumerated):
    r""":math:`T(M(\mathrm{Sample}_m(S)), M(\mathrm{Sample}_m(S')))(j/K)` for M = "release the
    subset" (0-DP), S = {1..n}, S' = S with record n replaced by n + 1; by enumeration of all
    :math:`\binom{n}{m}` subsets of each dataset.  Arguments (n, m, j, K), integers,
    0 <= m <= n, 0 <= j <= K."""

    def enumerate(self) -> sp.Rational:
        n, m, j, K = (int(a) for a in self.args)
        S = list(range(1, n + 1))
        S2 = list(range(1, n)) + [n + 1]
        P, Q = _release_distribution(S, m), _release_distribution(S2, m)
        outcomes = sorted(set(P) | set(Q), key=lambda s: sorted(s))
        total_p, total_q = sum(P.values()), sum(Q.values())
        Pv = [sp.Rational(P[o], total_p) for o in outcomes]
        Qv = [sp.Rational(Q[o], total_q) for o in outcomes]
        return sp.nsimplify(finite_tradeoff(Pv, Qv, sp.Rational(j, K)))

    def _latex(self, printer, exp=None):
        n, m, j, K = (printer._print(a) for a in self.args)
        body = (r"T\left(M(\mathrm{Sample}_{%s}(S)), M(\mathrm{Sample}_{%s}(S'))\right)"
                r"\left(\tfrac{%s}{%s}\right)_{|S| = %s}" % (m, m, j, K, n))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)
