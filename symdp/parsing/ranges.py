"""``--box`` ranges typed at the shell: ``"p=0..1"``, ``"eps=1/2..oo"`` -> :class:`Range`.

Text parsing without ``eval``: a name, ``=``, two bounds separated by ``..``; bounds are exact
decimals, fractions ``a/b`` or ``oo``/``inf``.  The range itself (and its checks) is the
certified stage's :class:`symdp.proof.cascade.certified.ranges.Range`.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..core.errors import InvalidParameterError
from ..proof.cascade.certified.ranges import Range
from ..core.validation import shown

__all__ = ["parse_range"]


def parse_range(text: str, symbols: dict | None = None, integers=()) -> Range:
    """``"p=0..1"``, ``"eps=0..oo"``, ``"n=2..1000"`` -> :class:`Range` (no eval).

    Bounds are exact decimals, fractions ``a/b`` or ``oo``/``inf``.
    """
    if "=" not in text or ".." not in text:
        raise InvalidParameterError(f'a box range reads "name=lo..hi"; got {shown(text)}')
    name, _, span = text.partition("=")
    name = name.strip()
    lo_text, _, hi_text = span.partition("..")
    if not name.isidentifier():
        raise InvalidParameterError(f"a box range needs a parameter name; got {shown(text)}")
    symbol = (symbols or {}).get(name, sp.Symbol(name, real=True))
    return Range(symbol, _bound(lo_text, name), _bound(hi_text, name), integer=name in integers)


def _bound(text: str, name: str):
    t = text.strip().lower().replace(" ", "")
    sign = -1 if t.startswith("-") else 1
    body = t.lstrip("+-")
    if body in ("oo", "inf", "infinity", "∞"):
        return sign * sp.oo
    try:
        if "/" in body:
            num, den = body.split("/", 1)
            value = Fraction(num) / Fraction(den)
        else:
            value = Fraction(body)
    except (ValueError, ZeroDivisionError):
        raise InvalidParameterError(f"a bound of {name} must be a number, a fraction or oo; "
                                    f"got {shown(text)}") from None
    return sign * sp.Rational(value.numerator, value.denominator)
