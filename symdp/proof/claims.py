r"""Claims about trade-off functions, checked by the cascade: dominance, symmetry, Prop. 2.2.

Objects never run the checker (issue #13); these functions do, and return the
:class:`~symdp.proof.verdict.StepResult` -- whose ``holds_everywhere`` and ``scope`` say
whether the claim holds for every :math:`\alpha \in [0, 1]` and every parameter value, or was
only checked at points (issue #12).  A StepResult has no truth value: ``if dominates(f, g):``
raises ``TypeError``; read ``.holds_everywhere`` (or ``.verdict``).

======================  ==================================================================
:func:`compare`         ``f(alpha) REL g(alpha)`` on [0, 1] (Dong, Roth, Su 2022, Def. 2.3)
:func:`dominates`       ``f >= g`` on [0, 1]: f is at least as private as g
:func:`symmetry`        ``f = f^{-1}`` on [0, 1] (Eq. 4); :func:`is_symmetric` as a bool
:func:`validate_tradeoff`  ``TradeOff(expr)`` checked against Prop. 2.2 (a validated object)
======================  ==================================================================

Symbolic parameters need their domains (``hypotheses={symbol: SymPy set}``): a domain is
never guessed from a parameter's name.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import sympy as sp

from ..core.errors import InvalidParameterError, NotATradeOffFunctionError
from ..tradeoff.base import TradeOff, alpha
from ..tradeoff.custom import UndecidedConditionWarning, UserTradeOff
from ..tradeoff.operators import Inverse
from . import kernel
from .certificates import Claim, ContinuityCertificate, Domain
from .check import check_derivation
from .derivation import Derivation, Step
from .verdict import StepResult, Verdict

__all__ = ["compare", "dominates", "symmetry", "is_symmetric", "validate_tradeoff",
           "ConditionResult"]


def _hypotheses(functions, hypotheses) -> dict:
    hyp = {alpha: sp.Interval(0, 1)}
    hyp.update(hypotheses or {})
    free = set().union(*(f.free_symbols for f in functions)) - {alpha}
    missing = free - set(hyp)
    if missing:
        names = ", ".join(sorted(s.name for s in missing))
        raise InvalidParameterError(f"hypotheses must give a domain for {names} "
                                    f"(hypotheses={{symbol: SymPy set}}); got none")
    return hyp


def compare(f: TradeOff, g: TradeOff, relation: str = ">=", hypotheses: dict | None = None,
            **check) -> StepResult:
    r"""Check ``f(alpha) REL g(alpha)`` for every alpha in [0, 1] (and every parameter value
    in ``hypotheses``) with the check cascade.

    ``f >= g`` means f is *more private* than g (Dong, Roth, Su 2022, Def. 2.3).  The result's
    ``holds_everywhere`` is True only when the comparison is proved, certified or enumerated
    over the whole domain; CHECKED_AT_POINTS / NUMERIC_AT_POINTS is evidence at points.
    ``check`` goes to :func:`~symdp.proof.check.check_derivation` (``points``, ``dps``, ...).
    """
    for name, h in (("f", f), ("g", g)):
        if not isinstance(h, TradeOff):
            raise InvalidParameterError(f"{name} must be a trade-off function (a TradeOff); got "
                                        f"{type(h).__name__} {h!r}")
    if hypotheses is not None and not isinstance(hypotheses, dict):
        raise InvalidParameterError(f"hypotheses must be a dict {{Symbol: set}} or None; got "
                                    f"{type(hypotheses).__name__}")
    hyp = _hypotheses((f, g), hypotheses)
    d = Derivation("pointwise_comparison", f"{f} {relation} {g} on [0, 1]", "Def. 2.3", hyp,
                   (Step(f(alpha), relation, g(alpha), "pointwise comparison"),))
    return check_derivation(d, **check).steps[0]


def dominates(f: TradeOff, g: TradeOff, hypotheses: dict | None = None, **check) -> StepResult:
    """``f >= g`` on [0, 1] (f is at least as private as g): :func:`compare` with ``>=``."""
    return compare(f, g, ">=", hypotheses, **check)


def symmetry(f: TradeOff, hypotheses: dict | None = None, **check) -> StepResult:
    r"""Check :math:`f = f^{-1}` on [0, 1] (Dong, Roth, Su 2022, Eq. 4) with the cascade."""
    hyp = _hypotheses((f,), hypotheses)
    d = Derivation("symmetry", "f = f^{-1}", "Eq. 4", hyp,
                   (Step(Inverse(f).expr(alpha), "=", f.expr(alpha), "inverse"),))
    return check_derivation(d, **check).steps[0]


def is_symmetric(f: TradeOff, hypotheses: dict | None = None) -> bool | None:
    """True when ``f = f^{-1}`` holds everywhere (proved, certified or enumerated), False when
    refuted, None otherwise (evidence at points is not symmetry)."""
    if getattr(f, "symmetric_by_construction", False):
        return True
    r = symmetry(f, hypotheses)
    if r.holds_everywhere:
        return True
    return False if r.verdict is Verdict.REFUTED else None


@dataclass(frozen=True)
class ConditionResult:
    """One condition of Prop. 2.2, its weakest verdict and that verdict's scope."""

    condition: str
    verdict: str
    detail: str
    holds_everywhere: bool = False
    scope: str = ""


def _prop_2_2(f: UserTradeOff, domains: dict) -> tuple:
    """Prop. 2.2 of Dong, Roth, Su 2022 (arXiv 1905.02383v3): f is a trade-off function iff
    convex, continuous, non-increasing and f <= 1 - alpha -- each checked piece by piece."""
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
        worst = min(verdicts, key=lambda r: (r.verdict.strength, r.holds_everywhere))
        results.append(ConditionResult(name, worst.verdict.value, worst.detail,
                                       worst.holds_everywhere, worst.scope))

    for pc in pieces:   # each piece continuous on its interval: a certificate of the kernel
        if pc.lo != pc.hi:
            results.append(_piece_continuity(pc, domains))
    cont = [Step(a.at(a.hi), "=", b.at(b.lo), f"pieces meet at alpha = {a.hi}")
            for a, b in zip(pieces, pieces[1:])]
    if cont:   # and the pieces meet: equalities through the cascade, under the domains
        run("continuous", cont)
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
    merged = {}
    for r in results:
        key = (Verdict(r.verdict).strength, r.holds_everywhere)
        if r.condition not in merged or key < (Verdict(merged[r.condition].verdict).strength,
                                               merged[r.condition].holds_everywhere):
            merged[r.condition] = r
    return tuple(merged.values())


def _piece_continuity(pc, domains: dict) -> ConditionResult:
    """One piece ``g`` on ``[lo, hi]`` is continuous for every parameter value: accepted by the
    kernel (:class:`~symdp.proof.certificates.ContinuityCertificate`), or REFUTED at a point
    of the domain where g is undefined (found by z3, checked exactly), else UNDECIDED."""
    hyp = dict(domains)
    g = pc.at(alpha)
    if pc.lo.is_number and pc.hi.is_number:
        hyp[alpha], where = sp.Interval(pc.lo, pc.hi), ()
    else:
        hyp[alpha], where = sp.Interval(0, 1), (sp.Ge(alpha, pc.lo), sp.Le(alpha, pc.hi))
    domain = Domain.of(hyp, (), where)
    result = kernel.accept(Claim.continuity(g, alpha, domain),
                           ContinuityCertificate(g, g, "=", "continuity", variable=alpha))
    if not result.holds_everywhere:
        point = kernel.deciders.undefined_at((g,), domain)
        if point:
            result = StepResult(Verdict.REFUTED, f"not continuous on [{pc.lo}, {pc.hi}]: "
                                f"{point}", "continuity")
    return ConditionResult("continuous", result.verdict.value, result.detail,
                           result.holds_everywhere, result.scope)


def validate_tradeoff(expr, variable=alpha, domains=None, strict: bool = False) -> UserTradeOff:
    r"""``TradeOff(expr)`` checked against Prop. 2.2 (Dong, Roth, Su 2022): convex,
    continuous, non-increasing, :math:`0 \le f \le 1 - \alpha` on [0, 1].

    A refuted condition raises :class:`~symdp.core.errors.NotATradeOffFunctionError` naming it,
    with the counterexample.  A condition that does not hold everywhere -- checked at points
    only, or undecided -- is never taken as a fact: a
    :class:`~symdp.tradeoff.custom.UndecidedConditionWarning` names it with its scope
    (``strict=True`` raises instead), and the object keeps it among its ``assumptions``, so
    that every derivation using the object checks it over its own domain or carries it as a
    hypothesis.  The object's ``validation`` lists every condition with its verdict and scope;
    symmetry (:math:`f = f^{-1}`), when it holds everywhere, is recorded (``proved_symmetric``)
    for ``subsample`` to use Eq. 14.
    """
    f = UserTradeOff(expr, variable, domains)
    domains = dict(domains or {})
    missing = sorted(s.name for s in f.free_symbols - {alpha} if s not in domains)
    if missing:
        raise InvalidParameterError(
            f"f: give a domain for the parameter(s) {', '.join(missing)} "
            f"(domains={{symbol: Interval}}) so that Prop. 2.2 can be checked")
    validation = _prop_2_2(f, domains)
    refuted = [c for c in validation if c.verdict == "REFUTED"]
    if refuted:
        c = refuted[0]
        raise NotATradeOffFunctionError(
            f"f is not a trade-off function (Prop. 2.2): it is not {c.condition}; {c.detail}")
    open_ = [c for c in validation if not c.holds_everywhere]
    if open_:
        names = "; ".join(f"{c.condition}: {c.verdict} -- {c.scope} ({c.detail})" for c in open_)
        if strict:
            raise NotATradeOffFunctionError(f"f: Prop. 2.2 not shown for every value: {names}")
        warnings.warn(f"Prop. 2.2 conditions not shown for every value: {names}",
                      UndecidedConditionWarning, stacklevel=2)
    symmetric = False
    try:
        symmetric = symmetry(f, domains).holds_everywhere
    except (InvalidParameterError, NotImplementedError, ValueError, TypeError):
        symmetric = False
    return UserTradeOff(expr, variable, domains, _validated=validation,
                        _symmetric=bool(symmetric))
