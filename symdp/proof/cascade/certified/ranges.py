"""One parameter's range of a box: the vocabulary of the CERTIFIED stage.

A :class:`Range` is what :func:`symdp.proof.cascade.certified.box.certify_box` takes per parameter.
Its checks are the box's own: a box coordinate needs ``lo <= hi``; a parameter infinite at
both ends has no change of variables mapping it to a bounded box; an integer parameter needs
a finite lower bound to be split at integers.  Reading a range from text (``"p=0..1"``) is
the parser's job: :func:`symdp.parsing.ranges.parse_range`.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ....core.errors import InvalidParameterError
from ....core.validation import shown

__all__ = ["Range"]


@dataclass(frozen=True)
class Range:
    """One parameter's range ``[lo, hi]`` (SymPy numbers, ``oo`` allowed), integer or real."""

    symbol: sp.Symbol
    lo: sp.Expr
    hi: sp.Expr
    integer: bool = False

    def __post_init__(self):
        for end, value in (("lower", self.lo), ("upper", self.hi)):
            if isinstance(value, str):   # sympify would evaluate the text
                raise InvalidParameterError(
                    f"the {end} bound of {self.symbol.name} must be a number, not text "
                    f"(parse text with symdp.parsing.ranges.parse_range); got {shown(value)}")
        lo, hi = sp.sympify(self.lo), sp.sympify(self.hi)
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)
        name = self.symbol.name
        for end, value in (("lower", lo), ("upper", hi)):
            if not (value.is_real or value in (sp.oo, -sp.oo)) or value.is_number is False:
                raise InvalidParameterError(f"the {end} bound of {name} must be a real number; "
                                            f"got {name}={value}")
        if lo == sp.oo or hi == -sp.oo:
            raise InvalidParameterError(f"{name} has no finite values in {lo}..{hi}")
        if (lo > hi) == sp.true:
            raise InvalidParameterError(f"the range of {name} must have lower <= upper; "
                                        f"got {name}={lo}..{hi}")
        if lo == -sp.oo and hi == sp.oo:
            raise InvalidParameterError(f"{name} is unbounded at both ends: no change of variables "
                                        f"maps it to a box; give a finite range (got {name}=-oo..oo)")
        if self.integer and lo == -sp.oo:
            raise InvalidParameterError(f"integer {name} needs a finite lower bound; got {name}={lo}..{hi}")

    @property
    def bounded(self) -> bool:
        return self.lo.is_finite and self.hi.is_finite

    def text(self) -> str:
        kind = " (integer)" if self.integer else ""
        lo = "-oo" if self.lo == -sp.oo else str(self.lo)
        hi = "oo" if self.hi == sp.oo else str(self.hi)
        return f"{self.symbol.name} in [{lo}, {hi}]{kind}"
