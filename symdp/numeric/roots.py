r"""Root-finding and bracketed search: the one module symdp finds roots with.

Every root symdp needs is bracketed: a monotone function on an interval whose ends have
opposite signs.  This module gives

* :func:`bisect` -- halving a bracket on a monotone *predicate* (works on any numbers with
  ``+`` and ``/ 2``: mpmath ``mpf``, Arb balls, exact rationals), which is also the
  certified route (:mod:`symdp.numeric.ball_inverse` bisects on ball comparisons);
* :func:`illinois` -- regula falsi with the Illinois modification (Dowell and Jarratt,
  BIT 11, 1971), generic in the number type, used by the certified inverse to find a
  candidate root cheaply before certifying it;
* :func:`bracketed_root` -- a root of ``h`` on ``[lo, hi]`` at the current mpmath
  precision: ``mpmath.findroot`` with the bracketing Anderson--Björck solver, checked
  against the tolerance, bisection on the sign of ``h`` when it does not settle;
* :func:`increasing_solution` -- ``g(t) = target`` for an increasing ``g`` on the real
  line (a bracket found by doubling, then :func:`bracketed_root`);
* :func:`decreasing_inverse` -- :math:`\inf\{t \in [lo, hi] : f(t) \le a\}` for a
  non-increasing f (Dong, Roth, Su 2022, arXiv 1905.02383v3, Eq. 4), and
  :func:`decreasing_inverse_array`, its double-precision version on numpy arrays;
* :func:`golden_max` -- the maximum of a concave function on an interval (golden-section
  search; a bracketed search for the zero of the derivative without the derivative).

Precision is the caller's (``mpmath.workdps``); nothing here sets it globally.
"""

from __future__ import annotations

import mpmath

from ..core.errors import RootFindingError

__all__ = ["bisect", "illinois", "bracketed_root", "increasing_solution", "decreasing_inverse",
           "decreasing_inverse_array", "golden_max"]


def bisect(below, lo, hi, steps: int, *, width=None):
    r"""Halve ``[lo, hi]`` ``steps`` times on a monotone predicate: ``(lo, hi)`` at the end.

    ``below(mid)`` True moves the upper end to ``mid``, False the lower end: for a
    predicate that is False then True along the interval (e.g. :math:`f(t) \le a` for a
    non-increasing f) the switch stays in ``[lo, hi]``.  Stops early once
    ``hi - lo <= width`` (when given).
    """
    for _ in range(steps):
        mid = (lo + hi) / 2
        if below(mid):
            hi = mid
        else:
            lo = mid
        if width is not None and hi - lo <= width:
            break
    return lo, hi


def illinois(h, lo, hi, h_lo, h_hi, tol, iterations: int, *, point=lambda t: t):
    r"""Illinois iterations on ``h`` from a bracket with ``h_lo > 0 >= h_hi``.

    The regula-falsi point :math:`t = (lo\,h_{hi} - hi\,h_{lo})/(h_{hi} - h_{lo})`
    (the midpoint when it leaves the bracket) replaces the end of its sign; an end kept
    twice in a row has its value halved (the Illinois modification), which restores
    superlinear convergence.  ``point`` rounds a computed t to an exact point (the
    midpoint of an Arb ball); ``h`` may return None (a value that is not finite), which
    stops the iteration.  Returns ``(t, lo, hi)`` once the bracket is narrower than
    ``tol`` or ``h(t) = 0``, else None after ``iterations`` steps.
    """
    side = 0
    for _ in range(iterations):
        t = point((lo * h_hi - hi * h_lo) / (h_hi - h_lo))
        if not (lo < t < hi):
            t = point((lo + hi) / 2)
        h_t = h(t)
        if h_t is None:
            return None
        if h_t > 0:
            lo, h_lo = t, h_t
            if side == +1:
                h_hi = h_hi / 2
            side = +1
        else:
            hi, h_hi = t, h_t
            if side == -1:
                h_lo = h_lo / 2
            side = -1
        if hi - lo < tol or h_t == 0:
            return t, lo, hi
    return None


def _anderson(h, lo, hi, tol):
    r"""``mpmath.findroot`` with the bracketing Anderson--Björck solver on ``[lo, hi]`` (20 guard
    bits, step tolerance ``tol**2``): the root when it stays in the bracket with
    :math:`|h(t)| \le` ``tol``, else None."""
    try:
        with mpmath.extraprec(20):
            t = mpmath.findroot(h, (lo, hi), solver="anderson", tol=tol ** 2, maxsteps=200)
        if lo <= t <= hi and abs(h(t)) <= tol:
            return +t
    except (ZeroDivisionError, ValueError):
        pass
    return None


def bracketed_root(h, lo, hi, *, tol=None):
    r"""A root of ``h`` in ``[lo, hi]`` where ``h(lo)`` and ``h(hi)`` differ in sign, at the
    current mpmath precision.

    ``mpmath.findroot`` with the Anderson--Björck solver (a bracketing regula falsi) is
    accepted when it stays in the bracket and :math:`|h(t)| \le` ``tol`` (default
    :math:`10^{-\mathrm{dps}+3}`); otherwise bisection on the sign of h, to the working
    precision, gives the root (h changes sign once: a monotone h, or one whose sign
    changes once, like a difference of densities with a monotone ratio).
    """
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    tol = tol if tol is not None else mpmath.mpf(10) ** (-mpmath.mp.dps + 3)
    t = _anderson(h, lo, hi, tol)
    if t is not None:
        return t
    positive_at_hi = h(hi) > 0
    lo, hi = bisect(lambda mid: (h(mid) > 0) == positive_at_hi, lo, hi, mpmath.mp.prec + 20)
    return (lo + hi) / 2


def increasing_solution(g, target):
    r"""t with :math:`g(t) = ` ``target`` for an increasing (CDF-like) g on the real line.

    The bracket ``[-1, 1]`` is doubled at the end that does not yet enclose the target,
    then :func:`bracketed_root` solves :math:`g(t) - \mathrm{target} = 0` on it.
    """
    lo, hi = mpmath.mpf(-1), mpmath.mpf(1)
    while g(lo) > target:
        lo *= 2
    while g(hi) < target:
        hi *= 2
    # the residual is judged relative to the target: a tail probability is small
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps + 3) * abs(target)
    return bracketed_root(lambda t: g(t) - target, lo, hi, tol=tol)


def decreasing_inverse(func, a, *, lo=0, hi=1, tol=None):
    r"""``inf{t in [lo, hi] : func(t) <= a}`` for a non-increasing ``func`` (Eq. 4).

    Bracketed: Anderson–Björck (``mpmath.findroot``) on ``func(t) - a`` when
    ``func(lo) > a > func(hi)``, checked against the tolerance, with bisection on the
    predicate ``func(t) <= a`` as the fallback that always converges (and finds the
    start of a flat piece at level a).  Raises :class:`RootFindingError` with the
    residual when neither reaches ``tol`` (default: ``10**(-dps + 3)``).
    """
    a = mpmath.mpf(a)
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    tol = tol if tol is not None else mpmath.mpf(10) ** (-mpmath.mp.dps + 3)
    f_lo = func(lo)
    if f_lo <= a:
        return lo
    f_hi = func(hi)
    if f_hi > a:
        raise RootFindingError(
            f"no t in [{lo}, {hi}] with f(t) <= {mpmath.nstr(a, 10)}; f({hi}) = {mpmath.nstr(f_hi, 10)}",
            residual=f_hi - a, tolerance=tol)
    if f_hi < a:  # strictly inside: the root is unique for a trade-off function
        t = _anderson(lambda s: func(s) - a, lo, hi, tol)
        if t is not None:
            return t
    lo, hi = bisect(lambda mid: func(mid) <= a, lo, hi, mpmath.mp.prec + 20, width=tol * tol)
    residual = func(hi) - a
    if abs(residual) > tol and not (a == 0 and residual <= 0):
        # a is not attained: f jumps (cannot happen for a continuous f) -- say so
        if hi - lo > tol * max(1, abs(hi)):  # relative: t = 5e5 has no 1e-42 absolute digits
            raise RootFindingError(f"bisection did not converge: interval width {mpmath.nstr(hi - lo, 5)}",
                                   residual=residual, tolerance=tol)
    return +hi


def decreasing_inverse_array(func, a, *, iterations: int = 64):
    r""":math:`\inf\{t \in [0, 1] : f(t) \le a\}` for a non-increasing array function ``func``,
    for every entry of ``a`` at once, in double precision: bisection on the predicate
    :math:`f(t) \le a` (the array version of :func:`decreasing_inverse`).  64 halvings
    of [0, 1] reach the spacing of doubles near 1; the result is the right end of the
    final bracket, so :math:`f(t) \le a` holds at it.
    """
    import numpy as np  # only the array route needs numpy; ``import symdp`` does not

    a = np.asarray(a, dtype=float)
    lo = np.zeros_like(a)
    hi = np.ones_like(a)
    at_zero = func(lo) <= a
    for _ in range(iterations):
        mid = (lo + hi) / 2
        below = func(mid) <= a
        hi = np.where(below, mid, hi)
        lo = np.where(below, lo, mid)
    return np.where(at_zero, 0.0, hi)


def golden_max(objective, a, b):
    """Max of a concave function on [a, b] at the current precision.

    Golden-section search until the bracket is narrower than 2^-(prec+4) in
    absolute terms: full precision also when the maximiser is a kink, where the
    objective is not flat and its value is only as accurate as the bracket is narrow.
    """
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    invphi = (mpmath.sqrt(5) - 1) / 2
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = objective(c), objective(d)
    steps = int(mpmath.ceil(mpmath.log((b - a) * mpmath.mpf(2) ** (mpmath.mp.prec + 4))
                            / mpmath.log(1 / invphi))) + 2
    for _ in range(steps):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = objective(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = objective(d)
    return max(fc, fd, objective(a), objective(b))
