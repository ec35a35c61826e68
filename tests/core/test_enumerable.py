"""symdp.core.enumerable: atoms that count by listing, replaced innermost first."""

import itertools

import sympy as sp

from symdp.core.enumerable import Enumerated, enumerate_atoms


class Subsets(Enumerated):
    """Number of k-subsets of an m-set, by listing them (itertools)."""

    def enumerate(self):
        m, k = (int(a) for a in self.args)
        return sp.Integer(sum(1 for _ in itertools.combinations(range(m), k)))


m, k = sp.symbols("m k", integer=True, nonnegative=True)


def test_unevaluated_until_every_argument_is_an_integer():
    e = Subsets(m, 2)
    assert not e.is_enumerable and e.xreplace({m: 5}).is_enumerable
    assert sp.N(e) == e                              # no value without integers
    assert sp.N(e.xreplace({m: 5}), 20) == sp.Float(10, 20)   # C(5, 2), through enumerate()


def test_enumerate_atoms_replaces_inner_atoms_before_outer_ones():
    inner = Subsets(4, 2)                            # 6
    outer = Subsets(inner, 3)                        # C(6, 3) = 20, only once inner is 6
    expr = outer + Subsets(m, 1)
    assert enumerate_atoms(expr.xreplace({m: 7})) == 27
    assert enumerate_atoms(expr) == 20 + Subsets(m, 1)   # symbolic atoms stay


def test_an_expression_without_atoms_is_returned_as_is():
    e = m ** 2 + 1
    assert enumerate_atoms(e) is e
