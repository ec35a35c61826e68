r"""Named formulas of bagging's privacy (Liu, Jia, Gong 2021) for ``symdp latex``.

Built from :mod:`.profile` (exact) and :mod:`.paper` (the paper's Thms. 2, 3) with the
symbols n, k, N of :mod:`.profile`, one formula per sampling scheme: the inclusion
probability q(n) (= the exact delta, = the paper's delta), the paper's epsilon and
delta, the exact privacy profiles of the two kinds of ordering (w = e^eps) and the exact
trade-off function (1 - q - alpha)_+.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["register_formulas"]

_SCHEME = {"WITH_REPLACEMENT": ("with_replacement", "with replacement, N models of k draws"),
           "WITHOUT_REPLACEMENT_JOINT": ("joint", "without replacement, N k records jointly"),
           "WITHOUT_REPLACEMENT_INDEPENDENT": ("independent",
                                               "without replacement, N independent k-subsets")}


def register_formulas(register) -> None:
    """Register this package's closed forms with ``register(name, description, build)``."""
    from . import paper, profile
    from .schemes import REMOVE_D_FIRST, REMOVE_DPRIME_FIRST, Sampling

    n, k, N, eps, alpha = profile.n, profile.k, profile.N, profile.eps, profile.alpha
    larger, smaller = REMOVE_D_FIRST, REMOVE_DPRIME_FIRST  # q(n): the worst case for eps >= 0
    q = sp.Function("q")
    delta = sp.Function("delta")

    def eq(lhs, rhs):
        return sp.Eq(lhs, rhs, evaluate=False)

    for s in Sampling:
        tag, words = _SCHEME[s.name]
        register(f"bagging_q_{tag}", f"q(n), inclusion probability = exact delta, {words}",
                 lambda s=s: eq(q(n), profile.inclusion_probability(s, n, k, N)))
        register(f"bagging_paper_epsilon_{tag}", f"the paper's epsilon ({paper.source(s)}), {words}",
                 lambda s=s: eq(sp.Symbol("varepsilon"), paper.paper_epsilon(s, n, k, N)))
        register(f"bagging_paper_delta_{tag}", f"the paper's delta ({paper.source(s)}), {words}",
                 lambda s=s: eq(sp.Symbol("delta"), paper.paper_delta(s, n, k, N)))
        register(f"bagging_profile_larger_first_{tag}",
                 f"exact delta(eps), larger dataset first ({larger.description}), {words}",
                 lambda s=s: eq(delta(eps), profile.privacy_profile(s, larger, n, k, N,
                                                                    w_=sp.exp(eps))))
        register(f"bagging_profile_smaller_first_{tag}",
                 f"exact delta(eps), smaller dataset first ({smaller.description}), {words}",
                 lambda s=s: eq(delta(eps), profile.privacy_profile(s, smaller, n, k, N,
                                                                    w_=sp.exp(eps))))
        register(f"bagging_tradeoff_{tag}",
                 f"exact trade-off function C_q(0)(alpha) = (1 - q(n) - alpha)_+, {words}",
                 lambda s=s: eq(sp.Function("T")(alpha), profile.tight_tradeoff(s, n, k, N, alpha)))
