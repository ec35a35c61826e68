r"""Composition benchmarks (issue 15): ``python -m benchmarks.composition``.

1. ``symdp compose --eps-delta 0.1 0 --times 100 --delta 1e-5`` in a fresh process (target:
   under a second): wall time, median of 3.
2. ε(δ = 1e-5) of f_{0.1,0}^{⊗k} for k = 10², 10³, 10⁴: KOV's O(k) walk at 30 digits vs
   dp_accounting's PLD accountant (grid 1e-4), and the digits the peer gets right.
3. The seed's table row T = 10⁴ (two Arb polynomial powers of degree 2·10⁴).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import mpmath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _median(fn, repeat=3):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main():
    symdp = os.path.join(os.path.dirname(sys.executable), "symdp")
    cmd = [symdp, "compose", "--eps-delta", "0.1", "0", "--times", "100", "--delta", "1e-5"]
    t, out = _median(lambda: subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT).stdout)
    print(f"1. {' '.join(cmd[1:])}: {t:.2f} s  ({out.strip().splitlines()[-1]})")

    from symdp.composition import kov_epsilon_value
    for k in (100, 1000, 10000):
        t_ours, ours = _median(lambda: kov_epsilon_value("0.1", 0, k, "1e-5", dps=30))
        line = f"2. k = {k:5d}: symdp {t_ours * 1e3:8.1f} ms  eps = {mpmath.nstr(ours, 30)}"
        try:
            from dp_accounting.pld import privacy_loss_distribution as pld
            from dp_accounting.pld.common import DifferentialPrivacyParameters

            def peer():
                return pld.from_privacy_parameters(DifferentialPrivacyParameters(0.1, 0.0)) \
                    .self_compose(k).get_epsilon_for_delta(1e-5)
            t_peer, value = _median(peer, 1)
            err = abs(mpmath.mpf(value) - ours)
            line += f" | dp_accounting {t_peer * 1e3:8.1f} ms  eps = {value!r} (error {mpmath.nstr(err, 3)})"
        except ImportError:
            line += " | dp_accounting not installed"
        print(line)

    from symdp.composition.seed_claim import loss_table
    t, rows = _median(lambda: loss_table(1, "1e-8", "0.01", "1e-5", steps=(10000,)), 1)
    (T, a, b), = rows
    print(f"3. seed table T = 10^4: {t:.2f} s  C_p {a.mid().str(15, radius=False)}  "
          f"Lemma 4.4 {b.mid().str(15, radius=False)}")


if __name__ == "__main__":
    main()
