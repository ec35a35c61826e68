r"""Trade-off functions of f-DP as exact SymPy objects.

(One module of about 540 lines on purpose: the :class:`TradeOff` base class, its three
evaluation nodes -- :class:`TradeOffAt`, :class:`InverseAt`, :class:`ConjugateAt`, whose
compiler hooks call back into the base class -- and the conjugate, profile and fixed point
they are built from refer to each other.)

A trade-off function (Dong, Roth, Su 2022, arXiv 1905.02383v3, Def. 2.1) is
:math:`T(P,Q)(\alpha) = \inf\{\beta_\phi : \alpha_\phi \le \alpha\}`; by
Prop. 2.2 these are exactly the convex, continuous, non-increasing
:math:`f:[0,1]\to[0,1]` with :math:`f(\alpha) \le 1-\alpha`.

Every :class:`TradeOff` is a SymPy ``Basic`` whose ``args`` are its parameters
(numbers or symbols).  It is described by its *pieces*: consecutive intervals
``[lo, hi]`` of [0, 1] on each of which it is one analytic expression.  The
generic operators -- inverse (Eq. 4), fixed point, convex conjugate (Legendre
transform), privacy profile (Prop. 2.12) -- work on the pieces, so they apply
to every family and every operator result alike.

``f(x)`` is an unevaluated :class:`TradeOffAt` that prints as the paper writes
it (``G_{\mu}(x)``) and whose ``doit()`` is the closed form.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.special import Phi, PhiInv, phi_normal_form
from ..core.validation import expression_or_number, precision
from ..numeric.digits import with_digits
from ..numeric.mp_compiler import mp_callable, to_mpf
from ..numeric.roots import decreasing_inverse
from .solve import solve_for

#: The type-I error, the variable of every trade-off function.
alpha = sp.Symbol("alpha", real=True)
#: The privacy parameter of a privacy profile.
varepsilon = sp.Symbol("varepsilon", real=True)


@dataclass(frozen=True)
class Piece:
    """``f(x) = g(x)`` for ``lo <= x <= hi``; ``g`` is a ``Lambda`` of one variable."""

    lo: sp.Expr
    hi: sp.Expr
    g: sp.Lambda

    def at(self, x):
        return self.g(x)

    def slope(self, x):
        t = self.g.variables[0]
        return sp.diff(self.g.expr, t).subs(t, x)

    @property
    def is_linear(self) -> bool:
        t = self.g.variables[0]
        return sp.diff(self.g.expr, t, 2) == 0 and not sp.diff(self.g.expr, t).has(t)


def piece(lo, hi, expr_in_t, t) -> Piece:
    return Piece(sp.sympify(lo), sp.sympify(hi), sp.Lambda(t, expr_in_t))


class TradeOff(sp.Basic):
    """Base class of trade-off functions.  Subclasses implement :meth:`pieces`."""

    #: set by families whose symmetry is a theorem (tests re-derive it from the inverse)
    symmetric_by_construction = False

    def __new__(cls, *args, conditions=(), **kwargs):
        if cls is TradeOff:  # TradeOff(expr): a user-supplied function (Prop. 2.2: symdp.proof.claims)
            from .custom import UserTradeOff

            return UserTradeOff(*args, **kwargs)
        obj = super().__new__(cls, *args)
        obj._conditions = tuple(conditions)
        return obj

    # ------------------------------------------------------------ structure
    @property
    def conditions(self) -> tuple:
        """Constraints on symbolic parameters that could not be decided (recorded, not assumed)."""
        return getattr(self, "_conditions", ())

    @property
    def assumptions(self) -> tuple:
        """Facts the object rests on but did not prove
        (:class:`~symdp.tradeoff.assumptions.Assumption`): by default its :attr:`conditions`,
        the constraints on symbolic parameters it could not decide (``delta <= 1``).  The
        proof layer checks them over a step's domain or carries them as hypotheses of its
        verdict."""
        from .assumptions import Assumption

        reason = (f"a condition on the parameters of {type(self).__name__} that it could not "
                  "decide (recorded, not assumed)")
        return tuple(Assumption(c, reason) for c in self.conditions
                     if isinstance(c, sp.core.relational.Relational))

    def pieces(self) -> list[Piece]:  # pragma: no cover - abstract
        raise NotImplementedError

    def expr(self, x=alpha) -> sp.Expr:
        """The closed form in ``x`` (a Piecewise over the pieces unless a family prints better)."""
        x = sp.sympify(x)
        parts = self.pieces()
        if len(parts) == 1:
            return parts[0].at(x)
        branches = [(p.at(x), sp.Le(x, p.hi)) for p in parts[:-1]]
        branches.append((parts[-1].at(x), True))
        return sp.Piecewise(*branches)

    def __call__(self, x):
        return TradeOffAt(self, sp.sympify(x))

    # ------------------------------------------------------------ evaluation
    def evaluate(self, x, dps: int | None = None):
        """f(x), exactly or to ``dps`` digits.

        With ``dps`` None and an exact ``x``, the exact value when it is an elementary
        closed form (rationals, e, pi, exp, log and powers: ``EpsDelta(1, "0.1")`` at 1/20
        gives ``9/10 - E/20``); otherwise an mpf computed at ``dps`` digits (15 when None)
        that prints those digits (:class:`~symdp.numeric.digits.Digits`).  Precision is
        scoped (``mpmath.workdps``); the caller's precision is untouched.
        """
        x = _check_alpha(x)
        if x.free_symbols:
            raise InvalidParameterError(f"alpha must be a number in [0, 1] to evaluate at; got "
                                        f"alpha={x} (f(x) or f.expr(x) is the symbolic value)")
        if dps is not None:
            dps = precision("dps", dps)
        if dps is None:
            if x.is_Rational:
                value = sp.simplify(self.expr(x))
                if _is_elementary_number(value):
                    return value
            dps = 15
        with mpmath.workdps(dps + 10):
            fn = mp_callable((alpha,), self.expr(alpha))
            value = fn(to_mpf(x))
        return with_digits(value, dps)

    def evaluate_many(self, points, dps: int = 50) -> list:
        """f at many points to ``dps`` correct digits, by ball arithmetic
        (:func:`symdp.tradeoff.highprec.evaluate_many`)."""
        from .highprec import evaluate_many

        return evaluate_many(self, points, dps)

    def mp_function(self):
        """An mpmath function of alpha computing at the caller's precision."""
        return mp_callable((alpha,), self.expr(alpha))

    # ------------------------------------------------------------ operators
    def inverse(self) -> "TradeOff":
        r"""The inverse :math:`f^{-1}(a) = \inf\{t \in [0,1] : f(t) \le a\}` (Eq. 4)."""
        from .operators import Inverse

        return Inverse(self)

    def mix(self, p) -> "TradeOff":
        """The mixture ``f_p = p f + (1 - p) Id`` (Def. 4.1)."""
        from .operators import Mixture

        return Mixture(self, p)

    def fixed_point(self) -> sp.Expr:
        r"""The unique :math:`x^*` with :math:`f(x^*) = x^*` (exists for every trade-off function,
        since :math:`f(x) - x` falls strictly from :math:`f(0) \ge 0` to :math:`-1`)."""
        return fixed_point(self)

    def conjugate(self, y) -> sp.Expr:
        r"""The convex conjugate :math:`f^*(y) = \sup_{0 \le x \le 1} (yx - f(x))`."""
        y = expression_or_number("y", y)
        value = conjugate(self, y)
        if y.is_number and (value.has(sp.zoo) or value.has(sp.nan)):
            # y is where a smooth piece's slope tends to (G_mu at y = 0: the stationary point
            # runs to x = 1): the closed form is undefined there, the sup is at an end point
            value = _conjugate_at_ends(self, y)
        return value

    def privacy_profile(self, eps=varepsilon) -> sp.Expr:
        r""":math:`\delta(\varepsilon) = 1 + f^*(-e^{\varepsilon})` (Prop. 2.12), simplified for
        :math:`\varepsilon \ge 0` (a number ``eps`` must be ``>= 0``)."""
        return privacy_profile(self, expression_or_number("eps", eps, lower=0))

    # ------------------------------------------------------------ printing
    def _latex_name(self, printer) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _latex(self, printer, exp=None):
        name = self._latex_name(printer)
        return name if exp is None else r"\left(%s\right)^{%s}" % (name, exp)

    def _repr_latex_(self):
        return "$\\displaystyle %s$" % sp.latex(self)


_ELEMENTARY = (sp.exp, sp.log)


def _is_elementary_number(value) -> bool:
    """An exact real number written with rationals, e, pi, exp, log and powers only (no
    Float, no Piecewise or Max left undecided, no special function)."""
    if not isinstance(value, sp.Expr) or not value.is_number or value.has(sp.Float):
        return False
    if value.is_real is not True:
        return False
    for node in sp.preorder_traversal(value):
        if isinstance(node, (sp.Rational, sp.Add, sp.Mul, sp.Pow)) or node in (sp.E, sp.pi):
            continue
        if isinstance(node, sp.Function) and node.func in _ELEMENTARY:
            continue
        return False
    return True


class TradeOffAt(sp.Expr):
    """``f(x)`` unevaluated; ``doit()`` gives the closed form, ``evalf`` the value."""

    is_commutative = True

    def __new__(cls, f, x):
        if not isinstance(f, TradeOff):
            raise TypeError("TradeOffAt needs a TradeOff")
        x = sp.sympify(x)
        if x.is_number:
            _check_alpha(x)
        return super().__new__(cls, f, x)

    @property
    def function(self) -> TradeOff:
        return self.args[0]

    @property
    def point(self) -> sp.Expr:
        return self.args[1]

    def _eval_is_real(self):
        return True

    def _eval_is_nonnegative(self):
        return True

    def doit(self, **hints):
        x = self.point.doit(**hints) if hints.get("deep", True) else self.point
        return self.function.expr(x)

    # hooks of the numeric layer (symdp.numeric knows no trade-off objects)
    def _arb_compile_(self, compiler):
        """Ball evaluation through the closed form."""
        return compiler(self.doit())

    def _mpmath_compile_(self, compiler):
        """mpmath evaluation: f's compiled function (compiled on first use) at the point."""
        return compiler.deferred(self.function.mp_function), (self.point,)

    def _eval_evalf(self, prec):
        x = self.point.evalf(prec)
        if not x.is_Number:
            return None
        dps = mpmath.libmp.prec_to_dps(prec)
        value = self.function.evaluate(sp.Float(x, dps + 10) if not self.point.is_Rational
                                       else self.point, dps=dps + 5)
        return sp.Float(value, dps + 5)

    def _latex(self, printer, exp=None):
        body = r"%s\left(%s\right)" % (printer._print(self.function), printer._print(self.point))
        return body if exp is None else r"%s^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "%s(%s)" % (printer._print(self.function), printer._print(self.point))


class InverseAt(sp.Expr):
    r""":math:`f^{-1}(a) = \inf\{t : f(t) \le a\}` kept exact where no closed form exists.

    Evaluated by bracketed root-finding on [0, 1] at the requested precision
    (:func:`symdp.numeric.roots.decreasing_inverse`).
    """

    is_commutative = True

    def __new__(cls, f, a):
        return super().__new__(cls, f, sp.sympify(a))

    def _eval_is_real(self):
        return True

    def _eval_evalf(self, prec):
        a = self.args[1].evalf(prec)
        if not a.is_Number:
            return None
        f = self.args[0]
        dps = mpmath.libmp.prec_to_dps(prec)
        with mpmath.workdps(dps + 15):
            func = f.mp_function()
            value = decreasing_inverse(func, to_mpf(a))
        return sp.Float(value, dps + 5)

    # hooks of the numeric layer
    def _arb_compile_(self, compiler):
        """A certified ball of the infimum (root isolation on f's closed form)."""
        f, a = self.args
        return compiler.decreasing_inverse(self, f.expr, a)

    def _mpmath_compile_(self, compiler):
        """mpmath evaluation: bracketed root-finding on f's compiled function."""
        f, a = self.args
        return compiler.decreasing_inverse(f.mp_function), (a,)

    def _latex(self, printer, exp=None):
        body = r"%s^{-1}\left(%s\right)" % (printer._print(self.args[0]), printer._print(self.args[1]))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "InverseAt(%s, %s)" % (printer._print(self.args[0]), printer._print(self.args[1]))


def _check_alpha(x):
    from ..core.validation import to_exact

    x = to_exact("alpha", x) if not isinstance(x, sp.Basic) else x
    if x.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise InvalidParameterError(f"alpha must be a finite number in [0, 1]; got alpha={x}")
    if x.is_number:
        if x.is_real is False or (x < 0) == sp.true or (x > 1) == sp.true:
            raise InvalidParameterError(f"alpha must be in [0, 1]; got alpha={x}")
    return x


# ---------------------------------------------------------------- generic algorithms

def _simplify(e):
    return sp.simplify(phi_normal_form(e))


@functools.lru_cache(maxsize=1024)
def _limit_slope(p: Piece, at_lo: bool):
    """g'(lo+) or g'(hi-), through a limit when the slope is infinite there.  Kept per
    piece: a conjugate or privacy profile at each new y or eps needs the same slopes."""
    t = p.g.variables[0]
    dg = sp.diff(p.g.expr, t)
    point = p.lo if at_lo else p.hi
    direct = dg.subs(t, point)
    if direct.is_finite or direct in (sp.oo, -sp.oo):
        return sp.simplify(direct) if direct.is_finite else direct
    # reparametrise through an inner Phi^{-1}(...t...) so the limit is one of exp
    for node in sp.preorder_traversal(dg):
        if isinstance(node, PhiInv) and node.has(t):
            z = sp.Dummy("z", real=True)
            from .solve import peel

            t_of_z = peel(node, z, t)
            if t_of_z is None:
                continue
            in_z = sp.powsimp(sp.expand(dg.xreplace({node: z}).subs(t, t_of_z)), force=True)
            if in_z.has(t):
                continue
            z_end = node.subs(t, point)
            if z_end in (sp.oo, -sp.oo):
                return sp.limit(in_z, z, z_end)
    return sp.limit(dg, t, point, "+" if at_lo else "-")


def conjugate(f: TradeOff, y: sp.Expr) -> sp.Expr:
    r"""Legendre transform :math:`f^*(y) = \sup_{x \in [0,1]} (yx - f(x))` from the pieces.

    f is convex, so its slope increases left to right; the supremum is attained
    at x = 0 for y below every slope, at the stationary point
    :math:`x(y) = (g')^{-1}(y)` of a smooth piece for y in that piece's slope
    range, at a kink for y between the one-sided slopes there, and at x = 1
    above every slope.  The result is one Piecewise in y (:func:`conjugate_branches`).
    """
    return sp.Piecewise(*[(value, condition) for value, condition, *_ in
                          conjugate_branches(f, y)])


def conjugate_branches(f: TradeOff, y: sp.Expr) -> list:
    r"""The branches of :func:`conjugate`, each ``(value, condition, maximiser, piece,
    kind)``: the Piecewise's value and condition, the point x where the supremum is attained,
    and why -- ``"stationary"`` (``g'(x) = y`` on the piece of that index), ``"point"`` (x is
    the start of that piece: x = 0 or a kink) or ``"end"`` (x = 1).  The kernel checks a
    closed form of f^* against these (:mod:`symdp.proof.kernel.conjugate`, issue #27)."""
    branches = []
    parts = [p for p in f.pieces() if p.lo != p.hi]
    first = parts[0]
    branches.append((-first.at(sp.S.Zero), sp.Le(y, _limit_slope(first, True)), sp.S.Zero, 0,
                     "point"))
    for k, p in enumerate(parts):
        if not p.is_linear:
            t = p.g.variables[0]
            xs = solve_for(sp.diff(p.g.expr, t), y, t)
            if xs is None:
                raise NotImplementedError(f"no closed-form stationary point for the piece {p.g.expr}")
            xs = _simplify(xs)
            value = phi_normal_form(sp.expand(phi_normal_form(y * xs - p.at(xs))))
            # on this branch the stationary point is a point of [0, 1]: an argument u of
            # Phi there is real, so Phi^{-1}(Phi(u)) = u (SymPy cannot see u is real)
            value = value.replace(lambda e: isinstance(e, PhiInv) and isinstance(e.args[0], Phi),
                                  lambda e: e.args[0].args[0])
            branches.append((value, sp.Le(y, _limit_slope(p, False)), xs, k, "stationary"))
        # the kink at p.hi (or x = 1 for the last piece)
        if k + 1 < len(parts):
            branches.append((y * p.hi - p.at(p.hi), sp.Le(y, _limit_slope(parts[k + 1], True)),
                             p.hi, k + 1, "point"))
    last = parts[-1]
    branches.append((y * sp.S.One - last.at(sp.S.One), sp.true, sp.S.One, len(parts) - 1, "end"))
    return branches


def conjugate_evidence(f: TradeOff, y):
    """``(variable, pieces, branches)`` for the kernel's conjugate rule at ``y``: the pieces
    ``(lo, hi, g)`` of f, g in a fresh real variable, and :func:`conjugate_branches`."""
    t = sp.Dummy("x", real=True)
    pieces = tuple((p.lo, p.hi, p.at(t)) for p in f.pieces() if p.lo != p.hi)
    return t, pieces, tuple(conjugate_branches(f, sp.sympify(y)))


def _conjugate_at_ends(f: TradeOff, y) -> sp.Expr:
    r""":math:`\max_x (yx - f(x))` over the end points of ``f``'s pieces: :math:`f^*(y)` at a
    number ``y`` where the stationary point of a piece reaches its end (the conjugate is
    continuous there, so the supremum is attained at that end)."""
    candidates = []
    for p in f.pieces():
        for x in (p.lo, p.hi):
            value = sp.simplify(y * x - p.at(x))
            if value.is_finite:
                candidates.append(value)
    return sp.Max(*candidates)


def privacy_profile(f: TradeOff, eps=varepsilon) -> sp.Expr:
    r""":math:`\delta(\varepsilon) = 1 + f^*(-e^{\varepsilon})`, simplified for
    :math:`\varepsilon \ge 0` (Dong, Roth, Su 2022, Prop. 2.12)."""
    e = sp.Dummy("varepsilon", nonnegative=True)
    value = 1 + conjugate(f, -sp.exp(e))
    value = sp.piecewise_fold(value)
    value = _tidy(value)
    return value.xreplace({e: eps})


def _tidy(expr):
    """Expand, normalise Phi identities, compare exponents instead of exponentials, and
    drop Piecewise branches whose condition is decided."""
    if isinstance(expr, sp.Piecewise):
        args = []
        for e, c in expr.args:
            c = _tidy_condition(c)
            if c is sp.false:
                continue
            args.append((_tidy(e), c))
            if c is sp.true:
                break
        return sp.Piecewise(*args) if len(args) > 1 or args[0][1] is not sp.true else args[0][0]
    return sp.factor_terms(phi_normal_form(sp.expand(phi_normal_form(sp.expand(expr)))))


def _tidy_condition(c):
    """``exp(a) >= exp(b)`` -> ``a >= b`` (exp is increasing), then decide if possible."""
    if isinstance(c, sp.core.relational.Relational):
        lhs, rhs = c.lhs, c.rhs
        if isinstance(lhs, sp.exp) and isinstance(rhs, sp.exp):
            c = c.func(lhs.args[0], rhs.args[0])
            if not isinstance(c, sp.core.relational.Relational):
                return c
        diff = c.lhs - c.rhs
        if c.rel_op in (">=", ">"):
            decided = decide_nonnegative(diff) if c.rel_op == ">=" else None
        elif c.rel_op in ("<=", "<"):
            decided = decide_nonnegative(-diff) if c.rel_op == "<=" else None
        else:
            decided = None
        if decided is True:
            return sp.true
    return c


def decide_nonnegative(expr) -> bool | None:
    """Sign of an expression in the parameters: SymPy's assumptions, then after
    simplification and after writing ``exp(m) = 1 + u`` (``u >= 0`` for ``m >= 0``)."""
    for e in (expr, sp.simplify(expr)):
        verdict = e.is_nonnegative
        if verdict is not None:
            return verdict
    exps = {a for a in expr.atoms(sp.exp) if a.args[0].is_nonnegative}
    if exps:
        sub = {}
        for a in exps:
            sub[a] = 1 + sp.Dummy("u", nonnegative=True)
        e = expr.subs(sub)
        e = sp.simplify(sp.together(sp.powsimp(e)))
        if not e.atoms(sp.exp):
            return e.is_nonnegative
    return None


def fixed_point(f: TradeOff) -> sp.Expr:
    """x* with f(x*) = x*.  As f(x) - x falls strictly, x* lies on the piece [lo, hi]
    with g(lo) >= lo and g(hi) <= hi; g(x) = x is solved there."""
    undecided = []
    for p in f.pieces():
        if p.lo == p.hi:
            continue
        starts_above = decide_nonnegative(p.at(p.lo) - p.lo)
        ends_below = decide_nonnegative(p.hi - p.at(p.hi))
        if starts_above is False or ends_below is False:
            continue
        t = p.g.variables[0]
        tp = sp.Dummy("x", positive=True)
        root = solve_for(p.g.expr.xreplace({t: tp}), tp, tp)
        if root is None:
            raise NotImplementedError(f"no closed-form solution of g(x) = x on the piece {p.g.expr}")
        root = _simplify(root)
        if starts_above and ends_below:
            return root
        undecided.append((root, sp.And(sp.Ge(p.at(p.lo), p.lo), sp.Le(p.at(p.hi), p.hi))))
    if not undecided:
        raise NotImplementedError(f"no piece of {f} holds the fixed point")
    if len(undecided) == 1:
        return undecided[0][0]
    return sp.Piecewise(*undecided[:-1], (undecided[-1][0], True))


class ConjugateAt(sp.Expr):
    r""":math:`f^*(y)` unevaluated; ``doit()`` runs the Legendre transform on the pieces."""

    is_commutative = True

    def __new__(cls, f, y):
        return super().__new__(cls, f, sp.sympify(y))

    def _eval_is_real(self):
        return True

    def doit(self, **hints):
        f, y = self.args
        y = y.doit(**hints) if hints.get("deep", True) else y
        return f.conjugate(y)

    def _eval_evalf(self, prec):
        return self.doit()._eval_evalf(prec)

    def _arb_compile_(self, compiler):
        r"""Ball evaluation from the definition, :math:`\sup_{0 \le x \le 1}(x y - f(x))` by
        branch and bound (:meth:`~symdp.numeric.ball_compiler.BallCompiler.conjugate`): evidence
        about a conjugate never rests on its derived closed form (issue #27)."""
        f, y = self.args
        return compiler.conjugate(self, f.expr, y)

    def _mpmath_compile_(self, compiler):
        r"""mpmath evaluation from the definition: the maximum of the concave
        :math:`x \mapsto x y - f(x)` on [0, 1] by golden-section search at the caller's
        precision (:func:`symdp.numeric.roots.golden_max`); the numeric stage compares two
        precisions."""
        f, y = self.args
        return compiler.conjugate(f.mp_function), (y,)

    def _latex(self, printer, exp=None):
        name = printer._print(self.args[0])
        if "^" in name:
            name = r"\left(%s\right)" % name
        body = r"%s^{*}\left(%s\right)" % (name, printer._print(self.args[1]))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "ConjugateAt(%s, %s)" % (printer._print(self.args[0]), printer._print(self.args[1]))
