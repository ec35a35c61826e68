r"""The trusted kernel of the check cascade: the only code that says a step *holds*.

The stages are untrusted proposers that return certificates (:mod:`symdp.proof.certificates`).
:func:`accept` turns a certificate into PROVED, CERTIFIED or ENUMERATED (or the evidence
ENUMERATED_ON_RANGE) only after checking, itself (issue #19):

* **declarations** -- every Symbol's own assumptions (``positive=True``...) hold on its stated
  set, else :class:`~symdp.core.errors.DerivationError` naming them (:func:`check_declarations`);
* **coverage** -- the certificate's set contains the step's whole :class:`Domain`: a finite
  set must hold every admissible point, integer lattice included (part of an infinite set is
  ENUMERATED_ON_RANGE: evidence); the search boxes of a ball search (exact rational ends,
  changes of variables read here) and its integer tails must contain every parameter's set;
* **definedness** -- both sides, as written, are defined on the whole domain (every
  denominator non-zero, log argument positive, fractional power's base non-negative:
  :func:`hazards`), each condition confirmed as a fact; else UNDECIDED naming it;
* **facts** -- every sign or integrality fact a certificate relies on, and those the kernel
  re-derives from a monotonicity or reparametrisation argument, is confirmed a second way
  (:func:`confirm`): exact evaluation, z3, Arb balls over sub-boxes, binomial positivity;
* **the work itself** -- every case of a finite certificate is re-evaluated exactly (at
  most 4096), and every leaf of a box certificate's search trees is replayed with the
  kernel's own balls (:mod:`.replay`); continuity of a trade-off function's piece is accepted
  for expressions built from functions continuous where defined, defined on the domain.

Modules: this one seals; :mod:`.definedness` lists where an expression is defined;
:mod:`.deciders` confirms facts (and holds the trusted equality);
:mod:`.replay` re-evaluates cases and leaves and re-derives facts; :mod:`.rules` judges the
counting and induction certificates of issue #20 (a reason or nothing, never a verdict).

What the kernel trusts, and nothing else: SymPy's ``simplify`` (and ``diff``, ``factor``)
for equalities of expressions defined on the domain, re-run here, never read from a
certificate; SymPy's exact arithmetic on rationals and its set operations on intervals and
ranges; python-flint's Arb balls, through :mod:`symdp.numeric.ball_compiler`; z3; mpmath's
interval enclosures of the atoms z3 does not know; the ``enumerate`` definitions of
Enumerated atoms and the counting lemmas of :mod:`symdp.core.counting`.  Two stage arguments
are still taken on the stage's word, named in the certificate's detail: a box search of a
relation *reduced* by :mod:`symdp.proof.cascade.certified.reduce` (its leaves are replayed,
the monotone maps of the reduction are not), and that a Piecewise margin takes one branch on
each open piece between the exact breakpoints of :mod:`~symdp.proof.cascade.certified.pieces`
(the leaves and the breakpoints themselves are checked here).  Every budget is counted in
work -- z3's ``rlimit``, sub-boxes, leaves, points -- never in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ...core.errors import DerivationError
from ..certificates import (BoxCertificate, Certificate, ContinuityCertificate,
                            CountingCertificate, Domain, Fact, FiniteCertificate,
                            InductionCertificate, LemmaCertificate, MinorantCertificate,
                            StructuralCertificate, SymbolicCertificate, margin_of, sign_fact)
from ..verdict import StepResult, Verdict
from . import deciders, replay
from .definedness import defined_on, hazards  # noqa: F401 - the kernel's definedness rules

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
    if isinstance(c, ContinuityCertificate):
        return _accept_continuity(c, domain)
    if isinstance(c, (LemmaCertificate, MinorantCertificate)):      # issue #28
        from . import convex   # after this module: the rules read confirm and defined_on
        why, detail = convex.judge(c, domain)
        return _refused(why, c.stage) if why else _held(Verdict.PROVED, detail, c.stage, c)
    if isinstance(c, (CountingCertificate, InductionCertificate)):   # issue #20
        from . import rules   # after this module: the rules read confirm and defined_on
        why, detail = rules.judge(c, domain)
        return _refused(why, c.stage) if why else _held(Verdict.PROVED, detail, c.stage, c)
    return _refused(f"no acceptance rule for {type(c).__name__}", c.stage)


def _accept_symbolic(c: SymbolicCertificate, domain: Domain) -> StepResult:
    mapping = dict(c.mapping)
    check_declarations(set(mapping.values()), Domain.of(
        {mapping[s]: d for s, d in domain.hypotheses if s in mapping}))
    back = {v: k for k, v in mapping.items()}
    diff = (c.lhs - c.rhs).xreplace(mapping)
    if c.relation == "=":
        if c.difference != 0 or not deciders.simplifies_to(diff, sp.S.Zero, c.method):
            return _refused("lhs - rhs does not simplify to 0", c.stage)
        return _held(Verdict.PROVED, f"difference simplifies to 0 ({c.method})", c.stage, c)
    strict = c.relation in ("<", ">")
    margin = margin_of(c.lhs, c.rhs, c.relation)
    if c.chain:
        wanted = replay.monotone_facts(margin, strict, c.chain, domain)
        if isinstance(wanted, str):
            return _refused(wanted, c.stage)
    elif c.substitution:
        wanted = replay.reparametrised_facts(margin, strict, c.substitution, domain)
        if isinstance(wanted, str):
            return _refused(wanted, c.stage)
    elif c.reduced:
        # rewritings the kernel does not check: confirm the original margin itself
        wanted = [sign_fact(margin, strict, c.method)]
    else:
        D = c.difference.xreplace(mapping)
        if not deciders.simplifies_to(diff, D, c.method):
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
    points = replay.cases(c.values, (c.lhs, c.rhs), domain)   # every case, evaluated here
    if isinstance(points, str) or not points:
        return _refused(points or "no case to evaluate", c.stage)
    how, why = replay.decide_cases(c.lhs, c.rhs, c.relation, points)
    if why:
        return _refused(why, c.stage)
    if short:
        token = Acceptance(Verdict.ENUMERATED_ON_RANGE, c, seal=_SEAL)
        return StepResult(Verdict.ENUMERATED_ON_RANGE, f"exactly for {', '.join(ranged)} "
                          f"({len(points)} cases): a sample of an infinite domain, evidence; "
                          f"{c.detail}", c.stage, points=len(points), acceptance=token)
    verdict = Verdict.ENUMERATED if how == "exact" and c.stage == "enumeration" \
        else Verdict.CERTIFIED
    return _held(verdict, f"{c.detail}; every case re-evaluated by the kernel ({how})",
                 c.stage, c, points=len(points))


def _first_missing(domain_set, values):
    """A point of ``domain_set`` not among ``values`` (None: all of it is enumerated)."""
    if isinstance(domain_set, sp.FiniteSet) or (isinstance(domain_set, sp.Range)
                                                and domain_set.size.is_finite):
        return next((v for v in domain_set if v not in values), None)
    if isinstance(domain_set, sp.Intersection) and domain_set.is_subset(sp.S.Integers):
        lo, hi = domain_set.inf, domain_set.sup
        if lo.is_finite and hi.is_finite:
            return next((v for v in sp.Range(sp.ceiling(lo), sp.floor(hi) + 1)
                         if domain_set.contains(v) is sp.true and v not in values), None)
    return domain_set.inf if domain_set.inf.is_finite else sp.oo  # infinite or not integer


def _accept_box(c: BoxCertificate, domain: Domain) -> StepResult:
    """Coverage of the main claim's search boxes (and tails), then every search replayed
    leaf by leaf (:func:`.replay.replay_search`), then the facts."""
    def claim(q):
        return q.piece_of or (q.lhs, q.relation, q.rhs)
    main = [q for q in c.searches if claim(q) == claim(c.searches[0])] if c.searches else []
    if len(main) > 1 and not all(q.piece_of and len(q.coordinates) == 1 for q in main):
        return _refused("several searches of one claim that are not its pieces", c.stage)
    covered = {}
    for q in main:
        for symbol, have in replay.covered(q).items():
            if have is None:
                return _refused(f"a change of variables of {symbol} the kernel does not "
                                "know", c.stage)
            covered[symbol] = sp.Union(covered.get(symbol, sp.S.EmptySet), have)
    for symbol, start, argument in c.tails:
        if not argument:
            return _refused(f"the tail {symbol} >= {start} has no argument", c.stage)
        covered[symbol] = sp.Union(covered.get(symbol, sp.S.EmptySet),
                                   sp.Interval(sp.Integer(start), sp.oo))
    sets = domain.sets
    for symbol in c.lhs.free_symbols | c.rhs.free_symbols:
        have = covered.get(symbol)
        if have is None or sets.get(symbol) is None or sets[symbol].is_subset(have) is not True:
            return _refused(f"the boxes do not cover {symbol} in {sets.get(symbol)} "
                            f"(covered: {have})", c.stage)
    for q in c.searches:
        why = replay.replay_search(q, domain, c.bits) or \
            (replay.piece_ends(q, domain) if q.piece_of else "")
        if why:
            return _refused(f"a leaf does not replay: {why}", c.stage)
    for fact in c.facts:
        if not confirm(fact, domain):
            return _refused(f"the fact {fact.text()} is not confirmed", c.stage)
    leaves = sum(len(q.leaves) for q in c.searches)
    return _held(Verdict.CERTIFIED, f"{c.detail}; {leaves} leaves re-evaluated by the kernel",
                 c.stage, c, worst_margin=c.smallest_margin)


def continuous_where_defined() -> tuple:
    """The nodes continuous at every point where they are defined."""
    from ...core.special import Phi   # local: the proof package stays free of cycles

    return (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.Abs, sp.Max, sp.Min, sp.erf, sp.erfc,
            Phi, sp.sin, sp.cos)


def _accept_continuity(c: ContinuityCertificate, domain: Domain) -> StepResult:
    """Built only from :func:`continuous_where_defined` nodes, and defined on the whole
    domain (checked before, by :func:`defined_on`): continuous there."""
    known = continuous_where_defined()
    odd = next((e for e in sp.preorder_traversal(c.lhs)
                if not (e.is_Atom or isinstance(e, known))), None)
    if c.lhs != c.rhs or c.relation != "=" or odd is not None:
        return _refused(f"{getattr(odd, 'func', c.lhs)} is not a function the kernel knows "
                        "to be continuous where it is defined", c.stage)
    return _held(Verdict.PROVED, f"continuous in {c.variable}: built from functions "
                 "continuous where they are defined, and defined on the whole domain",
                 c.stage, c)


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


# ------------------------------------------------------------------ facts

def confirm(fact: Fact, domain: Domain) -> str:
    """How ``fact`` was confirmed ("" when no method confirms it): exact evaluation on a
    finite domain, z3, or Arb balls over the sub-boxes of a bounded domain."""
    dom = deciders.domain_of(fact, domain)
    dom = dom.restricted_to(fact.expression.free_symbols) if fact.expression.free_symbols \
        else Domain(())
    if not fact.source.startswith("definedness") and defined_on((fact.expression,), dom):
        return ""   # a fact about an expression not defined on its whole domain
    for method in (deciders.by_exact_points, deciders.by_z3, deciders.by_balls,
                   deciders.by_choose_pos):
        try:
            how = method(fact, dom)
        except Exception:  # noqa: BLE001 - a method that cannot run does not confirm
            how = ""
        if how:
            return how
    return ""
