r"""Privacy profiles :math:`\delta(\varepsilon) = 1 + f^*(-e^\varepsilon)` (Prop. 2.12).

Each curve is the closed form symdp derives (``f.privacy_profile()``), evaluated with
mpmath at 20 digits; nothing is approximated on a grid of the trade-off function.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..core.symbols import eps as _eps
from ..tradeoff.numeric import mp_callable
from ._mpl import new_figure
from .tradeoff import tradeoff_label

__all__ = ["profile_points", "profile_figure", "EPS_LABEL", "DELTA_LABEL"]

EPS_LABEL = r"$\varepsilon$"
DELTA_LABEL = r"$\delta(\varepsilon)$"


def profile_points(f, eps_max: float = 4.0, points: int = 161, eps_min: float = 0.0):
    r"""``(epsilons, deltas)`` of the privacy profile of ``f`` on [eps_min, eps_max]."""
    if not eps_max > eps_min >= 0:
        raise ValueError(f"need 0 <= eps_min < eps_max; got eps_min={eps_min}, eps_max={eps_max}")
    if points < 2:
        raise ValueError(f"points must be >= 2; got points={points}")
    expr = f.privacy_profile(_eps)
    fn = mp_callable((_eps,), expr)
    xs = [eps_min + (eps_max - eps_min) * i / (points - 1) for i in range(points)]
    ys = []
    with mpmath.workdps(20):
        for x in xs:
            ys.append(float(fn(mpmath.mpf(x))))
    return xs, ys


def profile_figure(functions, *, eps_max: float = 4.0, points: int = 161, log: bool = False,
                   labels=None, title: str | None = None):
    r""":math:`\delta(\varepsilon)` of each trade-off function in ``functions`` (with
    ``labels``, default: the papers' notation).  ``log=True`` puts δ on a log scale.
    Returns a matplotlib Figure."""
    functions = list(functions)
    if not functions:
        raise ValueError("give at least one trade-off function")
    labels = list(labels) if labels is not None else [tradeoff_label(f) for f in functions]
    fig, ax = new_figure(5.6, 4.2)
    for f, label in zip(functions, labels):
        xs, ys = profile_points(f, eps_max, points)
        if log:
            pairs = [(x, y) for x, y in zip(xs, ys) if y > 0]
            xs, ys = [a for a, _ in pairs], [b for _, b in pairs]
        ax.plot(xs, ys, lw=1.6, label=label)
    ax.set_xlim(0, eps_max)
    if log:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel(EPS_LABEL)
    ax.set_ylabel(DELTA_LABEL)
    ax.set_title(title or r"Privacy profiles $\delta(\varepsilon) = 1 + f^*(-e^\varepsilon)$ "
                 "(Prop. 2.12)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def default_profile_functions():
    """G_μ for μ = 0.5, 1, 2: the curves of Cor. 2.13."""
    from ..tradeoff import Gaussian

    return [Gaussian(sp.Rational(1, 2)), Gaussian(1), Gaussian(2)]
