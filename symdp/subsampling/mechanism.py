r"""Abstract mechanisms: the objects Thm. 4.2 speaks about (Dong, Roth, Su 2022, Sec. 4).

A mechanism M is *f-DP* (Def. 2.3) when :math:`T(M(S), M(S')) \ge f` for every pair of
neighbouring datasets.  Here

* ``Mechanism("M", dp=f)`` is a mechanism declared f-DP (the hypothesis of Thm. 4.2), or
  ``Mechanism("N", dp_profile=g)`` one declared :math:`(\varepsilon, \delta_g(\varepsilon))`-DP
  for every ε >= 0 with :math:`\delta_g(\varepsilon) = 1 + g^*(-e^\varepsilon)` (the hypothesis
  of Prop. 4.5); ``Mechanism("M")`` declares nothing;
* ``SampledMechanism(M, p)`` is :math:`M \circ \mathtt{Sample}_m` with :math:`p = m/n`: M run
  on a uniformly random m-subset of an n-record dataset (the subset is not released);
* ``MechanismTradeOff(M)`` is :math:`T(M(S), M(S'))` for one neighbouring pair (S, S'),
  chosen arbitrarily: a statement proved about it holds for every pair.  It is a trade-off
  function (Def. 2.1) and has no formula.

"M is g-DP" is then the relation ``MechanismTradeOff(M)(alpha) >= g(alpha)`` for every
alpha in [0, 1], which a derivation states as a step; the kernel knows the declarations as
named hypotheses (:mod:`symdp.proof.kernel.convex`).
"""

from __future__ import annotations

import sympy as sp
from sympy.core.symbol import Str

from ..core.errors import InvalidParameterError
from ..core.validation import probability
from ..tradeoff.base import TradeOff, TradeOffAt, alpha

__all__ = ["Mechanism", "SampledMechanism", "MechanismTradeOff"]


class Mechanism(sp.Basic):
    """An abstract mechanism with its declared guarantee (module docstring)."""

    def __new__(cls, name, dp=None, dp_profile=None):
        if not isinstance(name, (str, Str)) or not str(name).isidentifier():
            raise InvalidParameterError(f"name must be an identifier; got name={name!r}")
        for label, g in (("dp", dp), ("dp_profile", dp_profile)):
            if g is not None and not isinstance(g, TradeOff):
                raise InvalidParameterError(f"{label} must be a trade-off function; got "
                                            f"{label}={g!r}")
        return super().__new__(cls, Str(str(name)), sp.Tuple(*([dp] if dp is not None else [])),
                               sp.Tuple(*([dp_profile] if dp_profile is not None else [])))

    @property
    def name(self) -> str:
        return self.args[0].name

    @property
    def dp(self):
        """The f of "M is f-DP" as declared (None: not declared)."""
        return self.args[1][0] if self.args[1] else None

    @property
    def dp_profile(self):
        """The g of "M is (eps, delta_g(eps))-DP for every eps >= 0" (None: not declared)."""
        return self.args[2][0] if self.args[2] else None

    def _sympystr(self, printer):
        return self.name

    def _latex(self, printer, exp=None):
        return self.name


class SampledMechanism(sp.Basic):
    r""":math:`M \circ \mathtt{Sample}_m`, the mechanism M run on a uniformly random m-subset of
    an n-record dataset, :math:`p = m/n \in [0, 1]`."""

    def __new__(cls, mechanism, p):
        if not isinstance(mechanism, (Mechanism, SampledMechanism)):
            raise InvalidParameterError(f"mechanism must be a Mechanism; got {mechanism!r}")
        conditions = []
        p = probability("p", p, conditions)
        return super().__new__(cls, mechanism, p)

    @property
    def mechanism(self):
        return self.args[0]

    @property
    def p(self):
        return self.args[1]

    def _sympystr(self, printer):
        return "%s o Sample_%s" % (printer._print(self.args[0]), printer._print(self.args[1]))

    def _latex(self, printer, exp=None):
        return r"%s \circ \mathrm{Sample}_{%s}" % (printer._print(self.args[0]),
                                                   printer._print(self.args[1]))


class MechanismTradeOff(TradeOff):
    r""":math:`T(M(S), M(S'))` for one neighbouring pair: a trade-off function without a
    formula (Def. 2.1)."""

    is_abstract = True

    def __new__(cls, mechanism):
        if not isinstance(mechanism, (Mechanism, SampledMechanism)):
            raise InvalidParameterError(f"mechanism must be a Mechanism; got {mechanism!r}")
        return super().__new__(cls, mechanism)

    @property
    def mechanism(self):
        return self.args[0]

    def pieces(self):
        raise NotImplementedError("the trade-off function of an abstract mechanism has no pieces")

    def expr(self, x=alpha):
        return TradeOffAt(self, sp.sympify(x))

    def evaluate(self, x, dps=None):
        raise NotImplementedError("the trade-off function of an abstract mechanism has no values")

    def _latex_name(self, printer):
        return r"T_{%s}" % printer._print(self.args[0])

    def _sympystr(self, printer):
        return "T[%s]" % printer._print(self.args[0])
