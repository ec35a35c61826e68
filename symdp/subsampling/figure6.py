r"""Figure 6 (right) of Dong, Roth, Su 2022 (arXiv 1905.02383v3, Sec. 4.1), recomputed.

An (ε, δ) = (3, 0.1)-DP mechanism on a 20% subsample (p = 0.2).  Every number is derived
from the objects of :mod:`symdp.subsampling`, none is copied from the seed note:

* :math:`\varepsilon' = \log(1 - p + pe^\varepsilon)`, :math:`\delta' = p\delta` (Lemma 4.4);
* the smallest guaranteed sum of type I and II errors :math:`\min_\alpha(\alpha + f(\alpha))`
  for three trade-off functions.  For a symmetric convex f the minimum is at the fixed point,
  :math:`2x^*` (-1 is a subgradient there, so :math:`f(\alpha) \ge 2x^* - \alpha`):

  - no subsampling, :math:`f_{\varepsilon,\delta}`: :math:`2(1-\delta)/(1+e^\varepsilon)`;
  - Lemma 4.4, :math:`f_{\varepsilon',\delta'}`: :math:`2(1-\delta')/(1+e^{\varepsilon'})`;
  - Thm. 4.2, :math:`C_p(f_{\varepsilon,\delta})`: the chord's constant
    :math:`x^* + f_p(x^*) = 1 - p + 2p(1-\delta)/(1+e^\varepsilon)`.

The seed note's code minimises over a 2001-point grid and uses the mis-printed Cor. 4.3
line; :func:`seed_comparison` says, for each number the seed prints, whether symdp
reproduces it and, when not, which of those two explains the seed's digit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import sympy as sp

from ..tradeoff.families import EpsDelta
from .eps_delta import cor_4_3_line_printed, lemma_4_4, shaded_triangle
from .operator import Subsampled

__all__ = ["Figure6", "figure6", "seed_comparison", "plot_figure6", "SEED_PRINTED"]

#: The numbers the seed note prints for Figure 6 (right), with the digits it shows.
#: They are compared with, never used by, the computation.
SEED_PRINTED = {"eps_prime": "1.572", "delta_prime": "0.02", "min_error_sum_cor_4_3": "0.799",
                "min_error_sum_lemma_4_4": "0.337", "min_error_sum_original": "0.086"}


def _value(expr, dps=30) -> str:
    with mpmath.workdps(dps + 10):
        v = sp.N(expr, dps + 10)
    return sp.Float(v, dps).__str__() if v != 0 else "0"


@dataclass(frozen=True)
class Figure6:
    """The quantities of Figure 6 (right): closed forms (SymPy) and 30-digit values."""

    eps: sp.Expr
    delta: sp.Expr
    p: sp.Expr
    eps_prime: sp.Expr
    delta_prime: sp.Expr
    min_error_sum: dict          # {"subsampled", "lemma_4_4", "original", "cor_4_3_printed"}
    triangle: object
    values: dict = field(default_factory=dict)

    def value(self, name: str, dps: int = 30) -> str:
        """A quantity as a decimal string with ``dps`` significant digits."""
        expr = {"eps_prime": self.eps_prime, "delta_prime": self.delta_prime,
                "triangle_area": self.triangle.area}.get(name)
        if expr is None:
            expr = self.min_error_sum[name]
        return _value(expr, dps)


def figure6(eps=3, delta="0.1", p="0.2") -> Figure6:
    """Figure 6 (right) for the given parameters (default: the paper's ε = 3, δ = 0.1, p = 0.2)."""
    f = EpsDelta(eps, delta)
    eps, delta = f.eps, f.delta
    C = Subsampled(f, p)
    p = sp.sympify(C.p) if isinstance(C, Subsampled) else sp.nsimplify(p)
    eps1, delta1 = lemma_4_4(eps, delta, p)
    lemma = EpsDelta(eps1, delta1)
    sums = {
        "subsampled": sp.simplify(C.min_error_sum()) if isinstance(C, Subsampled) else 2 * C.fixed_point(),
        "lemma_4_4": sp.simplify(2 * lemma.fixed_point()),
        "original": sp.simplify(2 * f.fixed_point()),
        # the printed line is constant + (-alpha): its constant, when it lies above the kink
        "cor_4_3_printed": sp.simplify(cor_4_3_line_printed(eps, delta, p, 0)),
    }
    return Figure6(eps, delta, p, eps1, delta1, sums, shaded_triangle(eps, delta, p))


def grid_minimum(fixed_point, slope_left, slope_right, points: int = 2001):
    r""":math:`\min_i (\alpha_i + f(\alpha_i))` over the grid :math:`\alpha_i = i/(N-1)` for a
    symmetric piecewise-linear f with one kink at ``fixed_point`` (slopes ``slope_left`` <= -1
    <= ``slope_right`` there): the convex function :math:`\alpha + f(\alpha)` is smallest at the
    grid point just left or just right of the kink.  Exact."""
    n = points - 1
    left = sp.floor(fixed_point * n) / n
    right = sp.ceiling(fixed_point * n) / n
    value_left = left + fixed_point + slope_left * (left - fixed_point)
    value_right = right + fixed_point + slope_right * (right - fixed_point)
    return sp.Min(value_left, value_right)


def seed_comparison(fig: Figure6 | None = None) -> list[dict]:
    """For each number the seed prints: symdp's closed form, its 30-digit value, whether it
    rounds to the seed's digits, and the explanation when it does not."""
    fig = fig or figure6()
    E = sp.exp(fig.eps)
    rows = []

    def row(key, expr, note):
        printed = SEED_PRINTED[key]
        digits = len(printed.split(".")[1])
        value = sp.N(expr, 40)
        rounded = f"{float(value):.{digits}f}"
        rows.append({"quantity": key, "seed": printed, "closed_form": sp.sstr(expr),
                     "symdp": _value(expr), "reproduced": rounded == printed,
                     "symdp_rounded": rounded, "note": note})

    row("eps_prime", fig.eps_prime, "Lemma 4.4")
    row("delta_prime", fig.delta_prime, "Lemma 4.4")
    true_sum = fig.min_error_sum["subsampled"]
    printed_sum = fig.min_error_sum["cor_4_3_printed"]
    row("min_error_sum_cor_4_3", true_sum,
        f"the true minimum over C_p(f); the seed's 0.799 is the constant of the mis-printed "
        f"Cor. 4.3 line, {_value(printed_sum, 6)} (see proofs/drs_cor_4_3.py)")
    row("min_error_sum_lemma_4_4", fig.min_error_sum["lemma_4_4"], "at the kink of f_{eps',delta'}")
    xs = (1 - fig.delta) / (1 + E)
    grid = grid_minimum(xs, -E, -1 / E)
    row("min_error_sum_original", fig.min_error_sum["original"],
        f"the true minimum 2x*; the seed's 0.086 is its 2001-point grid minimum "
        f"{_value(grid, 6)} (grid points next to the kink x* = {_value(xs, 6)})")
    rows[-1]["seed_grid_value"] = _value(grid)
    rows[2]["seed_line_value"] = _value(printed_sum)
    return rows


def plot_figure6(path, fig: Figure6 | None = None, *, points: int = 801):
    r"""Write the PNG of Figure 6 (right): :math:`f_{\varepsilon,\delta}`,
    :math:`f_{\varepsilon',\delta'}` and :math:`C_p(f_{\varepsilon,\delta})` with the shaded
    triangle where the subsampling theorem improves on Lemma 4.4.  Needs matplotlib
    (``pip install symdp[plot]``); imported here only."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plotting needs matplotlib: pip install 'symdp[plot]'") from exc
    fig = fig or figure6()
    f = EpsDelta(fig.eps, fig.delta)
    lemma = EpsDelta(fig.eps_prime, fig.delta_prime)
    C = Subsampled(f, fig.p)
    xs = [i / (points - 1) for i in range(points)]
    curves = {}
    with mpmath.workdps(20):
        for name, g in (("f", f), ("lemma", lemma), ("C", C)):
            fn = g.mp_function()
            curves[name] = [float(fn(mpmath.mpf(x))) for x in xs]
    tri = [(float(sp.N(a)), float(sp.N(b))) for a, b in fig.triangle.vertices]
    e = float(sp.N(fig.eps))
    d = float(sp.N(fig.delta))
    pp = float(sp.N(fig.p))
    e1 = float(sp.N(fig.eps_prime))
    d1 = float(sp.N(fig.delta_prime))
    figure, ax = plt.subplots(figsize=(5.6, 5.4), dpi=150)
    ax.plot(xs, curves["f"], color="0.55", lw=1.3,
            label=rf"$f_{{\varepsilon,\delta}}$, $\varepsilon={e:g}$, $\delta={d:g}$")
    ax.plot(xs, curves["lemma"], color="tab:blue", lw=1.5, ls="--",
            label=rf"$f_{{\varepsilon',\delta'}}$ (Lemma 4.4), $\varepsilon'={e1:.3f}$, $\delta'={d1:g}$")
    ax.plot(xs, curves["C"], color="tab:red", lw=1.8,
            label=rf"$C_{{{pp:g}}}(f_{{\varepsilon,\delta}})$ (Thm. 4.2)")
    ax.fill([v[0] for v in tri], [v[1] for v in tri], color="tab:red", alpha=0.25, lw=0,
            label=f"improvement (area {float(sp.N(fig.triangle.area)):.4f})")
    ax.plot([0, 1], [1, 0], color="0.8", lw=0.8, ls=":")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(r"type I error $\alpha$")
    ax.set_ylabel(r"type II error")
    ax.set_title("Subsampling (Dong, Roth, Su 2022, Fig. 6 right), recomputed by symdp", fontsize=8.5)
    ax.legend(fontsize=7.5, loc="upper right", frameon=False)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
