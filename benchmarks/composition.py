r"""Composition benchmarks (issue 15): ``python -m benchmarks.composition``.

1. ``symdp compose --eps-delta 0.1 0 --times 100 --delta 1e-5`` in a fresh process (target:
   under a second): wall time, median of 3.
2. ε(δ = 1e-5) of f_{0.1,0}^{⊗k} for k = 10², 10³, 10⁴: KOV's O(k) walk at 30 digits vs
   dp_accounting's PLD accountant (grid 1e-4), and the digits the peer gets right.
3. The seed's table row T = 10⁴ (two Arb polynomial powers of degree 2·10⁴).
4. CLT against the truth for noisy SGD with Poisson subsampling (σ = 1, p = 0.01, δ = 1e-5):
   ε from G_μ with the finite-T μ = 2K/s and with the limit ν√(e^{1/σ²} − 1), against
   dp_accounting's pessimistic and optimistic PLD estimates (grid 1e-5), which bracket the
   exact ε.  (``--clt-truth``: about a minute per T.)
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


def clt_truth(steps=(100, 1000, 10000), grid=1e-5):
    import logging

    import sympy as sp
    from dp_accounting.pld import privacy_loss_distribution as pld

    from symdp.composition.clt import sgd_clt_mu, sgd_limit_mu
    from symdp.composition.privacy_loss import GaussianLoss, epsilon_for_delta

    logging.getLogger().setLevel(logging.ERROR)
    print("4. T | exact eps in [optimistic, pessimistic] | CLT mu, gamma, eps | limit mu, eps")
    for T in steps:
        upper, lower = (pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, pessimistic_estimate=pe,
                                                    use_connect_dots=pe, value_discretization_interval=grid)
                        .self_compose(T).get_epsilon_for_delta(1e-5) for pe in (True, False))
        be = sgd_clt_mu(1, "0.01", T, "poisson", dps=20)
        limit = sp.N(sgd_limit_mu(1, sp.Rational(1, 100) * sp.sqrt(T), "poisson"), 25)
        with mpmath.workdps(20):
            e_clt = epsilon_for_delta(GaussianLoss(sp.Float(be.mu, 20)).profile, mpmath.mpf("1e-5"))
            e_lim = epsilon_for_delta(GaussianLoss(limit).profile, mpmath.mpf("1e-5"))
            print(f"   {T:5d} | [{lower:.4f}, {upper:.4f}] | {mpmath.nstr(be.mu, 6)}, {mpmath.nstr(be.gamma, 3)}, "
                  f"{mpmath.nstr(e_clt, 6)} | {mpmath.nstr(mpmath.mpf(limit), 6)}, {mpmath.nstr(e_lim, 6)}")


if __name__ == "__main__":
    main()
    if "--clt-truth" in sys.argv:
        clt_truth()
