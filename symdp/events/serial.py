"""Events as JSON (the schema of docs/events.md).

Every event is an object with a ``"kind"`` and its parameters; numbers may be JSON numbers
or strings (``"0.01"``, ``"1/3"``) and are read exactly (JSON numbers as the decimal text
they were written as, never through a binary float).  A formula (kind ``"tradeoff"``) is
text, parsed by the caller's ``parse_formula`` (the CLI passes symdp's own parser); it is
never evaluated.
"""

from __future__ import annotations

import json
from fractions import Fraction

from ..core.errors import InvalidParameterError
from .events import (Composed, EpsDelta, Event, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                     SampledWithReplacement, SampledWithoutReplacement, SelfComposed, TradeOffFunction)

#: kind -> (class, required keys, optional keys, sub-event keys)
KINDS = {
    "gaussian": (Gaussian, ("sigma",), (), ()),
    "laplace": (Laplace, ("b",), (), ()),
    "randomized_response": (RandomizedResponse, (), ("noise_parameter", "num_buckets", "eps0"), ()),
    "eps_delta": (EpsDelta, ("eps", "delta"), (), ()),
    "tradeoff": (TradeOffFunction, ("formula",), (), ()),
    "poisson_sampled": (PoissonSampled, ("event", "q"), (), ("event",)),
    "sampled_without_replacement": (SampledWithoutReplacement, ("event",), ("n", "m", "p"), ("event",)),
    "sampled_with_replacement": (SampledWithReplacement, ("event", "n", "k"), (), ("event",)),
    "self_composed": (SelfComposed, ("event", "count"), (), ("event",)),
    "composed": (Composed, ("events",), (), ()),
}

MAX_DEPTH = 64


def from_json_text(text: str, parse_formula=None) -> Event:
    """An event from JSON text; malformed JSON is an :class:`InvalidParameterError` with its line."""
    try:
        data = json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as exc:
        raise InvalidParameterError(f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise InvalidParameterError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)") from None
    return from_json(data, parse_formula)


def from_json(data, parse_formula=None, where: str = "event", depth: int = 0) -> Event:
    """An event from decoded JSON; errors name the place in the tree (``event.event.q``)."""
    if depth > MAX_DEPTH:
        raise InvalidParameterError(f"{where}: events nested more than {MAX_DEPTH} deep")
    if not isinstance(data, dict):
        raise InvalidParameterError(f"{where} must be an object with a \"kind\"; got {type(data).__name__}")
    kind = data.get("kind")
    if kind not in KINDS:
        raise InvalidParameterError(f"{where}.kind must be one of {', '.join(sorted(KINDS))}; got kind={kind!r}")
    cls, required, optional, subs = KINDS[kind]
    keys = set(data) - {"kind"}
    missing = [k for k in required if k not in keys]
    if missing:
        raise InvalidParameterError(f"{where} ({kind}) needs the key(s) {', '.join(missing)}")
    unknown = sorted(keys - set(required) - set(optional))
    if unknown:
        raise InvalidParameterError(f"{where} ({kind}) has unknown key(s) {', '.join(unknown)}; "
                                    f"it takes {', '.join(required + optional)}")
    args = {}
    for key in keys:
        value = data[key]
        if key in subs:
            args[key] = from_json(value, parse_formula, f"{where}.{key}", depth + 1)
        elif key == "events":
            if not isinstance(value, list) or not value:
                raise InvalidParameterError(f"{where}.events must be a non-empty list of events")
            args[key] = tuple(from_json(v, parse_formula, f"{where}.events[{i}]", depth + 1)
                              for i, v in enumerate(value))
        elif key == "formula":
            if not isinstance(value, str):
                raise InvalidParameterError(f"{where}.formula must be text; got {value!r}")
            if parse_formula is None:
                raise InvalidParameterError(f"{where}: a formula needs a parser (symdp.parsing); none given")
            return TradeOffFunction(parse_formula(value), value)
        else:
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise InvalidParameterError(f"{where}.{key} must be a number; got {key}={value!r}")
            args[key] = value
    try:
        return cls(**args)
    except InvalidParameterError as exc:
        raise InvalidParameterError(f"{where} ({kind}): {exc}") from None


INTEGER_KEYS = ("count", "n", "m", "k", "num_buckets")


def _number(x) -> str:
    """An exact rational as text: the decimal it is when it has one (1/100 -> "0.01"), else n/d."""
    x = Fraction(x)
    d, places = x.denominator, 0
    while d % 10 == 0 or d % 2 == 0 or d % 5 == 0:
        d //= 2 if d % 2 == 0 else 5
        places += 1
    if d != 1 or places > 40:
        return f"{x.numerator}/{x.denominator}"
    scaled = x * 10 ** places
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    text = (digits[:-places] + "." + digits[-places:]).rstrip("0").rstrip(".") if places else digits
    return ("-" if x < 0 else "") + text


def to_json(event: Event) -> dict:
    """The JSON object of an event (numbers as exact strings); ``from_json`` reads it back."""
    if isinstance(event, TradeOffFunction):
        return {"kind": "tradeoff", "formula": event.text}
    if isinstance(event, Composed):
        return {"kind": "composed", "events": [to_json(e) for e in event.events]}
    cls, required, optional, subs = KINDS[event.kind]
    out = {"kind": event.kind}
    for key in required + optional:
        value = getattr(event, key)
        if value is None:
            continue
        if isinstance(event, SampledWithoutReplacement) and key == "p" and event.n is not None:
            continue
        out[key] = to_json(value) if key in subs else int(value) if key in INTEGER_KEYS else _number(value)
    return out
