"""Symbolic tail arguments for one integer parameter on an infinite range (tail.py) and the
one-sided relaxations (also used by the reductions for two integers).

Every expected verdict is argued by hand: true claims with their classical proof, false ones
with a point where they fail.
"""

import pytest

pytest.importorskip("flint")

import sympy as sp  # noqa: E402

from symdp.proof.cascade.certified.box import Range, certify_box  # noqa: E402
from symdp.proof.cascade.certified.reduce import Signs, reduce_relation  # noqa: E402
from symdp.proof.cascade.certified.tail import Relaxer  # noqa: E402

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)


def _tail(lhs, rel, rhs, lo):
    return certify_box(lhs, rhs, rel, [Range(n, lo, sp.oo, integer=True)],
                       domains={n: sp.Range(lo, sp.oo)}, max_boxes=250, bits=80)


def test_one_minus_one_over_n_to_the_n_is_at_most_one_over_e():
    # n log(1 - 1/n) <= n((1 - 1/n) - 1) = -1 (log A <= A - 1), so (1 - 1/n)^n <= 1/e
    res = _tail((1 - 1 / n) ** n, "<=", sp.exp(-1), 1)
    assert res.status == "certified"
    assert "n in 1..64 by boxes" in res.tail and "log(A) <= A - 1" in res.tail


def test_two_to_the_n_beats_n_squared_by_the_ratio():
    # 2^4 = 4^2; 2^(n+1)/2^n = 2 >= (n+1)^2/n^2 for n >= 3, so 2^n/n^2 is nondecreasing
    res = _tail(2 ** n, ">=", n ** 2, 4)
    assert res.status == "certified" and "ratio" in res.tail


def test_two_to_the_n_against_n_cubed():
    # false at n = 4 (16 < 64) ... n = 9 (512 < 729): refuted at an integer in the box
    res = _tail(2 ** n, ">=", n ** 3, 4)
    assert res.status == "refuted"
    assert 4 <= int(res.counterexample["point"]["n"]) <= 9
    # true from n = 10 on (1024 >= 1000, and the ratio argument)
    assert _tail(2 ** n, ">=", n ** 3, 10).status == "certified"


def test_n_log_one_plus_one_over_n():
    # n log(1 + 1/n) < 1 for every n >= 1 (log(1+u) < u): ">= 1" fails already at n = 1
    res = _tail(n * sp.log(1 + 1 / n), ">=", 1, 1)
    assert res.status == "refuted" and int(res.counterexample["point"]["n"]) >= 1
    assert _tail(n * sp.log(1 + 1 / n), "<=", 1, 1).status == "certified"


def test_increasing_sequence_by_the_derivative_of_g():
    # (1 - 1/n)^n increases: G(n) = exp(n log(1 - 1/n)), G'/G = log(1 - 1/n) + 1/(n - 1) >= 0
    res = _tail((1 - 1 / (n + 1)) ** (n + 1), ">=", (1 - 1 / n) ** n, 1)
    assert res.status == "certified" and "G(n + 1) - G(n)" in res.tail
    # the reverse is false at n = 1: (1/2)^2 = 1/4 > 0 = (1 - 1)^1
    assert _tail((1 - 1 / (n + 1)) ** (n + 1), "<=", (1 - 1 / n) ** n, 1).status == "refuted"


def test_false_far_in_the_tail_is_not_certified():
    # n/(n + 10^6) <= 1/3 holds for n <= 500000 only (the boxes see n <= 64): false at n = 10^6
    res = _tail(n / (n + 10 ** 6), "<=", sp.Rational(1, 3), 1)
    assert res.status != "certified"
    # (1 - 1/n)^n >= 1/e - 1/10^6 is true; (1 - 1/n)^n >= 1/e is false everywhere (it is < 1/e)
    assert _tail((1 - 1 / n) ** n, ">=", sp.exp(-1), 1).status != "certified"


def test_relaxations_go_only_the_sound_way():
    signs = Signs({n: sp.Range(2, sp.oo)}, [])
    r = Relaxer(signs)
    A = 1 - 1 / n
    lower = {v for v, _ in r.bounds(sp.log(A), -1)}
    upper = {v for v, _ in r.bounds(sp.log(A), +1)}
    assert A - 1 in upper and A - 1 not in lower          # log A <= A - 1 only as an upper bound
    assert any(sp.simplify(v - (1 - 1 / A)) == 0 for v in lower)
    assert all(sp.simplify(v - (1 - 1 / A)) != 0 for v in upper)
    # -log A: the bound flips; e^u >= 1 + u is a lower bound only
    assert -(A - 1) in {v for v, _ in r.bounds(-sp.log(A), -1)}
    assert 1 + n not in {v for v, _ in r.bounds(sp.exp(n), +1)}
    # log A >= A - 1 is false (A = 1/2: -0.69 < -0.5); the wrong-way bound must not prove it
    assert not r.prove(sp.log(A) - (A - 1))[0]
    # Bernoulli gives a lower bound; (1 - 1/n)^n <= 1 - n/n = 0 is false and not proved
    assert not r.prove(-(A ** n))[0]


def test_two_integers_bernoulli_and_log_bounds_are_proved():
    hyp = {n: sp.Range(1, sp.oo), k: sp.Range(1, sp.oo)}
    red = reduce_relation(1 - ((n - 1) / n) ** k, k / n, "<=", hyp)
    assert red.proved and "Bernoulli" in red.sign_reason
    assert reduce_relation(k * sp.log((n + 1) / n), k / n, "<=", hyp).proved
    # the wrong direction: 1 - ((n-1)/n)^k >= k/n fails at n = 2, k = 2 (3/4 < 1)
    assert not reduce_relation(1 - ((n - 1) / n) ** k, k / n, ">=", hyp).proved
    # k log((n+1)/n) >= k/n fails at n = k = 1 (log 2 < 1)
    assert not reduce_relation(k * sp.log((n + 1) / n), k / n, ">=", hyp).proved
