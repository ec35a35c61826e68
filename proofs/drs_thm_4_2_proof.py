"""The proof of Thm. 4.2 (subsampling), step by step (Sec. 4.2 and App. F).

Dong, Roth, Su 2022, arXiv 1905.02383v3, Thm. 4.2, Eq. 16, Prop. 4.5 (special case of
Prop. F.2) (JRSS-B 84(1), 2022, Thm. 4.2).  delta_g(eps) = 1 + g^*(-e^eps) is the privacy
profile of a trade-off function g (Prop. 2.12).

1. Primal-dual (Prop. 2.12): an f-DP M is (eps, delta_f(eps))-DP for every eps >= 0, and a
   symmetric f is recovered as sup_eps f_{eps, delta_f(eps)} (checked with the dual sup
   evaluated from its definition, NUMERIC).
2. Lemma 4.4 for each eps: M o Sample is (log(1 - p + p e^eps), p delta_f(eps))-DP.
3. Eq. 16: since f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p), eliminating eps gives
   delta'(eps') = 1 + f_p^*(-e^{eps'}) = delta_{f_p}(eps') -- PROVED for an arbitrary f
   (f^* an undefined function); the mixture-conjugate identity is checked on the families.
4. Prop. 4.5's condition delta_{f_p} >= delta_{f_p^{-1}} on eps >= 0 holds for f_p: by Eq. 14
   C = C_p(f) equals f_p on [0, x*] and has slopes >= -1 on [x*, 1], so for s = e^eps >= 1 the
   infimum of s x + C(x) is attained on [0, x*] (scalar step PROVED): delta_C = delta_{f_p};
   and C <= f_p^{-1} gives delta_{f_p^{-1}} <= delta_C.  Checked on the families (NUMERIC).
5. Conclusion: by Prop. 4.5, M o Sample is min{f_p, f_p^{-1}}**-DP = C_p(f)-DP: the trade-off
   function sup_eps f_{eps, delta_{f_p}(eps)} of the guarantees equals C_p(f) (NUMERIC, dual sup
   against the Eq. 14 object).
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.subsampling import subsample
from symdp.subsampling.duality import DualSup, eq16_profile, mixture_conjugate
from symdp.subsampling.operator import inverse_conjugate
from symdp.core.symbols import alpha, eps, p
from symdp.tradeoff import ConjugateAt, EpsDelta, Gaussian, Mixture

R = sp.Rational
eta = sp.Symbol("eta", real=True)          # the profile's argument (eps' in the text)
mu = sp.Symbol("mu", positive=True)  # the conjugate of G_mu needs mu > 0 to take its limits
CITE = ("Dong, Roth, Su 2022, arXiv 1905.02383v3, Thm. 4.2, Eq. 16, Prop. 4.5 / F.2, Prop. 2.12 "
        "(JRSS-B 84(1), 2022, Thm. 4.2)")
A3 = sp.FiniteSet(R(1, 100), R(1, 5), R(1, 2))
NO_SYMBOLIC = ("symbolic",)  # a dual sup has no symbolic form
# simplify cannot compare these Piecewise conjugates (it times out): the steps skip it too

G1 = Gaussian(1)
F = EpsDelta(3, R(1, 10))

step1 = Derivation(
    id="thm_4_2_step_1_primal_dual_recovers_symmetric_f",
    statement=("A symmetric f is sup_{eps >= 0} f_{eps, delta_f(eps)}: checked for G_1 and "
               "f_{3, 1/10} with the dual sup evaluated from its definition."),
    citation=CITE, hypotheses={alpha: A3}, chained=False,
    steps=(
        Step(DualSup(sp.Lambda(eta, G1.privacy_profile(eta)), alpha), "=", G1(alpha),
             "Prop. 2.12 for G_1", skip=NO_SYMBOLIC),
        Step(DualSup(sp.Lambda(eta, F.privacy_profile(eta)), alpha), "=", F(alpha),
             "Prop. 2.12 for f_{3,1/10}", skip=NO_SYMBOLIC),
    ),
)

Fstar = sp.Function("f^*")
eps1 = sp.log(1 - p + p * sp.exp(eps))
step23 = Derivation(
    id="thm_4_2_steps_2_3_eq16_eliminates_eps",
    statement=("With eps' = log(1 - p + p e^eps): 1 + f_p^*(-e^{eps'}) = p (1 + f^*(-e^eps)), i.e. the "
               "Lemma 4.4 pairs (eps', p delta_f(eps)) are (eps', delta_{f_p}(eps')) (Eq. 16), for "
               "every trade-off function f; the mixture-conjugate identity holds for G_mu and "
               "f_{eps,delta}."),
    citation=CITE,
    hypotheses={eps: sp.Interval(0, sp.oo), p: sp.Interval.Lopen(0, 1), eta: sp.Interval(0, 5),
                mu: sp.Interval.open(0, 4)},
    chained=False,
    steps=(
        Step(1 + (p * Fstar((-sp.exp(eps1) + 1 - p) / p) - (1 - p)), "=", p * (1 + Fstar(-sp.exp(eps))),
             "f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p) at y = -e^{eps'} (Lemma 4.4: delta' = p delta)"),
        Step(ConjugateAt(Mixture(Gaussian(mu), p), -sp.exp(eta)), "=",
             mixture_conjugate(Gaussian(mu), p, -sp.exp(eta)),
             "mixture conjugate, G_mu (Legendre transform of f_p vs that of G_mu)",
             skip=NO_SYMBOLIC),
        Step(ConjugateAt(Mixture(EpsDelta(3, R(1, 10)), p), -sp.exp(eta)), "=",
             mixture_conjugate(EpsDelta(3, R(1, 10)), p, -sp.exp(eta)),
             "mixture conjugate, f_{3,1/10}", skip=NO_SYMBOLIC),
    ),
)

xs, w, v, s_, Cx = sp.symbols("x_star w v s C_star", real=True)
condition_general = Derivation(
    id="thm_4_2_step_4_infimum_of_s_x_plus_c_on_the_left",
    statement=("For s = e^eps >= 1 and x = x* + w (w >= 0) with C(x) = C(x*) - w + v (v >= 0: "
               "slopes >= -1 right of x*, Eq. 14): s x + C(x) >= s x* + C(x*), so the infimum "
               "defining delta_C(eps) is attained on [0, x*], where C = f_p: delta_C = delta_{f_p}."),
    citation=CITE,
    hypotheses={xs: sp.Interval(0, R(1, 2)), w: sp.Interval(0, 1), v: sp.Interval(0, 1),
                s_: sp.Interval(1, sp.oo), Cx: sp.Interval(0, 1)},
    steps=(
        Step(s_ * (xs + w) + (Cx - w + v) - (s_ * xs + Cx), "=", (s_ - 1) * w + v, "algebra"),
        Step((s_ - 1) * w + v, ">=", sp.S.Zero, "s >= 1, w >= 0, v >= 0"),
    ),
)


def _condition(name, f, hyp, note):
    fp = Mixture(f, p)
    C = subsample(f, p)
    y = -sp.exp(eta)
    return Derivation(
        id=name,
        statement=(f"Prop. 4.5's condition for g = f_p, f = {f}: delta_{{f_p}}(eta) = delta_{{C_p(f)}}(eta) "
                   "and delta_{f_p^{-1}}(eta) <= delta_{C_p(f)}(eta) for eta >= 0 " + note),
        citation=CITE, hypotheses=hyp,
        steps=(
            Step(1 + ConjugateAt(fp, y), "=", 1 + C.conjugate_from_definition(y),
                 "delta_{f_p} = delta_C (the infimum is attained on [0, x*], where C = f_p)",
                 skip=NO_SYMBOLIC),
            Step(1 + C.conjugate_from_definition(y), ">=", 1 + inverse_conjugate(fp, y),
                 "C <= f_p^{-1} gives delta_{f_p^{-1}} <= delta_C; (g^{-1})^*(y) = -y g^*(1/y)",
                 skip=NO_SYMBOLIC),
        ),
    )


condition_gaussian = _condition(
    "thm_4_2_step_4_prop_4_5_condition_holds_for_gaussian", Gaussian(mu),
    {eta: sp.FiniteSet(0, R(1, 2), 2), p: sp.FiniteSet(R(1, 5), R(1, 2)), mu: sp.FiniteSet(1, R(5, 2))},
    "(G_mu; mu in {1, 5/2}, p in {1/5, 1/2}, eta in {0, 1/2, 2})")
condition_eps_delta = _condition(
    "thm_4_2_step_4_prop_4_5_condition_holds_for_eps_delta", EpsDelta(3, R(1, 10)),
    {eta: sp.Interval(0, 5), p: sp.Interval.Lopen(0, 1)}, "(f_{3,1/10})")

conclusion = Derivation(
    id="thm_4_2_conclusion_dual_sup_of_eq16_profile_is_cp",
    statement=("sup_{eta >= 0} f_{eta, delta_{f_p}(eta)} = C_p(f) (Prop. 4.5's conclusion) for "
               "f = G_1 and f_{3,1/10}, p = 1/5, with delta_{f_p} from Eq. 16."),
    citation=CITE, hypotheses={alpha: A3}, chained=False,
    steps=(
        Step(DualSup(sp.Lambda(eta, eq16_profile(G1, R(1, 5), eta)), alpha), "=",
             subsample(G1, R(1, 5))(alpha), "Prop. 4.5 with g = (G_1)_{1/5}", skip=NO_SYMBOLIC),
        Step(DualSup(sp.Lambda(eta, eq16_profile(F, R(1, 5), eta)), alpha), "=",
             subsample(F, R(1, 5))(alpha), "Prop. 4.5 with g = (f_{3,1/10})_{1/5}",
             skip=NO_SYMBOLIC),
    ),
)

DERIVATIONS = [step1, step23, condition_general, condition_gaussian, condition_eps_delta, conclusion]
