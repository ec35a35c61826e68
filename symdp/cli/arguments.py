"""Command-line text to validated values, shared by the subcommands.

Parsing what a user typed is the CLI's job; the domain packages take Python values
(:class:`symdp.bagging.Bagging` with ints, exact SymPy numbers) and validate those.
Every error is an :class:`~symdp.core.errors.InvalidParameterError` naming the
parameter, the constraint and the value, which the dispatcher prints on one line.
"""

from __future__ import annotations

import re

from ..bagging.schemes import Bagging, sampling_from_flags
from ..core.errors import InvalidParameterError
from ..core.validation import positive_integer, to_exact, shown

__all__ = ["integer_argument", "bagging_configuration"]


def integer_argument(name: str, text) -> int:
    """A positive integer from the command line: digits, or an exact integer like ``1e18``."""
    if isinstance(text, str) and not re.match(r"^\s*\+?\d+\s*$", text):
        try:
            value = to_exact(name, text)
        except InvalidParameterError as exc:
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={shown(text)}") from exc
        if not value.is_Integer:
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={text}")
        text = int(value)
    return positive_integer(name, text)


def bagging_configuration(n, k, models="1", without_replacement=False, joint=None) -> Bagging:
    """Validated :class:`~symdp.bagging.Bagging` from the flags of ``symdp bagging``/``plot``."""
    n = integer_argument("n", n)
    k = integer_argument("k", k)
    models = integer_argument("models", models)
    return Bagging(n, k, models, sampling_from_flags(without_replacement, joint))
