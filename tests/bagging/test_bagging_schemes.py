"""Validation of bagging parameters and the four orderings."""

import pytest

from symdp.bagging import (ADD_D_FIRST, ADD_DPRIME_FIRST, ORDERINGS, REMOVE_D_FIRST,
                           REMOVE_DPRIME_FIRST, Bagging, Ordering, Sampling)
from symdp.bagging.schemes import sampling_from_flags
from symdp.core.errors import InvalidParameterError

JOINT = Sampling.WITHOUT_REPLACEMENT_JOINT
INDEP = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT


@pytest.mark.parametrize("kwargs, name, value", [
    (dict(n=0, k=1), "n", "n=0"),
    (dict(n=-5, k=1), "n", "n=-5"),
    (dict(n=2.5, k=1), "n", "n=2.5"),
    (dict(n="ten", k=1), "n", "n='ten'"),
    (dict(n=True, k=1), "n", "n=True"),
    (dict(n=10, k=0), "k", "k=0"),
    (dict(n=10, k=-1), "k", "k=-1"),
    (dict(n=10, k=1.5), "k", "k=1.5"),
    (dict(n=10, k=2, models=0), "models", "models=0"),
    (dict(n=10, k=2, models=-2), "models", "models=-2"),
    (dict(n=1, k=1), "n", "n=1"),
])
def test_bad_parameters_raise_naming_the_parameter(kwargs, name, value):
    with pytest.raises(InvalidParameterError) as info:
        Bagging(**kwargs)
    message = str(info.value)
    assert message.startswith(name + " must be") and value in message


def test_error_is_also_a_value_error():
    with pytest.raises(ValueError):
        Bagging(0, 1)


@pytest.mark.parametrize("sampling", [JOINT, INDEP])
def test_k_must_fit_in_the_smaller_neighbour_without_replacement(sampling):
    Bagging(5, 4, sampling=sampling)
    for k in (5, 6):
        with pytest.raises(InvalidParameterError, match=rf"^k must be <= n - 1 .* got k={k} with n=5"):
            Bagging(5, k, sampling=sampling)


def test_joint_needs_models_times_k_at_most_n_minus_one():
    Bagging(7, 3, 2, JOINT)
    with pytest.raises(InvalidParameterError, match=r"^models\*k must be <= n - 1 .*models\*k=8"):
        Bagging(7, 4, 2, JOINT)
    # independent subsets may draw more than n records in total
    assert Bagging(7, 4, 2, INDEP).total_draws == 8


def test_with_replacement_accepts_k_larger_than_n():
    assert Bagging(2, 10**18).k == 10**18


def test_integral_floats_and_digit_strings_are_accepted():
    b = Bagging(60000.0, "1000")
    assert (b.n, b.k, b.models) == (60000, 1000, 1)


def test_orderings_are_the_four_pairs():
    assert len(set(ORDERINGS)) == 4
    assert {o.key for o in ORDERINGS} == {"remove_D_first", "remove_Dprime_first", "add_D_first",
                                           "add_Dprime_first"}
    assert REMOVE_D_FIRST.larger_first and ADD_DPRIME_FIRST.larger_first
    assert not REMOVE_DPRIME_FIRST.larger_first and not ADD_D_FIRST.larger_first
    assert REMOVE_D_FIRST.larger_size(10) == 10 and ADD_D_FIRST.larger_size(10) == 11
    assert REMOVE_DPRIME_FIRST.first_size(10) == 9 and ADD_DPRIME_FIRST.first_size(10) == 11
    with pytest.raises(InvalidParameterError, match="neighbour must be"):
        Ordering(0, True)


def test_flags_choose_the_scheme():
    assert sampling_from_flags(False, None) is Sampling.WITH_REPLACEMENT
    assert sampling_from_flags(False, False) is Sampling.WITH_REPLACEMENT
    assert sampling_from_flags(True, None) is JOINT
    assert sampling_from_flags(True, True) is JOINT
    assert sampling_from_flags(True, False) is INDEP
