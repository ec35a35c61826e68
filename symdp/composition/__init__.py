r"""Composition of trade-off functions (Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 3).

=======================  ==============================================================
:func:`tensor`           :math:`f \otimes g = T(P\times P', Q\times Q')` (Def. 3.1)
:func:`tensor_power`     :math:`f^{\otimes n}`
:mod:`.privacy_loss`     privacy-loss distributions; profiles of products
:class:`DensityPair`     T(P, Q) from two densities (enters products by the loss route)
:mod:`.eps_delta`        exact :math:`f_{\varepsilon,\delta}^{\otimes k}` (Kairouz--Oh--Viswanath
                         2015, Thm. 3.3) and heterogeneous products by enumeration
=======================  ==============================================================
"""

from .density import DensityPair
from .eps_delta import heterogeneous_loss, kov_epsilon, kov_epsilon_value, kov_profile, \
    kov_profile_value, kov_theorem_3_3
from .privacy_loss import DensityLoss, GaussianLoss, LaplaceLoss, LossAtoms, epsilon_for_delta, \
    product_profile
from .products import TensorPower, TensorProduct, loss_of, tensor, tensor_power

__all__ = ["DensityPair", "TensorProduct", "TensorPower", "tensor", "tensor_power", "loss_of", "LossAtoms",
           "GaussianLoss", "LaplaceLoss", "DensityLoss", "product_profile", "epsilon_for_delta",
           "kov_profile", "kov_profile_value", "kov_epsilon", "kov_epsilon_value",
           "kov_theorem_3_3", "heterogeneous_loss"]
