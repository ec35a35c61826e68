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


def account(event, *, delta=None, eps=None, precision: int = 2):
    """Certified bracket on epsilon(delta) (``delta=``) or delta(eps) (``eps=``) of a privacy event:
    a :mod:`symdp.events` event or a dp_accounting ``DpEvent`` (converted by
    :func:`symdp.events.from_dp_accounting`).  Returns :class:`symdp.accountant.events.Accounting`
    (``lo``, ``hi`` exact rationals; ``lower_bounds`` says what ``lo`` bounds).

    >>> from symdp.events import Gaussian, SelfComposed
    >>> b = account(SelfComposed(Gaussian(4), 16), delta="1e-5", precision=0)
    >>> float(b.lo) <= 4.377178 <= float(b.hi)    # G_1: epsilon(1e-5) = 4.3771781...
    True
    """
    from .accountant.events import account as _account
    from .events import Event, from_dp_accounting
    if not isinstance(event, Event):
        event = from_dp_accounting(event)
    return _account(event, delta=delta, eps=eps, precision=precision)
