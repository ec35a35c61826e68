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


def account(event, *, delta=None, eps=None, precision: int = 2, neighboring_relation=None):
    """Certified bracket on epsilon(delta) (``delta=``) or delta(eps) (``eps=``) of a privacy event:
    a :mod:`symdp.events` event or a dp_accounting ``DpEvent`` (converted by
    :func:`symdp.events.from_dp_accounting`, with ``neighboring_relation`` when the tree's
    noise events would be read under replace-one: docs/events.md).  Returns
    :class:`symdp.accountant.events.Accounting` (``lo``, ``hi`` exact rationals;
    ``lower_bounds`` says what ``lo`` bounds).

    >>> from symdp.events import Gaussian, SelfComposed
    >>> b = account(SelfComposed(Gaussian(4), 16), delta="1e-5", precision=0)
    >>> float(b.lo) <= 4.377178 <= float(b.hi)    # G_1: epsilon(1e-5) = 4.3771781...
    True
    """
    from .accountant.events import account as _account
    return _account(_event_of(event, neighboring_relation), delta=delta, eps=eps, precision=precision)


def tradeoff_curve(event, alphas, *, precision: int = 2, neighboring_relation=None):
    r"""Certified brackets :math:`\beta_{lo} \le f(\alpha) \le \beta_{hi}` on the trade-off curve(s)
    of a privacy event at each α of ``alphas`` (a number or a sequence in [0, 1]): a
    :mod:`symdp.events` event or a dp_accounting ``DpEvent``.  Returns
    :class:`symdp.accountant.curve.TradeOffCurve`: ``curves["remove"]``, ``["add"]`` and
    ``["symmetrised"]`` under add/remove-one adjacency (else ``["curve"]``), each with exact
    rational ends per α; the minimum error sum and the implied Gaussian-DP μ, bracketed
    (docs/accountant.md §10).

    >>> from symdp.events import Gaussian, SelfComposed
    >>> c = tradeoff_curve(SelfComposed(Gaussian(2), 4), ["0.05"])   # G_1 at alpha = 0.05
    >>> p = c.curves["curve"].points[0]
    >>> float(p.beta_lo) <= 0.7404889771 <= float(p.beta_hi)
    True
    """
    from .accountant.curve import tradeoff_curve as _curve
    return _curve(_event_of(event, neighboring_relation), alphas, precision=precision)


def _event_of(event, neighboring_relation=None):
    """A symdp event, or a dp_accounting DpEvent converted; ``neighboring_relation`` is for the
    latter only (a symdp event's noise is a shift of 1 under any adjacency)."""
    from .events import Event, from_dp_accounting
    if isinstance(event, Event):
        if neighboring_relation is not None:
            raise InvalidParameterError("neighboring_relation is for a dp_accounting DpEvent; a symdp event "
                                        "fixes its adjacency by its sampling events")
        return event
    return from_dp_accounting(event, neighboring_relation=neighboring_relation)
