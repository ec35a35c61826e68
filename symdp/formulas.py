"""Named formulas: ``symdp latex NAME`` prints them; other modules register theirs.

Each entry is built from the objects (never typed as a string), so the LaTeX
is what symdp computes with.  Packages register theirs through a hook
``register_formulas(register)`` in their ``__init__`` (``symdp.subsampling``: Eq. 14,
Lemma 4.4, Cor. 4.3 ...; ``symdp.bagging``: q(n), the paper's epsilon and delta, the exact
profiles and trade-off functions); :func:`names` lists them all.
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


_HOOKED: set = set()  # modules whose register_formulas hook has run


def _load_builtin():
    if "f_eps_delta" not in _REGISTRY:
        _register_core()
    for module in ("symdp.subsampling", "symdp.bagging"):
        if module in _HOOKED:
            continue
        try:
            imported = __import__(module, fromlist=["register_formulas"])
        except ModuleNotFoundError:
            continue
        hook = getattr(imported, "register_formulas", None)
        if hook is not None:  # absent while the package is still being imported: retried later
            hook(register)
            _HOOKED.add(module)


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
