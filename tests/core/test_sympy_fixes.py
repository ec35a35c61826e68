"""symdp corrects SymPy's known-wrong answers where it sets SymPy up (symdp.core.sympy_fixes,
issue #27).  Truth here comes from exact integer arithmetic (``math.comb`` and the falling
factorial), never from SymPy's assumptions; each test fails on the unpatched behaviour."""

from __future__ import annotations

import math

import sympy as sp

import symdp  # noqa: F401 - importing symdp applies the corrections
from symdp.core import sympy_fixes


def _binomial(n: int, k: int) -> int:
    """C(n, k) for any integer n, k >= 0: the falling factorial n (n-1) ... (n-k+1) / k!."""
    falling = 1
    for i in range(k):
        falling *= n - i
    return falling // math.factorial(k)


def test_the_binomials_of_the_issue_are_positive_exactly():
    # Abs(binomial(n - 5, 3)) for 8 <= n <= 15: C(3, 3) = 1, ..., C(10, 3) = 120, all > 0
    assert [_binomial(n - 5, 3) for n in range(8, 16)] == [math.comb(n - 5, 3)
                                                          for n in range(8, 16)]
    assert all(math.comb(n - 5, 3) > 0 for n in range(8, 16))
    assert _binomial(-2, 3) == -4 and _binomial(-2, 2) == 3 and _binomial(2, 3) == 0


def test_an_odd_binomial_of_an_integer_of_unknown_sign_has_no_sign():
    """Unpatched SymPy 1.14 says binomial(n - 5, 3) is not nonnegative for an integer n, so
    that Abs(binomial(n - 5, 3)) evaluates to -binomial(n - 5, 3) (-1 at n = 8, where the
    value is 1)."""
    n = sp.Symbol("n", integer=True)
    b = sp.binomial(n - 5, 3)
    assert b.is_nonnegative is None
    assert sp.Abs(b) != -b and isinstance(sp.Abs(b), sp.Abs)
    assert sp.Abs(b).subs(n, 8) == abs(_binomial(3, 3)) == 1


def test_the_signs_sympy_may_still_decide_are_right():
    m = sp.Symbol("m", integer=True, negative=True)      # n < 0, k odd >= 1: negative
    k = sp.Symbol("k", integer=True, nonnegative=True)
    assert sp.binomial(m, 3).is_nonnegative is False and _binomial(-1, 3) == -1
    assert sp.binomial(m, 2).is_nonnegative is True and _binomial(-1, 2) == 1    # k even
    assert sp.binomial(k, 3).is_nonnegative is True                               # a count
    assert sp.binomial(m, k).is_nonnegative is None          # k's parity decides: no answer


def test_the_correction_is_what_sympy_runs():
    from sympy.functions.combinatorial.factorials import binomial

    assert binomial._prop_handler["nonnegative"] is sympy_fixes._binomial_is_nonnegative


def test_the_assumption_queue_is_visited_in_one_order_in_every_process():
    """SymPy shuffles the facts an assumption query visits with a generator seeded from the
    operating system (sympy.core.random._assumptions_rng): unpatched, two seeds give two
    orders of this list; symdp keeps SymPy's own order (issue #30)."""
    import sympy.core.assumptions as assumptions
    from sympy.core import random as sympy_random

    orders = []
    for seed in (1, 2):
        sympy_random._assumptions_rng.seed(seed)
        facts = list(range(40))
        assumptions.shuffle(facts)
        orders.append(facts)
    assert orders[0] == orders[1] == list(range(40))


def test_assumption_answers_do_not_depend_on_sympys_generator():
    """The answers SymPy gives with its visiting order fixed, whatever its generator's state:
    each fresh expression asked under two seeds (truth: the sign of x^2 + 1 > 0, of a product
    of positives, of an integer power of a negative)."""
    from sympy.core import random as sympy_random

    answers = []
    for seed in (3, 4):
        sympy_random._assumptions_rng.seed(seed)
        x = sp.Symbol(f"x_{seed}", real=True)
        p = sp.Symbol(f"p_{seed}", positive=True)
        n = sp.Symbol(f"n_{seed}", negative=True)
        answers.append(((x ** 2 + 1).is_positive, (p * (p + 1)).is_positive, (n ** 3).is_negative,
                        (n ** 2).is_positive, (x ** 2).is_nonnegative))
    assert answers[0] == answers[1] == (True, True, True, True, True)
