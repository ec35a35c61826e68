r"""The seed's claim made visible: forcing :math:`C_p(f_{\varepsilon,\delta})` into (ε, δ) form
(Lemma 4.4: :math:`f_{\varepsilon',\delta'}`, :math:`\varepsilon' = \log(1-p+pe^\varepsilon)`,
:math:`\delta' = p\delta`) loses privacy, and the loss compounds under composition.

Both :math:`C_p(f_{\varepsilon,\delta})` (Eq. 14; Cor. 4.3 as derived) and
:math:`f_{\varepsilon',\delta'}` are piecewise linear, i.e. trade-off functions of finite pairs
(P, Q) whose losses lie on the lattice :math:`\{m\varepsilon'\} \cup \{+\infty\}` (C_p adds the
chord, loss 0).  Their T-fold products are computed exactly as polynomial powers in Arb
(:class:`~.privacy_loss.LatticeLoss`), and ε at a fixed δ is read off in closed form.
"""

from __future__ import annotations

from ..core.errors import InvalidParameterError
from ..subsampling.eps_delta import lemma_4_4, subsampled_eps_delta
from .privacy_loss import LatticeLoss, LossAtoms

__all__ = ["loss_table", "MAX_T", "MAX_TOTAL_T", "MAX_ROWS"]

#: limits on work (the polynomial power costs about a second per 1000 compositions): the
#: largest T, the largest sum of the T asked, and the most rows
MAX_T = 20_000
MAX_TOTAL_T = 30_000
MAX_ROWS = 20


def loss_table(eps, delta, p, target, steps=(10, 100, 1000, 10000), prec: int = 256) -> list:
    """Rows ``(T, eps_Cp, eps_lemma)`` as Arb balls (``None`` when no finite ε exists).
    Needs ε > 0 and p > 0 (else both functions are f_{0,·} and there is nothing to compare)."""
    from ..core.validation import parameter, positive_integer

    parameter("eps", eps, 0, None, lower_open=True)
    parameter("p", p, 0, 1, lower_open=True)
    steps = [positive_integer("T", T) for T in steps]
    if not steps or len(steps) > MAX_ROWS:
        raise InvalidParameterError(f"steps must hold 1 to {MAX_ROWS} values of T (the limit on "
                                    f"work); got {len(steps)}")
    for T in steps:
        if T > MAX_T:
            raise InvalidParameterError(f"T must be at most {MAX_T} (the limit on work); got T={T}")
    if sum(steps) > MAX_TOTAL_T:
        raise InvalidParameterError(f"the values of T must sum to at most {MAX_TOTAL_T} (the limit "
                                    f"on work); got {sum(steps)}")
    eps1, delta1 = lemma_4_4(eps, delta, p)
    C = LossAtoms.from_piecewise_linear(subsampled_eps_delta(eps, delta, p))
    F = LossAtoms.from_eps_delta(eps1, delta1)
    c1, f1 = LatticeLoss.from_atoms(C, eps1, prec), LatticeLoss.from_atoms(F, eps1, prec)
    return [(T, c1.power(T).epsilon_ball(target), f1.power(T).epsilon_ball(target)) for T in steps]
