"""Verdicts of the check cascade and the record of one checked step."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Verdict(enum.Enum):
    """What the check cascade concluded about a step, and over what scope.

    Holds for every parameter value the step claims:

    PROVED             symbolic: holds for every admissible parameter value.
    CERTIFIED          ball arithmetic over boxes (with tail arguments) that cover the
                       step's whole stated domain.
    ENUMERATED         exact enumeration of a finite domain, enumerated whole.

    Only :mod:`symdp.proof.kernel` constructs these three (a StepResult refuses one without
    the kernel's token, :class:`symdp.proof.kernel.Acceptance`).

    Evidence only -- checked at sampled points, not for every parameter value:

    ENUMERATED_ON_RANGE exact enumeration of part of an infinite domain ("exactly for
                       n <= 6, k <= 4"): every case of the range, exactly, and nothing beyond.

    CHECKED_AT_POINTS  ball arithmetic (Arb) at the listed points: rigorous at those points.
    NUMERIC_AT_POINTS  mpmath at two precisions at the listed points.

    Neither:

    UNDECIDED          no stage could decide; ``detail`` says what was tried.
    REFUTED            a concrete counterexample (parameter values, both sides).
    """

    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    ENUMERATED = "ENUMERATED"
    ENUMERATED_ON_RANGE = "ENUMERATED_ON_RANGE"
    CHECKED_AT_POINTS = "CHECKED_AT_POINTS"
    NUMERIC_AT_POINTS = "NUMERIC_AT_POINTS"
    UNDECIDED = "UNDECIDED"
    REFUTED = "REFUTED"

    @property
    def holds_everywhere(self) -> bool:
        """True when the step holds for every parameter value it claims."""
        return self in _EVERYWHERE

    @property
    def is_evidence(self) -> bool:
        """True for the verdicts that checked sampled points only."""
        return self in _EVIDENCE

    @property
    def supports(self) -> bool:
        """Holds everywhere, or no point contradicted it (evidence): not UNDECIDED/REFUTED."""
        return self in _EVERYWHERE or self in _EVIDENCE

    @property
    def strength(self) -> int:
        """Order used to combine a chain: the weakest verdict wins."""
        return _STRENGTH[self]

    def satisfies(self, expected: "Verdict | None", *, require_proof: bool = False) -> bool:
        """Does this verdict meet an expectation?

        No expectation means "the step holds": by default evidence at points is
        accepted (and counted separately); ``require_proof=True`` accepts only the
        verdicts that hold everywhere.  An expected supporting verdict is a floor (an
        expected NUMERIC_AT_POINTS step that becomes CERTIFIED still matches); an
        expected REFUTED or UNDECIDED must reproduce exactly.
        """
        if expected is None or expected.supports:
            floor = self.holds_everywhere if require_proof else self.supports
            return floor and (expected is None or self.strength >= expected.strength)
        return self is expected


_EVERYWHERE = frozenset({Verdict.PROVED, Verdict.CERTIFIED, Verdict.ENUMERATED})
_EVIDENCE = frozenset({Verdict.ENUMERATED_ON_RANGE, Verdict.CHECKED_AT_POINTS,
                       Verdict.NUMERIC_AT_POINTS})
_STRENGTH = {
    Verdict.PROVED: 7,
    Verdict.CERTIFIED: 6,
    Verdict.ENUMERATED: 5,
    Verdict.ENUMERATED_ON_RANGE: 4,
    Verdict.CHECKED_AT_POINTS: 3,
    Verdict.NUMERIC_AT_POINTS: 2,
    Verdict.UNDECIDED: 1,
    Verdict.REFUTED: 0,
}


@dataclass(frozen=True)
class Counterexample:
    """Parameter values at which a step fails, with both sides' values.

    Values are strings: exact (``"1/3"``) where the point is exact, decimals
    otherwise, so that a report can be read and re-checked independently.
    """

    point: dict
    lhs: str
    rhs: str
    difference: str
    exact: bool = False

    def as_dict(self) -> dict:
        return {"point": dict(self.point), "lhs": self.lhs, "rhs": self.rhs,
                "difference": self.difference, "exact": self.exact}


_SCOPE_WORDS = {
    Verdict.PROVED: "holds for every parameter value (symbolic proof)",
    Verdict.CERTIFIED: "holds for every parameter value (ball arithmetic over boxes covering "
                       "the whole stated domain)",
    Verdict.ENUMERATED: "holds for every parameter value (a finite domain enumerated whole, "
                        "exactly)",
    Verdict.ENUMERATED_ON_RANGE: "enumerated exactly on a finite range of an infinite "
                                 "domain only: evidence, not proof",
    Verdict.CHECKED_AT_POINTS: "checked at sampled points only (ball arithmetic, rigorous at "
                               "those points): evidence, not proof",
    Verdict.NUMERIC_AT_POINTS: "checked at sampled points only (mpmath at two precisions): "
                               "evidence, not proof",
    Verdict.UNDECIDED: "not decided",
    Verdict.REFUTED: "does not hold: a counterexample",
}


def scope_in_words(verdict: Verdict, hypotheses=(), points: int = 0) -> str:
    """What a verdict claims, in words a hurried reader cannot misread.

    A verdict that holds everywhere but rests on ``hypotheses`` (conditions that no stage
    proved over the domain, e.g. an ordering an object chose at a witness point) holds only
    where they hold: "holds where <h1> and <h2> (unproved hypotheses)".
    """
    if verdict.holds_everywhere and hypotheses:
        return ("holds where " + " and ".join(hypotheses)
                + " (unproved hypotheses; not shown for every parameter value)")
    words = _SCOPE_WORDS[verdict]
    if verdict.is_evidence and points:
        words = words.replace("at sampled points", f"at {points} sampled points")
    if verdict.supports and hypotheses:
        words += "; and it rests on unproved hypotheses: " + " and ".join(hypotheses)
    return words


@dataclass(frozen=True)
class StepResult:
    """The outcome of checking one step.

    ``hypotheses`` are conditions the verdict rests on that no stage proved over the
    step's domain (each a short text such as ``"x* <= 1 - delta"``): a PROVED step with
    hypotheses holds where they hold, not for every parameter value, and says so
    (:attr:`scope`, ``PROVED under: ...``).  ``facts`` are the conditions of the same kind
    that were proved over the domain (text and verdict), listed for the reader.
    """

    verdict: Verdict
    detail: str
    stage: str
    counterexample: Counterexample | None = None
    expected: Verdict | None = None
    worst_margin: str | None = None
    points: int = 0
    extra: dict = field(default_factory=dict)
    hypotheses: tuple = ()
    facts: tuple = ()
    acceptance: object = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        # a verdict that holds (or an enumerated range) comes from the kernel only (issue #19)
        if self.verdict.holds_everywhere or self.verdict is Verdict.ENUMERATED_ON_RANGE:
            from .kernel import is_accepted

            if not is_accepted(self.acceptance, self.verdict):
                raise TypeError(f"a StepResult with verdict {self.verdict.value} needs the "
                                "kernel's acceptance: only symdp.proof.kernel.accept issues it")

    def __bool__(self):
        raise TypeError("a StepResult has no truth value: read .holds_everywhere (for every "
                        "parameter value), .evidence_only (checked at points) or .verdict")

    @property
    def holds_everywhere(self) -> bool:
        """The step holds for every parameter value it claims: a verdict that holds
        everywhere, resting on no unproved hypothesis."""
        return self.verdict.holds_everywhere and not self.hypotheses

    @property
    def evidence_only(self) -> bool:
        """Checked at sampled points only (CHECKED_AT_POINTS, NUMERIC_AT_POINTS)."""
        return self.verdict.is_evidence

    @property
    def under_hypotheses(self) -> bool:
        """A verdict that would hold everywhere, resting on unproved hypotheses."""
        return self.verdict.holds_everywhere and bool(self.hypotheses)

    @property
    def scope(self) -> str:
        """What the verdict claims, in words (:func:`scope_in_words`)."""
        return scope_in_words(self.verdict, self.hypotheses, self.points)

    @property
    def label(self) -> str:
        """The verdict as printed: ``PROVED``, or ``PROVED under: h1; h2`` with hypotheses."""
        if self.hypotheses and self.verdict.supports:
            return f"{self.verdict.value} under: " + "; ".join(self.hypotheses)
        return self.verdict.value

    @property
    def matches_expectation(self) -> bool:
        return self.verdict.satisfies(self.expected)

    def meets(self, *, require_proof: bool = False) -> bool:
        """The expectation is met; with ``require_proof`` a step expected to hold must hold
        everywhere (no evidence at points, no unproved hypothesis)."""
        if not require_proof or (self.expected is not None and not self.expected.supports):
            return self.matches_expectation
        return self.matches_expectation and self.holds_everywhere

    @property
    def is_finding(self) -> bool:
        """A recorded finding: the step declares that the claim as printed fails."""
        return self.expected is not None and not self.expected.supports
