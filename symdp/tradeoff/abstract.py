r"""An abstract trade-off function: a symbol ``f`` standing for *any* trade-off function.

Dong, Roth, Su 2022 (arXiv 1905.02383v3), Def. 2.1 and Prop. 2.2: a trade-off function is
:math:`T(P,Q)(\alpha) = \inf\{\beta_\phi : \alpha_\phi \le \alpha\}`; exactly the convex,
continuous, non-increasing :math:`f : [0,1] \to [0,1]` with :math:`f(\alpha) \le 1 - \alpha`.

``AbstractTradeOff("f")`` has no formula: ``f(x)`` stays the unevaluated
:class:`~symdp.tradeoff.base.TradeOffAt`, ``f^{-1}(a)`` an :class:`~symdp.tradeoff.base.InverseAt`,
``f^*(y)`` a :class:`~symdp.tradeoff.base.ConjugateAt` and its fixed point a
:class:`FixedPoint`.  What a derivation may use about it is what the kernel knows as
*named lemmas* (:mod:`symdp.proof.kernel.convex`): the properties of Prop. 2.2, and only
what the declaration states beyond them --

* ``symmetric=True``: :math:`f = f^{-1}` (Eq. 4), the hypothesis of Eq. 14 and Thm. 4.2;
* ``below=(g, ...)``: :math:`f \le g` on [0, 1] (the hypothesis "f <= g" of the order
  property after Def. 4.1);
* ``profile_dominates_inverse=True``: :math:`\delta_f(\varepsilon) \ge \delta_{f^{-1}}(\varepsilon)`
  for every ε >= 0 (the condition of Prop. 4.5).

A lemma whose hypothesis is not declared is refused by the kernel: that is how a proof
"for every symmetric f" fails for an f that is not declared symmetric.  The name is an
``sp.Str``, not a Symbol: ``f`` is not a parameter with a domain.
"""

from __future__ import annotations

import sympy as sp
from sympy.core.symbol import Str

from .base import ConjugateAt, TradeOff, TradeOffAt, alpha

__all__ = ["AbstractTradeOff", "FixedPoint"]


class AbstractTradeOff(TradeOff):
    """A trade-off function known only through its declaration (module docstring).

    >>> f = AbstractTradeOff("f", symmetric=True)
    >>> f(alpha)
    f(alpha)
    >>> f.is_symmetric_declared
    True
    """

    is_abstract = True

    def __new__(cls, name, symmetric=False, below=(), profile_dominates_inverse=False):
        if not isinstance(name, (str, Str)) or not str(name).isidentifier():
            from ..core.errors import InvalidParameterError

            raise InvalidParameterError(f"name must be an identifier; got name={name!r}")
        below = tuple(below)
        for g in below:
            if not isinstance(g, TradeOff):
                from ..core.errors import InvalidParameterError

                raise InvalidParameterError(f"below must hold trade-off functions; got {g!r}")
        return super().__new__(cls, Str(str(name)), sp.true if symmetric else sp.false,
                               sp.Tuple(*below),
                               sp.true if profile_dominates_inverse else sp.false)

    @property
    def name(self) -> str:
        return self.args[0].name

    @property
    def is_symmetric_declared(self) -> bool:
        return self.args[1] is sp.true

    @property
    def symmetric_by_construction(self) -> bool:  # read by subsampling.is_symmetric
        return self.is_symmetric_declared

    @property
    def below(self) -> tuple:
        """The trade-off functions f is declared to lie below."""
        return tuple(self.args[2])

    @property
    def profile_dominates_inverse(self) -> bool:
        return self.args[3] is sp.true

    def pieces(self):
        raise NotImplementedError(f"the abstract trade-off function {self.name} has no pieces")

    def expr(self, x=alpha):
        return TradeOffAt(self, sp.sympify(x))

    def conjugate(self, y):
        return ConjugateAt(self, sp.sympify(y))

    def fixed_point(self):
        return FixedPoint(self)

    def evaluate(self, x, dps=None):
        raise NotImplementedError(f"the abstract trade-off function {self.name} has no values")

    def _latex_name(self, printer):
        return self.name

    def _sympystr(self, printer):
        return self.name


class FixedPoint(sp.Expr):
    r"""The fixed point :math:`x^* = g(x^*)` of a trade-off function g, unevaluated (it exists
    and is unique: :math:`g(x) - x` is continuous and falls strictly from :math:`g(0) \ge 0`
    to :math:`-1`)."""

    is_commutative = True

    def __new__(cls, g):
        if not isinstance(g, TradeOff):
            raise TypeError("FixedPoint needs a TradeOff")
        return super().__new__(cls, g)

    @property
    def function(self) -> TradeOff:
        return self.args[0]

    def _eval_is_real(self):
        return True

    def _latex(self, printer, exp=None):
        body = r"x^{*}_{%s}" % printer._print(self.args[0])
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "FixedPoint(%s)" % printer._print(self.args[0])
