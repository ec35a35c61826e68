"""Verdicts of the check cascade and the record of one checked step."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Verdict(enum.Enum):
    """What the check cascade concluded about a step.

    PROVED      symbolic: holds for every admissible parameter value.
    CERTIFIED   ball arithmetic: holds at the listed points or over a box, rigorously.
    ENUMERATED  exact enumeration of finite objects: holds on every case covered.
    NUMERIC     high-precision evaluation at two precisions: evidence, not proof.
    UNDECIDED   no stage could decide; ``detail`` says what was tried.
    REFUTED     a concrete counterexample (parameter values, both sides).
    """

    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    ENUMERATED = "ENUMERATED"
    NUMERIC = "NUMERIC"
    UNDECIDED = "UNDECIDED"
    REFUTED = "REFUTED"

    @property
    def holds(self) -> bool:
        """True for the verdicts that support the step (all but UNDECIDED, REFUTED)."""
        return self in _HOLDING

    @property
    def strength(self) -> int:
        """Order used to combine a chain: the weakest verdict wins."""
        return _STRENGTH[self]

    def satisfies(self, expected: "Verdict | None") -> bool:
        """Does this verdict meet an expectation?

        No expectation means "the step holds".  An expected holding verdict is a
        floor (an expected NUMERIC step that becomes CERTIFIED still matches);
        an expected REFUTED or UNDECIDED must reproduce exactly.
        """
        if expected is None:
            return self.holds
        if expected.holds:
            return self.holds and self.strength >= expected.strength
        return self is expected


_HOLDING = frozenset({Verdict.PROVED, Verdict.CERTIFIED, Verdict.ENUMERATED, Verdict.NUMERIC})
_STRENGTH = {
    Verdict.PROVED: 5,
    Verdict.CERTIFIED: 4,
    Verdict.ENUMERATED: 3,
    Verdict.NUMERIC: 2,
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
        return self.expected is not None and not self.expected.holds
