r"""Certified composition by a floating-point FFT with a proved error bound (docs/accountant.md §3F).

The one-step pairs are those of §2 (the connect-the-dots dominating pair and the binned
dominated pair), on a *subset* of the grid :math:`h\mathbb Z` (dense where the tilted mass is,
sparse in the tails: connect-the-dots through any set of nodes still dominates, and merging bins
is a post-processing).  Their masses are **exponentially tilted**,
:math:`\hat x_k = m_k e^{\lambda y_k}/C` (Koskela-Jälkö-Honkela 2020 use the same device to
control the relative error in the tails), rounded in the safe direction to float64, so that
the arrays that are composed are probability-like vectors of total :math:`\approx 1` whose
mass sits where :math:`\delta(\varepsilon)` is decided.  Tilting commutes with convolution
(:math:`e^{\lambda(y+y')} = e^{\lambda y} e^{\lambda y'}`), so the T-fold composition is
:math:`m^{*T}_k = C^T e^{-\lambda y_k} \hat x^{*T}_k`, and every cell's weight in the δ
functionals is at most :math:`C^T e^{-\lambda \varepsilon}` -- an error of ℓ2-size E in the
tilted composed array moves δ by at most :math:`C^T e^{-\lambda\varepsilon} \|a\|_2 E`.

The T-fold power is one forward FFT, a pointwise power by repeated squaring and one inverse
FFT (all phases of a schedule in the same transform), computed by the radix-2 FFT below, to
which Higham's bound applies (Accuracy and Stability of Numerical Algorithms, 2nd ed. 2002,
Thm 24.2): :math:`\|\hat y - y\|_2 \le \frac{t\eta}{1-t\eta}\|y\|_2`, :math:`t = \log_2 N`,
:math:`\eta = \mu + \gamma_4(\sqrt2 + \mu)`, μ the error of the computed twiddle factors.
The circular wrap-around is bounded by a Chernoff bound on the tilted composition, checked
in Arb.  Every bound is assembled in Arb from floats (exact) and the constants of the standard
model of floating-point arithmetic (u = 2^-53; IEEE-754 +, −, ×, ÷ correctly rounded).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import flint
import numpy as np
from flint import arb, fmpq

from ..core.errors import InvalidParameterError
from .pairs import Pair

#: the longest FFT (cells of the composed grid): its complex arrays take 16 bytes a cell, a few
#: of them at once; the supported range (docs/accountant.md §8) needs at most 2^24
MAX_CELLS = 1 << 24
U = 2.0 ** -53                      # unit roundoff of float64, round to nearest
TINY = 2.0 ** -1074                 # the absolute error of an underflowing operation
WORK_PREC = 160                     # Arb precision of the scalar bounds


def gamma(n: int) -> float:
    """An upper bound on :math:`\\gamma_n = nu/(1 - nu)` (Higham 2002, Lemma 3.1), rounded up."""
    nu = n * U
    return math.nextafter(nu / (1 - nu) * (1 + 4 * U), math.inf)


def _up(x: arb) -> float:
    """The least float >= every point of the ball x."""
    hi = x.upper()
    f = float(hi)
    while arb(f) < hi:
        f = math.nextafter(f, math.inf)
    return f


def _down(x: arb) -> float:
    """The greatest float <= every point of the ball x (0 for a ball reaching below 0 is not
    used: callers clip masses at 0 themselves)."""
    lo = x.lower()
    f = float(lo)
    while arb(f) > lo:
        f = math.nextafter(f, -math.inf)
    return f


def _ball(value) -> arb:
    f = Fraction(value)
    return arb(fmpq(f.numerator, f.denominator))


@dataclass(frozen=True)
class FFTGrid:
    """Loss grid :math:`h = 2^{-e}` for the FFT engine.  ``mutate`` breaks one step (tests only);
    ``cells`` forces the FFT length (tests of the wrap-around bound)."""

    h_exp: int = 14
    prec: int = 0
    mutate: str | None = None
    cells: int | None = None

    @property
    def h(self) -> Fraction:
        return Fraction(1, 1 << self.h_exp)

    @property
    def arb_prec(self) -> int:
        # the kinks are second differences of the profile over node gaps >= h: ~2 h_exp bits
        # cancel; 64 bits survive beyond that
        return self.prec or 64 + 2 * self.h_exp + 32


# ----------------------------------------------------------------- geometric weights

def geometric(rate: Fraction, h: Fraction, k0: int, n: int) -> tuple[np.ndarray, float]:
    r"""Floats :math:`w_j \approx e^{\rho h (k_0 + j)}`, j < n, and a bound r on their relative error.

    :math:`w_j = \mathrm{fl}(T_1[j \bmod S]\, T_2[\lfloor j/S \rfloor])` with
    :math:`T_1[b] = \hat r^b` (sequential products of :math:`\hat r = \mathrm{fl}(e^{\rho h})`) and
    :math:`T_2[a] = \hat c\,\hat R^a` (:math:`\hat c = \mathrm{fl}(e^{\rho h k_0})`,
    :math:`\hat R = \mathrm{fl}(e^{\rho h S})`).  Each of :math:`\hat r, \hat R, \hat c` is within
    a factor :math:`(1 \pm u')` of its value (u' = u plus the Arb radius), and each product adds
    one rounding, so :math:`|w_j/e^{\rho h(k_0+j)} - 1| \le (1+u')^{2S + 2n/S + 4} - 1`
    (Higham 2002, Lemma 3.1).  Raises if a value leaves the normal range (the model then fails).
    """
    S = 1 << max(1, (max(n, 2) - 1).bit_length() // 2)
    A = (n + S - 1) // S
    with flint.ctx.workprec(WORK_PREC):
        x = _ball(rate * h)
        r, R, c = x.exp(), (x * S).exp(), (x * k0).exp()
        vals = [float(v.mid()) for v in (r, R, c)]
    for v in vals + [vals[0] ** S]:
        if not 2.0 ** -1000 < v < 2.0 ** 1000:
            raise ArithmeticError("geometric weights leave the floating-point range")
    t1 = np.cumprod(np.full(S, vals[0]))
    t1 = np.concatenate(([1.0], t1[:-1]))
    t2 = np.cumprod(np.full(A, vals[1]))
    t2 = vals[2] * np.concatenate(([1.0], t2[:-1]))
    w = (t2[:, None] * t1[None, :]).ravel()[:n]
    lo, hi = float(np.min(w)), float(np.max(w))
    if not (2.0 ** -1000 < lo and hi < 2.0 ** 1000):
        raise ArithmeticError("geometric weights leave the floating-point range")
    u1 = U * (1 + 2.0 ** -50)
    rel = (1 + u1) ** (2 * S + 2 * A + 4) - 1
    return w, rel * (1 + 1e-6)


# ----------------------------------------------------------------- the FFT and its bound

@lru_cache(maxsize=8)
def twiddles(N: int) -> tuple[np.ndarray, float]:
    r""":math:`\hat\omega^j \approx e^{-2\pi i j/N}`, j < N/2, and μ with :math:`|\hat\omega^j - \omega^j| \le \mu`.

    Two tables computed in Arb and rounded to nearest (componentwise error <= u|.|, so
    :math:`|\hat\omega - \omega| \le u' := u + 2^{-120}`), multiplied in float64: Higham 2002,
    Lemma 3.5 gives :math:`|\mathrm{fl}(ab) - ab| \le \sqrt2\gamma_2|a||b|`, hence
    :math:`\mu \le 2u' + u'^2 + \sqrt2\gamma_2(1+u')^2`."""
    half = N // 2
    S = 1 << max(0, (half.bit_length() - 1 + 1) // 2)
    A = max(1, half // S)
    with flint.ctx.workprec(WORK_PREC):
        pi2 = arb.pi() * 2
        def w(j):
            t = pi2 * j / N
            return complex(float(t.cos().mid()), -float(t.sin().mid()))
        t1 = np.array([w(b) for b in range(S)])
        t2 = np.array([w(a * S) for a in range(A)])
    tw = (t2[:, None] * t1[None, :]).ravel()[:half]
    u1 = U + 2.0 ** -120
    mu = 2 * u1 + u1 * u1 + math.sqrt(2) * gamma(2) * (1 + u1) ** 2
    return tw, mu * (1 + 1e-6)


def fft(x: np.ndarray, inverse: bool = False) -> np.ndarray:
    r"""Radix-2 decimation-in-time FFT (unnormalised): :math:`y_k = \sum_j x_j \omega^{\pm jk}`.

    Stage by stage the butterflies :math:`(a, b) \mapsto (a + \hat\omega b, a - \hat\omega b)` of
    the Cooley-Tukey factorisation :math:`F_N = A_t \cdots A_1 P_N` (the bit-reversal permutation
    :math:`P_N` is carried by the array layout and is exact) -- the algorithm of Higham 2002,
    §24.1, to which Thm 24.2 applies."""
    N = x.shape[0]
    tw, _ = twiddles(N)
    if inverse:
        tw = np.conj(tw)
    X = x.astype(complex).reshape(1, N)          # a fresh buffer: the input is never written
    out = np.empty(N, complex)
    prod = np.empty(N // 2, complex)
    m = 1
    while m < N:
        half = N // (2 * m)
        even, odd = X[:, :half], X[:, half:]
        p = prod.reshape(m, half)
        np.multiply(odd, tw[::half][:m, None], out=p)
        o = out.reshape(2 * m, half)
        np.add(even, p, out=o[:m])
        np.subtract(even, p, out=o[m:])
        X, out = o, X.reshape(N)                 # ping-pong between two buffers
        m *= 2
    return X.ravel()


def fft_error_factor(N: int) -> float:
    r""":math:`g_N = t\eta/(1 - t\eta)`, :math:`\eta = \mu + \gamma_4(\sqrt2 + \mu)`, t = log2 N
    (Higham 2002, Thm 24.2): :math:`\|\mathrm{fl}(F_N x) - F_N x\|_2 \le g_N \|F_N x\|_2`."""
    t = N.bit_length() - 1
    _, mu = twiddles(N)
    eta = mu + gamma(4) * (math.sqrt(2) + mu)
    return t * eta / (1 - t * eta) * (1 + 1e-6)


def power(X: np.ndarray, T: int) -> np.ndarray:
    """X**T componentwise by repeated squaring (only IEEE products)."""
    result = None
    base = X
    while T:
        if T & 1:
            result = base.copy() if result is None else result * base
        T >>= 1
        if T:
            base = base * base
    return result


# ----------------------------------------------------------------- one step on a node set

@dataclass
class TiltedStep:
    """One step of one direction: the tilted arrays at node indices ``k`` (grid indices).

    upper: ``x[i] = up(p_i e^{λ y_i} / C)``; the masses of the dominating pair used are
    ``x[i] C e^{-λ y_i}`` (>= the connect-the-dots masses p_i) and ``inf`` (>= p_inf) at +oo.
    lower: ``P[j] = down(P_j e^{λ y_j}/C_P)``, ``Q[j] = up(Q_j e^{λ' y_j}/C_Q)``, λ' = λ + 1,
    bins labelled by their left node, and the absorbing top cell (``top_p``, ``top_q``).
    ``fin`` / ``fin_p`` / ``fin_q`` are balls around the untilted finite totals of those masses."""

    k: np.ndarray
    lam: Fraction
    x: np.ndarray
    C: float
    inf: arb
    fin: arb
    kb: np.ndarray
    P: np.ndarray
    Q: np.ndarray
    CP: float
    CQ: float
    top_p: arb
    top_q: arb
    fin_p: arb
    fin_q: arb


#: the scan: ``SCAN_CELLS`` cells across the loss window of tail 2^-40 (where the nodes are
#: decided), cells ``SCAN_OUTER`` times wider out to the window of tail 2^-90
SCAN_CELLS = 256
SCAN_OUTER = 4


@lru_cache(maxsize=64)
def _scan_loss(pair: Pair, cells: int = SCAN_CELLS):
    """Coarse float look at one step (a choice of nodes and tilt only): the dyadic losses
    j 2^e (the integers j, increasing), and A and B there."""
    ilo, ihi = pair.loss_window(2.0 ** -40)
    lo, hi = pair.loss_window(2.0 ** -90)        # last: the window every other caller asks for
    ilo, ihi = max(lo, ilo), min(hi, ihi)
    e = math.floor(math.log2(max(ihi - ilo, 2.0 ** -60) / cells))
    u = 2.0 ** e
    i0, i1 = math.floor(ilo / u) - 1, math.ceil(ihi / u) + 1
    first = min(i0, math.floor(lo / u) - 1)        # one point below the window, as before
    o1 = SCAN_OUTER * (math.ceil(hi / u / SCAN_OUTER) + 1)
    js = sorted({first} | {j for j in range(SCAN_OUTER * (first // SCAN_OUTER), i0, SCAN_OUTER) if j > first}
                | set(range(i0, i1 + 1)) | {j for j in range(i1 + 1, o1 + 1) if j % SCAN_OUTER == 0})
    with flint.ctx.workprec(80):
        AB = [pair.tails(arb(fmpq(j, 1)) * arb(2) ** e) for j in js]
    return e, tuple(js), tuple(float(a.mid()) for a, _ in AB), tuple(float(b.mid()) for _, b in AB)


def cell_losses(y: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    r"""The loss of each coarse cell :math:`[y_j, y_{j+1})` (the last: :math:`[y_n, \infty)`) as
    :math:`\log(m^P_j / m^Q_j)`, the log of the cell's mean likelihood ratio, clipped to the cell
    (its midpoint where a mass is 0).  A float estimate for the tilt: a cell's midpoint is off
    the mass-weighted loss by up to half a cell, which T steps turn into T half-cells (at
    T = 10^5 far more than the whole loss of the composition)."""
    mp = np.maximum(-np.diff(np.append(A, 0.0)), 0.0)
    mq = np.maximum(-np.diff(np.append(B, 0.0)), 0.0)
    right = np.append(y[1:], y[-1])
    mid = (y + right) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        L = np.where((mp > 0) & (mq > 0), np.log(mp) - np.log(mq), mid)
    L = np.where(np.isfinite(L), L, mid)
    return np.clip(L, y, np.maximum(right, y))


def clear_caches() -> None:
    """Forget the cached one-step scans and twiddle tables (benchmarks time a cold start)."""
    _scan_loss.cache_clear()
    twiddles.cache_clear()


def _scan(pair: Pair, grid: FFTGrid):
    """The coarse scan on grid indices: (indices, A at them, their spacing)."""
    e, js, A, B = _scan_loss(pair)
    lo_idx = math.floor(pair.loss_window(2.0 ** -90)[0] * 2 ** grid.h_exp) - 1
    hi_idx = math.ceil(pair.loss_window(2.0 ** -90)[1] * 2 ** grid.h_exp) + 2
    if e + grid.h_exp >= 0:
        step = 1 << (e + grid.h_exp)
        idx = np.array(js, dtype=np.int64) * step
    else:                                   # coarser than the grid: evaluate on the grid itself
        step = 1
        idx = np.array(sorted({round(j * 2.0 ** (e + grid.h_exp)) for j in js}),
                       dtype=np.int64)
        with flint.ctx.workprec(80):
            AB = [pair.tails(arb(fmpq(int(i), 1 << grid.h_exp))) for i in idx]
        A, B = [float(a.mid()) for a, _ in AB], [float(b.mid()) for _, b in AB]
    idx = np.concatenate(([min(lo_idx, int(idx[0]))], idx[1:-1], [max(hi_idx, int(idx[-1]))]))
    A, B = np.clip(np.array(A, dtype=float), 0.0, 1.0), np.clip(np.array(B, dtype=float), 0.0, 1.0)
    return idx, A, step, cell_losses(idx * 2.0 ** -grid.h_exp, A, B)


def window_nodes(pair: Pair, grid: FFTGrid) -> np.ndarray:
    """The grid points at (or just outside) the ends of the pair's loss window, and one above:
    for a pair with loss atoms at its extremes (randomized response, f_(eps,delta)) on the
    grid, the atoms are nodes and the binned pair's top cell [y_{n-1}, +oo) starts above the
    highest one (else the absorbing top cell would merge it with the mass at +oo), so the
    discretisation of §2 is exact there (a choice; any nodes are valid)."""
    lo, hi = pair.loss_window(2.0 ** -90)
    top = math.ceil(hi * 2 ** grid.h_exp)
    bottom = math.floor(lo * 2 ** grid.h_exp)
    # and one below: the bottom bin (-oo, y_1) then holds the loss -oo (f_(eps,delta)'s Q-only
    # atom) and the far tail only, which tilted_step sends to the discarded symbol
    return np.array([bottom - 1, bottom, top, top + 1], dtype=np.int64)


def atom_nodes(pair: Pair, grid: FFTGrid, first: int, last: int) -> np.ndarray:
    """The grid points on both sides of each loss atom of the pair (``Pair.loss_atoms``) within
    the node range [first, last]: a finite pair's atom then lies between two nodes h apart
    instead of being smeared by the chord through distant ones (a choice; any nodes are
    valid).  Poisson sampling at q = 1e-4 of f_(0.5, 0), 10^4 steps: width 9e-5 -> see
    docs/accountant.md §9."""
    out = []
    for a in pair.loss_atoms():
        if math.isfinite(a):
            x = a * 2 ** grid.h_exp
            out += [math.floor(x), math.ceil(x)]
    ks = np.array(sorted(set(out)), dtype=np.int64)
    return ks[(ks >= first) & (ks <= last)]


def log_mgf(scan, h: float, lam: float) -> float:
    """Float log E_P[e^{λL}] from the coarse scan (a heuristic for the tilt only), each coarse
    cell's mass at its :func:`cell_losses` loss."""
    _, A, _, L = scan
    m = np.maximum(-np.diff(np.append(A, 0.0)), 0.0)
    z = lam * L
    top = np.max(np.where(m > 0, z, -np.inf))
    return float(top + math.log(np.sum(m * np.exp(z - top))))


def chernoff_epsilon(pairs, steps, delta: float) -> float:
    r"""Float Chernoff estimate :math:`\min_\lambda (\sum_i T_i K_i(\lambda) + \log 1/\delta)/\lambda`
    of ε(δ) of one direction, from the coarse scans (a choice only: which direction to compute
    on the fine grid first)."""
    scans = []
    for p in pairs:
        e, js, A, B = _scan_loss(p)
        A, B = np.clip(np.array(A), 0.0, 1.0), np.clip(np.array(B), 0.0, 1.0)
        y = np.array(js, dtype=float) * 2.0 ** e
        scans.append((y, A, 1, cell_losses(y, A, B)))
    best = math.inf
    for j in range(49):
        lam = 2.0 ** (j / 4) / 64
        try:
            K = sum(T * log_mgf(sc, 1.0, lam) for sc, T in zip(scans, steps))
        except (OverflowError, ValueError):
            continue
        best = min(best, (K + math.log(1 / delta)) / lam)
    return best


NODE_DENSE_BITS = 6      # spacing h where a coarse cell's tilted mass is within 2^-6 of the largest
NODE_DOUBLING = 4.0      # ... and the spacing doubles each time that mass falls by this factor


def nodes(scan, grid: FFTGrid, lam: float) -> np.ndarray:
    """Grid indices of the nodes: spacing h where the tilted mass of a coarse cell is within
    2^-6 of the largest, doubling as it falls by 4 (discretisation error ~ spacing^2 x mass),
    at most a quarter of a unit of loss.  Where the spacing exceeds the scan's, only the scan
    points on that spacing are nodes (far in the tails, where the tilted mass is negligible,
    the scan points themselves would be most of the nodes); the window's two ends are kept."""
    idx, A, step = scan[:3]
    m = np.maximum(-np.diff(np.append(A, 0.0)), 0.0)[:-1]
    h = float(grid.h)
    with np.errstate(divide="ignore", over="ignore"):
        lt = np.log(np.maximum(m, 1e-300)) + lam * idx[1:] * h
    lt = np.where(m > 0, lt, -np.inf)
    best = np.max(lt)
    cap = max(0, grid.h_exp - 2)
    gap = best - lt - NODE_DENSE_BITS * math.log(2)
    gap = np.where(np.isnan(gap), np.inf, gap)           # no mass anywhere: sparse
    js = np.where(gap <= 0, 0, np.minimum(np.maximum(gap, 0) / math.log(NODE_DOUBLING), cap)).astype(int)
    out = [idx[:1], idx[-1:]]
    for c in range(len(idx) - 1):
        sp_ = 1 << int(js[c])
        if sp_ < idx[c + 1] - idx[c]:
            out.append(np.arange(idx[c], idx[c + 1], sp_))
        elif idx[c] % sp_ == 0 or c == 0 or js[c - 1] < js[c]:
            out.append(idx[c:c + 1])          # on the spacing's lattice, or after a finer cell
    ks = np.unique(np.concatenate(out))
    if ks[0] < 0 < ks[-1]:
        ks = np.union1d(ks, [0])          # a loss atom at 0 (uniform sampling) keeps its node
    return ks


def tilted_step(pair: Pair, grid: FFTGrid, lam: Fraction, ks: np.ndarray) -> TiltedStep:
    """The connect-the-dots and binned pairs of §2 on the nodes ``ks``, tilted and rounded."""
    with flint.ctx.workprec(grid.arb_prec):
        ys = [arb(fmpq(int(i), 1 << grid.h_exp)) for i in ks]
        A, Bq = [], []
        for y in ys:
            a, b = pair.tails(y)
            A.append(a)
            Bq.append(b)
        alpha = [y.exp() for y in ys]
        n = len(ys) - 1
        H = [A[i] - alpha[i] * Bq[i] for i in range(n + 1)]
        slopes = [(H[0] - 1) / alpha[0]]
        slopes += [(H[i + 1] - H[i]) / (alpha[i + 1] - alpha[i]) for i in range(n)]
        slopes.append(arb(0))
        kinks = [alpha[j] * (slopes[j + 1] - slopes[j]) for j in range(n + 1)]
        inf = H[n]
        Ae = [arb(1)] + A[1:n] + [arb(0)]
        Be = [arb(1)] + Bq[1:n] + [arb(0)]
        pm = [Ae[j] - Ae[j + 1] for j in range(n - 1)]
        qm = [Be[j] - Be[j + 1] for j in range(n - 1)]
        # the bottom bin (-oo, y_1) goes to the discarded symbol (a post-processing; its term is
        # dropped): labelled y_0, an outcome of loss -oo (P = 0) would otherwise sit in composed
        # cells among finite losses and be counted with -e^eps Q (f_(1/3, 1/1000)^(x)6 at
        # eps = 0.66 lost 1.5e-4 of delta that way; issue #31)
        if grid.mutate != "keep-bottom-bin":
            pm[0] = qm[0] = arb(0)
        top_p, top_q = A[n - 1], Bq[n - 1]
        lb = _ball(lam)
        el = [(lb * y).exp() for y in ys]                   # e^{lam y}
        elq = [e * a for e, a in zip(el, alpha)]           # e^{(lam + 1) y}
        m = grid.mutate
        tk = [k * e for k, e in zip(kinks, el)]
        tp = [p * e for p, e in zip(pm, el)]
        tq = [q * e for q, e in zip(qm, elq)]
        # normalised by a float C close to the tilted total (any C > 0 is valid)
        C = float(sum(float(v.mid()) for v in tk)) or 1.0
        CP = float(sum(float(v.mid()) for v in tp)) or 1.0
        CQ = float(sum(float(v.mid()) for v in tq)) or 1.0
        iC, iCP, iCQ = 1 / arb(C), 1 / arb(CP), 1 / arb(CQ)
        x = np.array([max(0.0, _down(v * iC) if m == "upper-mass-down" else _up(v * iC)) for v in tk])
        P = np.array([max(0.0, _up(v * iCP) if m == "lower-p-up" else _down(v * iCP)) for v in tp])
        Q = np.array([max(0.0, _down(v * iCQ) if m == "lower-q-down" else _up(v * iCQ)) for v in tq])
        # the untilted finite totals of the masses actually used: sum_i x_i C e^{-lam y_i}
        fin = sum((float(v) / e for v, e in zip(x, el) if v), arb(0)) * C
        fin_p = sum((float(v) / e for v, e in zip(P, el) if v), arb(0)) * CP
        fin_q = sum((float(v) / e for v, e in zip(Q, elq) if v), arb(0)) * CQ
        inf = arb(_up(inf)) if m != "upper-mass-down" else arb(max(0.0, _down(inf)))
        top_p = arb(_up(top_p)) if m == "lower-p-up" else arb(max(0.0, _down(top_p)))
        top_q = arb(_up(top_q))
    k = np.asarray(ks, dtype=np.int64)
    if m == "upper-shift-down":            # losses one cell too low (a wrong direction)
        k_up = k - 1
    else:
        k_up = k
    return TiltedStep(k_up, lam, x, C, inf, fin, k[:-2], P, Q, CP, CQ, top_p, top_q, fin_p, fin_q)


# ----------------------------------------------------------------- composing

@dataclass
class ComposedArray:
    """A tilted composed array ``w`` on absolute grid indices ``c .. c + N - 1`` and what bounds it.

    The exact circular composition ``circ`` of the (float) one-step arrays satisfies
    ``||circ - w||_2 <= err2``; ``circ`` is the exact linear composition X wrapped modulo N, so on
    the window ``circ = X + alias`` with alias >= 0 coming from the mass of X outside the window:
    ``tau_lo`` bounds X below index c and ``tau_hi`` X at indices >= c + N (:func:`tail_bound`).
    The untilted mass of a cell is ``scale * e^{-rate y} * X``."""

    w: np.ndarray
    c: int
    rate: Fraction
    err2: arb
    tau_lo: arb
    tau_hi: arb
    h_exp: int
    steps: list = field(default_factory=list, repr=False)
    logs: dict | None = field(default=None, repr=False)      # tail_logs(steps): choices only

    @property
    def N(self) -> int:
        return len(self.w)


def _norms(x: np.ndarray):
    """Arb upper bounds on ||x||_1 and ||x||_2 of a float vector (Higham 2002, Eq. 4.4)."""
    n = len(x) + 1
    s1 = float(np.sum(np.abs(x)))
    s2 = float(np.sum(x * x))
    g = gamma(n)
    return arb(s1) * (1 + arb(g)) + TINY * n, (arb(s2) * (1 + arb(g)) + TINY * n).sqrt() * (1 + arb(U))


#: the Chernoff parameters tried (per unit of loss): 2^-6 .. 2^20
THETAS = [2.0 ** (j / 2) for j in range(-12, 41)]


def _float_tail_log(k, T, h, th):
    """Float log of prod_i (sum_k x_ik e^{th h k})^{T_i} (a choice of theta only); ``th`` may be
    an array (one value per theta)."""
    ths = np.atleast_1d(np.asarray(th, dtype=float))
    tot = np.zeros(len(ths))
    for (kk, xx), TT in zip(k, T):
        pos = xx > 0
        z = np.log(xx[pos])[:, None] + (h * kk[pos])[:, None] * ths[None, :]
        top = np.max(z, axis=0)
        tot += TT * (top + np.log(np.sum(np.exp(z - top), axis=0)))
    return tot if np.ndim(th) else float(tot[0])


def tail_logs(steps, hf: float) -> dict:
    """The float log-mgf of the composition at ±THETAS (``{+1: ..., -1: ...}``), computed once
    per composed array and shared by :func:`_float_edge` and :func:`tail_bound` (choices only)."""
    k = [(kk, xx) for kk, xx, _ in steps]
    T = [TT for _, _, TT in steps]
    th = np.array(THETAS)
    with np.errstate(over="ignore", invalid="ignore"):
        return {1: _float_tail_log(k, T, hf, th), -1: _float_tail_log(k, T, hf, -th)}


def tail_bound(steps, h_exp: int, edge: int, above: bool, sd: float = 1.0, logs: dict | None = None) -> arb:
    r"""Chernoff: the composed mass at indices >= ``edge`` (``above``) or < ``edge`` is at most
    :math:`\prod_i (\sum_k x_{ik} e^{\pm\theta h (k - r_i)})^{T_i} \cdot e^{\pm\theta h(\sum_i T_i r_i - \mathrm{edge})}`
    for every θ > 0 and references r_i (Markov's inequality for :math:`e^{\pm\theta h S}` under the
    product measure); r_i is the least index of phase i, so the weights lie in [1, e^{600}]
    above (θ capped accordingly; :func:`geometric`) and in (0, 1] below (:func:`_decaying_sum`).  The mass is
    exactly 0 when the edge lies beyond the support :math:`\sum_i T_i [\min k_i, \max k_i]`.
    θ is chosen in floating point (from ``logs`` of :func:`tail_logs` when given); the bound is
    evaluated at the best-scored θ, the next ones only if a weight leaves the float range."""
    h = Fraction(1, 1 << h_exp)
    hf = float(h)
    sign = 1 if above else -1
    # only the cells that carry mass: the support and the references are theirs
    steps = [(kk[xx > 0], xx[xx > 0], TT) if np.any(xx > 0) else (kk[:1], xx[:1], TT) for kk, xx, TT in steps]
    far = sum(TT * (int(kk.max()) if above else int(kk.min())) for kk, _, TT in steps)
    if (above and far < edge) or (not above and far >= edge):
        return arb(0)
    refs = [int(kk.min()) for kk, _, _ in steps]
    reach = sum(TT * r for r, (_, _, TT) in zip(refs, steps))
    span = max(int(kk.max() - kk.min()) + 1 for kk, _, _ in steps)
    cap = 600 / (span * hf) if above else math.inf
    k = [(kk, xx) for kk, xx, _ in steps]
    T = [TT for _, _, TT in steps]
    if logs is None:
        cands = sorted({Fraction(max(1, round(min(cap, th) * 2 ** 20)), 2 ** 20) for th in THETAS})
        th_f = np.array([float(t) for t in cands])
        score = _float_tail_log(k, T, hf, sign * th_f) - sign * th_f * hf * edge
    else:                        # the shared scores at THETAS; a capped theta is scored alone
        score, cands = {}, []
        for i, th in enumerate(THETAS):
            c = Fraction(max(1, round(min(cap, th) * 2 ** 20)), 2 ** 20)
            if c not in score:
                lm = logs[sign][i] if th <= cap else _float_tail_log(k, T, hf, sign * float(c))
                score[c] = lm - sign * float(c) * hf * edge
                cands.append(c)
        score = np.array([score[c] for c in cands])
    score = np.where(np.isfinite(score), score, np.inf)
    scored = [cands[i] for i in np.argsort(score, kind="stable")]
    best = None
    for th in scored[:3]:
        if best is not None:
            break
        try:
            with flint.ctx.workprec(WORK_PREC):
                tot = arb(0)
                for (kk, xx), TT, r in zip(k, T, refs):
                    n = int(kk.max() - kk.min()) + 1
                    if above:                                    # e^{theta h (k - r)} in [1, e^600]
                        w, rel = geometric(th, h, 0, n)
                        sm = float(np.sum(xx * w[kk - r]))
                        ub = arb(sm) * (1 + arb(rel)) * (1 + arb(gamma(len(xx) + 2))) + TINY * (len(xx) + 1)
                    else:                                        # e^{-theta h (k - r)} <= 1
                        dense = np.zeros(n)
                        dense[kk - r] = xx
                        sm, rad = _decaying_sum(dense, th, h, 0)
                        ub = arb(sm) + rad
                    tot += ub.log() * TT
                b = (tot + sign * _ball(th * h * (reach - edge))).exp()
        except ArithmeticError:
            continue
        if best is None or b.upper() < best.upper():
            best = b
    return best if best is not None else arb(1) * sum(arb(float(np.sum(xx))) ** TT for _, xx, TT in steps)


def circular(k: np.ndarray, x: np.ndarray, N: int, direction: int) -> np.ndarray:
    """The masses x at grid indices k placed at k mod N.  Where two nodes share a residue the
    float sum is moved one ulp in the safe ``direction`` (+1 up, -1 down): fl(a + b) is within
    one ulp of a + b, so the stored value bounds the exact sum (the wrapped measure)."""
    a = np.zeros(N)
    r = np.mod(k, N)
    np.add.at(a, r, x)
    counts = np.bincount(r, minlength=N)
    clash = counts > 1
    if np.any(clash):
        a[clash] = np.nextafter(a[clash], math.inf if direction > 0 else -math.inf)
        if direction < 0:
            a[clash] = np.maximum(a[clash], 0.0)
    return a


def _float_edge(steps, hf: float, tol: float, above: bool, sd: float, lam: float = 0.0,
                mean: float = 0.0, logs: dict | None = None) -> float:
    """Float Chernoff edge y (loss units) beyond which the composed mass times e^{-lam (y - mean)}
    (the weight of a cell above the mean, relative to one at the mean) is below ``tol``."""
    th = np.array(THETAS)
    logs = logs or tail_logs(steps, hf)
    with np.errstate(over="ignore", invalid="ignore"):
        lm = logs[1 if above else -1]
        edges = (lm + lam * mean + math.log(1 / tol)) / (th + lam) if above else (lm + math.log(1 / tol)) / th
    edges = edges[np.isfinite(edges)]
    best = float(np.min(edges)) if len(edges) else math.inf
    return best if above else -best


def compose_arrays(steps, rate: Fraction, h_exp: int, cells: int | None = None,
                   mutate: str | None = None, direction: int = 1) -> ComposedArray:
    r"""Compose ``steps`` = [(grid indices k, tilted float masses x, T)] by one FFT.

    Computed: :math:`\hat w = \mathrm{Re}\,\mathrm{fl}(F^{-1}\prod_i \mathrm{fl}(F x_i)^{T_i})/N`
    (one transform per phase, one inverse).  Bound (docs §3F): with
    :math:`s_i \ge \|x_i\|_1 \ge |X_{ij}|`, :math:`E_i = g_N\sqrt N\|x_i\|_2 \ge \|\hat X_i - X_i\|_2`,
    :math:`S_i = (s_i + E_i)^{T_i}`, :math:`\rho_c = (1+\sqrt2\gamma_2)^{M} - 1` (M = ΣT_i + #phases),

    .. math::
        \|\hat w - w_{\rm circ}\|_2 \le g_N\textstyle\prod S(1+\rho_c) + \rho_c\prod S
        + \sum_i T_i g_N \|x_i\|_2 (s_i+E_i)^{T_i-1}\prod_{l\ne i} S_l + (M+2)\sqrt N\,2^{-1074}.

    The window starts where the float Chernoff bound on the mass below falls under 2^-45 and
    is long enough for the mass above (2^-40) after the cells that decide δ (a choice; the
    masses outside are bounded rigorously)."""
    h = Fraction(1, 1 << h_exp)
    hf = float(h)
    mean = var = 0.0
    for k, x, T in steps:
        s = float(np.sum(x))
        mu = float(np.sum(x * k)) / s
        mean += T * mu
        var += T * float(np.sum(x * (k - mu) ** 2)) / s
    sd = math.sqrt(var) * hf + hf
    mean *= hf
    # below c: mass < 2^-45 (it wraps onto the counted cells); above c + N: mass x weight < 2^-40
    # (cells above the tilted mean weigh less), and mass < 2^-40 beyond N above the mean (it
    # wraps onto the cells that decide delta)
    logs = tail_logs(steps, hf)
    left = _float_edge(steps, hf, 2.0 ** -45, False, sd, logs=logs)
    right = _float_edge(steps, hf, 2.0 ** -40, True, sd, logs=logs)
    right_w = _float_edge(steps, hf, 2.0 ** -40, True, sd, float(rate), mean, logs=logs)
    if not all(math.isfinite(v) for v in (left, right, right_w)):
        left, right, right_w = mean - 10 * sd, mean + 10 * sd, mean + 10 * sd
    left = min(left, mean - 4 * sd)
    need = max(right_w - left, right - mean, mean + 4 * sd - left) / hf + 64
    N = cells or max(1024, 1 << math.ceil(math.log2(need)))
    if N > MAX_CELLS:   # before any array of that length is made
        raise InvalidParameterError(
            f"the composition needs an FFT of 2^{N.bit_length() - 1} cells, more than the limit of "
            f"2^{MAX_CELLS.bit_length() - 1} (the limit on memory: about 1 GB at the limit); use "
            f"fewer steps, a smaller sampling rate, a larger sigma or a lower precision")
    c = math.floor(left / hf)
    g = fft_error_factor(N)
    M = sum(T for _, _, T in steps) + len(steps)
    Y = None
    with flint.ctx.workprec(WORK_PREC):
        sS = []
        for k, x, T in steps:
            a = circular(k, x, N, direction)
            P = power(fft(a), T)
            Y = P if Y is None else Y * P
            s1, s2 = _norms(a)
            sS.append((s1, arb(g) * arb(N).sqrt() * s2, T, s2))
        S = [(s1 + E) ** T for s1, E, T, _ in sS]
        prodS = arb(1)
        for v in S:
            prodS *= v
        rho = (1 + arb(math.sqrt(2)) * arb(gamma(2)) * (1 + arb(U))) ** M - 1
        D = arb(0)
        for i, (s1, E, T, s2) in enumerate(sS):
            other = arb(1)
            for l, v in enumerate(S):
                if l != i:
                    other *= v
            D += T * arb(g) * s2 * (s1 + E) ** (T - 1) * other
        err2 = arb(g) * prodS * (1 + rho) + rho * prodS + D + (M + 2) * arb(N).sqrt() * TINY
        tau_lo = tail_bound(steps, h_exp, c, False, sd, logs)
        tau_hi = tail_bound(steps, h_exp, c + N, True, sd, logs)
    w = fft(Y, inverse=True).real / N
    w = np.roll(w, -(c % N))
    if mutate == "no-fft-bound":
        err2 = arb(0)
    if mutate == "no-wrap-bound":
        tau_lo = tau_hi = arb(0)
    return ComposedArray(w, c, rate, err2, tau_lo, tau_hi, h_exp, list(steps), logs)


def _decaying_sum(xs: np.ndarray, rate: Fraction, h: Fraction, start: int, factor=None):
    r"""(float s, Arb rad) with :math:`|\sum_j x_j e^{-\rho h (start + j)} f_j - s| \le` rad for the
    exact weights (f_j = 1 - b e^{-hj} when ``factor`` = b, else 1; start >= 0, so every weight
    is <= 1): the float sum's error is at most :math:`1.05(r + r_f + 8u + \gamma_{n+2})\sum_j |x_j| \hat w_j (1 + r)(1+\gamma_{n+1})`
    (Higham 2002, Eq. 4.4; r, r_f the relative errors of the weights and of the factor).  Cells whose weight is below 2^-1000 are left out of s and bounded by
    2^-1000 sum|x| (the geometric weights must stay in the normal range)."""
    n = len(xs)
    cap = n
    if rate > 0:
        cap = min(n, max(0, int(990 * math.log(2) / (float(rate) * float(h))) - start))
    s = 0.0
    rad = arb(0)
    if cap > 0:
        w, rel = geometric(-rate, h, start, cap)
        head = xs[:cap]
        if factor is not None:
            b, ub = factor
            v, rv = geometric(Fraction(-1), h, 0, cap)
            s = float(np.sum(head * w * (1.0 - b * v)))
            extra = arb(rv) + ub
        else:
            s = float(np.sum(head * w))
            extra = arb(0)
        # every term's error is relative to |x_j| w_j (weights of the factor form are <= w_j)
        kappa = arb(1.05) * (arb(rel) + extra + 8 * arb(U) + arb(gamma(cap + 2)))
        rad = kappa * arb(float(np.sum(np.abs(head) * w))) * (1 + arb(rel)) * (1 + arb(gamma(cap + 1))) \
            + TINY * (cap + 1)
    if cap < n:
        rad += arb(2.0 ** -990) * arb(float(np.sum(np.abs(xs[cap:])))) * (1 + arb(gamma(n + 1)))
    return s, rad


def _window_sum(ca: ComposedArray, k0: int, rate: Fraction, start: int | None = None,
                stop: int | None = None):
    r"""Arb ball around :math:`\sum_{\max(k_0, start) \le K < stop,\ K \in \mathrm{window}} w_K e^{-\rho h (K - k_0)}`
    of the *exact* circular array, from the computed one: the float sum and its rounding bound
    (:func:`_decaying_sum`, weights <= 1), and the FFT error :math:`\|a\|_2\,\mathrm{err2}`,
    :math:`\|a\|_2^2 \le 1/(1 - e^{-2\rho h})`."""
    h = Fraction(1, 1 << ca.h_exp)
    first = max(k0, ca.c, start if start is not None else k0)
    last = min(ca.c + ca.N, stop if stop is not None else ca.c + ca.N)
    xs = ca.w[first - ca.c:max(first, last) - ca.c]
    with flint.ctx.workprec(WORK_PREC):
        if len(xs) == 0:
            return arb(0), arb(0)
        s, rad = _decaying_sum(xs, rate, h, first - k0)
        a2 = (1 / (1 - (-2 * _ball(rate * h)).exp())).sqrt()
        rad += a2 * ca.err2
        return arb(s), rad


def _mgf_gap(bases, T):
    r"""Ball around :math:`\prod_i (f_i + t_i)^{T_i} - \prod_i f_i^{T_i}` (the mass of the outcomes with
    at least one component in the +oo atom / top cell), by telescoping, each factor
    :math:`(f+t)^T - f^T = f^T\,\mathrm{expm1}(T\,\mathrm{log1p}(t/f))` (no cancellation)."""
    a = [(f + t) ** T for (f, t), T in zip(bases, T)]
    b = [f ** T for (f, _), T in zip(bases, T)]
    total = arb(0)
    for i, ((f, t), TT) in enumerate(zip(bases, T)):
        diff = b[i] * (TT * (t / f).log1p()).expm1() if f > 0 else a[i]
        other = arb(1)
        for l in range(len(a)):
            if l < i:
                other *= b[l]
            elif l > i:
                other *= a[l]
        total += diff * other
    return total


@dataclass
class UpperFFT:
    r"""The composed dominating pair of one direction: P-masses
    :math:`\mathrm{scale}\cdot e^{-\lambda y_K} w_K` on the window, plus the +oo atom.

    :math:`\delta_{\rm hi}(\varepsilon) = \sum_{y_K > \varepsilon} m_K (1 - e^{\varepsilon - y_K}) + m_\infty`
    bounded above (docs §3F): the window sum with weights :math:`\alpha a_j (1 - \beta v_j) \le 1`
    (:math:`a_j = e^{-\lambda h j}`, :math:`v_j = e^{-hj}`, :math:`\alpha = e^{-\lambda(y_1 - \varepsilon)}`,
    :math:`\beta = e^{\varepsilon - y_1}`), its rounding and FFT error, the mass outside the
    window times its largest weight :math:`\le \mathrm{scale}\,e^{-\lambda\varepsilon}`, and the
    +oo atom of the product."""

    arr: ComposedArray
    scale: arb
    fin_inf: list          # [(fin ball, inf ball)] per phase
    steps: list            # T per phase
    mutate: str | None = None

    def delta(self, eps) -> arb:
        ca = self.arr
        h = Fraction(1, 1 << ca.h_exp)
        E = Fraction(eps)
        k1 = math.floor(E / h) + 1
        j1 = max(0, k1 - ca.c)
        xs = ca.w[j1:]
        with flint.ctx.workprec(WORK_PREC):
            lam = _ball(ca.rate)
            W = self.scale * (-lam * _ball(E)).exp()
            total = arb(0)
            if len(xs):
                y1 = Fraction(ca.c + j1) * h
                alpha = (-lam * _ball(y1 - E)).exp()
                beta = _ball(E - y1).exp()
                bf = float(beta.mid())
                ub = abs(arb(bf) - beta) / beta + U
                sm, rad = _decaying_sum(xs, ca.rate, h, 0, (bf, ub))
                a2 = (1 / (1 - (-2 * lam * _ball(h)).exp())).sqrt()
                err = 0 if self.mutate == "no-fft-bound" else a2 * ca.err2
                total = alpha * (arb(sm) + rad + err)
            # mass above the window: weight <= scale e^{-lam y_top}; below it: 0 unless y_c > eps
            top = self.scale * (-lam * _ball(Fraction(ca.c + ca.N) * h)).exp() * ca.tau_hi
            below = ca.tau_lo if Fraction(ca.c) * h > E else arb(0)
            inf = _mgf_gap(self.fin_inf, self.steps)
            if self.mutate == "no-tail-mass":          # the mass above the window and at +oo dropped
                return W * (total + below)
            return W * (total + below) + top + inf

    def estimator(self):
        """A float function eps -> delta_hi(eps) (no rigour: candidates for the bisection)."""
        ca = self.arr
        hf = 2.0 ** -ca.h_exp
        y = (ca.c + np.arange(len(ca.w))) * hf
        lam = float(ca.rate)
        yc = float(y[int(np.argmax(ca.w))])
        w = ca.w
        with np.errstate(over="ignore", under="ignore"):
            A = w * np.exp(np.clip(-lam * (y - yc), -700, 700))
            B = w * np.exp(np.clip(-(lam + 1) * (y - yc), -700, 700))
        SA, SB = np.cumsum(A[::-1])[::-1], np.cumsum(B[::-1])[::-1]
        logscale = float(self.scale.mid().log()) - lam * yc
        inf = float(_mgf_gap(self.fin_inf, self.steps).mid())

        def f(eps):
            k = int(np.searchsorted(y, eps, side="right"))
            if k >= len(y):
                return inf
            v = SA[k] - math.exp(min(eps - yc, 700)) * SB[k]
            return math.exp(logscale) * max(v, 0.0) + inf if logscale < 700 else math.inf
        return f


@dataclass
class LowerFFT:
    r"""The composed dominated (binned) pair of one direction: P-masses
    :math:`\mathrm{scale}_P e^{-\lambda y_K} w^P_K`, Q-masses :math:`\mathrm{scale}_Q e^{-(\lambda+1) y_K} w^Q_K`,
    cells outside the window sent to ⊥ (a post-processing), and the absorbing top cell.

    For any cut :math:`k_0`: :math:`\delta(\varepsilon) \ge \sum_{K \ge k_0} (P_K - e^\varepsilon Q_K) + (P_\top - e^\varepsilon Q_\top)_+`;
    the P-sum is bounded below (rounding, FFT error, and the wrapped-around mass, which the
    circular array adds to the window), the Q-sum above (wrap-around only adds to it)."""

    arr_p: ComposedArray
    arr_q: ComposedArray
    scale_p: arb
    scale_q: arb
    fin_top_p: list
    fin_top_q: list
    steps: list
    mutate: str | None = None

    def delta(self, eps, cut: int | None = None) -> arb:
        E = Fraction(eps)
        if cut is None:
            cut = self.best_cut(float(E))
        h = Fraction(1, 1 << self.arr_p.h_exp)
        with flint.ctx.workprec(WORK_PREC):
            # the counted set S must be one set for P and Q: P is summed over cells inside both
            # windows, Q over all of its window from the cut (a superset: extra Q terms only
            # lower the bound), cells outside go to the discarded symbol
            ap, aq = self.arr_p, self.arr_q
            sp_, rp = _window_sum(ap, cut, ap.rate, aq.c, aq.c + aq.N)
            sq, rq = _window_sum(aq, cut, aq.rate)
            y0 = _ball(Fraction(cut) * h)
            # wrapped-around P-mass landing on the counted cells [cut, c + N): from below c, or from
            # indices >= cut + N (mass in [c + N, cut + N) lands below the cut)
            ap = self.arr_p
            if self.mutate == "no-wrap-bound":
                tau = arb(0)
            else:
                edge = max(cut, ap.c) + ap.N
                memo = self.__dict__.setdefault("_tails", {})
                if edge not in memo:
                    memo[edge] = tail_bound(ap.steps, ap.h_exp, edge, True, self._sd(), ap.logs)
                tau = ap.tau_lo + memo[edge]
            lo_p = self.scale_p * (-_ball(self.arr_p.rate) * y0).exp() * (sp_ - rp - tau)
            qrate = self.arr_p.rate if self.mutate == "untilt-q-as-p" else self.arr_q.rate
            hi_q = self.scale_q * (-_ball(qrate) * y0).exp() * (sq + rq)
            e = _ball(E).exp()
            cells = lo_p - e * hi_q
            top = _mgf_gap(self.fin_top_p, self.steps).lower() - e * _mgf_gap(self.fin_top_q, self.steps).upper()
            if not top > 0:
                top = arb(0)
            # S may also be empty (every finite cell sent to ⊥): the cells' part is then 0
            cells = cells.lower() if cells.lower() > 0 else arb(0)
            return arb(cells) + top

    def _sd(self) -> float:
        hf = 2.0 ** -self.arr_p.h_exp
        var = 0.0
        for k, x, T in self.arr_p.steps:
            s = float(np.sum(x))
            mu = float(np.sum(x * k)) / s
            var += T * float(np.sum(x * (k - mu) ** 2)) / s
        return math.sqrt(var) * hf + hf

    def best_cut(self, eps: float) -> int:
        """The cut maximising the float estimate of the P - e^eps Q suffix (a choice only); of
        the cuts within a relative 1e-9 of the best, the highest: across empty cells the suffix
        is flat, and a cut just below the mass weighs it by e^{-lam (y - y_cut)} ~ 1 rather
        than by the tiny weight of a cut far below it (randomized response eps0 = 20 at
        eps = 10: a cut at 9 left the certified sum under its error bound; issue #31, D2)."""
        d, K, _ = self._suffix(eps)
        best = float(np.max(d))
        if best > 0:
            near = np.nonzero(d >= best * (1 - 1e-9))[0]
            return int(K[int(near[-1])])
        return int(K[int(np.argmax(d))])

    def _prepare(self):
        """Float suffix sums of P and of Q (untilted, in units of e^unit); estimates only."""
        if getattr(self, "_prep", None) is not None:
            return self._prep
        ap, aq = self.arr_p, self.arr_q
        hf = 2.0 ** -ap.h_exp
        lo, hi = max(ap.c, aq.c), min(ap.c + len(ap.w), aq.c + len(aq.w))
        if hi <= lo:
            self._prep = None, None, np.array([hi]), 0.0, 0.0
            return self._prep
        K = np.arange(lo, hi)
        y = K * hf
        lam = float(ap.rate)
        P = ap.w[lo - ap.c:hi - ap.c]
        Q = aq.w[lo - aq.c:hi - aq.c]
        yc = float(y[int(np.argmax(P))])
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            Pe = P * np.exp(np.clip(-lam * (y - yc), -700, 700))
            Qe = Q * np.exp(np.clip(-(lam + 1) * (y - yc) - yc, -700, 700))
        ratio = math.exp(float((self.scale_q / self.scale_p).mid().log()))
        SP, SQ = np.cumsum(Pe[::-1])[::-1], ratio * np.cumsum(Qe[::-1])[::-1]
        self._prep = SP, SQ, K, float(self.scale_p.mid().log()) - lam * yc, hf
        return self._prep

    def _suffix(self, eps):
        SP, SQ, K, unit, hf = self._prepare()
        if SP is None:
            return np.array([0.0]), K, unit
        # cuts from just below eps up: far below it the tilted array's rounding noise is
        # magnified; a cut above eps only drops cells with P - e^eps Q > 0 or empty ones
        steps = sum(self.steps)
        a = int(np.searchsorted(K, math.floor((eps - 1 - steps * hf) / hf)))
        if a >= len(K):
            return np.array([0.0]), K[-1:], unit
        with np.errstate(over="ignore", invalid="ignore"):
            d = SP[a:] - math.exp(min(eps, 700)) * SQ[a:]
        return np.nan_to_num(d, nan=-np.inf), K[a:], unit

    def estimator(self):
        """A float function eps -> delta_lo(eps) (no rigour)."""
        tp = float(_mgf_gap(self.fin_top_p, self.steps).mid())
        tq = float(_mgf_gap(self.fin_top_q, self.steps).mid())

        def f(eps):
            d, K, unit = self._suffix(eps)
            best = float(np.max(d))
            val = best * math.exp(min(unit, 700)) if best > 0 else 0.0
            return val + max(0.0, tp - math.exp(eps) * tq)
        return f


# ----------------------------------------------------------------- a direction, end to end

def loss_scale(scans) -> float:
    """The widest one-step loss span of the coarse scans, capped at 1 (a float, for the tilt
    grid only): a step whose losses all lie within 1e-4 of each other needs tilts ~1e4 times
    larger than one of unit span for the same relative accuracy."""
    spans = []
    for sc in scans:
        L = sc[3]
        m = np.maximum(-np.diff(np.append(sc[1], 0.0)), 0.0)
        live = L[m > 0]
        if len(live):
            spans.append(float(np.max(live) - np.min(live)))
    span = max(spans, default=1.0)
    return min(1.0, span) if span > 0 else 1.0


def tilt_grid(scans) -> list:
    r"""The tilts tried: :math:`2^{j/4}/64`, j <= 48, extended by :func:`loss_scale` (j up to
    48 + 4 log2(1/scale)) so that a step with tiny losses (Poisson sampling at q = 1e-4 of
    f_(0.5, 0): losses of 1e-4, composed 10^4 times, decided at eps = 0.03 by a tilt of ~10^3)
    gets its tilt; issue #31, D5."""
    extra = 4 * max(0, math.ceil(math.log2(1 / loss_scale(scans))))
    return [2.0 ** (j / 4) / 64 for j in range(0, 49 + extra)]


def deciding_tilt(scans, steps, h: float, target) -> float:
    r"""The tilt that decides the target (float, a choice only): for ``("eps", E)`` the saddle
    point, argmin :math:`\sum T_i K_i(\lambda) - \lambda E` (the tilted composition then has
    mean E); for ``("delta", D)`` the Chernoff-optimal argmin
    :math:`(\sum T_i K_i(\lambda) + \log 1/D)/\lambda`, at most 8/scale (:func:`loss_scale`); on
    the grid of :func:`tilt_grid` (K from :func:`log_mgf`)."""
    kind, value = target
    grid = tilt_grid(scans)
    cap = 8 / loss_scale(scans)
    best, arg = math.inf, grid[0]
    for lam in grid:
        if kind == "delta" and lam > cap:
            break
        try:
            K = sum(T * log_mgf(sc, h, lam) for sc, T in zip(scans, steps))
        except (OverflowError, ValueError):
            continue
        score = (K + math.log(1 / value)) / lam if kind == "delta" else K - lam * value
        if score < best:
            best, arg = score, lam
    return arg


#: the default fraction of the deciding tilt used to tilt the arrays
TILT_FRACTION = Fraction(1, 3)


def choose_tilt(scans, steps, h: float, target, fraction: Fraction = TILT_FRACTION) -> Fraction:
    """λ = ``fraction`` of :func:`deciding_tilt`, a multiple of 1/64 (at least 1/64).  Any λ > 0
    gives a valid bracket; a third keeps the tilted composition narrow (a short FFT) and its
    mass near the deciding cells; :func:`symdp.accountant.certify.certified_delta` tries
    larger fractions on a coarse grid and keeps the narrowest."""
    arg = deciding_tilt(scans, steps, h, target)
    return Fraction(max(1, round(arg * fraction * 64)), 64)


@dataclass
class ComposedFFT:
    upper: UpperFFT
    lower: LowerFFT
    name: str
    lam: Fraction = field(default=Fraction(0))


def compose_direction(pairs, steps, grid: FFTGrid, target=("delta", 1e-6), progress=None,
                      tilt_scale: float = 1.0) -> ComposedFFT:
    """Compose the phases (one pair and T per phase) of one direction by the certified FFT.
    The nodes are dense where ``tilt_scale`` x the deciding tilt puts the one-step mass, the
    arrays are tilted by a third of that (:func:`choose_tilt`; any tilt is valid)."""
    h = float(grid.h)
    if grid.mutate == "steps-minus-one":       # one composition too few (an off-by-one)
        steps = [T - 1 for T in steps]
    scans = [_scan(p, grid) for p in pairs]
    decide = deciding_tilt(scans, steps, h, target) * tilt_scale
    lam = Fraction(max(1, round(decide * TILT_FRACTION * 64)), 64)
    ts = []
    for i, (p, sc) in enumerate(zip(pairs, scans)):
        if progress:
            progress(f"{p.name.split(',')[0]}, phase {i + 1}/{len(pairs)}, h=2^-{grid.h_exp}: one step")
        # nodes dense where the deciding tilt puts the mass: those cells decide delta
        # and where the arrays' own tilt puts it: the bulk of each of the T steps (q = 1e-4:
        # the nodes of the deciding tilt alone left it 0.25 apart, and the chords through them
        # moved a bracket on eps from 5.77 to 5.85; issue #31, D5)
        ks = np.union1d(nodes(sc, grid, decide), nodes(sc, grid, float(lam)))
        ks = np.union1d(ks, atom_nodes(p, grid, sc[0][0], sc[0][-1]))
        ts.append(tilted_step(p, grid, lam, np.union1d(ks, window_nodes(p, grid))))
    if progress:
        progress(f"{pairs[0].name.split(',')[0]}, h=2^-{grid.h_exp}: FFT")
    m = grid.mutate
    cu = compose_arrays([(t.k, t.x, T) for t, T in zip(ts, steps)], lam, grid.h_exp, grid.cells, m, 1)
    cp = compose_arrays([(t.kb, t.P, T) for t, T in zip(ts, steps)], lam, grid.h_exp, grid.cells, m, -1)
    cq = compose_arrays([(t.kb, t.Q, T) for t, T in zip(ts, steps)], lam + 1, grid.h_exp, grid.cells, m, 1)
    with flint.ctx.workprec(WORK_PREC):
        su, sp_, sq = arb(1), arb(1), arb(1)
        for t, T in zip(ts, steps):
            su *= arb(t.C) ** T
            sp_ *= arb(t.CP) ** T
            sq *= arb(t.CQ) ** T
    up = UpperFFT(cu, su, [(t.fin, t.inf) for t in ts], list(steps), m)
    lo = LowerFFT(cp, cq, sp_, sq, [(t.fin_p, t.top_p) for t in ts], [(t.fin_q, t.top_q) for t in ts],
                  list(steps), m)
    return ComposedFFT(up, lo, pairs[0].name.split(",")[0], lam)
