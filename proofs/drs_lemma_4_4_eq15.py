"""Lemma 4.4, Eq. 15 and the shaded triangle of Figure 6.

Dong, Roth, Su 2022, arXiv 1905.02383v3, Lemma 4.4 (classical; Ullman), Eq. 15 and Fig. 6
(JRSS-B 84(1), 2022, Lemma 4.4).  With eps' = log(1 - p + p e^eps), delta' = p delta:

* Lemma 4.4 in trade-off form: the mixture f_p of f = f_{eps,delta}, and its inverse, lie above
  f_{eps',delta'} -- the subsampled mechanism is (eps', delta')-DP in both directions; in
  profile form 1 + f_p^*(-e^{eps'}) = p delta exactly.
* Eq. 15: C_p(f_{eps,delta}) >= f_{eps',delta'}, strictly at the kink k' of f_{eps',delta'}:
  C_p(k') - k' = p(1 - p)(E - 1)(E + 2 delta - 1)/((E + 1)(pE - p + 2)) > 0 for 0 < p < 1,
  eps > 0 (E = e^eps).
* The shaded triangle A = (x*, f_p(x*)), K = (k', k'), B = (f_p(x*), x*): A, B on the chord and
  on f_{eps',delta'}, K the kink; area p(1 - p)^2 (E - 1)(E + 2 delta - 1)^2 / (2 (E + 1)^2 (pE - p + 2)).
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import (arith_proof, cp_closed_form_proof, inverse_lower_proof,
                                       inverse_proof, unfolded_proof)
from symdp.subsampling import subsample
from symdp.subsampling.eps_delta import cor_4_3_line, shaded_triangle
from symdp.core.symbols import alpha, delta, eps, p
from symdp.tradeoff import ConjugateAt, EpsDelta, Inverse, Mixture

R = sp.Rational
CITE = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Lemma 4.4, Eq. 15, Fig. 6 (JRSS-B 84(1), 2022, Lemma 4.4)"
E = sp.exp(eps)
eps1 = sp.log(1 - p + p * E)
delta1 = p * delta
f = EpsDelta(eps, delta)
f1 = EpsDelta(eps1, delta1)
fp = Mixture(f, p)
x_star = (1 - delta) / (1 + E)
fp_star = p * x_star + (1 - p) * (1 - x_star)
hyp = {alpha: sp.Interval(0, 1), eps: sp.Interval(0, sp.oo), delta: sp.Interval(0, 1),
       p: sp.Interval(0, 1)}
strict = {alpha: sp.Interval(0, 1), eps: sp.Interval.open(0, sp.oo), delta: sp.Interval(0, 1),
          p: sp.Interval.open(0, 1)}

lemma = Derivation(
    id="lemma_4_4_subsampled_eps_delta_is_eps_prime_delta_prime",
    statement=("f_p >= f_{eps',delta'} and f_p^{-1} >= f_{eps',delta'} for f = f_{eps,delta}; the "
               "profile of f_p at eps' is exactly p delta."),
    citation=CITE, hypotheses=hyp, chained=False,
    steps=(
        Step(fp(alpha), "=", f1(alpha), "on [0, x*] f_p is the first line of f_{eps',delta'}",
             side_conditions=(sp.Le(alpha, x_star),), proof=unfolded_proof()),
        Step(fp(alpha), ">=", f1(alpha), "on [x*, 1]: T(P, pQ + (1 - p)P) >= f_{eps',delta'}",
             side_conditions=(sp.Ge(alpha, x_star),), proof=unfolded_proof()),
        Step(Inverse(fp)(alpha), ">=", f1(alpha), "on [0, f_p(x*)]: T(pQ + (1 - p)P, P) >= f_{eps',delta'}",
             side_conditions=(sp.Le(alpha, fp_star),), proof=inverse_lower_proof(fp, f1, x_star)),
        Step(Inverse(fp)(alpha), "=", f1(alpha), "on [f_p(x*), 1] f_p^{-1} is f_{eps',delta'}",
             side_conditions=(sp.Ge(alpha, fp_star),),
             proof=inverse_proof(fp, sp.Max(0, (1 - delta1 - alpha) / (1 - p + p * E)))),
        Step(1 + ConjugateAt(fp, -sp.exp(eps1)), "=", delta1,
             "delta_{f_p}(eps') = 1 + f_p^*(-e^{eps'}) = p delta (sup at x = 0 and along the first line)"),
    ),
)

k1 = (1 - delta1) / (1 + sp.exp(eps1))
gap_at_kink = p * (1 - p) * (E - 1) * (E + 2 * delta - 1) / ((E + 1) * (p * E - p + 2))
eq15 = Derivation(
    id="eq15_cp_eps_delta_dominates_lemma_4_4_strictly_on_the_chord",
    statement=("C_p(f_{eps,delta}) >= f_{eps',delta'} (Eq. 15); at the kink k' the gap is "
               "p(1 - p)(E - 1)(E + 2 delta - 1)/((E + 1)(pE - p + 2)) > 0 for 0 < p < 1, eps > 0."),
    citation=CITE, hypotheses=strict, chained=False,
    steps=(
        Step(subsample(f, p)(alpha), ">=", f1(alpha),
             "Eq. 15 on the chord (off it the two are equal: proofs/drs_cor_4_3.py)",
             side_conditions=(sp.Ge(alpha, x_star), sp.Le(alpha, fp_star)),
             proof=cp_closed_form_proof(f, p, alpha, x_star)),
        Step(cor_4_3_line(eps, delta, p, k1) - k1, "=", gap_at_kink,
             "C_p = chord at k' (k' is on the chord), f_{eps',delta'}(k') = k'"),
        Step(gap_at_kink, ">", sp.S.Zero, "every factor is positive for 0 < p < 1, eps > 0",
             proof=arith_proof()),
    ),
)

T = shaded_triangle(eps, delta, p)
(Ax, Ay), (Kx, Ky), (Bx, By) = T.vertices
triangle = Derivation(
    id="shaded_triangle_vertices_and_area",
    statement=("The improvement of Thm. 4.2 over Lemma 4.4 is the triangle A = (x*, f_p(x*)), "
               "K = (k', k'), B = (f_p(x*), x*): A and B lie on f_{eps',delta'} and on the chord, "
               "K is the kink of f_{eps',delta'}; its area is "
               "p(1 - p)^2 (E - 1)(E + 2 delta - 1)^2 / (2 (E + 1)^2 (pE - p + 2))."),
    citation=CITE, hypotheses=hyp, chained=False,
    steps=(
        Step(1 - delta1 - sp.exp(eps1) * Ax, "=", Ay, "A on the first line of f_{eps',delta'}"),
        Step(sp.exp(-eps1) * (1 - delta1 - Bx), "=", By, "B on the second line of f_{eps',delta'}"),
        Step(cor_4_3_line(eps, delta, p, Ax), "=", Ay, "A on the chord"),
        Step(cor_4_3_line(eps, delta, p, Bx), "=", By, "B on the chord"),
        Step(1 - delta1 - sp.exp(eps1) * Kx, "=", Ky, "K is where the two lines of f_{eps',delta'} meet"),
        Step(sp.exp(-eps1) * (1 - delta1 - Kx), "=", Ky, "K on the second line too"),
        Step(((Kx - Ax) * (By - Ay) - (Bx - Ax) * (Ky - Ay)) / 2, "=", T.area,
             "shoelace formula (orientation A, K, B counter-clockwise)"),
        Step(T.area, "=", (fp_star - x_star) * gap_at_kink / 2,
             "area = (1/2)|AB| dist(K, chord) = (1/2)(f_p(x*) - x*)(C_p(k') - k'): positive exactly "
             "when the gap at the kink is (f_p(x*) - x* = (1 - p)(1 - 2x*) >= 0)"),
    ),
)

DERIVATIONS = [lemma, eq15, triangle]
