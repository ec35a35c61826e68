"""Bad inputs the review of issue #23's change found: each is refused by name, or answered,
never a ZeroDivisionError, an AttributeError or an error naming another parameter."""

from fractions import Fraction

import pytest

from symdp import InvalidParameterError
from symdp.accountant import pairs
from symdp.accountant.events import pair_of, phases_of
from symdp.events import RandomizedResponse


@pytest.mark.parametrize("call", [lambda: pair_of(3), lambda: phases_of("gaussian")])
def test_a_non_event_is_refused_by_name(call):
    with pytest.raises(InvalidParameterError, match="^event must be a symdp event"):
        call()


def test_tiny_rho_gives_the_loss_window_of_its_epsilon():
    # eps0 = log(keep/other) with keep = 1 - rho/2, other = rho/2 (k = 2): rho = 1e-400 gives
    # log(2e400 - 1), about 921.73; in floats rho/k was 0 and the window a ZeroDivisionError
    lo, hi = pairs.RandomizedResponse.kary(Fraction(1, 10 ** 400), 2).loss_window(0)
    assert hi == -lo and abs(hi - 921.727184) < 1e-5
    with pytest.raises(InvalidParameterError, match="epsilon"):   # beyond the accountant's range
        pair_of(RandomizedResponse(Fraction(1, 10 ** 400), 2))[0].loss_window(0)


@pytest.mark.parametrize("make, name", [
    (lambda: pairs.Laplace(Fraction(1, 10 ** 301)), "1/b"),
    (lambda: pairs.PoissonGaussian(Fraction(1, 10 ** 301), "0.1"), "1/sigma"),
    (lambda: pairs.UniformGaussian(Fraction(1, 10 ** 301), "0.1"), "1/sigma"),
])
def test_a_scale_whose_inverse_is_too_large_is_refused_at_construction(make, name):
    with pytest.raises(InvalidParameterError, match="^" + name.replace("/", "/")):
        make()
