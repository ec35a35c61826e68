r"""Figures (matplotlib, PNG and PDF), with axis labels in the papers' notation.

==============================  ==========================================================
:func:`tradeoff_figure`         f, :math:`f_p`, :math:`f_p^{-1}`, :math:`C_p(f)`,
                                :math:`f_{\varepsilon',\delta'}` (axes α, β = f(α))
:func:`subsampling_figure`      Figure 6 (right) of Dong, Roth, Su 2022, recomputed
:func:`profile_figure`          privacy profiles δ(ε) (axes ε, δ(ε))
:func:`bagging_figure`          bagging: the paper's (ε, δ) against the exact values across k/n
:func:`composition_figure`      ε after T compositions: C_p(f_{ε,δ}) against Lemma 4.4
:func:`certified_band_figure`   the certified band of a composed mechanism's trade-off curve
:func:`save_figure`             write a figure to .png or .pdf (atomically)
:func:`to_png`                  PNG bytes of a figure (``IPython.display.Image(to_png(fig))``)
:func:`report_figures`          the figures of ``symdp report``
==============================  ==========================================================

matplotlib is imported only when a figure is drawn (``pip install 'symdp[plot]'``), on the
Agg canvas: ``import symdp`` stays light and no display is needed.

>>> from symdp.plotting import tradeoff_figure, save_figure   # doctest: +SKIP
>>> from symdp import Gaussian
>>> save_figure(tradeoff_figure(Gaussian(1), p="0.5"), "tradeoff.png")   # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from ._mpl import save_figure, to_png
from .bagging import bagging_figure, bagging_values
from .composition import composition_figure
from .profile import default_profile_functions, profile_figure, profile_points
from .tradeoff import (band_alphas, certified_band_figure, curve, plot_curves, subsampling_figure,
                       tradeoff_figure, tradeoff_label)

__all__ = ["tradeoff_figure", "subsampling_figure", "profile_figure", "bagging_figure",
           "save_figure", "to_png", "report_figures", "curve", "plot_curves", "profile_points",
           "bagging_values", "tradeoff_label", "default_profile_functions", "composition_figure",
           "certified_band_figure", "band_alphas"]


def report_figures(directory) -> list[tuple[str, str]]:
    """Draw the report's figures into ``directory`` as ``<stem>.pdf`` and ``<stem>.png``;
    return ``(stem, caption)`` pairs, the captions in LaTeX (math in ``$...$``)."""
    import sympy as sp

    from ..tradeoff import EpsDelta, Gaussian
    from ..subsampling import subsample

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    half = sp.Rational(1, 2)
    made = [
        ("tradeoff_gaussian", lambda: tradeoff_figure(Gaussian(1), p=half),
         r"Trade-off functions (Dong, Roth, Su 2022, Def.~4.1): $f = G_1$, the mixture "
         r"$f_p = pf + (1-p)\mathrm{Id}$, its inverse $f_p^{-1}$ and the subsampled $C_p(f)$ "
         r"for $p = 1/2$."),
        ("subsampling_figure6", lambda: subsampling_figure(),
         r"Figure~6 (right) of Dong, Roth, Su 2022 recomputed: $f_{\varepsilon,\delta}$ with "
         r"$\varepsilon = 3$, $\delta = 0.1$, Lemma~4.4's $f_{\varepsilon',\delta'}$ and "
         r"$C_p(f_{\varepsilon,\delta})$ for $p = 0.2$; the shaded triangle is where Thm.~4.2 "
         r"improves on Lemma~4.4."),
        ("privacy_profiles", lambda: profile_figure(
            default_profile_functions() + [subsample(EpsDelta(3, "0.1"), "0.2")]),
         r"Privacy profiles $\delta(\varepsilon) = 1 + f^*(-e^\varepsilon)$ (Prop.~2.12): "
         r"$G_\mu$ for $\mu = 0.5, 1, 2$ (Cor.~2.13) and $C_p(f_{3,0.1})$ for $p = 0.2$."),
        ("bagging_k_over_n", lambda: bagging_figure(100),
         r"Bagging with replacement, $n = 100$, one model (Liu, Jia, Gong 2021, Thm.~2): the "
         r"paper's $\delta$ equals the exact one; its $\varepsilon$ can be replaced by 0."),
    ]
    out = []
    for stem, build, caption in made:
        fig = build()
        for suffix in (".pdf", ".png"):
            save_figure(fig, directory / f"{stem}{suffix}")
        out.append((stem, caption))
    return out
