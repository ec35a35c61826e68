"""symdp: symbolic derivations for differential privacy research."""

from .errors import (DerivationError, InvalidParameterError, NotATradeOffFunctionError,
                     ParseError, RootFindingError, SymdpError)
from .special import Phi, PhiInv

__version__ = "0.1.0"
from .subsampling import subsample  # noqa: E402  (Dong, Roth, Su 2022, Def. 4.1)
