"""A dp_accounting ``DpEvent`` as a symdp event (duck-typed on its class name, so this module
does not import dp_accounting; issue #23).

dp_accounting's conventions are symdp's (``dp_event.py``): sensitivity 1, ``noise_multiplier``
the standard deviation (Gaussian) or scale (Laplace) of the noise, Poisson sampling under
add/remove-one, sampling from a dataset of fixed size under replace-one.
"""

from __future__ import annotations

from ..core.errors import InvalidParameterError
from ..core.validation import shown
from .events import (MAX_DEPTH, MAX_EVENTS, Composed, Event, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                     SampledWithReplacement, SampledWithoutReplacement, SelfComposed)


def from_dp_accounting(dp_event, where: str = "event", depth: int = 1) -> Event:
    """The symdp event of a dp_accounting DpEvent; an unsupported kind is an
    :class:`InvalidParameterError` naming it.  At most :data:`~symdp.events.MAX_DEPTH`
    levels and :data:`~symdp.events.MAX_EVENTS` events in a composition, as for every event."""
    if depth > MAX_DEPTH:
        raise InvalidParameterError(f"events may be nested at most {MAX_DEPTH} deep (the limit); "
                                    f"got a deeper DpEvent")
    name = type(dp_event).__name__
    module = type(dp_event).__module__ or ""
    if not module.startswith("dp_accounting"):
        raise InvalidParameterError(f"{where} must be a dp_accounting DpEvent; got {shown(dp_event)}")
    try:
        if name == "GaussianDpEvent":
            return Gaussian(dp_event.noise_multiplier)
        if name == "LaplaceDpEvent":
            return Laplace(dp_event.noise_multiplier)
        if name == "RandomizedResponseDpEvent":
            return RandomizedResponse(dp_event.noise_parameter, dp_event.num_buckets)
        if name == "PoissonSampledDpEvent":
            return PoissonSampled(from_dp_accounting(dp_event.event, where + ".event", depth + 1),
                                  dp_event.sampling_probability)
        if name == "SampledWithoutReplacementDpEvent":
            return SampledWithoutReplacement(from_dp_accounting(dp_event.event, where + ".event", depth + 1),
                                             n=dp_event.source_dataset_size, m=dp_event.sample_size)
        if name == "SampledWithReplacementDpEvent":
            return SampledWithReplacement(from_dp_accounting(dp_event.event, where + ".event", depth + 1),
                                          dp_event.source_dataset_size, dp_event.sample_size)
        if name == "SelfComposedDpEvent":
            return SelfComposed(from_dp_accounting(dp_event.event, where + ".event", depth + 1), dp_event.count)
        if name == "ComposedDpEvent":
            events = dp_event.events
            if not isinstance(events, (list, tuple)) or not 1 <= len(events) <= MAX_EVENTS:
                raise InvalidParameterError(f"{where}.events must be a list of 1 to {MAX_EVENTS} "
                                            f"DpEvents; got {shown(events)}")
            return Composed(tuple(from_dp_accounting(e, f"{where}.events[{i}]", depth + 1)
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
