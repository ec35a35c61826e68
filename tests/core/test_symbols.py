"""symdp.core.symbols: the papers' symbols print as the papers write them."""

import sympy as sp

from symdp.core import symbols as S


def test_greek_names_print_as_letters():
    assert [sp.latex(s) for s in (S.alpha, S.eps, S.delta, S.mu)] == \
        [r"\alpha", r"\varepsilon", r"\delta", r"\mu"]


def test_assumptions():
    assert all(s.is_real for s in (S.alpha, S.x, S.eps, S.delta, S.mu, S.p, S.y))
    assert all(s.is_integer for s in (S.n, S.k, S.N))
