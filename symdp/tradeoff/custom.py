r"""User-supplied trade-off functions, validated against Prop. 2.2.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Prop. 2.2: f : [0,1] -> [0,1] is a
trade-off function iff it is convex, continuous, non-increasing and
:math:`f(\alpha) \le 1-\alpha`.  Each condition is checked piece by piece with
the proof engine:

=================  =====================================================
continuous         pieces meet at their breakpoints; no singularity inside
non-increasing     g' <= 0 on each piece
convex             g'' >= 0 on each piece; slopes increase across breakpoints
bounded            0 <= g <= 1 - alpha
=================  =====================================================

A refuted condition raises :class:`NotATradeOffFunctionError` naming it, with
the counterexample.  A condition that is only checked numerically (or not
decided) is *not* guessed: the object records it in ``validation`` and a
:class:`UndecidedConditionWarning` names it; ``strict=True`` turns that into
an error instead.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import sympy as sp

from ..core.errors import InvalidParameterError, NotATradeOffFunctionError
from .base import Piece, TradeOff, alpha


class UndecidedConditionWarning(UserWarning):
    """A condition of Prop. 2.2 holds only numerically or could not be decided."""


@dataclass(frozen=True)
class ConditionResult:
    condition: str
    verdict: str
    detail: str


def _split_pieces(expr: sp.Expr, x: sp.Symbol) -> list[tuple]:
    """(lo, hi, g) from a Piecewise whose conditions are ``x <= c`` / ``x < c``, in order."""
    expr = sp.piecewise_fold(expr)
    if not isinstance(expr, sp.Piecewise):
        return [(sp.S.Zero, sp.S.One, expr)]
    out, lo = [], sp.S.Zero
    for g, cond in expr.args:
        if cond is sp.true:
            out.append((lo, sp.S.One, g))
            return out
        if isinstance(cond, (sp.LessThan, sp.StrictLessThan)) and cond.lhs == x \
                and not cond.rhs.has(x):
            hi = cond.rhs
        elif isinstance(cond, (sp.GreaterThan, sp.StrictGreaterThan)) and cond.rhs == x \
                and not cond.lhs.has(x):
            hi = cond.lhs
        else:
            raise InvalidParameterError(
                f"f: Piecewise conditions must read 'alpha <= c' in increasing c; got {cond}")
        out.append((lo, hi, g))
        lo = hi
    raise InvalidParameterError("f: the last Piecewise branch must have the condition True")


class UserTradeOff(TradeOff):
    """``TradeOff(expr, variable=alpha, domains=None, strict=False)``; see the module doc."""

    def __new__(cls, expr, variable=alpha, domains=None, strict=False, _validated=None):
        from ..core.validation import to_exact

        if isinstance(expr, str):
            raise InvalidParameterError("f must be a SymPy expression; parse text with "
                                        "symdp.parsing.parse_formula first")
        expr = to_exact("f", expr) if not isinstance(expr, sp.Basic) else expr
        if not isinstance(variable, sp.Symbol):
            raise InvalidParameterError(f"variable must be a Symbol; got variable={variable!r}")
        expr = expr.xreplace({variable: alpha}) if variable != alpha else expr
        if expr.has(sp.nan) or expr.has(sp.zoo):
            raise InvalidParameterError(f"f must be finite; got f={expr}")
        domains = dict(domains or {})
        params = expr.free_symbols - {alpha}
        missing = [s.name for s in params if s not in domains]
        if missing:
            raise InvalidParameterError(
                f"f: give a domain for the parameter(s) {', '.join(sorted(missing))} "
                f"(domains={{symbol: Interval}}) so that Prop. 2.2 can be checked")
        obj = super().__new__(cls, sp.Lambda(alpha, expr))
        obj._domains = domains
        obj._pieces = [Piece(lo, hi, sp.Lambda(alpha, g)) for lo, hi, g in _split_pieces(expr, alpha)]
        obj.validation = _validated if _validated is not None else _validate(obj, domains)
        refuted = [c for c in obj.validation if c.verdict == "REFUTED"]
        if refuted:
            c = refuted[0]
            raise NotATradeOffFunctionError(
                f"f is not a trade-off function (Prop. 2.2): it is not {c.condition}; {c.detail}")
        open_ = [c for c in obj.validation if c.verdict not in ("PROVED", "ENUMERATED")]
        if open_:
            names = "; ".join(f"{c.condition}: {c.verdict} ({c.detail})" for c in open_)
            if strict:
                raise NotATradeOffFunctionError(f"f: Prop. 2.2 not proved: {names}")
            warnings.warn(f"Prop. 2.2 conditions not proved symbolically: {names}",
                          UndecidedConditionWarning, stacklevel=2)
        return obj

    def pieces(self):
        return list(self._pieces)

    def expr(self, x=alpha):
        return self.args[0](sp.sympify(x))

    def _latex_name(self, printer):
        return r"\left(\alpha \mapsto %s\right)" % printer._print(self.args[0].expr)

    def _sympystr(self, printer):
        return "TradeOff(%s)" % printer._print(self.args[0].expr)


def _validate(f: UserTradeOff, domains: dict) -> tuple:
    from ..proof import Derivation, Step, Verdict, check_derivation

    results = []
    pieces = f.pieces()

    def run(name, steps, extra_hyp=None):
        hyp = dict(domains)
        hyp[alpha] = sp.Interval(0, 1)
        if extra_hyp:
            hyp.update(extra_hyp)
        verdicts = []
        for step in steps:
            d = Derivation("prop_2_2", name, "Prop. 2.2", hyp, (step,))
            verdicts.append(check_derivation(d, points=16).steps[0])
        worst = min(verdicts, key=lambda r: r.verdict.strength)
        results.append(ConditionResult(name, worst.verdict.value, worst.detail))

    # continuity
    cont = []
    for a, b in zip(pieces, pieces[1:]):
        cont.append(Step(a.at(a.hi), "=", b.at(b.lo), f"pieces meet at alpha = {a.hi}"))
    singular = []
    for pc in pieces:
        domain = sp.calculus.util.continuous_domain(pc.g.expr, alpha, sp.Interval(0, 1)) \
            if not pc.g.expr.free_symbols - {alpha} else None
        if domain is not None and isinstance(pc.lo, sp.Number) and isinstance(pc.hi, sp.Number) \
                and not sp.Interval(pc.lo, pc.hi).is_subset(domain):
            singular.append(f"not continuous on [{pc.lo}, {pc.hi}]")
    if singular:
        results.append(ConditionResult("continuous", "REFUTED", singular[0]))
    elif cont:
        run("continuous", cont)
    else:
        results.append(ConditionResult("continuous", "PROVED", "one analytic piece"))

    for pc in pieces:
        if pc.lo == pc.hi:
            continue
        g = pc.at(alpha)
        # the piece's interval as alpha's domain when it is numeric, else side conditions
        if pc.lo.is_number and pc.hi.is_number:
            where, extra = (), {alpha: sp.Interval(pc.lo, pc.hi)}
        else:
            where, extra = (sp.Ge(alpha, pc.lo), sp.Le(alpha, pc.hi)), None
        for name, step in (
                ("non-increasing", Step(sp.diff(g, alpha), "<=", sp.S.Zero, "f' <= 0", where)),
                ("convex", Step(sp.diff(g, alpha, 2), ">=", sp.S.Zero, "f'' >= 0", where)),
                ("at most 1 - alpha", Step(g, "<=", 1 - alpha, "f <= Id", where)),
                ("non-negative", Step(g, ">=", sp.S.Zero, "f >= 0", where))):
            run(name, [step], extra)
    for a, b in zip(pieces, pieces[1:]):
        left = sp.diff(a.at(alpha), alpha).subs(alpha, a.hi)
        right = sp.diff(b.at(alpha), alpha).subs(alpha, b.lo)
        run("convex", [Step(left, "<=", right, "slopes increase at the breakpoint")])
    # merge repeated condition names, keeping the weakest verdict
    order = [v.value for v in sorted(Verdict, key=lambda v: v.strength)]
    merged = {}
    for r in results:
        if r.condition not in merged or order.index(r.verdict) < order.index(merged[r.condition].verdict):
            merged[r.condition] = r
    return tuple(merged.values())
