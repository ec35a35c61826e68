"""Events (issue #23): validation once, at construction; JSON round trip; dp_accounting conversion."""

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from symdp.core.errors import InvalidParameterError
from symdp.events import (Adjacency, Composed, EpsDelta, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                          SampledWithReplacement, SampledWithoutReplacement, SelfComposed, adjacency_of,
                          from_dp_accounting, from_json, from_json_text, to_json)


@pytest.mark.parametrize("make,name", [
    (lambda: Gaussian(0), "sigma"), (lambda: Gaussian(float("nan")), "sigma"), (lambda: Gaussian("inf"), "sigma"),
    (lambda: Laplace(-1), "b"), (lambda: RandomizedResponse(0), "noise_parameter"),
    (lambda: RandomizedResponse("0.5", 1), "num_buckets"), (lambda: EpsDelta(-1, 0), "eps"),
    (lambda: EpsDelta(1, 1), "delta"), (lambda: PoissonSampled(Gaussian(1), 0), "q"),
    (lambda: PoissonSampled(Gaussian(1), "1.5"), "q"), (lambda: SampledWithoutReplacement(Gaussian(1), n=10, m=11), "m"),
    (lambda: SampledWithReplacement(Gaussian(1), 1, 3), "n"), (lambda: SampledWithReplacement(Gaussian(1), 5, 0), "k"),
    (lambda: SelfComposed(Gaussian(1), 0), "count"), (lambda: SelfComposed(Gaussian(1), 2.5), "count"),
    (lambda: PoissonSampled("gaussian", "0.1"), "event"), (lambda: Composed([]), "events"),
])
def test_bad_parameters_name_the_parameter(make, name):
    with pytest.raises(InvalidParameterError, match=name):
        make()


def test_numbers_are_exact_whatever_their_type():
    for v in (Fraction(1, 100), "0.01", 0.01, np.float64(0.01), sp.Rational(1, 100)):
        assert PoissonSampled(Gaussian(1), v).q == Fraction(1, 100)
    assert Gaussian(np.int64(2)).sigma == 2


def test_frozen_and_hashable():
    e = SelfComposed(PoissonSampled(Gaussian(1), "0.01"), 1000)
    with pytest.raises(Exception):
        e.count = 3
    assert e == SelfComposed(PoissonSampled(Gaussian("1.0"), 0.01), 1000)
    assert hash(e) == hash(SelfComposed(PoissonSampled(Gaussian(1), "1/100"), 1000))


def test_adjacency_is_fixed_by_sampling_and_not_mixed():
    assert adjacency_of(Gaussian(1)) is None
    assert adjacency_of(PoissonSampled(Gaussian(1), "0.1")) is Adjacency.ADD_OR_REMOVE_ONE
    assert adjacency_of(SampledWithReplacement(Gaussian(1), 10, 10)) is Adjacency.REPLACE_ONE
    with pytest.raises(InvalidParameterError, match="one adjacency"):
        Composed([PoissonSampled(Gaussian(1), "0.1"), SampledWithoutReplacement(Gaussian(1), p="0.1")])


def test_bootstrap_multiplicities_sum_to_one():
    e = SampledWithReplacement(Laplace(1), 7, 5)
    assert sum(e.multiplicity(j) for j in range(6)) == 1


EVENTS = [
    Gaussian("0.7"), Laplace(3), RandomizedResponse("1/3", 4), EpsDelta("0.5", "1e-6"),
    SelfComposed(PoissonSampled(Gaussian(1), "0.01"), 1000),
    SampledWithoutReplacement(Laplace(2), n=60000, m=256), SampledWithoutReplacement(Gaussian(1), p="0.02"),
    SelfComposed(SampledWithReplacement(Gaussian(2), 100, 100), 10),
    Composed([Gaussian(1), SelfComposed(EpsDelta(1, 0), 3)]),
]


@pytest.mark.parametrize("event", EVENTS)
def test_json_round_trip(event):
    assert from_json(to_json(event)) == event
    assert from_json_text(json.dumps(to_json(event))) == event


@pytest.mark.parametrize("text,needle", [
    ('{"kind": "gaussian", "sigma": 1,}', "not valid JSON"),
    ('[1, 2]', "object"),
    ('{"kind": "gauss", "sigma": 1}', "kind must be one of"),
    ('{"kind": "gaussian"}', "needs the key"),
    ('{"kind": "gaussian", "sigma": 1, "mu": 2}', "unknown key"),
    ('{"kind": "gaussian", "sigma": true}', "must be a number"),
    ('{"kind": "poisson_sampled", "q": 0.1, "event": {"kind": "laplace", "b": "x"}}', "event.event"),
    ('{"kind": "composed", "events": []}', "non-empty"),
    ('{"kind": "tradeoff", "formula": "1-alpha"}', "parser"),
])
def test_bad_json_is_one_clear_error(text, needle):
    with pytest.raises(InvalidParameterError, match=needle):
        from_json_text(text)


def test_json_numbers_are_read_as_written():
    e = from_json_text('{"kind": "poisson_sampled", "q": 0.1, "event": {"kind": "gaussian", "sigma": 1.1}}')
    assert e.q == Fraction(1, 10) and e.event.sigma == Fraction(11, 10)


def test_dp_accounting_events_convert():
    dpa = pytest.importorskip("dp_accounting")
    ev = dpa.ComposedDpEvent([
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000),
        dpa.LaplaceDpEvent(2.0),
    ])
    assert from_dp_accounting(ev) == Composed([SelfComposed(PoissonSampled(Gaussian(1), "0.01"), 1000),
                                              Laplace(2)])
    assert from_dp_accounting(dpa.RandomizedResponseDpEvent(0.5, 3)) == RandomizedResponse("0.5", 3)
    # a noise event under replace-one: dp_event.py's records of norm <= C move the sum by 2C
    # (issue #31, D7): given the relation, s / 2; not given, refused by name
    wr = dpa.SampledWithReplacementDpEvent(100, 50, dpa.GaussianDpEvent(2.0))
    assert from_dp_accounting(wr, neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE) == \
        SampledWithReplacement(Gaussian(1), 100, 50)
    with pytest.raises(InvalidParameterError, match="ambiguous"):
        from_dp_accounting(wr)
    with pytest.raises(InvalidParameterError, match="not supported"):
        from_dp_accounting(dpa.ZCDpEvent(0.5))
    with pytest.raises(InvalidParameterError, match="sampling_probability|q"):
        from_dp_accounting(dpa.PoissonSampledDpEvent(1.5, dpa.GaussianDpEvent(1.0)))
