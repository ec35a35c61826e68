r"""A certified privacy accountant (issue #16, docs/accountant.md).

Two-sided, proved bounds on the privacy profile of a T-fold composition of the
subsampled Gaussian mechanism (and of any step given by a dominating pair), composed by a
float64 FFT with a proved error bound (the default, ``FFTGrid``, docs §3F) or by exact integer
products (``engine="exact"``, ``Grid``):

>>> from symdp.accountant import poisson_gaussian, certified_epsilon
>>> b = certified_epsilon(poisson_gaussian(1.0, 0.01, 1000), 1e-5)   # doctest: +SKIP
>>> b.lo <= b.hi                                                      # doctest: +SKIP
True
"""

from .certify import (Bracket, Phase, certified_delta, certified_epsilon, compose, grid_for,
                      poisson_gaussian, uniform_gaussian)
from .discrete import Grid, LowerPLD, UpperPLD, discretise
from .fft import FFTGrid
from .pairs import (EpsDelta, Gaussian, Laplace, Pair, PoissonGaussian, RandomizedResponse, Subsampled,
                    UniformGaussian)

__all__ = ["Bracket", "Phase", "certified_delta", "certified_epsilon", "compose", "grid_for",
           "poisson_gaussian", "uniform_gaussian", "FFTGrid", "Grid", "LowerPLD", "UpperPLD", "discretise",
           "EpsDelta", "Gaussian", "Laplace", "Pair", "PoissonGaussian", "RandomizedResponse",
           "Subsampled", "UniformGaussian"]
