"""A dp_accounting ``DpEvent`` as a symdp event (duck-typed on its class name, so this module
does not import dp_accounting; issue #23).

dp_accounting's conventions are symdp's (``dp_event.py``): ``noise_multiplier`` the standard
deviation (Gaussian) or scale (Laplace) of the noise per unit of the bound C on a record's norm,
Poisson sampling under add/remove-one, sampling from a dataset of fixed size under replace-one.

**Replace-one and the noise events** (issue #31, D7).  A symdp ``Gaussian(sigma)`` is a shift
of exactly 1 between the two datasets, under any adjacency.  A dp_accounting
``GaussianDpEvent(s)`` adds ``N(0, s^2 C^2)`` to a sum of records of norm <= C (dp_event.py), so
replacing one record moves the sum by up to 2C: dp_accounting's PLD accountant reads it under
``REPLACE_ONE`` as a shift of ±1 each way (``from_gaussian_mechanism``: mu_upper = mu(x + 1),
mu_lower = mu(x - 1)), i.e. ``G_{2/s}``, while its RDP accountant reads the same event at
distance 1.  The documented reading (dp_event.py, the PLD accountant) is followed when the
relation is given: ``neighboring_relation=REPLACE_ONE`` converts ``GaussianDpEvent(s)`` to
``Gaussian(s/2)`` and ``LaplaceDpEvent(b)`` to ``Laplace(b/2)`` (also inside sampling from a
fixed-size dataset); ``ADD_OR_REMOVE_ONE`` and ``REPLACE_SPECIAL`` (a record replaced by the
zero record) keep distance 1.  When it is not given and a noise event outside Poisson
sampling would be read under replace-one (the tree holds randomized response or sampling
from a fixed-size dataset), the event is ambiguous and is refused by name.
"""

from __future__ import annotations

from ..core.errors import InvalidParameterError
from ..core.validation import shown
from .base import real
from .events import (MAX_DEPTH, MAX_EVENTS, Composed, Event, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                     SampledWithReplacement, SampledWithoutReplacement, SelfComposed)

#: dp_accounting's NeighboringRelation names, as accepted by ``neighboring_relation``
RELATIONS = ("ADD_OR_REMOVE_ONE", "REPLACE_ONE", "REPLACE_SPECIAL")
_NOISE = ("GaussianDpEvent", "LaplaceDpEvent")
_REPLACE = ("RandomizedResponseDpEvent", "SampledWithoutReplacementDpEvent", "SampledWithReplacementDpEvent")


def _relation(value):
    """``neighboring_relation`` as one of :data:`RELATIONS` (a dp_accounting NeighboringRelation
    or its name, any case), or None."""
    if value is None:
        return None
    name = getattr(value, "name", value)
    if isinstance(name, str) and name.upper() in RELATIONS:
        return name.upper()
    raise InvalidParameterError(f"neighboring_relation must be a dp_accounting NeighboringRelation or one "
                                f"of {', '.join(RELATIONS)}; got neighboring_relation={value!r}"[:300])


def _kinds(dp_event, poisson: bool = False, depth: int = 1) -> set:
    """The class names in the tree, noise events outside Poisson sampling marked ``bare``; at
    most :data:`~symdp.events.MAX_DEPTH` levels, as for every event."""
    if depth > MAX_DEPTH:
        raise InvalidParameterError(f"events may be nested at most {MAX_DEPTH} deep (the limit); "
                                    f"got a deeper DpEvent")
    name = type(dp_event).__name__
    found = {name}
    if name in _NOISE and not poisson:
        found.add("bare")
    events = getattr(dp_event, "events", None)
    # a malformed list is named by _convert; here only a well-formed one is looked into
    inner = [getattr(dp_event, "event", None)] + \
        (list(events) if isinstance(events, (list, tuple)) and len(events) <= MAX_EVENTS else [])
    for e in inner:
        if e is not None and type(e).__module__.startswith("dp_accounting"):
            found |= _kinds(e, poisson or name == "PoissonSampledDpEvent", depth + 1)
    return found


def from_dp_accounting(dp_event, where: str = "event", neighboring_relation=None) -> Event:
    """The symdp event of a dp_accounting DpEvent; an unsupported kind, or a noise event whose
    reading under replace-one is ambiguous (module docstring), is an
    :class:`InvalidParameterError` naming it.  At most :data:`~symdp.events.MAX_DEPTH` levels
    and :data:`~symdp.events.MAX_EVENTS` events in a composition, as for every event."""
    name = type(dp_event).__name__
    module = type(dp_event).__module__ or ""
    if not module.startswith("dp_accounting"):
        raise InvalidParameterError(f"{where} must be a dp_accounting DpEvent; got {shown(dp_event)}")
    relation = _relation(neighboring_relation)
    kinds = _kinds(dp_event)
    if relation is None and "bare" in kinds and kinds & set(_REPLACE):
        raise InvalidParameterError(
            f"{where}: a dp_accounting GaussianDpEvent or LaplaceDpEvent under replace-one adjacency is "
            f"ambiguous: dp_accounting's PLD accountant reads noise_multiplier s as a shift of +-1 each way "
            f"(G_(2/s), dp_event.py: records of norm <= C), its RDP accountant as a shift of 1 (G_(1/s)); "
            f"give neighboring_relation (REPLACE_ONE follows dp_event.py), or build the symdp event "
            f"(symdp.events.Gaussian(sigma) is a shift of 1 under any adjacency)")
    if relation == "ADD_OR_REMOVE_ONE" and kinds & set(_REPLACE):
        raise InvalidParameterError(f"{where}: randomized response and sampling from a fixed-size dataset "
                                    f"hold under replace-one, not neighboring_relation=ADD_OR_REMOVE_ONE")
    if relation in ("REPLACE_ONE", "REPLACE_SPECIAL") and "PoissonSampledDpEvent" in kinds:
        raise InvalidParameterError(f"{where}: symdp's PoissonSampled is add/remove-one; Poisson sampling "
                                    f"under neighboring_relation={relation} is not supported")
    if relation == "REPLACE_SPECIAL" and "RandomizedResponseDpEvent" in kinds:
        raise InvalidParameterError(f"{where}: randomized response under REPLACE_SPECIAL (a value replaced by "
                                    f"a special one) is not supported; symdp's pair changes one value to another "
                                    f"(REPLACE_ONE)")
    distance = 2 if relation == "REPLACE_ONE" else 1
    return _convert(dp_event, where, distance)


def _convert(dp_event, where: str, distance: int) -> Event:
    name = type(dp_event).__name__
    if not (type(dp_event).__module__ or "").startswith("dp_accounting"):
        raise InvalidParameterError(f"{where} must be a dp_accounting DpEvent; got {shown(dp_event)}")
    try:
        if name == "GaussianDpEvent":
            return Gaussian(_per_distance(dp_event.noise_multiplier, distance, "noise_multiplier"))
        if name == "LaplaceDpEvent":
            return Laplace(_per_distance(dp_event.noise_multiplier, distance, "noise_multiplier"))
        if name == "RandomizedResponseDpEvent":
            return RandomizedResponse(dp_event.noise_parameter, dp_event.num_buckets)
        if name == "PoissonSampledDpEvent":
            return PoissonSampled(_convert(dp_event.event, where + ".event", distance),
                                  dp_event.sampling_probability)
        if name == "SampledWithoutReplacementDpEvent":
            return SampledWithoutReplacement(_convert(dp_event.event, where + ".event", distance),
                                             n=dp_event.source_dataset_size, m=dp_event.sample_size)
        if name == "SampledWithReplacementDpEvent":
            return SampledWithReplacement(_convert(dp_event.event, where + ".event", distance),
                                          dp_event.source_dataset_size, dp_event.sample_size)
        if name == "SelfComposedDpEvent":
            return SelfComposed(_convert(dp_event.event, where + ".event", distance), dp_event.count)
        if name == "ComposedDpEvent":
            events = dp_event.events
            if not isinstance(events, (list, tuple)) or not 1 <= len(events) <= MAX_EVENTS:
                raise InvalidParameterError(f"{where}.events must be a list of 1 to {MAX_EVENTS} "
                                            f"DpEvents; got {shown(events)}")
            return Composed(tuple(_convert(e, f"{where}.events[{i}]", distance)
                                  for i, e in enumerate(events)))
    except InvalidParameterError as exc:
        if str(exc).startswith(where):
            raise
        raise InvalidParameterError(f"{where} ({name}): {exc}") from None
    except AttributeError as exc:   # a DpEvent without the fields of its kind
        raise InvalidParameterError(f"{where} ({name}) is not a well-formed DpEvent: lacks "
                                    f"{exc.name or 'a field'}") from None
    raise InvalidParameterError(f"{where}: dp_accounting's {name} is not supported (supported: Gaussian, Laplace, "
                                f"RandomizedResponse, PoissonSampled, SampledWithoutReplacement, "
                                f"SampledWithReplacement, SelfComposed, Composed)")


def _per_distance(noise_multiplier, distance: int, name: str):
    """The noise scale per unit of shift: s/2 when a replacement moves the sum by 2C."""
    if distance == 1:
        return noise_multiplier
    return real(name, noise_multiplier, 0, lower_open=True) / distance
