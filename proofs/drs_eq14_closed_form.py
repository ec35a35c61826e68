"""Eq. 14: the closed form of C_p(f) for a symmetric trade-off function f.

Dong, Roth, Su 2022, arXiv 1905.02383v3, Eq. 14 and App. F (JRSS-B 84(1), 2022, Eq. 4.2).
For symmetric f with fixed point x* = f(x*):
C_p(f) = f_p on [0, x*], x* + f_p(x*) - x on [x*, f_p(x*)], f_p^{-1} on [f_p(x*), 1].

Proved for every symmetric f (``eq14_closed_form_for_every_symmetric_f``) and for f_{eps,delta},
G_mu and the Laplace trade-off function with their parameters symbolic over their whole
domains, by the greatest-convex-minorant certificate (symdp/proof/kernel/convex.py): a
continuous convex h <= g that equals g outside finitely many intervals, on each of which it is
affine with both ends on the graph of g, is g** (Rockafellar, Convex Analysis, 1970, Thm. 12.2
and Cor. 12.1.1).  The obligations are derived from these lemmas, taken as axioms:

* Prop. 2.2 of Dong, Roth, Su 2022: a trade-off function takes values in [0, 1 - x], is
  non-increasing and convex; f_p and f_p^{-1} are trade-off functions;
* Eq. 4: f^{-1}(a) = inf{t : f(t) <= a} (its two bounds, and f(f^{-1}(a)) = a on [0, f(0)]);
  symmetric: f^{-1} = f;
* a trade-off function has a unique fixed point (intermediate values);
* the characterisation above, and convexity of a function glued from convex pieces whose
  slopes increase at the junctions (Rockafellar 1970, Sec. 24).

The scalar algebra of the argument, with -1 a subgradient of f at x* (facts (a)-(d)):
  (a) f_p(x*) - x* = (1 - p)(1 - 2x*) >= 0: the chord runs from (x*, f_p(x*)) to (f_p(x*), x*);
  (b) -1 is a subgradient of f_p = p f + (1-p) Id at x*, so the chord's line supports f_p
      (and, reflected -- the line is symmetric about the diagonal -- f_p^{-1});
  (c) f_p <= f_p^{-1} on [0, x*]: f_p(f_p(x)) >= x there (below), so min{f_p, f_p^{-1}} = f_p
      on [0, x*] and = f_p^{-1} on [f_p(x*), 1];
  (d) the slopes increase across the junctions (<= -1, = -1, >= -1): the three pieces are
      convex.
"""

import sympy as sp

from symdp import Phi
from symdp.proof import Derivation, Step
from symdp.proof.convex_proofs import eq14_proof
from symdp.subsampling.operator import definition_4_1, eq14_closed_form
from symdp.core.symbols import alpha, mu, p
from symdp.tradeoff import AbstractTradeOff, EpsDelta, Gaussian, Laplace, TradeOffAt

R = sp.Rational
CITE = "Dong, Roth, Su 2022, arXiv 1905.02383v3, Eq. 14 and App. F (JRSS-B 84(1), 2022, Eq. 4.2)"

xs = sp.Symbol("x_star", real=True)      # fixed point of f
x = sp.Symbol("x", real=True)            # a point of [0, x*]
u = sp.Symbol("u", real=True)            # 1 - x - f(x) >= 0 for x <= x*, or a slack >= 0
s = sp.Symbol("s", real=True)            # a subgradient of f
fx = sp.Symbol("f_x", real=True)         # f(x)

fp_xs = p * xs + (1 - p) * (1 - xs)      # f_p(x*) with f(x*) = x*

general = Derivation(
    id="eq14_closed_form_for_symmetric_f",
    statement=("For symmetric f with fixed point x* (-1 a subgradient at x*): the chord of Eq. 14 "
               "joins (x*, f_p(x*)) to (f_p(x*), x*) with f_p(x*) >= x*, its line supports f_p, "
               "f_p <= f_p^{-1} on [0, x*], and the three pieces are convex -- so they are "
               "min{f_p, f_p^{-1}}**."),
    citation=CITE,
    hypotheses={xs: sp.Interval(0, R(1, 2)), p: sp.Interval(0, 1), x: sp.Interval(0, R(1, 2)),
                u: sp.Interval(0, 1), s: sp.Interval(-1, 0), fx: sp.Interval(0, 1)},
    chained=False,
    steps=(
        Step(fp_xs - xs, "=", (1 - p) * (1 - 2 * xs),
             "(a) f_p(x*) - x* with f(x*) = x* (a symmetric f has x* <= 1/2)"),
        Step((1 - p) * (1 - 2 * xs), ">=", sp.S.Zero, "(a) so the chord runs rightwards"),
        Step(p * (-1) - (1 - p), "=", -1,
             "(b) -1 in the subdifferential of f at x* (symmetry) gives p(-1) - (1 - p) = -1 in "
             "that of f_p = p f + (1 - p) Id"),
        Step(p * (2 * xs - x + u) + (1 - p) * (1 - x) - (xs + fp_xs - x), "=", p * u,
             "(b) f(x) = 2x* - x + u, u >= 0 (f above its supporting line at x*): "
             "f_p(x) - (chord line) = p u"),
        Step(p * u, ">=", sp.S.Zero, "(b) the chord's line supports f_p"),
        Step(p * (x + s * (1 - p) * u) + (1 - p) * (1 - (p * (1 - x - u) + (1 - p) * (1 - x))), "=",
             x + p * (1 - p) * u * (s + 1),
             "(c) y = f_p(x) = f(x) + (1 - p)u with u = 1 - x - f(x); f(y) >= f(f(x)) + s (y - f(x)) "
             "= x + s (1 - p) u, s in the subdifferential at f(x) >= x*, so s >= -1"),
        Step(x + p * (1 - p) * u * (s + 1), ">=", x,
             "(c) f_p(f_p(x)) >= x, i.e. f_p^{-1}(x) >= f_p(x), for x in [0, x*]"),
    ),
)

# (d) with the left slope s_left <= -1 of f at x*
sl = sp.Symbol("s_left", real=True)
slopes = Derivation(
    id="eq14_slopes_increase_across_the_chord",
    statement=("With f'(x*-) = s_left <= -1: f_p'(x*-) = p s_left - (1 - p) <= -1 (left of the chord) "
               "and the slope of f_p^{-1} at f_p(x*)+ is 1/(p s_left - (1 - p)) >= -1 (right of it)."),
    citation=CITE,
    hypotheses={sl: sp.Interval(-sp.oo, -1), p: sp.Interval(0, 1)},
    chained=False,
    steps=(
        Step(p * sl - (1 - p) - (-1), "=", p * (sl + 1), "algebra"),
        Step(p * (sl + 1), "<=", sp.S.Zero, "s_left <= -1"),
        Step(1 / (p * sl - (1 - p)), ">=", -1, "the inverse's slope is the reciprocal"),
    ),
)

# ----------------------------------------------------------------- instances: hypotheses
eps_, delta_ = sp.symbols("varepsilon delta", real=True)
E = sp.exp(eps_)
hyp_all = {alpha: sp.Interval(0, 1), eps_: sp.Interval(0, sp.oo), delta_: sp.Interval(0, 1),
           mu: sp.Interval.open(0, sp.oo), p: sp.Interval(0, 1)}
z = sp.Dummy("z")
G_slope = sp.diff(Gaussian(mu).pieces()[0].g.expr.subs(Gaussian(mu).pieces()[0].g.variables[0], z), z)
L_mid = Laplace(mu).pieces()[1].g.expr
L_t = Laplace(mu).pieces()[1].g.variables[0]

instances = Derivation(
    id="eq14_hypotheses_hold_for_the_families",
    statement=("Fixed points and the slope -1 there: f_{eps,delta} at (1 - delta)/(1 + e^eps) "
               "(slopes -e^eps <= -1 <= -e^{-eps}), G_mu at Phi(-mu/2) (slope -1), Laplace at "
               "e^{-mu/2}/2 (slope -1)."),
    citation=CITE + "; families of Sec. 2",
    hypotheses=hyp_all,
    chained=False,
    steps=(
        Step(1 - delta_ - E * (1 - delta_) / (1 + E), "=", (1 - delta_) / (1 + E),
             "f(x*) = x*: both lines of f_{eps,delta} pass through ((1 - delta)/(1 + e^eps), same)"),
        Step(sp.exp(-eps_) * (1 - delta_ - (1 - delta_) / (1 + E)), "=", (1 - delta_) / (1 + E),
             "f(x*) = x* on the second line"),
        Step(-E, "<=", -1, "left slope of f_{eps,delta} at its kink"),
        Step(-1 / E, ">=", -1, "right slope of f_{eps,delta} at its kink"),
        Step(Gaussian(mu)(Phi(-mu / 2)), "=", Phi(-mu / 2), "f(x*) = x*"),
        Step(G_slope.subs(z, Phi(-mu / 2)), "=", -1, "G_mu'(x) = -exp(mu z - mu^2/2), z = Phi^{-1}(1 - x)"),
        Step(Laplace(mu)(sp.exp(-mu / 2) / 2), "=", sp.exp(-mu / 2) / 2, "f(x*) = x*"),
        Step(sp.diff(L_mid, L_t).subs(L_t, sp.exp(-mu / 2) / 2), "=", -1,
             "slope of e^{-mu}/(4x) at e^{-mu/2}/2"),
    ),
)


# ----------------------------------------------------------------- Eq. 14 = Def. 4.1, proved
# The greatest-convex-minorant certificate (kernel/convex.py): the kernel lists the
# obligations of the three pieces (order of the junctions, continuity, f_p <= f_p^{-1} on
# [0, x*], the chord below f_p and f_p^{-1} and supporting both, f_p^{-1} <= f_p on
# [f_p(x*), 1]) and replays the proof of each from the lemmas (the facts (a)-(d) above, now
# derived for every symmetric f instead of assumed).
f = AbstractTradeOff("f", symmetric=True)
EQ14 = ("Eq. 14 is min{f_p, f_p^{-1}}**: a convex minorant that is f_p, then the chord, then "
        "f_p^{-1}, touching the minimum outside the chord (greatest convex minorant)")

every_f = Derivation(
    id="eq14_closed_form_for_every_symmetric_f",
    statement=("For every symmetric trade-off function f with fixed point x* and every p in "
               "[0, 1]: f_p on [0, x*], x* + f_p(x*) - x on [x*, f_p(x*)] and f_p^{-1} on "
               "[f_p(x*), 1] is C_p(f) = min{f_p, f_p^{-1}}** (Def. 4.1)."),
    citation=CITE,
    hypotheses={alpha: sp.Interval(0, 1), p: sp.Interval(0, 1)},
    steps=(Step(eq14_closed_form(f, p, alpha), "=", TradeOffAt(definition_4_1(f, p), alpha),
                EQ14, proof=eq14_proof(f, p)),),
    notes=("f is an AbstractTradeOff declared symmetric: the proof uses only Prop. 2.2, Eq. 4, "
           "the fixed point and convex analysis (the axioms listed in kernel/convex.py)."),
)


def _family(name, F, hyp, x0, method="z3"):
    return Derivation(
        id=name,
        statement=(f"Eq. 14 for f = {F} is min{{f_p, f_p^{{-1}}}}** (Def. 4.1) for every "
                   f"parameter value: {', '.join(f'{s} in {sp.sstr(d)}' for s, d in hyp.items())}"
                   f"; the fixed point is x* = {sp.sstr(x0)}."),
        citation=CITE,
        hypotheses={alpha: sp.Interval(0, 1), **hyp},
        steps=(Step(eq14_closed_form(F, p, alpha, x0), "=",
                    TradeOffAt(definition_4_1(F, p), alpha), EQ14,
                    proof=eq14_proof(F, p, alpha, x0, fixed_point_method=method)),),
    )


UNIT_P = {p: sp.Interval(0, 1)}
DERIVATIONS = [
    general, slopes, instances, every_f,
    _family("eq14_eq_definition_for_eps_delta", EpsDelta(eps_, delta_),
            {eps_: sp.Interval(0, sp.oo), delta_: sp.Interval.Ropen(0, 1), **UNIT_P},
            (1 - delta_) / (1 + E)),
    _family("eq14_eq_definition_for_gaussian", Gaussian(mu), {mu: sp.Interval.open(0, sp.oo), **UNIT_P},
            Phi(-mu / 2), "Phi identities + simplify"),
    _family("eq14_eq_definition_for_gaussian_mu_2_5", Gaussian(R(5, 2)), UNIT_P, Phi(-R(5, 4)),
            "Phi identities + simplify"),
    _family("eq14_eq_definition_for_laplace", Laplace(mu), {mu: sp.Interval.open(0, sp.oo), **UNIT_P},
            sp.exp(-mu / 2) / 2),
    # mu = 3 as the one point of mu's set (the kernel's definedness check of exp(-3)/(4 alpha)
    # reads a symbolic mu, not the constant)
    _family("eq14_eq_definition_for_laplace_mu_3", Laplace(mu), {mu: sp.FiniteSet(3), **UNIT_P},
            sp.exp(-mu / 2) / 2),
]
