r"""The kernel's rules for convex analysis and f-DP (issue #28): lemma proofs and minorants.

:func:`judge` returns ``(why, detail)`` -- a reason to refuse, or "" and the words of the
verdict, which :func:`symdp.proof.kernel.accept` alone seals.  Two certificate kinds:

* :class:`~symdp.proof.certificates.LemmaCertificate` -- a proof: a tuple of
  :class:`~symdp.proof.certificates.Inference`, replayed here (:func:`replay`); each derives
  a :class:`~symdp.proof.certificates.Judgement` ``lhs REL rhs`` on a domain, and the step's
  claim must be the last one;
* :class:`~symdp.proof.certificates.MinorantCertificate` -- ``h = g**`` on [0, 1] for a
  Piecewise h, by the characterisation below; the kernel lists the obligations itself
  (:func:`minorant_obligations`) and each must be derived by the certificate's proof.

**The rules** (``Inference.rule``):

``lemma``
    a named lemma (:data:`LEMMAS`) instantiated by the inference's data; its hypotheses are
    relations on a domain, each *entailed* (z3, below) by the premises, and its structural
    hypotheses ("g is a trade-off function", "f is symmetric", "M is f-DP") are read from
    the terms and the declarations (:func:`tradeoff_reason`, :func:`symmetric_reason`).
    A hypothesis that is not shown refuses the inference.
``arith``
    the judgement in the data follows from the premises by real arithmetic: z3 proves that
    the domain and the premises (each one true where its own conditions hold) entail it
    (``method="z3"``); or, premise-free, ``lhs = rhs`` by the trusted equality
    (:func:`~symdp.proof.kernel.deciders.simplifies_to`, a named rewriting), both sides
    defined on the domain.
``instantiate``
    bound variables of a premise replaced by expressions shown to lie in their sets, the
    premise's conditions shown at the instance.
``rewrite``
    a term replaced by an equal one (a premise ``a = b`` true on the judgement's domain).
``cases``
    premises with the same sides on domains whose conditions cover the conclusion's domain.
``minorant``
    a nested :class:`~symdp.proof.certificates.MinorantCertificate`: its equality.

**Arithmetic** (:func:`entails`): every symbol is a z3 real in its set; a term that is not
polynomial -- ``f(x)``, ``f^{-1}(a)``, ``f^*(y)``, a fixed point, ``Phi(u)``, ... -- is an
opaque real (the same term, the same real: nothing else is assumed about it), except:
``Max``/``Min``/``Abs``/``Piecewise`` are encoded exactly (``If``); ``exp`` of a sum is the
product of the ``exp`` of its terms and ``exp(c u)`` the power ``B^{cL}`` of one atom
``B = exp(u/L)`` per monomial u (L the least common denominator; the constants are powers of
``exp(1/L)``, between the ends of its Arb ball), with the Mathlib facts
``Real.exp_pos``, ``Real.add_one_le_exp``, ``Real.exp_le_exp``, ``Real.exp_lt_exp``; ``log``
atoms with ``Real.log_nonneg``, ``Real.log_le_sub_one_of_pos``,
``Real.one_sub_inv_le_log_of_pos``, ``Real.log_le_log``; ``sqrt`` atoms with
``Real.sqrt_nonneg``, ``Real.sq_sqrt``; ``Phi`` in (0, 1) and increasing; the same function
(value, inverse or conjugate of one trade-off object) at equal points has equal values; a
closed number
(``e^3``, ``Phi(1/2)``) between the rational ends of its Arb ball.  Division by zero is
z3's (an arbitrary value), so a judgement about an undefined term says nothing; the step's
own sides are checked defined by :func:`~symdp.proof.kernel.accept` and their arguments of
trade-off functions shown in [0, 1] here.  z3's work is bounded by ``rlimit``
(:data:`Z3_WORK`), never by time.

**The greatest convex minorant** (the theorem behind :class:`MinorantCertificate`).  Let
g : [0, 1] -> R be bounded below and h : [0, 1] -> R continuous and convex with h <= g, and
let [0, 1] be the union of closed intervals on each of which either h = g, or h is affine
with h = g at both ends.  Then h = g** (conjugates over [0, 1]).  *Proof.*  g** is the
greatest closed convex minorant of g (Rockafellar, Convex Analysis, 1970, Thm. 12.2 and
Cor. 12.1.1; Hiriart-Urruty and Lemarechal, Fundamentals of Convex Analysis, 2001, Thm.
E.1.3.5), and h is one, so h <= g**.  Conversely g** <= g: where h = g, g** <= h; on an
affine interval [a, b], g**(a) <= g(a) = h(a), g**(b) <= g(b) = h(b) and g** is convex, so
g** lies below the chord, which is h.  *Convexity of h from its pieces*: each piece is
convex (an affine piece, or equal to a function of g that is a trade-off function, convex by
Prop. 2.2), h is continuous, and at each junction c the left slope is at most the right
slope (a continuous function convex on adjacent closed intervals with
:math:`h'_-(c) \le h'_+(c)` is convex on their union: Rockafellar, Sec. 24, the one-sided
derivatives of a convex function of one variable); at a junction of a graph piece W and an
affine piece l the kernel asks for l <= W on W's interval, which with l(c) = W(c) gives the
slope inequality.  Junctions of two graph pieces of the same function need nothing.

**Axioms** (taken, each cited; the rest is derived by the rules): :data:`LEMMAS`' docstrings.
What is trusted beyond the rest of the kernel: the definitions of the families
(``EpsDelta``, ``Gaussian``, ``Laplace``, ``Identity``, ``Zero``: the kernel's own table
:data:`.closed_forms.DEFINITIONS`, the formulas of Dong, Roth, Su 2022, Eq. 5, Def. 2.7,
Sec. 2.3) and of the operators (Def. 4.1, Eq. 4, written here), z3, SymPy's exact
arithmetic and automatic evaluation.

**No untrusted import** (issue #27's trusted base): symdp's objects are recognised by
qualified class name -- the class of that name in a module already loaded, its
``__module__`` and ``__qualname__`` checked (:func:`_classes`) -- and read through their
``args``; a module that is not loaded has no objects to recognise.  Building a node (``f(x)``
of an operand, ``FixedPoint(g)``) runs that class's constructor, as
:func:`.closed_forms.unfold` does with ``node.func``.

**The claim** (issue #27): a certificate's statement is the step's claim as written --
:mod:`symdp.proof.cascade.convex` proposes no other -- so
:func:`~symdp.proof.kernel.accept` binds it by identity before this module judges it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from ..certificates import (Domain, Fact, Inference, Judgement, LemmaCertificate,
                            MinorantCertificate)
from . import closed_forms, deciders
from .definedness import hazards

#: z3's resource limit for one query of this module (work, not seconds): the nonlinear
#: queries of the Eq. 14 proofs need about 2e6 at most; ten times that is the budget
Z3_WORK = 20_000_000

R = sp.Rational
_RELATIONS = ("=", "<=", "<", ">=", ">")
_REL = {"=": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}
_RELATIONAL = {sp.LessThan: "<=", sp.StrictLessThan: "<", sp.GreaterThan: ">=",
               sp.StrictGreaterThan: ">", sp.Equality: "="}


class Refused(Exception):
    """An inference (or obligation) the kernel does not accept; the message says why."""


# ====================================================================== the objects

#: symdp's classes the rules recognise, by qualified name (module, class)
_NAMES = {
    "Mechanism": "symdp.subsampling.mechanism", "MechanismTradeOff": "symdp.subsampling.mechanism",
    "SampledMechanism": "symdp.subsampling.mechanism", "Subsampled": "symdp.subsampling.operator",
    "AbstractTradeOff": "symdp.tradeoff.abstract", "FixedPoint": "symdp.tradeoff.abstract",
    "ConjugateAt": "symdp.tradeoff.base", "InverseAt": "symdp.tradeoff.base",
    "TradeOff": "symdp.tradeoff.base", "TradeOffAt": "symdp.tradeoff.base",
    "EpsDelta": "symdp.tradeoff.families", "Gaussian": "symdp.tradeoff.families",
    "Identity": "symdp.tradeoff.families", "Laplace": "symdp.tradeoff.families",
    "Zero": "symdp.tradeoff.families", "ConvexEnvelope": "symdp.tradeoff.operators",
    "EnvelopeAt": "symdp.tradeoff.operators", "Inverse": "symdp.tradeoff.operators",
    "Mixture": "symdp.tradeoff.operators", "PointwiseMin": "symdp.tradeoff.operators",
}


class _Absent:
    """A class of :data:`_NAMES` whose module is not loaded: no object is one of it (none can
    exist), and the kernel cannot build one."""

    def __init__(self, qualified: str):
        self.qualified = qualified

    def __instancecheck__(self, obj) -> bool:
        return False

    def __call__(self, *args, **kwargs):
        raise Refused(f"{self.qualified} is not loaded: the kernel builds no such object")


def _classes():
    """symdp's trade-off classes the rules recognise and build, by qualified name: the class
    of that name in a module already loaded (``sys.modules``), its ``__module__`` and
    ``__qualname__`` checked -- the kernel imports none of them (``symdp.tradeoff`` and
    ``symdp.subsampling`` are outside the trusted base, issue #27), as
    :mod:`.definedness` names them.  A user's class that merely shares a short name is
    another class.  What the kernel reads of these objects is their ``args`` (and the
    declarations of an abstract f or mechanism); their formulas are the kernel's own
    (:data:`.closed_forms.DEFINITIONS`)."""
    import sys

    found = {}
    for name, module in _NAMES.items():
        k = getattr(sys.modules.get(module), name, None)
        ok = isinstance(k, type) and f"{k.__module__}.{k.__qualname__}" == f"{module}.{name}"
        found[name] = k if ok else _Absent(f"{module}.{name}")
    return found


def _declared(M, i):
    """A mechanism's declaration, read from its args: ``i = 1`` the f of "M is f-DP", ``i = 2``
    the g of "M is (eps, delta_g(eps))-DP" (None: not declared)."""
    return M.args[i][0] if M.args[i] else None


def _at(g, x):
    """g(x) as the kernel writes it."""
    return _classes()["TradeOffAt"](g, x)


# ====================================================================== z3 arithmetic

_ENTAILS_CACHE: dict = {}


def entails(domain: Domain, premises, goal) -> bool:
    """z3 proves ``goal`` -- a Judgement's ``(lhs, relation, rhs)``, or a SymPy boolean --
    at every point of ``domain`` from ``premises`` (Judgements; each one usable on the
    domain (:func:`usable`) is assumed where its own conditions hold, the others are left
    out)."""
    premises = tuple(premises)
    return deciders.remembered(_ENTAILS_CACHE, (domain, premises, goal),
                               lambda: _entails(domain, premises, goal))


def _entails(domain: Domain, premises, goal) -> bool:
    import z3

    if isinstance(goal, tuple):
        lhs, rel, rhs = goal
        goal = _relation(lhs, rel, rhs)
    hypotheses = []
    for p in premises:
        try:
            conditions = usable(p, domain)
        except Refused:
            continue      # a premise about other variables says nothing here
        claim = _relation(p.lhs, p.relation, p.rhs)
        hypotheses.append(sp.Implies(sp.And(*conditions), claim) if conditions else claim)
    formulas = list(domain.conditions) + hypotheses + [goal]
    try:
        enc = _Encoder(domain, formulas)
        solver = z3.Solver()
        solver.set("rlimit", Z3_WORK)
        for a in enc.memberships():
            solver.add(a)
        for c in domain.conditions:
            solver.add(enc.boolean(c))
        for h in hypotheses:
            solver.add(enc.boolean(h))
        negated = z3.Not(enc.boolean(goal))
        for fact in enc.facts:
            solver.add(fact)
        solver.add(negated)
        return solver.check() == z3.unsat
    except (_Outside, z3.Z3Exception, ValueError, TypeError, AttributeError, ZeroDivisionError,
            RecursionError):
        return False


def _relation(lhs, rel, rhs):
    if rel == "!=":
        return sp.Ne(lhs, rhs, evaluate=False)
    return _REL[rel](lhs, rhs, evaluate=False)


class _Outside(Exception):
    """A term z3 cannot be told about."""


class _Encoder:
    """SymPy -> z3 for one query: symbols in their sets, atoms opaque, exp/log/sqrt/Phi with
    their Mathlib facts (module docstring).  Names are by index, in a fixed order."""

    def __init__(self, domain: Domain, formulas):
        import z3

        self.z3 = z3
        self.sets = domain.sets
        symbols = set()
        for f in formulas:
            symbols |= f.free_symbols
        self.names = {}
        for i, s in enumerate(sorted(symbols, key=sp.default_sort_key)):
            if s not in self.sets:
                raise _Outside(f"{s} has no set")
            self.names[s] = z3.Real(f"s{i}")
        self.atoms = {}
        self.facts = []
        self._exp_units = {}          # monomial u -> L (exp(c u) = B_u^(c L))
        self._exp_atoms = {}          # monomial u -> z3 atom for exp(u / L)
        for f in formulas:
            for e in sp.preorder_traversal(f):
                if e is sp.E:                   # Euler's number is exp(1)
                    self._exp_units[sp.S.One] = self._exp_units.get(sp.S.One, 1)
                if isinstance(e, sp.exp):
                    for c, u in _exp_terms(e.args[0]):
                        if c.is_Rational:   # u = 1: the constants, powers of exp(1/L)
                            self._exp_units[u] = _lcm(self._exp_units.get(u, 1), c.q)
        self._exp_seen = []           # (atom, argument) of the exp atoms made so far
        self._applications = {}       # (kind, function) -> [(point, atom)]
        self._monotone = []           # (argument, atom) of increasing atoms, per function

    def memberships(self):
        z3 = self.z3
        out = []
        for s, v in self.names.items():
            d = self.sets[s]
            out.append(self._member(v, d))
        return out

    def _member(self, v, d):
        z3 = self.z3
        if d == sp.S.Reals:
            return z3.BoolVal(True)
        if isinstance(d, sp.Interval):
            parts = []
            if d.start.is_finite:
                lo = self.term(d.start)
                parts.append(v > lo if d.left_open else v >= lo)
            if d.end.is_finite:
                hi = self.term(d.end)
                parts.append(v < hi if d.right_open else v <= hi)
            return z3.And(parts) if parts else z3.BoolVal(True)
        if isinstance(d, sp.FiniteSet):
            return z3.Or([v == self.term(x) for x in d])
        if isinstance(d, sp.Union):
            return z3.Or([self._member(v, a) for a in d.args])
        raise _Outside(f"no z3 membership for {d}")

    # ------------------------------------------------------------------ booleans
    def boolean(self, c):
        z3 = self.z3
        if c is sp.true or c is True:
            return z3.BoolVal(True)
        if c is sp.false or c is False:
            return z3.BoolVal(False)
        if isinstance(c, sp.And):
            return z3.And([self.boolean(a) for a in c.args])
        if isinstance(c, sp.Or):
            return z3.Or([self.boolean(a) for a in c.args])
        if isinstance(c, sp.Not):
            return z3.Not(self.boolean(c.args[0]))
        if isinstance(c, sp.Implies):
            return z3.Implies(self.boolean(c.args[0]), self.boolean(c.args[1]))
        if isinstance(c, sp.Ne):
            return self.term(c.lhs) != self.term(c.rhs)
        ops = {sp.LessThan: lambda a, b: a <= b, sp.StrictLessThan: lambda a, b: a < b,
               sp.GreaterThan: lambda a, b: a >= b, sp.StrictGreaterThan: lambda a, b: a > b,
               sp.Equality: lambda a, b: a == b}
        op = ops.get(type(c))
        if op is None:
            raise _Outside(f"no z3 form of the condition {c}")
        return op(self.term(c.lhs), self.term(c.rhs))

    # ------------------------------------------------------------------ terms
    def term(self, e):  # noqa: C901 - one dispatch, read top to bottom
        z3 = self.z3
        e = sp.sympify(e)
        if e in self.names:
            return self.names[e]
        if e.is_Rational:
            return z3.RealVal(f"{e.p}/{e.q}")
        if e is sp.E:
            L = self._exp_units.get(sp.S.One, 1)
            return self._power(self._exp_atom(sp.S.One, L), L)
        if isinstance(e, sp.Float):
            q = sp.Rational(e)
            return z3.RealVal(f"{q.p}/{q.q}")
        if isinstance(e, sp.Add):
            return z3.Sum([self.term(a) for a in e.args])
        if isinstance(e, sp.Mul):
            return z3.Product([self.term(a) for a in e.args])
        if isinstance(e, sp.Pow) and e.exp.is_Integer:
            return self._power(self.term(e.base), int(e.exp))
        if isinstance(e, sp.exp):
            return self._exp(e)
        if isinstance(e, (sp.Max, sp.Min)):
            parts = [self.term(a) for a in e.args]
            out = parts[0]
            for q in parts[1:]:
                out = z3.If(q > out, q, out) if isinstance(e, sp.Max) else z3.If(q < out, q, out)
            return out
        if isinstance(e, sp.Abs):
            x = self.term(e.args[0])
            return z3.If(x >= 0, x, -x)
        if isinstance(e, sp.Piecewise):
            if e.args[-1][1] is not sp.true:
                raise _Outside("a Piecewise without a default branch is undefined somewhere")
            out = None
            for value, cond in reversed(e.args):
                v = self.term(value)
                out = v if out is None or cond is sp.true else z3.If(self.boolean(cond), v, out)
            return out
        if e.is_number:
            return self._constant(e)
        return self._atom(e)

    def _power(self, base, k: int):
        z3 = self.z3
        if k == 0:
            return z3.RealVal(1)
        power = z3.Product([base] * abs(k)) if abs(k) > 1 else base
        return power if k > 0 else 1 / power

    def _exp(self, e):
        z3 = self.z3
        out = []
        for c, u in _exp_terms(e.args[0]):
            L = self._exp_units.get(u)
            if L is None or not c.is_Rational or not (c * L).is_Integer:
                out.append(self._atom(sp.exp(c * u)))
                continue
            base = self._exp_atom(u, L)
            out.append(self._power(base, int(c * L)))
        return z3.Product(out) if len(out) > 1 else out[0]

    def _exp_atom(self, u, L):
        z3 = self.z3
        if u in self._exp_atoms:
            return self._exp_atoms[u]
        v = z3.Real(f"x{len(self.atoms) + len(self._exp_atoms)}")
        self._exp_atoms[u] = v
        if u == 1:     # exp(1/L), a number: between the ends of its ball
            lo, hi = _ball_ends(sp.exp(R(1, L)))
            if lo is None:
                raise _Outside(f"no enclosure of exp(1/{L})")
            self.facts.append(v >= z3.RealVal(f"{lo.numerator}/{lo.denominator}"))
            self.facts.append(v <= z3.RealVal(f"{hi.numerator}/{hi.denominator}"))
        arg = self.term(u / L)
        self.facts.append(v > 0)                       # Real.exp_pos
        self.facts.append(v >= 1 + arg)                # Real.add_one_le_exp
        for w, oarg in self._exp_seen:
            self.facts.append(z3.Implies(arg <= oarg, v <= w))        # Real.exp_le_exp
            self.facts.append(z3.Implies(arg < oarg, v < w))          # Real.exp_lt_exp
            self.facts.append(z3.Implies(oarg <= arg, w <= v))
            self.facts.append(z3.Implies(oarg < arg, w < v))
        self._exp_seen.append((v, arg))
        return v

    def _constant(self, e):
        """A closed number: an atom between the rational ends of its Arb ball (a function
        application, Phi(-1/2), keeps its argument too: congruence, monotonicity)."""
        z3 = self.z3
        if e in self.atoms:
            return self.atoms[e]
        if isinstance(e, sp.Function) and len(e.args) == 1:
            v = self._atom(e)
        else:
            v = z3.Real(f"c{len(self.atoms)}")
            self.atoms[e] = v
        lo, hi = _ball_ends(e)
        if lo is None:
            raise _Outside(f"no enclosure of {e}")
        self.facts.append(v >= z3.RealVal(f"{lo.numerator}/{lo.denominator}"))
        self.facts.append(v <= z3.RealVal(f"{hi.numerator}/{hi.denominator}"))
        return v

    def _atom(self, e):
        z3 = self.z3
        C = _classes()
        if isinstance(e, C["EnvelopeAt"]):      # h**(x) written either way: one atom
            e = _at(e.args[0], e.args[1])
        if e in self.atoms:
            return self.atoms[e]
        v = z3.Real(f"a{len(self.atoms)}")
        self.atoms[e] = v
        if isinstance(e, sp.Pow):
            base = self.term(e.base)
            self.facts.append(z3.Implies(base > 0, v > 0))         # Real.rpow_pos_of_pos
            if e.exp == sp.S.Half:
                self.facts.append(v >= 0)                           # Real.sqrt_nonneg
                self.facts.append(z3.Implies(base >= 0, v * v == base))   # Real.sq_sqrt
        elif isinstance(e, sp.log):
            x = self.term(e.args[0])
            self.facts.append(z3.Implies(x >= 1, v >= 0))           # Real.log_nonneg
            self.facts.append(z3.Implies(x > 0, v <= x - 1))        # Real.log_le_sub_one_of_pos
            self.facts.append(z3.Implies(x > 0, v * x >= x - 1))    # Real.one_sub_inv_le_log_of_pos
            self._increasing("log", x, v)                           # Real.log_le_log
        elif isinstance(e, (C["TradeOffAt"], C["InverseAt"], C["ConjugateAt"])):
            # a function at equal points has equal values (congruence)
            key = (type(e), e.args[0])
            x = self.term(e.args[1])
            for y, w in self._applications.setdefault(key, []):
                self.facts.append(z3.Implies(x == y, v == w))
            self._applications[key].append((x, v))
        elif isinstance(e, sp.Function) and len(e.args) == 1:
            from ...core.special import Phi

            x = self.term(e.args[0])
            key = (type(e), None)
            for y, w in self._applications.setdefault(key, []):     # congruence
                self.facts.append(z3.Implies(x == y, v == w))
            self._applications[key].append((x, v))
            if isinstance(e, Phi):
                self.facts.append(v > 0)
                self.facts.append(v < 1)
                self._increasing("Phi", x, v)
        return v

    def _increasing(self, name, x, v):
        z3 = self.z3
        for other_name, y, w in self._monotone:
            if other_name == name:
                self.facts.append(z3.Implies(x <= y, v <= w))
                self.facts.append(z3.Implies(y <= x, w <= v))
        self._monotone.append((name, x, v))


def _exp_terms(arg):
    """``arg`` as ``[(c, u)]``: rational coefficient times monomial (u = 1: the constant)."""
    out = []
    for term in sp.Add.make_args(sp.expand(arg)):
        c, u = term.as_coeff_Mul()
        if not c.is_Rational:
            c, u = sp.S.One, term
        out.append((c, u))
    return out


def _lcm(a: int, b: int) -> int:
    return a * b // math.gcd(a, b)


def _ball_ends(e):
    """Rational ends of an Arb ball of the closed number ``e`` (None, None: no ball)."""
    try:
        from ...numeric.ball_compiler import evaluate_ball

        ball = evaluate_ball(e, {}, bits=128)
        if not ball.is_finite():
            return None, None
        return _arf_fraction(ball.lower()), _arf_fraction(ball.upper())
    except Exception:  # noqa: BLE001 - no ball: the constant stays unknown
        return None, None


def _arf_fraction(x) -> Fraction:
    man, exp = x.man_exp()
    return Fraction(int(man)) * (Fraction(2) ** int(exp))


# ====================================================================== domains

def usable(premise: Judgement, domain: Domain) -> tuple:
    """The conditions under which ``premise`` holds at a point of ``domain``: its own
    conditions.  Refused unless every symbol of the premise has, in ``domain``, a set
    inside the premise's set for it (so each point of the domain is a point of the premise
    where its conditions hold)."""
    psets, gsets = premise.domain.sets, domain.sets
    symbols = set(premise.lhs.free_symbols) | set(premise.rhs.free_symbols)
    for c in premise.domain.conditions:
        symbols |= c.free_symbols
    for s in sorted(symbols, key=sp.default_sort_key):
        if s not in gsets:
            raise Refused(f"the premise {premise.text()} speaks of {s}, which the domain "
                          f"{domain.text()} does not bind (instantiate it first)")
        if s not in psets or gsets[s].is_subset(psets[s]) is not True:
            raise Refused(f"the premise {premise.text()} holds for {s} in "
                          f"{psets.get(s)}, not on all of {gsets[s]}")
    return tuple(premise.domain.conditions)


def _extend(domain: Domain, symbol, set_, conditions=()) -> Domain:
    """``domain`` with one more bound variable and conditions.  The variable must be a new
    Symbol: the conclusion, on ``domain``, then cannot mention it (:func:`_judgement`)."""
    if symbol is not None and (not isinstance(symbol, sp.Symbol) or symbol in domain.sets):
        raise Refused(f"the bound variable {symbol} must be a Symbol not already in the domain")
    hyps = tuple(domain.hypotheses) + (((symbol, set_),) if symbol is not None else ())
    return Domain(hyps, tuple(domain.constraints),
                  tuple(domain.side_conditions) + tuple(conditions))


def _holds(domain: Domain, premises, condition) -> bool:
    """A condition (a SymPy boolean) holds at every point of ``domain``: decided by SymPy
    (True/False) or entailed by z3."""
    condition = sp.sympify(condition)
    if condition is sp.true:
        return True
    if condition is sp.false:
        return False
    return entails(domain, premises, condition)


def _judgement(lhs, rel, rhs, domain: Domain) -> Judgement:
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    if rel not in _RELATIONS:
        raise Refused(f"unknown relation {rel!r}")
    free = set(lhs.free_symbols) | set(rhs.free_symbols)
    for c in domain.conditions:
        free |= c.free_symbols
    missing = free - set(domain.sets)
    if missing:
        raise Refused("no set for " + ", ".join(sorted(map(str, missing))) + " in the domain")
    return Judgement(lhs, rel, rhs, domain)


def _need(domain: Domain, premises, lhs, rel, rhs, what: str):
    """Refuse unless ``lhs REL rhs`` is entailed on ``domain`` by ``premises``."""
    if not entails(domain, premises, (sp.sympify(lhs), rel, sp.sympify(rhs))):
        raise Refused(f"{what}: {sp.sstr(lhs)} {rel} {sp.sstr(rhs)} is not shown on "
                      f"{domain.text()}")


def _in_unit(domain: Domain, premises, x, what: str):
    x = sp.sympify(x)
    if x.is_Rational and 0 <= x <= 1:
        return
    if x in domain.sets and domain.sets[x].is_subset(sp.Interval(0, 1)) is True:
        return
    _need(domain, premises, x, ">=", 0, what)
    _need(domain, premises, x, "<=", 1, what)


def _all_of_unit(domain: Domain, x, *exprs):
    """``x`` ranges over all of [0, 1] in ``domain``, free of its conditions and of ``exprs``
    (a hypothesis "for every x" of a lemma)."""
    if x not in domain.sets or sp.Interval(0, 1).is_subset(domain.sets[x]) is not True:
        raise Refused(f"{x} must range over all of [0, 1]")
    if any(x in c.free_symbols for c in domain.conditions) or \
            any(x in sp.sympify(e).free_symbols for e in exprs):
        raise Refused(f"{x} must be free of the domain's conditions and of the other terms")


# ====================================================================== structure

def tradeoff_reason(g, domain: Domain, premises=()) -> str:
    """Why ``g`` is a trade-off function on ``domain`` (the name of the lemma), or Refused.

    * ``AbstractTradeOff``: by declaration; ``MechanismTradeOff``: Def. 2.1;
    * ``EpsDelta``, ``Gaussian``, ``Laplace``, ``Identity``, ``Zero`` with their parameters
      in range: Dong, Roth, Su 2022, Eq. 5 and Prop. 2.5, Def. 2.7, Sec. 2.3 (each is some
      T(P, Q));
    * ``Mixture(g, p)``, 0 <= p <= 1: a convex combination of g and Id keeps the four
      conditions of Prop. 2.2 (``mixture_is_trade_off``);
    * ``Inverse(g)``: :math:`T(P,Q)^{-1} = T(Q,P)` (Eq. 4 and the remark after it);
    * ``Subsampled(f, p)`` and ``ConvexEnvelope(PointwiseMin(g, Inverse(g)))``: the axiom
      ``symmetrised_envelope`` (:data:`LEMMAS`)."""
    C = _classes()
    if isinstance(g, C["AbstractTradeOff"]):
        return "declared trade-off function"
    if isinstance(g, C["MechanismTradeOff"]):
        return "Def. 2.1"
    if isinstance(g, (C["Identity"], C["Zero"])):
        return "family"
    if isinstance(g, (C["Gaussian"], C["Laplace"])):
        _need(domain, premises, g.args[0], ">=", 0, f"the parameter of {g}")
        return "family"
    if isinstance(g, C["EpsDelta"]):
        _need(domain, premises, g.args[0], ">=", 0, f"eps of {g}")
        _in_unit(domain, premises, g.args[1], f"delta of {g}")
        return "family"
    if isinstance(g, C["Mixture"]):
        tradeoff_reason(g.args[0], domain, premises)
        _in_unit(domain, premises, g.args[1], f"p of {g}")
        return "mixture_is_trade_off"
    if isinstance(g, C["Inverse"]):
        tradeoff_reason(g.args[0], domain, premises)
        return "inverse_is_trade_off"
    h = _symmetrised(g, domain, premises)
    if h is not None:
        return "symmetrised_envelope"
    raise Refused(f"{g} is not known to be a trade-off function")


def _symmetrised(g, domain, premises):
    """The h of ``g = min{h, h^{-1}}**`` (Def. 4.1 when g = C_p(f), h = f_p), h a trade-off
    function; None otherwise."""
    C = _classes()
    if isinstance(g, C["Subsampled"]):
        h = C["Mixture"](*g.args[:2])
        tradeoff_reason(h, domain, premises)
        return h
    if isinstance(g, C["ConvexEnvelope"]) and isinstance(g.args[0], C["PointwiseMin"]):
        a, b = g.args[0].args
        if isinstance(b, C["Inverse"]) and b.args[0] == a:
            tradeoff_reason(a, domain, premises)
            return a
    return None


def symmetric_reason(g, domain: Domain, premises=()) -> str:
    """Why ``g = g^{-1}`` (declared; a family; a symmetrised envelope), or Refused."""
    C = _classes()
    if isinstance(g, C["AbstractTradeOff"]):
        if g.args[1] is sp.true:   # declared symmetric
            return "declared symmetric"
        raise Refused(f"{g} is not declared symmetric")
    if isinstance(g, (C["EpsDelta"], C["Gaussian"], C["Laplace"], C["Identity"], C["Zero"])):
        tradeoff_reason(g, domain, premises)
        return "symmetric family"
    if _symmetrised(g, domain, premises) is not None:
        return "symmetrised_envelope"
    raise Refused(f"{g} is not known to be symmetric")


def _proper(h, domain, premises):
    """h is bounded below on [0, 1]: a trade-off function or a minimum of two."""
    C = _classes()
    if isinstance(h, C["PointwiseMin"]):
        for a in h.args:
            tradeoff_reason(a, domain, premises)
        return
    tradeoff_reason(h, domain, premises)


def definition(T, x):
    """The definition of ``T(x)`` (the right side of the lemma ``unfold``), or Refused."""
    C = _classes()
    if isinstance(T, C["Mixture"]):
        return T.args[1] * _at(T.args[0], x) + (1 - T.args[1]) * (1 - x)               # Def. 4.1
    if isinstance(T, C["Inverse"]):
        return C["InverseAt"](T.args[0], x)                                # Eq. 4
    if isinstance(T, C["PointwiseMin"]):
        return sp.Min(_at(T.args[0], x), _at(T.args[1], x))
    if isinstance(T, C["Subsampled"]):                                    # Def. 4.1
        fp = C["Mixture"](*T.args[:2])
        return _at(C["ConvexEnvelope"](C["PointwiseMin"](fp, C["Inverse"](fp))), x)
    if isinstance(T, (C["EpsDelta"], C["Gaussian"], C["Laplace"], C["Identity"], C["Zero"])):
        value = closed_forms.function_definition(T, x)   # Eq. 5, Def. 2.7, Sec. 2.3
        if value is None:
            raise Refused(f"{T} has no definition the kernel unfolds")
        return value
    raise Refused(f"{T} has no definition the kernel unfolds")


# ====================================================================== the lemmas

def _L(fn, citation):
    fn.citation = citation
    return fn


def _d(data, *keys):
    try:
        return [data[k] for k in keys]
    except KeyError as exc:
        raise Refused(f"the inference lacks {exc.args[0]!r}") from None


def _tradeoff_nonneg(data, P):
    g, a, D = _d(data, "g", "at", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, a, "the point")
    return _judgement(_at(g, a), ">=", 0, D)


def _tradeoff_le_id(data, P):
    g, a, D = _d(data, "g", "at", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, a, "the point")
    return _judgement(_at(g, a), "<=", 1 - a, D)


def _tradeoff_antitone(data, P):
    g, a, b, D = _d(data, "g", "a", "b", "domain")
    tradeoff_reason(g, D, P)
    _need(D, P, a, ">=", 0, "0 <= a")
    _need(D, P, b, "<=", 1, "b <= 1")
    _need(D, P, a, "<=", b, "a <= b")
    return _judgement(_at(g, b), "<=", _at(g, a), D)


def _tradeoff_convex(data, P):
    g, a, b, lam, D = _d(data, "g", "a", "b", "lam", "domain")
    tradeoff_reason(g, D, P)
    for name, v in (("a", a), ("b", b), ("lam", lam)):
        _in_unit(D, P, v, name)
    return _judgement(_at(g, lam * a + (1 - lam) * b), "<=",
                      lam * _at(g, a) + (1 - lam) * _at(g, b), D)


def _fixed_point(data, P):
    g, D = _d(data, "g", "domain")
    tradeoff_reason(g, D, P)
    xs = _classes()["FixedPoint"](g)
    return _judgement(_at(g, xs), "=", xs, D)


def _fixed_point_nonneg(data, P):
    g, D = _d(data, "g", "domain")
    tradeoff_reason(g, D, P)
    return _judgement(_classes()["FixedPoint"](g), ">=", 0, D)


def _fixed_point_le_one(data, P):
    g, D = _d(data, "g", "domain")
    tradeoff_reason(g, D, P)
    return _judgement(_classes()["FixedPoint"](g), "<=", 1, D)


def _fixed_point_unique(data, P):
    g, x0, D = _d(data, "g", "x0", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, x0, "the candidate fixed point")
    _need(D, P, _at(g, x0), "=", x0, "g(x0) = x0")
    return _judgement(_classes()["FixedPoint"](g), "=", x0, D)


def _inverse_le(data, P):
    g, t, a, D = _d(data, "g", "t", "a", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, t, "t")
    _in_unit(D, P, a, "a")
    _need(D, P, _at(g, t), "<=", a, "g(t) <= a")
    return _judgement(_classes()["InverseAt"](g, a), "<=", t, D)


def _le_inverse(data, P):
    g, a, bound, t, D = _d(data, "g", "a", "bound", "t", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, a, "a")
    Dt = _extend(D, t, sp.Interval(0, 1), (sp.Le(_at(g, t), a),))
    _need(Dt, P, t, ">=", bound, "every t with g(t) <= a is at least the bound")
    return _judgement(_classes()["InverseAt"](g, a), ">=", bound, D)


def _apply_inverse(data, P):
    g, a, D = _d(data, "g", "a", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, a, "a")
    _need(D, P, a, "<=", _at(g, sp.S.Zero), "a <= g(0)")
    return _judgement(_at(g, _classes()["InverseAt"](g, a)), "=", a, D)


def _inverse_congr(data, P):
    g, h, a, t, D = _d(data, "g", "h", "a", "t", "domain")
    tradeoff_reason(g, D, P)
    tradeoff_reason(h, D, P)
    _in_unit(D, P, a, "a")
    _need(_extend(D, t, sp.Interval(0, 1)), P, _at(g, t), "=", _at(h, t), "g = h on [0, 1]")
    C = _classes()
    return _judgement(C["InverseAt"](g, a), "=", C["InverseAt"](h, a), D)


def _symmetric_inverse(data, P):
    g, a, D = _d(data, "g", "a", "domain")
    symmetric_reason(g, D, P)
    _in_unit(D, P, a, "a")
    return _judgement(_classes()["InverseAt"](g, a), "=", _at(g, a), D)


def _unfold(data, P):
    term, D = _d(data, "term", "domain")
    C = _classes()
    if isinstance(term, C["EnvelopeAt"]):
        _in_unit(D, P, term.args[1], "the point")
        return _judgement(term, "=", _at(term.args[0], term.args[1]), D)
    if not isinstance(term, C["TradeOffAt"]):
        raise Refused(f"unfold needs a value g(x); got {term}")
    T, x = term.args
    _in_unit(D, P, x, "the point")
    if not isinstance(T, (C["Mixture"], C["Inverse"], C["PointwiseMin"], C["Subsampled"])):
        tradeoff_reason(T, D, P)
    return _judgement(term, "=", definition(T, x), D)


def _envelope(h):
    return _classes()["ConvexEnvelope"](h)


def _envelope_le(data, P):
    h, x, D = _d(data, "h", "at", "domain")
    _proper(h, D, P)
    _in_unit(D, P, x, "the point")
    return _judgement(_at(_envelope(h), x), "<=", _at(h, x), D)


def _affine_le_envelope(data, P):
    h, c0, c1, x, t, D = _d(data, "h", "c0", "c1", "at", "t", "domain")
    _proper(h, D, P)
    _in_unit(D, P, x, "the point")
    _need(_extend(D, t, sp.Interval(0, 1)), P, c0 + c1 * t, "<=", _at(h, t),
          "the affine function lies below h on [0, 1]")
    return _judgement(c0 + c1 * x, "<=", _at(_envelope(h), x), D)


def _envelope_convex(data, P):
    h, a, b, lam, D = _d(data, "h", "a", "b", "lam", "domain")
    _proper(h, D, P)
    for name, v in (("a", a), ("b", b), ("lam", lam)):
        _in_unit(D, P, v, name)
    E = _envelope(h)
    return _judgement(_at(E, lam * a + (1 - lam) * b), "<=",
                      lam * _at(E, a) + (1 - lam) * _at(E, b), D)


def _envelope_mono(data, P):
    h1, h2, x, t, D = _d(data, "h1", "h2", "at", "t", "domain")
    _proper(h1, D, P)
    _proper(h2, D, P)
    _in_unit(D, P, x, "the point")
    _need(_extend(D, t, sp.Interval(0, 1)), P, _at(h1, t), "<=", _at(h2, t), "h1 <= h2 on [0, 1]")
    return _judgement(_at(_envelope(h1), x), "<=", _at(_envelope(h2), x), D)


def _envelope_of_tradeoff(data, P):
    g, x, D = _d(data, "g", "at", "domain")
    tradeoff_reason(g, D, P)
    _in_unit(D, P, x, "the point")
    return _judgement(_at(_envelope(g), x), "=", _at(g, x), D)


def _le_conjugate(data, P):
    g, y, x, D = _d(data, "g", "y", "at", "domain")
    _proper(g, D, P)
    _in_unit(D, P, x, "the point")
    return _judgement(_classes()["ConjugateAt"](g, y), ">=", y * x - _at(g, x), D)


def _conjugate_le(data, P):
    g, y, bound, t, D = _d(data, "g", "y", "bound", "t", "domain")
    _proper(g, D, P)
    _need(_extend(D, t, sp.Interval(0, 1)), P, y * t - _at(g, t), "<=", bound,
          "y t - g(t) <= bound for every t in [0, 1]")
    return _judgement(_classes()["ConjugateAt"](g, y), "<=", bound, D)


def _conjugate_of_envelope(data, P):
    h, y, D = _d(data, "h", "y", "domain")
    _proper(h, D, P)
    C = _classes()
    return _judgement(C["ConjugateAt"](_envelope(h), y), "=", C["ConjugateAt"](h, y), D)


def _dp_hypothesis(data, P):
    M, x, D = _d(data, "mechanism", "at", "domain")
    C = _classes()
    if not isinstance(M, C["Mechanism"]) or _declared(M, 1) is None:
        raise Refused(f"{M} is not declared f-DP")
    _in_unit(D, P, x, "the point")
    return _judgement(_at(C["MechanismTradeOff"](M), x), ">=", _at(_declared(M, 1), x), D)


def _profile(g, eps):
    C = _classes()
    return 1 + C["ConjugateAt"](g, -sp.exp(eps))


def _dp_profile_hypothesis(data, P):
    M, eps, x, D = _d(data, "mechanism", "eps", "at", "domain")
    C = _classes()
    if not isinstance(M, C["Mechanism"]) or _declared(M, 2) is None:
        raise Refused(f"{M} is not declared (eps, delta_g(eps))-DP")
    _in_unit(D, P, x, "the point")
    _need(D, P, eps, ">=", 0, "eps >= 0")
    g = _declared(M, 2)
    return _judgement(_at(C["MechanismTradeOff"](M), x), ">=",
                      _at(C["EpsDelta"](eps, _profile(g, eps)), x), D)


def _lemma_4_4(data, P):
    M, p, e, d, x, D = _d(data, "mechanism", "p", "eps", "delta", "at", "domain")
    C = _classes()
    _all_of_unit(D, x, p, e, d)
    _in_unit(D, P, p, "p")
    _need(D, P, e, ">=", 0, "eps >= 0")
    _need(D, P, d, ">=", 0, "delta >= 0")
    T = C["MechanismTradeOff"]
    _need(D, P, _at(T(M), x), ">=", _at(C["EpsDelta"](e, d), x),
          "M is (eps, delta)-DP: T(M(S), M(S')) >= f_{eps,delta}")
    e1, d1 = sp.log(1 - p + p * sp.exp(e)), p * d
    return _judgement(_at(T(C["SampledMechanism"](M, p)), x), ">=",
                      _at(C["EpsDelta"](e1, d1), x), D)


def _prop_2_12_dual(data, P):
    T, k, eps, x, D = _d(data, "T", "k", "eps", "at", "domain")
    C = _classes()
    symmetric_reason(k, D, P)
    tradeoff_reason(k, D, P)
    _in_unit(D, P, x, "the point")
    De = _extend(D, eps, sp.Interval(0, sp.oo))
    _need(De, P, _at(T, x), ">=", _at(C["EpsDelta"](eps, _profile(k, eps)), x),
          "(eps, delta_k(eps))-DP for every eps >= 0")
    return _judgement(_at(T, x), ">=", _at(k, x), D)


def _declared_order(data, P):
    f, g, x, D = _d(data, "f", "g", "at", "domain")
    C = _classes()
    if not isinstance(f, C["AbstractTradeOff"]) or g not in tuple(f.args[2]):
        raise Refused(f"{f} is not declared to lie below {g}")
    _in_unit(D, P, x, "the point")
    return _judgement(_at(f, x), "<=", _at(g, x), D)


def _declared_profile_condition(data, P):
    g, eps, D = _d(data, "g", "eps", "domain")
    C = _classes()
    if not isinstance(g, C["AbstractTradeOff"]) or g.args[3] is not sp.true:
        raise Refused(f"{g} is not declared with delta_g >= delta_(g^-1)")
    _need(D, P, eps, ">=", 0, "eps >= 0")
    return _judgement(C["ConjugateAt"](g, -sp.exp(eps)), ">=",
                      C["ConjugateAt"](C["Inverse"](g), -sp.exp(eps)), D)


#: The named lemmas: name -> (function, citation).  Each function returns the lemma's
#: conclusion on the inference's domain or raises Refused; its hypotheses are shown there.
LEMMAS = {
    "tradeoff_nonneg": _L(_tradeoff_nonneg, "Dong, Roth, Su 2022, Prop. 2.2 (f >= 0)"),
    "tradeoff_le_id": _L(_tradeoff_le_id, "Dong, Roth, Su 2022, Prop. 2.2 (f(x) <= 1 - x)"),
    "tradeoff_antitone": _L(_tradeoff_antitone, "Dong, Roth, Su 2022, Prop. 2.2 (non-increasing)"),
    "tradeoff_convex": _L(_tradeoff_convex, "Dong, Roth, Su 2022, Prop. 2.2 (convex)"),
    "fixed_point": _L(_fixed_point, "g(x) - x is continuous, g(0) - 0 >= 0 > -1 = g(1) - 1: "
                      "a fixed point exists (intermediate values); Dong, Roth, Su 2022, Eq. 14"),
    "fixed_point_nonneg": _L(_fixed_point_nonneg, "the fixed point lies in [0, 1]"),
    "fixed_point_le_one": _L(_fixed_point_le_one, "the fixed point lies in [0, 1]"),
    "fixed_point_unique": _L(_fixed_point_unique, "g(x) - x is strictly decreasing (g is "
                             "non-increasing), so the fixed point is unique"),
    "inverse_le": _L(_inverse_le, "Eq. 4: g^{-1}(a) = inf{t in [0,1] : g(t) <= a} <= t for "
                     "every such t (Mathlib csInf_le)"),
    "le_inverse": _L(_le_inverse, "Eq. 4: a lower bound of {t : g(t) <= a} (non-empty: "
                     "g(1) = 0 <= a) bounds its infimum (Mathlib le_csInf)"),
    "apply_inverse": _L(_apply_inverse, "Eq. 4 and continuity: g(g^{-1}(a)) = a for a in "
                        "[0, g(0)] (the sublevel set is closed; intermediate values)"),
    "inverse_congr": _L(_inverse_congr, "Eq. 4: equal functions have equal inverses"),
    "symmetric_inverse": _L(_symmetric_inverse, "symmetric: g^{-1} = g (Dong, Roth, Su 2022, "
                            "after Eq. 4)"),
    "unfold": _L(_unfold, "the definitions: Def. 4.1 (f_p, C_p), Eq. 4 (inverse), the "
                 "minimum, and the families' formulas (Eq. 5, Def. 2.7, Sec. 2.3)"),
    "envelope_le": _L(_envelope_le, "h** <= h (Rockafellar 1970, Thm. 12.2: h** = cl conv h)"),
    "affine_le_envelope": _L(_affine_le_envelope, "an affine minorant of h lies below h** "
                             "(Rockafellar 1970, Cor. 12.1.1)"),
    "envelope_convex": _L(_envelope_convex, "h** is convex (Rockafellar 1970, Thm. 12.2)"),
    "envelope_mono": _L(_envelope_mono, "h1 <= h2 gives h1** <= h2** (conjugation reverses "
                        "the order twice)"),
    "envelope_of_tradeoff": _L(_envelope_of_tradeoff, "g** = g for a closed convex g "
                               "(Fenchel-Moreau; Rockafellar 1970, Thm. 12.2)"),
    "le_conjugate": _L(_le_conjugate, "g*(y) = sup_x (y x - g(x)) >= y x - g(x)"),
    "conjugate_le": _L(_conjugate_le, "a bound of y x - g(x) for every x bounds the supremum"),
    "conjugate_of_envelope": _L(_conjugate_of_envelope, "h*** = h* (Rockafellar 1970, "
                                "Thm. 12.2: (cl conv h)* = h*)"),
    "dp_hypothesis": _L(_dp_hypothesis, "the declaration: M is f-DP (Def. 2.3)"),
    "dp_profile_hypothesis": _L(_dp_profile_hypothesis, "the declaration: M is "
                                "(eps, delta_g(eps))-DP for every eps >= 0"),
    "lemma_4_4": _L(_lemma_4_4, "Dong, Roth, Su 2022, Lemma 4.4 (classical; Ullman 2017): "
                    "(eps, delta)-DP M gives (log(1 - p + p e^eps), p delta)-DP M o Sample"),
    "prop_2_12_dual": _L(_prop_2_12_dual, "Dong, Roth, Su 2022, Prop. 2.12: for a symmetric "
                         "trade-off function k, (eps, delta_k(eps))-DP for every eps >= 0 "
                         "is k-DP (k = sup_eps f_{eps, delta_k(eps)})"),
    "declared_order": _L(_declared_order, "the declaration: f <= g"),
    "declared_profile_condition": _L(_declared_profile_condition, "the declaration: "
                                     "delta_g >= delta_(g^-1) (Prop. 4.5's condition)"),
}

#: structural facts the rules use, with their citations (no inference of their own)
STRUCTURAL = {
    "mixture_is_trade_off": "f_p = p f + (1 - p) Id is convex, continuous, non-increasing and "
                            "at most Id: a trade-off function by Prop. 2.2",
    "inverse_is_trade_off": "T(P, Q)^{-1} = T(Q, P) (Dong, Roth, Su 2022, after Eq. 4)",
    "symmetrised_envelope": "min{g, g^{-1}}** is a symmetric trade-off function for a "
                            "trade-off function g (Dong, Roth, Su 2022, Def. 4.1 and App. F; "
                            "its parts are proved for g = f_p in "
                            "proofs/drs_def_4_1_properties.py)",
    "symmetric family": "f_{eps,delta}, G_mu, the Laplace trade-off function, Id and 0 are "
                        "symmetric trade-off functions (Dong, Roth, Su 2022, Sec. 2; checked "
                        "in proofs/fdp_symmetry_and_fixed_points.py)",
}


# ====================================================================== the rules

_DERIVED: dict = {}


def derive(inference: Inference, premises: tuple) -> Judgement:
    """The judgement ``inference`` derives from the judgements ``premises`` (in order), or
    Refused.  Pure: the same inference and premises give the same judgement (cached)."""
    key = (inference.rule, inference.data, premises)
    try:
        return _DERIVED[key]
    except (KeyError, TypeError):
        pass
    out = _derive(inference, premises)
    if len(_DERIVED) > 20_000:
        _DERIVED.clear()
    try:
        _DERIVED[key] = out
    except TypeError:
        pass
    return out


def _derive(inference: Inference, P: tuple) -> Judgement:  # noqa: C901 - one dispatch
    data = dict(inference.data)
    rule = inference.rule
    if rule == "lemma":
        name = data.get("name")
        if name not in LEMMAS:
            raise Refused(f"no lemma named {name!r}")
        try:
            return LEMMAS[name](data, P)
        except Refused as exc:
            raise Refused(f"{name}: {exc}") from None
    if rule == "arith":
        goal = data.get("goal")
        if not isinstance(goal, Judgement):
            raise Refused("arith needs the judgement it concludes")
        goal = _judgement(goal.lhs, goal.relation, goal.rhs, goal.domain)
        method = data.get("method", "z3")
        if method == "z3":
            for p in P:
                usable(p, goal.domain)
            if not entails(goal.domain, P, (goal.lhs, goal.relation, goal.rhs)):
                raise Refused(f"z3 does not derive {goal.text()} from the premises")
            return goal
        if method == "doit + z3":
            lhs, rhs = (_doit_derivatives(s) for s in (goal.lhs, goal.rhs))
            for p in P:
                usable(p, goal.domain)
            if not entails(goal.domain, P, (lhs, goal.relation, rhs)):
                raise Refused(f"z3 does not derive {goal.text()} (derivatives taken)")
            return goal
        if P or goal.relation != "=":
            raise Refused("a rewriting proves an equality without premises")
        from . import defined_on

        undefined = defined_on((goal.lhs, goal.rhs), goal.domain)
        if undefined:
            raise Refused(f"a side may be undefined: {undefined}")
        if not deciders.simplifies_to(goal.lhs, goal.rhs, method):
            raise Refused(f"{method} does not show {goal.text()}")
        return goal
    if rule == "instantiate":
        return _instantiate(data, P)
    if rule == "rewrite":
        return _rewrite(data, P)
    if rule == "cases":
        return _cases(data, P)
    if rule == "minorant":
        c, D = data.get("certificate"), data.get("domain")
        if not isinstance(c, MinorantCertificate) or not isinstance(D, Domain):
            raise Refused("minorant needs a MinorantCertificate and its domain")
        check_minorant(c, D)
        return _judgement(c.lhs, "=", c.rhs, D)
    raise Refused(f"unknown rule {rule!r}")


def _doit_derivatives(e):
    """Derivatives taken (SymPy's diff, trusted)."""
    return e.replace(lambda x: isinstance(x, sp.Derivative), lambda x: x.doit())


def _instantiate(data, P):
    if not P:
        raise Refused("instantiate needs the premise")
    premise, helpers = P[0], P[1:]
    mapping, D = dict(data.get("mapping", ())), data.get("domain")
    if not isinstance(D, Domain) or not mapping:
        raise Refused("instantiate needs a mapping and the new domain")
    psets = premise.domain.sets
    for s, e in mapping.items():
        if s not in psets:
            raise Refused(f"{s} is not a variable of the premise")
        if s in D.sets:
            raise Refused(f"{s} is instantiated but still bound in the new domain")
        d = psets[s]
        if not isinstance(d, sp.Interval):
            raise Refused(f"instantiating {s} needs its set to be an interval")
        if d.start.is_finite:
            _need(D, helpers, e, ">" if d.left_open else ">=", d.start, f"{s} := {e} in its set")
        if d.end.is_finite:
            _need(D, helpers, e, "<" if d.right_open else "<=", d.end, f"{s} := {e} in its set")
    rest = Domain(tuple((s, d) for s, d in premise.domain.hypotheses if s not in mapping), (), ())
    symbols = (set(premise.lhs.free_symbols) | set(premise.rhs.free_symbols)) - set(mapping)
    for c in premise.domain.conditions:
        symbols |= c.free_symbols - set(mapping)
    for s in symbols:
        if s not in D.sets or s not in rest.sets or D.sets[s].is_subset(rest.sets[s]) is not True:
            raise Refused(f"the new domain does not keep {s} inside the premise's set")
    for c in premise.domain.conditions:
        if not _holds(D, helpers, c.xreplace(mapping)):
            raise Refused(f"the premise's condition {c} is not shown at the instance")
    return _judgement(premise.lhs.xreplace(mapping), premise.relation,
                      premise.rhs.xreplace(mapping), D)


def _rewrite(data, P):
    if len(P) != 2:
        raise Refused("rewrite needs a judgement and an equality")
    J, E = P
    if E.relation != "=":
        raise Refused("rewrite needs an equality")
    if not _holds(J.domain, (), sp.And(*usable(E, J.domain))):
        raise Refused("the equality's conditions do not hold on the judgement's domain")
    a, b = (E.rhs, E.lhs) if data.get("backward") else (E.lhs, E.rhs)
    try:
        lhs, rhs = J.lhs.xreplace({a: b}), J.rhs.xreplace({a: b})
    except Exception as exc:  # noqa: BLE001 - an object that refuses the new arguments
        raise Refused(f"the rewritten terms cannot be built: {type(exc).__name__}") from None
    if lhs == J.lhs and rhs == J.rhs:
        raise Refused(f"{sp.sstr(a)} does not occur in the judgement")
    return _judgement(lhs, J.relation, rhs, J.domain)


def _cases(data, P):
    D = data.get("domain")
    if not isinstance(D, Domain) or not P:
        raise Refused("cases needs the domain and the premises")
    first = P[0]
    alternatives = []
    for p in P:
        if (p.lhs, p.relation, p.rhs) != (first.lhs, first.relation, first.rhs):
            raise Refused("the cases do not prove the same relation")
        alternatives.append(sp.And(*usable(p, D)))
    if not _holds(D, (), sp.Or(*alternatives)):
        raise Refused("the cases do not cover the domain")
    return _judgement(first.lhs, first.relation, first.rhs, D)


def replay(proof) -> list:
    """The judgements of ``proof`` (Inferences), in order; Refused at the first one the
    kernel does not accept, naming it."""
    out = []
    for i, inference in enumerate(proof):
        if not isinstance(inference, Inference):
            raise Refused(f"inference {i + 1} is not an Inference")
        if any(not isinstance(k, int) or k < 0 or k >= i for k in inference.premises):
            raise Refused(f"inference {i + 1} refers to a premise that does not precede it")
        premises = tuple(out[k] for k in inference.premises)
        try:
            out.append(derive(inference, premises))
        except Refused as exc:
            raise Refused(f"inference {i + 1} ({inference.rule}"
                          f"{' ' + str(inference.get('name')) if inference.rule == 'lemma' else ''}"
                          f"{': ' + inference.note if inference.note else ''}): {exc}") from None
    return out


# ====================================================================== minorants

def minorant_obligations(lhs, rhs, x, kinds, domain: Domain) -> list:
    """``[(key, Judgement)]``: what the kernel asks of a MinorantCertificate (module
    docstring), or Refused when the claim is not of the certificate's shape."""
    C = _classes()
    sets = domain.sets
    if x not in sets or sets[x] != sp.Interval(0, 1) or \
            any(x in c.free_symbols for c in domain.conditions):
        raise Refused(f"the variable {x} must range over [0, 1], free of conditions")
    if isinstance(rhs, C["EnvelopeAt"]):
        rhs = _at(rhs.args[0], rhs.args[1])
    if not (isinstance(rhs, C["TradeOffAt"]) and isinstance(rhs.args[0], C["ConvexEnvelope"])
            and rhs.point == x):
        raise Refused("the right side must be g**(x), a convex envelope at the variable")
    g = rhs.args[0].args[0]
    funcs = tuple(g.args) if isinstance(g, C["PointwiseMin"]) else (g,)
    for f in funcs:
        tradeoff_reason(f, Domain(tuple((s, d) for s, d in domain.hypotheses if s != x),
                                  domain.constraints, domain.side_conditions))
    pieces = _pieces(lhs, x)
    if len(kinds) != len(pieces):
        raise Refused(f"{len(kinds)} kinds for {len(pieces)} pieces")
    params = Domain(tuple((s, d) for s, d in domain.hypotheses if s != x),
                    domain.constraints, domain.side_conditions)

    def on(lo, hi):
        return Domain(domain.hypotheses, domain.constraints,
                      tuple(domain.side_conditions) + (sp.Le(lo, x), sp.Le(x, hi)))

    out = []
    ends = [sp.S.Zero] + [hi for _, hi, _ in pieces]
    for i, (lo, hi, e) in enumerate(pieces):
        out.append((("order", i), _judgement(hi - lo, ">=", 0, params)))
        if i + 1 < len(pieces):
            nxt = pieces[i + 1][2]
            out.append((("cont", i), _judgement(e.xreplace({x: hi}), "=", nxt.xreplace({x: hi}),
                                                params)))
    for i, ((lo, hi, e), kind) in enumerate(zip(pieces, kinds)):
        if kind[0] == "graph":
            j = kind[1] if len(kind) > 1 else 0
            if not (isinstance(j, int) and 0 <= j < len(funcs)):
                raise Refused(f"piece {i + 1}: no function {j} in the minimum")
            out.append((("eq", i), _judgement(e, "=", _at(funcs[j], x), on(lo, hi))))
            for k, other in enumerate(funcs):
                if k != j:
                    out.append((("min", i, k), _judgement(_at(funcs[j], x), "<=", _at(other, x),
                                                           on(lo, hi))))
        elif kind[0] == "chord":
            if not _affine(e, x):
                raise Refused(f"piece {i + 1} is not affine in {x}")
            for k, f in enumerate(funcs):
                out.append((("below", i, k), _judgement(e, "<=", _at(f, x), on(lo, hi))))
            for side, n in (("left", i - 1), ("right", i + 1)):
                if 0 <= n < len(pieces):
                    if kinds[n][0] != "graph":
                        raise Refused(f"pieces {i + 1} and {n + 1}: two chords meet")
                    nlo, nhi, _ = pieces[n]
                    w = funcs[kinds[n][1] if len(kinds[n]) > 1 else 0]
                    out.append((("support", i, side), _judgement(e, "<=", _at(w, x), on(nlo, nhi))))
                else:
                    end = ends[0] if side == "left" else sp.S.One
                    value = sp.Min(*[_at(f, end) for f in funcs]) if len(funcs) > 1 \
                        else _at(funcs[0], end)
                    out.append((("end", i, side), _judgement(e.xreplace({x: end}), ">=", value,
                                                             params)))
        else:
            raise Refused(f"piece {i + 1}: unknown kind {kind!r}")
    for i in range(len(pieces) - 1):
        a, b = kinds[i], kinds[i + 1]
        if a[0] == b[0] == "graph" and (a[1:] or (0,)) != (b[1:] or (0,)):
            raise Refused(f"pieces {i + 1} and {i + 2} are graphs of two functions with no "
                          "chord between them")
    return out


def _pieces(h, x) -> list:
    """``[(lo, hi, expr)]`` of a Piecewise with conditions ``x <= c`` (the last True)."""
    if not isinstance(h, sp.Piecewise):
        return [(sp.S.Zero, sp.S.One, h)]
    out, lo = [], sp.S.Zero
    for e, cond in h.args:
        if cond is sp.true:
            out.append((lo, sp.S.One, e))
            return out
        if isinstance(cond, sp.LessThan) and cond.lhs == x and x not in cond.rhs.free_symbols:
            hi = cond.rhs
        elif isinstance(cond, sp.GreaterThan) and cond.rhs == x and x not in cond.lhs.free_symbols:
            hi = cond.lhs
        else:
            raise Refused(f"a condition of the Piecewise is not '{x} <= c': {cond}")
        out.append((lo, hi, e))
        lo = hi
    raise Refused("the last branch of the Piecewise must have the condition True")


def _affine(e, x) -> bool:
    try:
        poly = sp.Poly(sp.expand(e), x)
    except sp.PolynomialError:
        return False
    return poly.degree() <= 1 and not any(c.has(x) for c in poly.coeffs())


def check_minorant(c: MinorantCertificate, domain: Domain) -> int:
    """Refused unless every obligation of ``c`` on ``domain`` is proved; the number of
    obligations otherwise."""
    if c.relation != "=":
        raise Refused("a minorant certificate proves an equality")
    obligations = minorant_obligations(c.lhs, c.rhs, c.variable, c.kinds, domain)
    judgements = replay(c.proof)
    discharge = dict(c.discharge)
    for key, need in obligations:
        index = discharge.get(key, ())
        indices = (index,) if isinstance(index, int) else tuple(index)
        if any(not isinstance(i, int) or not 0 <= i < len(judgements) for i in indices):
            raise Refused(f"obligation {key}: no inference {index}")
        premises = tuple(judgements[i] for i in indices)
        first = premises[0] if premises else None
        if first is not None and (first.lhs, first.relation, first.rhs) == \
                (need.lhs, need.relation, need.rhs):
            try:
                conditions = usable(first, need.domain)
            except Refused:
                conditions = None
            if conditions == () or (conditions and entails(need.domain, (), sp.And(*conditions))):
                continue
        try:
            for q in premises:
                usable(q, need.domain)
        except Refused as exc:
            raise Refused(f"obligation {key}: {exc}") from None
        if not entails(need.domain, premises, (need.lhs, need.relation, need.rhs)):
            raise Refused(f"obligation {key} ({need.text()}) is not proved")
    return len(obligations)


# ====================================================================== judge

def judge(c, domain: Domain):
    """``(why, detail)`` for a LemmaCertificate or MinorantCertificate on ``domain``."""
    try:
        if isinstance(c, MinorantCertificate):
            n = check_minorant(c, domain)
            lemmas = _lemma_names(c.proof)
            return "", (f"greatest convex minorant: {n} obligations (order, continuity, each "
                        f"piece on the graph of g or an affine chord below it with its ends on "
                        f"the graph, slopes at the junctions) proved by {len(c.proof)} "
                        f"inferences; lemmas: {', '.join(lemmas) or 'none'}")
        if isinstance(c, LemmaCertificate):
            judgements = replay(c.proof)
            if not judgements:
                raise Refused("an empty proof")
            last = judgements[-1]
            if not _same_sides(last, c):
                raise Refused("the last judgement is not the step's claim")
            if not _implies(last.relation, c.relation):
                raise Refused(f"the proof concludes {last.relation}, the step claims {c.relation}")
            if not _holds(domain, (), sp.And(*usable(last, domain))):
                raise Refused("the proof's conclusion holds on a smaller domain than the step's")
            _arguments_in_unit((c.lhs, c.rhs), domain, judgements)
            lemmas = _lemma_names(c.proof)
            if not lemmas:
                return "", (f"real arithmetic: z3 with the exp/log facts (kernel.convex), "
                            f"{len(c.proof)} inference{'s' if len(c.proof) > 1 else ''}")
            return "", (f"{len(c.proof)} inferences replayed by the kernel from the lemmas "
                        f"{', '.join(lemmas)} (kernel.convex; axioms cited there)")
    except Refused as exc:
        return str(exc), ""
    return f"no rule for {type(c).__name__}", ""


def _same_sides(judgement: Judgement, claim) -> bool:
    """The judgement speaks of the claim's sides, as the claim writes them."""
    return (judgement.lhs, judgement.rhs) == (claim.lhs, claim.rhs)


def _implies(have: str, want: str) -> bool:
    return have == want or (have == "=" and want in ("<=", ">=")) or \
        (have, want) in (("<", "<="), (">", ">="))


def _lemma_names(proof) -> list:
    names = []
    for inference in proof:
        if inference.rule == "lemma":
            names.append(inference.get("name"))
        elif inference.rule == "minorant":
            names.append("greatest_convex_minorant")
            c = inference.get("certificate")
            names.extend(_lemma_names(getattr(c, "proof", ())))
    return sorted(set(n for n in names if n))


def _arguments_in_unit(sides, domain: Domain, judgements):
    """Every point at which the claim evaluates a trade-off function (or its inverse) lies in
    [0, 1] on the step's domain (shown from the domain, or from the proof's judgements)."""
    C = _classes()
    helpers = []
    for j in judgements:
        try:
            usable(j, domain)
            helpers.append(j)
        except Refused:
            continue
    for side in sides:
        for node in sp.preorder_traversal(side):
            if isinstance(node, (C["TradeOffAt"], C["InverseAt"], C["EnvelopeAt"])):
                point = node.args[1]
                try:
                    _in_unit(domain, (), point, "an argument of the claim")
                except Refused:
                    relevant = [j for j in helpers if point in (j.lhs, j.rhs) or
                                j.lhs.has(point) or j.rhs.has(point)]
                    _in_unit(domain, relevant, point, "an argument of the claim")


def definedness_facts(node) -> list:
    """The kernel's definedness rule for the nodes of this module (for
    :mod:`~symdp.proof.kernel.definedness`): ``g(x)``, ``g^{-1}(a)`` and ``g**(x)`` are
    defined for their point in [0, 1]; ``g^*(y)`` and a fixed point everywhere."""
    C = _classes()
    if isinstance(node, (C["TradeOffAt"], C["InverseAt"], C["EnvelopeAt"])):
        point = node.args[1]
        return [Fact(point, "nonnegative", "definedness: point of a trade-off function"),
                Fact(1 - point, "nonnegative", "definedness: point of a trade-off function")]
    return []


__all__ = ["judge", "replay", "derive", "entails", "usable", "minorant_obligations",
           "check_minorant", "tradeoff_reason", "symmetric_reason", "definition", "LEMMAS",
           "STRUCTURAL", "Refused", "definedness_facts", "hazards"]
