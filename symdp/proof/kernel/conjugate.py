r"""The kernel's rule for the closed form of a convex conjugate (issue #27).

:math:`f^*(y) = \sup_{0 \le x \le 1} (x y - f(x))` (Dong, Roth, Su 2022, Sec. 2.4, A6 of the
math reference).  symdp computes it by a Legendre transform of f's pieces
(:func:`symdp.tradeoff.base.conjugate`), which *assumes* f convex and that each stationary
point is a maximiser; here nothing is assumed.  A :class:`~symdp.proof.certificates.
ConjugateEvidence` gives f's pieces and, per branch of the closed form, the point x where the
supremum is attained; the kernel checks, with f read from its *own* definition
(:func:`.closed_forms.function_definition`):

1. **f is convex on [0, 1]**: the pieces ``(lo, hi, g)`` run from 0 to 1, end to start; f is
   g on each closed piece (the same tree, the trusted equality, or -- for a Max or Min in f --
   the argument it takes there, each comparison a confirmed fact); each g is continuous on
   its closed piece (built from functions continuous where defined, Phi^-1 as a map to the
   extended reals, defined inside, a finite value at both ends); ``g'' >= 0`` inside each
   piece; the slopes do not fall at a join (``g_k'(b) <= g_{k+1}'(b)``);
2. **each branch's point is a maximiser** where the branch applies (its condition true, the
   earlier ones false): for a stationary point, ``g'(x) = y`` by the trusted equality and
   ``lo <= x <= hi``; for a kink or x = 0, the slopes on either side enclose y (``-oo`` left
   of 0); for x = 1, y is at least the last slope.  Then y is a subgradient of the convex f
   at x, so ``x y - f(x)`` is the supremum;
3. **each branch's value** is ``y x - g(x)`` (the trusted equality).

Every fact is confirmed by the kernel's own :func:`~symdp.proof.kernel.confirm`.  The closed
form the kernel then uses is the Piecewise of the checked branches.

The same pieces serve the rule for an **inverse** :math:`f^{-1}(a) = \inf\{t : f(t) \le a\}`
(Eq. 4, :func:`checked_inverse`): f continuous and strictly decreasing with ``f(1) = 0``, each
branch ``h`` of the closed form inverting its piece (``g(h(a)) = a``, ``h(a)`` in the piece).
Words or a value, never a verdict.
"""

from __future__ import annotations

import math

import sympy as sp

from ...core.special import Phi, PhiInv
from ..certificates import ConjugateEvidence, Domain, Fact, InverseEvidence
from . import closed_forms
from .deciders import remembered


def _confirm(fact: Fact, domain: Domain) -> str:
    from . import confirm   # the kernel's: imported late, it is defined after this module

    return confirm(fact, domain)


#: the checks of proposed unfoldings, remembered per process: a pure function of (node,
#: evidence, domain), asked once when a step's closed forms are evaluated and again when the
#: kernel binds a certificate's sides to the written ones (issue #30).  The key holds this
#: module's functions too (:func:`_own_functions`): a test that replaces one is never
#: answered from before.
_CHECKED: dict = {}


def _own_functions() -> tuple:
    return tuple(globals()[name] for name in _OWN_FUNCTIONS)


def checked_conjugate(node, evidence, domain: Domain):
    """``(closed form, "")`` of ``node`` = ``ConjugateAt(f, y)`` when ``evidence`` checks out
    on ``domain``, else ``(None, why)``."""
    return remembered(_CHECKED, ("conjugate", node, evidence, domain, _own_functions()),
                      lambda: _checked_conjugate(node, evidence, domain), limit=1024)


def _checked_conjugate(node, evidence, domain: Domain):
    f, y = node.args
    if not isinstance(evidence, ConjugateEvidence) or evidence.function != f or \
            evidence.y != y:
        return None, "the evidence is not about this conjugate"
    x = evidence.variable
    if not isinstance(x, sp.Symbol) or x in domain.sets or x in y.free_symbols or \
            x in f.free_symbols:
        return None, "the evidence's variable is not a fresh symbol"
    F = closed_forms.function_definition(f, x)
    if F is None:
        return None, f"the kernel has no definition of {sp.sstr(f)}"
    why = convexity_error(F, x, evidence.pieces, domain)
    if why:
        return None, why
    earlier, branches = [], []
    for value, condition, point, k, kind in evidence.branches:
        if not (isinstance(k, int) and 0 <= k < len(evidence.pieces)):
            return None, "a branch names no piece"
        condition = sp.sympify(condition)
        region = _region(domain, tuple(earlier) + (condition,))
        if region is not None:
            why = _branch_error(value, point, evidence.pieces, k, kind, x, y, region)
            if why:
                return None, f"the branch {sp.sstr(condition)}: {why}"
        branches.append((value, condition))
        earlier.append(_negated(condition))
    if not branches or branches[-1][1] is not sp.true:
        return None, "the last branch must apply where no other does"
    return sp.Piecewise(*_pruned(branches, domain)), ""


def _pruned(branches, domain: Domain) -> list:
    """The branches with those the domain decides dropped: a leading condition false on the
    whole domain goes, one true on the whole domain ends the Piecewise (confirmed facts).
    Decided only while every earlier branch was dropped (the region is then the domain)."""
    out = []
    for value, condition in branches:
        if condition is sp.true:
            out.append((value, sp.true))
            break
        decided = _decided(condition, domain) if not out else None
        if decided is True:
            out.append((value, sp.true))
            break
        if decided is not False:
            out.append((value, condition))
    return out


def _decided(condition, domain: Domain):
    """True / False when a confirmed fact decides ``condition`` on the whole domain, else None."""
    if not isinstance(condition, sp.core.relational.Relational) or condition.rel_op == "!=" \
            or condition.rel_op == "==":
        return None
    margin = condition.rhs - condition.lhs if condition.rel_op in ("<", "<=") else \
        condition.lhs - condition.rhs
    strict = condition.rel_op in ("<", ">")
    if not _shown(margin, "positive" if strict else "nonnegative", domain, "a branch's condition"):
        return True
    if not _shown(-margin, "nonnegative" if strict else "positive", domain,
                  "a branch's condition"):
        return False
    return None


def _negated(condition):
    return sp.true if condition is sp.false else sp.false if condition is sp.true \
        else condition.negated


def _region(domain: Domain, conditions):
    """The domain narrowed by ``conditions`` (None: certainly empty, a condition is false)."""
    kept = []
    for c in conditions:
        if c is sp.false:
            return None
        if c is not sp.true:
            kept.append(c)
    return Domain(domain.hypotheses, domain.constraints, tuple(domain.side_conditions) +
                  tuple(kept))


def _on_piece(domain: Domain, x, lo, hi, open_: bool) -> Domain:
    """``domain`` with x in ``[lo, hi]`` (``(lo, hi)`` when ``open_``) inside [0, 1]."""
    rel = (sp.Gt, sp.Lt) if open_ else (sp.Ge, sp.Le)
    conditions = tuple(c for c in (rel[0](x, lo), rel[1](x, hi)) if c is not sp.true)
    if sp.false in conditions:
        conditions = (sp.false,)
    whole = sp.Interval.open(0, 1) if open_ else sp.Interval(0, 1)
    return Domain(domain.hypotheses + ((x, whole),), domain.constraints,
                  tuple(domain.side_conditions) + conditions)


def _equal(a, b, domain) -> bool:
    from .deciders import simplifies_to

    return a == b or closed_forms._equal(sp.sympify(a), sp.sympify(b), domain, simplifies_to)


def _shown(expr, prop: str, domain: Domain, source: str) -> str:
    """"" when the fact is confirmed on ``domain`` -- as it stands, or with each parameter
    that enters only through exponentials :math:`e^{c s}` (c an integer) replaced by the
    variable :math:`E = e^s` on the image of its set (``exp(-eps) = 1/E``: z3 then sees the
    rational function it is) --, else its text."""
    expr = sp.sympify(expr)
    if prop in ("negative", "nonpositive"):   # the mirror image: signs by structure read these
        expr, prop = -expr, {"negative": "positive", "nonpositive": "nonnegative"}[prop]
    fact = Fact(expr, prop, source, domain)
    if _confirm(fact, domain):
        return ""
    changed = _exponentials_as_variables(fact.expression, domain)
    if changed is not None:
        e, d = changed
        if _confirm(Fact(e, prop, source, d), d):
            return ""
    return f"{fact.text()} is not confirmed ({source})"


def _rational_below(v):
    """A rational at most v (v itself when rational; 0 and oo as they are)."""
    if v.is_Rational or v in (sp.oo, -sp.oo):
        return v
    return sp.Rational(sp.floor(v * 10 ** 12), 10 ** 12)


def _rational_above(v):
    """A rational at least v (v itself when rational, oo as it is)."""
    if v.is_Rational or v in (sp.oo, -sp.oo):
        return v
    return sp.Rational(sp.ceiling(v * 10 ** 12), 10 ** 12)


def _linear(e, symbols):
    """``{symbol: rational coefficient, 1: rational constant}`` of ``e`` when it is linear in
    ``symbols`` with rational coefficients, else None."""
    out = {}
    for term, c in sp.expand(e).as_coefficients_dict().items():
        if not c.is_Rational or not (term is sp.S.One or term in symbols):
            return None
        out[term] = out.get(term, 0) + c
    return out


def _exponentials_as_variables(expr, domain: Domain):
    """``(expr', domain')`` with each parameter s that occurs only in exponentials of linear
    forms ``exp(c s + ...)`` (c rational) -- and in conditions ``s REL t`` between such
    forms, read as ``exp(s) REL exp(t)`` (exp is increasing) -- replaced by a variable
    ``E = exp(s/q)`` on the image of s's set (q the common denominator of s's coefficients),
    so that ``exp(c s) = E^(c q)``; and e, ``exp(k)`` (k an integer) by a variable in
    [2.718281828, 2.718281829] (a fact shown for every value there holds at e).  z3 then sees
    the rational functions these are.  None when nothing is replaced."""
    intervals = {s: d for s, d in domain.hypotheses if isinstance(d, sp.Interval)}
    exponents = [_linear(n.args[0], intervals)
                 for e in (expr, *domain.constraints, *domain.side_conditions)
                 for n in sp.preorder_traversal(e) if isinstance(n, sp.exp)]
    candidates = {s for f in exponents if f for s in f if s is not sp.S.One}
    grown = True
    while grown:   # a linear condition tying a candidate to other parameters brings them in
        grown = False
        for c in (*domain.constraints, *domain.side_conditions):
            if isinstance(c, sp.core.relational.Relational) and c.free_symbols & candidates \
                    and not c.free_symbols <= candidates and c.free_symbols <= set(intervals) \
                    and _linear(c.lhs, intervals) is not None \
                    and _linear(c.rhs, intervals) is not None:
                candidates |= c.free_symbols
                grown = True

    def monotone(c):   # s REL t between exponents' symbols, linear: read through exp
        if isinstance(c, sp.core.relational.Relational) and c.rel_op != "!=" and \
                (c.lhs - c.rhs).free_symbols and \
                (c.lhs - c.rhs).free_symbols <= candidates and \
                _linear(c.lhs, intervals) is not None and _linear(c.rhs, intervals) is not None:
            return c.func(sp.exp(c.lhs), sp.exp(c.rhs), evaluate=False)
        return c

    constraints = tuple(monotone(c) for c in domain.constraints)
    sides = tuple(monotone(c) for c in domain.side_conditions)
    every = [expr, *constraints, *sides]
    nodes = {n for e in every for n in sp.preorder_traversal(e) if isinstance(n, sp.exp)}
    forms = {n: _linear(n.args[0], intervals) for n in nodes}
    variables = {}
    for s, d in intervals.items():
        inside = [f for n, f in forms.items() if f is not None and s in f]
        if not inside:
            continue
        total = sum(1 for e in every for n in sp.preorder_traversal(e) if n == s)
        occurrences_in_forms = sum(1 for e in every for n in sp.preorder_traversal(e)
                                   if isinstance(n, sp.exp) and forms.get(n) and s in forms[n]
                                   for m in sp.preorder_traversal(n) if m == s)
        if total != occurrences_in_forms:
            continue   # s also occurs outside an exponential of a linear form
        q = math.lcm(*[int(sp.Rational(f[s]).q) for f in inside])
        E = sp.Dummy(f"exp_{s.name}", positive=True)
        lo, hi = _rational_below(sp.exp(d.start / q)), _rational_above(sp.exp(d.end / q))
        variables[s] = (E, q, sp.Interval(lo, hi, d.left_open and lo == sp.exp(d.start / q),
                                          d.right_open and hi == sp.exp(d.end / q)))
    V = sp.Dummy("e", positive=True)
    used_e = [False]

    def power_of_e(k):
        used_e[0] = True
        return V ** k

    replace = {}
    for n, f in forms.items():
        if f is None or any(s not in variables for s in f if s is not sp.S.One):
            continue
        value = sp.S.One
        for s, c in f.items():
            if s is sp.S.One:
                value *= power_of_e(int(c)) if c.is_Integer else sp.exp(c)
            else:
                E, q, _ = variables[s]
                value *= E ** int(c * q)
        replace[n] = value
    for e in every:
        for n in sp.preorder_traversal(e):
            if n is sp.E:
                replace[n] = power_of_e(1)
    if not replace:
        return None
    hypotheses = tuple((variables[s][0], variables[s][2]) if s in variables else (s, d)
                       for s, d in domain.hypotheses)
    if used_e[0]:
        hypotheses += ((V, sp.Interval(sp.Rational(2718281828, 10 ** 9),
                                       sp.Rational(2718281829, 10 ** 9))),)
    return expr.xreplace(replace), Domain(hypotheses,
                                          tuple(c.xreplace(replace) for c in constraints),
                                          tuple(c.xreplace(replace) for c in sides))


# ------------------------------------------------------------------ 1. convexity

def convexity_error(F, x, pieces, domain: Domain) -> str:
    """"" when ``F`` (in ``x``) is convex on [0, 1], read through ``pieces``; else why not."""
    if not pieces:
        return "no pieces"
    if pieces[0][0] != 0 or pieces[-1][1] != 1:
        return "the pieces do not run from 0 to 1"
    for (_, hi, _), (lo, _, _) in zip(pieces, pieces[1:]):
        if not _equal(hi, lo, domain):
            return f"a piece ends at {hi} and the next starts at {lo}"
    for k, (lo, hi, g) in enumerate(pieces):
        if not (lo.is_number and hi.is_number and lo <= hi):
            why = _shown(hi - lo, "nonnegative", domain, "a piece's ends in order")
            if why:
                return why
        closed = _on_piece(domain, x, lo, hi, open_=False)
        why = _takes(F, g, x, closed) or _continuous(g, x, lo, hi, domain) or \
            _second_derivative(g, x, _on_piece(domain, x, lo, hi, open_=True))
        if why:
            return f"the piece [{lo}, {hi}]: {why}"
        if k + 1 < len(pieces):
            g_next = pieces[k + 1][2]
            left, right = _slope(g, x, hi), _slope(g_next, x, hi)
            why = _shown(right - left, "nonnegative", domain, "the slopes rise at a kink")
            if why:
                return why
    return ""


def _takes(F, g, x, closed: Domain) -> str:
    """F is g on the closed piece: the same expression (the trusted equality), once every Max
    or Min in F holding x is replaced by the argument it takes there (comparisons confirmed)."""
    class _Open(Exception):
        pass

    def resolve(e):
        if isinstance(e, sp.Piecewise) and e.has(x):
            return resolve(_branch_on_piece(e, x, closed))
        if isinstance(e, (sp.Max, sp.Min)) and e.has(x):
            args = [resolve(a) for a in e.args]
            for a in args:
                diffs = [(a - b) if isinstance(e, sp.Max) else (b - a) for b in args if b != a]
                if all(not _shown(d, "nonnegative", closed, "the branch of a Max or Min")
                       for d in diffs):
                    return a
            raise _Open(f"which argument {sp.sstr(e)} takes is not shown")
        if not e.args or not e.has(x):
            return e
        return e.func(*[resolve(a) for a in e.args])

    try:
        resolved = resolve(F)
    except (_Open, ValueError) as exc:
        return str(exc)
    return "" if _equal(resolved, g, closed) else f"the definition is not {sp.sstr(g)} there"


def _branch_on_piece(pw, x, closed: Domain):
    """The branch of the Piecewise ``pw`` (in x) that is its value on the closed piece: its
    condition holds and every earlier one fails inside the piece (confirmed facts), and at
    the piece's two ends the Piecewise's own value is that branch's (the trusted equality:
    a branch may start at an end).  ValueError when no branch is shown."""
    piece_ends = [c for c in closed.side_conditions if c.has(x)]
    lo = next((c.rhs for c in piece_ends if c.lhs == x and c.rel_op == ">="), sp.S.Zero)
    hi = next((c.rhs for c in piece_ends if c.lhs == x and c.rel_op == "<="), sp.S.One)
    inside = Domain(closed.hypotheses[:-1] + ((x, sp.Interval.open(0, 1)),),
                    closed.constraints,
                    tuple(c for c in closed.side_conditions if not c.has(x)) +
                    tuple(c for c in (sp.Gt(x, lo), sp.Lt(x, hi)) if c is not sp.true))
    for branch, condition in pw.args:
        holds = condition is sp.true or _decided(condition, inside) is True
        if holds:
            for end in (lo, hi):
                if not _equal(pw.xreplace({x: end}), branch.xreplace({x: end}), closed):
                    raise ValueError(f"the Piecewise is not {sp.sstr(branch)} at x = {end}")
            return branch
        if _decided(condition, inside) is not False:
            break
    raise ValueError(f"which branch of {sp.sstr(pw)} applies on the piece is not shown")


def _continuous(g, x, lo, hi, domain: Domain) -> str:
    """g is continuous on the closed piece: built from functions continuous where they are
    defined (Phi^-1 as a continuous map onto the extended reals), defined inside the piece,
    and with a finite real value at both ends (SymPy's extended arithmetic: no nan, no oo)."""
    from . import continuous_where_defined, defined_on

    known = continuous_where_defined() + (PhiInv,)
    odd = next((e for e in sp.preorder_traversal(g) if not (e.is_Atom or isinstance(e, known))),
               None)
    if odd is not None:
        return f"{getattr(odd, 'func', odd)} is not a function known to be continuous"
    inside = _on_piece(domain, x, lo, hi, open_=True)
    undefined = defined_on((g,), inside)
    if undefined:
        return f"not defined inside: {undefined}"
    for end in (lo, hi):
        value = g.xreplace({x: end})
        if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_real is False:
            return f"no finite value at {end}"
    return ""


def _second_derivative(g, x, inside: Domain) -> str:
    d2 = sp.diff(g, x, 2)
    if d2 == 0:
        return ""
    return _shown(d2, "nonnegative", inside, "g'' >= 0 inside the piece")


def _slope(g, x, at):
    return sp.diff(g, x).xreplace({x: at})


def _slope_bound(g, x, lo, hi, point, y, region: Domain, side: str) -> str:
    """y is at most the one-sided slope of the piece g (on [lo, hi]) at its end ``point``
    (``side="right"``: the piece starts there) or at least it (``"left"``: it ends there).  By
    the slope's value there when it is a finite number; else -- the slope of a convex piece
    rises, so its value at the start is the infimum over the open piece and at the end the
    supremum -- by the fact ``g' - y >= 0`` (``y - g' >= 0``) over the open piece, which needs
    no limit (G_mu's slope at x = 1 is 0 only as a limit)."""
    at = _slope(g, x, point)
    words = "y at most the slope right of the point" if side == "right" else \
        "y at least the slope left of the point"
    if not at.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return _shown(at - y if side == "right" else y - at, "nonnegative", region, words)
    inside = _on_piece(region, x, lo, hi, open_=True)
    d = sp.diff(g, x)
    return _shown(d - y if side == "right" else y - d, "nonnegative", inside, words)


# ------------------------------------------------------------------ 2., 3. the branches

def _branch_error(value, point, pieces, k, kind, x, y, region: Domain) -> str:
    """"" when ``point`` maximises ``x y - F(x)`` on ``region`` and ``value`` is the maximum."""
    lo, hi, g = pieces[k]
    point, value = sp.sympify(point), sp.sympify(value)
    if kind == "stationary":
        if not _equal(_slope(g, x, point), y, region):
            return "g'(x) = y is not shown at the stationary point"
        why = _shown(point - lo, "nonnegative", region, "the stationary point in its piece") or \
            _shown(hi - point, "nonnegative", region, "the stationary point in its piece")
    elif kind == "point":
        if not _equal(point, lo, region):
            return "the point is not the start of its piece"
        why = _slope_bound(g, x, lo, hi, point, y, region, "right")
        if not why and k > 0:
            left_lo, left_hi, left_g = pieces[k - 1]
            why = _slope_bound(left_g, x, left_lo, left_hi, point, y, region, "left")
    elif kind == "end":
        if point != 1 or k != len(pieces) - 1:
            return "the end is not x = 1 on the last piece"
        why = _slope_bound(g, x, lo, hi, point, y, region, "left")
    else:
        return f"an unknown kind of branch {kind!r}"
    if why:
        return why
    if not _equal(value, y * point - g.xreplace({x: point}), region):
        return "the value is not y x - f(x) at the point"
    return ""


# ------------------------------------------------------------------ the inverse (Eq. 4)

def checked_inverse(node, evidence, domain: Domain):
    r"""``(closed form, "")`` of ``node`` = ``TradeOffAt(Inverse(f), a)`` when ``evidence``
    checks out on ``domain``, else ``(None, why)``.

    :math:`f^{-1}(a) = \inf\{t \in [0,1] : f(t) \le a\}` (Dong, Roth, Su 2022, Eq. 4).  The
    kernel reads f from its own definition and checks that it is continuous and *strictly*
    decreasing on [0, 1] -- f is g on each closed piece, g continuous there, ``g' < 0`` inside
    -- with ``f(1) = 0``; then for ``a < f(0)`` the infimum is the one t with ``f(t) = a``,
    and 0 for ``a >= f(0)``.  Each branch ``h`` of the closed form on ``[lo, hi]`` (in a)
    inverts its piece: ``lo``, ``hi`` are the piece's values at its ends, ``g(h(a)) = a``
    inside (the trusted equality, after ``Phi^-1(Phi(u)) = u`` for a real u) and at both ends
    (exact evaluation), and ``h(a)`` lies in the piece; the constant branch 0 starts at
    f(0); the branches run from 0 to 1 in order."""
    return remembered(_CHECKED, ("inverse", node, evidence, domain, _own_functions()),
                      lambda: _checked_inverse(node, evidence, domain), limit=1024)


def _checked_inverse(node, evidence, domain: Domain):
    from . import closed_forms as cf

    inverse, a0 = node.args if cf.qualified_name(node) == cf.TRADEOFF_AT else (None, None)
    if inverse is None or cf.qualified_name(inverse) != cf.INVERSE or \
            not isinstance(evidence, InverseEvidence) or evidence.function != inverse.args[0]:
        return None, "the evidence is not about this inverse"
    f, x, a = evidence.function, evidence.variable, evidence.level
    if not all(isinstance(s, sp.Symbol) and s not in domain.sets and s not in a0.free_symbols
               for s in (x, a)) or x == a:
        return None, "the evidence's variables are not fresh symbols"
    F = cf.function_definition(f, x)
    if F is None:
        return None, f"the kernel has no definition of {sp.sstr(f)}"
    pieces = evidence.pieces
    if not pieces or pieces[0][0] != 0 or pieces[-1][1] != 1:
        return None, "the pieces do not run from 0 to 1"
    for (_, hi, _), (lo, _, _) in zip(pieces, pieces[1:]):
        if not _equal(hi, lo, domain):
            return None, f"a piece ends at {hi} and the next starts at {lo}"
    for lo, hi, g in pieces:
        why = _takes(F, g, x, _on_piece(domain, x, lo, hi, open_=False)) or \
            _continuous(g, x, lo, hi, domain) or \
            _shown(sp.diff(g, x), "negative", _on_piece(domain, x, lo, hi, open_=True),
                   "f strictly decreasing inside the piece")
        if why:
            return None, f"the piece [{lo}, {hi}]: {why}"
    if not _equal(pieces[-1][2].xreplace({x: 1}), 0, domain):
        return None, "f(1) is not 0"
    f0 = pieces[0][2].xreplace({x: 0})
    branches = evidence.branches
    if not branches or branches[0][0] != 0 or branches[-1][1] != 1:
        return None, "the inverse's pieces do not run from 0 to 1"
    for (_, hi, _, _), (lo, _, _, _) in zip(branches, branches[1:]):
        if not _equal(hi, lo, domain):
            return None, f"an inverse piece ends at {hi} and the next starts at {lo}"
    for lo, hi, h, k in branches:
        why = _inverts(lo, hi, h, k, pieces, f0, x, a, domain)
        if why:
            return None, f"the inverse on [{lo}, {hi}]: {why}"
    parts = [(h.xreplace({a: a0}), sp.Le(a0, hi)) for _, hi, h, _ in branches[:-1]]
    parts.append((branches[-1][2].xreplace({a: a0}), sp.true))
    return sp.Piecewise(*parts), ""


def _inverts(lo, hi, h, k, pieces, f0, x, a, domain: Domain) -> str:
    """"" when ``h`` on ``[lo, hi]`` (in a) is f^{-1} there; else why not."""
    if k is None:   # above f(0) the infimum is t = 0
        return "" if h == 0 and _equal(lo, f0, domain) else "the constant branch is not 0 from f(0)"
    if not (isinstance(k, int) and 0 <= k < len(pieces)):
        return "a branch names no piece"
    p_lo, p_hi, g = pieces[k]
    if not (_equal(lo, g.xreplace({x: p_hi}), domain) and
            _equal(hi, g.xreplace({x: p_lo}), domain)):
        return "its ends are not the piece's values at its ends"
    inside = Domain(domain.hypotheses + ((a, sp.Interval.open(0, 1)),), domain.constraints,
                    tuple(domain.side_conditions) + tuple(
                        c for c in (sp.Gt(a, lo), sp.Lt(a, hi)) if c is not sp.true))
    composed = _phi_pairs(phi_normal_form_of(g.xreplace({x: h})), inside)
    if not _equal(composed, a, inside):
        return "f(h(a)) = a is not shown"
    for end in (lo, hi):
        value = g.xreplace({x: h.xreplace({a: end})})
        if value.has(sp.nan, sp.zoo) or not _equal(value, end, domain):
            return f"f(h(a)) = a is not shown at a = {end}"
    return _shown(h - p_lo, "nonnegative", inside, "h(a) in the piece") or \
        _shown(p_hi - h, "nonnegative", inside, "h(a) in the piece")


def phi_normal_form_of(e):
    from ...core.special import phi_normal_form

    return phi_normal_form(sp.expand(e)) if e.has(Phi, PhiInv) else e


def _phi_pairs(e, domain: Domain):
    r""":math:`\Phi^{-1}(\Phi(u)) = u` where u is real on the domain (:func:`_real`)."""
    return e.replace(lambda n: isinstance(n, PhiInv) and isinstance(n.args[0], Phi) and
                     _real(n.args[0].args[0], domain, 0), lambda n: n.args[0].args[0])


# ------------------------------------------------------------------ signs by structure

def by_structure(fact: Fact, dom: Domain) -> str:
    r"""Positivity from the shape of the expression: positive rationals and constants, a
    symbol whose set is positive (non-negative), :math:`e^u` and :math:`\Phi(u)` for real u,
    sums and products of positive (non-negative) terms, a positive base to a real power --
    after the identities :math:`1 - \Phi(u) = \Phi(-u)`, :math:`\Phi^{-1}(1 - u) =
    -\Phi^{-1}(u)`.  A real :math:`\Phi^{-1}(v)` needs ``0 < v < 1``, confirmed.  Words."""
    if fact.property not in ("positive", "nonnegative", "nonzero"):
        return ""
    from ...core.special import phi_normal_form

    sign = _sign(phi_normal_form(sp.expand(fact.expression)), dom, 0)
    wanted = {"positive": ("positive",), "nonzero": ("positive",),
              "nonnegative": ("positive", "nonnegative")}[fact.property]
    return "signs of its parts (exp, Phi > 0; sums and products)" if sign in wanted else ""


def _sign(e, dom: Domain, depth: int):
    """"positive", "nonnegative" or None (not known)."""
    if depth > 12:
        return None
    if e.is_Rational or e in (sp.pi, sp.E):
        return "positive" if e > 0 else "nonnegative" if e == 0 else None
    if isinstance(e, sp.Symbol):
        s = dom.sets.get(e)
        if s is None or not s.inf.is_finite or not s.inf >= 0:
            return None
        return "positive" if s.inf > 0 or s.contains(0) is sp.false else "nonnegative"
    if isinstance(e, (sp.exp, Phi)):
        return "positive" if _real(e.args[0], dom, depth + 1) else None
    if isinstance(e, (sp.Add, sp.Mul)):
        signs = [_sign(a, dom, depth + 1) for a in e.args]
        if None in signs:
            return None
        if isinstance(e, sp.Mul):
            return "positive" if all(s == "positive" for s in signs) else "nonnegative"
        return "positive" if "positive" in signs else "nonnegative"
    if isinstance(e, sp.Pow):
        if _sign(e.base, dom, depth + 1) == "positive" and _real(e.exp, dom, depth + 1):
            return "positive"
        if e.exp.is_Integer and e.exp % 2 == 0 and _real(e.base, dom, depth + 1):
            return "nonnegative"
    return None


def _real(e, dom: Domain, depth: int) -> bool:
    """``e`` is a finite real number at every point of ``dom``."""
    if depth > 12:
        return False
    if e.is_Rational or e in (sp.pi, sp.E):
        return True
    if isinstance(e, sp.Symbol):
        s = dom.sets.get(e)
        return s is not None and s.is_subset(sp.S.Reals) is True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_real(a, dom, depth + 1) for a in e.args)
    if isinstance(e, (sp.exp, Phi, sp.erf, sp.erfc)):
        return _real(e.args[0], dom, depth + 1)
    if isinstance(e, sp.log):
        return _sign(e.args[0], dom, depth + 1) == "positive"
    if isinstance(e, sp.Pow):
        if e.exp.is_Integer and e.exp >= 0:
            return _real(e.base, dom, depth + 1)
        return _sign(e.base, dom, depth + 1) == "positive" and _real(e.exp, dom, depth + 1)
    if isinstance(e, PhiInv):
        v = e.args[0]
        return _real(v, dom, depth + 1) and bool(
            _confirm(Fact(v, "positive", "Phi^-1's argument above 0", dom), dom)) and bool(
            _confirm(Fact(1 - v, "positive", "Phi^-1's argument below 1", dom), dom))
    return False


#: the names of this module's functions, as defined (the memo's key looks each up at the call)
_OWN_FUNCTIONS = tuple(name for name, value in list(globals().items())
                       if callable(value) and getattr(value, "__module__", None) == __name__
                       and not isinstance(value, type))
