"""symdp: symbolic derivations for differential privacy research.

Trade-off functions of f-DP (Dong, Roth, Su 2022) as exact SymPy objects, the
operators on them, and proofs as data checked step by step.
"""

from .core.errors import (DerivationError, InvalidParameterError, NotATradeOffFunctionError,
                     ParseError, RootFindingError, SymdpError)
from .core.special import Phi, PhiInv
from .tradeoff import (ConvexEnvelope, EpsDelta, Gaussian, Identity, Inverse, Laplace, Mixture,
                       TradeOff, Zero, alpha)
from .subsampling import subsample  # Dong, Roth, Su 2022, Def. 4.1

__version__ = "0.1.0"
