r"""Noise calibration: the smallest noise multiplier whose certified ε meets a target (issue #23).

ε(δ) of a subsampled Gaussian composition is non-increasing in σ (a larger σ is a
post-processing: add independent noise).  The search keeps two certified facts,

* ``sigma_ok``:   ε_hi(σ_ok) ≤ E   -- σ_ok meets the target (proved by its bracket's upper end);
* ``sigma_fail``: ε_lo(σ_fail) > E -- σ_fail does not (proved by its lower end),

bisects between them on a log scale, and returns σ_ok (a 4-significant-digit decimal, rounded
up) together with the proof that 0.99 σ_ok does not meet the target.  For sampling without
replacement the lower end bounds the guarantee C_p(G_1/σ)^{⊗T} only (docs/accountant.md §1),
so there "does not meet" is said of the guarantee.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import InvalidParameterError
from .certify import EPS_MAX, SIGMA_RANGE, certified_epsilon, poisson_gaussian, printed, uniform_gaussian
from .pairs import check_range, exact


@dataclass
class Calibration:
    target_eps: Fraction
    delta: Fraction
    sigma: Fraction              # meets: eps_hi(sigma) <= target
    sigma_hi_eps: Fraction       # its certified eps_hi
    smaller: Fraction            # 0.99 sigma (rounded down)
    smaller_lo_eps: Fraction | None  # its certified eps_lo (> target when shown)
    shown: bool                  # smaller proved not to meet the target
    evaluations: int
    seconds: float


def _round_sig(x: float, digits: int, up: bool) -> Fraction:
    e = math.floor(math.log10(x)) - digits + 1
    scale = Fraction(10) ** e
    units = Fraction(x) / scale
    return (math.ceil(units) if up else math.floor(units)) * scale


def calibrate(target_eps, delta, rate, steps, *, uniform: bool = False, precision: int = 1,
              rel_tol: float = 0.005, progress=None) -> Calibration:
    """The smallest σ (to ``rel_tol``) whose certified ε_hi(δ) ≤ ``target_eps``, and a proof that
    0.99 σ does not meet it (its certified ε_lo > ``target_eps``; precision is raised up to
    two levels to show it)."""
    import time
    start = time.perf_counter()
    E, D = exact(target_eps), exact(delta)
    check_range("target-eps", float(E), 1e-3, EPS_MAX)
    make = uniform_gaussian if uniform else poisson_gaussian
    count = 0

    def bracket(sigma, level=precision):
        nonlocal count
        count += 1
        if progress:
            progress(f"sigma={float(sigma):.6g}")
        return certified_epsilon(make(sigma, rate, steps), D, precision=level, limits=False)

    # search at grid level 0 (any level gives certified ends); the answer is re-certified below
    def g(sigma):
        b = bracket(sigma, 0)
        return b, math.log(float(b.lo + b.hi) / 2) - math.log(float(E))

    smallest, largest = Fraction(str(SIGMA_RANGE[0])), Fraction(str(SIGMA_RANGE[1]))
    s0 = Fraction(1)
    b0, g0 = g(s0)
    ok = fail = None
    if b0.hi <= E:
        ok, g_ok = s0, g0
        while fail is None:
            s = max(smallest, ok / 2)
            b, gs = g(s)
            if b.hi <= E:
                if s == smallest:
                    raise InvalidParameterError(f"target-eps={float(E):g} is met already at the smallest "
                                                f"supported sigma={float(s):g} (certified eps <= {printed(b.hi, 'up')})")
                ok, g_ok = s, gs
            else:
                fail, g_fail = s, gs
    else:
        fail, g_fail = s0, g0
        while ok is None:
            s = min(largest, fail * 2)
            b, gs = g(s)
            if b.hi <= E:
                ok, g_ok = s, gs
            elif s == largest:
                raise InvalidParameterError(f"target-eps={float(E):g} is not met even at sigma={float(s):g} "
                                            f"(certified eps <= {printed(b.hi, 'up')} only); the supported sigma "
                                            f"is {SIGMA_RANGE[0]:g} to {SIGMA_RANGE[1]:g}")
            else:
                fail, g_fail = s, gs
    side = 0
    while float(ok / fail) > 1 + rel_tol:
        # Illinois step on log sigma (a proposal only; classification is by certified ends)
        a, c = math.log(float(fail)), math.log(float(ok))
        x = c - g_ok * (c - a) / (g_ok - g_fail) if g_ok != g_fail else (a + c) / 2
        x = min(max(x, a + 0.1 * rel_tol), c - 0.1 * rel_tol)
        mid = Fraction(math.exp(x)).limit_denominator(10 ** 7)
        b, gm = g(mid)
        if b.hi <= E:
            ok, g_ok = mid, gm
            if side == 1:
                g_fail /= 2
            side = 1
        else:
            fail, g_fail = mid, gm
            if side == -1:
                g_ok /= 2
            side = -1
    sigma = _round_sig(float(ok), 4, up=True)
    if sigma != ok:
        b = bracket(sigma)
        if not b.hi <= E:              # rounding up cannot hurt (monotone), but check what we print
            sigma, b = ok, bracket(ok)
    else:
        b = bracket(sigma)
    smaller = _round_sig(float(sigma) * 0.99, 6, up=False)
    shown, lo_eps = False, None
    for level in range(precision, min(precision + 2, 6) + 1):
        s = bracket(smaller, level)
        lo_eps = s.lo
        if s.lo > E:
            shown = True
            break
    return Calibration(E, D, sigma, b.hi, smaller, lo_eps, shown, count, time.perf_counter() - start)
