"""symdp: symbolic derivations for differential privacy research."""

from .errors import (DerivationError, InvalidParameterError, NotATradeOffFunctionError,
                     ParseError, RootFindingError, SymdpError)
from .special import Phi, PhiInv

__version__ = "0.1.0"
