r"""The algebra left after a counting argument: identities and inequalities of binomials,
powers with symbolic exponents and ``(x)_+``, decided for every parameter value.

:func:`prove_residual` decides ``lhs REL rhs`` under *facts* (the hypotheses, constraints
and side conditions of a step, as SymPy Relationals) and returns a
:class:`ResidualProof` -- or ``None`` when it cannot decide.  It never trusts a SymPy
sign: every conclusion is one of

* an **exact identity**: the difference is the zero rational function once every power
  with a symbolic exponent and every binomial has been replaced by an atom (polynomial
  arithmetic over Q is exact, so an identity of rational functions in independent atoms
  holds for every value of the atoms);
* **z3 unsatisfiability**: the facts together with the *negation* of the goal have no
  real solution (z3's nlsat procedure, complete for polynomial real arithmetic; integer
  parameters are relaxed to reals, which can only make the negation easier to satisfy).

The atoms come with facts that are themselves proved (and listed in the record):

* ``binomial(m + c, K + d)`` is rewritten to one base binomial per family by Pascal's
  absorption rules ``C(m, K) = C(m - 1, K) m/(m - K)`` and
  ``C(m, K + 1) = C(m, K) (m - K)/(K + 1)`` (Mathlib ``Nat.succ_mul_choose_eq``,
  ``Nat.choose_succ_right_eq``), each applied only when its denominator is proved nonzero;
  the base is positive when ``0 <= K <= m`` (``Nat.choose_pos``);
* ``f^e`` (``e`` symbolic, ``f`` a factor of the base proved positive) is an atom
  ``A_f > 0``; ``(a/b)^e = a^e/b^e`` (``div_pow``), ``(ab)^e = a^e b^e`` (``mul_pow``),
  ``f^(e + c) = f^c f^e`` (``pow_add``); atoms with the same exponent are ordered as their
  bases, and compared with 1 (``pow_le_pow_left``, ``one_le_pow_of_one_le``,
  ``pow_le_one``), the bases' comparisons being proved by z3 first;
* ``exp u`` and ``log x`` are atoms with ``exp u > 0``, ``exp u >= 1 + u``
  (``Real.exp_pos``, ``Real.add_one_le_exp``) and ``1 - 1/x <= log x <= x - 1``
  (``Real.one_sub_inv_le_log_of_pos``, ``Real.log_le_sub_one_of_pos``); a power ``x^e`` with
  ``e`` a positive integer and ``x = 1 - t/e`` is ``<= exp(-t)``
  (``Real.one_sub_div_pow_le_exp_neg``);
* with the atoms grouped by exponent (the last mode tried), Bernoulli's inequality
  ``x^e >= 1 + e (x - 1)`` (``one_add_mul_le_pow``), the same for the quotient of two atoms
  of one exponent (with ``div_pow``), and their product against 1 (``mul_pow``).

Where a base of a symbolic power vanishes at the least value ``a`` of an integer parameter
(``(n-1)/n`` at ``n = 1``), ``v = a`` and ``v >= a + 1`` are proved apart.

``Max``/``Min`` are eliminated by deciding the sign of their arguments (recursively) or, when
that fails, by splitting into the cases where each argument is the largest (the goal must
hold in every case, under that case's facts).
"""

from __future__ import annotations

import itertools

import sympy as sp

from .budgets import Z3_RLIMIT
from .certificates import ResidualNode
from .kernel.rules import bound_goals, extremum_cases  # the kernel's own rules

#: the third way of making power atoms: one atom per exponent and term, the bases' quotient
#: kept whole (``(n/(n+1))^n``, not ``n^n/(n+1)^n``)
BY_EXPONENT = "by exponent"
MAX_CASES = 64


# --------------------------------------------------------------------------- facts


def domain_facts(hypotheses: dict) -> list:
    """Relationals implied by each parameter's domain (a Range or an Interval)."""
    facts = []
    for symbol, domain in hypotheses.items():
        lo, hi = domain.inf, domain.sup
        if lo.is_finite:
            left_open = isinstance(domain, sp.Interval) and domain.left_open
            facts.append(sp.Gt(symbol, lo, evaluate=False) if left_open else
                         sp.Ge(symbol, lo, evaluate=False))
        if hi.is_finite:
            right_open = isinstance(domain, sp.Interval) and domain.right_open
            facts.append(sp.Lt(symbol, hi, evaluate=False) if right_open else
                         sp.Le(symbol, hi, evaluate=False))
    return facts


def _integer_symbols(hypotheses: dict) -> set:
    return {s for s, d in hypotheses.items() if isinstance(d, sp.Range) or d.is_subset(sp.Integers)}


# --------------------------------------------------------------------------- z3


class _Untranslatable(Exception):
    pass


def _to_z3(expr, env):
    import z3

    if expr.is_Symbol:
        if expr not in env:
            raise _Untranslatable(str(expr))
        return env[expr]
    if expr.is_Integer:
        return z3.RealVal(int(expr))
    if expr.is_Rational:
        return z3.RealVal(f"{expr.p}/{expr.q}")
    if expr.is_Add:
        terms = [_to_z3(a, env) for a in expr.args]
        return sum(terms[1:], terms[0])
    if expr.is_Mul:
        factors = [_to_z3(a, env) for a in expr.args]
        out = factors[0]
        for f in factors[1:]:
            out = out * f
        return out
    if expr.is_Pow and expr.exp.is_Integer:
        e = int(expr.exp)
        base = _to_z3(expr.base, env)
        if e == 0:
            return z3.RealVal(1)
        power = base
        for _ in range(abs(e) - 1):
            power = power * base
        return power if e > 0 else 1 / power
    raise _Untranslatable(f"{type(expr).__name__}: {expr}")


def _z3_relation(lhs, rel, rhs):
    return {"=": lambda: lhs == rhs, "<=": lambda: lhs <= rhs, "<": lambda: lhs < rhs,
            ">=": lambda: lhs >= rhs, ">": lambda: lhs > rhs, "!=": lambda: lhs != rhs}[rel]()


_REL = {sp.Eq: "=", sp.Le: "<=", sp.Lt: "<", sp.Ge: ">=", sp.Gt: ">", sp.Ne: "!="}


def _fact_rel(fact):
    for cls, rel in _REL.items():
        if isinstance(fact, cls):
            return fact.lhs, rel, fact.rhs
    return None


_Z3_CACHE: dict = {}


def z3_entails(facts, lhs, rel, rhs, integers=frozenset()) -> bool:
    """Cached :func:`_z3_entails` (the same sub-goals recur across the steps of a file)."""
    key = (tuple(facts), sp.sympify(lhs), rel, sp.sympify(rhs), frozenset(integers))
    try:
        return _Z3_CACHE[key]
    except KeyError:
        pass
    except TypeError:
        return _z3_entails(facts, lhs, rel, rhs, integers)
    if len(_Z3_CACHE) > 20_000:
        _Z3_CACHE.clear()
    value = _Z3_CACHE[key] = _z3_entails(facts, lhs, rel, rhs, integers)
    return value


def _z3_entails(facts, lhs, rel, rhs, integers=frozenset()) -> bool:
    """True when z3 proves that ``facts`` imply ``lhs REL rhs`` over the reals.

    Unknown, sat and untranslatable all give False.  Integer parameters are real in z3
    (a relaxation: unsatisfiable over the reals implies unsatisfiable over the integers);
    when that fails, they are tried as z3 Ints (nonlinear integer arithmetic: z3 may answer
    unknown, never wrongly unsat).
    """
    import z3

    facts = [f for f in facts if _fact_rel(f) is not None]
    exprs = [lhs, rhs] + [side for f in facts for side in (f.lhs, f.rhs)]
    symbols = set().union(*(sp.sympify(e).free_symbols for e in exprs))
    # z3 names in a fixed order (never from id(): the same goal gets the same names, and the
    # same search, in every process)
    ordered = sorted(symbols, key=sp.default_sort_key)
    for as_int in (False, True):
        if as_int and not (symbols & set(integers)):
            break
        env = {}
        for i, s in enumerate(ordered):
            env[s] = z3.Int(f"{s.name}_{i}") if (as_int and s in integers) else \
                z3.Real(f"{s.name}_{i}")
        if as_int:
            env = {s: (z3.ToReal(v) if s in integers else v) for s, v in env.items()}
        solver = z3.Solver()
        solver.set("rlimit", Z3_RLIMIT)   # z3's own count of work, never its timeout
        try:
            for f in facts:
                parts = _fact_rel(f)
                if parts is None:
                    continue
                a, r, b = parts
                solver.add(_z3_relation(_to_z3(sp.sympify(a), env), r, _to_z3(sp.sympify(b), env)))
            solver.add(z3.Not(_z3_relation(_to_z3(sp.sympify(lhs), env), rel,
                                           _to_z3(sp.sympify(rhs), env))))
        except _Untranslatable:
            return False
        if solver.check() == z3.unsat:
            return True
    return False


# --------------------------------------------------------------------------- atoms


class _Atoms:
    """Replaces binomials and symbolic powers by atoms, collecting proved facts about them.

    ``atoms``: (symbol, the binomial or power it stands for); ``atom_facts``: (relational on
    atoms, lemma, premise on the bases), each premise proved by z3 from the facts."""

    def __init__(self, facts, integers):
        self.base_facts = list(facts)
        self.facts = list(facts)
        self.integers = integers
        self.atoms = []
        self.atom_facts = []
        self.rewrites = []         # (binomial or factorial, its value in the C_ and F_ atoms)
        self.factorial_map = {}
        self.binomial_map = None   # fixed by the first call: every family at once
        self.power_atoms = {}      # (base, exponent) -> Symbol
        self.binomial_atoms = {}   # (m, K) -> Symbol
        self.function_atoms = {}   # exp(u) or log(x) -> Symbol
        self.bernoulli = False     # Bernoulli and mul_pow facts (atoms grouped by exponent)
        self.counter = itertools.count()

    def entails(self, lhs, rel, rhs):
        """z3 on the real relaxation only: the kernel re-checks every premise that way
        (:func:`symdp.proof.kernel.deciders.real_z3_entails`), so an integer-only success
        could never be accepted."""
        return z3_entails(self.facts, lhs, rel, rhs)

    def entails_over_integers(self, lhs, rel, rhs):
        """z3 with the integer parameters as integers when the reals fail (a rewrite's
        denominator, which the kernel confirms by its own second methods)."""
        return z3_entails(self.facts, lhs, rel, rhs, self.integers)

    def _fact(self, relational, lemma, premise):
        self.atom_facts.append((relational, lemma, premise))
        self.facts.append(relational)     # later premises may use it (C^N > 0 from C > 0)

    # factorials ------------------------------------------------------------
    def factorials(self, expr):
        mapping = self.factorial_map
        for f in expr.atoms(sp.factorial):
            if f in mapping:
                continue
            x = f.args[0]
            if x.is_number or not self.entails(x, ">=", 0):
                continue
            atom = sp.Symbol(f"F_{next(self.counter)}", positive=True)
            self.atoms.append((atom, f))
            self._fact(sp.Gt(atom, 0, evaluate=False), "Nat.factorial_pos",
                       sp.Ge(x, 0, evaluate=False))
            mapping[f] = atom
            self.rewrites.append((f, atom))
        return expr.xreplace(mapping)

    @classmethod
    def like(cls, other):
        """Fresh power atoms, the same binomial and factorial atoms as ``other``."""
        new = cls(other.base_facts, other.integers)
        new.counter = other.counter
        new.binomial_map, new.factorial_map = other.binomial_map, dict(other.factorial_map)
        new.binomial_atoms = dict(other.binomial_atoms)
        keep = set(other.binomial_map.values()) | set(other.factorial_map.values())
        used = set().union(*[sp.sympify(v).free_symbols for v in keep]) if keep else set()
        new.atoms = [(a, v) for a, v in other.atoms if a in used]
        new.atom_facts = [f for f in other.atom_facts if f[0].free_symbols <= used]
        new.rewrites = list(other.rewrites)
        new.facts = list(other.base_facts) + [f for f, _, _ in new.atom_facts]
        return new

    def reduce(self, expr, grouped):
        self.bernoulli = grouped == BY_EXPONENT    # the last resort: more facts, slower z3
        return self.powers(self.functions(self.binomials(self.factorials(sp.sympify(expr)))),
                           grouped)

    # exp and log -------------------------------------------------------------
    def functions(self, expr):
        """``exp u`` and ``log x`` as atoms, with the facts of Mathlib's ``Real.exp_pos``,
        ``Real.add_one_le_exp`` (``exp u >= u + 1``), ``Real.log_le_sub_one_of_pos`` and
        ``Real.one_sub_inv_le_log_of_pos`` (``1 - 1/x <= log x <= x - 1`` for ``x > 0``); an
        argument that is not a rational function of the parameters stays (undecided)."""
        mapping = {}
        for f in expr.atoms(sp.exp, sp.log):
            x = f.args[0]
            if not _clean(x):
                continue
            if f in self.function_atoms:
                mapping[f] = self.function_atoms[f]
                continue
            if isinstance(f, sp.log):
                if not self.entails(x, ">", 0):
                    continue
                atom = sp.Symbol(f"L_{next(self.counter)}", real=True)
                positive = sp.Gt(x, 0, evaluate=False)
                facts = ((sp.Le(atom, x - 1, evaluate=False), "Real.log_le_sub_one_of_pos", positive),
                         (sp.Ge(atom, 1 - 1 / x, evaluate=False), "Real.one_sub_inv_le_log_of_pos",
                          positive))
            else:
                atom = sp.Symbol(f"E_{next(self.counter)}", positive=True)
                facts = ((sp.Gt(atom, 0, evaluate=False), "Real.exp_pos", sp.true),
                         (sp.Ge(atom, x + 1, evaluate=False), "Real.add_one_le_exp", sp.true))
            self.atoms.append((atom, f))
            for fact in facts:
                self._fact(*fact)
            self.function_atoms[f] = mapping[f] = atom
        return expr.xreplace(mapping)

    # binomials -------------------------------------------------------------
    def binomials(self, expr):
        if self.binomial_map is not None:
            return expr.xreplace(self.binomial_map)
        self.binomial_map = {}
        binoms = [b for b in expr.atoms(sp.binomial)]
        if not binoms:
            return expr
        families = {}
        for b in binoms:
            m, K = b.args
            key_m, off_m = _split_offset(m)
            key_K, off_K = _split_offset(K)
            families.setdefault((key_m, key_K), []).append((b, off_m, off_K))
        mapping = {}
        for (key_m, key_K), members in families.items():
            base_m = min(o for _, o, _ in members)
            base_K = min(o for _, _, o in members)
            m0, K0 = key_m + base_m, key_K + base_K
            atom = self._binomial_atom(m0, K0)
            if atom is None:
                continue
            for b, off_m, off_K in members:
                value = atom
                ok = True
                for j in range(base_K, off_K):        # C(m0, K + 1) = C(m0, K) (m0 - K)/(K + 1)
                    K_ = key_K + j
                    if not self.entails_over_integers(K_ + 1, ">", 0):
                        ok = False
                        break
                    value = value * (m0 - K_) / (K_ + 1)
                Kf = key_K + off_K
                for i in range(base_m + 1, off_m + 1):    # C(m, K) = C(m - 1, K) m/(m - K)
                    m_ = key_m + i
                    if not (self.entails_over_integers(m_ - Kf, ">", 0) or
                            self.entails_over_integers(m_ - Kf, "<", 0)):
                        ok = False
                        break
                    value = value * m_ / (m_ - Kf)
                if ok:
                    mapping[b] = value
                    self.rewrites.append((b, value))
        self.binomial_map = mapping
        return expr.xreplace(mapping)

    def _binomial_atom(self, m, K):
        key = (m, K)
        if key in self.binomial_atoms:
            return self.binomial_atoms[key]
        if not (self.entails(K, ">=", 0) and self.entails(m - K, ">=", 0)):
            return None
        atom = sp.Symbol(f"C_{next(self.counter)}", positive=True)
        self.binomial_atoms[key] = atom
        self.atoms.append((atom, sp.binomial(m, K)))
        self._fact(sp.Gt(atom, 0, evaluate=False), "Nat.choose_pos",
                   sp.And(sp.Ge(K, 0, evaluate=False), sp.Ge(m - K, 0, evaluate=False)))
        return atom

    # powers ----------------------------------------------------------------
    def powers(self, expr, grouped):
        expr = sp.expand_power_exp(expr)
        if grouped:
            # x^e y^e = (x y)^e (mul_pow): one atom per exponent and term; the bases are
            # proved positive below, and the kernel re-checks the rewriting
            if grouped == BY_EXPONENT:    # x^e / y^e kept as (x/y)^e
                expr = _group_by_exponent(sp.expand(expr, power_base=False))
            else:
                expr = sp.powsimp(sp.expand(expr), combine="base", force=True)
        pows = [p for p in expr.atoms(sp.Pow) if not p.exp.is_number]
        mapping = {}
        for p in pows:
            value = self._power(p.base, p.exp, grouped)
            if value is not None:
                mapping[p] = value
        return expr.xreplace(mapping)

    def _power(self, base, exp, grouped):
        const, sym = exp.as_coeff_Add()
        if not const.is_Integer:
            const, sym = sp.Integer(0), exp
        coeff, sym = sym.as_coeff_Mul()
        if not coeff.is_Integer:
            coeff, sym = sp.Integer(1), coeff * sym
        base = sp.factor(sp.cancel(base))
        if not self.entails(base, ">", 0):
            return None
        outer = base ** const if const != 0 else sp.Integer(1)
        if grouped:
            atom = self._atom(sp.cancel(base ** coeff), sym)
            return None if atom is None else outer * atom
        num, den = sp.fraction(sp.together(base))
        constant = sp.Integer(1)
        parts = []
        for part, sign in ((num, 1), (den, -1)):
            c, factors = sp.factor_list(part)
            constant *= c ** sign
            for f, mult in factors:
                if self.entails(f, ">", 0):
                    parts.append((f, mult * sign))
                elif self.entails(-f, ">", 0):       # (-f)^m (-1)^m: the sign goes to the constant
                    parts.append((sp.expand(-f), mult * sign))
                    constant *= (-1) ** mult
                else:
                    return None
        if not constant > 0:
            return None
        value = outer
        if constant != 1:
            value = value * self._atom(constant, sym) ** coeff
        for f, power in parts:
            value = value * self._atom(f, sym) ** (power * coeff)
        return value

    def _atom(self, base, exp):
        key = (base, exp)
        if key in self.power_atoms:
            return self.power_atoms[key]
        atom = sp.Symbol(f"P_{next(self.counter)}", positive=True)
        self.power_atoms[key] = atom
        self.atoms.append((atom, sp.Pow(base, exp, evaluate=False)))
        self._fact(sp.Gt(atom, 0, evaluate=False), "pow_pos", sp.Gt(base, 0, evaluate=False))
        if self.entails(exp, ">", 0):
            for rel, lemma, premise in (
                    (sp.Le(atom, 1, evaluate=False), "pow_le_one", sp.Le(base, 1, evaluate=False)),
                    (sp.Ge(atom, 1, evaluate=False), "one_le_pow_of_one_le", sp.Ge(base, 1, evaluate=False)),
                    (sp.Lt(atom, 1, evaluate=False), "pow_lt_one", sp.Lt(base, 1, evaluate=False)),
                    (sp.Gt(atom, 1, evaluate=False), "one_lt_pow", sp.Gt(base, 1, evaluate=False))):
                if self.entails(premise.lhs, _REL[type(premise)], premise.rhs):
                    self._fact(rel, lemma, premise)
            for (other, other_exp), other_atom in self.power_atoms.items():
                if other_exp != exp or other_atom is atom:
                    continue
                if self.entails(base, "<", other):
                    self._fact(sp.Lt(atom, other_atom, evaluate=False), "pow_lt_pow_left",
                               sp.Lt(base, other, evaluate=False))
                elif self.entails(base, ">", other):
                    self._fact(sp.Gt(atom, other_atom, evaluate=False), "pow_lt_pow_left",
                               sp.Gt(base, other, evaluate=False))
            if exp.is_integer:
                self._exponential_facts(atom, base, exp)
        return atom

    def _exponential_facts(self, atom, base, exp):
        """Facts of a power with a positive integer exponent: ``(1 - t/n)^n <= exp(-t)``
        against every exp atom (``Real.one_sub_div_pow_le_exp_neg``), and with the atoms grouped by
        exponent Bernoulli's inequality for it and for its ratio to every atom of the same exponent
        (``one_add_mul_le_pow``, with ``div_pow``)."""
        for f, e_atom in self.function_atoms.items():
            if isinstance(f, sp.exp) and sp.cancel(sp.together(base - (1 + f.args[0] / exp))) == 0 \
                    and self.entails(-f.args[0], "<=", exp):
                self._fact(sp.Le(atom, e_atom, evaluate=False), "Real.one_sub_div_pow_le_exp_neg",
                           sp.Le(-f.args[0], exp, evaluate=False))
        if not self.bernoulli:
            return
        if self.entails(base, ">=", -1):
            self._fact(sp.Ge(atom, 1 + exp * (base - 1), evaluate=False), "one_add_mul_le_pow",
                       sp.Ge(base, -1, evaluate=False))
        for (other, other_exp), other_atom in list(self.power_atoms.items()):
            if other_exp != exp or other_atom is atom:
                continue
            for (x, x_atom), (y, y_atom) in (((base, atom), (other, other_atom)),
                                             ((other, other_atom), (base, atom))):
                self._fact(sp.Ge(x_atom, y_atom * (1 + exp * (x / y - 1)), evaluate=False),
                           "one_add_mul_le_pow of div_pow", sp.Gt(y, 0, evaluate=False))
            # x^e y^e = (x y)^e against 1 (mul_pow, then pow_lt_one / one_lt_pow)
            product = sp.cancel(base * other)
            if self.entails(product, "<", 1):
                self._fact(sp.Lt(atom * other_atom, 1, evaluate=False), "pow_lt_one of mul_pow",
                           sp.Lt(product, 1, evaluate=False))
            elif self.entails(product, ">", 1):
                self._fact(sp.Gt(atom * other_atom, 1, evaluate=False), "one_lt_pow of mul_pow",
                           sp.Gt(product, 1, evaluate=False))


def _group_by_exponent(expr):
    """Each term's powers with symbolic exponents collected by exponent: ``x^e y^(-e)`` is
    ``(x/y)^e`` (``div_pow``; the bases are proved positive when the atom is made)."""
    terms = []
    for term in sp.Add.make_args(expr):
        groups, rest = {}, []
        for f in sp.Mul.make_args(term):
            if isinstance(f, sp.Pow) and not f.exp.is_number:
                c, sym = f.exp.as_coeff_Mul()
                if c.is_Integer:
                    groups[sym] = groups.get(sym, sp.Integer(1)) * f.base ** c
                    continue
            rest.append(f)
        terms.append(sp.Mul(*rest) * sp.Mul(*[sp.Pow(sp.cancel(b), e) for e, b in groups.items()]))
    return sp.Add(*terms)


def _split_offset(expr):
    """``m + c`` with ``c`` an integer: ``(m, c)``."""
    const, rest = sp.sympify(expr).as_coeff_Add()
    if const.is_Integer:
        return rest, int(const)
    return sp.sympify(expr), 0


# --------------------------------------------------------------------------- Max / Min


def _innermost_extremum(expr):
    """A ``Max``/``Min``/``Abs`` subexpression none of whose arguments holds one, or None."""
    found = [e for e in sp.preorder_traversal(expr) if isinstance(e, (sp.Max, sp.Min, sp.Abs))]
    for e in found:
        if not any(a.has(sp.Max, sp.Min, sp.Abs) for a in e.args):
            return e
    return None


def prove_residual(lhs, relation, rhs, facts, hypotheses, conditions=(), _depth=0):
    """A :class:`~symdp.proof.certificates.ResidualNode` proving ``lhs REL rhs`` for every
    parameter value of ``hypotheses`` satisfying ``facts`` and ``conditions`` (the latter are
    recorded in the node: the kernel adds them to the domain), or None.

    When no proof is found on the whole domain, the least value ``a`` of an integer parameter
    is set apart (``v = a``, then ``v >= a + 1``): a base such as ``(n - 1)/n`` is 0 at
    ``n = 1`` and positive after, where its power is an atom."""
    node = _prove_residual(lhs, relation, rhs, facts, hypotheses, conditions, _depth)
    if node is None and _depth == 0:
        node = _first_value_split(lhs, relation, rhs, facts, hypotheses, tuple(conditions))
    return node


def _first_value_split(lhs, relation, rhs, facts, hypotheses, conditions):
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    set_facts = set(domain_facts(hypotheses))
    free = lhs.free_symbols | rhs.free_symbols
    bases = [p.base for e in (lhs, rhs) for p in e.atoms(sp.Pow) if not p.exp.is_number]
    for v in sorted(_integer_symbols(hypotheses) & free, key=lambda s: s.name):
        a = hypotheses[v].inf
        # only where it helps: a base of a symbolic power that vanishes at v = a
        if not a.is_finite or not any(b.xreplace({v: a}) == 0 for b in bases):
            continue
        others = {s: d for s, d in hypotheses.items() if s != v}
        first_conditions = []
        for c in [f for f in facts if f not in set_facts] + list(conditions):
            c = c.xreplace({v: a})
            if c == sp.false:
                break
            if c != sp.true:
                first_conditions.append(c)
        else:
            first = _prove_residual(lhs.xreplace({v: a}), relation, rhs.xreplace({v: a}),
                                    domain_facts(others), others, tuple(first_conditions), 1)
            if first is None:
                continue
            rest = _prove_residual(lhs, relation, rhs, facts, hypotheses,
                                   conditions + (sp.Ge(v, a + 1, evaluate=False),), 1)
            if rest is not None:
                return ResidualNode(lhs, relation, rhs, conditions, "first_value",
                                    variable=v, children=(first, rest))
    return None


def _prove_residual(lhs, relation, rhs, facts, hypotheses, conditions=(), _depth=0):
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    all_facts = list(facts) + list(conditions)
    integers = frozenset(_integer_symbols(hypotheses))
    if isinstance(lhs, (sp.Max, sp.Min)):
        node = _bound(lhs, relation, rhs, facts, hypotheses, tuple(conditions), _depth)
        if node is not None:
            return node
    extremum = _innermost_extremum(lhs) or _innermost_extremum(rhs)
    if extremum is not None:
        return _eliminate(extremum, lhs, relation, rhs, facts, hypotheses, tuple(conditions),
                          _depth)
    return _prove_plain(lhs, relation, rhs, all_facts, integers, tuple(conditions))


def _bound(lhs, relation, rhs, facts, hypotheses, conditions, depth):
    every, some = bound_goals(lhs, relation, rhs)
    children = []
    if every is not None:
        for x in lhs.args:
            proof = prove_residual(x, every, rhs, facts, hypotheses, conditions, depth + 1)
            if proof is None:
                return None
            children.append(proof)
    if some is not None:
        for x in lhs.args:
            proof = prove_residual(x, some, rhs, facts, hypotheses, conditions, depth + 1)
            if proof is not None:
                children.append(proof)
                break
        else:
            return None
    return ResidualNode(lhs, relation, rhs, conditions, "bound", extremum=lhs,
                        children=tuple(children))


def _eliminate(extremum, lhs, relation, rhs, facts, hypotheses, conditions, depth):
    cases = extremum_cases(extremum)
    # a case whose selecting conditions are proved decides the extremum outright
    for value, selecting in cases:
        proofs = []
        for c in selecting:
            if _fact_rel(c) is None:   # SymPy evaluated the condition (by assumptions): no case
                break
            a, rel, b = _fact_rel(c)
            proof = prove_residual(a, rel, b, facts, hypotheses, conditions, depth + 1)
            if proof is None:
                break
            proofs.append(proof)
        else:
            branch = prove_residual(lhs.xreplace({extremum: value}), relation,
                                    rhs.xreplace({extremum: value}), facts, hypotheses,
                                    conditions, depth + 1)
            if branch is None:
                return None
            return ResidualNode(lhs, relation, rhs, conditions, "decided", extremum=extremum,
                                children=tuple(proofs) + (branch,))
    if depth > 6:
        return None
    children = []
    for value, selecting in cases:
        if any(_fact_rel(c) is None for c in selecting):
            return None
        branch = prove_residual(lhs.xreplace({extremum: value}), relation,
                                rhs.xreplace({extremum: value}), facts, hypotheses,
                                conditions + selecting, depth + 1)
        if branch is None:
            return None
        children.append(branch)
    return ResidualNode(lhs, relation, rhs, conditions, "split", extremum=extremum,
                        children=tuple(children))


def _has_atoms(expr) -> bool:
    return bool(expr.has(sp.binomial, sp.factorial, sp.exp, sp.log) or
                any(not p.exp.is_number for p in expr.atoms(sp.Pow)))


def _clean(reduced) -> bool:
    return not (any(not p.exp.is_number for p in reduced.atoms(sp.Pow)) or
                reduced.has(sp.binomial, sp.factorial, sp.Sum, sp.Product) or
                reduced.atoms(sp.Function))


def _prove_plain(lhs, relation, rhs, facts, integers, conditions):
    diff = sp.sympify(lhs - rhs)
    if diff == 0 and relation in ("=", "<=", ">="):
        return ResidualNode(lhs, relation, rhs, conditions, "identity", sp.S.Zero)
    for grouped in (False, True, BY_EXPONENT):
        atoms = _Atoms([f for f in facts if not _has_atoms(f.lhs - f.rhs)]
                       if all(_fact_rel(f) for f in facts) else [], integers)
        try:
            # one family of binomials (and one atom per factorial) for the goal and the facts
            margins = [f.lhs - f.rhs for f in facts if _fact_rel(f) is not None]
            atoms.binomials(atoms.factorials(sp.Tuple(diff, *[m for m in margins
                                                              if _has_atoms(m)])))
            atoms = _Atoms.like(atoms)
            reduced = atoms.reduce(diff, grouped)
        except Exception:  # noqa: BLE001 - an expression the atoms cannot represent: undecided
            continue
        if not _clean(reduced):
            continue
        if relation in ("=", "<=", ">=") and sp.cancel(sp.together(reduced)) == 0:
            return ResidualNode(lhs, relation, rhs, conditions, "identity", reduced,
                                tuple(atoms.atoms), tuple(atoms.atom_facts),
                                rewrites=tuple(atoms.rewrites))
        # facts on powers and binomials (case conditions) are rewritten through the same atoms
        plain, rewritten = [], []
        for f in facts:
            parts = _fact_rel(f)
            if parts is None:
                continue
            a, rel, b = parts
            if not _has_atoms(a - b):
                plain.append(f)
                continue
            try:
                m = atoms.reduce(a - b, grouped)
            except Exception:  # noqa: BLE001 - a fact left out only weakens the query
                continue
            if _clean(m):
                rewritten.append((f, _RELATIONAL[rel](m, 0, evaluate=False)))
        atom_relations = [f for f, _, _ in atoms.atom_facts]
        # the reals only: the kernel's own z3 query is on the real relaxation
        if z3_entails(plain + [r for _, r in rewritten] + atom_relations, reduced, relation, 0):
            return ResidualNode(lhs, relation, rhs, conditions, "z3", reduced,
                                tuple(atoms.atoms), tuple(atoms.atom_facts),
                                reduced_conditions=tuple(rewritten), rewrites=tuple(atoms.rewrites))
    return None


_RELATIONAL = {"=": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt, "!=": sp.Ne}
