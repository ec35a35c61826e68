"""symdp.cli.arguments: command-line text to validated integers and bagging configurations."""

import pytest

from symdp.bagging.schemes import Sampling
from symdp.cli.arguments import bagging_configuration, integer_argument
from symdp.core.errors import InvalidParameterError


@pytest.mark.parametrize("text, value", [("7", 7), (" +12 ", 12), ("1e18", 10 ** 18),
                                         ("1000000000000000000000", 10 ** 21), (5, 5)])
def test_integers_in_digits_or_exact_scientific_notation(text, value):
    assert integer_argument("n", text) == value


@pytest.mark.parametrize("text", ["1.5e0", "abc", "0", "-3", "2.5", "1e-3"])
def test_non_integers_and_non_positive_values_name_the_parameter(text):
    with pytest.raises(InvalidParameterError, match=r"^models must be"):
        integer_argument("models", text)


def test_bagging_configuration_reads_the_flags():
    b = bagging_configuration("1e3", "10", "2", without_replacement=True, joint=False)
    assert (b.n, b.k, b.models, b.sampling) == (1000, 10, 2, Sampling.WITHOUT_REPLACEMENT_INDEPENDENT)
    assert bagging_configuration("9", "2").sampling is Sampling.WITH_REPLACEMENT
    assert bagging_configuration("9", "2", without_replacement=True).sampling is \
        Sampling.WITHOUT_REPLACEMENT_JOINT
    with pytest.raises(InvalidParameterError, match="k must be <= n - 1"):
        bagging_configuration("5", "5", without_replacement=True)
