r"""Named formulas of Dong, Roth, Su 2022, Sec. 4 for ``symdp latex`` (:mod:`symdp.formulas`).

Each is built from the objects of this package -- :class:`~.operator.Subsampled` for
:math:`C_p(f_{\varepsilon,\delta})` and :math:`C_p(G_\mu)`, :mod:`.eps_delta` for Lemma
4.4 and Cor. 4.3 -- with symbolic ε, δ, p (μ): the printed LaTeX is what symdp computes
with.  The Eq. 14 pieces are built once (a few seconds) and shared.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

__all__ = ["register_formulas"]

_P = sp.Symbol("p", positive=True)
_MU = sp.Symbol("mu", positive=True)


@lru_cache(maxsize=None)
def _eps_delta():
    from ..core.symbols import delta, eps
    from ..tradeoff import EpsDelta
    from .operator import subsample

    C = subsample(EpsDelta(eps, delta), _P)
    return C, tuple(C.pieces())


@lru_cache(maxsize=None)
def _gaussian():
    from ..tradeoff import Gaussian
    from .operator import subsample

    return subsample(Gaussian(_MU), _P)


def _piece(i):
    from ..core.symbols import alpha

    C, pieces = _eps_delta()
    return sp.Eq(C(alpha), pieces[i].at(alpha), evaluate=False)


def _eq(lhs, rhs):
    return sp.Eq(lhs, rhs, evaluate=False)


def register_formulas(register) -> None:
    """Register this package's closed forms with ``register(name, description, build)``."""
    from ..core.symbols import alpha, delta, eps
    from . import eps_delta as ed

    C_at = lambda: _eps_delta()[0](alpha)  # noqa: E731 - C_p(f_{eps,delta})(alpha)
    x_star = sp.Symbol("x^{*}")
    register("subsampling_eq14", "C_p(f_{eps,delta})(alpha), Eq. 14 (Dong-Roth-Su 2022): "
             "f_p on [0, x*], the chord, f_p^{-1}, then 0",
             lambda: _eq(C_at(), _eps_delta()[0].expr(alpha)))
    register("subsampling_eq14_fixed_point", "x* = f_{eps,delta}(x*), the fixed point in Eq. 14",
             lambda: _eq(x_star, _eps_delta()[0].chord()[0]))
    register("subsampling_eq14_chord_end", "f_p(x*), the right end of Eq. 14's chord",
             lambda: _eq(sp.Symbol("f_p(x^{*})"), _eps_delta()[0].chord()[1]))
    register("subsampling_eq14_left", "Eq. 14 on [0, x*]: f_p(alpha) = p f(alpha) + "
             "(1 - p)(1 - alpha) for f = f_{eps,delta}", lambda: _piece(0))
    register("subsampling_eq14_chord", "Eq. 14 on [x*, f_p(x*)]: the chord x* + f_p(x*) - alpha",
             lambda: _piece(1))
    register("subsampling_eq14_right", "Eq. 14 on [f_p(x*), 1 - p delta]: f_p^{-1}(alpha)",
             lambda: _piece(2))
    register("subsampling_min_error_sum", "min over alpha of alpha + C_p(f_{eps,delta})(alpha) "
             "= x* + f_p(x*) (Figure 6)",
             lambda: _eq(sp.Symbol(r"\min_{\alpha}(\alpha + C_p(f)(\alpha))"),
                         _eps_delta()[0].min_error_sum()))
    register("subsampling_lemma_4_4_eps", "eps' = log(1 - p + p e^eps), Lemma 4.4",
             lambda: _eq(sp.Symbol(r"\varepsilon'"), ed.lemma_4_4(eps, delta, _P)[0]))
    register("subsampling_lemma_4_4_delta", "delta' = p delta, Lemma 4.4",
             lambda: _eq(sp.Symbol(r"\delta'"), ed.lemma_4_4(eps, delta, _P)[1]))
    register("subsampling_cor_4_3", "C_p(f_{eps,delta}) = max{f_{eps',delta'}, L}, Cor. 4.3 as "
             "derived from Eq. 14", lambda: _eq(C_at(), ed.cor_4_3(eps, delta, _P)))
    register("subsampling_cor_4_3_line", "L(alpha) = 1 - p + 2p(1 - delta)/(1 + e^eps) - alpha, "
             "Cor. 4.3's line as derived from Eq. 14",
             lambda: _eq(sp.Function("L")(alpha), ed.cor_4_3_line(eps, delta, _P)))
    register("subsampling_cor_4_3_line_printed", "Cor. 4.3's line as the seed prints it "
             "(a recorded finding: it is not C_p(f_{eps,delta}))",
             lambda: _eq(sp.Function(r"L_{\mathrm{printed}}")(alpha),
                         ed.cor_4_3_line_printed(eps, delta, _P)))
    register("subsampling_shaded_triangle_area", "area of Figure 6's shaded triangle, where "
             "C_p(f_{eps,delta}) improves on f_{eps',delta'} (Eq. 15)",
             lambda: _eq(sp.Symbol("A"), ed.shaded_triangle(eps, delta, _P).area))
    register("subsampling_gaussian_fixed_point", "fixed point of C_p(G_mu): (1 - p)/2 + p x*",
             lambda: _eq(sp.Symbol("x_{C}^{*}"), _gaussian().fixed_point()))
    register("subsampling_gaussian_left", "C_p(G_mu)(alpha) on [0, Phi(-mu/2)]: "
             "p G_mu(alpha) + (1 - p)(1 - alpha), Eq. 14",
             lambda: _eq(_gaussian()(alpha), _gaussian().pieces()[0].at(alpha)))
