"""The table of docs/bagging.md, "Bagging with a private base learner" (issue #23): certified
epsilon of N bootstrap rounds of a Gaussian base learner, against the paper's (eps, delta) and
against Poisson sampling at the same expected rate q = k/n.  Not a speed benchmark (not a row
of ``python -m benchmarks``); times are printed for orientation only.

    PYTHONPATH=. python -m benchmarks.bagging_events
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

from symdp.accountant.events import account
from symdp.events import Gaussian, PoissonSampled, SampledWithReplacement, SelfComposed

ROWS = [(100, 10, 1, 2), (100, 10, 10, 2), (100, 50, 10, 4), (1000, 50, 100, 4)]
DELTA = Fraction(1, 10 ** 5)


def _down(x: Fraction, digits: int = 6) -> Fraction:
    return Fraction(math.floor(x * 10 ** digits), 10 ** digits)


def main():
    print("| n | k | N | σ | ε at δ = 1e-5: certified [lo, hi] | realised lower ends (t) | paper's (ε, δ) "
          "| ε at the paper's δ | Poisson q = k/n, same N, δ = 1e-5 | time |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for n, k, N, s in ROWS:
        start = time.perf_counter()
        event = SelfComposed(SampledWithReplacement(Gaussian(s), n, k), N)
        a = account(event, delta=DELTA, precision=0)
        d_paper = 1 - Fraction(n - 1, n) ** (N * k)
        e_paper = N * k * math.log((n + 1) / n)
        at_paper = account(event, delta=_down(d_paper), precision=0)
        q = Fraction(k, n)
        poisson = account(SelfComposed(PoissonSampled(Gaussian(s), q), N), delta=DELTA, precision=0)
        realised = ", ".join(f"{float(lo):.4f} ({float(t):g})" for t, lo in a.realised)
        print(f"| {n} | {k} | {N} | {s} | [{float(a.lo):.4f}, {float(a.hi):.4f}] | {realised} | "
              f"({e_paper:.4g}, {float(d_paper):.4g}) | [{float(at_paper.lo):.4g}, {float(at_paper.hi):.4g}] | "
              f"[{float(poisson.lo):.4f}, {float(poisson.hi):.4f}] | {time.perf_counter() - start:.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
