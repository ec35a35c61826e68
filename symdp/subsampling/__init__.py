r"""Privacy amplification by subsampling in f-DP (Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 4).

=====================  ==============================================================
:func:`subsample`      :math:`C_p(f) = \min\{f_p, f_p^{-1}\}^{**}` (Def. 4.1, Eq. 14)
:mod:`.eps_delta`      Lemma 4.4, Cor. 4.3 (as printed and as derived), Eq. 15, the
                       "shaded triangle"
:mod:`.duality`        the primal--dual route of the proof of Thm. 4.2 (Eq. 16, Prop. 4.5)
:mod:`.tightness`      :math:`C_p(0) = f_{0,p}` and the pair of distributions attaining it
:mod:`.neyman_pearson` Neyman--Pearson on the actual subsampled-Gaussian mixtures
:mod:`.figure6`        Figure 6 (right) recomputed, and its PNG
=====================  ==============================================================
"""

from .operator import Subsampled, as_trade_off, inverse_conjugate, is_symmetric, subsample

__all__ = ["Subsampled", "subsample", "as_trade_off", "inverse_conjugate", "is_symmetric"]
