"""The base of every event: the class, and the one conversion of its parameters.

Parameters are exact rationals (:class:`fractions.Fraction`): a float is read as its shortest
decimal (0.01 is 1/100), a string as the decimal or fraction it spells.
"""

from __future__ import annotations

import functools
import inspect
from fractions import Fraction

from ..core.errors import InvalidParameterError
from ..core.validation import positive_integer, rational, shown


def real(name: str, value, lower=None, upper=None, *, lower_open=False, upper_open=False) -> Fraction:
    """A finite real parameter as an exact rational, checked against its bounds.

    The one conversion of the project, :func:`symdp.core.validation.rational` (int, Fraction,
    decimal string, float, NumPy number, mpf, SymPy number -- a SymPy ``Float`` as its exact
    binary value; NaN, infinities and irrationals refused, naming ``name``)."""
    return rational(name, value, lower, upper, lower_open=lower_open, upper_open=upper_open)


def count(name: str, value, minimum: int = 1) -> int:
    """An integer parameter >= ``minimum``."""
    v = positive_integer(name, value) if minimum >= 1 else int(real(name, value, minimum))
    if v < minimum:
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}; got {name}={v}")
    return v


class Event:
    """A privacy event.  Subclasses are frozen dataclasses."""

    #: the JSON ``kind`` (docs/events.md)
    kind = "event"

    def children(self) -> tuple:
        return ()


def set_field(obj, name, value):
    """Set a field of a frozen dataclass (in its ``__post_init__``)."""
    object.__setattr__(obj, name, value)


def event_argument(name: str, value) -> Event:
    """``value`` if it is an event, else :class:`InvalidParameterError` naming ``name``."""
    if not isinstance(value, Event):
        raise InvalidParameterError(f"{name} must be a symdp event; got {name}={shown(value)}")
    return value


def validated(cls):
    """Class decorator, applied over ``@dataclass``: a call with a missing, an extra or an
    unknown argument (``EpsDelta(1)``) is an :class:`InvalidParameterError` naming the class
    and its parameters, like every other bad argument, not Python's ``TypeError``."""
    init = cls.__init__
    signature = inspect.signature(init)
    fields = list(signature.parameters.values())[1:]
    names = [p.name for p in fields]
    parameters = ", ".join(p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
                           for p in fields)

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError:
            unknown = [str(k) for k in kwargs if k not in names]
            twice = [k for k in kwargs if k in names[:len(args)]]
            missing = [p.name for p in fields[len(args):] if p.default is inspect.Parameter.empty
                       and p.name not in kwargs]
            why = (f"has no parameter {shown(', '.join(unknown))}" if unknown else
                   f"takes at most {len(names)} arguments; got {len(args)}" if len(args) > len(names)
                   else f"got {twice[0]} twice" if twice else f"needs {', '.join(missing)}")
            raise InvalidParameterError(f"{cls.__name__} {why}; it takes ({parameters})") from None
        init(self, *args, **kwargs)

    cls.__init__ = __init__
    return cls
