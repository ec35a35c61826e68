r"""What other accountants say, for ``symdp account --compare`` (none of this is certified).

* **CLT / GDP** (an *approximation*): Bu-Dong-Long-Su 2020 (arXiv 1911.11607, the CLT for
  NoisySGD): T steps of the Poisson-subsampled Gaussian are approximately
  :math:`G_\mu`-DP with :math:`\mu = q\sqrt{T}\sqrt{e^{1/\sigma^2}-1}`
  (phases: :math:`\mu^2 = \sum_i T_i q_i^2 (e^{1/\sigma_i^2}-1)`); the same limit holds
  for :math:`C_p(G_{1/\sigma})^{\otimes T}` (Dong-Roth-Su 2022, Sec. 5, the CLT for C_p).  Converted by
  the :math:`G_\mu` profile :math:`\delta(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2)
  - e^\varepsilon\Phi(-\varepsilon/\mu - \mu/2)` (Dong-Roth-Su 2022, Cor. 2.13).
* **RDP** (an upper *bound*): integer orders :math:`\alpha \ge 2`,
  :math:`\mathrm{RDP}(\alpha) = \frac{1}{\alpha-1}\log\sum_{k=0}^{\alpha}\binom{\alpha}{k}
  (1-q)^{\alpha-k}q^k e^{(k^2-k)/(2\sigma^2)}` (Mironov-Talwar-Zhang 2019, arXiv
  1908.10530, Sec. 3; valid for both add and remove), composed additively, converted
  with the improved conversion of Canonne-Kamath-Steinke 2020 (arXiv 2004.00010,
  Prop. 12; also Balle et al. 2020, Thm 21, as in Opacus and dp_accounting):
  :math:`\varepsilon = \min_\alpha\, \mathrm{RDP}_T(\alpha) + \log\frac{\alpha-1}{\alpha}
  - \frac{\log\delta + \log\alpha}{\alpha-1}`.  The classical conversion
  :math:`\mathrm{RDP}_T(\alpha) + \log(1/\delta)/(\alpha-1)` (Mironov 2017, Prop. 3) is
  reported alongside.  Evaluated with 50-digit mpmath.
* **dp_accounting PLD** (an *estimate*, floating point): Google's
  ``dp_accounting.pld`` with the pessimistic or connect-the-dots discretisation.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath

ORDERS = tuple(range(2, 257))


def _mp(x):
    if isinstance(x, mpmath.mpf):
        return x
    x = Fraction(repr(x)) if isinstance(x, float) else Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def clt_mu(phases) -> mpmath.mpf:
    """mu of the CLT approximation, phases = [(sigma, q, steps), ...]."""
    with mpmath.workdps(50):
        return mpmath.sqrt(sum(int(T) * _mp(q) ** 2 * mpmath.expm1(1 / _mp(s) ** 2)
                               for s, q, T in phases))


def gdp_delta(mu, eps) -> mpmath.mpf:
    """delta(eps) of G_mu (Dong-Roth-Su 2022, Cor. 2.13)."""
    with mpmath.workdps(50):
        mu, eps = mpmath.mpf(mu), _mp(eps)
        return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def gdp_epsilon(mu, delta) -> mpmath.mpf:
    """The eps >= 0 with delta(eps) = delta for G_mu (bisection; delta(eps) is decreasing)."""
    with mpmath.workdps(50):
        d = _mp(delta)
        if gdp_delta(mu, 0) <= d:
            return mpmath.mpf(0)
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while gdp_delta(mu, hi) > d:
            hi *= 2
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if gdp_delta(mu, mid) > d else (lo, mid)
        return hi


@functools.lru_cache(maxsize=32)
def _rdp_factors(s: mpmath.mpf, q: mpmath.mpf, top: int):
    r"""The factors of the terms of every order's sum up to ``top``, at 50 digits:
    :math:`(1-q)^j`, :math:`q^k` and :math:`e^{(k^2-k)/(2\sigma^2)}` for :math:`0 \le j, k
    \le` ``top`` -- computed once for all orders (they do not depend on :math:`\alpha`)."""
    with mpmath.workdps(50):
        return (tuple((1 - q) ** j for j in range(top + 1)), tuple(q ** k for k in range(top + 1)),
                tuple(mpmath.exp((k * k - k) / (2 * s * s)) for k in range(top + 1)))


def rdp_poisson_gaussian(sigma, q, alpha: int) -> mpmath.mpf:
    """RDP of one step at integer order alpha (Mironov-Talwar-Zhang 2019, Sec. 3)."""
    with mpmath.workdps(50):
        p, qk, e = _rdp_factors(_mp(sigma), _mp(q), max(alpha, ORDERS[-1]))
        # binomial(alpha, k) exactly (an integer; mpmath.binomial goes through Gamma)
        total = mpmath.fsum(math.comb(alpha, k) * p[alpha - k] * qk[k] * e[k]
                            for k in range(alpha + 1))
        return mpmath.log(total) / (alpha - 1)


@functools.lru_cache(maxsize=32)
def _rdp_composed(phases: tuple) -> tuple:
    """RDP_T(alpha) of the phases ((sigma, q, T) at 50 digits) composed, for every alpha in
    ORDERS (RDP adds up under composition, Mironov 2017, Prop. 1): once for both conversions."""
    with mpmath.workdps(50):
        return tuple(sum(T * rdp_poisson_gaussian(s, q, a) for s, q, T in phases)
                     for a in ORDERS)


def rdp_epsilon(phases, delta, improved: bool = True):
    """(eps, alpha): the RDP bound on eps(delta), phases = [(sigma, q, steps), ...]."""
    with mpmath.workdps(50):
        d = _mp(delta)
        best = None
        composed = _rdp_composed(tuple((_mp(s), _mp(q), int(T)) for s, q, T in phases))
        for a, r in zip(ORDERS, composed):
            if improved:
                e = r + mpmath.log(mpmath.mpf(a - 1) / a) - (mpmath.log(d) + mpmath.log(a)) / (a - 1)
            else:
                e = r + mpmath.log(1 / d) / (a - 1)
            if best is None or e < best[0]:
                best = (e, a)
        # eps is never below 0; the order is the one that minimises the unclipped bound
        return max(best[0], mpmath.mpf(0)), best[1]


def _dp_accounting_composition(phases, connect_dots: bool, interval: float):
    """dp_accounting's PLD of the phases composed (Poisson, add/remove), or None if absent."""
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return None
    total = None
    for s, q, T in phases:
        one = pld.from_gaussian_mechanism(float(s), sampling_prob=float(q),
                                          value_discretization_interval=interval,
                                          use_connect_dots=connect_dots)
        comp = one.self_compose(int(T))
        total = comp if total is None else total.compose(comp)
    return total


def dp_accounting_epsilon(phases, delta, connect_dots: bool = True, interval: float = 1e-4):
    """dp_accounting's PLD estimate of eps(delta) (Poisson, add/remove), or None if absent."""
    total = _dp_accounting_composition(phases, connect_dots, interval)
    return None if total is None else total.get_epsilon_for_delta(float(delta))


def dp_accounting_delta(phases, eps, connect_dots: bool = True, interval: float = 1e-4):
    """dp_accounting's PLD estimate of delta(eps) (Poisson, add/remove), or None if absent."""
    total = _dp_accounting_composition(phases, connect_dots, interval)
    return None if total is None else total.get_delta_for_epsilon(float(eps))
