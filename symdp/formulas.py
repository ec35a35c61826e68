"""Named formulas: ``symdp latex NAME`` prints them; other modules register theirs.

Each entry is built from the objects (never typed as a string), so the LaTeX
is what symdp computes with.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

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


def _load_builtin():
    if "f_eps_delta" in _REGISTRY:
        return
    from .symbols import alpha, delta, eps, mu
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
    for module in ("symdp.subsampling", "symdp.bagging"):
        try:
            imported = __import__(module, fromlist=["register_formulas"])
        except ModuleNotFoundError:
            continue
        hook = getattr(imported, "register_formulas", None)
        if hook is not None:
            hook(register)
