r"""k-ary randomized response, described once (issue #23): its parameters (dp_accounting's
noise parameter ρ, or for one bit the ε₀ it keeps), its pair and its loss law.

The true value is reported with probability :math:`1-\rho` and a uniformly random one of the
k values otherwise (dp_accounting's ``RandomizedResponseDpEvent``).  Changing the true value
a to b, the pair is, on (a, b, the other k − 2 values),

.. math::
    P = (\mathrm{keep},\ \mathrm{other},\ \mathrm{mid}), \qquad
    Q = (\mathrm{other},\ \mathrm{keep},\ \mathrm{mid}),

:math:`\mathrm{keep} = 1 - \rho + \rho/k`, :math:`\mathrm{other} = \rho/k`,
:math:`\mathrm{mid} = (k-2)\rho/k`; losses :math:`\varepsilon_0 = \log(\mathrm{keep}/\mathrm{other})
= \log(1 + k(1-\rho)/\rho)`, :math:`-\varepsilon_0` and 0.  Any other pair of values gives the
same pair up to relabelling.  One bit kept with probability
:math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})` is k = 2, :math:`\rho = 2/(1+e^{\varepsilon_0})`
(irrational for rational ε₀, so that form keeps ε₀ exactly: :meth:`RandomizedResponse.binary`).
For k = 2 the trade-off function is :math:`f_{\varepsilon_0, 0}` (the atoms are those of
``eps_delta.atoms`` at δ = 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import InvalidParameterError
from .base import Event, count, real, set_field, validated


@validated
@dataclass(frozen=True)
class RandomizedResponse(Event):
    r"""k-ary randomized response (dp_accounting's ``RandomizedResponseDpEvent``): the true
    value with probability :math:`1-\rho`, else uniform over the k values; or, built by
    :meth:`binary`, one bit kept with probability :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`
    (``noise_parameter`` is then None and ``eps0`` holds ε₀ exactly)."""

    noise_parameter: Fraction | None = None
    num_buckets: int = 2
    eps0: Fraction | None = None
    kind = "randomized_response"

    def __post_init__(self):
        set_field(self, "num_buckets", count("num_buckets", self.num_buckets, 2))
        if (self.noise_parameter is None) == (self.eps0 is None):
            raise InvalidParameterError(f"randomized response needs exactly one of noise_parameter "
                                        f"(rho) and eps0; got noise_parameter={self.noise_parameter!r}, "
                                        f"eps0={self.eps0!r}")
        if self.eps0 is not None:
            set_field(self, "eps0", real("eps0", self.eps0, 0))
            if self.num_buckets != 2:
                raise InvalidParameterError(f"eps0 describes one bit: num_buckets must be 2; "
                                            f"got num_buckets={self.num_buckets}")
            return
        set_field(self, "noise_parameter", real("noise_parameter", self.noise_parameter, 0, 1, lower_open=True))

    @classmethod
    def binary(cls, eps0) -> "RandomizedResponse":
        r"""One bit kept with probability :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`, ε₀ ≥ 0,
        exactly (:math:`\rho = 2/(1+e^{\varepsilon_0})` is not stored: it is irrational)."""
        return cls(None, 2, real("eps0", eps0, 0))

    # ------------------------------------------------------------------------- formulas
    def _rho_form(self, what):
        if self.eps0 is not None:
            raise InvalidParameterError(f"{what} of one bit kept with probability e^eps0/(1+e^eps0) is "
                                        f"irrational; use masses(ops) (eps0={self.eps0})")

    @property
    def keep(self) -> Fraction:
        """P(report a | true value a) = 1 − ρ + ρ/k, exact (the ρ form)."""
        self._rho_form("keep")
        return 1 - self.noise_parameter + self.other

    @property
    def other(self) -> Fraction:
        """P(report b | true value a), b ≠ a: ρ/k, exact (the ρ form)."""
        self._rho_form("other")
        return self.noise_parameter / self.num_buckets

    def masses(self, ops):
        """(keep, other, mid) in the backend ``ops``: P of a, of b, of the other k − 2 values
        given the true value a (module docstring)."""
        if self.eps0 is not None:
            E = ops.exp(ops.number(self.eps0))
            return E / (1 + E), 1 / (1 + E), ops.number(0)
        return ops.number(self.keep), ops.number(self.other), ops.number(1 - self.keep - self.other)

    def loss(self, ops):
        r""":math:`\varepsilon_0 = \log(\mathrm{keep}/\mathrm{other})` (exact in the ε₀ form)."""
        if self.eps0 is not None:
            return ops.number(self.eps0)
        keep, other, _ = self.masses(ops)
        return ops.log(keep / other)

    def atoms(self, ops):
        """The pair as ``[(loss, P-mass, Q-mass)]`` by decreasing loss."""
        keep, other, mid = self.masses(ops)
        e = self.loss(ops)
        middle = [(ops.number(0), mid, mid)] if self.num_buckets > 2 else []
        return [(e, keep, other), *middle, (-e, other, keep)]
