r"""Discretised privacy-loss distributions with directed rounding (docs/accountant.md §2-§4).

Two discrete objects bracket the exact T-fold composition:

* :class:`UpperPLD` -- the P-masses of a **dominating** pair whose losses lie on the grid
  :math:`h\mathbb Z` plus an atom at :math:`+\infty`.  One step is the
  *connect-the-dots* pair (Doroshenko-Ghazi-Kamath-Kumar-Manurangsi 2022, Sec. 3):
  its profile is the chord interpolation of the exact profile
  :math:`H(\alpha) = A(y) - \alpha B(y)`, :math:`\alpha = e^y`, through the points
  :math:`(0, 1)` and :math:`(e^{y_i}, H(e^{y_i}))`, constant :math:`H(e^{y_n})` after the last
  node.  A chord of a convex function lies above it, so this pair dominates; its
  P-mass at :math:`y_i` is :math:`e^{y_i}(s_i - s_{i-1})` (the kink of the interpolant,
  :math:`s_i` its slopes) and at :math:`+\infty` it is :math:`H(e^{y_n})`.  The masses are
  computed as Arb balls from balls containing the exact :math:`H(e^{y_i})`, so the
  ball contains the exact connect-the-dots mass, and the **upper end** is kept (rounded
  up to a multiple of :math:`2^{-B}`).
  The functional :math:`\delta(\varepsilon) = \sum_k m_k (1 - e^{\varepsilon - y_k})_+ + m_\infty`
  is non-decreasing in every mass and under moving mass to a higher loss, and so is
  the convolution; hence every later rounding goes **up**: masses ceil'd, negligible
  low-loss mass moved up to the lowest kept cell, negligible high-loss mass moved to
  :math:`+\infty`.

* :class:`LowerPLD` -- a **dominated** pair obtained by post-processing: the loss is
  binned into :math:`[y_i, y_{i+1})` and both the P- and Q-mass of each bin are kept
  (the pair (P, Q) seen through the bin index: a post-processing, hence dominated:
  the data-processing inequality for the hockey-stick divergence / post-processing of f-DP).  Composition adds bin indices --
  again a post-processing of the product outcome -- so the P- and Q-arrays are
  convolved separately and the result is the exact pair of the composed bin-sum.
  :math:`\delta_{\rm lo}(\varepsilon) = \sum_k (P_k - e^\varepsilon Q_k)_+` is non-decreasing
  in P and non-increasing in Q, hence: P-masses rounded **down**, Q-masses **up**,
  negligible cells sent to a discarded symbol :math:`\bot` (a post-processing whose
  contribution :math:`(P_\bot - e^\varepsilon Q_\bot)_+ \ge 0` is then left out).

Masses are integers in units of :math:`2^{-B}`; products are exact (FLINT
``fmpz_poly`` multiplication), followed by a directed shift by B bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np
from flint import arb, arb_poly, fmpq, fmpz_poly

from .pairs import Pair


# ----------------------------------------------------------------- directed conversions

def _ceil_scaled(x: arb, bits: int) -> int:
    """The least integer >= every point of the ball ``x * 2**bits`` (at least 0)."""
    m, e = (x * (1 << bits)).upper().man_exp()
    m, e = int(m), int(e)
    value = m << e if e >= 0 else -((-m) >> -e)
    return max(0, value)


def _floor_scaled(x: arb, bits: int) -> int:
    """The greatest integer <= every point of ``x * 2**bits``, clipped at 0 (masses are >= 0)."""
    m, e = (x * (1 << bits)).lower().man_exp()
    m, e = int(m), int(e)
    value = m << e if e >= 0 else m >> -e
    return max(0, value)


def _shift_up(poly: fmpz_poly, bits: int) -> fmpz_poly:
    r"""Coefficientwise :math:`\lceil c / 2^{bits} \rceil` of a polynomial with coefficients c >= 0.

    Not ``-((-poly) // 2**bits)``: FLINT's ``fmpz_poly // n`` is polynomial division, whose
    quotient coefficient is 0 when :math:`|c| < n` (floor only for :math:`|c| \ge n`), so that
    form rounded every mass below one unit :math:`2^{-B}` **down** to 0.  With
    :math:`c + 2^{bits} - 1 \ge 0` the division is a floor in both regimes, and
    :math:`\lfloor (c + 2^{bits} - 1)/2^{bits} \rfloor = \lceil c/2^{bits} \rceil`."""
    n = poly.length()
    if n == 0:
        return poly
    return (poly + fmpz_poly([(1 << bits) - 1] * n)) // (1 << bits)


def _shift_down(poly: fmpz_poly, bits: int) -> fmpz_poly:
    """Coefficientwise floor for coefficients c >= 0 (FLINT's quotient is 0 for c < 2^bits,
    the floor otherwise: both are the floor when c >= 0)."""
    return poly // (1 << bits)


def exact_ball(value) -> arb:
    """A ball containing the exact rational value of ``value`` (a float is taken exactly)."""
    if isinstance(value, arb):
        return value
    if isinstance(value, float):
        f = Fraction(value)
    else:
        f = Fraction(value)
    return arb(fmpq(f.numerator, f.denominator))


@dataclass(frozen=True)
class Grid:
    """Loss grid :math:`h = 2^{-e}`, mass unit :math:`2^{-B}`, truncation :math:`2^{-t}`,
    Arb working precision in bits.  ``mutate`` flips one rounding direction (tests only)."""

    h_exp: int = 10
    bits: int = 96
    tail_bits: int = 72
    prec: int = 256
    mutate: str | None = None

    @property
    def h(self) -> Fraction:
        return Fraction(1, 1 << self.h_exp)

    def loss(self, index: int) -> arb:
        """The exact loss ``index * h`` as a ball of radius 0."""
        return arb(fmpq(index, 1 << self.h_exp))


# ----------------------------------------------------------------- discrete distributions

@dataclass
class UpperPLD:
    """P-masses ``masses[k] * 2**-B`` at loss ``(offset + k) h``, and ``inf * 2**-B`` at +oo."""

    masses: fmpz_poly
    offset: int
    inf: int
    grid: Grid

    def total(self) -> int:
        return int(self.masses(1)) + self.inf

    def __mul__(self, other: "UpperPLD") -> "UpperPLD":
        B = self.grid.bits
        prod = self.masses * other.masses
        fin_a, fin_b = self.total() - self.inf, other.total() - other.inf
        # inf + anything = inf: mass at +oo of the product (units 2^-2B), exact
        inf = self.inf * (fin_b + other.inf) + fin_a * other.inf
        up = self.grid.mutate != "upper-rescale-down"
        masses = _shift_up(prod, B) if up else _shift_down(prod, B)
        inf = -((-inf) >> B) if up else inf >> B
        return UpperPLD(masses, self.offset + other.offset, inf, self.grid)._truncated()

    def _truncated(self) -> "UpperPLD":
        """Move the low tail (total < 2^-t) up to the lowest kept cell and the high tail
        to +oo: both move mass to a higher loss (safe for an upper bound)."""
        limit = 1 << (self.grid.bits - self.grid.tail_bits)
        c, n = self.masses, self.masses.length()
        lo, acc = 0, 0
        while lo < n - 1 and acc + int(c[lo]) < limit:
            acc += int(c[lo])
            lo += 1
        low_mass = acc
        hi, acc = n - 1, 0
        while hi > lo and acc + int(c[hi]) < limit:
            acc += int(c[hi])
            hi -= 1
        if lo == 0 and hi == n - 1:
            return self
        kept = c.right_shift(lo).truncate(hi - lo + 1) + low_mass
        return UpperPLD(kept, self.offset + lo, self.inf + acc, self.grid)

    def power(self, T: int, progress=None) -> "UpperPLD":
        return _power(self, T, progress)

    # -------- delta(eps): sum_k m_k (1 - e^{eps - y_k})_+ + m_inf
    def delta(self, eps) -> arb:
        """A ball whose upper end bounds :math:`\\delta(\\varepsilon)` of this discrete pair."""
        g = self.grid
        with flint.ctx.workprec(g.prec):
            e = exact_ball(eps)
            c = [int(x) for x in self.masses.coeffs()]
            # first index with (offset + k) h > eps
            k1 = max(0, math.floor(Fraction(eps) / g.h) - self.offset + 1)
            tail = c[k1:]
            s0 = sum(tail)
            r = (-exact_ball(g.h)).exp()
            s1 = arb_poly(tail)(r) if tail else arb(0)
            y1 = g.loss(self.offset + k1)
            value = (arb(s0) - (e - y1).exp() * s1 + self.inf) / (1 << g.bits)
            return value

    def float_masses(self):
        c = np.array([float(int(x)) for x in self.masses.coeffs()]) * 2.0 ** -self.grid.bits
        y = (self.offset + np.arange(len(c))) * float(self.grid.h)
        return y, c, float(self.inf) * 2.0 ** -self.grid.bits


@dataclass
class LowerPLD:
    """P- and Q-masses (units 2^-B) of the cells of a dominated pair; cell k has index
    ``offset + k`` (its loss lies between (offset+k) h and (offset+k+n) h after n steps),
    plus an absorbing top cell (the last loss bin, e.g. a +oo atom): an outcome with a
    top component is mapped to the top cell -- a post-processing like the index sum."""

    p: fmpz_poly
    q: fmpz_poly
    offset: int
    grid: Grid
    top_p: int = 0
    top_q: int = 0

    def _totals(self):
        return int(self.p(1)), int(self.q(1))

    def __mul__(self, other: "LowerPLD") -> "LowerPLD":
        B = self.grid.bits
        pp = self.p * other.p
        qq = self.q * other.q
        (fa_p, fa_q), (fb_p, fb_q) = self._totals(), other._totals()
        # (top, x) and (x, top) -> top, exact in units of 2^-2B
        tp = self.top_p * (fb_p + other.top_p) + fa_p * other.top_p
        tq = self.top_q * (fb_q + other.top_q) + fa_q * other.top_q
        m = self.grid.mutate
        if m == "lower-p-up":
            p, tp = _shift_up(pp, B), -((-tp) >> B)
        else:
            p, tp = _shift_down(pp, B), tp >> B
        if m == "lower-q-down":
            q, tq = _shift_down(qq, B), tq >> B
        else:
            q, tq = _shift_up(qq, B), -((-tq) >> B)
        return LowerPLD(p, q, self.offset + other.offset, self.grid, tp, tq)._truncated()

    def _truncated(self) -> "LowerPLD":
        """Send the cells of the two P-tails (each total < 2^-t) to the discarded symbol."""
        limit = 1 << (self.grid.bits - self.grid.tail_bits)
        cp = self.p
        n = max(self.p.length(), self.q.length())
        lo, acc = 0, 0
        while lo < n - 1 and acc + int(cp[lo]) < limit:
            acc += int(cp[lo])
            lo += 1
        hi, acc = n - 1, 0
        while hi > lo and acc + int(cp[hi]) < limit:
            acc += int(cp[hi])
            hi -= 1
        if lo == 0 and hi == n - 1:
            return self
        keep = hi - lo + 1
        return LowerPLD(self.p.right_shift(lo).truncate(keep), self.q.right_shift(lo).truncate(keep),
                        self.offset + lo, self.grid, self.top_p, self.top_q)

    def power(self, T: int, progress=None) -> "LowerPLD":
        return _power(self, T, progress)

    def _arrays(self):
        cp = [int(x) for x in self.p.coeffs()]
        cq = [int(x) for x in self.q.coeffs()]
        n = max(len(cp), len(cq), 1)
        return cp + [0] * (n - len(cp)), cq + [0] * (n - len(cq))

    def best_cut(self, eps: float) -> int:
        """The k0 maximising sum_{k>=k0} (P_k - e^eps Q_k) in floating point (a choice only)."""
        cp, cq = self._arrays()
        P = np.array([float(x) for x in cp])
        Q = np.array([float(x) for x in cq])
        d = np.cumsum((P - math.exp(eps) * Q)[::-1])[::-1]
        d = np.append(d, 0.0)          # the empty suffix (cut = n) is allowed too
        return int(np.argmax(d))

    def delta(self, eps, cut: int | None = None) -> arb:
        """A ball whose lower end bounds :math:`\\delta(\\varepsilon)` from below:
        :math:`\\sum_{k \\ge k_0} (P_k - e^\\varepsilon Q_k) + (P_\\top - e^\\varepsilon Q_\\top)_+
        \\le \\sum_k (P_k - e^\\varepsilon Q_k)_+ + (P_\\top - e^\\varepsilon Q_\\top)_+`
        for any cut :math:`k_0`."""
        g = self.grid
        if cut is None:
            cut = self.best_cut(float(eps))
        sp_, sq = int(self.p.right_shift(cut)(1)), int(self.q.right_shift(cut)(1))
        with flint.ctx.workprec(g.prec):
            e = exact_ball(eps).exp()
            cells = (arb(sp_) - e * arb(sq)) / (1 << g.bits)
            top = (arb(self.top_p) - e * arb(self.top_q)) / (1 << g.bits)
            if not top.lower() > 0:
                top = arb(0)          # (.)_+ >= 0: leave the top cell out
            return cells + top.lower()

    def float_masses(self):
        cp, cq = self._arrays()
        s = 2.0 ** -self.grid.bits
        return np.array([float(x) for x in cp]) * s, np.array([float(x) for x in cq]) * s

    def float_top(self):
        s = 2.0 ** -self.grid.bits
        return float(self.top_p) * s, float(self.top_q) * s


def _power(base, T: int, progress=None):
    """base^T by repeated squaring: about 2 log2 T products (each rounded, docs §3)."""
    if T < 1:
        raise ValueError("steps must be >= 1")
    result = None
    bits = bin(T)[2:][::-1]
    for i, bit in enumerate(bits):
        if bit == "1":
            result = base if result is None else result * base
        if i < len(bits) - 1:
            base = base * base
        if progress:
            progress(i + 1, len(bits))
    return result


# ----------------------------------------------------------------- one step

def discretise(pair: Pair, grid: Grid) -> tuple[UpperPLD, LowerPLD]:
    """The connect-the-dots dominating PLD and the binned dominated pair of one step."""
    h = float(grid.h)
    lo, hi = pair.loss_window(2.0 ** -(grid.tail_bits + 8))
    # one spare node below and two above: the last bin [y_{n-1}, oo) then holds no loss of the
    # window (only the tail and a +oo atom), so an atom at the window end keeps its own bin
    i0, i1 = math.floor(lo / h) - 1, math.ceil(hi / h) + 2
    B = grid.bits
    with flint.ctx.workprec(grid.prec):
        A, Bq, alpha = [], [], []
        for i in range(i0, i1 + 1):
            y = grid.loss(i)
            a, b = pair.tails(y)
            A.append(a)
            Bq.append(b)
            alpha.append(y.exp())
        n = len(A) - 1
        H = [A[i] - alpha[i] * Bq[i] for i in range(n + 1)]
        slopes = [(H[0] - 1) / alpha[0]]
        slopes += [(H[i + 1] - H[i]) / (alpha[i + 1] - alpha[i]) for i in range(n)]
        slopes.append(arb(0))
        # slopes[j + 1] is s_j; CTD mass at node j: alpha_j (s_j - s_{j-1})
        kinks = [alpha[j] * (slopes[j + 1] - slopes[j]) for j in range(n + 1)]
        if grid.mutate == "upper-mass-down":
            up = [_floor_scaled(k, B) for k in kinks]
        else:
            up = [_ceil_scaled(k, B) for k in kinks]
        inf = _ceil_scaled(H[n], B)
        # binned pair: bin j = [y_j, y_{j+1}), j = 0..n-1; bin 0 reaches down to -oo and
        # bin n-1 up to +oo (merging bins is a post-processing too)
        Ae = [arb(1)] + A[1:n] + [arb(0)]
        Be = [arb(1)] + Bq[1:n] + [arb(0)]
        pm = [Ae[j] - Ae[j + 1] for j in range(n)]
        qm = [Be[j] - Be[j + 1] for j in range(n)]
        m = grid.mutate
        lp = [_ceil_scaled(x, B) if m == "lower-p-up" else _floor_scaled(x, B) for x in pm]
        lq = [_floor_scaled(x, B) if m == "lower-q-down" else _ceil_scaled(x, B) for x in qm]
    if grid.mutate == "upper-shift-down":   # a loss grid one cell too low (a wrong direction)
        i0 -= 1
    upper = UpperPLD(fmpz_poly(up), i0, inf, grid)._truncated()
    # the last bin [y_{n-1}, oo) is the absorbing top cell
    lower = LowerPLD(fmpz_poly(lp[:-1]), fmpz_poly(lq[:-1]), i0, grid, lp[-1], lq[-1])._truncated()
    return upper, lower
