"""Named formulas: ``symdp latex NAME`` prints them.

Each entry is built from the objects (never typed as a string), so the LaTeX
is what symdp computes with.  This module belongs to the render layer, so it imports
the domain packages explicitly: the core families here, Dong--Roth--Su's Sec. 4
(:func:`symdp.subsampling.formulas.register_formulas`: Eq. 14, Lemma 4.4, Cor. 4.3 ...) and
Liu--Jia--Gong's bagging (:func:`symdp.bagging.formulas.register_formulas`: q(n), the
paper's epsilon and delta, the exact profiles and trade-off functions); :func:`names`
lists them all.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

from .bagging.formulas import register_formulas as _register_bagging
from .subsampling.formulas import register_formulas as _register_subsampling

_REGISTRY: dict[str, tuple[str, Callable[[], sp.Basic]]] = {}


def register(name: str, description: str, build: Callable[[], sp.Basic]) -> None:
    _REGISTRY[name] = (description, build)


def names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def formula(name: str) -> tuple[str, sp.Basic]:
    _load_builtin()
    if name not in _REGISTRY:
        raise KeyError(name)
    description, build = _REGISTRY[name]
    return description, build()


_LOADED = []   # the built-in formulas are registered once, on first use (building is lazy)


def _load_builtin():
    if not _LOADED:
        _register_core()
        _register_subsampling(register)
        _register_bagging(register)
        _LOADED.append(True)


def _register_core():
    from .core.symbols import alpha, delta, eps, mu
    from .tradeoff import EpsDelta, Gaussian, Laplace

    register("f_eps_delta", "f_{eps,delta}(alpha), Eq. 5",
             lambda: sp.Eq(EpsDelta(eps, delta)(alpha), EpsDelta(eps, delta).expr(alpha)))
    register("gaussian", "G_mu(alpha), Def. 2.7",
             lambda: sp.Eq(Gaussian(mu)(alpha), Gaussian(mu).expr(alpha)))
    register("laplace", "Laplace trade-off function, Sec. 2.3",
             lambda: sp.Eq(Laplace(mu)(alpha), Laplace(mu).expr(alpha)))
    register("gdp_privacy_profile", "delta(eps) of G_mu from its conjugate (Cor. 2.13)",
             lambda: sp.Eq(sp.Function("delta")(eps), Gaussian(sp.Symbol("mu", positive=True))
                           .privacy_profile(eps)))
