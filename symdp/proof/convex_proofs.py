r"""Proof scripts about trade-off functions (issue #28): untrusted, replayed by the kernel.

A script is a tuple of :class:`~symdp.proof.certificates.Inference`; the kernel
(:mod:`symdp.proof.kernel.convex`) replays it and accepts a step only if the step's claim
is its last judgement.  :class:`ProofBuilder` writes scripts one inference at a time and
asks the kernel's :func:`~symdp.proof.kernel.convex.derive` for each judgement as it goes
(a failure is found where it happens; the kernel's cache then makes the replay cheap).

:class:`SymmetricFacts` derives, for a symmetric trade-off function F (an
:class:`~symdp.tradeoff.abstract.AbstractTradeOff` declared symmetric, or a family) and
``p``, with :math:`x^* = F(x^*)`, :math:`f_p = pF + (1 - p)\mathrm{Id}`,
:math:`y^* = f_p(x^*)` and the chord line :math:`\ell(x) = x^* + y^* - x`, the facts Eq. 14
rests on -- each from the lemmas of Prop. 2.2, Eq. 4 and convexity:

* (F2) :math:`F(t) \ge 2x^* - t` on [0, 1]: the line of slope -1 through the fixed point
  supports F (convexity at the midpoint of t and F(t), :math:`F(F(t)) \le t`);
* :math:`F(s) > F(a)` for :math:`s < a \le x^*` (strictly decreasing left of x*), so
  :math:`F(F(a)) = a` there;
* :math:`F(u) \ge F(v) - (u - v)` for :math:`x^* \le v \le u` (slopes >= -1 right of x*);
* :math:`f_p(f_p(a)) \ge a` on [0, x*];
* (F3) :math:`\ell \le f_p` and :math:`\ell \le f_p^{-1}` on [0, 1];
* (F4) :math:`f_p \le f_p^{-1}` on [0, x*]; (F5) :math:`f_p^{-1} \le f_p` on [y*, 1];
  :math:`f_p^{-1}(y^*) = x^*`.

:func:`eq14_minorant` turns them into the :class:`~symdp.proof.certificates.MinorantCertificate`
of Eq. 14 = Def. 4.1.
"""

from __future__ import annotations

import sympy as sp

from .certificates import Domain, Inference, Judgement, LemmaCertificate, MinorantCertificate
from .kernel import convex as K

R = sp.Rational


class BuildError(Exception):
    """A script the kernel refuses while it is being written (the message says where)."""


def domain(params: Domain, *bound, conditions=()) -> Domain:
    """``params`` with bound variables ``(symbol, set)`` and conditions added."""
    return Domain(tuple(params.hypotheses) + tuple(bound), tuple(params.constraints),
                  tuple(params.side_conditions) + tuple(conditions))


UNIT = sp.Interval(0, 1)


class ProofBuilder:
    """Writes a proof script; each inference is checked by the kernel as it is added."""

    def __init__(self, check: bool = True):
        self.inferences = []
        self.judgements = []
        self.check = check

    def add(self, rule, data: dict, premises=(), note="") -> int:
        data = tuple(sorted(data.items(), key=lambda kv: kv[0]))
        inference = Inference(rule, data, tuple(premises), note)
        self.inferences.append(inference)
        if self.check:
            try:
                judgement = K.derive(inference, tuple(self.judgements[i] for i in premises))
            except K.Refused as exc:
                raise BuildError(f"inference {len(self.inferences)} ({rule} "
                                 f"{dict(data).get('name', '')} {note}): {exc}") from None
            self.judgements.append(judgement)
        return len(self.inferences) - 1

    def lemma(self, name, premises=(), note="", **data) -> int:
        return self.add("lemma", {"name": name, **data}, premises, note)

    def arith(self, lhs, rel, rhs, dom: Domain, premises=(), method="z3", note="") -> int:
        goal = Judgement(sp.sympify(lhs), rel, sp.sympify(rhs), dom)
        return self.add("arith", {"goal": goal, "method": method}, premises, note)

    def instantiate(self, index, mapping: dict, dom: Domain, helpers=(), note="") -> int:
        return self.add("instantiate", {"mapping": tuple(mapping.items()), "domain": dom},
                        (index,) + tuple(helpers), note)

    def rewrite(self, index, equality, backward=False, note="") -> int:
        return self.add("rewrite", {"backward": backward}, (index, equality), note)

    def cases(self, indices, dom: Domain, note="") -> int:
        return self.add("cases", {"domain": dom}, tuple(indices), note)

    def minorant(self, certificate, dom: Domain, note="") -> int:
        return self.add("minorant", {"certificate": certificate, "domain": dom}, (), note)

    def judgement(self, index) -> Judgement:
        return self.judgements[index]

    @property
    def proof(self) -> tuple:
        return tuple(self.inferences)

    def certificate(self, lhs, relation, rhs, stage="lemmas") -> LemmaCertificate:
        return LemmaCertificate(lhs, rhs, relation, stage, proof=self.proof)


def _at(g, x):
    from ..tradeoff.base import TradeOffAt

    return TradeOffAt(g, x)


def _inv(g, a):
    from ..tradeoff.base import InverseAt

    return InverseAt(g, a)


def fresh(name: str) -> sp.Symbol:
    """A bound variable of a script (a name no proof file uses)."""
    return sp.Symbol(f"_{name}", real=True)


class SymmetricFacts:
    """The facts of the module docstring for a symmetric trade-off function ``F`` and ``p``
    on the parameter domain ``params`` (p in [0, 1] there), written into ``builder``; each
    method returns the index of its judgement (built once)."""

    def __init__(self, builder: ProofBuilder, F, p, params: Domain):
        from ..tradeoff.abstract import FixedPoint
        from ..tradeoff.operators import Inverse, Mixture

        self.P, self.F, self.p, self.params = builder, F, sp.sympify(p), params
        self.xs = FixedPoint(F)
        self.A = Mixture(F, p)
        self.B = Inverse(self.A)
        self.ys = self.p * self.xs + (1 - self.p) * (1 - self.xs)
        self._memo = {}

    def _once(self, key, build):
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    def line(self, x):
        return self.xs + self.ys - x

    # ------------------------------------------------------------------ the fixed point
    def fixed_point(self):
        return self._once("fp", lambda: self.P.lemma("fixed_point", g=self.F, domain=self.params))

    def fixed_point_range(self):
        def build():
            lo = self.P.lemma("fixed_point_nonneg", g=self.F, domain=self.params)
            hi = self.P.lemma("fixed_point_le_one", g=self.F, domain=self.params)
            return lo, hi
        return self._once("fpr", build)

    def half(self):
        """x* <= 1/2 (F(x*) = x* <= 1 - x*)."""
        def build():
            lo, hi = self.fixed_point_range()
            le = self.P.lemma("tradeoff_le_id", (lo, hi), g=self.F, at=self.xs, domain=self.params)
            return self.P.arith(self.xs, "<=", R(1, 2), self.params, (self.fixed_point(), le))
        return self._once("half", build)

    def range_at(self, g, x, dom):
        """0 <= g(x) <= 1 - x on dom (x in [0, 1] there)."""
        key = ("range", g, x, dom)
        return self._once(key, lambda: (self.P.lemma("tradeoff_nonneg", g=g, at=x, domain=dom),
                                        self.P.lemma("tradeoff_le_id", g=g, at=x, domain=dom)))

    # ------------------------------------------------------------------ F2
    def supporting_line(self, t):
        """F(t) >= 2 x* - t for t in [0, 1] (t a bound variable)."""
        def build():
            F, xs, P = self.F, self.xs, self.P
            D = domain(self.params, (t, UNIT))
            nn, le = self.range_at(F, t, D)
            ft = _at(F, t)
            lo, hi = self.fixed_point_range()
            conv = P.lemma("tradeoff_convex", (nn, le), g=F, a=t, b=ft, lam=R(1, 2), domain=D,
                           note="convexity at the midpoint of t and F(t)")
            back = P.lemma("inverse_le", (nn, le), g=F, t=t, a=ft, domain=D)
            sym = P.lemma("symmetric_inverse", (nn, le), g=F, a=ft, domain=D)
            m = t / 2 + ft / 2
            anti = P.lemma("tradeoff_antitone", (nn, hi), g=F, a=m, b=xs,
                           domain=domain(D, conditions=(sp.Le(m, xs),)))
            return P.arith(ft, ">=", 2 * xs - t, D, (conv, back, sym, anti, self.fixed_point()),
                           note="F(t) < 2x* - t would put the midpoint left of x* and F below it")
        return self._once(("F2", t), build)

    def strictly_decreasing(self, s, a):
        """F(s) > F(a) for 0 <= s < a <= x*."""
        def build():
            F, xs, P = self.F, self.xs, self.P
            D = domain(self.params, (s, UNIT), (a, UNIT), conditions=(sp.Lt(s, a), sp.Le(a, xs)))
            t = fresh("t")
            f2 = self.supporting_line(t)
            at_s = P.instantiate(f2, {t: s}, D)
            at_a = P.instantiate(f2, {t: a}, D)
            lo, hi = self.fixed_point_range()
            lam = (xs - a) / (xs - s)
            conv = P.lemma("tradeoff_convex", (lo, hi), g=F, a=s, b=xs, lam=lam, domain=D)
            point = P.arith(lam * s + (1 - lam) * xs, "=", a, D)
            conv_a = P.rewrite(conv, point)
            return P.arith(_at(F, s), ">", _at(F, a), D,
                           (conv_a, at_s, at_a, self.fixed_point()))
        return self._once(("strict", s, a), build)

    def involution(self, a):
        """F(F(a)) = a for a in [0, x*]."""
        def build():
            F, xs, P = self.F, self.xs, self.P
            D = domain(self.params, (a, UNIT), conditions=(sp.Le(a, xs),))
            s = fresh("s")
            nn, le = self.range_at(F, a, D)
            strict = self.strictly_decreasing(s, a)
            ge = P.lemma("le_inverse", (nn, le, strict), g=F, a=_at(F, a), bound=a, t=s, domain=D)
            le_ = P.lemma("inverse_le", (nn, le), g=F, t=a, a=_at(F, a), domain=D)
            sym = P.lemma("symmetric_inverse", (nn, le), g=F, a=_at(F, a), domain=D)
            return P.arith(_at(F, _at(F, a)), "=", a, D, (ge, le_, sym))
        return self._once(("inv", a), build)

    def slopes_right(self, u, v):
        """F(u) >= F(v) - (u - v) for x* <= v <= u <= 1."""
        def build():
            F, xs, P = self.F, self.xs, self.P
            D = domain(self.params, (u, UNIT), (v, UNIT), conditions=(sp.Le(xs, v), sp.Le(v, u)))
            lo, hi = self.fixed_point_range()
            # u = x* (then v = u): antitone both ways
            Dlo = domain(D, conditions=(sp.Le(u, xs),))
            same = P.lemma("tradeoff_antitone", (lo, hi), g=F, a=u, b=v, domain=Dlo)
            left = P.arith(_at(F, u), ">=", _at(F, v) - (u - v), Dlo, (same,))
            # u > x*: convexity between x* and u at v
            Dhi = domain(D, conditions=(sp.Gt(u, xs),))
            lam = (u - v) / (u - xs)
            conv = P.lemma("tradeoff_convex", (lo, hi), g=F, a=xs, b=u, lam=lam, domain=Dhi)
            point = P.arith(lam * xs + (1 - lam) * u, "=", v, Dhi)
            conv_v = P.rewrite(conv, point)
            t = fresh("t")
            f2v = P.instantiate(self.supporting_line(t), {t: v}, Dhi)
            f2u = P.instantiate(self.supporting_line(t), {t: u}, Dhi)   # v = x*
            right = P.arith(_at(F, u), ">=", _at(F, v) - (u - v), Dhi,
                            (conv_v, f2v, f2u, self.fixed_point()))
            return P.cases((left, right), D)
        return self._once(("slopes", u, v), build)

    # ------------------------------------------------------------------ f_p
    def unfold(self, g, x, dom, helpers=()):
        return self._once(("unfold", g, x, dom),
                          lambda: self.P.lemma("unfold", helpers, term=_at(g, x), domain=dom))

    def mixture_twice(self, a):
        """f_p(f_p(a)) >= a for a in [0, x*]."""
        def build():
            F, A, xs, p, P = self.F, self.A, self.xs, self.p, self.P
            D = domain(self.params, (a, UNIT), conditions=(sp.Le(a, xs),))
            nnF, leF = self.range_at(F, a, D)
            nnA, leA = self.range_at(A, a, D)
            Aa = _at(A, a)
            ua = self.unfold(A, a, D)
            uAa = self.unfold(A, Aa, D, (nnA, leA))
            lo, hi = self.fixed_point_range()
            anti = P.lemma("tradeoff_antitone", (lo, hi), g=F, a=a, b=xs, domain=D)
            u, v = fresh("u"), fresh("v")
            slope = P.instantiate(self.slopes_right(u, v), {u: Aa, v: _at(F, a)}, D,
                                  (nnF, leF, nnA, leA, ua, anti, self.fixed_point()))
            inv = P.instantiate(self.involution(fresh("i")), {fresh("i"): a}, D)
            return P.arith(_at(A, Aa), ">=", a, D, (ua, uAa, slope, inv, nnF, leF))
        return self._once(("AA", a), build)

    def line_below_mixture(self, t):
        """l(t) <= f_p(t) for t in [0, 1] (F3, first half)."""
        def build():
            D = domain(self.params, (t, UNIT))
            return self.P.arith(self.line(t), "<=", _at(self.A, t), D,
                                (self.unfold(self.A, t, D), self.supporting_line(t)))
        return self._once(("lineA", t), build)

    def inverse_value(self, a, dom, helpers=()):
        """f_p^{-1}(a) written as B(a) = InverseAt(f_p, a) on dom."""
        return self.unfold(self.B, a, dom, helpers)

    def line_below_inverse(self, a):
        """l(a) <= f_p^{-1}(a) for a in [0, 1] (F3)."""
        def build():
            P, A = self.P, self.A
            D = domain(self.params, (a, UNIT))
            t = fresh("t")
            bound = P.lemma("le_inverse", (self.line_below_mixture(t),), g=A, a=a,
                            bound=self.line(a), t=t, domain=D)
            return P.arith(self.line(a), "<=", _at(self.B, a), D,
                           (bound, self.inverse_value(a, D)))
        return self._once(("lineB", a), build)

    def mixture_below_inverse(self, a):
        """f_p(a) <= f_p^{-1}(a) for a in [0, x*] (F4)."""
        def build():
            F, A, B, xs, p, P = self.F, self.A, self.B, self.xs, self.p, self.P
            D = domain(self.params, (a, UNIT), conditions=(sp.Le(a, xs),))
            Aa = _at(A, a)
            # p < 1: f_p is strictly decreasing, and f_p(f_p(a)) >= a
            Dlt = domain(D, conditions=(sp.Lt(p, 1),))
            t = fresh("t")
            Dt = domain(Dlt, (t, UNIT))
            nnA, leA = self.range_at(A, a, Dt)
            anti = P.lemma("tradeoff_antitone", (nnA, leA), g=F, a=t, b=Aa,
                           domain=domain(Dt, conditions=(sp.Le(t, Aa),)))
            ut = self.unfold(A, t, Dt)
            uAa = self.unfold(A, Aa, Dt, (nnA, leA))
            aa = P.instantiate(self.mixture_twice(fresh("m")), {fresh("m"): a}, Dt)
            strict = P.arith(t, ">=", Aa, domain(Dt, conditions=(sp.Le(_at(A, t), a),)),
                             (anti, ut, uAa, aa), note="t < f_p(a) would give f_p(t) > a")
            below = P.lemma("le_inverse", (strict,), g=A, a=a, bound=Aa, t=t, domain=Dlt)
            lt = P.arith(Aa, "<=", _at(B, a), Dlt, (below, self.inverse_value(a, Dlt)))
            # p = 1: f_p = F pointwise, and F is symmetric
            Deq = domain(D, conditions=(sp.Ge(p, 1),))
            Dq = domain(Deq, (t, UNIT))
            same = P.arith(_at(A, t), "=", _at(F, t), Dq, (self.unfold(A, t, Dq),))
            congr = P.lemma("inverse_congr", (same,), g=A, h=F, a=a, t=t, domain=Deq)
            sym = P.lemma("symmetric_inverse", g=F, a=a, domain=Deq)
            eq = P.arith(Aa, "<=", _at(B, a), Deq,
                         (congr, sym, self.unfold(A, a, Deq), self.inverse_value(a, Deq)))
            return P.cases((lt, eq), D)
        return self._once(("F4", a), build)

    def inverse_below_mixture(self, a):
        """f_p^{-1}(a) <= f_p(a) for a in [y*, 1] (F5)."""
        def build():
            A, B, xs, P = self.A, self.B, self.xs, self.P
            D = domain(self.params, (a, UNIT), conditions=(sp.Le(self.ys, a),))
            A0 = _at(A, sp.S.Zero)
            Bq = _inv(A, a)
            # a <= f_p(0): a = f_p(t0) with t0 = f_p^{-1}(a) in [0, x*]
            Din = domain(D, conditions=(sp.Le(a, A0),))
            lo, hi = self.fixed_point_range()
            back = P.lemma("apply_inverse", g=A, a=a, domain=Din)
            uxs = self.unfold(A, xs, Din, (lo, hi))
            to_xs = P.lemma("inverse_le", (lo, hi, uxs, self.fixed_point()), g=A, t=xs, a=a,
                            domain=Din)
            nnB = P.lemma("tradeoff_nonneg", g=B, at=a, domain=Din)
            uB = self.inverse_value(a, Din)
            w = fresh("w")
            aa = P.instantiate(self.mixture_twice(w), {w: Bq}, Din, (nnB, uB, to_xs, lo, hi))
            aa = P.rewrite(aa, back)
            inside = P.arith(_at(B, a), "<=", _at(A, a), Din, (aa, uB))
            # a >= f_p(0): f_p^{-1}(a) = 0
            Dout = domain(D, conditions=(sp.Ge(a, A0),))
            zero = P.lemma("inverse_le", g=A, t=sp.S.Zero, a=a, domain=Dout)
            nnA = P.lemma("tradeoff_nonneg", g=A, at=a, domain=Dout)
            outside = P.arith(_at(B, a), "<=", _at(A, a), Dout,
                              (zero, nnA, self.inverse_value(a, Dout)))
            return P.cases((inside, outside), D)
        return self._once(("F5", a), build)

    def inverse_at_chord_end(self):
        """f_p^{-1}(y*) = x*."""
        def build():
            P, A, xs, ys = self.P, self.A, self.xs, self.ys
            lo, hi = self.fixed_point_range()
            half = self.half()
            D = self.params
            uxs = self.unfold(A, xs, D, (lo, hi))
            le = P.lemma("inverse_le", (lo, hi, half, uxs, self.fixed_point()), g=A, t=xs, a=ys,
                         domain=D)
            a = fresh("a")
            ge = P.instantiate(self.line_below_inverse(a), {a: ys}, D, (lo, hi, half))
            uB = self.inverse_value(ys, D, (lo, hi, half))
            return P.arith(_inv(A, ys), "=", xs, D, (le, ge, uB))
        return self._once("Bys", build)


def eq14_minorant(F, p, x, params: Domain, x0=None, builder: ProofBuilder | None = None,
                  fixed_point_method: str = "z3"):
    """The :class:`MinorantCertificate` of ``eq14_closed_form(F, p, x, x0) = C_p(F)(x)`` by
    Def. 4.1, on ``params`` (with ``x`` in [0, 1]).  ``x0``: the fixed point in closed form
    (None: ``FixedPoint(F)``); ``F(x0) = x0`` is then shown by ``fixed_point_method`` (``"z3"``
    after unfolding F, or a rewriting such as ``"Phi identities + simplify"``).  Returns
    ``(certificate, builder, facts)``."""
    from ..subsampling.operator import eq14_closed_form
    from ..tradeoff.operators import ConvexEnvelope, PointwiseMin

    P = builder or ProofBuilder()
    S = SymmetricFacts(P, F, p, params)
    xs = S.xs
    lhs = eq14_closed_form(F, p, x, x0)
    rhs = _at(ConvexEnvelope(PointwiseMin(S.A, S.B)), x)
    D = domain(params, (x, UNIT))
    lo, hi = S.fixed_point_range()
    helpers = [S.fixed_point(), lo, hi]
    if x0 is not None and x0 != xs:
        # F(x0) = x0 for the closed form x0, so x0 is the fixed point
        at_x0 = P.lemma("unfold", term=_at(F, x0), domain=params)
        if fixed_point_method == "z3":
            value = P.arith(F.expr(x0), "=", x0, params)
        else:
            value = P.arith(F.expr(x0), "=", x0, params, method=fixed_point_method)
        fx0 = P.arith(_at(F, x0), "=", x0, params, (at_x0, value))
        unique = P.lemma("fixed_point_unique", (fx0,), g=F, x0=x0, domain=params)
        helpers += [unique, fx0, value]
    else:
        unique, x0 = None, xs
    y0 = S.p * x0 + (1 - S.p) * (1 - x0)

    def closed(j):
        """A judgement about x* as one about x0."""
        return P.rewrite(j, unique) if unique is not None else j

    a = x
    discharge = {}
    H = tuple(helpers)
    half = S.half()
    # order of the junctions
    discharge[("order", 0)] = (lo,) + H
    discharge[("order", 1)] = (half,) + H
    discharge[("order", 2)] = (half,) + H
    # continuity at x0 and at y0
    Dx0 = domain(params)
    at_x0 = helpers[-1] if unique is not None else S.fixed_point()
    discharge[("cont", 0)] = (at_x0,) + H
    discharge[("cont", 1)] = (closed(S.inverse_at_chord_end()),) + H
    # piece 1: the graph of f_p, below f_p^{-1}
    D1 = domain(D, conditions=(sp.Le(0, x), sp.Le(x, x0)))
    uA = P.lemma("unfold", term=_at(S.A, x), domain=D)
    if getattr(F, "is_abstract", False):
        discharge[("eq", 0)] = (uA,)
    else:
        uF = P.lemma("unfold", term=_at(F, x), domain=D)
        discharge[("eq", 0)] = (uA, uF)
    F4 = S.mixture_below_inverse(fresh("a"))
    F4x = P.instantiate(F4, {fresh("a"): x}, D1, H)
    discharge[("min", 0, 1)] = (F4x,)
    # piece 2: the chord, below f_p and f_p^{-1}, supporting both neighbours
    lineA = P.instantiate(S.line_below_mixture(fresh("t")), {fresh("t"): x}, D)
    lineB = P.instantiate(S.line_below_inverse(fresh("a")), {fresh("a"): x}, D)
    for key in (("below", 1, 0), ("support", 1, "left")):
        discharge[key] = (lineA,) + H
    for key in (("below", 1, 1), ("support", 1, "right")):
        discharge[key] = (lineB,) + H
    # piece 3: the graph of f_p^{-1}, below f_p
    D3 = domain(D, conditions=(sp.Le(y0, x), sp.Le(x, 1)))
    discharge[("eq", 2)] = (S.inverse_value(x, D),)
    F5 = S.inverse_below_mixture(fresh("a"))
    F5x = P.instantiate(F5, {fresh("a"): x}, D3, H)
    discharge[("min", 2, 0)] = (F5x,)
    kinds = (("graph", 0), ("chord",), ("graph", 1))
    cert = MinorantCertificate(lhs, rhs, "=", "lemmas", variable=x, kinds=kinds,
                               proof=P.proof, discharge=tuple(discharge.items()))
    del a
    return cert, P, S


# ====================================================================== step scripts
#
# Each ``*_proof`` below returns a callable ``proof(step, domain)`` for ``Step.proof``: it
# writes the script when the step is checked and returns the certificate of the step's claim.

def _params_of(dom: Domain, x) -> Domain:
    """The step's domain without the variable ``x`` and without the conditions on it."""
    return Domain(tuple((s, d) for s, d in dom.hypotheses if s != x),
                  tuple(c for c in dom.constraints if x not in c.free_symbols),
                  tuple(c for c in dom.side_conditions if x not in c.free_symbols))


def _full(dom: Domain, x) -> Domain:
    """The step's parameters with ``x`` over all of [0, 1]."""
    return domain(_params_of(dom, x), (x, UNIT))


def unfold_all(P: ProofBuilder, term, dom: Domain, helpers=()) -> list:
    """Unfold ``term`` (a value g(x)) through C_p, minima, mixtures, inverses and the families'
    formulas: the indices of the ``unfold`` judgements (their points shown in [0, 1] from
    ``helpers``)."""
    from ..tradeoff.base import TradeOff, TradeOffAt

    out, seen = [], set()
    todo = [n for n in sp.preorder_traversal(sp.sympify(term)) if isinstance(n, TradeOffAt)]
    while todo:
        e = todo.pop()
        if e in seen:
            continue
        seen.add(e)
        if not isinstance(e, TradeOffAt) or getattr(e.function, "is_abstract", False):
            continue
        if type(e.function).__name__ in ("ConvexEnvelope", "MechanismTradeOff"):
            continue
        i = P.lemma("unfold", tuple(helpers), term=e, domain=dom)
        out.append(i)
        rhs = P.judgement(i).rhs
        todo.extend(n for n in sp.preorder_traversal(rhs)
                    if isinstance(n, TradeOffAt) and isinstance(n.function, TradeOff))
    return out


def _finish(P: ProofBuilder, step, dom, premises, method="z3"):
    P.arith(step.lhs, step.relation, step.rhs, dom, tuple(premises), method=method)
    return P.certificate(step.lhs, step.relation, step.rhs)


def eq14_proof(F, p, x=None, x0=None, fixed_point_method="z3"):
    """``Step(eq14_closed_form(F, p, x, x0), "=", definition_4_1(F, p, x))`` proved by the
    greatest-convex-minorant certificate (:func:`eq14_minorant`)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        cert, _, _ = eq14_minorant(F, p, x, _params_of(dom, x), x0,
                                   fixed_point_method=fixed_point_method)
        return cert
    return proof


def inverse_closed_form(P: ProofBuilder, A, a, phi, dom: Domain, helpers=()) -> int:
    """``A^{-1}(a) = phi`` on ``dom`` (Eq. 4): ``A(phi) <= a`` and every t with ``A(t) <= a``
    is at least phi; ``A``'s values unfolded to the families' formulas, z3 for the rest."""
    t = fresh("t")
    Dt = domain(dom, (t, UNIT))
    at_phi = unfold_all(P, _at(A, phi), dom, helpers)
    le = P.lemma("inverse_le", tuple(helpers) + tuple(at_phi), g=A, t=phi, a=a, domain=dom)
    at_t = unfold_all(P, _at(A, t), Dt)
    ge = P.lemma("le_inverse", tuple(at_t) + tuple(helpers), g=A, a=a, bound=phi, t=t, domain=dom)
    return P.arith(_inv(A, a), "=", phi, dom, (le, ge))


def conjugate_attained_proof(F, y, x0, extra=()):
    """``1 + F^*(y) = rhs`` with the supremum of ``y x - F(x)`` attained at ``x0`` (an end
    point, a kink or a stationary point): ``F^*(y) >= y x0 - F(x0)`` (le_conjugate) and
    ``y t - F(t) <= y x0 - F(x0)`` for every t (z3 on F's formula; conjugate_le).  ``extra``:
    judgements of the step's domain to add (none needed for the families)."""
    def proof(step, dom):
        P = ProofBuilder()
        value = y * x0 - F.expr(x0)
        at_x0 = unfold_all(P, _at(F, x0), dom)
        low = P.lemma("le_conjugate", tuple(at_x0), g=F, y=y, at=x0, domain=dom)
        t = fresh("t")
        at_t = unfold_all(P, _at(F, t), domain(dom, (t, UNIT)))
        high = P.lemma("conjugate_le", tuple(at_t), g=F, y=y, bound=value, t=t, domain=dom)
        return _finish(P, step, dom, (low, high) + tuple(at_x0))
    return proof


def cp_closed_form_proof(F, p, x, x0, fixed_point_method="z3", inverse=None, extra=None):
    """``C_p(F)(x) REL rhs`` on the step's domain (a piece of Eq. 14): C_p unfolded (Def.
    4.1), Eq. 14 = Def. 4.1 by the minorant certificate, ``inverse`` (a closed form of
    f_p^{-1} at x on the step's domain, or None), the right side's values unfolded, z3."""
    from ..tradeoff.operators import Mixture

    def proof(step, dom):
        P = ProofBuilder()
        full = _full(dom, x)
        cert, _, S = eq14_minorant(F, p, x, _params_of(dom, x), x0, builder=P,
                                   fixed_point_method=fixed_point_method)
        eq14 = P.minorant(cert, full)
        premises = [eq14] + unfold_all(P, step.lhs, dom) + unfold_all(P, step.rhs, dom)
        if not getattr(F, "is_abstract", False):
            premises += unfold_all(P, _at(F, x), dom)
        if inverse is not None:
            premises.append(inverse_closed_form(P, Mixture(F, p), x, inverse, dom))
        if extra is not None:
            premises += list(extra(P, dom, S))
        return _finish(P, step, dom, premises)
    return proof


def cp_instance_proof(F, p_value, x_value, x0, inverse=None):
    """``... C_{p_value}(F)(x_value) ... REL rhs`` at a point: Eq. 14 = Def. 4.1 proved by the
    minorant certificate for F with p a bound variable over [0, 1] (x* = ``x0`` there),
    instantiated at ``p = p_value``, ``x = x_value`` (shown in their sets by the kernel), the
    sides' values unfolded, ``inverse`` (f_p^{-1}(x_value) in closed form, when x_value lies
    on f_p^{-1}'s piece), z3 -- so that the step rests on no closed form of symdp's ``doit``
    (issue #27: C_p's closed form is "derived", not checked by the kernel)."""
    from ..tradeoff.operators import Mixture

    def proof(step, dom):
        P = ProofBuilder()
        ps, xs = fresh("p"), fresh("x")
        params = Domain.of({ps: UNIT})
        x_star = sp.sympify(x0).subs(sp.Symbol("p", real=True), ps) if x0 is not None else None
        cert, _, _ = eq14_minorant(F, ps, xs, params, x_star, builder=P)
        eq14 = P.minorant(cert, domain(params, (xs, UNIT)))
        instance = P.instantiate(eq14, {ps: p_value, xs: x_value}, dom)
        premises = [instance] + unfold_all(P, step.lhs, dom) + unfold_all(P, step.rhs, dom)
        if inverse is not None:
            premises.append(inverse_closed_form(P, Mixture(F, p_value), x_value, inverse, dom))
        return _finish(P, step, dom, premises)
    return proof


def unfolded_proof(method="z3"):
    """A step whose sides' trade-off values, unfolded to the families' formulas (and C_p,
    minima, mixtures), satisfy the relation by z3 -- no lemma beyond the definitions."""
    def proof(step, dom):
        P = ProofBuilder()
        premises = unfold_all(P, step.lhs, dom) + unfold_all(P, step.rhs, dom)
        return _finish(P, step, dom, premises, method)
    return proof


def arith_proof(method="z3"):
    """A step that is real arithmetic with exp/log facts (no trade-off function)."""
    def proof(step, dom):
        P = ProofBuilder()
        return _finish(P, step, dom, (), method)
    return proof


def inverse_proof(A, phi, x=None):
    """``A^{-1}(x) = phi`` written as ``Inverse(A)(x)`` or ``InverseAt(A, x)``: the inverse
    closed form (:func:`inverse_closed_form`), the right side unfolded."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        inv = inverse_closed_form(P, A, x, phi, dom)
        premises = [inv] + unfold_all(P, step.lhs, dom) + unfold_all(P, step.rhs, dom)
        return _finish(P, step, dom, premises)
    return proof


# ---------------------------------------------------------------------- Def. 4.1's properties

class CpFacts:
    """Facts about C_p(F) = min{f_p, f_p^{-1}}** for a symmetric trade-off function F (Def.
    4.1), the bound variable of each judgement named by the caller."""

    def __init__(self, P: ProofBuilder, F, p, params: Domain):
        from ..subsampling.operator import Subsampled
        from ..tradeoff.operators import ConvexEnvelope, Inverse, Mixture, PointwiseMin

        self.P, self.F, self.p, self.params = P, F, sp.sympify(p), params
        self.A = Mixture(F, p)
        self.B = Inverse(self.A)
        self.h = PointwiseMin(self.A, self.B)
        self.E = ConvexEnvelope(self.h)
        self.C = Subsampled(F, p)

    def cp_is_envelope(self, x, dom):
        """C_p(F)(x) = min{f_p, f_p^{-1}}**(x) (Def. 4.1)."""
        return self.P.lemma("unfold", term=_at(self.C, x), domain=dom)

    def min_at(self, t, dom):
        """min{f_p, f_p^{-1}}(t) unfolded, f_p and f_p^{-1} with their ranges."""
        P, A, B = self.P, self.A, self.B
        return [P.lemma("unfold", term=_at(self.h, t), domain=dom),
                P.lemma("tradeoff_nonneg", g=A, at=t, domain=dom),
                P.lemma("tradeoff_le_id", g=A, at=t, domain=dom),
                P.lemma("tradeoff_nonneg", g=B, at=t, domain=dom),
                P.lemma("tradeoff_le_id", g=B, at=t, domain=dom)]

    def nonneg(self, x, dom):
        """C_p(F)(x) >= 0: the zero function is an affine minorant."""
        P = self.P
        t = fresh("t")
        Dt = domain(dom, (t, UNIT))
        low = P.lemma("affine_le_envelope", tuple(self.min_at(t, Dt)), h=self.h, c0=sp.S.Zero,
                      c1=sp.S.Zero, at=x, t=t, domain=dom)
        return P.arith(_at(self.C, x), ">=", 0, dom, (low, self.cp_is_envelope(x, dom)))

    def le_id(self, x, dom):
        """C_p(F)(x) <= 1 - x: h** <= h <= f_p <= Id."""
        P = self.P
        le = P.lemma("envelope_le", h=self.h, at=x, domain=dom)
        return P.arith(_at(self.C, x), "<=", 1 - x, dom,
                       (le, self.cp_is_envelope(x, dom)) + tuple(self.min_at(x, dom)))

    def ge_base(self, x, dom):
        """F(x) <= C_p(F)(x): F <= f_p, F = F^{-1} <= f_p^{-1}, F = F** (F convex)."""
        P, F, A = self.P, self.F, self.A
        t, a = fresh("t"), fresh("a")
        Dt = domain(dom, (t, UNIT))
        le_id = P.lemma("tradeoff_le_id", g=F, at=t, domain=Dt)
        below_A = P.arith(_at(F, t), "<=", _at(A, t), Dt,
                          (le_id, P.lemma("unfold", term=_at(A, t), domain=Dt)))
        # F(a) <= f_p^{-1}(a): every t with f_p(t) <= a has F(t) <= a, so F^{-1}(a) <= t
        Dat = domain(Dt, (a, UNIT), conditions=(sp.Le(_at(A, t), a),))
        to_t = P.lemma("inverse_le", (below_A,), g=F, t=t, a=a, domain=Dat)
        Da = domain(dom, (a, UNIT))
        sym = P.lemma("symmetric_inverse", g=F, a=a, domain=Dat)
        bound = P.arith(t, ">=", _at(F, a), Dat, (to_t, sym))
        inv = P.lemma("le_inverse", (bound,), g=A, a=a, bound=_at(F, a), t=t, domain=Da)
        below_B = P.arith(_at(F, a), "<=", _at(self.B, a), Da,
                          (inv, P.lemma("unfold", term=_at(self.B, a), domain=Da)))
        below_B_t = P.instantiate(below_B, {a: t}, Dt)
        below_min = P.arith(_at(F, t), "<=", _at(self.h, t), Dt,
                            (below_A, below_B_t, P.lemma("unfold", term=_at(self.h, t), domain=Dt)))
        from ..tradeoff.operators import ConvexEnvelope

        mono = P.lemma("envelope_mono", (below_min,), h1=F, h2=self.h, at=x, t=t, domain=dom)
        same = P.lemma("envelope_of_tradeoff", g=F, at=x, domain=dom)
        del ConvexEnvelope
        return P.arith(_at(F, x), "<=", _at(self.C, x), dom,
                       (mono, same, self.cp_is_envelope(x, dom)))

    def below(self, other: "CpFacts", x, dom, base_le=None):
        """C_p(F)(x) <= C_q(G)(x) when f_p <= g_q (``base_le``: the index of that judgement
        on [0, 1] in the bound variable ``fresh("t")``; None: p >= q, F = G)."""
        P = self.P
        t, a = fresh("t"), fresh("a")
        Dt = domain(dom, (t, UNIT))
        if base_le is None:
            le_id = P.lemma("tradeoff_le_id", g=self.F, at=t, domain=Dt)
            base_le = P.arith(_at(self.A, t), "<=", _at(other.A, t), Dt,
                              (le_id, P.lemma("unfold", term=_at(self.A, t), domain=Dt),
                               P.lemma("unfold", term=_at(other.A, t), domain=Dt)))
        # f_p^{-1}(a) <= g_q^{-1}(a): every t with g_q(t) <= a has f_p(t) <= a
        Dat = domain(Dt, (a, UNIT), conditions=(sp.Le(_at(other.A, t), a),))
        to_t = P.lemma("inverse_le", (base_le,), g=self.A, t=t, a=a, domain=Dat)
        Da = domain(dom, (a, UNIT))
        inv = P.lemma("le_inverse", (to_t,), g=other.A, a=a, bound=_inv(self.A, a), t=t,
                      domain=Da)
        inv_le = P.arith(_at(self.B, a), "<=", _at(other.B, a), Da,
                         (inv, P.lemma("unfold", term=_at(self.B, a), domain=Da),
                          P.lemma("unfold", term=_at(other.B, a), domain=Da)))
        inv_t = P.instantiate(inv_le, {a: t}, Dt)
        mins = P.arith(_at(self.h, t), "<=", _at(other.h, t), Dt,
                       (base_le, inv_t, P.lemma("unfold", term=_at(self.h, t), domain=Dt),
                        P.lemma("unfold", term=_at(other.h, t), domain=Dt)))
        mono = P.lemma("envelope_mono", (mins,), h1=self.h, h2=other.h, at=x, t=t, domain=dom)
        return P.arith(_at(self.C, x), "<=", _at(other.C, x), dom,
                       (mono, self.cp_is_envelope(x, dom), other.cp_is_envelope(x, dom)))

    def convex(self, a, b, lam, dom):
        """C_p(F)(lam a + (1 - lam) b) <= lam C(a) + (1 - lam) C(b)."""
        P = self.P
        conv = P.lemma("envelope_convex", h=self.h, a=a, b=b, lam=lam, domain=dom)
        return P.arith(_at(self.C, lam * a + (1 - lam) * b), "<=",
                       lam * _at(self.C, a) + (1 - lam) * _at(self.C, b), dom,
                       (conv, self.cp_is_envelope(lam * a + (1 - lam) * b, dom),
                        self.cp_is_envelope(a, dom), self.cp_is_envelope(b, dom)))

    def antitone(self, a, b, dom):
        """a <= b gives C(b) <= C(a): C convex, C >= 0 and C(1) <= 0 (a < 1), or a = b = 1."""
        P = self.P
        lo = domain(dom, conditions=(sp.Lt(a, 1),))
        lam = (1 - b) / (1 - a)
        conv = P.lemma("envelope_convex", h=self.h, a=a, b=sp.S.One, lam=lam, domain=lo)
        point = P.arith(lam * a + (1 - lam), "=", b, lo)
        conv_b = P.rewrite(conv, point)
        one = self.le_id(sp.S.One, lo)
        pos = self.nonneg(a, lo)
        moved = P.arith(_at(self.C, b), "<=", _at(self.C, a), lo,
                        (conv_b, one, pos, self.cp_is_envelope(a, lo), self.cp_is_envelope(b, lo),
                         self.cp_is_envelope(sp.S.One, lo)))
        hi = domain(dom, conditions=(sp.Ge(a, 1),))
        same = P.arith(_at(self.C, b), "<=", _at(self.C, a), hi)    # a = b = 1: congruence
        return P.cases((moved, same), dom)


def cp_ge_base_proof(F, p, x=None):
    """``F(x) <= C_p(F)(x)`` for a symmetric trade-off function F."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        CpFacts(P, F, p, _params_of(dom, x)).ge_base(x, dom)
        return _finish(P, step, dom, (len(P.inferences) - 1,))
    return proof


def cp_monotone_proof(F, p, q, x=None):
    """``C_q(F)(x) <= C_p(F)(x)`` for p <= q (the step's domain)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        params = _params_of(dom, x)
        Cq, Cp = CpFacts(P, F, q, params), CpFacts(P, F, p, params)
        return _finish(P, step, dom, (Cq.below(Cp, x, dom),))
    return proof


def cp_order_proof(F, G, p, x=None, order=None):
    """``C_p(F)(x) <= C_p(G)(x)`` from F <= G on [0, 1] (``order``: a function writing that
    judgement in the bound variable ``fresh("t")`` into the builder; None: the declaration
    of an abstract F, lemma ``declared_order``)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        params = _params_of(dom, x)
        CF, CG = CpFacts(P, F, p, params), CpFacts(P, G, p, params)
        t = fresh("t")
        Dt = domain(dom, (t, UNIT))
        le = order(P, Dt, t) if order is not None else \
            P.lemma("declared_order", f=F, g=G, at=t, domain=Dt)
        base = P.arith(_at(CF.A, t), "<=", _at(CG.A, t), Dt,
                       (le, P.lemma("unfold", term=_at(CF.A, t), domain=Dt),
                        P.lemma("unfold", term=_at(CG.A, t), domain=Dt)))
        return _finish(P, step, dom, (CF.below(CG, x, dom, base),))
    return proof


def cp_property_proof(F, p, which, x=None, a=None, b=None):
    """One property of C_p(F) as a trade-off function (Prop. 2.2): ``which`` in
    ``"nonneg"``, ``"le_id"``, ``"antitone"`` (a <= b), ``"convex"`` (midpoints)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        params = Domain(tuple((s, d) for s, d in dom.hypotheses if s not in (x, a, b)),
                        (), ())
        S = CpFacts(P, F, p, params)
        if which == "nonneg":
            last = S.nonneg(x, dom)
        elif which == "le_id":
            last = S.le_id(x, dom)
        elif which == "antitone":
            last = S.antitone(a, b, dom)
        elif which == "convex":
            last = S.convex(a, b, R(1, 2), dom)
        else:
            raise ValueError(which)
        return _finish(P, step, dom, [last] + unfold_all(P, step.rhs, dom)
                       if which == "le_id" else (last,))
    return proof


# ---------------------------------------------------------------------- Sec. 4.2: Thm. 4.2

def _mechanism_tradeoff(M):
    from ..subsampling.mechanism import MechanismTradeOff

    return MechanismTradeOff(M)


def profile_bounds(P: ProofBuilder, f, e, dom: Domain):
    """0 <= 1 + f^*(-e^eps) <= 1 for a trade-off function f (at x = 0: f^* >= -f(0) >= -1;
    y x - f(x) <= 0 for y <= 0)."""
    from ..tradeoff.base import ConjugateAt

    y = -sp.exp(e)
    z = sp.S.Zero
    f0 = P.lemma("tradeoff_le_id", g=f, at=z, domain=dom)
    at0 = P.lemma("le_conjugate", g=f, y=y, at=z, domain=dom)
    t = fresh("t")
    nn = P.lemma("tradeoff_nonneg", g=f, at=t, domain=domain(dom, (t, UNIT)))
    top = P.lemma("conjugate_le", (nn,), g=f, y=y, bound=sp.S.Zero, t=t, domain=dom)
    low = P.arith(1 + ConjugateAt(f, y), ">=", 0, dom, (f0, at0))
    return low, top


def primal_dual(P: ProofBuilder, f, e, x, dom: Domain):
    """Prop. 2.12, first half, for a symmetric trade-off function f: f(x) >= f_{eps,
    delta_f(eps)}(x) with delta_f(eps) = 1 + f^*(-e^eps) -- the first line lies below f by
    the definition of f^* (at x), the second by it at f(x) and f(f(x)) <= x (symmetry)."""
    from ..tradeoff.base import ConjugateAt
    from ..tradeoff.families import EpsDelta

    y = -sp.exp(e)
    nn = P.lemma("tradeoff_nonneg", g=f, at=x, domain=dom)
    le = P.lemma("tradeoff_le_id", g=f, at=x, domain=dom)
    first = P.lemma("le_conjugate", g=f, y=y, at=x, domain=dom)
    second = P.lemma("le_conjugate", (nn, le), g=f, y=y, at=_at(f, x), domain=dom)
    back = P.lemma("inverse_le", (nn, le), g=f, t=x, a=_at(f, x), domain=dom)
    sym = P.lemma("symmetric_inverse", (nn, le), g=f, a=_at(f, x), domain=dom)
    low, top = profile_bounds(P, f, e, dom)
    guarantee = EpsDelta(e, 1 + ConjugateAt(f, y))
    unfold = P.lemma("unfold", (low, top), term=_at(guarantee, x), domain=dom)
    return P.arith(_at(f, x), ">=", _at(guarantee, x), dom,
                   (first, second, back, sym, nn, unfold),
                   note="f >= f_{eps, delta_f(eps)}: both lines of it lie below f")


def mixture_conjugate(P: ProofBuilder, F, p, y, dom: Domain) -> int:
    """``f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p)`` for p > 0 on dom: each bound by the
    other through le_conjugate and conjugate_le."""
    from ..tradeoff.base import ConjugateAt
    from ..tradeoff.operators import Mixture

    A = Mixture(F, p)
    z = (y + 1 - p) / p
    t = fresh("t")
    Dt = domain(dom, (t, UNIT))
    uA = P.lemma("unfold", term=_at(A, t), domain=Dt)
    cF = P.lemma("le_conjugate", g=F, y=z, at=t, domain=Dt)
    up = P.lemma("conjugate_le", (uA, cF), g=A, y=y, bound=p * ConjugateAt(F, z) - (1 - p), t=t,
                 domain=dom)
    cA = P.lemma("le_conjugate", g=A, y=y, at=t, domain=Dt)
    down = P.lemma("conjugate_le", (uA, cA), g=F, y=z, bound=(ConjugateAt(A, y) + 1 - p) / p,
                   t=t, domain=dom)
    return P.arith(ConjugateAt(A, y), "=", p * ConjugateAt(F, z) - (1 - p), dom, (up, down))


def profile_condition(P: ProofBuilder, S: "SymmetricFacts", h, dom: Domain) -> int:
    """Prop. 4.5's condition for g = f_p: f_p^*(-e^eta) >= (f_p^{-1})^*(-e^eta), i.e.
    delta_{f_p} >= delta_{f_p^{-1}}: for t <= x*, f_p^{-1}(t) >= f_p(t) (F4); for t >= x*,
    f_p^{-1}(t) >= x* + y* - t (F3), and s t + x* + y* - t >= s x* + f_p(x*) for s = e^eta >= 1."""
    from ..tradeoff.base import ConjugateAt

    y = -sp.exp(h)
    a = fresh("a")
    Da = domain(dom, (a, UNIT))
    lo, hi = S.fixed_point_range()
    at_a = P.lemma("le_conjugate", g=S.A, y=y, at=a, domain=Da)
    at_xs = P.lemma("le_conjugate", (lo, hi), g=S.A, y=y, at=S.xs, domain=dom)
    uxs = S.unfold(S.A, S.xs, dom, (lo, hi))
    bound = P.lemma("conjugate_le",
                    (S.mixture_below_inverse(a), S.line_below_inverse(a), at_a, at_xs, uxs,
                     S.fixed_point(), P.lemma("unfold", term=_at(S.B, a), domain=Da)),
                    g=S.B, y=y, bound=ConjugateAt(S.A, y), t=a, domain=dom)
    return P.arith(ConjugateAt(S.A, y), ">=", ConjugateAt(S.B, y), dom, (bound,))


def envelope_profile(P: ProofBuilder, g, y, condition, dom: Domain) -> int:
    """``(min{g, g^{-1}}**)^*(y) = g^*(y)`` given ``condition``: g^*(y) >= (g^{-1})^*(y)
    (h*** = h*; the conjugate of a minimum is the larger conjugate)."""
    from ..tradeoff.base import ConjugateAt
    from ..tradeoff.operators import ConvexEnvelope, Inverse, PointwiseMin

    B = Inverse(g)
    h = PointwiseMin(g, B)
    env = P.lemma("conjugate_of_envelope", h=h, y=y, domain=dom)
    t = fresh("t")
    Dt = domain(dom, (t, UNIT))
    uh = P.lemma("unfold", term=_at(h, t), domain=Dt)
    cg = P.lemma("le_conjugate", g=g, y=y, at=t, domain=Dt)
    cB = P.lemma("le_conjugate", g=B, y=y, at=t, domain=Dt)
    up = P.lemma("conjugate_le", (uh, cg, cB, condition), g=h, y=y, bound=ConjugateAt(g, y), t=t,
                 domain=dom)
    ch = P.lemma("le_conjugate", g=h, y=y, at=t, domain=Dt)
    down = P.lemma("conjugate_le", (uh, ch), g=g, y=y, bound=ConjugateAt(h, y), t=t, domain=dom)
    return P.arith(ConjugateAt(ConvexEnvelope(h), y), "=", ConjugateAt(g, y), dom,
                   (env, up, down))


def prop_4_5(P: ProofBuilder, T, g, h, x, guarantee, condition, dom: Domain) -> int:
    """Prop. 4.5 (Dong, Roth, Su 2022, special case of Prop. F.2): from ``guarantee``
    T(x) >= f_{eta, delta_g(eta)}(x) for every eta >= 0 (on dom + eta) and ``condition``
    delta_g >= delta_{g^{-1}} (on dom without x, + eta), T(x) >= min{g, g^{-1}}**(x): the
    envelope's profile is delta_g (:func:`envelope_profile`) and it is a symmetric trade-off
    function, so Prop. 2.12 applies to it."""
    from ..tradeoff.operators import ConvexEnvelope, Inverse, PointwiseMin

    k = ConvexEnvelope(PointwiseMin(g, Inverse(g)))
    y = -sp.exp(h)
    cond_dom = P.judgement(condition).domain
    same = envelope_profile(P, g, y, condition, cond_dom)
    moved = P.rewrite(guarantee, same, backward=True)
    return P.lemma("prop_2_12_dual", (moved,), T=T, k=k, eps=h, at=x, domain=dom)


def thm_4_2_proof(M, f, p, x=None):
    """Thm. 4.2: ``T(M o Sample)(x) >= C_p(f)(x)`` for M f-DP, f a symmetric trade-off
    function, 0 <= p <= 1, as Sec. 4.2 argues it (module docstring of
    proofs/drs_thm_4_2_proof.py): Prop. 2.12, Lemma 4.4, Eq. 16, Prop. 4.5 with its condition
    for f_p; p = 0 apart (Lemma 4.4 gives f_{0,0} = Id there)."""
    from ..subsampling.mechanism import SampledMechanism
    from ..tradeoff.base import ConjugateAt, alpha
    from ..tradeoff.families import EpsDelta

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        params = _params_of(dom, x)
        TM = _mechanism_tradeoff(M)
        TS = _mechanism_tradeoff(SampledMechanism(M, p))
        e, h = fresh("e"), fresh("h")
        y = -sp.exp(e)

        def guarantee_of_sample(D):
            """T(M o Sample)(x) >= f_{eps', p delta_f(eps)}(x) on D (+ eps): Prop. 2.12 and
            Lemma 4.4."""
            De = domain(D, (e, sp.Interval(0, sp.oo)))
            dp = P.lemma("dp_hypothesis", mechanism=M, at=x, domain=De)
            primal = primal_dual(P, f, e, x, De)
            low, top = profile_bounds(P, f, e, De)
            m_dp = P.arith(_at(TM, x), ">=", _at(EpsDelta(e, 1 + ConjugateAt(f, y)), x), De,
                           (dp, primal), note="M is (eps, delta_f(eps))-DP")
            return P.lemma("lemma_4_4", (m_dp, low, top), mechanism=M, p=p, eps=e,
                           delta=1 + ConjugateAt(f, y), at=x, domain=De), De

        # 0 < p <= 1
        Dpos = domain(dom, conditions=(sp.Gt(p, 0),))
        sampled, De = guarantee_of_sample(Dpos)
        ppos = domain(params, conditions=(sp.Gt(p, 0),))
        Pe = domain(ppos, (e, sp.Interval(0, sp.oo)))
        mix = mixture_conjugate(P, f, p, -(1 - p + p * sp.exp(e)), Pe)
        eq16 = P.arith(p * (1 + ConjugateAt(f, y)), "=",
                       1 + ConjugateAt(S_A(f, p), -(1 - p + p * sp.exp(e))), Pe, (mix,),
                       note="Eq. 16: p delta_f(eps) = delta_{f_p}(eps')")
        sampled = P.rewrite(sampled, eq16)
        Dh = domain(Dpos, (h, sp.Interval(0, sp.oo)))
        back = sp.log((sp.exp(h) - 1 + p) / p)
        sampled = P.instantiate(sampled, {e: back}, Dh,
                                note="eps' runs over [0, oo) as eps does (p > 0)")
        S = SymmetricFacts(P, f, p, ppos)
        Ph = domain(ppos, (h, sp.Interval(0, sp.oo)))
        condition = profile_condition(P, S, h, Ph)
        pos = prop_4_5(P, TS, S.A, h, x, sampled, condition, Dpos)
        C = CpFacts(P, f, p, ppos)
        pos = P.arith(_at(TS, x), ">=", _at(C.C, x), Dpos, (pos, C.cp_is_envelope(x, Dpos)))
        # p = 0: f_{0,0} = Id >= C_0(f)
        Dzero = domain(dom, conditions=(sp.Le(p, 0),))
        sampled0, De0 = guarantee_of_sample(Dzero)
        at0 = P.instantiate(sampled0, {e: sp.S.Zero}, Dzero)
        g0 = P.judgement(at0).rhs
        unfold0 = P.lemma("unfold", term=g0, domain=Dzero)
        C0 = CpFacts(P, f, p, domain(params, conditions=(sp.Le(p, 0),)))
        zero = P.arith(_at(TS, x), ">=", _at(C0.C, x), Dzero, (at0, unfold0, C0.le_id(x, Dzero)))
        P.cases((pos, zero), dom)
        return P.certificate(step.lhs, step.relation, step.rhs)
    return proof


def S_A(f, p):
    from ..tradeoff.operators import Mixture

    return Mixture(f, p)


def prop_4_5_proof(N, g, x=None):
    """Prop. 4.5 for N declared (eps, delta_g(eps))-DP and g declared with
    delta_g >= delta_{g^{-1}}: T(N)(x) >= min{g, g^{-1}}**(x)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        h = fresh("h")
        params = _params_of(dom, x)
        Dh = domain(dom, (h, sp.Interval(0, sp.oo)))
        guarantee = P.lemma("dp_profile_hypothesis", mechanism=N, eps=h, at=x, domain=Dh)
        condition = P.lemma("declared_profile_condition", g=g, eps=h,
                            domain=domain(params, (h, sp.Interval(0, sp.oo))))
        prop_4_5(P, _mechanism_tradeoff(N), g, h, x, guarantee, condition, dom)
        return P.certificate(step.lhs, step.relation, step.rhs)
    return proof


def inverse_lower_proof(A, lower, split, x=None):
    """``Inverse(A)(x) >= lower(x)`` for a symmetric trade-off function ``lower`` with
    ``A >= lower`` on [0, 1] (z3 on both formulas, on [0, split] and [split, 1]): every t
    with ``A(t) <= x`` has ``lower(t) <= x``, so ``t >= lower^{-1}(x) = lower(x)`` -- here
    by z3 on lower's formula (le_inverse)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        t = fresh("t")
        params = _params_of(dom, x)
        Dt = domain(params, (t, UNIT))
        at_t = unfold_all(P, _at(A, t), Dt) + unfold_all(P, _at(lower, t), Dt)
        left = P.arith(_at(A, t), ">=", _at(lower, t), domain(Dt, conditions=(sp.Le(t, split),)),
                       at_t)
        right = P.arith(_at(A, t), ">=", _at(lower, t), domain(Dt, conditions=(sp.Ge(t, split),)),
                        at_t)
        above = P.cases((left, right), Dt)
        Dxt = domain(dom, (t, UNIT))
        low = P.lemma("le_inverse", (above, P.lemma("unfold", term=_at(lower, t), domain=Dxt))
                      + tuple(unfold_all(P, _at(lower, x), dom)),
                      g=A, a=x, bound=_at(lower, x), t=t, domain=dom)
        return _finish(P, step, dom, [low] + unfold_all(P, step.lhs, dom)
                       + unfold_all(P, step.rhs, dom))
    return proof


def cp_involution_proof(F, p, x=None, x0=None, fixed_point_method="z3"):
    """``C_p(F)(C_p(F)(x)) = x`` for x in [0, f_p(0)] (the step's side condition): by Eq. 14
    (the minorant certificate) at x and at C(x) -- f_p is inverted by f_p^{-1} on [0, x*]
    (strictly decreasing there), the chord is its own inverse, and f_p(f_p^{-1}(x)) = x below
    f_p(0).  With C continuous and non-increasing this is C^{-1} = C on [0, C(0)]."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        params = _params_of(dom, x)
        X = fresh("x")
        cert, _, S = eq14_minorant(F, p, X, params, x0, builder=P,
                                   fixed_point_method=fixed_point_method)
        full = domain(params, (X, UNIT))
        eq14 = P.minorant(cert, full)
        Cf = CpFacts(P, F, p, params)
        A, B, xs = S.A, S.B, S.xs
        c = _at(Cf.C, x)
        nn, le = Cf.nonneg(x, dom), Cf.le_id(x, dom)
        at_x = P.instantiate(eq14, {X: x}, dom)
        at_c = P.instantiate(eq14, {X: c}, dom, (nn, le))
        env_x = Cf.cp_is_envelope(x, dom)
        env_c = P.lemma("unfold", (nn, le), term=_at(Cf.C, c), domain=dom)
        lo, hi = S.fixed_point_range()
        common = [at_x, at_c, env_x, env_c, nn, le, lo, hi, S.fixed_point(), S.half(),
                  S.inverse_at_chord_end()]
        # the closed form x0 of the fixed point, when there is one
        value = P.judgement(at_x).lhs
        x0_ = value.args[0][1].rhs
        if x0_ != xs:
            Fx0 = P.lemma("unfold", term=_at(F, x0_), domain=params)
            same = P.arith(F.expr(x0_), "=", x0_, params, method=fixed_point_method) \
                if fixed_point_method != "z3" else P.arith(F.expr(x0_), "=", x0_, params)
            fx0 = P.arith(_at(F, x0_), "=", x0_, params, (Fx0, same))
            common += [Fx0, same, fx0, P.lemma("fixed_point_unique", (fx0,), g=F, x0=x0_,
                                               domain=params)]
        family = not getattr(F, "is_abstract", False)
        if family:
            common += [P.lemma("unfold", (nn, le), term=_at(F, c), domain=dom)]
        # x <= x*: f_p^{-1}(f_p(x)) = x (f_p strictly decreasing on [0, x*])
        Dl = domain(dom, conditions=(sp.Le(x, xs),))
        t, s, a = fresh("t"), fresh("s"), fresh("a")
        strict = S.strictly_decreasing(s, a)
        Dlt = domain(Dl, (t, UNIT))
        nnA, leA = S.range_at(A, x, Dl)
        uAt, uAx = S.unfold(A, t, Dlt), S.unfold(A, x, Dlt)
        st = P.instantiate(strict, {s: t, a: x}, domain(Dlt, conditions=(sp.Lt(t, x),)))
        bound = P.arith(t, ">=", x, domain(Dlt, conditions=(sp.Le(_at(A, t), _at(A, x)),)),
                        (st, uAt, uAx))
        up = P.lemma("le_inverse", (bound, nnA, leA), g=A, a=_at(A, x), bound=x, t=t, domain=Dl)
        down = P.lemma("inverse_le", (nnA, leA), g=A, t=x, a=_at(A, x), domain=Dl)
        anti = P.lemma("tradeoff_antitone", (lo, hi), g=A, a=x, b=xs, domain=Dl)
        left = [up, down, anti, S.unfold(A, x, Dl), S.unfold(A, xs, Dl, (lo, hi))]
        if family:
            left += unfold_all(P, _at(F, x), Dl)
        # y* <= x <= f_p(0): f_p(f_p^{-1}(x)) = x and f_p^{-1}(x) in [0, x*]
        Dr = domain(dom, conditions=(sp.Le(S.ys, x),))
        at0 = unfold_all(P, _at(A, sp.S.Zero), dom)
        back = P.lemma("apply_inverse", tuple(at0), g=A, a=x, domain=dom)
        uxs = S.unfold(A, xs, Dr, (lo, hi))
        to_xs = P.lemma("inverse_le", (lo, hi, uxs, S.fixed_point()), g=A, t=xs, a=x, domain=Dr)
        nnB = P.lemma("tradeoff_nonneg", g=B, at=x, domain=dom)
        uB = S.inverse_value(x, dom)
        binv = _inv(A, x)
        right = [back, to_xs, nnB, uB, uxs,
                 P.lemma("unfold", (nnB, uB, to_xs, lo, hi), term=_at(A, binv), domain=Dr)]
        if family:
            right += [P.lemma("unfold", (nnB, uB, to_xs, lo, hi), term=_at(F, binv), domain=Dr)]
        cases = []
        for cond, extra in (((sp.Le(x, xs),), left), ((sp.Ge(x, xs), sp.Le(x, S.ys)), []),
                            ((sp.Ge(x, S.ys),), right)):
            D = domain(dom, conditions=cond)
            cases.append(P.arith(step.lhs, "=", step.rhs, D, common + extra,
                                 note=f"the case {', '.join(map(sp.sstr, cond))}"))
        P.cases(cases, dom)
        return P.certificate(step.lhs, step.relation, step.rhs)
    return proof


def conjugate_of_cp(P: ProofBuilder, F, p, y, dom: Domain) -> int:
    """``C_p(F)^*(y) = (min{f_p, f_p^{-1}}**)^*(y)``: equal functions (Def. 4.1) have equal
    conjugates, each bounding the other (le_conjugate, conjugate_le)."""
    from ..tradeoff.base import ConjugateAt

    Cf = CpFacts(P, F, p, dom)
    t = fresh("t")
    Dt = domain(dom, (t, UNIT))
    same = Cf.cp_is_envelope(t, Dt)
    up = P.lemma("conjugate_le", (same, P.lemma("le_conjugate", g=Cf.E, y=y, at=t, domain=Dt)),
                 g=Cf.C, y=y, bound=ConjugateAt(Cf.E, y), t=t, domain=dom)
    down = P.lemma("conjugate_le", (same, P.lemma("le_conjugate", g=Cf.C, y=y, at=t, domain=Dt)),
                   g=Cf.E, y=y, bound=ConjugateAt(Cf.C, y), t=t, domain=dom)
    return P.arith(ConjugateAt(Cf.C, y), "=", ConjugateAt(Cf.E, y), dom, (up, down))


def profile_of_cp_proof(F, p, h):
    """``1 + f_p^*(-e^h) REL 1 + C_p(F)^*(-e^h)`` or ``1 + C_p(F)^*(-e^h) >= 1 +
    (f_p^{-1})^*(-e^h)`` (Prop. 4.5's condition for f_p, and the profile of C_p(F) is that
    of f_p): :func:`profile_condition`, :func:`envelope_profile`, :func:`conjugate_of_cp`."""
    def proof(step, dom):
        P = ProofBuilder()
        params = Domain(tuple((s, d) for s, d in dom.hypotheses if s != h), (), ())
        S = SymmetricFacts(P, F, p, params)
        y = -sp.exp(h)
        condition = profile_condition(P, S, h, dom)
        env = envelope_profile(P, S.A, y, condition, dom)
        cp = conjugate_of_cp(P, F, p, y, dom)
        return _finish(P, step, dom, (condition, env, cp))
    return proof


def mixture_conjugate_proof(F, p, y):
    """``f_p^*(y) = p f^*((y + 1 - p)/p) - (1 - p)`` (p > 0 on the step's domain)."""
    def proof(step, dom):
        P = ProofBuilder()
        return _finish(P, step, dom, (mixture_conjugate(P, F, p, y, dom),))
    return proof


def primal_dual_proof(f, e, x=None):
    """``f(x) >= f_{e, delta_f(e)}(x)`` for a symmetric trade-off function f (Prop. 2.12, its
    first half: f-DP gives (eps, delta_f(eps))-DP)."""
    from ..tradeoff.base import alpha

    x = alpha if x is None else x

    def proof(step, dom):
        P = ProofBuilder()
        last = primal_dual(P, f, e, x, dom)
        guarantee = P.judgement(last).rhs
        bounds = profile_bounds(P, f, e, dom)
        return _finish(P, step, dom, (last, P.lemma("unfold", bounds, term=guarantee, domain=dom)))
    return proof
