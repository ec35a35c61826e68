"""symdp.core.exact_cost: an exact evaluation is attempted only when it is affordable."""

import sympy as sp

from symdp.core.exact_cost import EXACT_DIGIT_LIMIT, exact_is_cheap

x, n = sp.symbols("x n")


def test_small_powers_are_cheap():
    assert exact_is_cheap(x**3 + sp.sqrt(x), {x: sp.Rational(7, 3)})
    assert exact_is_cheap((1 + 1 / n)**n, {n: 100})


def test_huge_exponents_roots_and_towers_are_not():
    assert not exact_is_cheap(x**(10**100), {x: 5})              # 10^100 digits
    assert not exact_is_cheap((1 + 1 / n)**n, {n: 10**12})       # 10^13 digits
    assert not exact_is_cheap(x**sp.Rational(1, 97), {x: 10**30})  # a root by factoring
    assert not exact_is_cheap(x**(x**x), {x: 3})                 # a tower
    assert not exact_is_cheap(sp.exp(20000 * sp.log(x), evaluate=False), {x: 7})


def test_the_digit_limit_counts_the_base_size():
    # (10^30)^2000 has 60 001 digits, above the limit; (10^3)^2000 has 6 001
    assert 60_001 > EXACT_DIGIT_LIMIT
    assert not exact_is_cheap(x**2000, {x: 10**30})
    assert exact_is_cheap(x**2000, {x: 1000})
