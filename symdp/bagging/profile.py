r"""Exact privacy of bagging's subsample map, as SymPy expressions.

The whole analysis rests on one decomposition.  Let :math:`L = S \cup \{z\}` be
the larger and :math:`S` the smaller dataset of a neighbouring pair
(``|L| = m``).  For every scheme of :mod:`symdp.bagging.schemes`, conditioned on
``z`` not being drawn, sampling from ``L`` *is* sampling from ``S``; hence

.. math::
    b(L) = (1 - q)\, b(S) + q\, R, \qquad q = q(m),

where :math:`R` (the output given that ``z`` is drawn) lives on outputs that
contain ``z``, disjoint from the support of :math:`b(S)`.  With
:math:`w = e^\varepsilon \ge 0` the hockey-stick divergences follow at once:

.. math::
    \delta_{b(L)\|b(S)}(\varepsilon) = q + (1 - q - w)_+, \qquad
    \delta_{b(S)\|b(L)}(\varepsilon) = (1 - w(1 - q))_+ ,

and the trade-off functions (Dong--Roth--Su Def. 2.1) are
:math:`T(b(S), b(L)) = f_q := (1 - q)(1 - \alpha)` and
:math:`T(b(L), b(S)) = f_q^{-1} = (1 - \alpha/(1 - q))_+`, where
:math:`f_q = q\cdot 0 + (1 - q)\,\mathrm{Id}` is the p-sampling operator of
Dong--Roth--Su Def. 4.1 applied to the zero function.

Inclusion probabilities :math:`q(m)` (a fixed record of an ``m``-record dataset
is in the output):

* with replacement, ``N k`` draws: :math:`1 - ((m - 1)/m)^{N k}`;
* without replacement, jointly: :math:`N k / m`;
* without replacement, ``N`` independent ``k``-subsets: :math:`1 - ((m - k)/m)^N`.

Each is decreasing in ``m``, so over the four orderings (``m = n`` for remove,
``m = n + 1`` for add) the worst case for :math:`\varepsilon \ge 0` is the
constant :math:`q(n)`: the subsample map is exactly :math:`(\varepsilon, q(n))`-DP
for every :math:`\varepsilon \ge 0` and for no smaller delta; its exact f-DP
guarantee is :math:`C_{q(n)}(0) = \min\{f_q, f_q^{-1}\}^{**} = (1 - q(n) - \alpha)_+`.
The paper's delta (Liu, Jia, Gong, IJCAI 2021, Thms. 2, 3) equals :math:`q(n)`,
so it is exact, while its epsilon can be replaced by 0.  The same ``q`` is the
amplification factor of Balle, Barthe, Gaboardi 2018 (arXiv 1807.01647, as
quoted in ``MATH.md``, last section): with replacement :math:`\varepsilon' = \log(1 + (1 - (1 - 1/n)^m)(e^\varepsilon - 1))`.
"""

from __future__ import annotations

import sympy as sp

from .schemes import ORDERINGS, Ordering, Sampling
from ..core.validation import shown

#: Symbols used by the symbolic formulas (and printed in the LaTeX of reports).
n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
m = sp.Symbol("m", integer=True, positive=True)
eps = sp.Symbol("varepsilon", real=True)
alpha = sp.Symbol("alpha", real=True)
w = sp.Symbol("w", nonnegative=True)
delta = sp.Symbol("delta", real=True)


def inclusion_probability(sampling: Sampling, size, k_, models=1) -> sp.Expr:
    r"""``q(size)``: probability that a fixed record of a ``size``-record dataset is drawn.

    .. math::
        q(m) = 1 - \Big(\frac{m-1}{m}\Big)^{Nk},\quad \frac{Nk}{m},\quad
        1 - \Big(\frac{m-k}{m}\Big)^{N}

    for with replacement, jointly without, independently without.

    >>> inclusion_probability(Sampling.WITH_REPLACEMENT, 4, 2)
    7/16
    """
    size, k_, models = sp.sympify(size), sp.sympify(k_), sp.sympify(models)
    if sampling is Sampling.WITH_REPLACEMENT:
        return 1 - ((size - 1) / size) ** (models * k_)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return models * k_ / size
    if sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        return 1 - ((size - k_) / size) ** models
    raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")


def ordering_q(sampling: Sampling, ordering: Ordering, n_, k_, models=1) -> sp.Expr:
    """``q`` of the larger dataset of the pair: ``q(n)`` (remove) or ``q(n + 1)`` (add)."""
    return inclusion_probability(sampling, ordering.larger_size(sp.sympify(n_)), k_, models)


def hockey_stick(q, w_, larger_first: bool) -> sp.Expr:
    r"""Hockey-stick divergence of the mixture pair at :math:`w = e^\varepsilon \ge 0`.

    .. math::
        \sup_S P(S) - wQ(S) = \sum_o (P(o) - wQ(o))_+ =
        \begin{cases} q + (1 - q - w)_+ & P = b(L) \\ (1 - w(1 - q))_+ & P = b(S) \end{cases}
    """
    if larger_first:
        return q + sp.Max(0, 1 - q - w_)
    return sp.Max(0, 1 - w_ * (1 - q))


def privacy_profile(sampling: Sampling, ordering: Ordering, n_=n, k_=k, models=1,
                    w_=None) -> sp.Expr:
    r"""Exact :math:`\delta(\varepsilon)` of one ordering as a function of :math:`w = e^\varepsilon`.

    Valid for every :math:`w \ge 0`; pass ``w_=sp.exp(eps)`` for the profile in
    :math:`\varepsilon`.  For :math:`\varepsilon \ge 0` the larger-first orderings
    are the constant ``q``.
    """
    w_ = w if w_ is None else sp.sympify(w_)
    q = ordering_q(sampling, ordering, n_, k_, models)
    return hockey_stick(q, w_, ordering.larger_first)


def privacy_profile_nonnegative_eps(sampling: Sampling, ordering: Ordering, n_=n, k_=k,
                                    models=1, eps_=eps) -> sp.Expr:
    r"""The profile for :math:`\varepsilon \ge 0`: ``q`` or :math:`(1 - e^\varepsilon(1 - q))_+`."""
    q = ordering_q(sampling, ordering, n_, k_, models)
    if ordering.larger_first:
        return q
    return sp.Max(0, 1 - sp.exp(eps_) * (1 - q))


def max_privacy_profile(sampling: Sampling, n_=n, k_=k, models=1) -> sp.Expr:
    r"""Worst case over the four orderings for :math:`\varepsilon \ge 0`: the constant ``q(n)``.

    Reason: ``q`` is decreasing in the dataset size, the larger-first remove
    ordering has profile ``q(n)`` and every other profile is at most
    :math:`q(n)` for :math:`w \ge 1`.  Indexed by the size ``m`` of the *first*
    dataset instead, the worst case is again ``q(m)`` (remove, D first).
    """
    return inclusion_probability(sampling, n_, k_, models)


def total_variation(sampling: Sampling, ordering: Ordering | None = None, n_=n, k_=k,
                    models=1) -> sp.Expr:
    r"""Exact total variation :math:`\delta(0)`: ``q`` of the larger dataset; ``q(n)`` overall."""
    if ordering is None:
        return inclusion_probability(sampling, n_, k_, models)
    return ordering_q(sampling, ordering, n_, k_, models)


def tradeoff(sampling: Sampling, ordering: Ordering, n_=n, k_=k, models=1,
             alpha_=alpha) -> sp.Expr:
    r"""Exact trade-off function :math:`T(P, Q)(\alpha)` of one ordering, :math:`\alpha\in[0,1]`.

    :math:`f_q^{-1}(\alpha) = (1 - \alpha/(1 - q))_+` when the larger dataset is
    first, :math:`f_q(\alpha) = (1 - q)(1 - \alpha)` otherwise.
    """
    q = ordering_q(sampling, ordering, n_, k_, models)
    if ordering.larger_first:
        return sp.Max(0, 1 - alpha_ / (1 - q))
    return (1 - q) * (1 - alpha_)


def tight_tradeoff(sampling: Sampling, n_=n, k_=k, models=1, alpha_=alpha) -> sp.Expr:
    r"""The exact f-DP guarantee: :math:`C_{q}(0)(\alpha) = (1 - q - \alpha)_+`, ``q = q(n)``.

    The greatest trade-off function below all four ordered trade-off functions:
    the lower convex envelope of :math:`\min\{f_q, f_q^{-1}\}` (Dong--Roth--Su
    Def. 4.1 with f = 0; Eq. 14 with fixed point x* = 0), i.e.
    :math:`f_{0, q}`, the (0, q)-DP trade-off function.
    """
    q = inclusion_probability(sampling, n_, k_, models)
    return sp.Max(0, 1 - q - alpha_)


def min_epsilon_at(sampling: Sampling, delta_, n_, k_, models=1) -> sp.Expr:
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\max_o \delta_o(\varepsilon) \le \delta`.

    0 when :math:`\delta \ge q(n)`; ``oo`` (no epsilon suffices) otherwise.
    """
    q = inclusion_probability(sampling, n_, k_, models)
    return sp.Piecewise((sp.Integer(0), sp.Ge(delta_, q)), (sp.oo, True))


def min_delta_at(sampling: Sampling, eps_, n_, k_, models=1) -> sp.Expr:
    r"""Smallest delta at :math:`\varepsilon \ge 0`: :math:`\max_o \delta_o(\varepsilon) = q(n)`."""
    return max_privacy_profile(sampling, n_, k_, models)


def ordering_min_epsilon(sampling: Sampling, ordering: Ordering, delta_, n_, k_,
                         models=1) -> sp.Expr:
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta_o(\varepsilon) \le \delta` for one ordering.

    Smaller first: :math:`\max\{0, \log((1 - \delta)/(1 - q))\}` for
    :math:`\delta < 1`; larger first: 0 if :math:`\delta \ge q`, else ``oo``.
    """
    q = ordering_q(sampling, ordering, n_, k_, models)
    if ordering.larger_first:
        return sp.Piecewise((sp.Integer(0), sp.Ge(delta_, q)), (sp.oo, True))
    return sp.Piecewise((sp.Integer(0), sp.Ge(delta_, q)),
                        (sp.log((1 - delta_) / (1 - q)), True))


__all__ = ["n", "k", "N", "m", "eps", "alpha", "w", "delta", "ORDERINGS",
           "inclusion_probability", "ordering_q", "hockey_stick", "privacy_profile",
           "privacy_profile_nonnegative_eps", "max_privacy_profile", "total_variation",
           "tradeoff", "tight_tradeoff", "min_epsilon_at", "min_delta_at",
           "ordering_min_epsilon"]
