r"""The trusted kernel of the check cascade: the only code that says a step *holds*.

The stages are untrusted proposers that return certificates (:mod:`symdp.proof.certificates`).
:func:`accept` -- ``accept(claim, certificate)``, the one door of every verdict that holds:
the check cascade, the counting and induction stages and :mod:`symdp.proof.claims` all call
it -- turns a certificate into PROVED, CERTIFIED or ENUMERATED (or the evidence
ENUMERATED_ON_RANGE) only after checking, itself (issues #19, #27):

* **the claim** -- the certificate proves *this* :class:`~symdp.proof.certificates.Claim`
  (the sides as written, the relation, the domain): its relation proves the claim's, and its
  sides are the written ones or are shown equal to them by the kernel's own rules
  (:mod:`.closed_forms`: the table of definitions, a conjugate checked by :mod:`.conjugate`,
  SymPy's evaluation under the domain's assumptions compared at admissible points and by the
  trusted equality); a closed form no rule checks is a hypothesis of the verdict, never
  trusted.  A mapping must be a renaming, a box's main search of the claim's margin.  The
  token (:class:`Acceptance`) carries the claim; :func:`require_bound` refuses a verdict whose
  token is for another;
* **declarations** -- every Symbol's own assumptions (``positive=True``...) hold on its stated
  set, else :class:`~symdp.core.errors.DerivationError` naming them (:func:`check_declarations`);
* **coverage** -- the certificate's set contains the step's whole :class:`Domain`: a finite
  set must hold every admissible point, integer lattice included (part of an infinite set is
  ENUMERATED_ON_RANGE: evidence); the search boxes of a ball search (exact rational ends,
  changes of variables read here) and its integer tails must contain every parameter's set;
* **definedness** -- both sides, as written (unfolded by the kernel's definitions), are
  defined on the whole domain, deny by default (:mod:`.definedness`: every node is total,
  partial with a rule -- denominators, logs, fractional powers, PhiInv, factorial/gamma poles,
  asin, tan, symdp's values, finite sums, Gaussian-tailed integrals, infinities -- or refused
  by name), each condition confirmed as a fact; else UNDECIDED naming it;
* **facts** -- every sign or integrality fact a certificate relies on, and those the kernel
  re-derives from a monotonicity or reparametrisation argument, is confirmed a second way
  (:func:`confirm`): exact evaluation, z3, Arb balls over sub-boxes, binomial positivity,
  signs by structure;
* **the work itself** -- every case of a finite certificate is re-evaluated exactly (at
  most 4096), and every leaf of a box certificate's search trees is replayed with the
  kernel's own balls (:mod:`.replay`); the monotone maps of a *reduced* relation are
  re-derived from the claim with every side condition confirmed (:func:`.replay.reduction`),
  and the branch a Piecewise/Max/Min/Abs takes on each open piece between exact breakpoints
  is re-derived (exact or Arb signs at the midpoint, no root of a switching function inside
  the piece: :func:`.replay.piece_branch`); continuity of a trade-off function's piece is
  accepted for expressions built from functions continuous where defined, defined on the
  domain.

Modules: this one seals; :mod:`.closed_forms` binds a written side to a certificate's;
:mod:`.conjugate` checks a convex conjugate's closed form; :mod:`.definedness` lists where an
expression is defined; :mod:`.deciders` confirms facts (and holds the trusted equality);
:mod:`.replay` re-evaluates cases and leaves and re-derives facts; :mod:`.rules` judges the
counting and induction certificates of issue #20, :mod:`.convex` the lemma proofs and
minorant certificates of issue #28 (a reason or nothing, never a verdict).

The trusted base (:data:`TRUSTED_BASE`, enforced by the import contract ``trusted-base`` of
pyproject.toml): this package (5384 lines, of which kernel/convex.py, issue #28, 1443),
certificates, verdict and budgets (1038), core's errors, exact_cost, special, counting,
enumerable and sympy_fixes (994), the ball compiler with balls, ball_ops, ball_inverse and
roots (1185): 8601 lines in all.  Beside it the kernel
trusts: SymPy's ``simplify`` (and ``diff``, ``factor``, ``phi_normal_form``) for equalities of
expressions defined on the domain, re-run here, never read from a certificate; SymPy's
automatic evaluation under the domain's assumptions, its ``doit`` of its own ``Integral``,
``Sum``, ``Product``, ``Limit``, ``Derivative`` included (compared with the written side at
admissible points); SymPy's exact arithmetic on rationals and its set operations on intervals
and ranges, with its known-wrong answers corrected (:mod:`symdp.core.sympy_fixes`);
python-flint's Arb balls, through :mod:`symdp.numeric.ball_compiler`; z3; mpmath's interval
enclosures of the atoms z3 does not know; the ``enumerate`` definitions of Enumerated atoms
and the counting lemmas of :mod:`symdp.core.counting`.  No stage argument of the certified
stage is taken on the stage's word: the reductions of
:mod:`symdp.proof.cascade.certified.reduce` and the pieces of
:mod:`~symdp.proof.cascade.certified.pieces` are re-derived here (issue #27, item 3).  Every budget is counted in work -- z3's
``rlimit``, sub-boxes, leaves, points -- never in seconds.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ...core.errors import DerivationError
from ..certificates import (BoxCertificate, Certificate, Claim, ContinuityCertificate,
                            CountingCertificate, Domain, Fact, FiniteCertificate,
                            InductionCertificate, LemmaCertificate, MinorantCertificate,
                            StructuralCertificate, SymbolicCertificate, margin_of, sign_fact)
from ..verdict import StepResult, Verdict
from . import closed_forms, deciders, replay
from .definedness import defined_on, hazards  # noqa: F401 - the kernel's definedness rules

_SEAL = object()          # only this module holds it

#: The trusted base: the modules of symdp the kernel runs, directly or through one another
#: (issue #27).  The import contract ``trusted-base`` of pyproject.toml forbids every other
#: module of symdp (imports inside functions included); tests/test_architecture.py checks
#: that the kernel's import closure is this list and that the contract names every other
#: module.  ``symdp.core.sympy_fixes`` is trusted too: it corrects SymPy where it is wrong.
TRUSTED_BASE = (
    "symdp.proof.kernel", "symdp.proof.kernel.closed_forms", "symdp.proof.kernel.conjugate",
    "symdp.proof.kernel.deciders", "symdp.proof.kernel.definedness",
    "symdp.proof.kernel.replay", "symdp.proof.kernel.rules", "symdp.proof.kernel.convex",
    "symdp.proof.certificates", "symdp.proof.verdict", "symdp.proof.budgets",
    "symdp.core.errors", "symdp.core.exact_cost", "symdp.core.special", "symdp.core.counting",
    "symdp.core.enumerable",
    "symdp.core.sympy_fixes",
    "symdp.numeric.ball_compiler", "symdp.numeric.balls", "symdp.numeric.ball_ops",
    "symdp.numeric.ball_inverse", "symdp.numeric.roots",
)


@dataclass(frozen=True)
class Acceptance:
    """The kernel's token on a StepResult whose verdict holds (or is the evidence of an
    enumerated range): the verdict, the :class:`~symdp.proof.certificates.Claim` it is about,
    the certificate accepted and the facts confirmed.  ``recorded`` marks a verdict read back
    from a report (``symdp report --from-json``), which the kernel did not check in this
    process (it has no claim)."""

    verdict: Verdict
    certificate: Certificate | None
    facts: tuple = ()
    recorded: str = ""
    seal: object = None
    claim: Claim | None = None

    def __post_init__(self):
        if self.seal is not _SEAL:
            raise TypeError("only symdp.proof.kernel constructs an Acceptance")


def is_accepted(acceptance, verdict: Verdict) -> bool:
    """Is ``acceptance`` the kernel's token for ``verdict``?  (Read by StepResult.)"""
    return isinstance(acceptance, Acceptance) and acceptance.seal is _SEAL \
        and acceptance.verdict is verdict


def bound_to(acceptance, claim: Claim) -> bool:
    """Is ``acceptance`` the kernel's token for ``claim`` (the very statement, as written)?"""
    return isinstance(acceptance, Acceptance) and acceptance.seal is _SEAL \
        and acceptance.claim is not None and acceptance.claim == claim


def require_bound(result: StepResult, claim: Claim) -> StepResult:
    """``result`` when its verdict does not hold, or holds by a token issued for ``claim``;
    else ``TypeError``: a verdict about another statement (issue #27)."""
    if (result.verdict.holds_everywhere or result.verdict is Verdict.ENUMERATED_ON_RANGE) \
            and not bound_to(result.acceptance, claim):
        raise TypeError(f"a {result.verdict.value} verdict whose kernel token is not for the "
                        f"step's claim ({claim.text()})")
    return result


def recorded(verdict: Verdict, source: str) -> Acceptance:
    """The token for a verdict read back from a report ``source`` (not re-checked)."""
    return Acceptance(verdict, None, recorded=source, seal=_SEAL)


def _held(verdict, detail, stage, cert, claim, facts=(), **kw) -> StepResult:
    token = Acceptance(verdict, cert, tuple(facts), seal=_SEAL, claim=claim)
    confirmed = [f"{f.text()} ({f.confirmed_by})" for f in facts]
    return StepResult(verdict, detail, stage, acceptance=token,
                      extra={"kernel_facts": confirmed} if confirmed else {}, **kw)


def _refused(why: str, stage: str) -> StepResult:
    return StepResult(Verdict.UNDECIDED, f"kernel refused the {stage} certificate: {why}", stage)


# ------------------------------------------------------------------ accept

def accept(claim: Claim, certificate: Certificate) -> StepResult:
    """Check that ``certificate`` proves ``claim``; a StepResult whose verdict holds (its
    token carries the claim), evidence (ENUMERATED_ON_RANGE), or UNDECIDED saying which check
    failed.  The one door of every verdict that holds (issue #27): the check cascade, the
    counting and induction stages and the claims of :mod:`symdp.proof.claims` all call it.

    The certificate must prove *the claim*: its relation proves the claim's (an equality
    proves ``<=``; ``<`` proves ``<=``), and its sides are the claim's written sides or are
    shown equal to them by the kernel's rules (:func:`.closed_forms.bind_side`: definitions,
    checked conjugates, SymPy's evaluation compared at points and by the trusted equality);
    a closed form no rule checks becomes a hypothesis of the verdict.  The written sides
    (unfolded by the kernel's definitions) must be defined on the whole domain.  Raises
    DerivationError for a declaration that contradicts its domain."""
    if not isinstance(claim, Claim) or not isinstance(certificate, Certificate):
        raise TypeError("accept(claim, certificate) takes a Claim and a Certificate; got "
                        f"{type(claim).__name__}, {type(certificate).__name__}")
    domain = claim.domain
    check_declarations(set().union(*(side.free_symbols for side in claim.sides)) |
                       certificate.lhs.free_symbols | certificate.rhs.free_symbols, domain)
    try:
        why, unfolded, hypotheses, conditions = _bound(claim, certificate)
        if why:
            return _refused(f"it does not prove the claim: {why}", certificate.stage)
        undefined = defined_on(unfolded, domain) or next(
            (f"{fact.text()} is not shown on the domain" for fact in conditions
             if not confirm(fact, domain)), "")
        if undefined:
            return _refused(f"a side as written may be undefined on the domain: {undefined}",
                            certificate.stage)
        result = _accept(certificate, domain, claim)
    except DerivationError:
        raise
    except Exception as exc:  # noqa: BLE001 - a check that cannot run refuses
        return _refused(f"{type(exc).__name__} while checking", certificate.stage)
    if hypotheses and result.verdict.holds_everywhere:
        from dataclasses import replace

        result = replace(result, hypotheses=tuple(result.hypotheses) + hypotheses,
                         detail=result.detail + "; rests on closed forms the kernel did not "
                         "check: " + "; ".join(hypotheses))
    return result


def _bound(claim: Claim, c: Certificate):
    """``(why, unfolded written sides, hypotheses, definedness facts)``: why the certificate
    does not prove the claim ("" when it does)."""
    if isinstance(c, ContinuityCertificate) != (claim.relation == "continuous") or (
            claim.relation == "continuous" and claim.variable != c.variable):
        return ("a continuity certificate proves exactly a continuity claim in its variable",
                (), (), ())
    if claim.relation != "continuous" and \
            claim.relation not in closed_forms.PROVES.get(c.relation, ()):
        return f"a certificate of {c.relation} does not prove {claim.relation}", (), (), ()
    pairs = [(claim.lhs, c.lhs)] if claim.relation == "continuous" else \
        [(claim.lhs, c.lhs), (claim.rhs, c.rhs)]
    unfolded, hypotheses, conditions = [], (), ()
    for written, side in pairs:
        why, w, h, k = closed_forms.bind_side(written, side, c.unfoldings, claim.domain)
        if why:
            return why, (), (), ()
        unfolded.append(w)
        hypotheses += h
        conditions += k
    return "", tuple(unfolded), tuple(dict.fromkeys(hypotheses)), tuple(dict.fromkeys(conditions))


def _accept(c: Certificate, domain: Domain, claim: Claim) -> StepResult:
    if isinstance(c, FiniteCertificate):
        return _accept_finite(c, domain, claim)   # evaluated at every point: definedness included
    undefined = defined_on((c.lhs, c.rhs), domain)
    if undefined:
        return _refused(f"a side may be undefined on the domain: {undefined}", c.stage)
    if isinstance(c, StructuralCertificate):
        if c.lhs == c.rhs and c.relation in ("=", "<=", ">="):
            return _held(Verdict.PROVED, "both sides are the same expression", c.stage, c, claim)
        return _refused("the sides are not the same tree", c.stage)
    if isinstance(c, SymbolicCertificate):
        return _accept_symbolic(c, domain, claim)
    if isinstance(c, BoxCertificate):
        return _accept_box(c, domain, claim)
    if isinstance(c, ContinuityCertificate):
        return _accept_continuity(c, domain, claim)
    if isinstance(c, (LemmaCertificate, MinorantCertificate)):      # issue #28
        from . import convex   # after this module: the rules read confirm and defined_on
        why, detail = convex.judge(c, domain)
        return _refused(why, c.stage) if why else _held(Verdict.PROVED, detail, c.stage, c,
                                                        claim)
    if isinstance(c, (CountingCertificate, InductionCertificate)):   # issue #20
        from . import rules   # after this module: the rules read confirm and defined_on
        why, detail = rules.judge(c, domain)
        return _refused(why, c.stage) if why else _held(Verdict.PROVED, detail, c.stage, c,
                                                        claim)
    return _refused(f"no acceptance rule for {type(c).__name__}", c.stage)


def renaming_error(mapping, sides) -> str:
    """"" when ``mapping`` (pairs symbol -> symbol) is a renaming: injective, onto symbols that
    occur nowhere else in ``sides``; else why not (``x, y -> t`` would prove ``x = y``)."""
    keys = [k for k, _ in mapping]
    values = [v for _, v in mapping]
    if any(not isinstance(s, sp.Symbol) for s in keys + values):
        return "the mapping is not between symbols"
    if len(set(keys)) != len(keys) or len(set(values)) != len(values):
        return "the mapping is not injective"
    present = set().union(*(side.free_symbols for side in sides)) | set(keys)
    clash = sorted((v for v in values if v in present), key=str)
    if clash:
        return f"the mapping's target {clash[0]} is not a fresh symbol"
    return ""


def _accept_symbolic(c: SymbolicCertificate, domain: Domain, claim: Claim) -> StepResult:
    renamed = renaming_error(c.mapping, (c.lhs, c.rhs) + tuple(claim.sides))
    if renamed:
        return _refused(renamed, c.stage)
    # a second look at the relation itself at admissible points: a rewriting under the
    # domain's assumptions (SymPy's signs) must not decide a statement false there
    failing = closed_forms.violated_at(c.lhs, c.relation, c.rhs, domain)
    if failing:
        return _refused(f"the relation fails {failing}", c.stage)
    mapping = dict(c.mapping)
    check_declarations(set(mapping.values()), Domain.of(
        {mapping[s]: d for s, d in domain.hypotheses if s in mapping}))
    back = {v: k for k, v in mapping.items()}
    diff = (c.lhs - c.rhs).xreplace(mapping)
    if c.relation == "=":
        if c.difference != 0 or not deciders.simplifies_to(diff, sp.S.Zero, c.method):
            return _refused("lhs - rhs does not simplify to 0", c.stage)
        return _held(Verdict.PROVED, f"difference simplifies to 0 ({c.method})", c.stage, c,
                     claim)
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
                 "; ".join(f.confirmed_by for f in confirmed), c.stage, c, claim, confirmed)


def _accept_finite(c: FiniteCertificate, domain: Domain, claim: Claim) -> StepResult:
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
        token = Acceptance(Verdict.ENUMERATED_ON_RANGE, c, seal=_SEAL, claim=claim)
        return StepResult(Verdict.ENUMERATED_ON_RANGE, f"exactly for {', '.join(ranged)} "
                          f"({len(points)} cases): a sample of an infinite domain, evidence; "
                          f"{c.detail}", c.stage, points=len(points), acceptance=token)
    verdict = Verdict.ENUMERATED if how == "exact" and c.stage == "enumeration" \
        else Verdict.CERTIFIED
    return _held(verdict, f"{c.detail}; every case re-evaluated by the kernel ({how})",
                 c.stage, c, claim, points=len(points))


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


def _accept_box(c: BoxCertificate, domain: Domain, claim: Claim) -> StepResult:
    """Coverage of the main searches' boxes (and tails) -- the searches of the certificate's
    own relation, or of the relation its reduction's monotone maps give, re-derived here with
    the maps' side conditions (issue #27, item 3), never merely the first search --, then
    every search replayed leaf by leaf (:func:`.replay.replay_search`), then the facts."""
    needed, target = [], (c.lhs, c.relation, c.rhs)
    if c.reduction:
        reduced = replay.reduction(c.lhs, c.relation, c.rhs, c.reduction, domain)
        if isinstance(reduced, str):
            return _refused(reduced, c.stage)
        target, needed = reduced
    main = [q for q in c.searches if _same_relation(q.piece_of or (q.lhs, q.relation, q.rhs),
                                                    target)]
    if not main:
        return _refused("no search is of the claim's margin" +
                        (" as reduced" if c.reduction else ""), c.stage)
    if len(main) > 1 and not all(q.piece_of and len(q.coordinates) == 1 for q in main):
        return _refused("several searches of one claim that are not its pieces", c.stage)
    for fact in needed:   # each confirmed, or the claim of a search that covers the domain
        q = replay.searched_fact(fact, c.searches)
        if q is None and not confirm(fact, domain):
            return _refused(f"the side condition {fact.text()} ({fact.source}) is not "
                            "confirmed", c.stage)
        if q is not None:
            have = replay.covered(q)
            sets = domain.sets
            if any(have.get(s) is None or sets.get(s) is None or
                   sets[s].is_subset(have[s]) is not True for s in fact.expression.free_symbols):
                return _refused(f"the search of the side condition {fact.text()} does not "
                                "cover the domain", c.stage)
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
                 c.stage, c, claim, worst_margin=c.smallest_margin)


def _same_relation(searched, target) -> bool:
    """A search of ``searched`` (lhs, relation, rhs) decides ``target``: the same relation,
    or the same margin (the trusted equality) with a relation at least as strict."""
    if tuple(searched) == tuple(target):
        return True
    (a, ra, b), (c, rc, d) = searched, target
    if ra == "=" or rc == "=" or (rc in ("<", ">") and ra not in ("<", ">")):
        return False
    return deciders.simplifies_to(margin_of(a, b, ra), margin_of(c, d, rc))


def continuous_where_defined() -> tuple:
    """The nodes continuous at every point where they are defined."""
    from ...core.special import Phi   # local: the proof package stays free of cycles

    return (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.Abs, sp.Max, sp.Min, sp.erf, sp.erfc,
            Phi, sp.sin, sp.cos)


def _accept_continuity(c: ContinuityCertificate, domain: Domain, claim: Claim) -> StepResult:
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
                 c.stage, c, claim)


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
    from .conjugate import by_structure   # after this module: it confirms through here

    for method in (deciders.by_exact_points, deciders.by_z3, deciders.by_balls,
                   deciders.by_choose_pos, deciders.by_integer_structure,
                   deciders.by_function_range, by_structure):
        try:
            how = method(fact, dom)
        except Exception:  # noqa: BLE001 - a method that cannot run does not confirm
            how = ""
        if how:
            return how
    return ""
