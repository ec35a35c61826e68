r"""Trade-off curves: :math:`f`, :math:`f_p`, :math:`f_p^{-1}`, :math:`C_p(f)`,
:math:`f_{\varepsilon',\delta'}`, and Figure 6 (right) of Dong, Roth, Su 2022.

Curves are sampled from the objects themselves.  Two exact shortcuts avoid root-finding
at every point: the graph of an inverse :math:`f^{-1}` is the graph of f reflected in
the diagonal (Eq. 4), and a symmetric :math:`C_p(f)` is sampled on
:math:`[0, x^*]` (its fixed point) and reflected.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..tradeoff import EpsDelta, Gaussian, Laplace
from ..tradeoff.base import TradeOff
from ..tradeoff.operators import Inverse, Mixture
from ._mpl import new_figure

__all__ = ["curve", "tradeoff_label", "plot_curves", "tradeoff_figure", "subsampling_figure",
           "certified_band_figure", "band_alphas", "ALPHA_LABEL", "BETA_LABEL"]

ALPHA_LABEL = r"type I error $\alpha$"
BETA_LABEL = r"type II error $\beta = f(\alpha)$"


def _num(x) -> str:
    """A parameter for a label: exact integers and short decimals as typed, else 4 digits."""
    x = sp.nsimplify(x) if not isinstance(x, sp.Basic) else x
    if x.is_Integer:
        return str(x)
    v = float(sp.N(x, 20))
    return f"{v:.4g}"


def _family(f):
    """(mathtext name, parameter text) of a family, or None."""
    if isinstance(f, EpsDelta):
        return r"f_{\varepsilon,\delta}", rf"$\varepsilon={_num(f.eps)}$, $\delta={_num(f.delta)}$"
    if isinstance(f, Gaussian):
        return r"G_{\mu}", rf"$\mu={_num(f.mu)}$"
    if isinstance(f, Laplace):
        return r"L_{\mu}", rf"$\mu={_num(f.mu)}$"
    return None


def tradeoff_label(f, *, short: bool = False) -> str:
    """A mathtext label in the papers' notation, with the parameters' values.  ``short``
    names an operator's argument f instead of spelling it out."""
    fam = _family(f)
    if fam is not None:
        name, params = fam
        return rf"${name}$, {params}"
    from ..subsampling.operator import Subsampled

    if isinstance(f, (Subsampled, Mixture)) or (isinstance(f, Inverse) and isinstance(f.base, Mixture)):
        mix = f.base if isinstance(f, Inverse) else f
        base = _family(mix.base)
        arg, params = ("f", "") if short or base is None else (base[0], ", " + base[1])
        if isinstance(f, Subsampled):
            head = rf"$C_p({arg})$"
        elif isinstance(f, Mixture):
            head = rf"$({arg})_p$" if arg != "f" else r"$f_p$"
        else:
            head = rf"$({arg})_p^{{-1}}$" if arg != "f" else r"$f_p^{-1}$"
        return rf"{head}, $p={_num(mix.p)}${params}"
    if isinstance(f, Inverse):
        return r"$f^{-1}$"
    return "$" + sp.latex(f) + "$"


def _grid(f: TradeOff, lo: float, hi: float, points: int) -> list:
    xs = {lo + (hi - lo) * i / (points - 1) for i in range(points)}
    try:  # the pieces' ends, so that kinks are drawn sharp
        for piece in f.pieces():
            for end in (piece.lo, piece.hi):
                v = sp.N(end, 20)
                if v.is_Number and lo <= float(v) <= hi:
                    xs.add(float(v))
    except Exception:  # noqa: BLE001 - no pieces to read (the grid alone is fine)
        pass
    return sorted(xs)


def _sample(f: TradeOff, lo: float, hi: float, points: int):
    fn = f.mp_function()
    xs = _grid(f, lo, hi, points)
    ys = []
    with mpmath.workdps(20):
        for x in xs:
            ys.append(float(fn(mpmath.mpf(x))))
    return xs, ys


def curve(f: TradeOff, points: int = 401) -> tuple[list, list]:
    r"""``(alphas, betas)`` on the graph of ``f`` over [0, 1] (floats, for plotting)."""
    if points < 2:
        raise ValueError(f"points must be >= 2; got points={points}")
    if isinstance(f, Inverse):
        xs, ys = curve(f.base, points)
        pairs = sorted(zip(ys, xs))
        return [a for a, _ in pairs], [b for _, b in pairs]
    from ..subsampling.operator import Subsampled

    if isinstance(f, Subsampled) and f.has_closed_form:
        x_star = float(sp.N(f.fixed_point(), 20))
        xs, ys = _sample(f, 0.0, x_star, max(2, points // 2))
        pairs = sorted(set(zip(xs, ys)) | {(b, a) for a, b in zip(xs, ys)})
        return [a for a, _ in pairs], [b for _, b in pairs]
    return _sample(f, 0.0, 1.0, points)


def plot_curves(ax, curves, *, points: int = 401, styles=None):
    """Draw ``curves`` (pairs ``(label, f)``) on ``ax`` with the papers' axis labels."""
    styles = styles or [{}] * len(curves)
    for (label, f), style in zip(curves, styles):
        xs, ys = curve(f, points)
        ax.plot(xs, ys, label=label, **({"lw": 1.5} | style))
    ax.plot([0, 1], [1, 0], color="0.8", lw=0.8, ls=":", label=r"$1-\alpha$ (perfect privacy)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(ALPHA_LABEL)
    ax.set_ylabel(BETA_LABEL)
    ax.legend(fontsize=7.5, loc="upper right", frameon=False)
    return ax


def tradeoff_figure(f: TradeOff, p=None, *, points: int = 401, title: str | None = None):
    r"""f and, with a sampling ratio ``p``: :math:`f_p = pf + (1-p)\mathrm{Id}`,
    :math:`f_p^{-1}`, :math:`C_p(f)` (Def. 4.1), and for :math:`f = f_{\varepsilon,\delta}`
    also :math:`f_{\varepsilon',\delta'}` of Lemma 4.4.  Returns a matplotlib Figure."""
    curves = [(r"$f$ = " + tradeoff_label(f), f)]
    styles = [{"color": "0.35", "lw": 1.3}]
    if p is not None:
        from ..subsampling import subsample

        fp = f.mix(p)
        C = subsample(f, p)
        curves += [(tradeoff_label(fp, short=True), fp),
                   (tradeoff_label(Inverse(fp), short=True), Inverse(fp)),
                   (tradeoff_label(C, short=True), C)]
        styles += [{"color": "tab:green", "ls": "--"}, {"color": "tab:purple", "ls": "-."},
                   {"color": "tab:red", "lw": 2.0}]
        if isinstance(f, EpsDelta):
            from ..subsampling.eps_delta import lemma_4_4_tradeoff

            g = lemma_4_4_tradeoff(f.eps, f.delta, fp.p)
            curves.append((rf"$f_{{\varepsilon',\delta'}}$ (Lemma 4.4), "
                           rf"$\varepsilon'={_num(g.eps)}$, $\delta'={_num(g.delta)}$", g))
            styles.append({"color": "tab:blue", "ls": ":", "lw": 1.8})
    fig, ax = new_figure(5.6, 5.4)
    plot_curves(ax, curves, points=points, styles=styles)
    ax.set_title(title or ("Trade-off functions" + ("" if p is None else
                                                   r" and subsampling $C_p$ (Def. 4.1)")),
                 fontsize=9)
    fig.tight_layout()
    return fig


def subsampling_figure(eps=3, delta="0.1", p="0.2", *, points: int = 401):
    r"""Figure 6 (right) of Dong, Roth, Su 2022 (arXiv 1905.02383v3, Sec. 4.1), recomputed:
    :math:`f_{\varepsilon,\delta}`, Lemma 4.4's :math:`f_{\varepsilon',\delta'}` and
    :math:`C_p(f_{\varepsilon,\delta})`, with the shaded triangle where Thm. 4.2 improves on
    Lemma 4.4.  Returns a matplotlib Figure."""
    from ..subsampling import subsample
    from ..subsampling.eps_delta import lemma_4_4_tradeoff, shaded_triangle

    f = EpsDelta(eps, delta)
    C = subsample(f, p)
    pp = C.p if hasattr(C, "p") else sp.nsimplify(p)
    g = lemma_4_4_tradeoff(f.eps, f.delta, pp)
    fig, ax = new_figure(5.6, 5.4)
    plot_curves(ax, [(tradeoff_label(f), f),
                     (rf"$f_{{\varepsilon',\delta'}}$ (Lemma 4.4), $\varepsilon'={_num(g.eps)}$, "
                      rf"$\delta'={_num(g.delta)}$", g),
                     (rf"$C_p(f_{{\varepsilon,\delta}})$ (Thm. 4.2), $p={_num(pp)}$", C)],
                points=points,
                styles=[{"color": "0.55", "lw": 1.3}, {"color": "tab:blue", "ls": "--"},
                        {"color": "tab:red", "lw": 1.8}])
    tri = shaded_triangle(f.eps, f.delta, pp)
    vs = [(float(sp.N(a, 20)), float(sp.N(b, 20))) for a, b in tri.vertices]
    ax.fill([v[0] for v in vs], [v[1] for v in vs], color="tab:red", alpha=0.25, lw=0,
            label=f"improvement (area {float(sp.N(tri.area, 20)):.4f})")
    ax.legend(fontsize=7.5, loc="upper right", frameon=False)
    ax.set_title("Subsampling: Dong, Roth, Su 2022, Fig. 6 (right), recomputed", fontsize=9)
    fig.tight_layout()
    return fig


def band_alphas(points: int = 40) -> list:
    """The α of a certified band: log-spaced from 1e-6 (half of them, where a membership
    attack is read) and evenly spaced up to 0.99, as short decimals."""
    from fractions import Fraction

    half = max(2, points // 2)
    logs = [Fraction(f"{10 ** (-6 + 6 * i / half):.3g}") for i in range(half)]
    lin = [Fraction(f"{0.02 + 0.97 * i / (points - half - 1):.3g}") for i in range(points - half)]
    return sorted(set(logs + lin))


def certified_band_figure(c, *, title: str | None = None):
    r"""The certified band :math:`[\beta_{lo}, \beta_{hi}]` of a :class:`symdp.accountant.curve.TradeOffCurve`
    (its symmetrised curve, or its only one) at its α, with :math:`G_\mu` for the upper end of the
    implied μ bracket drawn for comparison (:math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)`,
    exact): left, β against α; right, the true-positive rate 1 - β against α on log axes (a
    membership attack's ROC).  Returns a matplotlib Figure."""
    main = c.main
    xs = [float(p.alpha) for p in main.points]
    lo = [float(p.beta_lo) for p in main.points]
    hi = [float(p.beta_hi) for p in main.points]
    fig, (ax, roc) = new_figure(10.4, 4.8, ncols=2)
    ax.fill_between(xs, lo, hi, color="tab:red", alpha=0.35, lw=0, label="certified band")
    ax.plot(xs, lo, color="tab:red", lw=0.9)
    ax.plot(xs, hi, color="tab:red", lw=0.9)
    tpr_lo = [max(1 - h, 1e-300) for h in hi]
    tpr_hi = [max(1 - l, 1e-300) for l in lo]
    roc.fill_between(xs, tpr_lo, tpr_hi, color="tab:red", alpha=0.35, lw=0, label="certified band")
    roc.plot(xs, tpr_lo, color="tab:red", lw=0.9)
    mu = c.mu[1] if c.mu[1] is not None else c.mu[0]
    if mu:
        m = float(mu)
        with mpmath.workdps(20):
            g = [float(mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(a) - 1) - m)) for a in xs]
        label = rf"$G_\mu$, $\mu={m:.4g}$ (the implied $\mu$)"
        ax.plot(xs, g, color="0.3", ls="--", lw=1.2, label=label)
        roc.plot(xs, [1 - v for v in g], color="0.3", ls="--", lw=1.2, label=label)
    ax.plot([0, 1], [1, 0], color="0.8", lw=0.8, ls=":", label=r"$1-\alpha$ (perfect privacy)")
    roc.plot(xs, xs, color="0.8", lw=0.8, ls=":", label=r"TPR $=\alpha$")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel(ALPHA_LABEL)
    ax.set_ylabel(BETA_LABEL)
    roc.set_xscale("log")
    roc.set_yscale("log")
    roc.set_xlabel(r"false-positive rate $\alpha$")
    roc.set_ylabel(r"true-positive rate $1 - f(\alpha)$")
    for a in (ax, roc):
        a.grid(alpha=0.3)
        a.legend(fontsize=7.5, frameon=False)
    fig.suptitle(title or f"Certified trade-off curve ({main.name}); both ends of the band proved", fontsize=9)
    fig.tight_layout()
    return fig
