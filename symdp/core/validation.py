"""Validation of parameters: numbers, decimal strings or SymPy expressions.

Numbers are converted exactly: a Python ``float`` or a decimal string becomes the
Rational of its shortest decimal representation (``0.1`` -> ``1/10``), a ``Fraction`` its
Rational and an ``mpmath.mpf`` its exact binary value (every bit of its precision), so exact
inputs stay exact.  Symbolic parameters whose sign SymPy cannot decide are
accepted and the constraint is returned as a condition to record.
"""

from __future__ import annotations

import math
import numbers
import re

import mpmath
import sympy as sp

from .errors import InvalidParameterError

_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_FRACTION = re.compile(r"^[+-]?[0-9]+\s*/\s*[0-9]+$")

#: the most characters of a number typed as text, and the most decimal digits of an
#: integer (or of the numerator and denominator of a fraction) accepted as a parameter
MAX_DIGITS = 1000
#: the largest decimal exponent of a number typed as text (``1e1000``, ``1e-1000``)
MAX_EXPONENT = 1000
#: the largest working precision (significant digits) of a numeric evaluation
MAX_DPS = 10_000
_MAX_BITS = int(MAX_DIGITS * 3.3219280948873626) + 1


def _digits_of(n: int) -> int:
    """Decimal digits of ``n`` (from its bit length: no conversion to text)."""
    return max(1, int(abs(int(n)).bit_length() * 0.30102999566398120) + 1)


def _check_size(name: str, value) -> None:
    """Refuse an exact number with more than :data:`MAX_DIGITS` digits (in its numerator or
    denominator): Python cannot print it and every formula would crawl."""
    if isinstance(value, sp.Rational):
        parts = (value.p, value.q)
    elif isinstance(value, numbers.Integral):
        parts = (int(value),)
    else:
        return
    for part in parts:
        if abs(part).bit_length() > _MAX_BITS:
            raise InvalidParameterError(
                f"{name} must have at most {MAX_DIGITS} digits; got {name} with about "
                f"{_digits_of(part)} digits")


def precision(name: str, value, *, minimum: int = 1, maximum: int = MAX_DPS) -> int:
    """A working precision in significant digits: an int in ``[minimum, maximum]``.

    Strings (``"40"``), floats, NaN, bools are refused naming the parameter, never read as
    something else (``dps=0`` used to give 3 digits silently)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(f"{name} must be an integer in [{minimum}, {maximum}]; "
                                    f"got {name}={value!r}")
    value = int(value)
    if not minimum <= value <= maximum:
        raise InvalidParameterError(f"{name} must be an integer in [{minimum}, {maximum}]; "
                                    f"got {name}={value}")
    return value


def to_exact(name: str, value) -> sp.Expr:
    """Return ``value`` as a SymPy expression, exactly; never evaluates text as code."""
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
    if isinstance(value, sp.Basic):
        expr = value
    elif isinstance(value, mpmath.mpf):   # before numbers.Real: its exact binary value, every bit
        if mpmath.isnan(value) or mpmath.isinf(value):
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={value}")
        man, exp = value.man_exp
        expr = sp.Integer(man) * sp.Integer(2) ** exp
    elif isinstance(value, numbers.Integral):
        _check_size(name, value)
        expr = sp.Integer(int(value))
    elif isinstance(value, numbers.Rational):      # fractions.Fraction: exact, not via float
        expr = sp.Rational(value.numerator, value.denominator)
    elif isinstance(value, numbers.Real):
        f = float(value)
        if math.isnan(f) or math.isinf(f):
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
        expr = sp.Rational(repr(f))
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_DIGITS:
            raise InvalidParameterError(f"{name} must be a number of at most {MAX_DIGITS} "
                                        f"characters; got {len(text)} characters")
        decimal = _DECIMAL.match(text)
        if decimal and decimal.group(3) and abs(int(decimal.group(3)[1:])) > MAX_EXPONENT:
            raise InvalidParameterError(f"{name} must be between 1e-{MAX_EXPONENT} and "
                                        f"1e{MAX_EXPONENT} in size; got {name}={text}")
        if decimal:
            expr = sp.Rational(text)
        elif _FRACTION.match(text):
            num, den = (int(t) for t in text.split("/"))
            if den == 0:
                raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
            expr = sp.Rational(num, den)
        else:
            raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
    else:
        raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
    _check_size(name, expr)
    if expr.has(sp.nan) or expr.has(sp.zoo) or expr.has(sp.oo) or expr.has(-sp.oo):
        raise InvalidParameterError(f"{name} must be a finite number; got {name}={expr}")
    if expr.is_real is False:
        raise InvalidParameterError(f"{name} must be real; got {name}={expr}")
    return expr


def _describe(lower, upper, lower_open, upper_open) -> str:
    if upper is None:
        return f"{'>' if lower_open else '>='} {lower}"
    if lower is None:
        return f"{'<' if upper_open else '<='} {upper}"
    return f"in {'(' if lower_open else '['}{lower}, {upper}{')' if upper_open else ']'}"


def parameter(name: str, value, lower=None, upper=None, *, lower_open=False,
              upper_open=False, integer=False, conditions: list | None = None) -> sp.Expr:
    """Validate one parameter against ``lower (<|<=) value (<|<=) upper``.

    Returns the exact SymPy value.  When ``value`` is symbolic and SymPy cannot
    decide a bound, the bound is appended to ``conditions`` (a list of
    Relationals) instead of being guessed.

    >>> parameter("delta", "0.5", 0, 1)
    1/2
    >>> parameter("delta", 1.5, 0, 1)
    Traceback (most recent call last):
    ...
    symdp.core.errors.InvalidParameterError: delta must be in [0, 1]; got delta=1.5
    """
    expr = to_exact(name, value)
    constraint = _describe(lower, upper, lower_open, upper_open)
    shown = value if isinstance(value, (int, float, str)) and not isinstance(value, bool) else expr
    if integer:
        if expr.is_integer is False:
            raise InvalidParameterError(f"{name} must be an integer {constraint}; got {name}={shown}")
        if expr.is_integer is None and conditions is not None:
            conditions.append(sp.Eq(expr, sp.floor(expr)))
    checks = []
    if lower is not None:
        checks.append(sp.Gt(expr, lower) if lower_open else sp.Ge(expr, lower))
    if upper is not None:
        checks.append(sp.Lt(expr, upper) if upper_open else sp.Le(expr, upper))
    for rel in checks:
        if rel is sp.false:
            raise InvalidParameterError(f"{name} must be {constraint}; got {name}={shown}")
        if rel is not sp.true:
            if conditions is None:
                raise InvalidParameterError(
                    f"{name} must be {constraint}; cannot decide it for {name}={shown}")
            conditions.append(rel)
    return expr


def probability(name: str, value, conditions=None, *, open_=False) -> sp.Expr:
    """A parameter in [0, 1] (or (0, 1) with ``open_``)."""
    return parameter(name, value, 0, 1, lower_open=open_, upper_open=open_, conditions=conditions)


def nonnegative(name: str, value, conditions=None) -> sp.Expr:
    return parameter(name, value, 0, None, conditions=conditions)


def positive_integer(name: str, value) -> int:
    """A Python int >= 1; integral floats (60000.0) and digit strings are accepted."""
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value!r}")
    if isinstance(value, str):
        if not re.match(r"^\s*\+?[0-9]+\s*$", value):
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value!r}")
        if len(value.strip()) > MAX_DIGITS:
            raise InvalidParameterError(f"{name} must have at most {MAX_DIGITS} digits; got "
                                        f"{len(value.strip())} digits")
        value = int(value)
    elif isinstance(value, sp.Basic):
        if not (value.is_Integer):
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value}")
        value = int(value)
    elif isinstance(value, numbers.Integral):
        value = int(value)
    elif isinstance(value, numbers.Real):
        if not math.isfinite(value) or value != int(value):
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value!r}")
        value = int(value)
    else:
        raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value!r}")
    _check_size(name, value)
    if value < 1:
        raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value}")
    return value


def expression_or_number(name: str, value, *, lower=None) -> sp.Expr:
    """A SymPy expression with free symbols (kept as it is), or a finite real number made
    exact (:func:`to_exact`) and, with ``lower``, checked to be ``>= lower``.  Text is
    refused, never sympified; NaN and infinities are refused naming ``name``."""
    if isinstance(value, str):
        raise InvalidParameterError(
            f"{name} must be a number or a SymPy expression, not text; got {name}={value!r} "
            f"(sympy.Symbol({value!r}) makes a symbol of that name)")
    if isinstance(value, sp.Basic) and value.free_symbols:
        if value.has(sp.nan) or value.has(sp.zoo):
            raise InvalidParameterError(f"{name} must be finite; got {name}={value}")
        if not isinstance(value, sp.Expr):
            raise InvalidParameterError(f"{name} must be an expression; got {name}={value}")
        return value
    if lower is not None:
        return parameter(name, value, lower)
    return to_exact(name, value)

