"""Bagging's intrinsic privacy (Liu, Jia, Gong, IJCAI 2021), checked and made exact.

* :mod:`.schemes` -- sampling schemes and their notation, neighbours, the four orderings, the
  case enums (Neighbour, First, Dataset, Region, Extreme), validation;
* :mod:`.counting` -- the appendix's counts of Gamma_i / Lambda_i as SymPy expressions;
* :mod:`.enumeration` -- exact output distributions on real small datasets;
* :mod:`.enumerated` -- the same quantities as ``Enumerated`` SymPy atoms for the checker;
* :mod:`.profile` -- exact privacy profiles, total variation, trade-off functions;
* :mod:`.paper` -- the paper's (eps, delta) of Thms. 2 and 3;
* :mod:`.numeric` -- evaluation at n, k, N up to 10**18 with mpmath (log1p/expm1);
* :mod:`.report` -- the ``symdp bagging`` report (text and JSON) of a validated configuration.
"""

from .schemes import (ADD_D_FIRST, ADD_DPRIME_FIRST, NOTATION, ORDERINGS, REMOVE_D_FIRST,
                      REMOVE_DPRIME_FIRST, Bagging, Dataset, Extreme, First, Neighbour, Notation,
                      Ordering, Region, Sampling)

__all__ = ["Bagging", "Ordering", "Sampling", "ORDERINGS", "REMOVE_D_FIRST",
           "REMOVE_DPRIME_FIRST", "ADD_D_FIRST", "ADD_DPRIME_FIRST", "Neighbour", "First",
           "Dataset", "Region", "Extreme", "Notation", "NOTATION"]
