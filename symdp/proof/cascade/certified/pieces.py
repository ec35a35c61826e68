r"""Piecewise margins in one parameter: split the range at the breakpoints.

A margin containing ``Piecewise``, ``Max``, ``Min`` or ``Abs`` is a different
smooth expression on each side of a breakpoint (the root of a condition
``g(x) = 0`` or of ``a_i(x) = a_j(x)`` for two arguments of a Max/Min).  Two
things go wrong for a box search on such a margin: the monotonicity test is not
available (SymPy's derivative of a Piecewise is not the derivative across a
breakpoint), and a margin that *touches* 0 at a kink, or is identically 0 on a
whole piece (the chord of :math:`C_p(f)`, where :math:`\alpha + C_p(f)(\alpha)` is
constant), is never decided by widths alone.

When every condition of the margin depends on one parameter x only, and SymPy
finds every root of every such condition in the range of x exactly (a
``FiniteSet`` from ``solveset``), the range is cut at those roots
:math:`c_1 < \dots < c_r`:

* on each piece :math:`[c_i, c_{i+1}]` every condition keeps one truth value on
  the open piece (its boundary lies on no interior point), so the margin *is*
  one branch expression there: the branch is read off at the exact midpoint and
  the Piecewise/Max/Min/Abs nodes are replaced by it;
* each piece is searched with the change of variables
  :math:`x = c_i + (c_{i+1} - c_i) t`, :math:`t \in [0, 1]`, so its ends are ends
  of a box, substituted exactly and simplified (a margin 0 at a kink is seen as
  0), and the monotonicity test applies to the branch expression;
* the margin at every cut (and at the ends of the range) is evaluated exactly
  (the original expression, whose conditions SymPy decides at the exact point)
  and its sign decided, so the branch taken *at* a breakpoint is covered too.

Anything that does not fit (a condition in two parameters, a root SymPy does not
return as a finite set, a branch not decided at a midpoint) returns None and the
ordinary search runs.
"""

from __future__ import annotations

import sympy as sp

MAX_BREAKPOINTS = 12


def _conditions(expr):
    """The functions whose sign changes switch a branch of ``expr``: ``g`` for each
    relational ``g REL 0`` of a Piecewise, ``a_i - a_j`` for Max/Min, the argument of Abs."""
    out = []
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Piecewise):
            for _, cond in node.args:
                if cond in (sp.true, sp.false):
                    continue
                atoms = cond.atoms(sp.core.relational.Relational)
                if not atoms:
                    return None
                for rel in atoms:
                    if rel.rel_op not in ("<=", "<", ">=", ">"):
                        return None
                    out.append(rel.lhs - rel.rhs)
        elif isinstance(node, (sp.Max, sp.Min)):
            args = node.args
            out.extend(args[i] - args[j] for i in range(len(args)) for j in range(i + 1, len(args)))
        elif isinstance(node, sp.Abs):
            out.append(node.args[0])
    return out


def breakpoints(margin, symbol, lo, hi, work: int | None = None):
    """The exact roots in ``(lo, hi)`` of every switching function of ``margin``, sorted;
    None when a switching function involves another symbol or a root set is not finite,
    or when they are not found within ``work`` heartbeats
    (:data:`~symdp.proof.budgets.BREAKPOINT_WORK` by default)."""
    from ...budgets import BREAKPOINT_WORK, WorkExhausted, work_limit

    funcs = _conditions(margin)
    if funcs is None:
        return None
    roots = []
    try:
        with work_limit(BREAKPOINT_WORK if work is None else work):
            for g in funcs:
                g = sp.sympify(g)
                if g.free_symbols - {symbol}:
                    return None
                if symbol not in g.free_symbols:
                    continue
                sol = sp.solveset(g, symbol, sp.Interval.open(lo, hi))
                if not isinstance(sol, sp.FiniteSet):
                    return None
                for r in sol:
                    if not (r.is_real and r.is_number):
                        return None
                    roots.append(r)
    except (WorkExhausted, Exception):  # noqa: BLE001 - no split, the ordinary search runs
        return None
    return _sorted_distinct(roots)


def _sorted_distinct(roots):
    keyed = sorted(((sp.N(r, 50), r) for r in roots), key=lambda kr: kr[0])
    out = []
    for value, r in keyed:
        if out and abs(value - out[-1][0]) < sp.Float(10) ** -40:
            if sp.simplify(r - out[-1][1]) == 0:
                continue
            return None  # two roots too close to order: do not guess
        out.append((value, r))
    if len(out) > MAX_BREAKPOINTS:
        return None
    return [r for _, r in out]


#: precisions (bits) at which the sign of a difference at a point is decided
SIGN_BITS = (128, 256, 512, 1024)


def sign_of(value):
    """The sign (+1, 0, -1) of a closed number, exactly (a Rational, also after simplify) or
    by Arb balls at rising precision (:data:`SIGN_BITS`); None when undecided -- never a
    guess from digits (a difference below 10^-40 is not 0)."""
    from ....numeric.ball_compiler import evaluate_ball

    value = sp.sympify(value)
    if value.free_symbols or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    if not value.is_Rational:
        try:
            simple = sp.simplify(value)
        except Exception:  # noqa: BLE001
            simple = value
        value = simple if simple.is_Rational else value
    if value.is_Rational:
        return int(bool(value > 0)) - int(bool(value < 0))
    for bits in SIGN_BITS:
        try:
            ball = evaluate_ball(value, {}, bits=bits)
        except Exception:  # noqa: BLE001
            return None
        if ball.is_finite() and ball > 0:
            return 1
        if ball.is_finite() and ball < 0:
            return -1
    return None


def specialise(expr, symbol, point):
    """``expr`` with each Piecewise/Max/Min/Abs replaced by the branch it takes at ``point``
    (an exact number strictly inside a piece), each comparison decided exactly or by balls
    (:func:`sign_of`); None when a branch is not decided there.  (The kernel re-derives the
    branch and shows it holds on the whole open piece.)"""
    def walk(e):
        if not e.args or not e.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs):
            return e
        if isinstance(e, sp.Piecewise):
            for branch, cond in e.args:
                c = cond.xreplace({symbol: point})
                c = sp.simplify(c) if c not in (sp.true, sp.false) else c
                if c == sp.true:
                    return walk(branch)
                if c != sp.false:
                    raise _Undecided
            raise _Undecided
        if isinstance(e, (sp.Max, sp.Min)):
            want = 1 if isinstance(e, sp.Max) else -1
            parts = [walk(a) for a in e.args]
            for i, p in enumerate(parts):
                signs = [sign_of((p - q).xreplace({symbol: point}))
                         for j, q in enumerate(parts) if j != i]
                if all(sg is not None and sg * want >= 0 for sg in signs):
                    return p
            raise _Undecided
        if isinstance(e, sp.Abs):
            v = sign_of(e.args[0].xreplace({symbol: point}))
            if not v:
                raise _Undecided
            return walk(e.args[0] if v > 0 else -e.args[0])
        return e.func(*[walk(a) for a in e.args])

    try:
        return walk(expr)
    except _Undecided:
        return None


def _exact_at(e, symbol, point):
    """``e`` at ``x = point``, simplifying the arguments of Max/Min before they are
    compared (an argument exactly 0 at a kink is otherwise "not comparable")."""
    if e == symbol:
        return point
    if not e.args or symbol not in e.free_symbols:
        return e
    args = [_exact_at(a, symbol, point) for a in e.args]
    if isinstance(e, (sp.Max, sp.Min)):
        args = [sp.simplify(a) for a in args]
    return e.func(*args)


class _Undecided(Exception):
    pass


def sign_at(margin, symbol, point, strict: bool, bits: int = 256):
    """Is ``margin >= 0`` (``> 0`` if strict) at the exact ``point``?  True / False / None.

    The point is substituted exactly (SymPy decides the conditions there), the result
    simplified; 0 is decided exactly, anything else by a ball at ``bits`` of precision."""
    from ...budgets import SIGN_AT_WORK, WorkExhausted, work_limit
    from ....numeric.ball_compiler import UnsupportedExpression, evaluate_ball

    try:
        with work_limit(SIGN_AT_WORK):
            v = sp.simplify(_exact_at(margin, symbol, point))
    except (WorkExhausted, Exception):  # noqa: BLE001
        return None
    if v.has(sp.Piecewise, sp.nan, sp.zoo) or v.free_symbols:
        return None
    if v == 0:
        return not strict
    try:
        b = evaluate_ball(v, {}, bits=bits)
    except (UnsupportedExpression, Exception):  # noqa: BLE001
        return None
    if not b.is_finite():
        return None
    if b > 0:
        return True
    if b < 0 or (b <= 0 and strict):
        return False
    return None
