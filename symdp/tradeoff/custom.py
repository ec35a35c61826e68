r"""User-supplied trade-off functions and the conditions of Prop. 2.2 they rest on.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Prop. 2.2: f : [0,1] -> [0,1] is a
trade-off function iff it is convex, continuous, non-increasing and
:math:`f(\alpha) \le 1-\alpha`.  Piece by piece:

=================  =====================================================
continuous         pieces meet at their breakpoints; no singularity inside
non-increasing     g' <= 0 on each piece
convex             g'' >= 0 on each piece; slopes increase across breakpoints
bounded            0 <= g <= 1 - alpha
=================  =====================================================

``TradeOff(expr)`` builds the object without running the checker (objects never do,
issue #13).  Until a condition is shown for every value it is one of the object's
``assumptions`` (:class:`~symdp.tradeoff.assumptions.Assumption`): every derivation that uses
the object checks it over its own domain or carries it as a hypothesis of its verdict.
:func:`symdp.proof.claims.validate_tradeoff` checks the conditions at once: a refuted one
raises :class:`NotATradeOffFunctionError` with the counterexample; one that holds only at
points, or is undecided, is named in an :class:`UndecidedConditionWarning` (``strict=True``:
an error) and stays an assumption.
"""

from __future__ import annotations

import sympy as sp

from ..core.errors import InvalidParameterError, NotATradeOffFunctionError  # noqa: F401
from .assumptions import Assumption
from .base import Piece, TradeOff, alpha
from ..core.validation import shown


class UndecidedConditionWarning(UserWarning):
    """A condition of Prop. 2.2 holds only numerically or could not be decided."""


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


# (Lambda, domains of its parameters) -> (validation, symmetric): what validate_tradeoff
# established, and over which parameter values.  The domains are part of the key because
# Prop. 2.2 for c (1 - alpha) holds for c in [0, 1/2] and fails for c > 1 (issue #19): a
# TradeOff(expr) built without the same domains -- or rebuilt by SymPy from its args, which
# carry no domains -- is not validated, and carries Prop. 2.2 as assumptions.
_VALIDATED: dict = {}


def _validation_key(function: sp.Lambda, domains: dict) -> tuple:
    """The validation cache's key: the function and the domain of each of its parameters
    (alpha aside), in name order; a parameter without a domain keys as ``None``."""
    parameters = sorted(function.free_symbols, key=lambda s: s.name)
    return (function, tuple((s, domains.get(s)) for s in parameters))


class UserTradeOff(TradeOff):
    """``TradeOff(expr, variable=alpha, domains=None)``; see the module doc.

    ``validation`` is None until :func:`symdp.proof.claims.validate_tradeoff` has checked
    Prop. 2.2 (then a tuple of condition results with verdict and scope).  A validation
    holds over the domains it was checked on: an object with parameters finds it only when
    it is built with the same ``domains`` (keyed by expression *and* domains, issue #19).
    """

    def __new__(cls, expr, variable=alpha, domains=None, _validated=None, _symmetric=False):
        from ..core.validation import to_exact

        if isinstance(expr, str):
            raise InvalidParameterError("f must be a SymPy expression; parse text with "
                                        "symdp.parsing.parse_formula first")
        if isinstance(expr, sp.Lambda):  # rebuilt by SymPy from its args (xreplace, subs)
            variable, expr = expr.variables[0], expr.expr
        expr = to_exact("f", expr) if not isinstance(expr, sp.Basic) else expr
        if not isinstance(variable, sp.Symbol):
            raise InvalidParameterError(f"variable must be a Symbol; got variable={shown(variable)}")
        expr = expr.xreplace({variable: alpha}) if variable != alpha else expr
        if expr.has(sp.nan) or expr.has(sp.zoo):
            raise InvalidParameterError(f"f must be finite; got f={expr}")
        domains = dict(domains or {})
        obj = super().__new__(cls, sp.Lambda(alpha, expr))
        obj._domains = domains
        obj._pieces = [Piece(lo, hi, sp.Lambda(alpha, g)) for lo, hi, g in _split_pieces(expr, alpha)]
        key = _validation_key(obj.args[0], domains)
        if _validated is not None:
            _VALIDATED[key] = (tuple(_validated), bool(_symmetric))
        obj.validation, obj.proved_symmetric = _VALIDATED.get(key, (None, False))
        return obj

    @property
    def assumptions(self) -> tuple:
        """The conditions of Prop. 2.2 not shown for every value (all of them until
        :func:`symdp.proof.claims.validate_tradeoff` has run), each for every alpha in the
        piece it speaks of."""
        shown = {c.condition for c in (self.validation or ()) if c.holds_everywhere}
        return super().assumptions + tuple(a for name, a in prop_2_2_conditions(self)
                                           if name not in shown)

    def pieces(self):
        return list(self._pieces)

    def expr(self, x=alpha):
        return self.args[0](sp.sympify(x))

    def _latex_name(self, printer):
        return r"\left(\alpha \mapsto %s\right)" % printer._print(self.args[0].expr)

    def _sympystr(self, printer):
        return "TradeOff(%s)" % printer._print(self.args[0].expr)


def prop_2_2_conditions(f: TradeOff) -> list:
    """``(condition name, Assumption)`` for every condition of Prop. 2.2 on the pieces of f,
    each in a bound variable ``a`` ranging over the piece (Dong, Roth, Su 2022, Prop. 2.2)."""
    a = sp.Dummy("alpha", real=True)
    over = ((a, sp.Interval(0, 1)),)
    reason = "Prop. 2.2 for a user-supplied TradeOff(expr), not yet shown for every value"
    out = []
    pieces = [pc for pc in f.pieces()]
    for left, right in zip(pieces, pieces[1:]):
        out.append(("continuous", Assumption(sp.Eq(left.at(left.hi), right.at(right.lo),
                                                   evaluate=False), reason)))
        slope_l = sp.diff(left.at(a), a).subs(a, left.hi)
        slope_r = sp.diff(right.at(a), a).subs(a, right.lo)
        out.append(("convex", Assumption(sp.Le(slope_l, slope_r, evaluate=False), reason)))
    for pc in pieces:
        if pc.lo == pc.hi:
            continue
        g = pc.at(a)
        where = (sp.Ge(a, pc.lo), sp.Le(a, pc.hi))
        for name, claim in (("non-increasing", sp.Le(sp.diff(g, a), 0, evaluate=False)),
                            ("convex", sp.Ge(sp.diff(g, a, 2), 0, evaluate=False)),
                            ("at most 1 - alpha", sp.Le(g, 1 - a, evaluate=False)),
                            ("non-negative", sp.Ge(g, 0, evaluate=False))):
            out.append((name, Assumption(claim, reason, over, where)))
    return [(n, x) for n, x in out if x.claim is not sp.true]
