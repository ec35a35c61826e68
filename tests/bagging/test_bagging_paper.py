"""symdp.bagging.paper: the (eps, delta) of Liu, Jia, Gong 2021, as the seed text prints them.

Expected forms typed from the paper (Thm. 2: "(N k ln((n+1)/n), 1 - ((n-1)/n)^{N k})";
Thm. 3: "(ln((n+1)/(n+1-k N)), k N/n)"); the deltas also against exact enumeration of the
subsample map on real datasets (the worst hockey-stick at eps = 0 over the four orderings).
"""

from fractions import Fraction

import pytest
import sympy as sp

from symdp.bagging import enumeration as en
from symdp.bagging.paper import paper_delta, paper_epsilon, paper_exp_epsilon, source
from symdp.bagging.schemes import ORDERINGS, Sampling

n, k, N = sp.symbols("n k N", integer=True, positive=True)
WR, JOINT, INDEP = (Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_JOINT,
                    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT)


@pytest.mark.parametrize("sampling, eps, delta", [
    (WR, N * k * sp.log((n + 1) / n), 1 - ((n - 1) / n) ** (N * k)),
    (JOINT, sp.log((n + 1) / (n + 1 - k * N)), k * N / n),
    (INDEP, N * sp.log((n + 1) / (n + 1 - k)), 1 - ((n - k) / n) ** N),
])
def test_the_printed_pairs(sampling, eps, delta):
    assert sp.simplify(paper_epsilon(sampling, n, k, N) - eps) == 0
    assert sp.simplify(paper_delta(sampling, n, k, N) - delta) == 0
    for point in ({n: 10, k: 2, N: 3}, {n: 7, k: 1, N: 1}):   # e^eps, exactly, at points
        assert sp.nsimplify(sp.exp(eps.subs(point))) == paper_exp_epsilon(sampling, n, k, N).subs(point)


def test_one_model_is_thm_2_and_thm_3_with_n_1():
    assert paper_epsilon(WR, 60000, 1000) == 1000 * sp.log(sp.Rational(60001, 60000))
    assert paper_delta(JOINT, 10, 3) == sp.Rational(3, 10)


@pytest.mark.parametrize("sampling, n_, k_, models", [(WR, 3, 2, 1), (WR, 2, 1, 2), (JOINT, 5, 2, 1),
                                                      (JOINT, 6, 1, 3), (INDEP, 4, 2, 2)])
def test_the_deltas_equal_the_enumerated_worst_loss_at_eps_zero(sampling, n_, k_, models):
    worst = max(en.table_hockey_stick(en.table(sampling, n_, k_, models, o), Fraction(1))
                for o in ORDERINGS)
    value = paper_delta(sampling, n_, k_, models)
    assert sp.Rational(worst.numerator, worst.denominator) == value


def test_sources_say_where_each_pair_comes_from():
    assert "Thm. 2" in source(WR) and "Thm. 3" in source(JOINT)
    assert source(INDEP).startswith("not in the paper")
    with pytest.raises(TypeError, match="sampling must be a Sampling"):
        paper_delta("joint", n, k)
