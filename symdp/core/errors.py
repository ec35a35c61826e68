"""Exceptions raised by symdp.

Every error symdp raises on purpose derives from :class:`SymdpError`; the ones
caused by a caller's input are also builtin exception types, so callers that
already catch ``ValueError`` keep working (the Hypothesis convention).
"""

from __future__ import annotations


class SymdpError(Exception):
    """Base class of every error that symdp raises on purpose."""


class InvalidParameterError(SymdpError, ValueError):
    """A parameter is outside its domain.

    The message names the parameter, the constraint and the value, e.g.
    ``"delta must be in [0, 1]; got delta=1.5"``.
    """


class ParseError(InvalidParameterError):
    """A formula typed by a user could not be parsed (nothing is evaluated)."""


class RootFindingError(SymdpError, ArithmeticError):
    """A bracketed root-find did not reach its tolerance; carries the residual."""

    def __init__(self, message: str, residual=None, tolerance=None):
        super().__init__(message)
        self.residual = residual
        self.tolerance = tolerance


class DerivationError(SymdpError, ValueError):
    """A derivation is malformed (steps do not chain, a symbol has no domain, ...)."""


class NotATradeOffFunctionError(InvalidParameterError):
    """An expression violates Prop. 2.2 (convex, continuous, non-increasing, f <= 1 - a)."""
