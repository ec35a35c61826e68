r"""The bagging deltas and epsilons for every n: integer parameters on infinite ranges.

Liu, Jia, Gong, IJCAI 2021, Thm. 2 and its proof in the Appendix: bagging with
replacement (k draws from n records, N = 1 model) is
(k ln((n+1)/n), 1 - ((n-1)/n)^k)-DP.  With k = n (the bootstrap) the delta is
1 - (1 - 1/n)^n.  These steps check, from the formula of the theorem (substituted,
never a printed number), claims that hold for *every* integer n >= 1:

* the bootstrap's delta is >= 1 - 1/e (about 0.632) for every n: (1 - 1/n)^n <= e^-1
  since n log(1 - 1/n) <= n ((1 - 1/n) - 1) = -1 (log A <= A - 1); bootstrap bagging
  never gets a delta below 0.632, however large the data set;
* it decreases in n: (1 - 1/n)^n increases (d/dn of n log(1 - 1/n) is
  log(1 - 1/n) + 1/(n - 1) >= 0 by log A >= 1 - 1/A);
* the bootstrap's epsilon n ln((n+1)/n) is <= 1 (log A <= A - 1);
* the general delta 1 - ((n-1)/n)^k <= k/n for all n, k >= 1 (Bernoulli's inequality
  (1 + u)^k >= 1 + k u at u = -1/n), the union bound P[some draw hits the record];
* the general epsilon k ln((n+1)/n) <= k/n (log A <= A - 1);
* Bernoulli's ((n-1)/n)^k >= 1 - k/n itself, by induction on k from 1.

Every step is proved for every n (and k) by the residual algebra of symdp/proof/residual.py:
its atoms are the powers, exp and log, with the facts of Mathlib's lemmas
(one_add_mul_le_pow, Real.one_sub_div_pow_le_exp_neg, Real.log_le_sub_one_of_pos, ...),
re-checked by the kernel; where a base is 0 at n = 1, n = 1 is set apart.
"""

import sympy as sp

from symdp.proof.derivation import Derivation, Step

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)

CITE = "Liu, Jia, Gong, IJCAI 2021, Thm. 2 and Appendix, proof of Thm. 2 (with replacement, N = 1)"
DELTA = 1 - ((n - 1) / n) ** k            # Thm. 2's delta, k draws from n records
EPS = k * sp.log((n + 1) / n)             # Thm. 2's epsilon
BOOT_DELTA = DELTA.subs(k, n)             # the bootstrap: k = n
BOOT_EPS = EPS.subs(k, n)

bootstrap = Derivation(
    id="bootstrap_bagging_delta_for_every_n",
    statement=("Bootstrap bagging (k = n draws with replacement, N = 1): Thm. 2's delta "
               "1 - ((n-1)/n)^n is at least 1 - 1/e for every n >= 1 and decreases in n, so it "
               "never falls below about 0.632; its epsilon n ln((n+1)/n) is at most 1."),
    citation=CITE,
    hypotheses={n: sp.Range(1, sp.oo)},
    steps=(
        Step(BOOT_DELTA, ">=", 1 - sp.exp(-1),
             "n log(1 - 1/n) <= -1 (log A <= A - 1), so (1 - 1/n)^n <= 1/e"),
        Step(BOOT_DELTA.subs(n, n + 1), "<=", BOOT_DELTA,
             "(1 - 1/n)^n increases in n: d/dn [n log(1 - 1/n)] >= 0 (log A >= 1 - 1/A)"),
        Step(BOOT_EPS, "<=", 1, "log((n+1)/n) <= 1/n (log A <= A - 1)"),
    ),
    chained=False,
)

general = Derivation(
    id="bagging_delta_eps_union_bounds",
    statement=("Thm. 2's delta 1 - ((n-1)/n)^k is at most k/n and its epsilon k ln((n+1)/n) is "
               "at most k/n, for all integers n, k >= 1."),
    citation=CITE,
    hypotheses={n: sp.Range(1, sp.oo), k: sp.Range(1, sp.oo)},
    steps=(
        Step(DELTA, "<=", k / n, "Bernoulli: ((n-1)/n)^k = (1 - 1/n)^k >= 1 - k/n"),
        Step(EPS, "<=", k / n, "log((n+1)/n) <= 1/n (log A <= A - 1)"),
        Step(((n - 1) / n) ** k, ">=", 1 - k / n,
             "Bernoulli by induction on k: ((n-1)/n)^(k+1) = ((n-1)/n)^k (n-1)/n "
             ">= (1 - k/n)(n-1)/n = 1 - (k+1)/n + k/n^2", induction=(k, 1)),
    ),
    chained=False,
)

DERIVATIONS = [bootstrap, general]
