r"""The p-sampling operator :math:`C_p` of Dong, Roth, Su 2022 (arXiv 1905.02383v3, Sec. 4).

Definition 4.1 (same number in JRSS-B 84(1), 2022): for a trade-off function f
and :math:`0 \le p \le 1`,

.. math::
    f_p = p f + (1-p)\,\mathrm{Id}, \qquad
    C_p(f) = \min\{f_p, f_p^{-1}\}^{**}

-- symmetrise by the minimum with the inverse (Eq. 4), then convexify by the
biconjugate (the greatest convex function below).  Theorem 4.2: if M is f-DP on
datasets of size m, then M applied to a uniformly random m-subset of an
n-record dataset is :math:`C_{m/n}(f)`-DP.

**Closed form (Eq. 14).**  For a *symmetric* f with fixed point
:math:`x^* = f(x^*)`,

.. math::
    C_p(f)(x) = \begin{cases}
        f_p(x) & 0 \le x \le x^*,\\
        x^* + f_p(x^*) - x & x^* \le x \le f_p(x^*),\\
        f_p^{-1}(x) & f_p(x^*) \le x \le 1.
    \end{cases}

Why (checked step by step in ``proofs/drs_eq14_closed_form.py``): symmetry puts
-1 in the subdifferential of f at x*, hence of f_p (its subdifferential is
:math:`p\,\partial f - (1-p)`), so the slope -1 line through
:math:`(x^*, f_p(x^*))` supports f_p and -- being symmetric about the diagonal --
also :math:`f_p^{-1}`; and :math:`f_p \le f_p^{-1}` on [0, x*].  The three
pieces are then a convex minorant of :math:`\min\{f_p, f_p^{-1}\}` that touches
it on both outer pieces and at both ends of the chord: the greatest one.

:class:`Subsampled` holds :math:`C_p(f)` exactly: Eq. 14 pieces for a symmetric
f (a piece with no closed-form inverse stays an exact
:class:`~symdp.tradeoff.base.InverseAt`), the definition
:meth:`Subsampled.definition` for any f.  ``p = 0`` gives Id and, for symmetric
f, ``p = 1`` gives f itself.

**Conjugate and privacy profile.**  The conjugate of a biconjugate is the
conjugate (:math:`h^{***} = h^*`) and the conjugate of a minimum is the maximum
of the conjugates, so

.. math::
    C_p(f)^*(y) = \max\{f_p^*(y),\ (f_p^{-1})^*(y)\},\qquad
    (g^{-1})^*(y) = -y\, g^*(1/y)\ \ (y < 0),

which needs no inverse in closed form (the Gaussian case); the privacy profile
is :math:`\delta(\varepsilon) = 1 + C_p(f)^*(-e^{\varepsilon})` (Prop. 2.12).
"""

from __future__ import annotations

import sympy as sp

from ..core.errors import NotATradeOffFunctionError
from ..core.special import phi_normal_form
from ..tradeoff.assumptions import Assumption
from ..tradeoff.base import (InverseAt, Piece, TradeOff, alpha, decide_nonnegative, piece,
                             privacy_profile as _profile_from_pieces, varepsilon)
from ..tradeoff.base import conjugate as _conjugate_from_pieces
from ..tradeoff.families import Identity
from ..tradeoff.operators import ConvexEnvelope, Mixture, PointwiseMin
from ..tradeoff.solve import solve_for
from ..core.validation import expression_or_number, probability, shown

_t = sp.Dummy("t", real=True)
_a = sp.Dummy("a", real=True)

__all__ = ["Subsampled", "subsample", "as_trade_off", "is_symmetric", "inverse_conjugate",
           "eq14_closed_form", "definition_4_1"]


def as_trade_off(f) -> TradeOff:
    """``f`` as a :class:`TradeOff`: trade-off objects pass through, a SymPy expression in
    ``alpha`` becomes ``TradeOff(expr)`` (its Prop. 2.2 conditions are assumptions that the
    derivations using it check or carry); anything else is an error.

    ``min{f, g}`` (:class:`PointwiseMin`) is not convex, so not a trade-off function.
    """
    if isinstance(f, PointwiseMin):
        raise NotATradeOffFunctionError(
            "f must be a trade-off function (Prop. 2.2); min{f, g} is not convex in general -- "
            "convexify it first (ConvexEnvelope)")
    if isinstance(f, TradeOff):
        return f
    if isinstance(f, sp.Expr):
        return TradeOff(f)
    raise NotATradeOffFunctionError(
        f"f must be a trade-off function (a symdp TradeOff or a SymPy expression in alpha); "
        f"got f={shown(f)}")


def is_symmetric(f: TradeOff) -> bool:
    """True when ``f = f^{-1}`` is known: by construction (the families, C_p itself) or shown
    for every value by :func:`symdp.proof.claims.validate_tradeoff` (``proved_symmetric``);
    False otherwise (objects never run the checker)."""
    return bool(getattr(f, "symmetric_by_construction", False)
                or getattr(f, "proved_symmetric", False))


def inverse_conjugate(g: TradeOff, y) -> sp.Expr:
    r""":math:`(g^{-1})^*(y) = -y\,g^*(1/y)` for y < 0 and :math:`y` for y >= 0.

    The graph of :math:`g^{-1}` is that of g reflected in the diagonal, so for
    y < 0: :math:`\sup_a (ya - g^{-1}(a)) = \sup_t (y\,g(t) - t) = -y \sup_t (t/y - g(t))`.
    (Taking a = g(t) gives >= since :math:`g^{-1}(g(t)) \le t`; taking
    :math:`t = g^{-1}(a)` gives <= since :math:`g(g^{-1}(a)) \le a`, by continuity,
    and y < 0.)  For y >= 0 the supremum is at a = 1, where :math:`g^{-1}(1) = 0`.
    """
    y = sp.sympify(y)
    if y.is_nonnegative:
        return y
    reflected = -y * g.conjugate(1 / y)
    if y.is_negative:
        return reflected
    return sp.Piecewise((reflected, y < 0), (y, True))


_CANDIDATES = (sp.Rational(1, 3), sp.Rational(1, 7), sp.Rational(2, 3), sp.Integer(2), sp.Integer(5))


def _generic_point(symbols, conditions) -> dict:
    """Values of the free parameters satisfying every recorded condition (a witness point
    used only to pick a branch that SymPy cannot pick symbolically; the choice is recorded)."""
    import itertools

    symbols = set(symbols).union(*(c.free_symbols for c in conditions))
    symbols = sorted(symbols, key=lambda s: s.name)

    for values in itertools.product(_CANDIDATES, repeat=len(symbols)):
        point = dict(zip(symbols, values))
        if all(sp.simplify(c.xreplace(point)) is sp.true for c in conditions):
            return point
    raise NotImplementedError(f"no admissible values found for {', '.join(map(str, symbols))}")


def _point_text(point: dict) -> str:
    return ", ".join(f"{s.name}={v}" for s, v in sorted(point.items(), key=lambda kv: kv[0].name))


class _Ordering:
    """Decides ``a <= b`` between piece boundaries and the fixed point: symbolically when
    SymPy can, else at an admissible witness point.  A choice made at a witness point is
    recorded as an :class:`~symdp.tradeoff.assumptions.Assumption` -- the non-strict relation
    the chosen branch needs (at equality both branches give the same pieces) -- for the
    proof layer to check over the domain or to carry as a hypothesis."""

    def __init__(self, conditions):
        self.conditions = tuple(conditions)
        self.assumed = []

    def le(self, a, b) -> bool:
        if a == b:
            return True
        verdict = decide_nonnegative(sp.simplify(phi_normal_form(b - a)))
        if verdict is not None:
            return bool(verdict)
        symbols = (a - b).free_symbols
        point = _generic_point(symbols, self.conditions)
        value = sp.N((b - a).xreplace(point), 30)
        holds = bool(value >= 0)
        self.assumed.append(Assumption(
            sp.Le(a, b, evaluate=False) if holds else sp.Le(b, a, evaluate=False),
            "C_p(f), Eq. 14: the order of a piece end and the fixed point x*, chosen at the "
            f"witness point {_point_text(point)} (SymPy could not decide it)"))
        return holds


def _tidy(e):
    """Simplify with the normal-law identities (Phi^{-1}(1 - u) = -Phi^{-1}(u), ...)."""
    return sp.simplify(phi_normal_form(sp.simplify(phi_normal_form(e))))


def _invert(q: Piece, fp: TradeOff, order: _Ordering) -> sp.Expr:
    """The inverse of one decreasing piece of f_p: ``g(t) = a`` solved for t by peeling;
    when the equation has several roots (a quadratic, for the Laplace middle piece) the one
    inside the piece is kept (chosen at a witness point, recorded); otherwise the exact
    implicit inverse :class:`InverseAt`."""
    t = q.g.variables[0]
    root = solve_for(q.g.expr, _a, t)
    if root is not None:
        return _tidy(root)
    try:
        roots = sp.solve(sp.Eq(q.g.expr, _a), t)
    except NotImplementedError:
        roots = []
    if len(roots) > 1 and not any(r.has(sp.I) for r in roots):
        # which root lies in [lo, hi] for a at the middle of the piece's range
        symbols = set().union(*(sp.sympify(e).free_symbols for e in (q.lo, q.hi, *roots))) - {_a}
        point = _generic_point(symbols, order.conditions) if symbols else {}
        lo, hi = (sp.N(b.xreplace(point), 30) for b in (q.lo, q.hi))
        mid = sp.N(q.at((q.lo + q.hi) / 2).xreplace(point), 30)
        inside = [r for r in roots
                  if lo - sp.Float("1e-20") <= sp.re(sp.N(r.xreplace(point).subs(_a, mid), 30))
                  <= hi + sp.Float("1e-20")]
        if len(inside) == 1:
            if symbols:
                order.assumed.extend(_root_assumptions(q, inside[0], point))
            return _tidy(inside[0])
    return InverseAt(fp, _a)


def _root_assumptions(q: Piece, root, point) -> tuple:
    r"""The claim that ``root`` (in :math:`a`) is the inverse of the decreasing piece
    :math:`g` on [lo, hi]: for every a in [g(hi), g(lo)], :math:`lo \le root(a) \le hi`
    (g(root(a)) = a holds for every root; the root in the piece is the inverse there)."""
    a = sp.Dummy("a", real=True)
    r = root.xreplace({_a: a})
    where = (sp.Ge(a, q.at(q.hi)), sp.Le(a, q.at(q.lo)))
    reason = (f"C_p(f), Eq. 14: the root of the quadratic {sp.sstr(q.g.expr)} = a that inverts "
              f"the piece, chosen at the witness point {_point_text(point)}")
    return (Assumption(sp.Ge(r, q.lo, evaluate=False), reason, ((a, sp.Interval(0, 1)),), where),
            Assumption(sp.Le(r, q.hi, evaluate=False), reason, ((a, sp.Interval(0, 1)),), where))


# Eq. 14's pieces by (f, p): equal objects are rebuilt often (a proof step is re-created with
# its parameters' assumption symbols), and deriving the inverse pieces costs about a second.
_PIECES_CACHE: dict = {}
_PIECES_CACHE_SIZE = 256


class Subsampled(TradeOff):
    r""":math:`C_p(f) = \min\{f_p, f_p^{-1}\}^{**}` (Dong, Roth, Su 2022, Def. 4.1 and Eq. 14).

    ``Subsampled(f, p)`` validates p in [0, 1] (:class:`~symdp.core.errors.InvalidParameterError`
    naming ``p``) and f as a trade-off function.  ``p = 0`` returns Id; ``p = 1`` returns
    f when f is symmetric (:math:`\min\{f, f^{-1}\}^{**} = f`), exactly.

    >>> from symdp import EpsDelta
    >>> from symdp.subsampling import subsample
    >>> subsample(EpsDelta(3, "0.1"), 0)
    Identity()
    >>> subsample(EpsDelta(3, "0.1"), 1)
    EpsDelta(3, 1/10)
    >>> sp.latex(subsample(EpsDelta(3, "0.1"), "0.2"))
    'C_{\\frac{1}{5}}\\left(f_{3,\\frac{1}{10}}\\right)'
    """

    symmetric_by_construction = True  # a symmetric function's envelope is symmetric

    def __new__(cls, f, p):
        f = as_trade_off(f)
        conditions = list(f.conditions)
        p = probability("p", p, conditions)
        if p == 0:
            return Identity()
        symmetric = is_symmetric(f)
        if p == 1 and symmetric:
            return f
        if isinstance(f, Identity):
            return f  # f_p = Id for every p
        obj = super().__new__(cls, f, p, conditions=conditions)
        # an abstract f (symdp.tradeoff.abstract) has no pieces: C_p(f) is its definition
        obj._symmetric_base = symmetric and not getattr(f, "is_abstract", False)
        return obj

    # ------------------------------------------------------------ structure
    @property
    def base(self) -> TradeOff:
        """The trade-off function f that is subsampled."""
        return self.args[0]

    @property
    def p(self) -> sp.Expr:
        """The sampling ratio p = m/n."""
        return self.args[1]

    @property
    def has_closed_form(self) -> bool:
        """True when Eq. 14 applies (f symmetric); otherwise C_p(f) is its definition."""
        return getattr(self, "_symmetric_base", None) if hasattr(self, "_symmetric_base") \
            else is_symmetric(self.base) and not getattr(self.base, "is_abstract", False)

    @property
    def mixture(self) -> TradeOff:
        r""":math:`f_p = p f + (1-p)\,\mathrm{Id}` (Def. 4.1)."""
        return Mixture(self.base, self.p)

    def definition(self) -> ConvexEnvelope:
        r""":math:`\min\{f_p, f_p^{-1}\}^{**}` (Def. 4.1), evaluated from the definition of the
        biconjugate -- the route every closed form is checked against."""
        fp = self.mixture
        return ConvexEnvelope(PointwiseMin(fp, fp.inverse()))

    def base_fixed_point(self) -> sp.Expr:
        r"""The fixed point :math:`x^* = f(x^*)` of f (Eq. 14's hypothesis)."""
        return self.base.fixed_point()

    def chord(self) -> tuple:
        r"""The ends :math:`(x^*, f_p(x^*))` and :math:`(f_p(x^*), x^*)` of the slope -1
        segment of Eq. 14, as ``(x_star, fp_at_x_star)``."""
        xs = _tidy(self.base_fixed_point())
        # f(x*) = x*, so f_p(x*) = p x* + (1 - p)(1 - x*); kept in this form (not simplified)
        # so that substituting p = 1/2 gives 1/2 exactly: a tie alpha = f_p(x*) that SymPy
        # must decide in a Piecewise condition is then decided at once
        return xs, self.p * xs + (1 - self.p) * (1 - xs)

    def pieces(self) -> list[Piece]:
        r"""Eq. 14: :math:`f_p` on [0, x*], the chord on [x*, f_p(x*)], :math:`f_p^{-1}` on
        [f_p(x*), 1]; the inverse pieces come from inverting the pieces of :math:`f_p` on
        [0, x*] (an :class:`InverseAt` where that has no closed form)."""
        if not self.has_closed_form:
            raise NotImplementedError("C_p(f) has the Eq. 14 closed form only for symmetric f; "
                                      "use definition() or evaluate()")
        cached = getattr(self, "_pieces", None)
        if cached is not None:
            return list(cached)
        if self in _PIECES_CACHE:
            self._pieces, self._assumed = _PIECES_CACHE[self]
            return list(self._pieces)
        fp = self.mixture
        xs, fxs = self.chord()
        order = _Ordering(self.conditions)
        left = []
        for q in fp.pieces():
            if q.lo == q.hi or not order.le(q.lo, xs) or q.lo == xs:
                continue
            hi = q.hi if order.le(q.hi, xs) else xs
            left.append(Piece(q.lo, hi, q.g))
        right = [Piece(fxs if q.hi == xs else _tidy(q.at(q.hi)), _tidy(q.at(q.lo)),
                       sp.Lambda(_a, _invert(q, fp, order)))
                 for q in reversed(left)]
        middle = [piece(xs, fxs, xs + fxs - _t, _t)]
        f0 = _tidy(fp.pieces()[0].at(sp.S.Zero))  # f_p(0), from the first piece's formula
        tail = [] if f0 == 1 else [piece(f0, 1, sp.S.Zero, _t)]
        self._assumed = tuple(dict.fromkeys(order.assumed))  # each choice once
        self._pieces = tuple(left + middle + right + tail)
        if len(_PIECES_CACHE) >= _PIECES_CACHE_SIZE:
            _PIECES_CACHE.pop(next(iter(_PIECES_CACHE)))
        _PIECES_CACHE[self] = (self._pieces, self._assumed)
        return left + middle + right + tail

    @property
    def assumptions(self) -> tuple:
        """:class:`~symdp.tradeoff.assumptions.Assumption` records: the orderings (and roots)
        that SymPy could not decide for symbolic parameters and that were chosen at an
        admissible witness point to build the Eq. 14 pieces (empty for numbers, and for the
        definition route).  The proof layer checks them over a step's domain or carries
        them as hypotheses of its verdict (:mod:`symdp.proof.obligations`)."""
        conditions = super().assumptions  # p <= 1, the base's own conditions
        if not self.has_closed_form:
            return conditions
        self.pieces()
        return conditions + getattr(self, "_assumed", ())

    def expr(self, x=alpha):
        """Eq. 14 as a Piecewise for symmetric f; the envelope (unevaluated) otherwise."""
        if not self.has_closed_form:
            return self.definition().expr(x)
        return super().expr(x)

    def evaluate(self, x, dps: int | None = None):
        if not self.has_closed_form:
            return self.definition().evaluate(x, dps)
        return super().evaluate(x, dps)

    # ------------------------------------------------------------ derived quantities
    def inverse(self) -> TradeOff:
        """C_p(f) is symmetric: its own inverse (for symmetric f; else the generic inverse)."""
        return self if self.has_closed_form else super().inverse()

    def fixed_point(self) -> sp.Expr:
        r"""The midpoint of the chord, :math:`(x^* + f_p(x^*))/2 = (1 - p)/2 + p x^*` for
        symmetric f (tests check C_p(f) there equals it)."""
        if not self.has_closed_form:
            return super().fixed_point()
        xs, fxs = self.chord()
        return _tidy((xs + fxs) / 2)

    def conjugate(self, y) -> sp.Expr:
        r""":math:`C_p(f)^*(y)`: the Legendre transform of the Eq. 14 pieces when each has a
        closed-form stationary point, else :math:`\max\{f_p^*(y), (f_p^{-1})^*(y)\}`."""
        y = expression_or_number("y", y)
        if self.has_closed_form:
            try:
                return _conjugate_from_pieces(self, y)
            except NotImplementedError:
                pass
        return self.conjugate_from_definition(y)

    def conjugate_from_definition(self, y) -> sp.Expr:
        r""":math:`\max\{f_p^*(y), (f_p^{-1})^*(y)\}` with :math:`(f_p^{-1})^*(y) = -y f_p^*(1/y)`
        (y < 0): :math:`h^{***} = h^*` and :math:`(\min\{g, h\})^* = \max\{g^*, h^*\}`."""
        y = sp.sympify(y)
        fp = self.mixture
        return sp.Max(fp.conjugate(y), inverse_conjugate(fp, y))

    def privacy_profile(self, eps=varepsilon) -> sp.Expr:
        r""":math:`\delta(\varepsilon) = 1 + C_p(f)^*(-e^{\varepsilon})` (Prop. 2.12)."""
        eps = expression_or_number("eps", eps, lower=0)
        if self.has_closed_form:
            try:
                return _profile_from_pieces(self, eps)
            except NotImplementedError:
                pass
        return 1 + self.conjugate_from_definition(-sp.exp(eps))

    def min_error_sum(self) -> sp.Expr:
        r""":math:`\min_\alpha (\alpha + C_p(f)(\alpha)) = x^* + f_p(x^*) = 1 - p + 2p x^*`
        for symmetric f: the chord has slope -1 and C_p(f) is convex."""
        xs, fxs = self.chord()
        return _tidy(xs + fxs)

    # ------------------------------------------------------------ printing
    def _latex_name(self, printer):
        return r"C_{%s}\left(%s\right)" % (printer._print(self.p), printer._print(self.base))

    def _sympystr(self, printer):
        return "Subsampled(%s, %s)" % (printer._print(self.base), printer._print(self.p))


def definition_4_1(f, p) -> ConvexEnvelope:
    r""":math:`\min\{f_p, f_p^{-1}\}^{**}` (Def. 4.1) as an object, for every p in [0, 1] and
    every f (``subsample`` returns f or Id at p = 1 or 0; this keeps the definition)."""
    fp = Mixture(as_trade_off(f), p)
    return ConvexEnvelope(PointwiseMin(fp, fp.inverse()))


def eq14_closed_form(f, p, x=alpha, x_star=None) -> sp.Expr:
    r"""Eq. 14 as the paper writes it, for a symmetric trade-off function f with fixed point
    :math:`x^*` (``x_star``; default ``f.fixed_point()``):

    .. math::
        C_p(f)(x) = f_p(x)\ (x \le x^*),\quad x^* + f_p(x^*) - x\ (x \le f_p(x^*)),\quad
        f_p^{-1}(x)\ \text{otherwise},

    with :math:`f_p(x) = p f(x) + (1 - p)(1 - x)` written out through f's own closed form,
    :math:`f_p(x^*) = p x^* + (1 - p)(1 - x^*)` (as ``f(x*) = x*``) and :math:`f_p^{-1}` kept as
    the exact :class:`~symdp.tradeoff.base.InverseAt` -- no inversion is done here (compare
    :meth:`Subsampled.pieces`, which inverts f_p piece by piece where it can).  This is the
    statement that ``proofs/drs_eq14_closed_form.py`` proves equal to Def. 4.1."""
    f = as_trade_off(f)
    p, x = sp.sympify(p), sp.sympify(x)
    xs = f.fixed_point() if x_star is None else sp.sympify(x_star)
    fp = Mixture(f, p)
    y_star = p * xs + (1 - p) * (1 - xs)
    return sp.Piecewise((p * f.expr(x) + (1 - p) * (1 - x), sp.Le(x, xs)),
                        (xs + y_star - x, sp.Le(x, y_star)),
                        (InverseAt(fp, x), True))


def subsample(f, p) -> TradeOff:
    r""":math:`C_p(f)` (Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 4.1; Eq. 14 for
    symmetric f): the trade-off function of an f-DP mechanism run on a uniformly random
    subsample of a fraction p of the records (Thm. 4.2).

    >>> from symdp import Gaussian
    >>> C = subsample(Gaussian(1), "0.2")
    >>> C.fixed_point()
    Phi(-1/2)/5 + 2/5
    """
    return Subsampled(f, p)
