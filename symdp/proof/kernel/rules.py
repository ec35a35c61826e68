"""The kernel's rules for counting and induction certificates (issue #20).

:func:`judge` returns ``(why, detail)``: a reason to refuse, or "" and the words of the
verdict, which :func:`symdp.proof.kernel.accept` alone seals.  What is trusted here beyond the
rest of the kernel: the lemma checkers of :mod:`symdp.core.counting` (each a pattern and a
cardinality formula), the exact enumeration of the atoms (:mod:`symdp.core.enumerable`), and
z3 on the real relaxation of the integer parameters (unsatisfiable over the reals implies
unsatisfiable over the integers).
"""

from __future__ import annotations

import sympy as sp

from ..certificates import CountingCertificate, Domain, Fact, InductionCertificate, ResidualNode
from . import confirm, defined_on, deciders


def judge(c, domain: Domain):
    """``(why, detail)`` for a counting or induction certificate on ``domain``."""
    if isinstance(c, CountingCertificate):
        return counting_judgement(c, domain)
    return induction_judgement(c, domain)


#: the atom lemmas (Mathlib names): each fact on atoms must be one lemma's conclusion, its
#: premise proved by z3 on the step's domain (Mathlib statements in :func:`atom_fact_ok`)
_ATOM_LEMMAS = ("pow_pos", "pow_le_one", "one_le_pow_of_one_le", "pow_lt_one", "one_lt_pow",
                "pow_lt_pow_left", "Nat.choose_pos", "Nat.factorial_pos",
                "one_add_mul_le_pow", "one_add_mul_le_pow of div_pow",
                "Real.exp_pos", "Real.add_one_le_exp", "Real.log_le_sub_one_of_pos",
                "Real.one_sub_inv_le_log_of_pos", "Real.one_sub_div_pow_le_exp_neg",
                "pow_lt_one of mul_pow", "one_lt_pow of mul_pow")

#: atoms that stand for a real number of any sign (the others are positive)
_REAL_ATOMS = (sp.log,)

_RELATION_OF = {sp.LessThan: "<=", sp.StrictLessThan: "<", sp.GreaterThan: ">=",
                sp.StrictGreaterThan: ">", sp.Eq: "=", sp.Ne: "!="}


def _as_margin(relational):
    """``(lhs - rhs, relation)`` of a Relational (an And is refused)."""
    return relational.lhs - relational.rhs, _RELATION_OF[type(relational)]


def atom_fact_ok(fact, lemma, premise, atoms: dict, domain: Domain, conditions) -> bool:
    """The fact on atoms is what ``lemma`` concludes from ``premise``, and the premise holds."""
    if lemma not in _ATOM_LEMMAS:
        return False
    premises = premise.args if isinstance(premise, sp.And) else \
        () if premise == sp.true else (premise,)
    for p in premises:
        margin, rel = _as_margin(p)
        if not deciders.real_z3_entails(domain, conditions, margin, rel):
            return False
    rel = _RELATION_OF[type(fact)]
    a, b = fact.lhs, fact.rhs
    if lemma.endswith("of mul_pow") and lemma != "one_add_mul_le_pow of div_pow":
        return _product_fact_ok(rel, a, b, lemma, premise, atoms, domain, conditions)
    value = atoms.get(a)
    if value is None:
        return False
    if lemma.startswith("Real."):
        return _real_fact_ok(rel, b, lemma, premise, value, atoms, domain, conditions)
    if lemma.startswith("one_add_mul_le_pow"):
        return _bernoulli_ok(rel, b, lemma, premise, value, atoms, domain, conditions)
    if lemma == "Nat.factorial_pos":
        return isinstance(value, sp.factorial) and rel == ">" and b == 0 and \
            premise == sp.Ge(value.args[0], 0, evaluate=False) and value.args[0].is_integer
    if lemma == "Nat.choose_pos":
        return isinstance(value, sp.binomial) and rel == ">" and b == 0 and \
            set(premises) == {sp.Ge(value.args[1], 0, evaluate=False), sp.Ge(value.args[0] - value.args[1], 0, evaluate=False)}
    if not (isinstance(value, sp.Pow) and not value.exp.is_number):
        return False
    base, exp = value.base, value.exp
    if lemma == "pow_pos":
        return rel == ">" and b == 0 and premise == sp.Gt(base, 0, evaluate=False)
    if not deciders.real_z3_entails(domain, conditions, exp, ">"):
        return False
    if not deciders.real_z3_entails(domain, conditions, base, ">"):
        return False
    wanted = {"pow_le_one": ("<=", sp.Le(base, 1, evaluate=False)), "one_le_pow_of_one_le": (">=", sp.Ge(base, 1, evaluate=False)),
              "pow_lt_one": ("<", sp.Lt(base, 1, evaluate=False)), "one_lt_pow": (">", sp.Gt(base, 1, evaluate=False))}
    if lemma in wanted:
        return b == 1 and (rel, premise) == wanted[lemma]
    # pow_lt_pow_left: 0 < x < y and e > 0 give x^e < y^e
    other = atoms.get(b)
    if not (isinstance(other, sp.Pow) and other.exp == exp):
        return False
    return (rel, premise) in (("<", sp.Lt(base, other.base, evaluate=False)), (">", sp.Gt(base, other.base, evaluate=False)))


def _natural_exponent(exp, domain: Domain, conditions) -> bool:
    """``exp`` is a positive integer on the domain: an integer expression (the exponent's
    symbols are integers) that z3 proves > 0."""
    return bool(exp.is_integer) and deciders.real_z3_entails(domain, conditions, exp, ">")


def _bernoulli_ok(rel, b, lemma, premise, value, atoms, domain: Domain, conditions) -> bool:
    """Bernoulli's inequality, Mathlib ``one_add_mul_le_pow`` (``-2 <= a``, ``n : N`` give
    ``1 + n a <= (1 + a)^n``), for an atom ``x^e`` (``e`` a positive integer, ``x = 1 + a``):

    * ``one_add_mul_le_pow``: ``x^e >= 1 + e (x - 1)``, premise ``x >= -1``;
    * ``one_add_mul_le_pow of div_pow``: for two atoms ``x^e`` and ``y^e`` with ``y > 0``,
      ``x^e >= y^e (1 + e (x/y - 1))`` -- Bernoulli for ``(x/y)^e = x^e / y^e``
      (``div_pow``) multiplied by ``y^e > 0``; premise ``y > 0`` (then ``x/y >= -1`` since
      the atoms' bases are positive, which :func:`_atoms_positive` confirms)."""
    if rel != ">=" or not isinstance(value, sp.Pow):
        return False
    x, e = value.base, value.exp
    if not _natural_exponent(e, domain, conditions):
        return False
    if lemma == "one_add_mul_le_pow":
        return premise == sp.Ge(x, -1, evaluate=False) and \
            sp.cancel(sp.together(b - (1 + e * (x - 1)))) == 0
    others = [s for s in b.free_symbols
              if isinstance(atoms.get(s), sp.Pow) and atoms[s].exp == e and atoms[s] != value]
    if len(others) != 1:
        return False
    other = atoms[others[0]]
    if premise != sp.Gt(other.base, 0, evaluate=False):
        return False
    y = other.base
    return sp.cancel(sp.together(b - others[0] * (1 + e * (x / y - 1)))) == 0


def _product_fact_ok(rel, a, b, lemma, premise, atoms, domain: Domain, conditions) -> bool:
    """``x^e y^e = (x y)^e`` (``mul_pow``) compared with 1 for two atoms of the same positive
    integer exponent: ``pow_lt_one`` (``0 <= x y < 1``) gives ``x^e y^e < 1``, ``one_lt_pow``
    (``x y > 1``) gives ``> 1``; the bases are positive (:func:`_atoms_positive`)."""
    factors = sp.Mul.make_args(a)
    if b != 1 or len(factors) != 2 or any(f not in atoms for f in factors):
        return False
    x, y = (atoms[f] for f in factors)
    if not (isinstance(x, sp.Pow) and isinstance(y, sp.Pow) and x.exp == y.exp) or \
            not _natural_exponent(x.exp, domain, conditions):
        return False
    product = sp.cancel(x.base * y.base)
    wanted = {"pow_lt_one of mul_pow": ("<", sp.Lt(product, 1, evaluate=False)),
              "one_lt_pow of mul_pow": (">", sp.Gt(product, 1, evaluate=False))}
    return (rel, premise) == wanted.get(lemma)


def _real_fact_ok(rel, b, lemma, premise, value, atoms, domain: Domain, conditions) -> bool:
    """The lemmas on ``exp`` and ``log`` atoms (Mathlib ``Real.*``):

    * ``Real.exp_pos``: ``exp u > 0``; ``Real.add_one_le_exp``: ``exp u >= u + 1`` (every
      real u; no premise);
    * ``Real.log_le_sub_one_of_pos`` (``0 < x``): ``log x <= x - 1``;
      ``Real.one_sub_inv_le_log_of_pos`` (``0 < x``): ``log x >= 1 - 1/x``;
    * ``Real.one_sub_div_pow_le_exp_neg`` (``t <= n``, ``n : N``): ``(1 - t/n)^n <= exp(-t)``
      -- the fact ``x^e <= exp(u)`` for an atom ``x^e`` with ``e`` a positive integer,
      ``x = 1 + u/e`` and the premise ``-u <= e``."""
    if lemma == "Real.exp_pos":
        return isinstance(value, sp.exp) and rel == ">" and b == 0 and premise == sp.true
    if lemma == "Real.add_one_le_exp":
        return isinstance(value, sp.exp) and rel == ">=" and premise == sp.true and \
            sp.cancel(b - (value.args[0] + 1)) == 0
    if lemma in ("Real.log_le_sub_one_of_pos", "Real.one_sub_inv_le_log_of_pos"):
        if not (isinstance(value, sp.log) and premise == sp.Gt(value.args[0], 0, evaluate=False)):
            return False
        x = value.args[0]
        if lemma == "Real.log_le_sub_one_of_pos":
            return rel == "<=" and sp.cancel(sp.together(b - (x - 1))) == 0
        return rel == ">=" and sp.cancel(sp.together(b - (1 - 1 / x))) == 0
    if lemma == "Real.one_sub_div_pow_le_exp_neg":
        bound = atoms.get(b)
        if rel != "<=" or not isinstance(value, sp.Pow) or not isinstance(bound, sp.exp):
            return False
        x, e, u = value.base, value.exp, bound.args[0]
        return _natural_exponent(e, domain, conditions) and \
            premise == sp.Le(-u, e, evaluate=False) and \
            sp.cancel(sp.together(x - (1 + u / e))) == 0
    return False


def _atoms_positive(atoms: dict, domain: Domain, conditions) -> str:
    """"" when every atom that the kernel takes as a positive indeterminate is positive on the
    domain ("" for log atoms, which are any real): ``x^e`` with ``x > 0`` (``Real.rpow_pos_of_pos``,
    ``pow_pos``), ``exp u`` (``Real.exp_pos``), ``C(m, K)`` with ``0 <= K <= m``
    (``Nat.choose_pos``), ``m!`` with ``m >= 0`` (``Nat.factorial_pos``); else the atom.
    An atom's base may hold atoms before it (``C^N`` with ``C = C(n, k)``): those are taken
    with the sign already confirmed."""
    known = []
    for a, v in atoms.items():
        domain = Domain(domain.hypotheses + tuple(known), domain.constraints,
                        domain.side_conditions)
        if isinstance(v, _REAL_ATOMS):
            known.append((a, sp.Reals))
            continue
        known.append((a, sp.Interval.open(0, sp.oo)))
        if isinstance(v, sp.exp):
            continue
        if isinstance(v, sp.Pow):
            ok = deciders.real_z3_entails(domain, conditions, v.base, ">")
        elif isinstance(v, sp.binomial):
            m, K = v.args
            ok = m.is_integer and K.is_integer and \
                deciders.real_z3_entails(domain, conditions, K, ">=") and \
                deciders.real_z3_entails(domain, conditions, m - K, ">=")
        elif isinstance(v, sp.factorial):
            ok = v.args[0].is_integer and deciders.real_z3_entails(domain, conditions, v.args[0], ">=")
        else:
            ok = False
        if not ok:
            return f"the atom {a} = {v} is not shown positive"
    return ""


_RESIDUAL_CACHE: dict = {}


def residual_error(node: ResidualNode, domain: Domain, lhs, relation, rhs, conditions=()) -> str:
    """:func:`residual_error_uncached`, remembered: the judgement is a function of the node,
    the domain, the goal and the conditions, which together are the key (sub-proofs recur
    across the steps of a file: the same Max/Min pieces, the same atom facts)."""
    key = (node, domain, lhs, relation, rhs, tuple(conditions))
    try:
        return _RESIDUAL_CACHE[key]
    except KeyError:
        pass
    except TypeError:      # an unhashable part: judged afresh
        return residual_error_uncached(node, domain, lhs, relation, rhs, conditions)
    if len(_RESIDUAL_CACHE) > 5000:
        _RESIDUAL_CACHE.clear()
    why = _RESIDUAL_CACHE[key] = residual_error_uncached(node, domain, lhs, relation, rhs,
                                                         conditions)
    return why


def residual_error_uncached(node: ResidualNode, domain: Domain, lhs, relation, rhs,
                            conditions=()) -> str:
    """"" when ``node`` proves ``lhs REL rhs`` under ``conditions`` on ``domain``, else why not.

    Recomputed here: the goal of every node, the cases of every split (from the extremum
    itself), the back-substitution of the atoms, every atom fact's lemma and premise, and
    the final identity or z3 query."""
    if node is None:
        return "no residual proof"
    if (node.lhs, node.relation, node.rhs) != (lhs, relation, rhs) or \
            tuple(node.conditions) != tuple(conditions):
        return f"a node proves {node.lhs} {node.relation} {node.rhs}, not {lhs} {relation} {rhs}"
    if node.method == "bound":
        ext = node.extremum
        if ext is not lhs and ext != lhs or not isinstance(ext, (sp.Max, sp.Min)):
            return "a bound node must bound a Max or Min that is the whole lhs"
        every, some = bound_goals(ext, relation, rhs)
        children = list(node.children)
        if every is not None:
            if len(children) < len(ext.args):
                return "a bound misses an argument"
            for x, child in zip(ext.args, children):
                why = residual_error(child, domain, x, every, rhs, conditions)
                if why:
                    return why
            children = children[len(ext.args):]
        if some is not None:
            if len(children) != 1 or children[0].lhs not in ext.args:
                return "a bound needs one argument attaining it"
            return residual_error(children[0], domain, children[0].lhs, some, rhs, conditions)
        return "" if not children else "a bound has extra children"
    if node.method in ("split", "decided"):
        ext = node.extremum
        if ext is None or not (lhs.has(ext) or rhs.has(ext)):
            return "the extremum is not in the goal"
        cases = extremum_cases(ext)
        if node.method == "split":
            if len(node.children) != len(cases):
                return "a split misses a case"
            for (value, selecting), child in zip(cases, node.children):
                why = residual_error(child, domain, lhs.xreplace({ext: value}), relation,
                                     rhs.xreplace({ext: value}), tuple(conditions) + tuple(selecting))
                if why:
                    return why
            return ""
        for value, selecting in cases:
            if len(node.children) != len(selecting) + 1:
                continue
            ok = all(not residual_error(proof, domain, c.lhs, _RELATION_OF[type(c)], c.rhs,
                                        conditions) for c, proof in zip(selecting, node.children))
            if ok:
                return residual_error(node.children[-1], domain, lhs.xreplace({ext: value}),
                                      relation, rhs.xreplace({ext: value}), conditions)
        return "no case of the extremum is proved to hold"
    if node.method == "first_value":
        return _first_value_error(node, domain, lhs, relation, rhs, conditions)
    atoms = dict(node.atoms)
    unsigned = _atoms_positive(atoms, domain, conditions)
    if unsigned:
        return unsigned
    atom_domain = Domain(domain.hypotheses + tuple(
        (a, sp.Reals if isinstance(v, _REAL_ATOMS) else sp.Interval.open(0, sp.oo))
        for a, v in atoms.items()),
        domain.constraints, tuple(domain.side_conditions) + tuple(conditions))
    counting_atoms = {a: v for a, v in atoms.items() if isinstance(v, (sp.binomial, sp.factorial))}
    power_atoms = {a: v for a, v in atoms.items() if a not in counting_atoms}
    rewrites = dict(node.rewrites)
    for original, value in rewrites.items():     # each rewrite on its own (Pascal's rules)
        if not isinstance(original, (sp.binomial, sp.factorial)) or \
                not deciders.simplifies_to(original, value.xreplace(counting_atoms)):
            return f"the rewrite {original} -> {value} does not hold"
        undefined = defined_on((value,), atom_domain)
        if undefined:
            return f"the rewrite of {original} may be undefined: {undefined}"

    def in_atoms(expr):    # binomials and factorials rewritten; powers left as they are
        return expr.xreplace(rewrites)

    if atoms or node.reduced != lhs - rhs:
        if not _equal_over_positive_bases(in_atoms(lhs - rhs), _substituted(node.reduced,
                                                                            power_atoms), atom_domain):
            return "the atoms do not reproduce lhs - rhs"
        undefined = defined_on((_substituted(node.reduced, power_atoms),), atom_domain)
        if undefined:
            return f"the rewritten difference may be undefined: {undefined}"
    if node.method == "identity":
        if relation not in ("=", "<=", ">="):
            return "an identity does not prove a strict relation"
        return "" if sp.cancel(sp.together(node.reduced)) == 0 else "the difference is not 0"
    if node.method == "z3":
        facts = []
        for fact, lemma, premise in node.atom_facts:   # a premise may use the facts before it
            if not atom_fact_ok(fact, lemma, premise, atoms, domain,
                                 tuple(conditions) + tuple(facts)):
                return f"the atom fact {fact} does not follow by {lemma} from {premise}"
            facts.append(fact)
        known = tuple(domain.conditions) + tuple(conditions)
        for original, rewritten in node.reduced_conditions:
            if original not in known or type(original) is not type(rewritten) or \
                    not _equal_over_positive_bases(
                        in_atoms(original.lhs - original.rhs),
                        _substituted(rewritten.lhs - rewritten.rhs, power_atoms), atom_domain):
                return f"the condition {original} is not {rewritten} in the atoms"
            facts.append(rewritten)
        atom_domain = Domain(atom_domain.hypotheses, domain.constraints, domain.side_conditions)
        if deciders.real_z3_entails(atom_domain, tuple(conditions) + tuple(facts), node.reduced, relation):
            return ""
        return "z3 does not confirm the reduced relation"
    return f"unknown method {node.method!r}"


def _first_value_error(node: ResidualNode, domain: Domain, lhs, relation, rhs, conditions) -> str:
    """An integer parameter ``v`` whose set is integers with least element ``a`` is ``a`` or
    ``>= a + 1``: the first child proves the goal at ``v = a`` (``v`` substituted, on the
    other parameters' domain), the second under the added condition ``v >= a + 1``."""
    v = node.variable
    sets = domain.sets
    if v not in sets or not sets[v].is_subset(sp.S.Integers) or not sets[v].inf.is_finite:
        return f"a case split on {v} needs {v} to range over integers with a least element"
    a = sets[v].inf
    if len(node.children) != 2:
        return "a case split on the first value needs two cases"
    at = {v: a}
    first_conditions = []
    for c in tuple(domain.conditions) + tuple(conditions):
        c = c.xreplace(at)
        if c == sp.false:
            return f"{v} = {a} is outside the conditions; no case split there"
        if c != sp.true:
            first_conditions.append(c)
    first = node.children[0]
    if not set(first.conditions) <= set(first_conditions):   # it may assume less, never more
        return f"case {v} = {a} assumes what does not hold there"
    first_domain = Domain(tuple((s, d) for s, d in domain.hypotheses if s != v))
    why = residual_error(first, first_domain, lhs.xreplace(at), relation, rhs.xreplace(at),
                         tuple(first.conditions))
    if why:
        return f"case {v} = {a}: {why}"
    why = residual_error(node.children[1], domain, lhs, relation, rhs,
                         tuple(conditions) + (sp.Ge(v, a + 1, evaluate=False),))
    return f"case {v} >= {a + 1}: {why}" if why else ""


def _equal_over_positive_bases(a, b, domain: Domain) -> bool:
    """``a = b`` where every exponent that is not a number is an integer and every base under
    one is confirmed positive on the domain, so that (xy)^e = x^e y^e and x^(e + f) = x^e x^f
    hold (``mul_pow``, ``div_pow``, ``pow_add``): both sides are expanded that way, then
    compared by the trusted equality, or as rational functions of one indeterminate per
    (base factor, exponent)."""
    if a == b:
        return True
    powers = [p for e in (a, b) for p in sp.sympify(e).atoms(sp.Pow) if not p.exp.is_number]
    # (xy)^e = x^e y^e for every real x, y needs an integer e; else the bases must be positive
    if any(not p.exp.is_integer for p in powers) or \
            not all(confirm(Fact(base, "positive", "base of a symbolic power"), domain)
                    for base in {p.base for p in powers}):
        return deciders.simplifies_to(a, b)

    def split(e):
        return sp.expand_power_base(sp.expand_power_exp(sp.sympify(e)), force=True)
    # x^(c e) as X^c, one indeterminate X per (x, e): an identity of rational functions in
    # the indeterminates holds for every value of them (exact polynomial arithmetic)
    table = {}

    def indeterminate(base, exp):
        key = (sp.factor(base), exp)
        if key not in table:
            table[key] = sp.Dummy("X")
        return table[key]

    def flatten(e):
        e = split(e)
        mapping = {}
        for p in e.atoms(sp.Pow):
            if p.exp.is_number:
                continue
            c, sym = p.exp.as_coeff_Mul()
            if not c.is_Integer:
                return None
            mapping[p] = indeterminate(p.base, sym) ** c
        out = e.xreplace(mapping)
        return None if any(not p.exp.is_number for p in out.atoms(sp.Pow)) else out
    # the exact comparison first (cheap), then the trusted equality
    fa, fb = flatten(a), flatten(b)
    if fa is not None and fb is not None and sp.cancel(sp.together(fa - fb)) == 0:
        return True
    return deciders.simplifies_to(split(a), split(b)) or deciders.simplifies_to(a, b)


def _substituted(expr, atoms: dict):
    for _ in range(4):
        expr = expr.xreplace(atoms)
    return expr


def counting_judgement(c: CountingCertificate, domain: Domain):
    from ...core import counting as ct

    replace = {}
    for atom, derived in c.atoms:
        why = ct.check_derived(derived)
        if why:
            return f"the counting derivation of {atom} fails: {why}", ""
        replace[atom] = derived.value
    if c.atoms and not c.checks:
        return "no small case to check the lemma derivation against enumeration", ""
    for point in c.checks:
        p = dict(point)
        for atom, derived in c.atoms:
            a = atom.xreplace(p)
            if not getattr(a, "is_enumerable", False):
                return f"{a} is not enumerable at {p}", ""
            try:
                enumerated = a.enumerate()
            except ValueError as exc:     # InvalidParameterError: outside the quantity's domain
                return f"{a} cannot be enumerated at {p}: {exc}", ""
            closed = derived.value.xreplace(p).doit()   # exact: never a numeric guess
            if sp.simplify(enumerated - closed) != 0:
                return (f"the lemma derivation disagrees with enumeration at {p}: {atom} "
                        f"enumerates to {enumerated}, its closed form gives {closed}"), ""
    lhs, rhs = c.lhs.xreplace(replace), c.rhs.xreplace(replace)
    from ...core.enumerable import Enumerated

    if lhs.atoms(Enumerated) or rhs.atoms(Enumerated):
        return "an enumerated atom has no derivation", ""
    why = residual_error(c.residual, domain, lhs, c.relation, rhs)
    if why:
        return f"the algebra after the counts: {why}", ""
    if not c.atoms:     # no count: the step is the algebra of powers, binomials, exp and log
        return "", f"residual algebra, every parameter value: {describe(c.residual)}"
    lemmas = sorted({a.lemma for _, d in c.atoms for a in ct.applications_of(d)})
    return "", (f"counting lemmas ({', '.join(lemmas)}) give the closed forms of "
                f"{len(c.atoms)} enumerated quantit{'y' if len(c.atoms) == 1 else 'ies'}, "
                f"agreeing with enumeration at {len(c.checks)} small cases; the algebra: "
                f"{describe(c.residual)}")


def induction_judgement(c: InductionCertificate, domain: Domain):
    v, start, h = c.variable, sp.sympify(c.start), c.hypothesis
    sets = domain.sets
    if v not in sets or not sets[v].is_subset(sp.S.Integers) or sets[v].inf != start or \
            sets[v].sup is not sp.oo:
        return f"induction on {v} needs its set to be the integers >= {start}", ""
    if h is None or h in c.lhs.free_symbols | c.rhs.free_symbols or h in sets:
        return "the hypothesis symbol must be fresh", ""
    # the domain of the other parameters (conditions that involve v are refused: they would
    # need their own argument at v = start and v + 1)
    if any(v in cond.free_symbols for cond in domain.conditions):
        return f"a constraint involves {v}; induction here needs none", ""
    others = Domain(tuple((s, d) for s, d in domain.hypotheses if s != v), domain.constraints,
                    domain.side_conditions)
    why = residual_error(c.base, others, c.lhs.xreplace({v: start}).doit(), c.relation,
                         c.rhs.xreplace({v: start}).doit())
    if why:
        return f"base case {v} = {start}: {why}", ""
    # the peeled form must be lhs(v + 1) once the hypothesis symbol is lhs(v)
    shifted, peeled = c.lhs.xreplace({v: v + 1}).doit(), c.peeled.xreplace({h: c.lhs}).doit()
    if not (deciders.simplifies_to(shifted, peeled) or
            _equal_over_positive_bases(shifted, peeled, domain)):   # x^(N+1) = x^N x, x > 0
        return "the peeled form is not lhs at v + 1", ""
    step_domain = Domain(domain.hypotheses, domain.constraints, domain.side_conditions)
    hypothesis = {"=": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}[c.relation](
        h, c.rhs, evaluate=False)
    why = residual_error(c.step, step_domain, c.peeled, c.relation, c.rhs.xreplace({v: v + 1}),
                         (hypothesis,))
    if why:
        return f"inductive step: {why}", ""
    return "", (f"by induction on {v} from {start}: base case ({describe(c.base)}), "
                f"step P({v}) => P({v} + 1) ({describe(c.step)})")


def bound_goals(extremum, relation, rhs):
    """For ``extremum REL rhs`` with the extremum a Max or Min of ``x_1..x_m``: the goals
    ``x_i REL' rhs`` that must all hold, and the relation of which one ``x_j`` must satisfy
    (None: no such goal) -- ``max_le_iff``, ``le_max_iff``, ``max_eq_iff`` and their Min
    mirrors."""
    upper = isinstance(extremum, sp.Max)
    if relation == "=":
        return ("<=" if upper else ">="), "="
    if (relation in ("<=", "<")) == upper:
        return relation, None
    return None, relation


def extremum_cases(extremum):
    """Each case of a Max/Min/Abs: (its value, the conditions that select it)."""
    if isinstance(extremum, sp.Abs):
        x = extremum.args[0]
        return [(x, (sp.Ge(x, 0),)), (-x, (sp.Le(x, 0),))]
    args = list(extremum.args)
    better = sp.Ge if isinstance(extremum, sp.Max) else sp.Le
    return [(a, tuple(better(a, b) for b in args if b is not a)) for a in args]


def describe(node) -> str:
    """The methods and lemmas of a residual proof, in words."""
    methods, lemmas = set(), set()

    def walk(x):
        methods.add(x.method)
        lemmas.update(lemma for _, lemma, _ in x.atom_facts)
        for child in x.children:
            walk(child)
    walk(node)
    text = {"identity": "exact rational identity", "z3": "z3 (unsat)",
            "bound": "max/min bounded argument by argument (max_le_iff, max_eq_iff)",
            "split": "case split on Max/Min", "decided": "extremum decided",
            "first_value": "the least value of an integer parameter apart"}
    out = ", ".join(text[m] for m in sorted(methods))
    if lemmas:
        out += "; atom lemmas " + ", ".join(sorted(lemmas))
    return out


