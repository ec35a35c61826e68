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
from ..core.validation import shown
from .events import (MAX_DEPTH, MAX_EVENTS, Composed, EpsDelta, Event, Gaussian, Laplace,
                     PoissonSampled, RandomizedResponse, SampledWithReplacement,
                     SampledWithoutReplacement, SelfComposed, TradeOffFunction)

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

#: the largest event file read (``symdp account --event``): an event tree is a few lines
MAX_JSON_BYTES = 1 << 20


def from_json_text(text: str, parse_formula=None) -> Event:
    """An event from JSON text; malformed JSON is an :class:`InvalidParameterError` with its line."""
    if not isinstance(text, str):
        raise InvalidParameterError(f"text must be JSON text (a str); got text={shown(text)}")
    if len(text) > MAX_JSON_BYTES:
        raise InvalidParameterError(f"the JSON text has {len(text)} characters, more than the "
                                    f"limit of {MAX_JSON_BYTES}")
    try:
        data = json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as exc:
        raise InvalidParameterError(f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise InvalidParameterError(f"JSON nested too deeply (events may be nested at most "
                                    f"{MAX_DEPTH} deep)") from None
    return from_json(data, parse_formula)


def from_json(data, parse_formula=None, where: str = "event") -> Event:
    """An event from decoded JSON; errors name the place in the tree (``event.event.q``).

    The tree is read iteratively (no recursion): first every object is checked -- an object
    with a ``"kind"`` that is one of :data:`KINDS`, its keys, at most :data:`MAX_DEPTH`
    levels and :data:`MAX_EVENTS` events in all -- then the events are built, sub-events
    first."""
    nodes = []            # (data, where, kind, {key: node index or [indices]})
    stack = [(data, where, 1, None, None)]    # (data, where, depth, parent index, key)
    while stack:
        value, place, depth, parent, key = stack.pop()
        if depth > MAX_DEPTH:
            raise InvalidParameterError(f"events may be nested at most {MAX_DEPTH} deep (the "
                                        f"limit); got a deeper tree")
        if len(nodes) >= MAX_EVENTS:
            raise InvalidParameterError(f"an event tree may hold at most {MAX_EVENTS} events "
                                        f"(the limit; self_composed with a count is n runs of one "
                                        f"event)")
        kind, subs = _check_object(value, place)
        index = len(nodes)
        nodes.append((value, place, kind, {}))
        if parent is not None:
            slot = nodes[parent][3]
            if isinstance(key, tuple):
                slot.setdefault(key[0], {})[key[1]] = index
            else:
                slot[key] = index
        for sub in subs:
            stack.append((value[sub], f"{place}.{sub}", depth + 1, index, sub))
        if kind == "composed":
            events = value["events"]
            if not isinstance(events, list) or not events:
                raise InvalidParameterError(f"{place}.events must be a non-empty list of events")
            if len(events) > MAX_EVENTS:
                raise InvalidParameterError(f"{place}.events may hold at most {MAX_EVENTS} events "
                                            f"(the limit); got {len(events)}")
            for i in reversed(range(len(events))):
                stack.append((events[i], f"{place}.events[{i}]", depth + 1, index, ("events", i)))
    built = [None] * len(nodes)
    for index in reversed(range(len(nodes))):   # sub-events have larger indices
        value, place, kind, children = nodes[index]
        built[index] = _build(value, place, kind, children, built, parse_formula)
    return built[0]


def _check_object(value, where: str):
    """``(kind, sub-event keys)`` of one JSON object, its kind and keys checked."""
    if not isinstance(value, dict):
        raise InvalidParameterError(f"{where} must be an object with a \"kind\"; got "
                                    f"{_json_kind(value)}")
    kind = value.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InvalidParameterError(f"{where}.kind must be one of {', '.join(sorted(KINDS))}; "
                                    f"got kind={shown(kind)}")
    cls, required, optional, subs = KINDS[kind]
    keys = set(value) - {"kind"}
    missing = [k for k in required if k not in keys]
    if missing:
        raise InvalidParameterError(f"{where} ({kind}) needs the key(s) {', '.join(missing)}")
    unknown = sorted(keys - set(required) - set(optional))
    if unknown:
        names = ", ".join(unknown)
        raise InvalidParameterError(f"{where} ({kind}) has unknown key(s) "
                                    f"{names if len(names) <= 80 else shown(names)}; it takes "
                                    f"{', '.join(required + optional)}")
    return kind, [k for k in subs if k in keys]


def _json_kind(value) -> str:
    """What a JSON value is, in JSON's words (``null``, an array, ...)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    for types, name in ((list, "an array"), (str, "a string"), ((int, float), "a number")):
        if isinstance(value, types):
            return f"{name} ({shown(value)})" if not isinstance(value, list) else name
    return shown(value)


def _build(value, where, kind, children, built, parse_formula) -> Event:
    """The event of one checked JSON object whose sub-events are built."""
    cls, required, optional, subs = KINDS[kind]
    args = {}
    for key in set(value) - {"kind"}:
        item = value[key]
        if key in subs:
            args[key] = built[children[key]]
        elif key == "events":
            args[key] = tuple(built[children["events"][i]] for i in range(len(item)))
        elif key == "formula":
            if not isinstance(item, str):
                raise InvalidParameterError(f"{where}.formula must be text; got {shown(item)}")
            if parse_formula is None:
                raise InvalidParameterError(f"{where}: a formula needs a parser (symdp.parsing); none given")
            try:
                return TradeOffFunction(parse_formula(item), item)
            except InvalidParameterError as exc:
                raise InvalidParameterError(f"{where}.formula: {exc}") from None
        else:
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                raise InvalidParameterError(f"{where}.{key} must be a number; got {key}={shown(item)}")
            args[key] = item
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
