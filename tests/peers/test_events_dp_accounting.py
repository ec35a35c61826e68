"""A dp_accounting DpEvent converted and accounted by symdp (issue #23): dp_accounting's
pessimistic PLD estimate is not below the certified bracket's lower end, and its optimistic
estimate is not above the upper end (for the events its PLD accountant supports)."""

import pytest

import symdp

dpa = pytest.importorskip("dp_accounting")
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402

DELTA = 1e-5


def _pld_of(event, pessimistic, h=1e-3):
    """dp_accounting's PLD of an event with the estimate chosen (its accountant fixes the
    pessimistic one); connect-the-dots off, so that the two estimates bracket its discretisation."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    kw = dict(pessimistic_estimate=pessimistic, value_discretization_interval=h)
    if isinstance(event, dpa.SelfComposedDpEvent):
        return _pld_of(event.event, pessimistic, h).self_compose(event.count)
    if isinstance(event, dpa.ComposedDpEvent):
        out = _pld_of(event.events[0], pessimistic, h)
        for e in event.events[1:]:
            out = out.compose(_pld_of(e, pessimistic, h))
        return out
    q, inner = 1.0, event
    if isinstance(event, dpa.PoissonSampledDpEvent):
        q, inner = event.sampling_probability, event.event
    if isinstance(inner, dpa.GaussianDpEvent):
        return pld.from_gaussian_mechanism(inner.noise_multiplier, sampling_prob=q, use_connect_dots=False, **kw)
    if isinstance(inner, dpa.LaplaceDpEvent):
        return pld.from_laplace_mechanism(inner.noise_multiplier, sampling_prob=q, use_connect_dots=False, **kw)
    if isinstance(inner, dpa.RandomizedResponseDpEvent) and q == 1.0:
        return pld.from_randomized_response(inner.noise_parameter, inner.num_buckets, **kw)
    raise NotImplementedError(event)


def _pld(event):
    return (_pld_of(event, True).get_epsilon_for_delta(DELTA),
            _pld_of(event, False).get_epsilon_for_delta(DELTA))


EVENTS = [
    dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 200),
    dpa.ComposedDpEvent([
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.02, dpa.GaussianDpEvent(1.5)), 50),
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.05, dpa.GaussianDpEvent(2.0)), 30)]),
    dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(3.0), 10),
    dpa.SelfComposedDpEvent(dpa.LaplaceDpEvent(4.0), 5),
    dpa.SelfComposedDpEvent(dpa.RandomizedResponseDpEvent(0.5, 4), 3),
    dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.1, dpa.LaplaceDpEvent(1.0)), 20),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_dp_accounting_bounds_are_consistent_with_the_bracket(event):
    b = symdp.account(event, delta=DELTA, precision=1)
    pessimistic, optimistic = _pld(event)
    assert pessimistic >= float(b.lo) - 1e-12
    assert optimistic <= float(b.hi) + 1e-12
    assert b.lower_bounds == "the mechanism"


def test_sampled_with_replacement_is_refused_by_dp_accounting_and_accounted_here():
    event = dpa.SampledWithReplacementDpEvent(3, 3, dpa.GaussianDpEvent(2.0))
    acc = pld_privacy_accountant.PLDAccountant(dpa.NeighboringRelation.REPLACE_ONE)
    assert not acc.supports(event)
    b = symdp.account(event, delta=DELTA, precision=0, neighboring_relation="REPLACE_ONE")
    assert 0 < b.lo <= b.hi
