"""The kernel's second methods: how a fact is confirmed, and the trusted equality.

Each ``by_*`` decides one :class:`~symdp.proof.certificates.Fact` on a domain and says how
("" when it does not decide): exact evaluation at every point of a finite domain, z3 on the
polynomial and rational fragment (non-polynomial atoms bounded by their interval enclosure),
Arb balls over the sub-boxes of a bounded domain, and the positivity of binomials and
factorials (Mathlib ``Nat.choose_pos``, ``Nat.factorial_pos``).  They return words, never a
verdict: :func:`symdp.proof.kernel.confirm` calls them, and only the kernel seals.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ...core.exact_cost import exact_is_cheap
from ..budgets import Z3_RLIMIT  # noqa: F401 - z3's resource limit, one constant for all
from ..certificates import Domain, Fact

#: work budgets (deterministic: counts, never seconds)
FINITE_POINTS = 4096      # a fact on a finite domain is evaluated exactly up to this many points
BALL_BOXES = 512          # sub-boxes of a bounded domain per fact
BALL_BITS = 128


def rewritings():
    """The rewritings the kernel re-runs, by the name a certificate gives: SymPy's simplify
    after identities of symdp's special functions that hold everywhere (Phi = erfc(-x/sqrt 2)/2,
    Phi(-x) = 1 - Phi(x)) -- trusted, with SymPy's simplify, for expressions defined on the
    domain."""
    from ...core.special import phi_normal_form, to_erfc  # local: no cycle through proof

    return {"simplify": sp.simplify,
            "simplify after Phi -> erfc": lambda d: sp.simplify(to_erfc(d)),
            "Phi identities + simplify": lambda d: sp.simplify(phi_normal_form(sp.expand(d))),
            "piecewise_fold + simplify": lambda d: sp.simplify(sp.piecewise_fold(to_erfc(d)))}


def remembered(table: dict, key, compute, limit: int = 20_000):
    """``compute()``, remembered in ``table`` under ``key`` for the rest of the process (for
    the pure functions of the kernel; a key that cannot be hashed is computed each time; the
    table is emptied past ``limit`` entries)."""
    try:
        return table[key]
    except KeyError:
        pass
    except TypeError:
        return compute()
    value = compute()
    if len(table) > limit:
        table.clear()
    table[key] = value
    return value


_SIMPLIFIES_TO: dict = {}


def simplifies_to(a, b, method: str = "simplify") -> bool:
    """The trusted equality: ``a == b`` as trees, or the named rewriting of ``a`` is ``b``
    (or of ``a - b`` is 0).  Remembered per process (a pure function of its arguments: a
    step's proposers and the kernel ask the same question of a piece twice or more, each
    answer costing a ``simplify``; issue #30)."""
    if a == b:
        return True
    return remembered(_SIMPLIFIES_TO, (a, b, method),
                      lambda: _simplifies_to_uncached(a, b, method), limit=4096)


def _simplifies_to_uncached(a, b, method: str) -> bool:
    rewrite = rewritings().get(method)
    if rewrite is None:
        return False
    try:
        return rewrite(a) == b or rewrite(a - b) == 0
    except Exception:  # noqa: BLE001 - not shown equal
        return False


def domain_of(fact: Fact, domain: Domain) -> Domain:
    """The fact's own domain; one without sets (a hazard inside a Piecewise branch) is the
    step's domain narrowed by its conditions."""
    if fact.domain is None:
        return domain
    if not fact.domain.hypotheses:
        return Domain(domain.hypotheses, domain.constraints,
                      tuple(domain.side_conditions) + tuple(fact.domain.side_conditions))
    return fact.domain


def holds_exactly(value, prop: str) -> bool:
    if prop == "integer":
        return value.is_Integer
    if not value.is_Rational:
        return False
    return {"positive": value > 0, "nonnegative": value >= 0, "negative": value < 0,
            "nonpositive": value <= 0, "nonzero": value != 0, "zero": value == 0}[prop]


def relation_holds(L, R, relation: str) -> bool:
    """``L REL R`` for exact rationals."""
    return {"=": L == R, "<=": L <= R, "<": L < R, ">=": L >= R, ">": L > R}[relation]


def by_exact_points(fact: Fact, dom: Domain) -> str:
    sets = dom.sets
    if any(not (isinstance(d, sp.FiniteSet) or (isinstance(d, sp.Range) and d.size.is_finite))
           for d in sets.values()):
        return ""
    size = 1
    for d in sets.values():
        size *= len(d)
    if size > FINITE_POINTS:
        return ""
    count, balls = 0, 0
    for values in itertools.product(*[list(d) for d in sets.values()]):
        point = dict(zip(sets, values))
        if not all(bool(c.xreplace(point)) for c in dom.conditions):
            continue
        how = exact_or_ball(fact.expression.xreplace(point), fact.property) \
            if exact_is_cheap(fact.expression, point) else None
        if how is None:
            return ""
        count += 1
        balls += how == "balls"
    if balls:
        return (f"evaluation at all {count} points ({count - balls} exactly, {balls} by Arb "
                f"balls at {' and '.join(map(str, POINT_BITS))} bits)")
    return f"exact evaluation at all {count} points"


#: the precisions (bits) at which a ball must decide a value that is not an exact rational
POINT_BITS = (128, 256)


def exact_or_ball(value, prop: str):
    """Does the closed number ``value`` have ``prop``?  How it was shown (``"exact"``,
    ``"balls"``), or None when not.

    Exact first: ``doit()``, then SymPy's exact arithmetic (and the trusted ``simplify``) to a
    Rational.  Never a numeric guess (``nsimplify`` would read ``n + exp(-40)`` as the integer
    n): a value that is not an exact rational is decided by Arb balls, at both
    :data:`POINT_BITS` precisions, for a sign only -- integrality and ``= 0`` need the exact
    rational."""
    if not value.is_Rational:
        value = value.doit()
    if not value.is_Rational:
        value = sp.simplify(value)
    if value.is_Rational:
        return "exact" if holds_exactly(value, prop) else None
    if prop in ("integer", "zero") or value.free_symbols or value.has(sp.nan, sp.zoo):
        return None
    from ...numeric.ball_compiler import evaluate_ball

    test = {"positive": lambda b: b > 0, "nonnegative": lambda b: b >= 0,
            "negative": lambda b: b < 0, "nonpositive": lambda b: b <= 0,
            "nonzero": lambda b: not b.contains(0)}[prop]
    for bits in POINT_BITS:
        b = evaluate_ball(value, {}, bits=bits)
        if not (b.is_finite() and test(b)):
            return None
    return "balls"


def by_z3(fact: Fact, dom: Domain) -> str:
    return "z3 (no counterexample: unsat)" if z3_decide(fact, dom)[0] else ""


_Z3_DECIDED: dict = {}
#: the functions the translation to z3 calls (looked up at each call: part of the memo's key)
_Z3_HELPERS = ("z3_name", "symbol_order", "_z3_term", "_z3_membership", "_z3_relation",
               "_enclosure", "_exact_end", "_open_ranges")


def z3_decide(fact: Fact, dom: Domain):
    """``(True, None)`` when z3 shows the fact on the domain; ``(False, point)`` with a point
    of the domain where it fails (exact rationals), or ``(False, None)`` when undecided.

    Remembered per process (a pure function of the fact's expression and property and of the
    domain: the definedness and sign facts of a file's steps recur, four in five of the
    queries of a bagging profile; issue #30).  The key holds the translation's helpers too, so
    that a test that replaces one of them is never answered from before."""
    key = (fact.expression, fact.property, dom) + tuple(globals()[name] for name in _Z3_HELPERS)
    decided, point = remembered(_Z3_DECIDED, key, lambda: _z3_decide_uncached(fact, dom))
    return decided, (dict(point) if point is not None else None)   # the caller's own copy


def _z3_decide_uncached(fact: Fact, dom: Domain):
    import z3

    names = {}
    sets = dom.sets
    for i, s in enumerate(sorted(fact.expression.free_symbols |
                                 set().union(*[c.free_symbols for c in dom.conditions]),
                                 key=symbol_order)):
        if s not in sets:
            return False, None
        # an integer parameter is an Int seen as a Real: / is then division, not floor division;
        # one z3 constant per Symbol object (z3_name), never per name: two Symbols called x
        # (declared positive and real) are two parameters
        names[s] = z3.ToReal(z3.Int(z3_name(s, i))) if sets[s].is_subset(sp.S.Integers) is True \
            else z3.Real(z3_name(s, i))
    solver = z3.Solver()
    solver.set("rlimit", Z3_RLIMIT)
    for s, v in names.items():
        solver.add(_z3_membership(v, sets[s], z3))
    atoms = {}
    for cond in dom.conditions:
        solver.add(_z3_relation(cond, names, z3, atoms))
    e = _z3_term(sp.expand_func(fact.expression), names, z3, atoms)
    # a non-polynomial atom is a fresh variable bounded by its interval enclosure on the hull
    # of the sets (mpmath's outward-rounded interval arithmetic): sound, and often enough
    hull = {s: (d.inf, d.sup) for s, d in sets.items()}
    for atom, v in atoms.items():
        lo, hi = _enclosure(atom, hull)
        if lo is not None:
            solver.add(v >= z3.RealVal(f"{lo.numerator}/{lo.denominator}"))
        if hi is not None:
            solver.add(v <= z3.RealVal(f"{hi.numerator}/{hi.denominator}"))
    negated = {"positive": lambda: e <= 0, "nonnegative": lambda: e < 0,
               "negative": lambda: e >= 0, "nonpositive": lambda: e > 0,
               "nonzero": lambda: e == 0, "zero": lambda: e != 0,
               "integer": lambda: e != z3.ToReal(z3.ToInt(e))}[fact.property]
    solver.add(negated())
    answer = solver.check()
    if answer == z3.unsat:
        return True, None
    if answer != z3.sat:
        return False, None
    model = solver.model()
    point = {}
    for s, v in names.items():
        value = model.eval(v, model_completion=True)
        if not z3.is_rational_value(value):
            return False, None
        point[s] = sp.Rational(value.as_fraction().numerator, value.as_fraction().denominator)
    return False, point


def symbol_order(symbol):
    """A fixed order of Symbols, also of two with one name (their assumptions break the
    tie): z3's search, and what it decides within its rlimit, depends on the order."""
    return (sp.default_sort_key(symbol), sorted(symbol.assumptions0.items()))


def z3_name(symbol, index: int) -> str:
    """The z3 name of the ``index``-th constant of one query: ``name#index``.  Indices are
    distinct within a query (parameters and atoms share one count), so two constants never
    share a name -- whatever the Symbols are called (two Symbols named ``x``, a parameter
    named ``atom_0`` or ``x#1``, a Dummy): the text after the last ``#`` is the index."""
    return f"{getattr(symbol, 'name', symbol)}#{index}"


def _z3_term(e, names, z3, atoms=None):
    if e in names:
        return names[e]
    if e.is_Rational:
        return z3.RealVal(f"{e.p}/{e.q}")
    if isinstance(e, sp.Add):
        return z3.Sum([_z3_term(a, names, z3, atoms) for a in e.args])
    if isinstance(e, sp.Mul):
        return z3.Product([_z3_term(a, names, z3, atoms) for a in e.args])
    if isinstance(e, sp.Pow) and e.exp.is_Integer:
        base = _z3_term(e.base, names, z3, atoms)
        power = z3.Product([base] * abs(int(e.exp))) if e.exp != 0 else z3.RealVal(1)
        return power if e.exp >= 0 else 1 / power
    if atoms is not None and (e.free_symbols or e.is_number) and e.is_real is not False:
        # a closed number (exp(-1) in Laplace's breakpoint e^-mu/2) is an atom too, bounded
        # by its enclosure like the others
        if e not in atoms:
            atoms[e] = z3.Real(z3_name("atom", len(names) + len(atoms)))
        return atoms[e]
    raise ValueError(f"outside z3's fragment: {type(e).__name__}")


def _enclosure(e, hull):
    """Exact rational bounds ``(lo, hi)`` (None: unbounded or unknown) of ``e`` over the box
    ``hull`` {symbol: (inf, sup)}, by mpmath's interval arithmetic (outward rounding)."""
    import mpmath
    from mpmath import iv

    from ...core.special import Phi

    def ev(e):
        if e in hull:
            lo, hi = hull[e]
            return iv.mpf([_iv_end(lo, iv).a, _iv_end(hi, iv).b])
        if e.is_Rational:
            return iv.mpf(int(e.p)) / int(e.q)
        if e is sp.E or e is sp.pi:
            return iv.e if e is sp.E else iv.pi
        if isinstance(e, (sp.Add, sp.Mul)):
            parts = [ev(a) for a in e.args]
            out = parts[0]
            for q in parts[1:]:
                out = out + q if isinstance(e, sp.Add) else out * q
            return out
        if isinstance(e, sp.Pow):
            if e.exp.is_Integer:
                return ev(e.base) ** int(e.exp)
            if e.base is sp.E:
                return iv.exp(ev(e.exp))
            if e.exp == sp.S.Half:
                return iv.sqrt(ev(e.base))
            return iv.exp(ev(e.exp) * iv.log(ev(e.base)))
        unary = {sp.exp: iv.exp, sp.log: iv.log, sp.erf: iv.erf, sp.erfc: iv.erfc}
        if type(e) in unary:
            return unary[type(e)](ev(e.args[0]))
        bounded = _bounded_range(e, iv)
        if bounded is not None:   # a function with a bounded range: its range, at worst
            try:
                inner = ev(e.args[0])
                if isinstance(e, Phi):
                    value = iv.erfc(-inner / iv.sqrt(2)) / 2
                    if mpmath.isfinite(value.a) and mpmath.isfinite(value.b):
                        return iv.mpf([max(value.a, 0), min(value.b, 1)])
            except Exception:  # noqa: BLE001 - the argument has no enclosure: the range
                pass
            return bounded
        raise ValueError(type(e).__name__)

    saved = iv.prec
    try:
        iv.prec = 96   # scoped: restored below (mpmath's iv context has no workprec)
        value = ev(e)
        lo, hi = _exact_end(value.a), _exact_end(value.b)
    except Exception:  # noqa: BLE001 - no enclosure: the atom stays unbounded
        return None, None
    finally:
        iv.prec = saved
    return lo, hi


def _exact_end(x):
    """An end of an mpmath interval as an exact Fraction, with its sign (None: infinite).
    (mpmath's ``man_exp`` is the mantissa without its sign: an end -0.69 read as +0.69 made
    the enclosure of a negative atom empty, and z3 then "proved" anything about it.)"""
    import mpmath

    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        return None
    p, q = mpmath.libmp.to_rational(x._mpf_)
    return Fraction(int(p), int(q))


def _bounded_range(e, iv):
    """The range of a function bounded on the reals, as an interval (None: not one of them):
    Phi in [0, 1], erf and sin, cos, tanh in [-1, 1], erfc in [0, 2], atan in [-pi/2, pi/2]."""
    from ...core.special import Phi

    if isinstance(e, Phi):
        return iv.mpf([0, 1])
    if isinstance(e, (sp.erf, sp.sin, sp.cos, sp.tanh)):
        return iv.mpf([-1, 1])
    if isinstance(e, sp.erfc):
        return iv.mpf([0, 2])
    if isinstance(e, sp.atan):
        return iv.mpf([-2, 2])
    return None


def _iv_end(v, iv):
    """An interval containing the end ``v`` of a set (widened around an irrational end)."""
    if v is sp.oo or v is -sp.oo:
        return iv.mpf([v is sp.oo and iv.inf or -iv.inf] * 2)
    if v.is_Rational:
        return iv.mpf(int(v.p)) / int(v.q)
    mid = iv.mpf(str(sp.N(v, 40)))
    return mid + iv.mpf([-1, 1]) * iv.mpf(10) ** -30


def _z3_relation(cond, names, z3, atoms=None):
    ops = {sp.LessThan: lambda a, b: a <= b, sp.StrictLessThan: lambda a, b: a < b,
           sp.GreaterThan: lambda a, b: a >= b, sp.StrictGreaterThan: lambda a, b: a > b,
           sp.Eq: lambda a, b: a == b, sp.Ne: lambda a, b: a != b}
    if isinstance(cond, sp.And):
        return z3.And([_z3_relation(a, names, z3, atoms) for a in cond.args])
    return ops[type(cond)](_z3_term(cond.lhs, names, z3, atoms),
                           _z3_term(cond.rhs, names, z3, atoms))


def _z3_membership(v, d, z3):
    if isinstance(d, sp.FiniteSet):
        return z3.Or([v == _z3_term(x, {}, z3) for x in d])
    if isinstance(d, sp.Range) and d.step == 1:
        parts = []
        if d.inf.is_finite:
            parts.append(v >= int(d.inf))
        if d.sup.is_finite:
            parts.append(v <= int(d.sup))
        return z3.And(parts) if parts else z3.BoolVal(True)
    if isinstance(d, sp.Intersection):
        return z3.And([_z3_membership(v, a, z3) for a in d.args if a != sp.S.Integers])
    if isinstance(d, sp.Union):   # a set with holes: a point is in one of its parts
        return z3.Or([_z3_membership(v, a, z3) for a in d.args])
    if isinstance(d, sp.Interval):
        parts = []
        if d.start.is_finite:
            parts.append(v > _z3_term(d.start, {}, z3) if d.left_open else v >= _z3_term(d.start, {}, z3))
        if d.end.is_finite:
            parts.append(v < _z3_term(d.end, {}, z3) if d.right_open else v <= _z3_term(d.end, {}, z3))
        return z3.And(parts) if parts else z3.BoolVal(True)
    if d in (sp.S.Integers, sp.S.Reals):
        return z3.BoolVal(True)
    if d in (sp.S.Naturals, sp.S.Naturals0):
        return v >= (1 if d == sp.S.Naturals else 0)
    raise ValueError(f"no z3 membership for {d}")


def by_balls(fact: Fact, dom: Domain) -> str:
    from ...numeric.ball_compiler import compile_ball
    from ...numeric.balls import interval, working_bits

    sets = dom.sets
    symbols = sorted(fact.expression.free_symbols, key=str)
    if fact.property == "integer" or any(
            not (sets[s].inf.is_finite and sets[s].sup.is_finite) for s in symbols):
        return ""
    fn = compile_ball(fact.expression, symbols)
    todo = [tuple((sets[s].inf, sets[s].sup) for s in symbols)]
    boxes = 0
    test = {"positive": lambda b: b > 0, "nonnegative": lambda b: b >= 0,
            "negative": lambda b: b < 0, "nonpositive": lambda b: b <= 0,
            "nonzero": lambda b: not b.contains(0), "zero": lambda b: b == 0}[fact.property]
    with working_bits(BALL_BITS):
        while todo:
            box = todo.pop()
            boxes += 1
            if boxes > BALL_BOXES:
                return ""
            value = fn({s: interval(lo, hi) for s, (lo, hi) in zip(symbols, box)})
            if value.is_finite() and test(value):
                continue
            i = max(range(len(box)), key=lambda j: box[j][1] - box[j][0])
            lo, hi = box[i]
            if hi - lo < sp.Rational(1, 2 ** 30):
                return ""
            mid = (lo + hi) / 2
            todo += [box[:i] + ((lo, mid),) + box[i + 1:], box[:i] + ((mid, hi),) + box[i + 1:]]
    return f"Arb balls over {boxes} sub-boxes"


_REAL_Z3: dict = {}


def real_z3_entails(domain: Domain, conditions, expr, relation) -> bool:
    """z3 proves ``expr REL 0`` from the domain's sets and conditions (reals relaxation);
    cached (a pure function of its arguments)."""
    return remembered(_REAL_Z3, (domain, tuple(conditions), expr, relation),
                      lambda: _real_z3_entails_uncached(domain, conditions, expr, relation))


def _real_z3_entails_uncached(domain: Domain, conditions, expr, relation) -> bool:
    import z3

    conds = list(domain.conditions) + list(conditions)
    symbols = set(expr.free_symbols).union(*[c.free_symbols for c in conds]) if conds \
        else set(expr.free_symbols)
    sets = domain.sets
    # names and assertions in a fixed order (never from id() or set order): z3's search, and
    # so what it decides within its rlimit, depends on them
    names = {s: z3.Real(z3_name(s, i))
             for i, s in enumerate(sorted(symbols, key=symbol_order))}
    solver = z3.Solver()
    solver.set("rlimit", Z3_RLIMIT)
    try:
        for s, v in names.items():
            if s in sets:
                solver.add(_z3_membership(v, sets[s], z3))
        for c in conds:
            try:
                solver.add(_z3_relation(c, names, z3))
            except (ValueError, KeyError, TypeError, AttributeError):
                pass     # a condition outside z3's fragment is left out: fewer facts, still sound
        e = _z3_term(sp.expand(expr) if not expr.is_Atom else expr, names, z3)
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    negated = {"=": e != 0, "<=": e > 0, "<": e >= 0, ">=": e < 0, ">": e <= 0,
               "!=": e == 0}[relation]
    solver.add(negated)
    return solver.check() == z3.unsat


def integer_by_structure(e, dom: Domain) -> bool:
    """``e`` is an integer at every point of ``dom`` by its structure: integer literals and
    parameters whose set is integers, closed under ``+``, ``*``, powers with a non-negative
    integer exponent (z3), ``binomial`` of integers (an integer also for a negative upper
    argument) and ``factorial`` of a non-negative integer (z3)."""
    sets = dom.sets
    if e.is_Integer:
        return True
    if e.is_Symbol:
        return e in sets and sets[e].is_subset(sp.S.Integers) is True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(integer_by_structure(a, dom) for a in e.args)
    if isinstance(e, sp.Pow):
        return integer_by_structure(e.base, dom) and integer_by_structure(e.exp, dom) and \
            (bool(e.exp.is_Integer and e.exp >= 0) or real_z3_entails(dom, (), e.exp, ">="))
    if isinstance(e, sp.binomial):
        return all(integer_by_structure(a, dom) for a in e.args)
    if isinstance(e, sp.factorial):
        return integer_by_structure(e.args[0], dom) and \
            real_z3_entails(dom, (), e.args[0], ">=")
    return False


def _open_ranges():
    """Functions of one real argument and the open interval their values lie in, for every
    finite real argument: Phi in (0, 1), erf and tanh in (-1, 1), erfc in (0, 2), exp in
    (0, oo), atan in (-pi/2, pi/2) (written (-2, 2))."""
    from ...core.special import Phi

    return {Phi: (0, 1), sp.erf: (-1, 1), sp.tanh: (-1, 1), sp.erfc: (0, 2),
            sp.exp: (0, sp.oo), sp.atan: (-2, 2)}


def by_function_range(fact: Fact, dom: Domain) -> str:
    """``a + b F(u)`` (a, b rational, F of :func:`_open_ranges`, u real -- the argument of an
    expression defined on the domain) has every value in the open ``a + b (lo, hi)``: the
    fact holds when all of that interval has its sign (``1 - Phi(u) > 0``)."""
    if fact.property not in ("positive", "nonnegative", "negative", "nonpositive", "nonzero"):
        return ""
    e = sp.expand(fact.expression)
    ranges = _open_ranges()
    atoms = [a for a in e.atoms(sp.Function) if type(a) in ranges and a.args[0].is_real]
    if len(atoms) != 1:
        return ""
    t = sp.Dummy("t")
    linear = e.xreplace({atoms[0]: t})
    if linear.free_symbols - {t} or not linear.is_polynomial(t) or sp.degree(linear, t) != 1:
        return ""
    a, b = linear.coeff(t, 0), linear.coeff(t, 1)
    if not (a.is_Rational and b.is_Rational):
        return ""
    lo, hi = ranges[type(atoms[0])]
    e1, e2 = a + b * sp.sympify(lo), a + b * sp.sympify(hi)
    low, high = (e1, e2) if bool(e1 <= e2) else (e2, e1)
    holds = {"positive": low >= 0, "nonnegative": low >= 0, "negative": high <= 0,
             "nonpositive": high <= 0, "nonzero": low >= 0 or high <= 0}[fact.property]
    return f"the open range of {type(atoms[0]).__name__} on the reals" if bool(holds) else ""


def by_integer_structure(fact: Fact, dom: Domain) -> str:
    if fact.property == "integer" and integer_by_structure(fact.expression, dom):
        return "integer by its structure (integer parameters, +, *, powers, binomials)"
    return ""


def by_choose_pos(fact: Fact, dom: Domain) -> str:
    """Products and powers of binomials C(m, K) with 0 <= K <= m (Mathlib ``Nat.choose_pos``)
    and factorials x! with x >= 0 (``Nat.factorial_pos``) are positive; the bounds are
    confirmed by z3, every parameter in them integer."""
    if fact.property not in ("positive", "nonnegative", "nonzero"):
        return ""

    def integer(e):
        return e.is_integer and all(s in dom.sets and dom.sets[s].is_subset(sp.S.Integers)
                                    for s in e.free_symbols)

    def positive(e):
        if e.is_Rational:
            return e > 0
        if isinstance(e, sp.Mul):
            return all(positive(f) for f in e.args)
        if isinstance(e, sp.Pow):
            return e.exp.is_real and positive(e.base)
        if isinstance(e, sp.binomial):
            m, K = e.args
            return integer(m) and integer(K) and real_z3_entails(dom, (), K, ">=") and \
                real_z3_entails(dom, (), m - K, ">=")
        if isinstance(e, sp.factorial):
            return integer(e.args[0]) and real_z3_entails(dom, (), e.args[0], ">=")
        return False

    return "Nat.choose_pos, Nat.factorial_pos (bounds by z3)" if positive(fact.expression) else ""


def undefined_at(sides, domain: Domain) -> str:
    """A point of ``domain`` where a side (as written) is undefined, in words ("" if none is
    found): a hazard that z3 refutes with a point at which the expression really is
    undefined (checked exactly)."""
    from .definedness import NoRule, hazards   # the kernel's own definedness conditions

    for name, side in zip(("lhs", "rhs"), sides):
        try:
            facts = hazards(side, domain=domain)
        except NoRule:
            continue   # no rule: the kernel refuses the step later, naming the node
        for fact in facts:
            if not fact.source.startswith("definedness") or \
                    fact.source.startswith("definedness: exponent"):
                continue   # b**k undefined at b = 0 only for some k: not named as a point
            dom = domain_of(fact, domain)
            try:
                dom = dom.restricted_to(fact.expression.free_symbols)
                ok, point = z3_decide(fact, dom)
            except Exception:  # noqa: BLE001 - no point found
                continue
            if ok or point is None or not exact_is_cheap(fact.expression, point):
                continue
            value = sp.simplify(fact.expression.xreplace(point))
            if value.is_Rational and not holds_exactly(value, fact.property):
                where = ", ".join(f"{s} = {v}" for s, v in point.items())
                return (f"the {name} is undefined at {where}, a point of the stated domain "
                        f"({sp.sstr(fact.expression)} = {value}, needed {fact.text()})")
    return ""
