r"""Operators on trade-off functions: inverse, mixture, pointwise minimum, convex envelope.

Notation of Dong, Roth, Su 2022 (arXiv 1905.02383v3): :math:`f^{-1}` (Eq. 4),
:math:`f_p = p f + (1-p)\mathrm{Id}` and :math:`\min\{f_p, f_p^{-1}\}^{**}`
(Def. 4.1), biconjugate = lower convex envelope (Sec. 4).
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from ..core.validation import expression_or_number, precision, probability
from ..numeric.digits import with_digits
from .base import InverseAt, Piece, TradeOff, _simplify, alpha, conjugate, piece
from .families import Identity
from .numeric import ValueByDefinitionAt, golden_max, mp_callable, to_mpf
from .solve import solve_for

_t = sp.Dummy("t", real=True)


def _operand(name: str, f, *, pointwise_min: bool = False) -> TradeOff:
    """The trade-off function an operator acts on: a :class:`TradeOff` (``min{f, g}`` only
    where ``pointwise_min``), or a SymPy expression in alpha made one (``TradeOff(expr)``,
    Prop. 2.2 checked); text is refused, never sympified, and so is anything else, naming
    ``name`` -- not an error deep inside a later evaluation."""
    from ..core.errors import InvalidParameterError, NotATradeOffFunctionError
    from ..core.validation import shown

    if isinstance(f, PointwiseMin) and not pointwise_min:
        raise NotATradeOffFunctionError(
            f"{name} must be a trade-off function (Prop. 2.2); min{{f, g}} is not convex in "
            "general -- convexify it first (ConvexEnvelope)")
    if isinstance(f, TradeOff):
        return f
    if isinstance(f, str):
        raise InvalidParameterError(
            f"{name} must be a trade-off function (e.g. Gaussian(1)) or a SymPy expression in "
            f"alpha, not text; got {name}={shown(f)} (symdp.parsing.parse_formula reads text)")
    if isinstance(f, sp.Expr) and not f.is_number:
        return TradeOff(f)
    raise InvalidParameterError(f"{name} must be a trade-off function (e.g. Gaussian(1)); got "
                                f"{name}={shown(f)}")


class Mixture(TradeOff):
    r""":math:`f_p = p f + (1-p)\,\mathrm{Id}` (Def. 4.1): with probability 1 - p the
    individual is not in the sample and enjoys perfect privacy.

    ``Mixture(f, 1)`` is f and ``Mixture(f, 0)`` is Id, exactly.
    """

    def __new__(cls, f, p):
        f = _operand("f", f)
        conditions = list(getattr(f, "conditions", ()))
        p = probability("p", p, conditions)
        if p == 1:
            return f
        if p == 0:
            return Identity()
        return super().__new__(cls, f, p, conditions=conditions)

    @property
    def base(self) -> TradeOff:
        return self.args[0]

    @property
    def p(self):
        return self.args[1]

    def pieces(self):
        p = self.p
        return [Piece(q.lo, q.hi, sp.Lambda(_t, p * q.at(_t) + (1 - p) * (1 - _t)))
                for q in self.base.pieces()]

    def expr(self, x=alpha):
        x = sp.sympify(x)
        return self.p * self.base.expr(x) + (1 - self.p) * (1 - x)

    def _latex_name(self, printer):
        base = printer._print(self.base)
        if base.startswith(("f_{", "G_{", "L_{")):
            return r"\left(%s\right)_{%s}" % (base, printer._print(self.p))
        return r"%s_{%s}" % (base, printer._print(self.p))

    def _sympystr(self, printer):
        return "Mixture(%s, %s)" % (printer._print(self.base), printer._print(self.p))


class Inverse(TradeOff):
    r""":math:`f^{-1}(a) = \inf\{t\in[0,1] : f(t) \le a\}` (Eq. 4), piece by piece.

    On a piece [lo, hi] where f = g decreases from g(lo) to g(hi), the inverse
    is :math:`g^{-1}` on [g(hi), g(lo)]; above f(0) it is 0.  A piece whose
    equation g(t) = a has no closed form is kept exact as :class:`InverseAt`
    and evaluated by bracketed root-finding.
    """

    def __new__(cls, f):
        f = _operand("f", f)
        if isinstance(f, Inverse):
            return f.base
        return super().__new__(cls, f, conditions=getattr(f, "conditions", ()))

    @property
    def base(self) -> TradeOff:
        return self.args[0]

    def pieces(self):
        out = []
        a = sp.Dummy("a", real=True)
        f = self.base
        parts = [p for p in f.pieces() if p.lo != p.hi]
        for p in reversed(parts):
            top, bottom = p.at(p.lo), p.at(p.hi)
            if sp.simplify(top - bottom) == 0:
                continue  # a flat (zero) piece: its start is the inverse at 0, from the piece before
            t = p.g.variables[0]
            root = solve_for(p.g.expr, a, t)
            body = _simplify(root) if root is not None else InverseAt(f, a)
            out.append(Piece(sp.simplify(bottom), sp.simplify(top), sp.Lambda(a, body)))
        f0 = sp.simplify(parts[0].at(sp.S.Zero))
        if f0 != 1:
            out.append(piece(f0, 1, sp.S.Zero, _t))
        return out

    def inverse(self):
        return self.base

    def conjugate(self, y):
        r"""The Legendre transform from the pieces; when a piece is an implicit inverse
        (no closed-form stationary point), through the reflection of the graph in the
        diagonal:

        .. math::
            (f^{-1})^*(y) = \sup_t\,(y f(t) - t) = -y\, f^*(1/y) \quad (y < 0),
            \qquad (f^{-1})^*(y) = y - f^{-1}(1) = y \quad (y \ge 0).

        (For y < 0: taking a = f(t) gives ``>=`` since f^{-1}(f(t)) <= t; taking
        t = f^{-1}(a) gives ``<=`` since f(f^{-1}(a)) <= a by continuity.)
        """
        y = sp.sympify(y)
        try:
            return conjugate(self, y)
        except NotImplementedError:
            pass
        if y.is_nonnegative:
            return y
        reflected = -y * self.base.conjugate(1 / y)
        if y.is_negative:
            return reflected
        return sp.Piecewise((reflected, y < 0), (y, True))

    def _latex_name(self, printer):
        return r"%s^{-1}" % printer._print(self.base)

    def _sympystr(self, printer):
        return "Inverse(%s)" % printer._print(self.base)


class PointwiseMin(TradeOff):
    r""":math:`\min\{f, g\}` -- not convex in general, so not a trade-off function;
    kept as the object :math:`C_p` convexifies.  Its conjugate is
    :math:`\max\{f^*, g^*\}`."""

    def __new__(cls, f, g):
        return super().__new__(cls, _operand("f", f), _operand("g", g))

    def expr(self, x=alpha):
        x = sp.sympify(x)
        return sp.Min(self.args[0].expr(x), self.args[1].expr(x))

    def pieces(self):
        raise NotImplementedError("min{f, g} is not convex; use its conjugate or envelope")

    def conjugate(self, y):
        y = expression_or_number("y", y)
        return sp.Max(self.args[0].conjugate(y), self.args[1].conjugate(y))

    def _latex_name(self, printer):
        return r"\min\left\{%s, %s\right\}" % (printer._print(self.args[0]),
                                                printer._print(self.args[1]))

    def _sympystr(self, printer):
        return "PointwiseMin(%s, %s)" % (printer._print(self.args[0]), printer._print(self.args[1]))


class ConvexEnvelope(TradeOff):
    r"""The biconjugate :math:`h^{**}(x) = \sup_y (xy - h^*(y))`: the greatest convex
    function below h on [0, 1].

    Evaluated from the definition: :math:`y \mapsto xy - h^*(y)` is concave, so
    its maximum is found by golden-section search on a bracket of slopes,
    at the requested precision.  (A closed form exists for symmetric f inside
    :math:`C_p`, Eq. 14; this object is the definition route it is checked against.)
    """

    def __new__(cls, h):
        return super().__new__(cls, _operand("h", h, pointwise_min=True))

    @property
    def base(self):
        return self.args[0]

    def pieces(self):
        raise NotImplementedError("the envelope is evaluated from its definition; no pieces")

    def conjugate(self, y):
        return self.base.conjugate(y)  # h*** = h*

    def expr(self, x=alpha):
        return EnvelopeAt(self, sp.sympify(x))

    def evaluate(self, x, dps=None):
        dps = 15 if dps is None else precision("dps", dps)
        with mpmath.workdps(dps + 15):
            value = envelope_value(self.base, to_mpf(sp.sympify(x)))
        return with_digits(value, dps)

    def _latex_name(self, printer):
        return r"\left(%s\right)^{**}" % printer._print(self.base)

    def _sympystr(self, printer):
        return "ConvexEnvelope(%s)" % printer._print(self.base)


class EnvelopeAt(ValueByDefinitionAt):
    """``h**(x)`` kept unevaluated; numerics from the definition (golden section)."""

    def _latex(self, printer, exp=None):
        body = r"%s\left(%s\right)" % (printer._print(self.args[0]), printer._print(self.args[1]))
        return body if exp is None else r"%s^{%s}" % (body, exp)


_Y = sp.Dummy("y", real=True)


@functools.lru_cache(maxsize=128)
def _conjugate_function(h: TradeOff):
    """:math:`h^*` as an mpmath function, built once per h (the Legendre transform is
    symbolic and costs far more than the hundreds of evaluations of one envelope value)."""
    return mp_callable((_Y,), h.conjugate(_Y))


def envelope_value(h: TradeOff, x):
    r""":math:`\sup_y (xy - h^*(y))` at the current precision, for x in [0, 1].

    Maximisers are slopes of the envelope: y <= 0 for a non-increasing h.  The
    bracket [-B, 0] is widened until the maximiser is interior, then
    golden-section search (the objective is concave) until the bracket is
    narrower than :math:`2^{-(\mathrm{prec}+4)}`: full precision also when the
    maximiser is a kink of :math:`h^*`.
    """
    conj = _conjugate_function(h)

    def objective(s):
        return x * s - conj(s)

    if x <= 0:
        return _sup_at_zero(h)
    lo, hi = mpmath.mpf(-1), mpmath.mpf(0)
    while objective(lo) > objective(lo / 2) and lo > -mpmath.mpf(10) ** 40:
        lo *= 4
    # the maximiser is often a kink of h* (always for piecewise-linear h): golden_max
    # narrows the bracket to full absolute precision for that reason
    return max(golden_max(objective, lo, hi), objective(hi))


def _sup_at_zero(h):
    """h**(0) = h(0) for a function continuous at 0 from the right (trade-off pieces)."""
    return to_mpf(sp.simplify(h.expr(sp.S.Zero)))
