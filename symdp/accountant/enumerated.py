"""Quantities of the bootstrap computed by exact enumeration (for proofs/bootstrap_multiplicity.py)."""

from __future__ import annotations

import itertools

import sympy as sp

from ..core.enumerable import Enumerated


class BootstrapMultiplicity(Enumerated):
    r"""P(record 0 of {0, ..., n−1} is drawn exactly j times in k draws with replacement),
    by listing all :math:`n^k` draw sequences and counting (nothing is derived from a formula)."""

    def enumerate(self) -> sp.Rational:
        n, k, j = (int(a) for a in self.args)
        if n < 1 or k < 0:
            raise ValueError(f"BootstrapMultiplicity needs n >= 1, k >= 0; got n={n}, k={k}")
        hits = sum(1 for seq in itertools.product(range(n), repeat=k) if seq.count(0) == j)
        return sp.Rational(hits, n ** k)

    def _latex(self, printer):
        n, k, j = (printer._print(a) for a in self.args)
        return r"\#\{s \in [%s]^{%s} : |s^{-1}(0)| = %s\} / %s^{%s}" % (n, k, j, n, k)

    def _sympystr(self, printer):
        return "BootstrapMultiplicity(%s)" % ", ".join(printer._print(a) for a in self.args)
