r"""Neyman--Pearson on the actual subsampled-Gaussian distributions (a numeric reference).

A :math:`G_\mu`-DP Gaussian mechanism on a p-subsample: for neighbours whose differing
record shifts the mean by μ, the output laws are

.. math::
    P = N(0, 1), \qquad Q = p\,N(\mu, 1) + (1 - p)\,N(0, 1).

The likelihood ratio :math:`Q/P = p\,e^{\mu x - \mu^2/2} + 1 - p` increases in x, so the most
powerful tests are thresholds: :math:`T(P, Q)` rejects for large x and :math:`T(Q, P)` for
small x.  This module computes both trade-off curves, and the hockey-stick divergences
:math:`H_\gamma(Q\|P) = \sup_E Q(E) - \gamma P(E)`, with mpmath only (``ncdf``; ``findroot``
for thresholds, through :mod:`symdp.numeric.roots`; ``quad`` for the divergences) -- no symdp closed form, conjugate or Phi is
used -- so that tests can compare :math:`C_p(G_\mu)` and its privacy profile against it.
All functions compute at the caller's ``mpmath.workdps``.
"""

from __future__ import annotations

import mpmath

from ..numeric.roots import bisect, increasing_solution

__all__ = ["tradeoff_p_vs_q", "tradeoff_q_vs_p", "hockey_stick"]


def _laws(mu, p):
    mu, p = mpmath.mpf(mu), mpmath.mpf(p)

    def cdf_p(x):
        return mpmath.ncdf(x)

    def cdf_q(x):
        return p * mpmath.ncdf(x - mu) + (1 - p) * mpmath.ncdf(x)

    return cdf_p, cdf_q


def tradeoff_p_vs_q(mu, p, a):
    r""":math:`T(P, Q)(a)`: reject when x > t with :math:`P(X > t) = a`; type II error
    :math:`Q(X \le t)`."""
    cdf_p, cdf_q = _laws(mu, p)
    a = mpmath.mpf(a)
    if a <= 0:
        return mpmath.mpf(1)
    if a >= 1:
        return mpmath.mpf(0)
    t = increasing_solution(cdf_p, 1 - a)      # P(X > t) = a
    return cdf_q(t)


def tradeoff_q_vs_p(mu, p, a):
    r""":math:`T(Q, P)(a)`: reject when x < t with :math:`Q(X < t) = a`; type II error
    :math:`P(X \ge t)`."""
    cdf_p, cdf_q = _laws(mu, p)
    a = mpmath.mpf(a)
    if a <= 0:
        return mpmath.mpf(1)
    if a >= 1:
        return mpmath.mpf(0)
    t = increasing_solution(cdf_q, a)          # Q(X < t) = a
    return 1 - cdf_p(t)


def hockey_stick(mu, p, gamma, *, reverse=False):
    r""":math:`H_\gamma(Q\|P) = \int (q - \gamma p)_+` (or :math:`H_\gamma(P\|Q)` with
    ``reverse``), by quadrature of the densities over the region where the integrand is
    positive (its end found by root-finding on the densities, not by a formula)."""
    mu, p, gamma = mpmath.mpf(mu), mpmath.mpf(p), mpmath.mpf(gamma)

    def dens_p(x):
        return mpmath.npdf(x)

    def dens_q(x):
        return p * mpmath.npdf(x, mu) + (1 - p) * mpmath.npdf(x)

    if reverse:
        def integrand(x):
            return dens_p(x) - gamma * dens_q(x)
    else:
        def integrand(x):
            return dens_q(x) - gamma * dens_p(x)
    # the sign of the integrand changes at most once (the likelihood ratio is monotone)
    lo, hi = mpmath.mpf(-1), mpmath.mpf(1)
    for _ in range(12):
        if (integrand(lo) > 0) != (integrand(hi) > 0):
            break
        lo, hi = lo * 2, hi * 2
    else:  # no sign change on [-4096, 4096]: for gamma >= 1 the integrand is <= 0 throughout
        if integrand(mpmath.mpf(0)) <= 0:
            return mpmath.mpf(0)
        return mpmath.quad(integrand, [-mpmath.inf, 0, mpmath.inf])
    positive_at_hi = integrand(hi) > 0
    lo, hi = bisect(lambda mid: (integrand(mid) > 0) == positive_at_hi, lo, hi, mpmath.mp.prec + 20)
    x0 = (lo + hi) / 2
    if not reverse:
        return mpmath.quad(integrand, [x0, x0 + 10, mpmath.inf])
    return mpmath.quad(integrand, [-mpmath.inf, x0 - 10, x0])
