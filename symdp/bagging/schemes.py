r"""Subsampling schemes of bagging, neighbouring datasets and the four orderings.

Conventions (used throughout :mod:`symdp.bagging`)
--------------------------------------------------
* ``n = |D|`` is the size of *the* dataset of the theorems (Liu, Jia, Gong,
  IJCAI 2021, Thms. 2--4).  Its neighbour is :math:`D' = D \setminus \{x\}`
  (``n - 1`` records, "remove") or :math:`D' = D \cup \{y\}` (``n + 1`` records,
  "add").
* An (eps, delta)-DP guarantee bounds :math:`P(S) \le e^\varepsilon Q(S) + \delta`
  for the *ordered* pair :math:`(P, Q)`; a mechanism is DP for a neighbouring pair
  only if both orders hold.  The four :data:`ORDERINGS` are
  remove/add :math:`\times` which of :math:`b(D), b(D')` is :math:`P`.
* Every result is stated in terms of ``n = |D|``.  Indexing by the size of the
  *first* dataset instead gives the same worst case (see
  :func:`symdp.bagging.profile.max_privacy_profile`).

Schemes (:class:`Sampling`)
---------------------------
* ``WITH_REPLACEMENT`` -- each of ``N`` models gets ``k`` draws uniformly with
  replacement; the ``N`` sequences together are one sequence of ``N k`` i.i.d.
  draws, so "joint" and "independent" coincide.
* ``WITHOUT_REPLACEMENT_JOINT`` -- the paper's Thm. 3 scheme: one uniform
  ``N k``-subset, split evenly (uniformly at random) into ``N`` subsamples.
  Needs ``N k <= n - 1`` so that the neighbour with ``n - 1`` records can be
  sampled.
* ``WITHOUT_REPLACEMENT_INDEPENDENT`` -- ``N`` independent uniform ``k``-subsets
  (not covered by the paper's argument).  Needs ``k <= n - 1``.

The *inclusion probability* :math:`q(m)` of a scheme is the probability that a
fixed record of an ``m``-record dataset appears in the output; every exact
result of this package is a function of :math:`q(n)` and :math:`q(n + 1)`
(see :mod:`symdp.bagging.profile`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..core.errors import InvalidParameterError
from ..core.validation import positive_integer, shown


class Sampling(enum.Enum):
    """How bagging draws the training subsamples of its ``N`` base models."""

    WITH_REPLACEMENT = "with replacement"
    WITHOUT_REPLACEMENT_JOINT = "without replacement, N*k sampled jointly and split"
    WITHOUT_REPLACEMENT_INDEPENDENT = "without replacement, N independent k-subsets"

    @property
    def replacement(self) -> bool:
        return self is Sampling.WITH_REPLACEMENT


@dataclass(frozen=True)
class Notation:
    r"""How the paper writes the quantities of one sampling scheme (LaTeX)."""

    operator: str   #: the subsample map: ``b`` (with replacement), ``a`` (without)
    region: str     #: the regions of the joint domain: ``\Gamma_i`` or ``\Lambda_i``
    domain: str     #: the joint domain: ``\Phi`` or ``\Psi``
    tag: str        #: symdp's superscript naming the scheme (not in the paper)


#: Liu, Jia, Gong, IJCAI 2021, Appendix: proof of Thm. 2 ("operator b", Gamma_i of Phi) and
#: proof of Thm. 3 ("operator a", Lambda_i of Psi).  The independent scheme is not in the
#: paper; it samples without replacement, so it borrows Thm. 3's symbols.
NOTATION = {
    Sampling.WITH_REPLACEMENT: Notation("b", r"\Gamma", r"\Phi", r"\mathrm{wr}"),
    Sampling.WITHOUT_REPLACEMENT_JOINT: Notation("a", r"\Lambda", r"\Psi", r"\mathrm{joint}"),
    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: Notation("a", r"\Lambda", r"\Psi", r"\mathrm{indep}"),
}


class Neighbour(enum.IntEnum):
    r"""Which neighbour :math:`D'` of ``D``: the value is :math:`|D'| - |D|`."""

    REMOVE = -1   #: :math:`D' = D \setminus \{x\}`, ``n - 1`` records
    ADD = 1       #: :math:`D' = D \cup \{y\}`, ``n + 1`` records


class First(enum.IntEnum):
    """Which dataset's subsample is the first distribution ``P`` of an ordered pair."""

    D_PRIME = 0   #: ``P = b(D')`` (or ``a(D')``)
    D = 1         #: ``P = b(D)`` (or ``a(D)``)


class Dataset(enum.IntEnum):
    r"""The dataset ``X`` of a probability :math:`P[b(X) \in \Gamma_i]`."""

    D = 0
    D_PRIME = 1


class Region(enum.IntEnum):
    r"""The paper's partition of the joint domain (Liu, Jia, Gong 2021, Appendix).

    With replacement the regions are :math:`\Gamma_1, \Gamma_2, \Gamma_3` of the domain
    :math:`\Phi`; without replacement :math:`\Lambda_1, \Lambda_2, \Lambda_3` of :math:`\Psi`.
    """

    ALL = 0           #: the whole joint domain (:math:`\Phi` / :math:`\Psi`)
    ONLY_D = 1        #: outputs only ``D`` can produce (:math:`\Gamma_1` / :math:`\Lambda_1`)
    ONLY_D_PRIME = 2  #: outputs only ``D'`` can produce (:math:`\Gamma_2` / :math:`\Lambda_2`)
    BOTH = 3          #: outputs both can produce (:math:`\Gamma_3` / :math:`\Lambda_3`)


class Extreme(enum.IntEnum):
    """Which extreme of a likelihood ratio over a region."""

    MIN = 0
    MAX = 1


@dataclass(frozen=True)
class Ordering:
    r"""One ordered neighbouring pair :math:`(P, Q)`.

    ``neighbour`` is ``-1`` for :math:`D' = D \setminus \{x\}` and ``+1`` for
    :math:`D' = D \cup \{y\}`; ``d_first`` says whether :math:`P = b(D)`
    (else :math:`P = b(D')`).
    """

    neighbour: Neighbour
    d_first: bool

    def __post_init__(self):
        if self.neighbour not in (-1, 1):
            raise InvalidParameterError(
                f"neighbour must be -1 (remove) or +1 (add); got neighbour={shown(self.neighbour)}")
        object.__setattr__(self, "neighbour", Neighbour(self.neighbour))

    @property
    def first(self) -> First:
        """Which dataset is ``P``, as the case selector of :mod:`symdp.bagging.enumerated`."""
        return First.D if self.d_first else First.D_PRIME

    @property
    def key(self) -> str:
        """Identifier used in reports: ``remove_D_first``, ``add_Dprime_first``, ..."""
        return ("remove" if self.neighbour < 0 else "add") + ("_D_first" if self.d_first
                                                              else "_Dprime_first")

    @property
    def description(self) -> str:
        neighbour = "D' = D minus one record" if self.neighbour < 0 else "D' = D plus one record"
        first = "P = b(D), Q = b(D')" if self.d_first else "P = b(D'), Q = b(D)"
        return f"{neighbour}; {first}"

    @property
    def larger_first(self) -> bool:
        """Is the larger of the two datasets the first one (P)?"""
        return (self.neighbour < 0) == self.d_first

    def larger_size(self, n):
        """Size of the larger dataset of the pair: ``n`` (remove) or ``n + 1`` (add)."""
        return n if self.neighbour < 0 else n + 1

    def first_size(self, n):
        """Size of the first dataset (P's)."""
        return n if self.d_first else n + self.neighbour


REMOVE_D_FIRST = Ordering(Neighbour.REMOVE, True)
REMOVE_DPRIME_FIRST = Ordering(Neighbour.REMOVE, False)
ADD_D_FIRST = Ordering(Neighbour.ADD, True)
ADD_DPRIME_FIRST = Ordering(Neighbour.ADD, False)
ORDERINGS = (REMOVE_D_FIRST, REMOVE_DPRIME_FIRST, ADD_D_FIRST, ADD_DPRIME_FIRST)


@dataclass(frozen=True)
class Bagging:
    """Validated parameters of one bagging configuration (plain Python ints).

    >>> Bagging(60000, 1000).total_draws
    1000
    >>> Bagging(5, 5, sampling=Sampling.WITHOUT_REPLACEMENT_JOINT)
    Traceback (most recent call last):
    ...
    symdp.core.errors.InvalidParameterError: k must be <= n - 1 without replacement (the neighbour D' = D minus one record has n - 1 records and must hold a k-subset); got k=5 with n=5
    """

    n: int
    k: int
    models: int = 1
    sampling: Sampling = Sampling.WITH_REPLACEMENT

    def __post_init__(self):
        n = positive_integer("n", self.n)
        k = positive_integer("k", self.k)
        models = positive_integer("models", self.models)
        if not isinstance(self.sampling, Sampling):
            raise InvalidParameterError(
                f"sampling must be a symdp.bagging.Sampling; got sampling={shown(self.sampling)}")
        if n < 2:
            raise InvalidParameterError(
                f"n must be an integer >= 2 (the neighbour D' = D minus one record must be "
                f"non-empty); got n={n}")
        if self.sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
            if models * k > n - 1:
                which = "k" if models == 1 else "models*k"
                raise InvalidParameterError(
                    f"{which} must be <= n - 1 without replacement (the neighbour D' = D minus "
                    f"one record has n - 1 records and must hold a {which}-subset); got "
                    + (f"k={k}" if models == 1 else f"models*k={models * k} (models={models}, k={k})")
                    + f" with n={n}")
        elif self.sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
            if k > n - 1:
                raise InvalidParameterError(
                    f"k must be <= n - 1 without replacement (the neighbour D' = D minus one "
                    f"record has n - 1 records and must hold a k-subset); got k={k} with n={n}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "models", models)

    @property
    def total_draws(self) -> int:
        """``N k``: records drawn over all base models."""
        return self.models * self.k


def sampling_from_flags(without_replacement: bool, joint: bool | None) -> Sampling:
    """The scheme named by the command-line flags (joint is the paper's default)."""
    if not without_replacement:
        return Sampling.WITH_REPLACEMENT
    if joint is False:
        return Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    return Sampling.WITHOUT_REPLACEMENT_JOINT
