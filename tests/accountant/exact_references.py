"""Exact references for the accountant's tests (issue #31): finite pairs at 40 digits (mpmath),
written from the definitions -- the privacy profile of a finite pair, the T-fold product by
the multinomial counts of its atoms, k-ary randomized response, Poisson sampling of a pair on
its own outcomes -- independent of symdp's code."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

DPS = 40


# ----------------------------------------------------------------------------- references

def _mp(x):
    if isinstance(x, mpmath.mpf):
        return x
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def delta_of_atoms(atoms, eps):
    r"""δ(ε) of a finite pair ``[(loss, p, q)]`` (loss an mpf or ±inf):
    :math:`\sum_{L > \varepsilon} (p - e^\varepsilon q) + \sum_{L = +\infty} p` (the definition)."""
    with mpmath.workdps(DPS):
        e = _mp(eps)
        total = mpmath.mpf(0)
        for loss, p, q in atoms:
            if loss == mpmath.inf:
                total += p
            elif loss != -mpmath.inf and loss > e:
                total += p - mpmath.exp(e) * q
        return total


def composed_atoms(step, T):
    """The T-fold product of a finite pair, by the counts of each atom (multinomial)."""
    m = len(step)
    out = []

    def walk(i, left, counts):
        if i == m - 1:
            counts = counts + [left]
            mult = math.factorial(T)
            for c in counts:
                mult //= math.factorial(c)
            p = q = mpmath.mpf(mult)
            loss = mpmath.mpf(0)
            for c, (l, pi, qi) in zip(counts, step):
                if c:
                    p *= pi ** c
                    q *= qi ** c
                    loss = loss + c * l
            if p == 0 and q == 0:
                return
            if q == 0:
                loss = mpmath.inf
            elif p == 0:
                loss = -mpmath.inf
            out.append((loss, p, q))
            return
        for c in range(left + 1):
            walk(i + 1, left - c, counts + [c])
    with mpmath.workdps(DPS):
        walk(0, T, [])
    return out


def rr_atoms(rho, k):
    """k-ary randomized response (the true value w.p. 1 - rho, else uniform): its pair on
    (a, b, rest), from the definition."""
    with mpmath.workdps(DPS):
        rho = _mp(rho)
        keep, other = 1 - rho + rho / k, rho / k
        mid = 1 - keep - other
        e = mpmath.log(keep / other)
        atoms = [(e, keep, other), (-e, other, keep)]
        if k > 2:
            atoms.insert(1, (mpmath.mpf(0), mid, mid))
        return atoms


def poisson_pair(atoms, q, direction):
    """Poisson sampling of a pair on its own outcomes: remove ((1-q)Q + qP, Q), add the reverse."""
    with mpmath.workdps(DPS):
        q = _mp(q)
        out = []
        for _, p, qq in atoms:
            mix = (1 - q) * qq + q * p
            P, Q = (mix, qq) if direction == "remove" else (qq, mix)
            loss = mpmath.log(P / Q) if P > 0 and Q > 0 else (mpmath.inf if Q == 0 else -mpmath.inf)
            out.append((loss, P, Q))
        return out


def assert_contains(lo, hi, delta_fn, D):
    """eps(D) in [lo, hi] <=> delta(lo) > D >= delta(hi) (delta non-increasing; lo = 0 trivial)."""
    D = _mp(D)
    assert lo == 0 or delta_fn(lo) > D, (float(lo), float(delta_fn(lo)))
    assert delta_fn(hi) <= D, (float(hi), float(delta_fn(hi)))
