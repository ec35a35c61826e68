"""Trade-off functions (f-DP) as exact SymPy objects, and the operators on them."""

from .base import ConjugateAt, InverseAt, Piece, TradeOff, TradeOffAt, alpha, conjugate, fixed_point, \
    privacy_profile, varepsilon
from .abstract import AbstractTradeOff, FixedPoint
from .families import EpsDelta, Gaussian, Identity, Laplace, Zero
from .duality import ProfileTradeOff, from_privacy_profile
from .operators import ConvexEnvelope, Inverse, Mixture, PointwiseMin

__all__ = ["TradeOff", "TradeOffAt", "InverseAt", "ConjugateAt", "Piece", "alpha", "varepsilon", "EpsDelta",
           "Gaussian", "Laplace", "Identity", "Zero", "Inverse", "Mixture", "PointwiseMin",
           "ConvexEnvelope", "ProfileTradeOff", "from_privacy_profile", "conjugate", "fixed_point", "privacy_profile",
           "AbstractTradeOff", "FixedPoint"]
