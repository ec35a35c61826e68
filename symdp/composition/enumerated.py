r"""Products of randomized-response pairs, enumerated exactly: the definition route for proofs.

:math:`f_{\varepsilon,\delta} = T(P, Q)` with, for :math:`E = e^\varepsilon`,
:math:`P = (\delta, (1-\delta)E/(1+E), (1-\delta)/(1+E), 0)` and Q the reverse
(Kairouz, Oh, Viswanath 2015; DRS Prop. 2.5).  Every quantity below is a rational function
of E, δ and :math:`s = e^t`, so it is exact on a grid of rationals.  The integer arguments
encode

.. math::
    E = 1 + a/2,\qquad \delta = b/10,\qquad s = e^t = c/2,\qquad \alpha = x/10,

(a = 0, b = 0 is :math:`f_{0,0} = \mathrm{Id}`).  Each class lists the atoms of the product
measure :math:`P_1\times\cdots\times P_n`, :math:`Q_1\times\cdots\times Q_n` (DRS Def. 3.1)
and computes from the definitions only:

* :class:`ProductProfile` -- :math:`\sum_\omega (Q(\omega) - sP(\omega))_+` (the hockey-stick
  divergence, i.e. :math:`1 + f^*(-s)`, DRS Prop. 2.12);
* :class:`ProductProfileFromLoss` -- the same through the likelihood-ratio (privacy-loss)
  distribution: convolve the factors' ratio distributions under Q (ratios multiply), then
  :math:`\sum_r q_r (1 - s/r)_+`;
* :class:`NestedProductProfile` -- :math:`(f\otimes g)\otimes h` or :math:`f\otimes(g\otimes h)`,
  the inner product first replaced by the *canonical* pair of its trade-off function
  (atoms merged by likelihood ratio), so associativity also exercises that
  :math:`T(P\times P', Q\times Q')` depends on f and g only;
* :class:`ProductTradeOff` -- :math:`(f_1\otimes\cdots)(\alpha)` by Neyman--Pearson;
* :class:`PowerProfile` -- :math:`\delta` of :math:`f_{\varepsilon,\delta}^{\otimes k}` at s,
  and at the lattice point :math:`s = E^{k-2l}` (:class:`PowerProfileAtLattice`).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..core.enumerable import Enumerated
from ..events import eps_delta as eps_delta_mechanism

__all__ = ["rr_pair", "ProductProfile", "ProductProfileFromLoss", "NestedProductProfile",
           "ProductTradeOff", "PowerProfile", "PowerProfileAtLattice"]


def rr_pair(a: int, b: int) -> tuple:
    """(P, Q) of :math:`f_{\\varepsilon,\\delta}` with E = 1 + a/2, δ = b/10, as Fractions."""
    P = eps_delta_mechanism.masses(1 + Fraction(a, 2), Fraction(b, 10))
    return P, P[::-1]


def _product_atoms(pairs) -> list:
    atoms = []
    for combo in itertools.product(*[range(len(P)) for P, _ in pairs]):
        p = q = Fraction(1)
        for (P, Q), i in zip(pairs, combo):
            p, q = p * P[i], q * Q[i]
        atoms.append((p, q))
    return atoms


def _hockey_stick(atoms, s: Fraction) -> Fraction:
    return sum((max(q - s * p, Fraction(0)) for p, q in atoms), Fraction(0))


def _canonical(atoms) -> list:
    """The atoms merged by likelihood ratio q/p (p = 0: ratio ∞; q = 0: ratio 0)."""
    merged: dict = {}
    for p, q in atoms:
        key = "inf" if p == 0 else q / p
        mp, mq = merged.get(key, (Fraction(0), Fraction(0)))
        merged[key] = (mp + p, mq + q)
    return list(merged.values())


def _rational(f: Fraction) -> sp.Rational:
    return sp.Rational(f.numerator, f.denominator)


def _ints(args) -> list:
    return [int(a) for a in args]


class _RR(Enumerated):
    def __new__(cls, *args):
        return super().__new__(cls, *(sp.sympify(a) for a in args))

    def enumerate(self) -> sp.Rational:
        return _rational(self._value(*_ints(self.args)))


class ProductProfile(_RR):
    """``ProductProfile(c, a1, b1, a2, b2, ...)``: :math:`\\sum (Q - sP)_+` over the product."""

    def _value(self, c, *ab):
        pairs = [rr_pair(a, b) for a, b in zip(ab[::2], ab[1::2])]
        return _hockey_stick(_product_atoms(pairs), Fraction(c, 2))

    def _latex(self, printer, exp=None):
        c, *ab = self.args
        fs = r" \otimes ".join(r"f_{%s,%s}" % (printer._print(a), printer._print(b))
                               for a, b in zip(ab[::2], ab[1::2]))
        return r"\delta_{%s}\left(\log \tfrac{%s}{2}\right)" % (fs, printer._print(c))


class ProductProfileFromLoss(_RR):
    """``ProductProfileFromLoss(c, a1, b1, ...)``: the profile through the distribution of the
    likelihood ratio under Q (ratios of independent factors multiply)."""

    def _value(self, c, *ab):
        dist = {Fraction(1): Fraction(1)}  # ratio -> Q-mass; "inf" for P-mass 0
        for a, b in zip(ab[::2], ab[1::2]):
            P, Q = rr_pair(a, b)
            factor: dict = {}
            for p, q in zip(P, Q):
                if q == 0:
                    continue  # Q-null: invisible under Q
                key = "inf" if p == 0 else q / p
                factor[key] = factor.get(key, Fraction(0)) + q
            new: dict = {}
            for (r1, m1), (r2, m2) in itertools.product(dist.items(), factor.items()):
                key = "inf" if "inf" in (r1, r2) else r1 * r2
                new[key] = new.get(key, Fraction(0)) + m1 * m2
            dist = new
        s = Fraction(c, 2)
        return sum((m if r == "inf" else m * max(1 - s / r, Fraction(0)) for r, m in dist.items()),
                   Fraction(0))


class NestedProductProfile(_RR):
    """``NestedProductProfile(c, left, a1, b1, a2, b2, a3, b3)``: with ``left = 1``
    :math:`(f_1\\otimes f_2)\\otimes f_3`, with ``left = 0`` :math:`f_1\\otimes(f_2\\otimes f_3)`;
    the inner product is replaced by the canonical pair of its trade-off function first."""

    def _value(self, c, left, a1, b1, a2, b2, a3, b3):
        f1, f2, f3 = rr_pair(a1, b1), rr_pair(a2, b2), rr_pair(a3, b3)
        if left:
            inner = _canonical(_product_atoms([f1, f2]))
            pairs = [(tuple(p for p, _ in inner), tuple(q for _, q in inner)), f3]
        else:
            inner = _canonical(_product_atoms([f2, f3]))
            pairs = [f1, (tuple(p for p, _ in inner), tuple(q for _, q in inner))]
        return _hockey_stick(_product_atoms(pairs), Fraction(c, 2))


class ProductTradeOff(_RR):
    """``ProductTradeOff(x, a1, b1, ...)``: :math:`(f_1\\otimes\\cdots)(x/10)` by Neyman--Pearson
    on the product atoms (reject by decreasing likelihood ratio, the boundary atom in part)."""

    def _value(self, x, *ab):
        pairs = [rr_pair(a, b) for a, b in zip(ab[::2], ab[1::2])]
        atoms = _canonical(_product_atoms(pairs))
        alpha = Fraction(x, 10)
        order = sorted(atoms, key=lambda pq: (0, 0) if pq[0] == 0 else (1, -pq[1] / pq[0]))
        used = power = Fraction(0)
        for p, q in order:
            if p == 0:
                power += q
                continue
            if used + p >= alpha:
                return max(Fraction(0), 1 - power - q * (alpha - used) / p)
            used += p
            power += q
        return max(Fraction(0), 1 - power)


class PowerProfile(_RR):
    """``PowerProfile(c, a, b, k)``: the profile of :math:`f_{\\varepsilon,\\delta}^{\\otimes k}` at
    s = c/2 by the definition over the :math:`4^k` product atoms."""

    def _value(self, c, a, b, k):
        return _hockey_stick(_product_atoms([rr_pair(a, b)] * k), Fraction(c, 2))


class PowerProfileAtLattice(_RR):
    """``PowerProfileAtLattice(a, b, k, l)``: the same at :math:`s = E^{k-2l}`."""

    def _value(self, a, b, k, l):
        E = 1 + Fraction(a, 2)
        return _hockey_stick(_product_atoms([rr_pair(a, b)] * k), E ** (k - 2 * l))
