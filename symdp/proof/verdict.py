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

    Evidence only -- checked at sampled points, not for every parameter value:

    CHECKED_AT_POINTS  ball arithmetic (Arb) at the listed points: rigorous at those points.
    NUMERIC_AT_POINTS  mpmath at two precisions at the listed points.

    Neither:

    UNDECIDED          no stage could decide; ``detail`` says what was tried.
    REFUTED            a concrete counterexample (parameter values, both sides).
    """

    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    ENUMERATED = "ENUMERATED"
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
_EVIDENCE = frozenset({Verdict.CHECKED_AT_POINTS, Verdict.NUMERIC_AT_POINTS})
_STRENGTH = {
    Verdict.PROVED: 6,
    Verdict.CERTIFIED: 5,
    Verdict.ENUMERATED: 4,
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


@dataclass(frozen=True)
class StepResult:
    """The outcome of checking one step."""

    verdict: Verdict
    detail: str
    stage: str
    counterexample: Counterexample | None = None
    expected: Verdict | None = None
    worst_margin: str | None = None
    points: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def matches_expectation(self) -> bool:
        return self.verdict.satisfies(self.expected)

    @property
    def is_finding(self) -> bool:
        """A recorded finding: the step declares that the claim as printed fails."""
        return self.expected is not None and not self.expected.supports
