"""Validation of parameters: numbers, decimal strings or SymPy expressions.

Numbers are converted exactly: a Python ``float`` or a decimal string becomes the
Rational of its shortest decimal representation (``0.1`` -> ``1/10``), so exact
inputs stay exact.  Symbolic parameters whose sign SymPy cannot decide are
accepted and the constraint is returned as a condition to record.
"""

from __future__ import annotations

import math
import numbers
import re

import sympy as sp

from .errors import InvalidParameterError

_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_FRACTION = re.compile(r"^[+-]?\d+\s*/\s*\d+$")


def to_exact(name: str, value) -> sp.Expr:
    """Return ``value`` as a SymPy expression, exactly; never evaluates text as code."""
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
    if isinstance(value, sp.Basic):
        expr = value
    elif isinstance(value, numbers.Integral):
        expr = sp.Integer(int(value))
    elif isinstance(value, numbers.Real):
        f = float(value)
        if math.isnan(f) or math.isinf(f):
            raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
        expr = sp.Rational(repr(f))
    elif isinstance(value, str):
        text = value.strip()
        if _DECIMAL.match(text):
            expr = sp.Rational(text)
        elif _FRACTION.match(text):
            num, den = (int(t) for t in text.split("/"))
            if den == 0:
                raise InvalidParameterError(f"{name} must be a finite number; got {name}={value!r}")
            expr = sp.Rational(num, den)
        else:
            raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
    else:
        try:
            import mpmath

            if isinstance(value, mpmath.mpf):
                if mpmath.isnan(value) or mpmath.isinf(value):
                    raise InvalidParameterError(
                        f"{name} must be a finite number; got {name}={value}")
                return sp.Float(value, mpmath.mp.dps)
        except ImportError:  # pragma: no cover - mpmath is a dependency
            pass
        raise InvalidParameterError(f"{name} must be a number; got {name}={value!r}")
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
        if not re.match(r"^\s*\+?\d+\s*$", value):
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value!r}")
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
    if value < 1:
        raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={value}")
    return value
