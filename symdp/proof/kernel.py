r"""The trusted kernel of the check cascade: the only code that says a step *holds*.

The stages are untrusted proposers that return certificates (:mod:`symdp.proof.certificates`).
:func:`accept` turns a certificate into PROVED, CERTIFIED or ENUMERATED only after checking,
itself (issue #19):

* **declarations** -- every Symbol's own assumptions (``positive=True``, ``integer=True``...)
  hold on its stated set, else :class:`~symdp.core.errors.DerivationError` naming the symbol,
  the assumption and the set (:func:`check_declarations`);
* **coverage** -- the certificate's set contains the step's whole :class:`Domain`: a finite
  set enumerated must contain every admissible point, integer lattice included; the boxes of a
  ball search (exact rational ends) and their tails must contain every parameter's set.  An
  enumeration of part of an infinite set is ENUMERATED_ON_RANGE: evidence;
* **definedness** -- both sides, as written, are defined on the whole domain: every
  denominator non-zero, every log argument positive, every fractional power's base
  non-negative (:func:`hazards`), each such condition confirmed as a fact; otherwise
  UNDECIDED naming the condition (and a point where it fails when one is found);
* **facts** -- every sign or integrality fact the certificate relies on is confirmed by a
  second method (:func:`confirm`): exact evaluation on a finite domain, z3 on the polynomial
  and rational fragment, or Arb balls over the sub-boxes of a bounded domain.  Unconfirmed:
  no verdict that holds.

What the kernel trusts, and nothing else: SymPy's ``simplify`` for an equality of expressions
defined on the domain (re-run here, never read from the certificate), SymPy's exact
arithmetic on rationals, python-flint's Arb balls, z3, and the ball search of
:mod:`symdp.proof.cascade.certified.box` over the boxes it names (their coverage is checked here).
Every budget is counted in work -- z3's ``rlimit``, sub-boxes, points -- never in seconds.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..core.errors import DerivationError
from .certificates import (BoxCertificate, Certificate, Domain, Fact, FiniteCertificate,
                           StructuralCertificate, SymbolicCertificate, fraction, margin_of,
                           sign_fact)
from .verdict import StepResult, Verdict

#: work budgets (deterministic: counts, never seconds)
FINITE_POINTS = 4096      # a fact on a finite domain is evaluated exactly up to this many points
BALL_BOXES = 512          # sub-boxes of a bounded domain per fact
BALL_BITS = 128
Z3_RLIMIT = 2_000_000     # z3's resource limit (its own count of work)

_SEAL = object()          # only this module holds it


@dataclass(frozen=True)
class Acceptance:
    """The kernel's token on a StepResult whose verdict holds (or is the evidence of an
    enumerated range): the verdict, the certificate accepted and the facts confirmed.
    ``recorded`` marks a verdict read back from a report (``symdp report --from-json``),
    which the kernel did not check in this process."""

    verdict: Verdict
    certificate: Certificate | None
    facts: tuple = ()
    recorded: str = ""
    seal: object = None

    def __post_init__(self):
        if self.seal is not _SEAL:
            raise TypeError("only symdp.proof.kernel constructs an Acceptance")


def is_accepted(acceptance, verdict: Verdict) -> bool:
    """Is ``acceptance`` the kernel's token for ``verdict``?  (Read by StepResult.)"""
    return isinstance(acceptance, Acceptance) and acceptance.seal is _SEAL \
        and acceptance.verdict is verdict


def recorded(verdict: Verdict, source: str) -> Acceptance:
    """The token for a verdict read back from a report ``source`` (not re-checked)."""
    return Acceptance(verdict, None, recorded=source, seal=_SEAL)


def _held(verdict, detail, stage, cert, facts=(), **kw) -> StepResult:
    token = Acceptance(verdict, cert, tuple(facts), seal=_SEAL)
    confirmed = [f"{f.text()} ({f.confirmed_by})" for f in facts]
    return StepResult(verdict, detail, stage, acceptance=token,
                      extra={"kernel_facts": confirmed} if confirmed else {}, **kw)


def _refused(why: str, stage: str) -> StepResult:
    return StepResult(Verdict.UNDECIDED, f"kernel refused the {stage} certificate: {why}", stage)


# ------------------------------------------------------------------ accept

def accept(certificate: Certificate, domain: Domain, written=()) -> StepResult:
    """Check ``certificate`` against ``domain``; a StepResult whose verdict holds, evidence
    (ENUMERATED_ON_RANGE), or UNDECIDED saying which check failed.  ``written``: the step's
    sides as the user wrote them (unevaluated), whose definedness is checked too.  Raises
    DerivationError for a declaration that contradicts its domain."""
    check_declarations(certificate.lhs.free_symbols | certificate.rhs.free_symbols, domain)
    try:
        undefined = defined_on(written, domain)
        if undefined:
            return _refused(f"a side as written may be undefined on the domain: {undefined}",
                            certificate.stage)
        return _accept(certificate, domain)
    except DerivationError:
        raise
    except Exception as exc:  # noqa: BLE001 - a check that cannot run refuses
        return _refused(f"{type(exc).__name__} while checking", certificate.stage)


def _accept(c: Certificate, domain: Domain) -> StepResult:
    if isinstance(c, FiniteCertificate):
        return _accept_finite(c, domain)   # evaluated at every point: definedness included
    undefined = defined_on((c.lhs, c.rhs), domain)
    if undefined:
        return _refused(f"a side may be undefined on the domain: {undefined}", c.stage)
    if isinstance(c, StructuralCertificate):
        if c.lhs == c.rhs and c.relation in ("=", "<=", ">="):
            return _held(Verdict.PROVED, "both sides are the same expression", c.stage, c)
        return _refused("the sides are not the same tree", c.stage)
    if isinstance(c, SymbolicCertificate):
        return _accept_symbolic(c, domain)
    if isinstance(c, BoxCertificate):
        return _accept_box(c, domain)
    if isinstance(c, CountingCertificate):          # issue #20, section at the end
        return _accept_counting(c, domain)
    if isinstance(c, InductionCertificate):
        return _accept_induction(c, domain)
    return _refused(f"no acceptance rule for {type(c).__name__}", c.stage)


def _accept_symbolic(c: SymbolicCertificate, domain: Domain) -> StepResult:
    mapping = dict(c.mapping)
    check_declarations(set(mapping.values()), Domain.of(
        {mapping[s]: d for s, d in domain.hypotheses if s in mapping}))
    back = {v: k for k, v in mapping.items()}
    diff = (c.lhs - c.rhs).xreplace(mapping)
    if c.relation == "=":
        if c.difference != 0 or not _simplifies_to(diff, sp.S.Zero, c.method):
            return _refused("lhs - rhs does not simplify to 0", c.stage)
        return _held(Verdict.PROVED, f"difference simplifies to 0 ({c.method})", c.stage, c)
    strict = c.relation in ("<", ">")
    margin = margin_of(c.lhs, c.rhs, c.relation)
    if c.chain:
        wanted = _monotone_facts(margin, strict, c.chain, domain)
        if isinstance(wanted, str):
            return _refused(wanted, c.stage)
    elif c.substitution:
        wanted = _reparametrised_facts(margin, strict, c.substitution, domain)
        if isinstance(wanted, str):
            return _refused(wanted, c.stage)
    elif c.reduced:
        # rewritings the kernel does not check: confirm the original margin itself
        wanted = [sign_fact(margin, strict, c.method)]
    else:
        D = c.difference.xreplace(mapping)
        if not _simplifies_to(diff, D, c.method):
            return _refused("lhs - rhs does not simplify to the stated difference", c.stage)
        sign = -1 if c.relation in ("<", "<=") else 1
        wanted = [sign_fact((sign * D).xreplace(back), strict, c.method)]
    confirmed = []
    for fact in wanted + list(c.facts):
        how = confirm(fact, domain)
        if not how:
            return _refused(f"the fact {fact.text()} ({fact.source}) is not confirmed "
                            "by a second method", c.stage)
        confirmed.append(Fact(fact.expression, fact.property, fact.source, fact.domain, how))
    what = c.method if (c.chain or c.substitution or c.reduced) else \
        f"sign of lhs - rhs decided under the hypotheses ({c.method})"
    return _held(Verdict.PROVED, f"{what}; its facts confirmed a second way: " +
                 "; ".join(f.confirmed_by for f in confirmed), c.stage, c, confirmed)


def _monotone_facts(margin, strict, chain, domain: Domain):
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


def _reparametrised_facts(margin, strict, substitution, domain: Domain):
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


def _rewritings():
    """The rewritings the kernel re-runs, by the name a certificate gives: SymPy's simplify
    after identities of symdp's special functions that hold everywhere (Phi = erfc(-x/sqrt 2)/2,
    Phi(-x) = 1 - Phi(x)) -- trusted, with SymPy's simplify, for expressions defined on the
    domain."""
    from ..core.special import to_erfc  # local: the proof package stays free of cycles
    from ..tradeoff.solve import phi_normal_form

    return {"simplify": sp.simplify,
            "simplify after Phi -> erfc": lambda d: sp.simplify(to_erfc(d)),
            "Phi identities + simplify": lambda d: sp.simplify(phi_normal_form(sp.expand(d))),
            "piecewise_fold + simplify": lambda d: sp.simplify(sp.piecewise_fold(to_erfc(d)))}


def _simplifies_to(a, b, method: str = "simplify") -> bool:
    """The trusted equality: ``a == b`` as trees, or the named rewriting of ``a`` is ``b``
    (or of ``a - b`` is 0)."""
    if a == b:
        return True
    rewrite = _rewritings().get(method)
    if rewrite is None:
        return False
    try:
        return rewrite(a) == b or rewrite(a - b) == 0
    except Exception:  # noqa: BLE001 - not shown equal
        return False


def _accept_finite(c: FiniteCertificate, domain: Domain) -> StepResult:
    enumerated = dict(c.values)
    sets = domain.sets
    short, ranged = [], []
    for s in sorted(c.lhs.free_symbols | c.rhs.free_symbols | set(enumerated), key=str):
        values = {sp.Integer(v) if isinstance(v, int) else v for v in enumerated.get(s, ())}
        if s not in sets:
            return _refused(f"{s} has no stated set", c.stage)
        inside = [v for v in values if sets[s].contains(v) is sp.true]
        missing = _first_missing(sets[s], values)
        if missing is not None:
            short.append((s, inside))
            ranged.append(f"{s.name} <= {max(inside)}" if inside and sets[s].sup is sp.oo
                          else f"{s.name} in {{{', '.join(map(str, sorted(inside)))}}}")
    if c.cases <= 0:
        return _refused("no case was evaluated", c.stage)
    if short:
        token = Acceptance(Verdict.ENUMERATED_ON_RANGE, c, seal=_SEAL)
        return StepResult(Verdict.ENUMERATED_ON_RANGE, f"exactly for {', '.join(ranged)} "
                          f"({c.cases} cases): a sample of an infinite domain, evidence; "
                          f"{c.detail}", c.stage, points=c.cases, acceptance=token)
    verdict = Verdict.ENUMERATED if c.how == "exact" and c.stage == "enumeration" \
        else Verdict.CERTIFIED
    return _held(verdict, c.detail, c.stage, c, points=c.cases)


def _first_missing(domain_set, values):
    """A point of ``domain_set`` not among ``values`` (None: all of it is enumerated)."""
    if isinstance(domain_set, sp.FiniteSet):
        return next((v for v in domain_set if v not in values), None)
    if isinstance(domain_set, sp.Range) and domain_set.size.is_finite:
        return next((v for v in domain_set if v not in values), None)
    if isinstance(domain_set, sp.Intersection):
        lo, hi = domain_set.inf, domain_set.sup
        if lo.is_finite and hi.is_finite and all(
                getattr(a, "is_subset", None) and a.is_subset(sp.S.Integers) for a in [domain_set]):
            return next((v for v in sp.Range(sp.ceiling(lo), sp.floor(hi) + 1)
                         if domain_set.contains(v) is sp.true and v not in values), None)
    return domain_set.inf if domain_set.inf.is_finite else sp.oo  # infinite or not integer


def _accept_box(c: BoxCertificate, domain: Domain) -> StepResult:
    sets = domain.sets
    covered = {}
    for symbol, lo, hi, integer, transform in c.coordinates:
        lo, hi = fraction(lo), fraction(hi)
        if transform is None:
            covered[symbol] = sp.Interval(sp.Rational(lo.numerator, lo.denominator),
                                          sp.Rational(hi.numerator, hi.denominator))
        else:
            image = _transform_image(symbol, transform, lo, hi)
            if image is None:
                return _refused(f"the change of variables {symbol} = {transform} is not one "
                                "the kernel knows onto an unbounded range", c.stage)
            covered[symbol] = image
    for symbol, start, argument in c.tails:
        if not argument:
            return _refused(f"the tail {symbol} >= {start} has no argument", c.stage)
        covered[symbol] = sp.Union(covered.get(symbol, sp.S.EmptySet),
                                   sp.Interval(sp.Integer(start), sp.oo))
    for symbol in c.lhs.free_symbols | c.rhs.free_symbols:
        have = covered.get(symbol)
        if have is None or sets.get(symbol) is None or sets[symbol].is_subset(have) is not True:
            return _refused(f"the boxes do not cover {symbol} in {sets.get(symbol)} "
                            f"(covered: {have})", c.stage)
    for fact in c.facts:
        if not confirm(fact, domain):
            return _refused(f"the fact {fact.text()} is not confirmed", c.stage)
    return _held(Verdict.CERTIFIED, c.detail, c.stage, c, worst_margin=c.smallest_margin)


def _transform_image(symbol, transform, lo: Fraction, hi: Fraction):
    """The image of ``t in [lo, hi]`` (hi = 1 open) under ``a + t/(1-t)`` or ``b - t/(1-t)``."""
    t = next(iter(transform.free_symbols), None)
    if t is None or (lo, hi) != (0, 1):
        return None
    for sign in (1, -1):
        a = sp.simplify(transform - sign * t / (1 - t))
        if a.is_Rational:
            return sp.Interval(a, sp.oo) if sign == 1 else sp.Interval(-sp.oo, a)
    return None


# ------------------------------------------------------------------ declarations

_PREDICATES = {
    "positive": lambda d: d.is_subset(sp.Interval.open(0, sp.oo)),
    "nonnegative": lambda d: d.is_subset(sp.Interval(0, sp.oo)),
    "negative": lambda d: d.is_subset(sp.Interval.open(-sp.oo, 0)),
    "nonpositive": lambda d: d.is_subset(sp.Interval(-sp.oo, 0)),
    "integer": lambda d: d.is_subset(sp.S.Integers),
    "zero": lambda d: d.is_subset(sp.FiniteSet(0)),
    "nonzero": lambda d: 0 not in d,
    "real": lambda d: d.is_subset(sp.S.Reals),
    "even": lambda d: _every_integer(d, lambda v: v % 2 == 0),
    "odd": lambda d: _every_integer(d, lambda v: v % 2 == 1),
}


def _every_integer(d, test):
    """True when the set is a finite set of integers that all pass ``test`` (None otherwise)."""
    if not (d.is_subset(sp.S.Integers) is True and d.is_finite_set):
        return None
    return all(test(int(v)) for v in d)


def check_declarations(symbols, domain: Domain) -> None:
    """Every assumption a Symbol was declared with holds on its stated set; else
    DerivationError naming the symbol, the assumption and the set."""
    sets = domain.sets
    for s in sorted(symbols, key=str):
        if s not in sets:
            continue
        for name, holds in _PREDICATES.items():
            if s.assumptions0.get(name) is True and holds(sets[s]) is not True:
                raise DerivationError(
                    f"the symbol {s.name} is declared {name}=True, but its stated domain is "
                    f"{sp.sstr(sets[s])}, which contains values that are not {name}: declare "
                    f"it without the assumption or state the domain it implies")


# ------------------------------------------------------------------ definedness

def hazards(expr, where=(), domain: Domain | None = None) -> list:
    """The facts under which ``expr`` is defined: a non-zero base under a negative integer
    power, a non-negative base under a fractional power (positive when also negative), a
    positive log argument; a power with a symbolic exponent ``b**k`` needs ``b > 0`` unless
    ``k > 0`` on ``domain`` (then ``0**k = 0``; ``b >= 0`` for a non-integer k).  Piecewise conditions are looked into as expressions; a hazard inside a
    branch is needed only where its condition holds and the earlier ones fail (``where``)."""
    found = []
    if isinstance(expr, sp.Piecewise):
        earlier = ()
        for branch, cond in expr.args:
            found += hazards(cond, where + earlier, domain) if isinstance(cond, sp.Basic) else []
            relational = isinstance(cond, sp.core.relational.Relational)
            found += hazards(branch, where + earlier + ((cond,) if relational else ()), domain)
            if not relational:
                break
            earlier += (cond.negated,)
        return list(dict.fromkeys(found))
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return found
    for arg in expr.args:
        found += hazards(arg, where, domain)
    e, dom = expr, (Domain((), (), where) if where else None)
    if isinstance(e, sp.Pow) and e.base.free_symbols:
        if not e.exp.is_number:
            k_positive = domain is not None and confirm(Fact(e.exp, "positive"), domain)
            if not k_positive:
                found.append(Fact(e.base, "positive", "definedness: exponent", dom))
            elif not confirm(Fact(e.exp, "integer"), domain):
                found.append(Fact(e.base, "nonnegative", "definedness: exponent", dom))
        elif e.exp.is_negative:
            found.append(Fact(e.base, "nonzero" if e.exp.is_integer else "positive",
                              "definedness", dom))
        elif not e.exp.is_integer:
            found.append(Fact(e.base, "nonnegative", "definedness", dom))
    elif isinstance(e, sp.log) and e.args[0].free_symbols:
        found.append(Fact(e.args[0], "positive", "definedness", dom))
    return list(dict.fromkeys(found))


def defined_on(sides, domain: Domain) -> str:
    """"" when every hazard of ``sides`` is confirmed on ``domain``, else what is not."""
    for side in sides:
        if side.has(sp.nan) or side.has(sp.zoo):
            return "a side contains nan or zoo"
        for fact in hazards(side, domain=domain):
            if not confirm(fact, domain):
                return f"{fact.text()} is not shown on the domain"
    return ""


def undefined_at(sides, domain: Domain) -> str:
    """A point of ``domain`` where a side (as written) is undefined, in words ("" if none is
    found): a hazard that z3 refutes with a point at which the expression really is
    undefined (checked exactly)."""
    for name, side in zip(("lhs", "rhs"), sides):
        for fact in hazards(side, domain=domain):
            if fact.source != "definedness":
                continue   # b**k undefined at b = 0 only for some k: not named as a point
            dom = _domain_of(fact, domain)
            try:
                dom = dom.restricted_to(fact.expression.free_symbols)
                ok, point = _z3_decide(fact, dom)
            except Exception:  # noqa: BLE001 - no point found
                continue
            if ok or point is None:
                continue
            value = sp.simplify(fact.expression.xreplace(point))
            if value.is_Rational and not _holds_exactly(value, fact.property):
                where = ", ".join(f"{s} = {v}" for s, v in point.items())
                return (f"the {name} is undefined at {where}, a point of the stated domain "
                        f"({sp.sstr(fact.expression)} = {value}, needed {fact.text()})")
    return ""


# ------------------------------------------------------------------ facts

def confirm(fact: Fact, domain: Domain) -> str:
    """How ``fact`` was confirmed ("" when no method confirms it): exact evaluation on a
    finite domain, z3, or Arb balls over the sub-boxes of a bounded domain."""
    dom = _domain_of(fact, domain)
    dom = dom.restricted_to(fact.expression.free_symbols) if fact.expression.free_symbols \
        else Domain(())
    if not fact.source.startswith("definedness") and defined_on((fact.expression,), dom):
        return ""   # a fact about an expression not defined on its whole domain
    for method in (_by_exact_points, _by_z3, _by_balls, _by_choose_pos):  # last: issue #20
        try:
            how = method(fact, dom)
        except Exception:  # noqa: BLE001 - a method that cannot run does not confirm
            how = ""
        if how:
            return how
    return ""


def _domain_of(fact: Fact, domain: Domain) -> Domain:
    """The fact's own domain; one without sets (a hazard inside a Piecewise branch) is the
    step's domain narrowed by its conditions."""
    if fact.domain is None:
        return domain
    if not fact.domain.hypotheses:
        return Domain(domain.hypotheses, domain.constraints,
                      tuple(domain.side_conditions) + tuple(fact.domain.side_conditions))
    return fact.domain


def _holds_exactly(value, prop: str) -> bool:
    if prop == "integer":
        return value.is_Integer
    if not value.is_Rational:
        return False
    return {"positive": value > 0, "nonnegative": value >= 0, "negative": value < 0,
            "nonpositive": value <= 0, "nonzero": value != 0, "zero": value == 0}[prop]


def _by_exact_points(fact: Fact, dom: Domain) -> str:
    sets = dom.sets
    if any(not (isinstance(d, sp.FiniteSet) or (isinstance(d, sp.Range) and d.size.is_finite))
           for d in sets.values()):
        return ""
    size = 1
    for d in sets.values():
        size *= len(d)
    if size > FINITE_POINTS:
        return ""
    count = 0
    for values in itertools.product(*[list(d) for d in sets.values()]):
        point = dict(zip(sets, values))
        if not all(bool(c.xreplace(point)) for c in dom.conditions):
            continue
        value = sp.nsimplify(fact.expression.xreplace(point).doit()) \
            if not fact.expression.xreplace(point).is_Rational else fact.expression.xreplace(point)
        if not _holds_exactly(sp.simplify(value), fact.property):
            return ""
        count += 1
    return f"exact evaluation at all {count} points"


def _by_z3(fact: Fact, dom: Domain) -> str:
    return "z3 (no counterexample: unsat)" if _z3_decide(fact, dom)[0] else ""


def _z3_decide(fact: Fact, dom: Domain):
    """``(True, None)`` when z3 shows the fact on the domain; ``(False, point)`` with a point
    of the domain where it fails (exact rationals), or ``(False, None)`` when undecided."""
    import z3

    names = {}
    sets = dom.sets
    for s in fact.expression.free_symbols | set().union(*[c.free_symbols for c in dom.conditions]):
        if s not in sets:
            return False, None
        # an integer parameter is an Int seen as a Real: / is then division, not floor division
        names[s] = z3.ToReal(z3.Int(s.name)) if sets[s].is_subset(sp.S.Integers) is True \
            else z3.Real(s.name)
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
    if atoms is not None and e.free_symbols and e.is_real is not False:
        if e not in atoms:
            atoms[e] = z3.Real(f"atom_{len(atoms)}")
        return atoms[e]
    raise ValueError(f"outside z3's fragment: {type(e).__name__}")


def _enclosure(e, hull):
    """Exact rational bounds ``(lo, hi)`` (None: unbounded or unknown) of ``e`` over the box
    ``hull`` {symbol: (inf, sup)}, by mpmath's interval arithmetic (outward rounding)."""
    import mpmath
    from mpmath import iv

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
        raise ValueError(type(e).__name__)

    def exact(x):
        x = mpmath.mpf(x)
        if not mpmath.isfinite(x):
            return None
        man, exp = x.man_exp
        return Fraction(int(man)) * (Fraction(2) ** int(exp))

    saved = iv.prec
    try:
        iv.prec = 96   # scoped: restored below (mpmath's iv context has no workprec)
        value = ev(e)
        lo, hi = exact(value.a), exact(value.b)
    except Exception:  # noqa: BLE001 - no enclosure: the atom stays unbounded
        return None, None
    finally:
        iv.prec = saved
    return lo, hi


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


def _by_balls(fact: Fact, dom: Domain) -> str:
    from ..numeric.ball_compiler import compile_ball
    from ..numeric.balls import interval, working_bits

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


# ================================================================== issue #20: counting, induction
#
# The acceptance of CountingCertificate and InductionCertificate.  What is trusted here beyond
# the rest of the kernel: the lemma checkers of symdp.core.counting (each a pattern and a
# cardinality formula), the exact enumeration of the atoms (symdp.core.enumerable), and z3 on
# the real relaxation of the integer parameters (unsatisfiable over the reals implies
# unsatisfiable over the integers).

from .certificates import CountingCertificate, InductionCertificate, ResidualNode  # noqa: E402

#: the atom lemmas: name -> (relation the fact may state, how the premise must read)
_ATOM_LEMMAS = ("pow_pos", "pow_le_one", "one_le_pow_of_one_le", "pow_lt_one", "one_lt_pow",
                "pow_lt_pow_left", "Nat.choose_pos", "Nat.factorial_pos")


_REAL_Z3: dict = {}


def _real_z3_entails(domain: Domain, conditions, expr, relation) -> bool:
    """z3 proves ``expr REL 0`` from the domain's sets and conditions (reals relaxation);
    cached (a pure function of its arguments)."""
    key = (domain, tuple(conditions), expr, relation)
    try:
        return _REAL_Z3[key]
    except (KeyError, TypeError):
        pass
    value = _real_z3_entails_uncached(domain, conditions, expr, relation)
    try:
        if len(_REAL_Z3) > 20_000:
            _REAL_Z3.clear()
        _REAL_Z3[key] = value
    except TypeError:
        pass
    return value


def _real_z3_entails_uncached(domain: Domain, conditions, expr, relation) -> bool:
    import z3

    conds = list(domain.conditions) + list(conditions)
    symbols = set(expr.free_symbols).union(*[c.free_symbols for c in conds]) if conds \
        else set(expr.free_symbols)
    sets = domain.sets
    names = {s: z3.Real(f"{s.name}_{id(s)}") for s in symbols}
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


_RELATION_OF = {sp.LessThan: "<=", sp.StrictLessThan: "<", sp.GreaterThan: ">=",
                sp.StrictGreaterThan: ">", sp.Eq: "=", sp.Ne: "!="}


def _as_margin(relational):
    """``(lhs - rhs, relation)`` of a Relational (an And is refused)."""
    return relational.lhs - relational.rhs, _RELATION_OF[type(relational)]


def _atom_fact_ok(fact, lemma, premise, atoms: dict, domain: Domain, conditions) -> bool:
    """The fact on atoms is what ``lemma`` concludes from ``premise``, and the premise holds."""
    if lemma not in _ATOM_LEMMAS:
        return False
    premises = premise.args if isinstance(premise, sp.And) else (premise,)
    for p in premises:
        margin, rel = _as_margin(p)
        if not _real_z3_entails(domain, conditions, margin, rel):
            return False
    rel = _RELATION_OF[type(fact)]
    a, b = fact.lhs, fact.rhs
    value = atoms.get(a)
    if value is None:
        return False
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
    if not _real_z3_entails(domain, conditions, exp, ">"):
        return False
    if not _real_z3_entails(domain, conditions, base, ">"):
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


def residual_error(node: ResidualNode, domain: Domain, lhs, relation, rhs, conditions=()) -> str:
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
    atoms = dict(node.atoms)
    atom_domain = Domain(domain.hypotheses + tuple((a, sp.Interval.open(0, sp.oo)) for a in atoms),
                         domain.constraints, tuple(domain.side_conditions) + tuple(conditions))
    counting_atoms = {a: v for a, v in atoms.items() if isinstance(v, (sp.binomial, sp.factorial))}
    power_atoms = {a: v for a, v in atoms.items() if a not in counting_atoms}
    rewrites = dict(node.rewrites)
    for original, value in rewrites.items():     # each rewrite on its own (Pascal's rules)
        if not isinstance(original, (sp.binomial, sp.factorial)) or \
                not _simplifies_to(original, value.xreplace(counting_atoms)):
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
            if not _atom_fact_ok(fact, lemma, premise, atoms, domain,
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
        if _real_z3_entails(atom_domain, tuple(conditions) + tuple(facts), node.reduced, relation):
            return ""
        return "z3 does not confirm the reduced relation"
    return f"unknown method {node.method!r}"


def _equal_over_positive_bases(a, b, domain: Domain) -> bool:
    """``a = b`` where every exponent that is not a number is an integer and every base under
    one is confirmed positive on the domain, so that (xy)^e = x^e y^e and x^(e + f) = x^e x^f
    hold (``mul_pow``, ``div_pow``, ``pow_add``): both sides are expanded that way, then
    compared by the trusted equality, or as rational functions of one indeterminate per
    (base factor, exponent)."""
    if _simplifies_to(a, b):
        return True
    powers = [p for e in (a, b) for p in sp.sympify(e).atoms(sp.Pow) if not p.exp.is_number]
    if any(not p.exp.is_integer for p in powers):
        return False      # (xy)^e = x^e y^e for every real x, y needs an integer e
    for base in {p.base for p in powers}:
        if not confirm(Fact(base, "positive", "base of a symbolic power"), domain):
            return False

    def split(e):
        return sp.expand_power_base(sp.expand_power_exp(sp.sympify(e)), force=True)
    if _simplifies_to(split(a), split(b)):
        return True
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
    fa, fb = flatten(a), flatten(b)
    return fa is not None and fb is not None and sp.cancel(sp.together(fa - fb)) == 0


def _substituted(expr, atoms: dict):
    for _ in range(4):
        expr = expr.xreplace(atoms)
    return expr


def _accept_counting(c: CountingCertificate, domain: Domain) -> StepResult:
    from ..core import counting as ct

    replace = {}
    for atom, derived in c.atoms:
        why = ct.check_derived(derived)
        if why:
            return _refused(f"the counting derivation of {atom} fails: {why}", c.stage)
        replace[atom] = derived.value
    if not c.checks:
        return _refused("no small case to check the lemma derivation against enumeration",
                        c.stage)
    for point in c.checks:
        p = dict(point)
        for atom, derived in c.atoms:
            a = atom.xreplace(p)
            if not getattr(a, "is_enumerable", False):
                return _refused(f"{a} is not enumerable at {p}", c.stage)
            try:
                enumerated = a.enumerate()
            except ValueError as exc:     # InvalidParameterError: outside the quantity's domain
                return _refused(f"{a} cannot be enumerated at {p}: {exc}", c.stage)
            closed = sp.nsimplify(derived.value.xreplace(p).doit())
            if sp.simplify(enumerated - closed) != 0:
                return _refused(f"the lemma derivation disagrees with enumeration at {p}: "
                                f"{atom} enumerates to {enumerated}, its closed form gives "
                                f"{closed}", c.stage)
    lhs, rhs = c.lhs.xreplace(replace), c.rhs.xreplace(replace)
    from ..core.enumerable import Enumerated

    if lhs.atoms(Enumerated) or rhs.atoms(Enumerated):
        return _refused("an enumerated atom has no derivation", c.stage)
    why = residual_error(c.residual, domain, lhs, c.relation, rhs)
    if why:
        return _refused(f"the algebra after the counts: {why}", c.stage)
    lemmas = sorted({a.lemma for _, d in c.atoms for a in ct.applications_of(d)})
    return _held(Verdict.PROVED, f"counting lemmas ({', '.join(lemmas)}) give the closed forms "
                 f"of {len(c.atoms)} enumerated quantit{'y' if len(c.atoms) == 1 else 'ies'}, "
                 f"agreeing with enumeration at {len(c.checks)} small cases; the algebra: "
                 f"{describe(c.residual)}", c.stage, c)


def _accept_induction(c: InductionCertificate, domain: Domain) -> StepResult:
    v, start, h = c.variable, sp.sympify(c.start), c.hypothesis
    sets = domain.sets
    if v not in sets or not sets[v].is_subset(sp.S.Integers) or sets[v].inf != start or \
            sets[v].sup is not sp.oo:
        return _refused(f"induction on {v} needs its set to be the integers >= {start}", c.stage)
    if h is None or h in c.lhs.free_symbols | c.rhs.free_symbols or h in sets:
        return _refused("the hypothesis symbol must be fresh", c.stage)
    # the domain of the other parameters (conditions that involve v are refused: they would
    # need their own argument at v = start and v + 1)
    if any(v in cond.free_symbols for cond in domain.conditions):
        return _refused(f"a constraint involves {v}; induction here needs none", c.stage)
    others = Domain(tuple((s, d) for s, d in domain.hypotheses if s != v), domain.constraints,
                    domain.side_conditions)
    why = residual_error(c.base, others, c.lhs.xreplace({v: start}).doit(), c.relation,
                         c.rhs.xreplace({v: start}).doit())
    if why:
        return _refused(f"base case {v} = {start}: {why}", c.stage)
    # the peeled form must be lhs(v + 1) once the hypothesis symbol is lhs(v)
    if not _simplifies_to(c.lhs.xreplace({v: v + 1}).doit(), c.peeled.xreplace({h: c.lhs}).doit()):
        return _refused("the peeled form is not lhs at v + 1", c.stage)
    step_domain = Domain(domain.hypotheses, domain.constraints, domain.side_conditions)
    hypothesis = {"=": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}[c.relation](
        h, c.rhs, evaluate=False)
    why = residual_error(c.step, step_domain, c.peeled, c.relation, c.rhs.xreplace({v: v + 1}),
                         (hypothesis,))
    if why:
        return _refused(f"inductive step: {why}", c.stage)
    return _held(Verdict.PROVED, f"by induction on {v} from {start}: base case "
                 f"({_describe_node(c.base)}), step P({v}) => P({v} + 1) "
                 f"({_describe_node(c.step)})", c.stage, c)


def _describe_node(node) -> str:
    return describe(node)


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
            "split": "case split on Max/Min", "decided": "extremum decided"}
    out = ", ".join(text[m] for m in sorted(methods))
    if lemmas:
        out += "; atom lemmas " + ", ".join(sorted(lemmas))
    return out


def _by_choose_pos(fact: Fact, dom: Domain) -> str:
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
            return integer(m) and integer(K) and _real_z3_entails(dom, (), K, ">=") and \
                _real_z3_entails(dom, (), m - K, ">=")
        if isinstance(e, sp.factorial):
            return integer(e.args[0]) and _real_z3_entails(dom, (), e.args[0], ">=")
        return False

    return "Nat.choose_pos, Nat.factorial_pos (bounds by z3)" if positive(fact.expression) else ""
