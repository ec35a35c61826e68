"""Proofs as data: derivations, the check cascade, verdicts."""

from .check import DerivationReport, assert_derivation, check_derivation, check_step
from .derivation import Derivation, Step, chain
from ..core.enumerable import Enumerated
from .verdict import Counterexample, StepResult, Verdict

__all__ = ["Derivation", "Step", "chain", "Enumerated", "Verdict", "StepResult",
           "Counterexample", "DerivationReport", "check_derivation", "check_step",
           "assert_derivation"]
