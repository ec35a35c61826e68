"""The proof of Thm. 4.2 (subsampling), step by step (Sec. 4.2 and App. F), for every
symmetric trade-off function f.

Dong, Roth, Su 2022, arXiv 1905.02383v3, Thm. 4.2, Eq. 16, Prop. 4.5 (special case of
Prop. F.2) (JRSS-B 84(1), 2022, Thm. 4.2).  delta_g(eps) = 1 + g^*(-e^eps) is the privacy
profile of a trade-off function g (Prop. 2.12).

**Thm. 4.2** (``thm_4_2_subsampled_mechanism_is_cp_f_dp``): if M is f-DP, f a symmetric
trade-off function and 0 <= p <= 1, then M o Sample is C_p(f)-DP, i.e.
T(M o Sample(S), M o Sample(S'))(alpha) >= C_p(f)(alpha) for every alpha in [0, 1] -- PROVED
with exactly these hypotheses: f = AbstractTradeOff("f", symmetric=True), M =
Mechanism("M", dp=f), p in [0, 1].  The kernel replays the argument of Sec. 4.2:

1. Prop. 2.12 (first half, derived): f >= f_{eps, delta_f(eps)} for every eps >= 0 -- the
   first line of f_{eps,delta} lies below f by the definition of f^*, the second by f^* at
   f(alpha) and f(f(alpha)) <= alpha (symmetry); so M is (eps, delta_f(eps))-DP.
2. Lemma 4.4 (axiom): M o Sample is (log(1 - p + p e^eps), p delta_f(eps))-DP for each eps.
3. Eq. 16 (derived): f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p), so p delta_f(eps) =
   delta_{f_p}(eps'); eps' = log(1 - p + p e^eps) runs over [0, oo) as eps does (p > 0).
4. Prop. 4.5's condition for g = f_p (derived): delta_{f_p} >= delta_{f_p^{-1}} -- for
   t <= x*, f_p^{-1}(t) >= f_p(t); for t >= x*, f_p^{-1}(t) >= x* + f_p(x*) - t (the chord's
   line supports f_p^{-1}), and s t + x* + f_p(x*) - t >= s x* + f_p(x*) for s = e^eps >= 1.
5. Prop. 4.5 (derived): min{f_p, f_p^{-1}}** = C_p(f) has the profile delta_{f_p}
   (h*** = h*, the conjugate of a minimum is the larger conjugate, step 4) and is a symmetric
   trade-off function, so by Prop. 2.12 (second half, axiom) M o Sample is C_p(f)-DP.
   p = 0 apart: Lemma 4.4 gives f_{0,0} = Id >= C_0(f).

Removing a hypothesis (f not declared symmetric, M not declared f-DP, p beyond 1) makes the
kernel refuse (tests/subsampling/test_thm_4_2_hypotheses.py).

**Axioms** (each cited in symdp/proof/kernel/convex.py): Prop. 2.2 (a trade-off function
lies in [0, 1 - x], is non-increasing and convex; f_p and f^{-1} are trade-off functions);
Eq. 4 (f^{-1}(a) = inf{t : f(t) <= a}); the fixed point of a trade-off function; the
conjugate as a supremum (its two bounds); Rockafellar, Convex Analysis (1970), Thm. 12.2
(h*** = h*); min{g, g^{-1}}** is a symmetric trade-off function (Def. 4.1 and App. F);
Prop. 2.12 of Dong, Roth, Su 2022 (second half: (eps, delta_k(eps))-DP for every eps >= 0 is
k-DP for a symmetric trade-off function k); Lemma 4.4 (classical).  The first half of
Prop. 2.12 is derived (step 1); the numeric checks of Prop. 2.12 for G_1 and f_{3,1/10}
(the dual supremum evaluated from its definition) stay below as evidence of that axiom.
"""

import sympy as sp

from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import (mixture_conjugate_proof, primal_dual_proof,
                                       profile_of_cp_proof, prop_4_5_proof, thm_4_2_proof)
from symdp.subsampling import subsample
from symdp.subsampling.duality import DualSup
from symdp.subsampling.mechanism import Mechanism, MechanismTradeOff, SampledMechanism
from symdp.core.symbols import alpha, eps, p
from symdp.tradeoff import (AbstractTradeOff, ConjugateAt, ConvexEnvelope, EpsDelta, Gaussian,
                            Inverse, Mixture, PointwiseMin)

R = sp.Rational
eta = sp.Symbol("eta", real=True)          # the profile's argument (eps' in the text)
mu = sp.Symbol("mu", positive=True)  # the conjugate of G_mu needs mu > 0 to take its limits
delta = sp.Symbol("delta", real=True)
CITE = ("Dong, Roth, Su 2022, arXiv 1905.02383v3, Thm. 4.2, Eq. 16, Prop. 4.5 / F.2, Prop. 2.12 "
        "(JRSS-B 84(1), 2022, Thm. 4.2)")
A3 = sp.FiniteSet(R(1, 100), R(1, 5), R(1, 2))
NO_SYMBOLIC = ("symbolic",)  # a dual sup has no symbolic form

f = AbstractTradeOff("f", symmetric=True)
G1 = Gaussian(1)
F = EpsDelta(3, R(1, 10))
FAMILIES = {mu: sp.Interval.open(0, sp.oo), eps: sp.Interval(0, sp.oo),
            delta: sp.Interval.Ropen(0, 1)}

step1 = Derivation(
    id="thm_4_2_step_1_primal_dual_recovers_symmetric_f",
    statement=("A symmetric f is sup_{eps >= 0} f_{eps, delta_f(eps)}: checked for G_1 and "
               "f_{3, 1/10} with the dual sup evaluated from its definition (a numeric check of "
               "Prop. 2.12, which the proof of Thm. 4.2 takes as an axiom)."),
    citation=CITE, hypotheses={alpha: A3}, chained=False,
    steps=(
        Step(DualSup(sp.Lambda(eta, G1.privacy_profile(eta)), alpha), "=", G1(alpha),
             "Prop. 2.12 for G_1", skip=NO_SYMBOLIC),
        Step(DualSup(sp.Lambda(eta, F.privacy_profile(eta)), alpha), "=", F(alpha),
             "Prop. 2.12 for f_{3,1/10}", skip=NO_SYMBOLIC),
    ),
)

def _guarantee(d):
    """f_{eta,d}(alpha) = max{0, 1 - d - e^eta alpha, e^{-eta}(1 - d - alpha)} (Eq. 5), written out
    (an EpsDelta object of a symbolic d would record d in [0, 1] as a condition to check)."""
    return sp.Max(0, 1 - d - sp.exp(eta) * alpha, sp.exp(-eta) * (1 - d - alpha))


primal = Derivation(
    id="thm_4_2_step_1_f_dominates_its_eps_delta_guarantees",
    statement=("For every symmetric trade-off function f and eps >= 0: f >= f_{eps, delta_f(eps)} "
               "with delta_f(eps) = 1 + f^*(-e^eps), so an f-DP mechanism is "
               "(eps, delta_f(eps))-DP (Prop. 2.12, first half); the same for G_mu and "
               "f_{eps,delta}."),
    citation=CITE, chained=False,
    hypotheses={alpha: sp.Interval(0, 1), eta: sp.Interval(0, sp.oo), **FAMILIES},
    steps=tuple(
        Step(g(alpha), ">=", _guarantee(1 + ConjugateAt(g, -sp.exp(eta))),
             "both lines of f_{eta, delta_f(eta)} lie below f: f^* at alpha and at f(alpha), "
             "f(f(alpha)) <= alpha", proof=primal_dual_proof(g, eta))
        for g in (f, Gaussian(mu), EpsDelta(eps, delta))),
)

Fstar = sp.Function("f^*")
eps1 = sp.log(1 - p + p * sp.exp(eps))
y = -sp.exp(eta)
step23 = Derivation(
    id="thm_4_2_steps_2_3_eq16_eliminates_eps",
    statement=("With eps' = log(1 - p + p e^eps): 1 + f_p^*(-e^{eps'}) = p (1 + f^*(-e^eps)), i.e. the "
               "Lemma 4.4 pairs (eps', p delta_f(eps)) are (eps', delta_{f_p}(eps')) (Eq. 16), for "
               "every trade-off function f; the mixture-conjugate identity "
               "f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p) holds for every f, G_mu and f_{3,1/10}."),
    citation=CITE,
    hypotheses={eps: sp.Interval(0, sp.oo), p: sp.Interval.Lopen(0, 1), eta: sp.Interval(0, sp.oo),
                mu: sp.Interval.open(0, sp.oo)},
    chained=False,
    steps=(
        Step(1 + (p * Fstar((-sp.exp(eps1) + 1 - p) / p) - (1 - p)), "=", p * (1 + Fstar(-sp.exp(eps))),
             "f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p) at y = -e^{eps'} (Lemma 4.4: delta' = p delta)"),
        Step(ConjugateAt(Mixture(Gaussian(mu), p), y), "=",
             p * ConjugateAt(Gaussian(mu), (y + 1 - p) / p) - (1 - p),
             "mixture conjugate, G_mu: sup_x (y x - p G(x) - (1 - p)(1 - x)), each side bounding "
             "the other", proof=mixture_conjugate_proof(Gaussian(mu), p, y)),
        Step(ConjugateAt(Mixture(F, p), y), "=", p * ConjugateAt(F, (y + 1 - p) / p) - (1 - p),
             "mixture conjugate, f_{3,1/10}", proof=mixture_conjugate_proof(F, p, y)),
        Step(ConjugateAt(Mixture(f, p), y), "=", p * ConjugateAt(f, (y + 1 - p) / p) - (1 - p),
             "mixture conjugate, every trade-off function f", proof=mixture_conjugate_proof(f, p, y)),
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


def _condition(name, g, hyp, note):
    fp = Mixture(g, p)
    C = subsample(g, p)
    return Derivation(
        id=name,
        statement=(f"Prop. 4.5's condition for g = f_p, f = {g}: delta_{{f_p}}(eta) = "
                   "delta_{C_p(f)}(eta) and delta_{f_p^{-1}}(eta) <= delta_{C_p(f)}(eta) for every "
                   "eta >= 0 " + note),
        citation=CITE, hypotheses=hyp,
        steps=(
            Step(1 + ConjugateAt(fp, y), "=", 1 + ConjugateAt(C, y),
                 "delta_{f_p} = delta_C: C = min{f_p, f_p^{-1}}** has the conjugate of the minimum, "
                 "the larger of f_p^* and (f_p^{-1})^*, which is f_p^* (the condition)",
                 skip=NO_SYMBOLIC, proof=profile_of_cp_proof(g, p, eta)),
            Step(1 + ConjugateAt(C, y), ">=", 1 + ConjugateAt(Inverse(fp), y),
                 "delta_C = delta_{f_p} >= delta_{f_p^{-1}}: f_p^{-1} >= f_p left of x*, >= the "
                 "chord's line right of it", skip=NO_SYMBOLIC, proof=profile_of_cp_proof(g, p, eta)),
        ),
    )


P_ETA = {eta: sp.Interval(0, sp.oo), p: sp.Interval(0, 1)}
condition_gaussian = _condition(
    "thm_4_2_step_4_prop_4_5_condition_holds_for_gaussian", Gaussian(mu),
    {**P_ETA, mu: sp.Interval.open(0, sp.oo)}, "(G_mu, every mu > 0, p in [0, 1])")
condition_eps_delta = _condition(
    "thm_4_2_step_4_prop_4_5_condition_holds_for_eps_delta", EpsDelta(eps, delta),
    {**P_ETA, eps: sp.Interval(0, sp.oo), delta: sp.Interval.Ropen(0, 1)},
    "(f_{eps,delta}, every eps >= 0, 0 <= delta < 1, p in [0, 1])")
condition_every_f = _condition(
    "thm_4_2_step_4_prop_4_5_condition_holds_for_every_symmetric_f", f, P_ETA,
    "(every symmetric trade-off function f, p in [0, 1])")

g = AbstractTradeOff("g", profile_dominates_inverse=True)
N = Mechanism("N", dp_profile=g)
prop_4_5 = Derivation(
    id="prop_4_5_profile_condition_gives_symmetrised_envelope",
    statement=("Prop. 4.5: for a trade-off function g with delta_g >= delta_{g^{-1}} on eps >= 0, "
               "a mechanism N that is (eps, delta_g(eps))-DP for every eps >= 0 is "
               "min{g, g^{-1}}**-DP."),
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1)},
    notes=("g = AbstractTradeOff(\"g\", profile_dominates_inverse=True) (the condition), N = "
           "Mechanism(\"N\", dp_profile=g) (the guarantees)."),
    steps=(Step(MechanismTradeOff(N)(alpha), ">=",
                ConvexEnvelope(PointwiseMin(g, Inverse(g)))(alpha),
                "the envelope's profile is delta_g (h*** = h*; the larger conjugate of the minimum "
                "is g^* by the condition) and it is a symmetric trade-off function: Prop. 2.12",
                proof=prop_4_5_proof(N, g)),),
)

M = Mechanism("M", dp=f)
theorem = Derivation(
    id="thm_4_2_subsampled_mechanism_is_cp_f_dp",
    statement=("Thm. 4.2: if M is f-DP for a symmetric trade-off function f, then for every "
               "0 <= p <= 1, M o Sample (p = m/n) is C_p(f)-DP: T(M o Sample(S), M o Sample(S')) "
               ">= C_p(f) on [0, 1]."),
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1), p: sp.Interval(0, 1)},
    notes=("Hypotheses exactly the paper's: f = AbstractTradeOff(\"f\", symmetric=True) (a "
           "symmetric trade-off function), M = Mechanism(\"M\", dp=f) (M is f-DP), p in [0, 1]. "
           "Steps 1-5 of the module docstring, 145 inferences replayed by the kernel."),
    steps=(Step(MechanismTradeOff(SampledMechanism(M, p))(alpha), ">=", subsample(f, p)(alpha),
                "Prop. 2.12, Lemma 4.4, Eq. 16, Prop. 4.5 and its condition for f_p",
                proof=thm_4_2_proof(M, f, p)),),
)

DERIVATIONS = [step1, primal, step23, condition_general, condition_gaussian, condition_eps_delta,
               condition_every_f, prop_4_5, theorem]
