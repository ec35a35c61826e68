"""Validation of parameters: numbers, decimal strings or SymPy expressions.

Numbers are accepted as users hold them and converted exactly, once, here (every module
goes through :func:`to_exact`, :func:`parameter` or :func:`rational`): a Python ``float``, a
NumPy floating scalar (``float64``, ``float32``, ...) or a decimal string becomes the
Rational of its shortest decimal representation in its own precision (``0.1`` and
``numpy.float32(0.1)`` -> ``1/10``), an ``int``, NumPy integer, ``Fraction`` or
``decimal.Decimal`` its Rational, an ``mpmath.mpf`` its exact binary value (every bit of its
precision) and a SymPy number stays itself, so exact inputs stay exact.  NaN, infinities,
booleans, complex numbers and numbers too large to handle (:data:`MAX_DIGITS`,
:data:`MAX_EXPONENT`) are refused naming the parameter.  Symbolic parameters whose sign SymPy cannot decide are
accepted and the constraint is returned as a condition to record.
"""

from __future__ import annotations

import decimal
import fractions
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


def shown(value, limit: int = 60) -> str:
    """``value`` as an error message shows it: its ``repr`` (or the text itself), cut to
    ``limit`` characters with the total length said -- a 100,001-digit value is not echoed
    whole."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        # repr of a huge int is refused by Python (sys.int_max_str_digits) and too long anyway
        return f"an integer of about {_digits_of(value)} digits"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit // 2]}...{text[-8:]} ({len(text)} characters)"


def _is_numpy(value) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "dtype")


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
    if isinstance(value, bool) or (_is_numpy(value) and value.dtype.kind == "b"):
        raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
    if _is_numpy(value) and getattr(value, "ndim", 0) != 0:
        raise InvalidParameterError(f"{name} must be a number, not an array; got {name}={shown(value)}")
    if isinstance(value, sp.Basic):
        expr = value
        if isinstance(expr, sp.Float) and expr.is_finite and expr != 0 and \
                abs(sp.Integer(expr._mpf_[2]) + expr._mpf_[3]) > _MAX_BITS:
            raise InvalidParameterError(f"{name} must be between 1e-{MAX_EXPONENT} and "
                                        f"1e{MAX_EXPONENT} in size; got {name}={shown(value)}")
    elif isinstance(value, mpmath.mpf):   # before numbers.Real: its exact binary value, every bit
        if mpmath.isnan(value) or mpmath.isinf(value):
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={value}")
        man, exp = value.man_exp
        if value != 0 and abs(exp + int(man).bit_length()) > _MAX_BITS:  # 2**exp would not fit
            raise InvalidParameterError(f"{name} must be between 1e-{MAX_EXPONENT} and "
                                        f"1e{MAX_EXPONENT} in size; got {name}={shown(value)}")
        expr = sp.Integer(man) * sp.Integer(2) ** exp
    elif isinstance(value, numbers.Integral):
        _check_size(name, value)
        expr = sp.Integer(int(value))
    elif isinstance(value, numbers.Rational):      # fractions.Fraction: exact, not via float
        expr = sp.Rational(value.numerator, value.denominator)
    elif isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
        return to_exact(name, str(value))
    elif isinstance(value, numbers.Real):
        f = float(value)
        if math.isnan(f) or math.isinf(f):
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
        # a NumPy scalar by the shortest decimal of its own precision (float32(0.1) -> 1/10)
        expr = sp.Rational(str(value) if _is_numpy(value) and _DECIMAL.match(str(value))
                           else repr(f))
    elif isinstance(value, str):
        text = value.strip().lstrip("\ufeff")
        if not text:
            raise InvalidParameterError(f"{name} must be a number; got an empty value ({name}={value!r})")
        if len(text) > MAX_DIGITS:
            raise InvalidParameterError(f"{name} must be a number of at most {MAX_DIGITS} "
                                        f"characters; got {len(text)} characters")
        decimal_ = _DECIMAL.match(text)
        if decimal_ and decimal_.group(3) and abs(int(decimal_.group(3)[1:])) > MAX_EXPONENT:
            raise InvalidParameterError(f"{name} must be between 1e-{MAX_EXPONENT} and "
                                        f"1e{MAX_EXPONENT} in size; got {name}={text}")
        if decimal_:
            expr = sp.Rational(text)
        elif _FRACTION.match(text):
            num, den = (int(t) for t in text.split("/"))
            if den == 0:
                raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
            expr = sp.Rational(num, den)
        elif text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={text}")
        else:
            raise InvalidParameterError(f"{name} must be a number; got {name}={shown(value)}")
    else:
        raise InvalidParameterError(f"{name} must be a number; got {name}={shown(value)}")
    _check_size(name, expr)
    if expr.has(sp.nan) or expr.has(sp.zoo) or expr.has(sp.oo) or expr.has(-sp.oo):
        raise InvalidParameterError(f"{name} must be a finite number; got {name}={expr}")
    if expr.is_real is False:
        raise InvalidParameterError(f"{name} must be real; got {name}={shown(expr)}")
    return expr


def rational(name: str, value, lower=None, upper=None, *, lower_open=False,
             upper_open=False) -> fractions.Fraction:
    """A number (any form :func:`to_exact` takes) as an exact :class:`fractions.Fraction`,
    checked against ``lower (<|<=) value (<|<=) upper`` like :func:`parameter`.  For the
    numerics that need a rational (Arb balls, exact grids): an irrational or symbolic
    value is refused naming ``name``.  A SymPy ``Float`` is its exact binary value."""
    expr = parameter(name, value, lower, upper, lower_open=lower_open, upper_open=upper_open)
    if isinstance(expr, sp.Float):
        expr = sp.Rational(expr)
    if not expr.is_Rational:
        raise InvalidParameterError(f"{name} must be a rational number (a decimal, a fraction "
                                    f"or a float); got {name}={shown(expr)}")
    return fractions.Fraction(int(expr.p), int(expr.q))


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
    shown_ = shown(value).strip("'") if isinstance(value, (int, float, str)) and \
        not isinstance(value, bool) else shown(expr)
    if integer:
        if expr.is_integer is False:
            raise InvalidParameterError(f"{name} must be an integer {constraint}; got {name}={shown_}")
        if expr.is_integer is None and conditions is not None:
            conditions.append(sp.Eq(expr, sp.floor(expr)))
    checks = []
    if lower is not None:
        checks.append(sp.Gt(expr, lower) if lower_open else sp.Ge(expr, lower))
    if upper is not None:
        checks.append(sp.Lt(expr, upper) if upper_open else sp.Le(expr, upper))
    for rel in checks:
        if rel is sp.false:
            raise InvalidParameterError(f"{name} must be {constraint}; got {name}={shown_}")
        if rel is not sp.true:
            if conditions is None:
                raise InvalidParameterError(
                    f"{name} must be {constraint}; cannot decide it for {name}={shown_}")
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

