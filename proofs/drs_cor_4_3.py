"""Cor. 4.3: subsampling an (eps, delta)-DP mechanism -- as printed (refuted) and as derived.

Dong, Roth, Su 2022, arXiv 1905.02383v3, Cor. 4.3 (JRSS-B 84(1), 2022, Cor. 4.3).  The
seed prints C_p(f_{eps,delta}) = max{f_{eps',delta'}, L_printed} with
L_printed(a) = 1 - p delta - p (e^eps - 1)/(e^eps + 1) - a (the only surviving form, from
the seed note's code).  Eq. 14 gives the chord L(a) = 1 - p + 2p(1 - delta)/(1 + e^eps) - a
instead; L - L_printed = p delta (e^eps - 1)/(e^eps + 1) > 0 for eps, delta, p > 0, so the
printed statement fails wherever the chord is active -- recorded below as a finding with its
counterexample against C_p(f_{eps,delta}) computed from the definition (the biconjugate of
min{f_p, f_p^{-1}}), and the derived closed form is proved piece by piece.
"""

import sympy as sp

from symdp.proof import Derivation, Step, Verdict
from symdp.proof.convex_proofs import arith_proof, cp_closed_form_proof, unfolded_proof
from symdp.subsampling import subsample
from symdp.subsampling.eps_delta import cor_4_3, cor_4_3_line, cor_4_3_line_printed, cor_4_3_printed
from symdp.core.symbols import alpha, delta, eps, p
from symdp.tradeoff import EpsDelta, TradeOffAt

R = sp.Rational
CITE = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Cor. 4.3 and Eq. 14 (JRSS-B 84(1), 2022, Cor. 4.3)"
E = sp.exp(eps)
x_star = (1 - delta) / (1 + E)
eps1 = sp.log(1 - p + p * E)
delta1 = p * delta

# C_p(f_{eps,delta}) from Def. 4.1: biconjugate of min{f_p, f_p^{-1}}, evaluated from its
# definition at fixed parameters (Figure 6's, and a second point), alpha on a grid
FIG = {eps: 3, delta: R(1, 10), p: R(1, 5)}
OTHER = {eps: 1, delta: R(1, 2), p: R(1, 2)}


def _definition(point):
    """The definition route at a parameter point; its mpmath function is built once here, at
    load (the symbolic Legendre transform takes about a second, which the per-point time
    limit of the numeric stage should not be charged for)."""
    D = subsample(EpsDelta(point[eps], point[delta]), point[p]).definition()
    D.evaluate(R(1, 2), dps=15)
    return TradeOffAt(D, alpha)


def _fixed(point, alphas):
    hyp = {s: sp.FiniteSet(v) for s, v in point.items()}
    hyp[alpha] = sp.FiniteSet(*alphas)
    return hyp




def _chord(point):
    """x* and f_p(x*) at a parameter point (the ends of the chord of Eq. 14)."""
    xs = x_star.xreplace(point)
    return xs, point[p] * xs + (1 - point[p]) * (1 - xs)


def _refuted(name, point, note):
    xs, fxs = _chord(point)
    return Derivation(
        id=name,
        statement=(f"Cor. 4.3 as printed, C_p(f_{{eps,delta}}) = max{{f_{{eps',delta'}}, 1 - p delta - "
                   f"p (e^eps - 1)/(e^eps + 1) - alpha}}, fails on the chord of Eq. 14 at "
                   f"eps = {point[eps]}, delta = {point[delta]}, p = {point[p]}: the definition route "
                   f"(biconjugate of min{{f_p, f_p^{{-1}}}}) is strictly larger there."),
        citation=CITE,
        hypotheses=_fixed(point, (R(1, 5), R(1, 2))),
        chained=False,
        steps=(
            Step(_definition(point), "=",
                 cor_4_3_printed(point[eps], point[delta], point[p], alpha),
                 "Def. 4.1 (definition route) vs Cor. 4.3 as printed, on the chord",
                 side_conditions=(sp.Ge(alpha, xs), sp.Le(alpha, fxs)),
                 expect=Verdict.REFUTED, note=note),
        ),
    )


printed_refuted = _refuted(
    "cor_4_3_as_printed_is_refuted_for_positive_delta", FIG,
    "Cor. 4.3 as printed (its line has -p delta where Eq. 14 gives -2 p delta/(1 + e^eps)) is not "
    "C_p(f_{eps,delta}): counterexample at Figure 6's eps = 3, delta = 1/10, p = 1/5")
printed_refuted_second_point = _refuted(
    "cor_4_3_as_printed_is_refuted_at_a_second_point", OTHER,
    "Cor. 4.3 as printed fails again at eps = 1, delta = p = 1/2")

gap = Derivation(
    id="cor_4_3_printed_line_lies_below_the_chord",
    statement=("L(alpha) - L_printed(alpha) = p delta (e^eps - 1)/(e^eps + 1), positive for eps > 0, "
               "delta > 0, p > 0: the printed line is the chord of Eq. 14 lowered by that amount "
               "(a valid but strictly weaker bound where the chord is active)."),
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1), eps: sp.Interval.open(0, sp.oo),
                delta: sp.Interval.Lopen(0, 1), p: sp.Interval.Lopen(0, 1)},
    steps=(
        Step(cor_4_3_line(eps, delta, p) - cor_4_3_line_printed(eps, delta, p), "=",
             p * delta * (E - 1) / (E + 1), "algebra"),
        Step(p * delta * (E - 1) / (E + 1), ">", sp.S.Zero, "e^eps > 1, delta > 0, p > 0",
             proof=arith_proof()),
    ),
)

k_prime = (1 - delta1) / (1 + sp.exp(eps1))
f_ed = EpsDelta(eps, delta)
# f_p^{-1} on [f_p(x*), 1]: the second line of f_{eps',delta'} while positive, then 0
second_line = sp.Max(0, (1 - delta1 - alpha) / (1 - p + p * E))
f_prime = EpsDelta(eps1, delta1)
Cp = subsample(EpsDelta(eps, delta), p)
fp_star = p * x_star + (1 - p) * (1 - x_star)
on_left = (sp.Le(alpha, x_star),)
on_chord = (sp.Ge(alpha, x_star), sp.Le(alpha, fp_star))
on_right = (sp.Ge(alpha, fp_star),)

derived = Derivation(
    id="cp_eps_delta_eq_max_of_lemma_4_4_and_chord",
    statement=("C_p(f_{eps,delta}) = max{f_{eps',delta'}, L} with L(alpha) = 1 - p + 2p(1 - delta)/"
               "(1 + e^eps) - alpha, eps' = log(1 - p + p e^eps), delta' = p delta (Cor. 4.3 as "
               "derived from Eq. 14)."),
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1), eps: sp.Interval(0, sp.oo), delta: sp.Interval(0, 1),
                p: sp.Interval(0, 1)},
    chained=False,
    steps=(
        Step(p * (1 - delta - E * alpha) + (1 - p) * (1 - alpha), "=",
             1 - delta1 - sp.exp(eps1) * alpha,
             "Eq. 14, first piece: f_p on [0, x*] is the first line of f_{eps',delta'}"),
        Step(x_star + p * x_star + (1 - p) * (1 - x_star) - alpha, "=", cor_4_3_line(eps, delta, p),
             "Eq. 14, chord x* + f_p(x*) - alpha with x* = (1 - delta)/(1 + e^eps), f(x*) = x*"),
        Step(1 - delta1 - sp.exp(eps1) * (sp.exp(-eps1) * (1 - delta1 - alpha)), "=", alpha,
             "Eq. 14, third piece: f_p^{-1} = e^{-eps'}(1 - delta' - alpha), the second line of "
             "f_{eps',delta'} (it inverts the first)"),
        Step(k_prime - x_star, "=",
             (1 - p) * (E - 1 + 2 * delta) / ((E + 1) * (p * (E - 1) + 2)), "algebra"),
        Step((1 - p) * (E - 1 + 2 * delta) / ((E + 1) * (p * (E - 1) + 2)), ">=", sp.S.Zero,
             "so x* <= k' = (1 - delta')/(1 + e^{eps'}): on [0, x*] f_{eps',delta'} is its first line"),
        Step(Cp(alpha), "=", f_prime(alpha), "the Eq. 14 object on [0, x*]", side_conditions=on_left,
             proof=cp_closed_form_proof(f_ed, p, alpha, x_star)),
        Step(Cp(alpha), "=", cor_4_3_line(eps, delta, p), "the Eq. 14 object on the chord",
             side_conditions=on_chord, proof=cp_closed_form_proof(f_ed, p, alpha, x_star)),
        Step(Cp(alpha), "=", f_prime(alpha), "the Eq. 14 object on [f_p(x*), 1]",
             side_conditions=on_right,
             proof=cp_closed_form_proof(f_ed, p, alpha, x_star, inverse=second_line)),
        Step(cor_4_3_line(eps, delta, p), ">=", f_prime(alpha),
             "on the chord the line is the larger (the shaded triangle)", side_conditions=on_chord,
             proof=unfolded_proof()),
        Step(f_prime(alpha), ">=", cor_4_3_line(eps, delta, p),
             "off the chord f_{eps',delta'} is the larger (the chord supports it)",
             side_conditions=on_left, proof=unfolded_proof()),
        Step(f_prime(alpha), ">=", cor_4_3_line(eps, delta, p),
             "off the chord f_{eps',delta'} is the larger (the chord supports it)",
             side_conditions=on_right, proof=unfolded_proof()),
    ),
)


def _against_definition(name, point):
    xs, fxs = _chord(point)
    e, d, q = point[eps], point[delta], point[p]
    fprime = EpsDelta(sp.log(1 - q + q * sp.exp(e)), q * d)
    line = cor_4_3_line(e, d, q)
    F = EpsDelta(e, d)
    inverse = sp.Max(0, (1 - q * d - alpha) / (1 - q + q * sp.exp(e)))
    definition = TradeOffAt(subsample(F, q).definition(), alpha)
    return Derivation(
        id=name,
        statement=(f"At eps = {e}, delta = {d}, p = {q}: C_p(f_{{eps,delta}}) from the definition "
                   "(biconjugate of min{f_p, f_p^{-1}}) is f_{eps',delta'} off the chord and the "
                   "derived line L on it, for every alpha in [0, 1]."),
        citation=CITE,
        hypotheses={alpha: sp.Interval(0, 1)},
        chained=False,
        steps=(
            Step(definition, "=", fprime(alpha), "definition route on [0, x*]",
                 side_conditions=(sp.Le(alpha, xs),), proof=cp_closed_form_proof(F, q, alpha, xs)),
            Step(definition, "=", line, "definition route on the chord",
                 side_conditions=(sp.Ge(alpha, xs), sp.Le(alpha, fxs)),
                 proof=cp_closed_form_proof(F, q, alpha, xs)),
            Step(definition, "=", fprime(alpha), "definition route on [f_p(x*), 1]",
                 side_conditions=(sp.Ge(alpha, fxs),),
                 proof=cp_closed_form_proof(F, q, alpha, xs, inverse=inverse)),
        ),
    )


DERIVATIONS = [printed_refuted, printed_refuted_second_point, gap, derived,
               _against_definition("cp_eps_delta_from_definition_eq_derived_cor_4_3_figure6", FIG),
               _against_definition("cp_eps_delta_from_definition_eq_derived_cor_4_3_second_point",
                                   OTHER)]
