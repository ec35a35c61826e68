"""Mutants of the FFT engine (symdp/accountant/fft.py, docs/accountant.md §3F) and the
independent references that catch them.

Each mutant breaks one step of the error argument (``FFTGrid(mutate=...)``); the test shows
that the correct engine's bracket contains the reference, is narrow enough that it could
fail, and that the mutant's bracket excludes the same reference.  References, never the
engine's output: the closed form of a G_mu composition (Dong-Roth-Su 2022, Cor. 3.3: the T-fold
G_mu is G_{sqrt(T) mu}); for f_(eps0, delta0) composed T times, beyond the largest finite loss
T eps0, delta = 1 - (1 - delta0)^T exactly (the outcomes with a coordinate at loss +oo);
for the FFT itself, the exact circular composition of the very float arrays transformed
(rational arithmetic).

The rounding-direction mutants act at the level of one unit in the last place.  In a
composition whose counted cells go through the FFT, Higham's bound (~100 u per unit of
l2 mass) is far wider than a one-ulp shift, so no reference can see them there; beyond the
largest finite loss of f_(eps0, delta0) the bracket is decided by the +oo atom and the top
cell alone, composed in Arb from the rounded one-step masses, and is 1e-15 wide: there the
shift shows."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from symdp.accountant import EpsDelta, Gaussian
from symdp.accountant import fft as F
from symdp.accountant.certify import Phase, compose, delta_bounds

from test_accountant_bracket import gdp_delta, mpf


def bracket(pair, T, eps, mutate=None, cells=None):
    grid = F.FFTGrid(h_exp=8, mutate=mutate, cells=cells)
    lo, hi = delta_bounds(compose([Phase((pair,), T)], grid, None, ("eps", float(eps))), Fraction(eps))
    return mpf(lo), mpf(hi)


def epsdelta_beyond():
    """f_(1/10, 1/100) composed 10 times at eps = 2 > T eps0 = 1: delta = 1 - (99/100)^10."""
    return EpsDelta("1/10", "1/100"), 10, "2", mpf(1 - Fraction(99, 100) ** 10)


def gaussian():
    """G_{1/10} composed 100 times at eps = 1: G_1."""
    return Gaussian("1/10"), 100, "1", gdp_delta(1, 1)


def excluded(lo, hi, ref):
    return not (lo <= ref <= hi) or lo > hi


def test_the_correct_engine_brackets_the_references_narrowly():
    with mpmath.workdps(60):
        pair, T, eps, ref = epsdelta_beyond()
        lo, hi = bracket(pair, T, eps)
        assert lo <= ref <= hi and hi - lo < 1e-13 * ref      # one-ulp shifts are visible
        pair, T, eps, ref = gaussian()
        lo, hi = bracket(pair, T, eps)
        assert lo <= ref <= hi and hi - lo < 1e-3 * ref
        lo, hi = bracket(pair, T, eps, cells=2048)            # half the FFT length it needs
        assert lo <= ref <= hi


@pytest.mark.parametrize("mutant,case,side", [
    ("upper-mass-down", epsdelta_beyond, "hi"),   # tilted masses (and the +oo atom) rounded down
    ("lower-p-up", epsdelta_beyond, "lo"),        # the lower pair's P-masses rounded up
    ("no-tail-mass", epsdelta_beyond, "hi"),      # mass above the window and at +oo not added to delta
    ("steps-minus-one", gaussian, "both"),        # T - 1 compositions
])
def test_a_mutant_is_excluded_by_the_reference(mutant, case, side):
    with mpmath.workdps(60):
        pair, T, eps, ref = case()
        lo, hi = bracket(pair, T, eps, mutate=mutant)
        assert excluded(lo, hi, ref)
        if side == "hi":
            assert hi < ref
        elif side == "lo":
            assert lo > ref


def test_dropping_the_wrap_around_mass_is_caught():
    """An FFT of half the length the composition needs: the correct bracket bounds the mass
    that wrapped around or left the window (Chernoff, §3F.5); the mutant drops it."""
    with mpmath.workdps(60):
        pair, T, eps, ref = gaussian()
        lo, hi = bracket(pair, T, eps, mutate="no-wrap-bound", cells=2048)
        assert excluded(lo, hi, ref)


def exact_circular_power(a, T):
    """The exact circular T-fold self-convolution of the float array a (rationals)."""
    N = len(a)
    base = [Fraction(float(v)) for v in a]
    out = [Fraction(0)] * N
    out[0] = Fraction(1)
    for _ in range(T):
        nxt = [Fraction(0)] * N
        for i, u in enumerate(out):
            if u:
                for j, v in enumerate(base):
                    if v:
                        nxt[(i + j) % N] += u * v
        out = nxt
    return out


@pytest.mark.parametrize("mutate", [None, "no-fft-bound"])
def test_the_fft_round_off_bound_is_needed(mutate):
    """||w_hat - w_circ||_2 <= err2 (§3F.4) against the exact circular composition of the
    float arrays; with the bound dropped (err2 = 0) the computed array is not exact."""
    rng = np.random.default_rng(7)
    k = np.arange(-5, 9, dtype=np.int64)
    x = rng.random(len(k))
    x /= x.sum()
    N, T = 64, 6
    ca = F.compose_arrays([(k, x, T)], Fraction(1, 4), 4, cells=N, mutate=mutate)
    exact = exact_circular_power(F.circular(k, x, N, 1), T)
    exact = np.roll(np.array(exact, dtype=object), -(ca.c % N))
    with mpmath.workdps(50):
        dist = mpmath.sqrt(mpmath.fsum((mpf(Fraction(float(w))) - mpf(e)) ** 2 for w, e in zip(ca.w, exact)))
        m, e = (int(v) for v in ca.err2.upper().man_exp())
        bound = mpmath.mpf(m) * mpmath.mpf(2) ** e                   # the ball's upper end, exactly
        if mutate is None:
            assert 0 < dist <= bound < 1e-12                  # a bound, and a useful one
        else:
            assert bound == 0 < dist                          # the dropped bound is violated
