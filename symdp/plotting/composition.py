r"""The seed's claim as a figure: ε at a fixed δ after T compositions of
:math:`C_p(f_{\varepsilon,\delta})` (Dong, Roth, Su 2022, Eq. 14) and of Lemma 4.4's
:math:`f_{\varepsilon',\delta'}`, for T from 10 to 10⁴ (:func:`symdp.composition.seed_claim.loss_table`:
exact, Arb balls).
"""

from __future__ import annotations

from ._mpl import new_figure

__all__ = ["composition_figure", "DEFAULT_STEPS"]

DEFAULT_STEPS = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)


def _num(x) -> str:
    import sympy as sp

    from ..core.validation import to_exact

    return "%.4g" % float(sp.N(to_exact("value", x), 20))


def composition_figure(eps=1, delta="1e-8", p="0.01", target="1e-5", steps=DEFAULT_STEPS):
    """Left: ε(δ = target) against T for both; right: the ratio (the loss compounds)."""
    from ..composition.seed_claim import loss_table

    rows = [(T, a, b) for T, a, b in loss_table(eps, delta, p, target, steps)
            if a is not None and b is not None]
    if not rows:   # an empty figure is not a result
        from ..core.errors import InvalidParameterError

        raise InvalidParameterError(
            f"at-delta={_num(target)}: no finite eps at this delta for any T asked (the mass at "
            f"infinity, 1 - (1 - delta')^T, exceeds it): nothing to draw")
    Ts = [T for T, _, _ in rows]
    cp = [float(a.mid()) for _, a, _ in rows]
    lemma = [float(b.mid()) for _, _, b in rows]
    fig, (left, right) = new_figure(width=10, height=4.4, ncols=2)
    left.plot(Ts, cp, "o-", label=r"$C_p(f_{\varepsilon,\delta})^{\otimes T}$ (Eq. 14)")
    left.plot(Ts, lemma, "s--", label=r"$(f_{\varepsilon',\delta'})^{\otimes T}$ (Lemma 4.4)")
    left.set_xscale("log")
    left.set_xlabel(r"number of compositions $T$")
    left.set_ylabel(r"$\varepsilon$ at $\delta = %s$" % _num(target))
    left.legend()
    left.set_title(r"$\varepsilon = %s$, $\delta = %s$, $p = %s$" % (_num(eps), _num(delta), _num(p)))
    right.plot(Ts, [b / a for a, b in zip(cp, lemma)], "o-", color="C3")
    right.set_xscale("log")
    right.set_xlabel(r"number of compositions $T$")
    right.set_ylabel(r"ratio of the two $\varepsilon$")
    right.set_title("the loss from Lemma 4.4 compounds")
    fig.tight_layout()
    return fig
