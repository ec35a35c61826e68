r"""Bagging (Liu, Jia, Gong, IJCAI 2021): the paper's (ε, δ) against the exact values, across k/n.

For each k the numbers come from :func:`symdp.bagging.numeric.analyse` (log-space mpmath):
the paper's ε and δ (Thm. 2, or Thm. 3 without replacement), the exact δ at the paper's ε,
and the exact smallest ε at the paper's δ.  The subsample map is exactly
:math:`(\varepsilon, q(n))`-DP for every :math:`\varepsilon \ge 0`, so the paper's δ is
exact while its ε can be replaced by 0 -- the figure shows both.
"""

from __future__ import annotations

from ..bagging import Bagging, Sampling
from ._mpl import new_figure

__all__ = ["bagging_values", "bagging_figure", "K_OVER_N_LABEL"]

K_OVER_N_LABEL = r"$k/n$ (examples per base model / dataset size)"


def _ks(n: int, models: int, sampling: Sampling, points: int) -> list[int]:
    top = n - 1 if sampling is not Sampling.WITH_REPLACEMENT else n
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        top = (n - 1) // models
    if top < 1:
        raise ValueError(f"no admissible k for n={n}, models={models} ({sampling.value})")
    if top <= points:
        return list(range(1, top + 1))
    return sorted({max(1, round(1 + (top - 1) * i / (points - 1))) for i in range(points)})


def bagging_values(n: int, models: int = 1, sampling: Sampling = Sampling.WITH_REPLACEMENT,
                   ks=None, points: int = 60, dps: int = 20) -> list[dict]:
    """One row per k: ``k``, ``k_over_n``, ``paper_eps``, ``paper_delta``, ``exact_delta_at_paper_eps``,
    ``exact_min_eps_at_paper_delta``, ``tv`` (floats; the exact ones computed at ``dps``)."""
    from ..bagging.numeric import analyse

    ks = list(ks) if ks is not None else _ks(n, models, sampling, points)
    rows = []
    for k in ks:
        a = analyse(Bagging(n, k, models, sampling), dps=dps)
        rows.append({"k": k, "k_over_n": k / n, "paper_eps": float(a.paper_epsilon.mp),
                     "paper_delta": float(a.paper_delta.mp),
                     "exact_delta_at_paper_eps": float(a.min_delta_at_paper_epsilon.mp),
                     "exact_min_eps_at_paper_delta": float(a.min_epsilon_at_paper_delta.mp),
                     "tv": float(a.tv.mp)})
    return rows


def bagging_figure(n: int = 100, models: int = 1, sampling: Sampling = Sampling.WITH_REPLACEMENT,
                   ks=None, points: int = 60):
    r"""Two panels across k/n: δ (the paper's and the exact one at the paper's ε) and ε (the
    paper's and the exact smallest one at the paper's δ).  Returns a matplotlib Figure."""
    rows = bagging_values(n, models, sampling, ks, points)
    x = [r["k_over_n"] for r in rows]
    theorem = "Thm. 2" if sampling is Sampling.WITH_REPLACEMENT else (
        "Thm. 3" if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT else "extension")
    fig, (left, right) = new_figure(9.6, 4.0, ncols=2)
    left.plot(x, [r["paper_delta"] for r in rows], color="tab:blue", lw=1.8,
              label=rf"paper's $\delta$ ({theorem})")
    left.plot(x, [r["exact_delta_at_paper_eps"] for r in rows], ls="none", marker="o", ms=3.5,
              mfc="none", color="tab:red", label=r"exact $\delta$ at the paper's $\varepsilon$")
    left.set_xlabel(K_OVER_N_LABEL)
    left.set_ylabel(r"$\delta$")
    left.set_ylim(0, 1.02)
    left.set_title(r"$\delta$: the paper's value is exact", fontsize=9)
    right.plot(x, [r["paper_eps"] for r in rows], color="tab:blue", lw=1.8,
               label=rf"paper's $\varepsilon$ ({theorem})")
    right.plot(x, [r["exact_min_eps_at_paper_delta"] for r in rows], color="tab:red", lw=1.8,
               ls="--", label=r"exact smallest $\varepsilon$ at the paper's $\delta$")
    right.set_xlabel(K_OVER_N_LABEL)
    right.set_ylabel(r"$\varepsilon$")
    right.set_ylim(bottom=-0.05)
    right.set_title(r"$\varepsilon$: the paper's value is loose", fontsize=9)
    for ax in (left, right):
        ax.set_xlim(0, max(x) * 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7.5, frameon=False, loc="best")
    fig.suptitle(f"Bagging (Liu, Jia, Gong 2021): n = {n}, N = {models} model"
                 f"{'s' if models != 1 else ''}, {sampling.value}", fontsize=9.5)
    fig.tight_layout()
    return fig
