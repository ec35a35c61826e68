"""The check cascade: structural, symbolic, exact enumeration, ball arithmetic, numerics,
and a counterexample search before anything is reported as evidence at points.

Each step is checked by the first conclusive stage:

1. **structural** -- ``lhs == rhs`` as SymPy trees;
2. **symbolic** -- after ``doit()`` (closed forms of symdp objects), under the
   hypotheses turned into SymPy assumptions (:mod:`symdp.proof.assumptions`: only what
   each domain implies -- a closed end at 0 gives ``nonnegative``, never ``positive``):
   ``simplify(lhs - rhs) == 0`` (also after rewriting :math:`\\Phi` to ``erfc``); for
   inequalities, the sign of the simplified difference, also after reparametrising
   bounded parameters ``x = a + (b - a)/(1 + t)``, ``t >= 0``, and derivative-sign
   monotonicity one parameter at a time (:mod:`symdp.proof.cascade.monotone`);
3. **enumeration** -- when the step holds :class:`~symdp.core.enumerable.Enumerated`
   atoms and every free symbol has an enumeration range: every case, exactly;
4. **certified** -- ball arithmetic (python-flint's ``arb``, :mod:`symdp.proof.cascade.certified`):
   inequalities over the box of the hypotheses by branch and bound (CERTIFIED only when
   the boxes cover the whole stated domain), else both sides as balls at the numeric
   stage's points (CHECKED_AT_POINTS: evidence; an equality only after the precision is
   raised as far as the magnitudes call for); ``certify=False`` skips the stage;
5. **numeric** -- both sides at two precisions (default 30 and 60 digits, more when the
   step's constants are tiny) at seeded points from the hypotheses.  A pass needs
   agreement within ``10**-(dps - 10)`` (relative to the size of the sides) at *both*
   precisions.  A failure at the higher precision is confirmed at twice that
   precision, and re-checked exactly when both sides are rational at the point, before
   it is reported as REFUTED;
6. **counterexample search** -- before a step is reported as evidence at points (or left
   UNDECIDED), its worst point is looked for (:mod:`symdp.proof.cascade.search`: ends,
   simple rationals, tight constraints, far integers, local minima and the simple
   rationals near them), and a point where the relation fails is REFUTED.

Every search budget is counted in work (:mod:`symdp.proof.budgets`: SymPy objects built,
z3's ``rlimit``, sub-boxes, points), never in seconds, so a step gets the same verdict on
any machine and load.  The one wall-clock limit of a step is its hang guard
(:data:`~symdp.proof.budgets.STEP_HANG_GUARD_SECONDS`): when it fires the step is UNDECIDED,
"hang guard hit", never given another stage's verdict.

A numeric pass is NUMERIC_AT_POINTS, never PROVED.  ``check_*`` functions report; they
never raise on a failing step (see :func:`assert_derivation` for a strict helper).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import sympy as sp

from ..core.errors import DerivationError
from .derivation import Derivation, Step
from .assumptions import assumption_symbols
from .verdict import StepResult, Verdict
# the stages, one module each (imported here by the modules and tests that used to find
# them in this one)
from .budgets import (SIMPLIFY_WORK, STEP_HANG_GUARD_SECONDS, STEP_MEMORY, HangGuardHit,
                      MemoryBudgetHit, hang_guard, memory_guard)
from .cascade.common import DEFAULT_DPS, DEFAULT_POINTS, expand
from .cascade.domain import undefined_on_domain
from .cascade.counterexample import counterexample_stage, probe_stage
from .cascade.counting import counting_stage
from .cascade.enumeration import enumeration_stage
from .cascade.numeric import numeric_stage
from .cascade.structural import structural_certificate
from .cascade.symbolic import symbolic_certificates
from .cascade.unfold import unfoldings_for
from . import kernel
from .certificates import Certificate, Claim, Domain


def step_claim(step: Step, derivation: Derivation) -> Claim:
    """The statement every verdict of ``step`` is about: its sides as written, on the domain of
    the derivation's hypotheses and constraints and the step's side conditions (issue #27).
    Also what a cached certificate is replayed against (:mod:`symdp.proof.cache`)."""
    domain = Domain.of(derivation.hypotheses, derivation.constraints, step.side_conditions)
    written = step.written or (step.lhs, step.rhs)
    return Claim(written[0], step.relation, written[1], domain)


def check_step(step: Step, derivation: Derivation, index: int = 0, *, dps=DEFAULT_DPS,
               points: int = DEFAULT_POINTS, symbolic_work: int = SIMPLIFY_WORK,
               certify: bool = True, box=None, box_limit: int | None = None,
               search: bool = True, probe: bool = True) -> StepResult:
    """Run the cascade on one step of ``derivation``; never raises on a failing step.

    ``symbolic_work``: the budget of each attempt of the symbolic stage, in heartbeats
    (SymPy objects built; :func:`symdp.proof.budgets.work_limit`).

    ``certify=False`` skips the CERTIFIED stage; ``box`` (a list of
    :class:`symdp.proof.cascade.certified.box.Range`) replaces the box taken from the hypotheses.
    ``search=False`` skips the counterexample search that otherwise runs before a step is
    reported as evidence at points (:mod:`symdp.proof.cascade.search`); ``probe=False`` skips
    the probe at :data:`PROBE_POINTS` points (exact, or Arb balls) that runs before the proof
    attempts (a mutation test of a later stage needs its false statement to reach that stage).
    """
    dps = tuple(sorted(dps))
    if len(dps) != 2 or dps[0] < 15 or dps[0] == dps[1]:
        raise DerivationError(f"dps must be two distinct precisions >= 15; got dps={dps}")
    result = undefined_on_domain(step, derivation)
    if result is not None:
        return StepResult(result.verdict, result.detail, result.stage, expected=step.expect)
    claim = step_claim(step, derivation)
    domain, written = claim.domain, (claim.lhs, claim.rhs)
    # a clear error, before any stage; also for declared symbols SymPy already evaluated away
    # (sin(pi*x) is 0 for an integer x, whatever x's stated set)
    kernel.check_declarations(step.free_symbols | set(derivation.hypotheses), domain)
    undefined = kernel.deciders.undefined_at(written, domain)
    if undefined:
        undecided = StepResult(Verdict.UNDECIDED, undefined + "; restrict the domain or add a "
                               "side condition", "domain")
        if search:   # a point where both sides are defined and the relation fails says more
            found = counterexample_stage(step.lhs, step.rhs, step, derivation, index, dps,
                                         undecided)
            if found.verdict is Verdict.REFUTED:   # its detail names the undefined point too
                return replace(found, expected=step.expect)
        return replace(undecided, expected=step.expect)
    tried = []
    skipped = evidence_skips(step)
    unfoldings = ()

    def accepted(proposal):
        """A proposal of a stage through the kernel -- the one door (issue #27): a holding
        StepResult (or evidence), or None (the refusal is noted in ``tried``); a StepResult
        that is no certificate is kept."""
        if not isinstance(proposal, Certificate):
            return proposal
        verdict = kernel.accept(claim, replace(proposal, unfoldings=unfoldings))
        if verdict.verdict.holds_everywhere or verdict.verdict.is_evidence:   # hypotheses kept
            return verdict
        tried.append(verdict.detail)
        return None

    result = None
    if step.proof is not None:   # a proof carried by the step (issue #28)
        from .cascade.convex import proof_stage

        certificate, note = proof_stage(step, derivation)
        if note:
            tried.append(note)
        result = accepted(certificate) if certificate is not None else None
        if result is None and _abstract(step):
            # an abstract trade-off function or mechanism has no values: no other stage
            result = StepResult(Verdict.UNDECIDED, "an abstract trade-off function or "
                                "mechanism has no values: only its proof can decide the step",
                                "lemmas")
    if result is None:
        result = accepted(structural_certificate(step)) if structural_certificate(step) else None
    if result is None and "enumeration" not in skipped and _enumerated_whole(step, derivation):
        # every case of a finite domain, exactly, on the sides as written: the closed forms
        # SymPy would derive first (a Sum in a symbolic k, issue #30) could only give the
        # same verdict after seconds of work; a refutation or refusal falls through
        first = enumeration_stage(step.lhs, step.rhs, step.relation, derivation, step)
        if isinstance(first, Certificate):
            first = accepted(first)
            if first is not None and not first.verdict.holds_everywhere:
                first = None   # evidence only: the cascade below may do better
        elif first is not None and first.verdict is not Verdict.REFUTED:
            first = None
        result = first
    if result is None:
        # closed forms under the hypotheses' assumptions (a conjugate of G_mu needs mu > 0):
        # proposals, which the kernel binds to the written sides when it accepts
        mapping = assumption_symbols(derivation.hypotheses)
        back = {v: k for k, v in mapping.items()}
        lhs = expand(step.lhs.xreplace(mapping)).xreplace(back)
        rhs = expand(step.rhs.xreplace(mapping)).xreplace(back)
        unfoldings = unfoldings_for(written, derivation.hypotheses)
        lhs, rhs = _checked_evaluation(written, (lhs, rhs), unfoldings, domain, tried)
        if probe and _probed(step, (lhs, rhs)) and \
                (probe_points := _probe_points(derivation, step, index, (lhs, rhs))):
            # a false step is usually false at a few points: look there before any proof
            # attempt (issue #30: a slip in a LaTeX line, a mutant, a wrong formula typed at
            # `symdp step` spent seconds in the symbolic stage before the numeric stage
            # refuted it); a REFUTED here is the counterexample search's, exact or by balls
            # that exclude the relation; anything else leaves the cascade as it was
            result = probe_stage(lhs, rhs, step, derivation, index, dps, probe_points)
        if result is not None:
            pass
        elif step.induction:   # a proof by induction was asked for (issue #20)
            from .cascade.induction import induction_stage

            result = accepted(induction_stage(step, derivation))
            if result is not None and not result.verdict.holds_everywhere:
                tried.append(result.detail)
                result = None
        if result is not None:
            pass
        elif "symbolic" in step.skip:
            tried.append("symbolic: skipped (the step says so)")
        elif "symbolic" in skipped:
            pass
        elif step.side_conditions:
            tried.append("symbolic: skipped (side conditions restrict the domain)")
            if step.relation == "=":   # the closed forms as the kernel unfolds them there
                result = accepted(_unfolded_identity(written, unfoldings, domain,
                                                     symbolic_work, tried))
        else:
            for proposal in symbolic_certificates(lhs, rhs, step.relation, derivation.hypotheses,
                                                  symbolic_work, tried):
                result = accepted(proposal)
                if result is not None:
                    break
        if result is None and "counting" not in skipped:   # counting lemmas + algebra (#20)
            proposal, note = counting_stage(step.lhs, step.rhs, step.relation, derivation, step)
            if note:
                tried.append(note)
            result = accepted(proposal) if proposal is not None else None
        if result is None and "enumeration" not in skipped:
            result = accepted(enumeration_stage(lhs, rhs, step.relation, derivation, step))
        cert_note, cert_record = "", None
        if "certified" in step.skip and certify:
            tried.append("certified: skipped (the step says so)")
        if certify and "certified" not in step.skip and "certified" not in skipped and \
                (result is None or result.verdict is Verdict.UNDECIDED):
            certified, cert_record, cert_note = _certified(lhs, rhs, step, derivation, index, dps,
                                                           points, box, box_limit)
            certified = accepted(certified)
            if certified is not None:
                result = certified
                if cert_record:
                    result = replace(result, extra={**result.extra, "certified": cert_record})
            elif cert_record is not None and tried and tried[-1].startswith("kernel refused"):
                cert_note = "; ".join(x for x in (cert_note, tried[-1]) if x)
        if result is None or result.verdict is Verdict.UNDECIDED:
            numeric = numeric_stage(lhs, rhs, step.relation, derivation, step, index, dps, points)
            if cert_note:
                numeric = StepResult(numeric.verdict, f"{numeric.detail}; {cert_note}", numeric.stage,
                                     numeric.counterexample, worst_margin=numeric.worst_margin,
                                     points=numeric.points,
                                     extra={"certified": cert_record} if cert_record else {})
            if result is None or numeric.verdict is not Verdict.UNDECIDED:
                result = numeric
        if search and (result.verdict in (Verdict.CHECKED_AT_POINTS, Verdict.NUMERIC_AT_POINTS)
                       or result.verdict is Verdict.UNDECIDED):
            result = counterexample_stage(lhs, rhs, step, derivation, index, dps, result)
    if result.verdict is Verdict.UNDECIDED and tried:
        result = StepResult(result.verdict, result.detail + "; tried " + "; ".join(tried),
                            result.stage)
    detail = result.detail
    if skipped and result.stage != "structural":
        detail += (f"; proof attempts skipped, the step expecting {step.expect.value} "
                   f"(evidence): {', '.join(skipped)}")
    if step.skip and result.stage not in ("structural",) and "the step skips" not in detail:
        detail += f"; the step skips the {' and '.join(step.skip)} stage" + \
            ("s" if len(step.skip) > 1 else "")
    result = replace(result, detail=detail, expected=step.expect,
                     extra={**result.extra, "tried": tried})
    kernel.require_bound(result, claim)   # a verdict that holds is about this very claim
    from .obligations import with_object_assumptions  # objects' unproved choices (issue #12)

    return with_object_assumptions(result, step, derivation, dps=dps, points=points,
                                   symbolic_work=symbolic_work, certify=certify)


#: the stages that could only prove a step, not attempted when the step expects evidence
#: (issue #30): the step asks for evidence, so a proof would only give it a stronger verdict
#: than it asks for, at the cost of every attempt; the stage that gives the evidence expected
#: and the counterexample search (a REFUTED is never skipped) still run, and the detail names
#: what was skipped.  The kernel still issues every verdict that holds.
_EVIDENCE_SKIPS = {
    Verdict.NUMERIC_AT_POINTS: ("symbolic", "counting", "enumeration", "certified"),
    Verdict.CHECKED_AT_POINTS: ("symbolic", "counting", "enumeration"),
    Verdict.ENUMERATED_ON_RANGE: ("symbolic", "counting", "certified"),
}


def evidence_skips(step: Step) -> tuple:
    """The proof attempts skipped for ``step``: none unless it expects evidence."""
    return _EVIDENCE_SKIPS.get(step.expect, ())


#: points of the probe that runs before the proof attempts (issue #30; cascade.counterexample.probe_stage)
PROBE_POINTS = 4
#: candidate values drawn per parameter for the probe's interior points (the numeric stage
#: draws thousands; the probe must cost next to nothing on a step that holds)
PROBE_CANDIDATES = 40


def _probed(step: Step, sides) -> bool:
    """Does the probe run on ``step``, whose closed forms are ``sides``?  Only when
    they are elementary: SymPy's functions and Phi, PhiInv, without an operation to carry out
    (an integral, a sum, a limit: mpmath's quadrature at a point builds no SymPy object, so no
    budget would stop it) and without a node of symdp's objects (an abstract trade-off
    function has no values; an enumerated count at a sampled point may list millions of
    objects); and not on a step whose expected verdict is evidence (the numeric stage runs on
    it anyway)."""
    from .kernel.closed_forms import is_symdp_node

    if evidence_skips(step):
        return False
    for side in sides:
        if side.has(sp.Integral, sp.Sum, sp.Product, sp.Limit, sp.Derivative, sp.Subs) or \
                any(is_symdp_node(node) for node in sp.preorder_traversal(side)):
            return False
    return True


def _probe_points(derivation: Derivation, step: Step, index: int, sides) -> list:
    """The probe's points: :data:`PROBE_POINTS` of the sampler (domain ends first, then seeded
    interior points), then the points built from the step's own rational constants
    (:func:`_constant_points`)."""
    from .cascade.common import relevant_conditions, sample_symbols
    from .sampling import sample_points, seed_for

    symbols = sample_symbols(derivation, step)
    conditions = relevant_conditions(derivation, step)
    try:
        points = sample_points(symbols, derivation.hypotheses, conditions, count=PROBE_POINTS,
                               seed=seed_for(derivation.id, index, "probe"),
                               max_tries=PROBE_CANDIDATES)
    except ValueError:   # a set the sampler cannot draw from: no probe (the stages decide)
        return []
    seen = {tuple(sorted(p.items(), key=lambda kv: kv[0].name)) for p in points}
    for point in _constant_points(symbols, derivation.hypotheses, (*sides, *conditions)):
        key = tuple(sorted(point.items(), key=lambda kv: kv[0].name))
        if key not in seen:
            seen.add(key)
            points.append(point)
    return points


#: points built from the step's rational constants, at most (the probe's second part)
PROBE_CONSTANT_POINTS = 12


def _constant_points(symbols, hypotheses: dict, exprs) -> list:
    """Points where each real parameter takes a rational constant of the step, or its
    negative, that lies in its domain (``exp((x - 7/9)^2) > 1`` fails at x = 7/9 only), the
    other parameters the closed ends of theirs; at most :data:`PROBE_CONSTANT_POINTS`, in a
    fixed order, and none when no parameter has such a constant.  The counterexample search
    proposes the same values among many more (:mod:`symdp.proof.cascade.search`), after every
    proof attempt."""
    import itertools

    from .cascade.search import rational_constants
    from .sampling import is_integer_domain

    # c and -c: x - 7/9 holds the constant -7/9
    constants = sorted({v for c in rational_constants(*exprs) for v in (c, -c)})
    symbols = sorted(symbols, key=lambda s: s.name)
    values, any_constant = [], False
    for symbol in symbols:
        domain = hypotheses.get(symbol)
        if domain is None:
            return []
        inside = [] if is_integer_domain(domain) else \
            [v for c in constants if domain.contains(v := sp.Rational(c.numerator, c.denominator))
             is sp.true]
        if inside:
            any_constant = True
            values.append(inside)
            continue
        ends = [e for e in (domain.inf, domain.sup)
                if e.is_finite and e.is_Rational and domain.contains(e) is sp.true]
        if not ends:
            return []
        values.append(ends)
    if not any_constant:
        return []
    return [dict(zip(symbols, combo))
            for combo in itertools.islice(itertools.product(*values), PROBE_CONSTANT_POINTS)]


def _enumerated_whole(step: Step, derivation: Derivation) -> bool:
    """The enumeration stage decides ``step`` on its own (issue #30): a side holds an
    :class:`~symdp.core.enumerable.Enumerated` atom, every other node of the sides is SymPy's
    own (the kernel evaluates the sides as written at each case, and runs no code of symdp's
    objects), and each of the step's parameters ranges over a finite set that its enumeration
    range covers whole."""
    from ..core.enumerable import Enumerated

    sides = (step.lhs, step.rhs)
    if not any(side.atoms(Enumerated) for side in sides):
        return False
    if any(kernel.closed_forms.is_symdp_node(node) and not isinstance(node, Enumerated)
           for side in sides for node in sp.preorder_traversal(side)):
        return False
    for symbol in step.free_symbols:
        stated, listed = derivation.hypotheses.get(symbol), derivation.enumeration.get(symbol)
        if listed is None or not (isinstance(stated, sp.FiniteSet) or (
                isinstance(stated, sp.Range) and stated.size.is_finite)):
            return False
        values = {sp.sympify(v) for v in listed}
        if any(v not in values for v in stated):
            return False
    return True


def _abstract(step: Step) -> bool:
    """The step speaks of an object without values (``is_abstract``: an abstract trade-off
    function, the trade-off function of an abstract mechanism)."""
    return any(getattr(node, "is_abstract", False)
               for side in (step.lhs, step.rhs) for node in sp.preorder_traversal(side))


def _unfolded_identity(written, unfoldings, domain, work, tried):
    """An equality under side conditions, where the symbolic stage does not run: the written
    sides with the closed forms in place as the kernel unfolds them on the domain (a
    conjugate's branches that the side conditions decide are dropped), shown equal by
    ``simplify`` -- a certificate for the kernel, or None."""
    import sympy as sp

    from .budgets import WorkExhausted, work_limit
    from .cascade.symbolic import SymbolicCertificate
    from .kernel.closed_forms import unfold

    try:
        lhs, rhs = (unfold(side, unfoldings, domain)[0] for side in written)
        if lhs.has(sp.Piecewise) or rhs.has(sp.Piecewise):
            return None   # a branch the side conditions do not decide: nothing to simplify
        with work_limit(work):
            zero = sp.simplify(lhs - rhs) == 0
    except WorkExhausted:
        tried.append(f"unfolded identity: undecided within its budget ({work} heartbeats)")
        return None
    except Exception:  # noqa: BLE001 - no identity proposed
        return None
    if not zero:
        tried.append("unfolded identity: the closed forms do not simplify to equal sides")
        return None
    return SymbolicCertificate(lhs, rhs, "=", "symbolic", "simplify")


def _checked_evaluation(written, evaluated, unfoldings, domain, tried) -> tuple:
    """The sides the stages work on: the evaluated ones, unless they differ from the written
    ones (with the closed forms in place) at an admissible point -- an evaluation under the
    hypotheses' assumptions that rewrote the statement (SymPy's sign of ``binomial(n - 5,
    3)``, issue #27) --; then the written ones with the closed forms in place, unevaluated."""
    from .kernel.closed_forms import Refusal, disagreement, unfold

    out = []
    for side, proposal in zip(written, evaluated):
        try:
            unfolded = unfold(side, unfoldings, domain)[0]
        except Refusal:
            out.append(proposal)
            continue
        except Exception:  # noqa: BLE001 - no comparison: the kernel compares when it accepts
            out.append(proposal)
            continue
        why = disagreement(unfolded, proposal, domain) if unfolded != proposal else ""
        if why:
            tried.append(f"the evaluated side {proposal} differs from the written side {why}: "
                         "the stages use the side as written")
            proposal = unfolded
        out.append(proposal)
    return tuple(out)


def _certified(lhs, rhs, step, derivation, index, dps, points, box, box_limit):
    """The CERTIFIED stage (:mod:`symdp.proof.cascade.certified.stage`): ``(result or None, record, note)``."""
    from .cascade.certified.stage import BOX_LIMIT, certified_stage

    try:
        return certified_stage(lhs, rhs, step.relation, derivation, step, index, dps=max(dps),
                               points=points, box=box,
                               box_limit=box_limit if box_limit is not None else BOX_LIMIT)
    except DerivationError:
        raise
    except Exception as exc:  # noqa: BLE001 - a crashing stage is named, never a verdict
        message = str(exc).splitlines()[0] if str(exc) else ""
        return None, {"skipped": f"{type(exc).__name__}: {message}"}, \
            f"CERTIFIED stage skipped: {type(exc).__name__}: {message}"


@dataclass(frozen=True)
class DerivationReport:
    """The checked steps of one derivation and what the chain concludes."""

    derivation: Derivation
    steps: tuple
    seconds: float = 0.0
    source: str = ""

    @property
    def ok(self) -> bool:
        """Every step's verdict matches its expectation."""
        return all(r.matches_expectation for r in self.steps)

    @property
    def findings(self) -> tuple:
        return tuple((i, r) for i, r in enumerate(self.steps) if r.is_finding)

    @property
    def conclusion_verdict(self) -> Verdict:
        """Weakest verdict of the steps when all are supported; UNDECIDED when the chain is broken."""
        if all(r.verdict.supports for r in self.steps):
            return min((r.verdict for r in self.steps), key=lambda v: v.strength)
        if not self.derivation.chained and all(r.matches_expectation for r in self.steps):
            holding = [r.verdict for r in self.steps if r.verdict.supports]
            return min(holding, key=lambda v: v.strength) if holding else Verdict.REFUTED
        return Verdict.UNDECIDED


def check_derivation(derivation: Derivation, *, dps=DEFAULT_DPS, points: int = DEFAULT_POINTS,
                     symbolic_work: int = SIMPLIFY_WORK, progress=None,
                     certify: bool = True, box=None, box_limit: int | None = None,
                     hang_guard_seconds: float | None = STEP_HANG_GUARD_SECONDS,
                     probe: bool = True) -> DerivationReport:
    """Check every step of ``derivation``; ``progress(i, n)`` is called after each step.
    ``probe=False`` skips the probe before the proof attempts (:func:`check_step`).

    ``certify=False`` skips the CERTIFIED stage (``symdp check --no-certify``).  A step still
    running after ``hang_guard_seconds`` of wall-clock time is stopped and reported
    UNDECIDED, "hang guard hit" (a guard against a hang, not a budget: the budgets are
    counted in work; ``None``: no guard).
    """
    start = time.perf_counter()
    results = []
    for i, step in enumerate(derivation.steps):
        try:
            with hang_guard(hang_guard_seconds) as armed:
                try:
                    with memory_guard(STEP_MEMORY):
                        result = check_step(step, derivation, i, dps=dps, points=points,
                                            symbolic_work=symbolic_work, certify=certify,
                                            box=box, box_limit=box_limit, probe=probe)
                except MemoryBudgetHit:
                    result = StepResult(Verdict.UNDECIDED, "memory budget: the step added "
                                        f"more than {STEP_MEMORY >> 20} MiB to the address "
                                        "space outside its work-limited parts (a budget, "
                                        "counted in memory; nothing is claimed about the "
                                        "step)", "memory budget", expected=step.expect)
                except HangGuardHit:
                    if not armed:  # an enclosing guard's: it reports
                        raise
                    result = StepResult(Verdict.UNDECIDED, "hang guard hit: the step did not "
                                        f"finish within {hang_guard_seconds:g} s of wall-clock "
                                        "time (a guard against a hang, not a budget; nothing "
                                        "is claimed about the step)", "hang guard",
                                        expected=step.expect)
        except DerivationError:
            raise
        except Exception as exc:  # noqa: BLE001 - a crashing step is reported, not hidden
            message = str(exc).splitlines()[0] if str(exc) else ""
            result = StepResult(Verdict.UNDECIDED, f"error while checking: {type(exc).__name__}: "
                                f"{message}", "error", expected=step.expect)
        results.append(result)
        if progress is not None:
            progress(i + 1, len(derivation.steps))
    return DerivationReport(derivation, tuple(results), time.perf_counter() - start)


def assert_derivation(derivation: Derivation, **kwargs) -> DerivationReport:
    """Strict helper: raise ``AssertionError`` naming the first step that misses its expectation."""
    report = check_derivation(derivation, **kwargs)
    for i, r in enumerate(report.steps):
        if not r.matches_expectation:
            raise AssertionError(f"{derivation.id}, step {i + 1}: {r.verdict.value} "
                                 f"(expected {r.expected.value if r.expected else 'to hold'}): {r.detail}")
    return report
