"""The kernel's replay of a certificate's work: every case of a finite certificate and every
leaf of a box certificate's search trees, re-evaluated here (issue #19).

* **Cases** (:func:`cases`, :func:`decide_cases`): the admissible points of the product of a
  :class:`~symdp.proof.certificates.FiniteCertificate`'s values, each side evaluated exactly
  (Enumerated atoms by their own ``enumerate``, the definition; then SymPy's exact
  arithmetic on rationals).  A case that is not an exact rational is decided, for an
  inequality only, by Arb balls at two precisions (then not ENUMERATED); an equality needs
  exact values.  At most :data:`FINITE_CASES` points: beyond, refused, never sampled.
* **Leaves** (:func:`replay_search`): a :class:`~symdp.proof.certificates.BoxSearch` is a
  tree of sub-boxes.  The kernel walks it from the whole box: a split must partition its box
  exactly; a decided leaf's margin ball (compiled here from the claim, python-flint's Arb)
  has the claimed sign; a vacuous leaf has a condition of the *domain* certainly false; a
  monotone leaf lies inside the domain's conditions and the margin's derivative (or, when it
  straddles 0, the second-derivative test) has the sign that makes the chosen face the
  minimum.  A sub-box the tree does not reach refuses.  At most :data:`BOX_LEAVES` entries.

* **Facts of a symbolic argument** (:func:`monotone_facts`, :func:`reparametrised_facts`):
  the derivatives, end values and reparametrised margins of a monotonicity argument or a
  change of variables, re-derived here from the certificate's claim; the kernel confirms them.

Words or facts are returned ("" when the replay succeeds), never a verdict: the kernel seals.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..certificates import BoxSearch, Domain, Fact, margin_of, sign_fact
from . import deciders

#: work budgets (counts, never seconds)
FINITE_CASES = 4096
BOX_LEAVES = 50_000


# ------------------------------------------------------------------ symbolic certificates

def monotone_facts(margin, strict, chain, domain: Domain):
    """The facts of a derivative-sign monotonicity argument, re-derived here: for each level
    ``(x, end, direction, end_open)``, ``direction * dm/dx >= 0`` (> 0 for a strict claim at
    an open end) on the product of the remaining sets (a box: the path from the end to any
    point stays in it), then ``m`` at ``x = end``; finally the sign of the constant left."""
    sets, facts = domain.sets, []
    for x, end, direction, end_open in chain:
        d = sets.get(x)
        if not isinstance(d, sp.Interval) or end not in (d.start, d.end) or \
                (end == d.start) != (direction > 0) or end_open != (
                    d.left_open if end == d.start else d.right_open):
            return f"the monotonicity step in {x} to the end {end} does not match {x} in {d}"
        box = Domain.of({s: sets[s] for s in margin.free_symbols})
        facts.append(sign_fact(direction * sp.diff(margin, x), strict and end_open,
                               f"derivative in {x}", box))
        strict = strict and not end_open
        margin = margin.xreplace({x: end})
    if margin.free_symbols:
        return "the monotonicity argument leaves parameters free"
    facts.append(sign_fact(margin, strict, "value at the end", Domain(())))
    return facts


def reparametrised_facts(margin, strict, substitution, domain: Domain):
    """Facts of ``x = a + (b - a)/(1 + t)``, ``t >= 0`` (onto ``(a, b]``): the sign of the
    reparametrised margin over ``t >= 0``, and of the margin at ``x = a`` when a is in the set."""
    sets = dict(domain.sets)
    subs, facts = {}, []
    for x, t, expr in substitution:
        d = sets.get(x)
        if not isinstance(d, sp.Interval) or not (d.start.is_finite and d.end.is_finite) or \
                d.right_open or sp.simplify(expr - (d.start + (d.end - d.start) / (1 + t))) != 0:
            return f"the substitution {x} = {expr} does not map t >= 0 onto {x} in {d}"
        subs[x] = expr
        if not d.left_open:
            at_a = {s: v for s, v in sets.items() if s != x}
            facts.append(sign_fact(margin.xreplace({x: d.start}), strict, f"at {x} = {d.start}",
                                   Domain.of(at_a)))
    t_sets = {s: v for s, v in sets.items() if s not in subs}
    t_sets.update({t: sp.Interval(0, sp.oo) for _, t, _ in substitution})
    facts.append(sign_fact(sp.simplify(margin.xreplace(subs)), strict, "reparametrised",
                           Domain.of(t_sets)))
    return facts


# ------------------------------------------------------------------ reductions

_FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


def reduction(lhs, relation, rhs, moves, domain: Domain):
    r"""Re-derive a chain of monotone maps (:mod:`symdp.proof.cascade.certified.reduce`)
    from the claim ``lhs REL rhs``: ``((L, REL', R), facts)``, the relation the maps give
    (equivalent to the claim wherever ``facts`` hold) and the side conditions of every map,
    as facts on the step's domain for the kernel to confirm -- or a reason.  The maps:

    * ``("cancel", c)``: :math:`L - c \;\mathrm{REL}\; R - c` (always);
    * ``("negate",)``: :math:`-L \;\mathrm{REL'}\; -R`, the relation flipped (always);
    * ``("divide", c)``: :math:`L/c \;\mathrm{REL}\; R/c`, needs ``c > 0``;
    * ``("power", k, +1)``: :math:`A^k \;\mathrm{REL}\; B^k \iff A \;\mathrm{REL}\; B`, needs
      ``k > 0``, ``A >= 0``, ``B >= 0`` (:math:`t \mapsto t^k` strictly increasing on
      :math:`[0, \infty)`); ``("power", k, -1)``: flipped, needs ``k < 0``, ``A > 0``,
      ``B > 0`` (strictly decreasing on :math:`(0, \infty)`);
    * ``("exp",)``: :math:`e^A \;\mathrm{REL}\; e^B \iff A \;\mathrm{REL}\; B` (always);
    * ``("log",)``: :math:`\log A \;\mathrm{REL}\; \log B \iff A \;\mathrm{REL}\; B`, needs
      ``A > 0``, ``B > 0``.

    Nothing is read from the stage but the names and arguments of the maps; the side
    conditions are the kernel's (never the stage's signs, which come from SymPy's
    assumptions)."""
    L, R, rel = lhs, rhs, relation
    facts = []
    if rel not in _FLIP:
        return "a reduction of a relation that is not an inequality"
    for move in moves:
        name, args = move[0], move[1:]
        where = f"the map {name} of the reduction"
        if name == "cancel" and len(args) == 1:
            L, R = L - args[0], R - args[0]
        elif name == "negate" and not args:
            L, R, rel = -L, -R, _FLIP[rel]
        elif name == "divide" and len(args) == 1:
            c = args[0]
            facts.append(Fact(c, "positive", f"{where}: a positive factor"))
            L, R = L / c, R / c
        elif name == "power" and len(args) == 2 and args[1] in (1, -1):
            k, direction = args
            if not (isinstance(L, sp.Pow) and isinstance(R, sp.Pow) and L.exp == k and
                    R.exp == k):
                return f"{where}: the sides are not powers with the exponent {sp.sstr(k)}"
            base = "nonnegative" if direction > 0 else "positive"
            facts.append(Fact(k, "positive" if direction > 0 else "negative",
                              f"{where}: the sign of the exponent"))
            facts += [Fact(L.base, base, f"{where}: the base"),
                      Fact(R.base, base, f"{where}: the base")]
            L, R = L.base, R.base
            if direction < 0:
                rel = _FLIP[rel]
        elif name == "exp" and not args:
            if not (isinstance(L, sp.exp) and isinstance(R, sp.exp)):
                return f"{where}: the sides are not exponentials"
            L, R = L.args[0], R.args[0]
        elif name == "log" and not args:
            if not (isinstance(L, sp.log) and isinstance(R, sp.log)):
                return f"{where}: the sides are not logarithms"
            facts += [Fact(L.args[0], "positive", f"{where}: the argument"),
                      Fact(R.args[0], "positive", f"{where}: the argument")]
            L, R = L.args[0], R.args[0]
        else:
            return f"an unknown map {move!r} in the reduction"
    return (L, rel, R), list(dict.fromkeys(facts))


def searched_fact(fact, searches):
    """The search among ``searches`` whose claim is ``fact`` (its margin is the fact's
    expression, strict for ``positive``), or None."""
    want = {"positive": (">",), "nonnegative": (">=",)}.get(fact.property, ())
    for q in searches:
        if q.piece_of or q.relation not in want:
            continue
        if margin_of(q.lhs, q.rhs, q.relation) == fact.expression:
            return q
    return None


# ------------------------------------------------------------------ finite certificates

def exact_value(expr, point):
    """``expr`` at ``point``, exactly: a Rational, or None."""
    from ...core.enumerable import enumerate_atoms

    value = enumerate_atoms(expr.xreplace(point)).doit()
    if not value.is_Rational:
        value = sp.simplify(value)
    return value if value.is_Rational else None


def cases(values, sides, domain: Domain):
    """The points to evaluate: the product of ``values`` (pairs ``(symbol, values)``) inside
    each symbol's stated set and every condition of the domain that is decided there,
    restricted to the sides' symbols.  A list of dicts, or a reason (over the budget)."""
    sets = domain.sets
    symbols = [s for s, _ in values]
    admissible = [[sp.Integer(v) if isinstance(v, int) else sp.sympify(v) for v in vals
                   if s not in sets or sets[s].contains(v) is sp.true] for s, vals in values]
    size = 1
    for vals in admissible:
        size *= len(vals)
    if size > FINITE_CASES:
        return f"{size} candidate cases: more than the kernel's budget of {FINITE_CASES}"
    free = set().union(*(side.free_symbols for side in sides))
    conditions = [c for c in domain.conditions if c.free_symbols <= set(symbols)]
    points = {}
    for combo in itertools.product(*admissible):
        full = dict(zip(symbols, combo))
        if any(c.xreplace(full) is sp.false for c in conditions):
            continue
        point = {s: v for s, v in full.items() if s in free}
        points[tuple(sorted(point.items(), key=lambda kv: kv[0].name))] = point
    return list(points.values())


def decide_cases(lhs, rhs, relation: str, points) -> tuple:
    """``(how, "")`` when the relation holds at every point -- how ``"exact"`` or
    ``"balls"`` (some case decided by balls) -- else ``("", why)``."""
    how = "exact"
    for point in points:
        L, R = exact_value(lhs, point), exact_value(rhs, point)
        where = ", ".join(f"{s} = {v}" for s, v in point.items()) or "the point"
        if L is not None and R is not None:
            if not deciders.relation_holds(L, R, relation):
                return "", f"the case {where} fails: lhs = {L}, rhs = {R}"
            continue
        if relation == "=" or not _ball_decides(lhs, rhs, relation, point):
            return "", f"the case {where} is not decided exactly"
        how = "balls"
    return how, ""


def _ball_decides(lhs, rhs, relation, point) -> bool:
    from ...core.enumerable import enumerate_atoms
    from ...numeric.ball_compiler import compile_ball
    from ...numeric.balls import working_bits

    margin = enumerate_atoms(margin_of(lhs, rhs, relation).xreplace(point))
    fn = compile_ball(margin, [])
    for bits in (128, 256):   # certified at both precisions
        with working_bits(bits):
            b = fn({})
            if not (b.is_finite() and (b > 0 if relation in ("<", ">") else b >= 0)):
                return False
    return True


# ------------------------------------------------------------------ box certificates

def covered(search: BoxSearch) -> dict:
    """symbol -> the set of parameter values the search's box covers (None: a change of
    variables the kernel does not know)."""
    out = {}
    for symbol, _, lo, hi, integer, transform in search.coordinates:
        lo_r, hi_r = sp.Rational(lo.numerator, lo.denominator), \
            sp.Rational(hi.numerator, hi.denominator)
        if transform is None:
            out[symbol] = sp.Interval(lo_r, hi_r)
        else:
            out[symbol] = _transform_image(transform, lo, hi)
    return out


def _transform_image(transform, lo: Fraction, hi: Fraction):
    """The image of ``t in [lo, hi]`` under ``a + t/(1-t)``, ``b - t/(1-t)`` (t = 1 open)
    or an affine ``a + (b - a) t`` with exact ends."""
    t = next(iter(transform.free_symbols), None)
    if t is None or (lo, hi) != (0, 1):
        return None
    for sign in (1, -1):
        a = sp.simplify(transform - sign * t / (1 - t))
        if a.is_Rational:
            return sp.Interval(a, sp.oo) if sign == 1 else sp.Interval(-sp.oo, a)
    poly = sp.Poly(transform, t) if transform.is_polynomial(t) else None
    if poly is not None and poly.degree() == 1:
        a, b = transform.xreplace({t: 0}), transform.xreplace({t: 1})
        if a.is_real and b.is_real and (b - a).is_positive:
            return sp.Interval(a, b)
    return None


def replay_search(search: BoxSearch, domain: Domain, bits: int) -> str:
    """"" when every leaf of ``search`` is re-evaluated and the tree covers its whole box;
    else why not."""
    from ...numeric.balls import working_bits

    if len(search.leaves) > BOX_LEAVES:
        return f"{len(search.leaves)} leaves: more than the kernel's budget of {BOX_LEAVES}"
    coords = search.coordinates
    variables = [v for _, v, *_ in coords]
    subs = {s: tr for s, _, _, _, _, tr in coords if tr is not None}
    margin = margin_of(search.lhs, search.rhs, search.relation).xreplace(subs)
    if search.searched is not None and search.searched != margin:
        if not deciders.simplifies_to(search.searched, margin):
            return "the searched margin is not the claim's margin after the change of variables"
        margin = search.searched
    parameters = {s for s, *_ in coords}
    conditions = [c.xreplace(subs) for c in domain.conditions if c.free_symbols <= parameters]
    tree = {box: (kind, data) for box, kind, data in search.leaves}
    whole = tuple((lo, hi) for _, _, lo, hi, _, _ in coords)
    strict = search.relation in ("<", ">")
    faces: dict = {}
    todo = [whole]
    with working_bits(max(bits, 64)):
        while todo:
            box = todo.pop()
            kind, data = tree.get(box, (None, None))
            if kind is None:
                return f"the search tree does not reach the sub-box {_text(coords, box)}"
            problem = _face(margin, conditions, variables, whole, box, faces)
            env = problem.env(box)
            if kind == "split":
                if not _partitions(box, data, [c[4] for c in coords]):
                    return f"a split of {_text(coords, box)} is not a partition"
                todo += list(data)
            elif kind == "decided":
                m = problem.ball(problem.margin, env)
                if not (m.is_finite() and (m > 0 if strict else m >= 0)):
                    return f"the margin's sign is not certified on {_text(coords, box)}"
            elif kind == "vacuous":
                if not any(problem.holds(c, env) is False for c in problem.conditions):
                    return f"no condition of the domain is false on {_text(coords, box)}"
            elif kind == "monotone":
                why = _monotone(problem, box, data, env)
                if why:
                    return why
                todo.append(data)
            else:
                return f"an unknown leaf {kind!r}"
    return ""


def piece_ends(search: BoxSearch, domain: Domain) -> str:
    """A piece's search runs on the branch the claim is on the open piece: that branch is
    re-derived here (:func:`piece_branch`); at the piece's two ends (exact breakpoints) the
    claim's own margin is decided here, exactly (0) or by a ball at the exact point.  "" when
    the branch is the search's and both ends of the domain hold."""
    from ...numeric.ball_compiler import evaluate_ball

    why = piece_branch(search, domain)
    if why:
        return why
    lhs, relation, rhs = search.piece_of
    ((symbol, _, lo, hi, _, transform),) = search.coordinates
    ends = [sp.Rational(v.numerator, v.denominator) for v in (lo, hi)]
    if transform is not None:
        ends = [transform.xreplace({search.coordinates[0][1]: e}) for e in ends]
    for end in ends:
        if domain.sets[symbol].contains(end) is not sp.true:
            continue   # an open end of the domain
        v = sp.simplify(_at(margin_of(lhs, rhs, relation), symbol, end))
        strict = relation in ("<", ">")
        if v == 0 and not strict:
            continue
        b = evaluate_ball(v, {}, bits=256) if not v.free_symbols else None
        if b is None or not b.is_finite() or not (b > 0 if strict else b >= 0):
            return f"the claim at the breakpoint {symbol} = {end} is not certified"
    return ""


#: sub-boxes for showing that one switching function has no root inside one piece
ROOT_BOXES = 2000
#: precisions (bits) at which the sign of a switching function at a point is decided
SIGN_BITS = (128, 256, 512, 1024)
BRANCHED = (sp.Piecewise, sp.Max, sp.Min, sp.Abs)


class _NoBranch(Exception):
    """The branch of a node on a piece is not shown (the message says why)."""


def piece_ends_of(search: BoxSearch):
    """The exact ends ``(a, b)`` of a piece's search, in its parameter."""
    ((_, t, lo, hi, _, transform),) = search.coordinates
    ends = [sp.Rational(v.numerator, v.denominator) for v in (lo, hi)]
    if transform is not None:
        ends = [transform.xreplace({t: e}) for e in ends]
    return ends


def piece_branch(search: BoxSearch, domain: Domain) -> str:
    r""""" when the search's sides are the claim's sides with every Piecewise, Max, Min and
    Abs replaced by the branch it takes on the whole open piece ``(a, b)``, re-derived here:

    * the branch is chosen by the signs of the switching functions (differences of Max/Min
      arguments, an Abs argument, a condition's ``lhs - rhs``) at the exact midpoint of the
      piece -- exactly, or by Arb balls at rising precision (:data:`SIGN_BITS`); a sign that
      no precision decides (a tie below the balls' reach) refuses;
    * it is the branch on the whole open piece: each switching function is continuous there
      (built from functions continuous where defined, its balls finite) and has no root
      strictly inside (:func:`no_root_inside`), so its sign is the midpoint's (intermediate
      value theorem); two Max/Min arguments identically equal there (the trusted equality)
      may tie.
    """
    lhs, relation, rhs = search.piece_of
    ((symbol, *_),) = search.coordinates
    a, b = piece_ends_of(search)
    mid = (a + b) / 2

    def sign_at_mid(g):
        return exact_sign(g.xreplace({symbol: mid}))

    def constant(g, want: int) -> bool:
        """g has the sign ``want`` (+1/-1) on the whole open piece."""
        return sign_at_mid(g) == want and no_root_inside(g, symbol, a, b)

    def walk(e):
        if not isinstance(e, sp.Basic) or not e.args or not e.has(*BRANCHED):
            return e
        if isinstance(e, (sp.Max, sp.Min)):
            parts = [walk(x) for x in e.args]
            best = 1 if isinstance(e, sp.Max) else -1
            for i, p in enumerate(parts):
                ok = True
                for j, q in enumerate(parts):
                    if i == j:
                        continue
                    g = p - q
                    if deciders.simplifies_to(g, sp.S.Zero):
                        continue   # equal on the whole piece: either is the value
                    if not constant(g, best):
                        ok = False
                        break
                if ok:
                    return p
            raise _NoBranch(f"no argument of {sp.sstr(e)[:80]} is shown to be the "
                            f"{'largest' if best > 0 else 'smallest'} on the open piece "
                            f"({sp.sstr(a)}, {sp.sstr(b)}) (a tie, or a switch inside)")
        if isinstance(e, sp.Abs):
            u = walk(e.args[0])
            for want in (1, -1):
                if constant(u, want):
                    return u if want > 0 else -u
            raise _NoBranch(f"the sign of {sp.sstr(u)[:80]} is not constant on the open piece")
        if isinstance(e, sp.Piecewise):
            for branch, cond in e.args:
                truth = condition_on_piece(cond)
                if truth is True:
                    return walk(branch)
                if truth is not False:
                    raise _NoBranch(f"the condition {sp.sstr(cond)[:80]} is not decided on "
                                    "the open piece")
            raise _NoBranch("no condition of a Piecewise holds on the open piece")
        return e.func(*[walk(x) for x in e.args])

    def condition_on_piece(cond):
        if cond in (sp.true, sp.false):
            return bool(cond)
        if isinstance(cond, (sp.And, sp.Or)):
            parts = [condition_on_piece(c) for c in cond.args]
            if any(p is None for p in parts):
                return None
            return all(parts) if isinstance(cond, sp.And) else any(parts)
        if not isinstance(cond, sp.core.relational.Relational) or \
                cond.rel_op not in ("<=", "<", ">=", ">") or cond.has(*BRANCHED):
            return None
        g = cond.lhs - cond.rhs
        if deciders.simplifies_to(g, sp.S.Zero):
            return cond.rel_op in ("<=", ">=")
        s = sign_at_mid(g)
        if s is None or s == 0 or not no_root_inside(g, symbol, a, b):
            return None
        return (s > 0) if cond.rel_op in (">=", ">") else (s < 0)

    try:
        L, R = walk(lhs), walk(rhs)
    except _NoBranch as exc:
        return f"the piece [{sp.sstr(a)}, {sp.sstr(b)}]: {exc}"
    except Exception as exc:  # noqa: BLE001 - a branch that cannot be re-derived refuses
        return f"the piece's branch is not re-derived ({type(exc).__name__})"
    for mine, theirs in ((L, search.lhs), (R, search.rhs)):
        if mine != theirs and not deciders.simplifies_to(mine - theirs, sp.S.Zero):
            return (f"the piece [{sp.sstr(a)}, {sp.sstr(b)}] is searched on {sp.sstr(theirs)[:80]},"
                    f" but the claim's branch there is {sp.sstr(mine)[:80]}")
    return ""


def exact_sign(value):
    """The sign (+1, 0, -1) of a closed number: exactly (a Rational, also after the trusted
    ``simplify``), else by Arb balls at rising precision (:data:`SIGN_BITS`); None when no
    precision decides (never 0 from a ball)."""
    from ...numeric.ball_compiler import evaluate_ball

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
        except Exception:  # noqa: BLE001 - a value the balls cannot evaluate
            return None
        if ball.is_finite() and ball > 0:
            return 1
        if ball.is_finite() and ball < 0:
            return -1
    return None


def no_root_inside(g, symbol, a, b) -> bool:
    r"""True when ``g`` is shown to have no root strictly inside ``(a, b)`` (and to be
    continuous there).  In ``x = a + (b - a) t``, ``t`` in [0, 1], by Arb balls over sub-boxes
    (:data:`ROOT_BOXES` at most): a finite ball without 0 has no root; a sub-box touching an
    end ``e`` of [0, 1] where ``g`` and its first ``k - 1`` derivatives are exactly 0 (the
    trusted equality) has no root besides ``e`` when the ball of the k-th derivative excludes
    0 there (each lower derivative is then strictly monotone on the sub-box and 0 only at e)."""
    from ...numeric.ball_compiler import compile_ball
    from ...numeric.balls import interval, working_bits
    from .definedness import continuous_nodes

    known = continuous_nodes()
    if any(not (n.is_Atom or isinstance(n, known)) for n in sp.preorder_traversal(g)):
        return False
    t = sp.Dummy("t", real=True)
    G = g.xreplace({symbol: a + (b - a) * t})
    derivatives = [G]
    for _ in range(3):
        derivatives.append(sp.diff(derivatives[-1], t))
    fns = [compile_ball(d, [t]) for d in derivatives]
    zero_order = {}
    for end in (0, 1):   # how many derivatives vanish exactly at each end
        k = 0
        while k < len(derivatives) - 1 and \
                deciders.simplifies_to(derivatives[k].xreplace({t: end}), sp.S.Zero):
            k += 1
        zero_order[end] = k
    todo, boxes = [(sp.S.Zero, sp.S.One)], 0
    with working_bits(128):
        while todo:
            lo, hi = todo.pop()
            boxes += 1
            if boxes > ROOT_BOXES:
                return False
            env = {t: interval(lo, hi)}
            v = fns[0](env)
            if v.is_finite() and not v.contains(0):
                continue
            ends = [e for e in (0, 1) if e in (lo, hi) and zero_order[e] > 0]
            if len(ends) == 1:
                k = zero_order[ends[0]]
                d = fns[k](env)
                if v.is_finite() and d.is_finite() and not d.contains(0):
                    continue
            if hi - lo < sp.Rational(1, 2 ** 30):
                return False
            m = (lo + hi) / 2
            todo += [(lo, m), (m, hi)]
    return True


def _at(e, symbol, point):
    """``e`` at ``symbol = point`` exactly, the arguments of a Max/Min simplified before they
    are compared (an argument exactly 0 at a kink is otherwise "not comparable")."""
    if e == symbol or not e.args or symbol not in e.free_symbols:
        return point if e == symbol else e
    args = [_at(a, symbol, point) for a in e.args]
    return e.func(*([sp.simplify(a) for a in args] if isinstance(e, (sp.Max, sp.Min)) else args))


def _partitions(box, halves, integer) -> bool:
    if len(halves) != 2:
        return False
    a, b = halves
    moved = [i for i in range(len(box)) if a[i] != box[i] or b[i] != box[i]]
    if len(moved) != 1:
        return False
    i = moved[0]
    (lo, hi), (a_lo, a_hi), (b_lo, b_hi) = box[i], a[i], b[i]
    if integer[i]:
        return a_lo == lo and b_hi == hi and b_lo == a_hi + 1 and lo <= a_hi < hi and \
            a_hi.denominator == 1
    return a_lo == lo and b_hi == hi and a_hi == b_lo and lo < a_hi < hi


def _monotone(problem, box, face, env) -> str:
    """The face ``face`` of ``box`` holds the margin's minimum: the conditions hold on all of
    ``box`` and each moved variable has the derivative sign that puts the minimum there."""
    if not all(problem.holds(c, env) is True for c in problem.conditions):
        return f"a monotone face is taken on {box}, which the conditions do not contain"
    smooth = problem.branch(env)
    if smooth is None:
        return f"the margin is not one smooth branch on {box}"
    for i, ((lo, hi), end) in enumerate(zip(box, face)):
        if end == (lo, hi):
            continue
        direction = 1 if end == (lo, lo) else -1 if end == (hi, hi) else 0
        if lo == hi or direction == 0 or not _signed(problem, smooth, i, box, env, direction):
            return f"the monotonicity in variable {i} is not certified on {box}"
    return ""


def _signed(problem, expr, i, box, env, direction) -> bool:
    """``direction * d expr / dx_i >= 0`` on ``box``: the derivative's ball, or its value at
    the right end when the second derivative has a sign (Hansen & Walster 2004, Sec. 12.4)."""
    v = problem.variables[i]
    d = sp.diff(expr, v)
    for form in (d, sp.factor(d)):
        g = problem.ball(form, env)
        if g.is_finite() and (g >= 0 if direction > 0 else g <= 0):
            return True
    h = problem.ball(sp.diff(d, v), env)
    if not h.is_finite():
        return False
    lo, hi = box[i]
    # g rising (h >= 0): g >= g(lo), g <= g(hi); falling: g >= g(hi), g <= g(lo)
    if direction > 0:
        end = lo if h >= 0 else hi if h <= 0 else None
    else:
        end = hi if h >= 0 else lo if h <= 0 else None
    if end is None:
        return False
    g_end = problem.ball(d, problem.env(box[:i] + ((end, end),) + box[i + 1:]))
    return g_end.is_finite() and (g_end >= 0 if direction > 0 else g_end <= 0)


def _face(margin, conditions, variables, whole, box, cache):
    """The problem on ``box``: the margin with the variables pinned at an end of the whole
    box substituted exactly and simplified (the trusted equality)."""
    pinned = tuple((i, lo) for i, ((lo, hi), (a, b)) in enumerate(zip(box, whole))
                   if lo == hi and lo in (a, b))
    if pinned not in cache:
        values = {variables[i]: sp.Rational(v.numerator, v.denominator) for i, v in pinned}
        m = sp.simplify(sp.together(margin.xreplace(values))) if values else margin
        cache[pinned] = _Problem(m, [c.xreplace(values) for c in conditions], variables)
    return cache[pinned]


class _Problem:
    """A margin and conditions, compiled to balls on first use."""

    def __init__(self, margin, conditions, variables):
        self.margin, self.conditions, self.variables = margin, conditions, variables
        self._fns: dict = {}

    def env(self, box):
        from ...numeric.balls import interval

        return {v: interval(sp.Rational(lo.numerator, lo.denominator),
                            sp.Rational(hi.numerator, hi.denominator))
                for v, (lo, hi) in zip(self.variables, box)}

    def ball(self, expr, env):
        from ...numeric.ball_compiler import compile_ball

        if expr not in self._fns:
            self._fns[expr] = compile_ball(expr, self.variables)
        return self._fns[expr](env)

    def holds(self, cond, env):
        from ...numeric.ball_compiler import BallCondition

        if cond in (sp.true, sp.false):
            return bool(cond)
        key = ("condition", cond)
        if key not in self._fns:
            self._fns[key] = BallCondition(cond, self.variables)
        return self._fns[key](env)

    def branch(self, env):
        """The smooth expression the margin is on ``env``: each Piecewise condition, Max/Min
        comparison and Abs sign certified there (None when one is not)."""
        def walk(e):
            if not e.args or not e.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs):
                return e
            if isinstance(e, sp.Piecewise):
                for branch, c in e.args:
                    state = self.holds(c, env)
                    if state is True:
                        return walk(branch)
                    if state is not False:
                        raise ValueError
                raise ValueError
            if isinstance(e, (sp.Max, sp.Min)):
                balls = [self.ball(a, env) for a in e.args]
                for i, b in enumerate(balls):
                    if all((b >= o) if isinstance(e, sp.Max) else (b <= o)
                           for j, o in enumerate(balls) if j != i):
                        return walk(e.args[i])
                raise ValueError
            if isinstance(e, sp.Abs):
                b = self.ball(e.args[0], env)
                if b >= 0 or b <= 0:
                    return walk(e.args[0] if b >= 0 else -e.args[0])
                raise ValueError
            return e.func(*[walk(a) for a in e.args])
        try:
            return walk(self.margin)
        except ValueError:
            return None


def _text(coords, box) -> str:
    return ", ".join(f"{v} in [{lo}, {hi}]" for (_, v, *_), (lo, hi) in zip(coords, box))
