r"""The paper's privacy parameters (Liu, Jia, Gong, IJCAI 2021).

* Thm. 2 (with replacement, ``N`` models of ``k`` draws):
  :math:`\varepsilon = Nk\ln\frac{n+1}{n}`, :math:`\delta = 1 - (\frac{n-1}{n})^{Nk}`.
* Thm. 3 (without replacement, ``N k`` examples sampled jointly and split):
  :math:`\varepsilon = \ln\frac{n+1}{n+1-Nk}`, :math:`\delta = \frac{Nk}{n}`.
* ``N`` independent ``k``-subsets without replacement are not covered by the
  paper's argument; :func:`paper_epsilon`/:func:`paper_delta` return the natural
  extension :math:`\varepsilon = N\ln\frac{n+1}{n+1-k}`,
  :math:`\delta = 1 - (\frac{n-k}{n})^N` (labelled so by :func:`source`).

In every case the paper's delta equals the exact total variation ``q(n)`` of
:mod:`symdp.bagging.profile`: the delta is exact, the epsilon is not needed.
"""

from __future__ import annotations

import sympy as sp

from .profile import N, k, n
from .schemes import Sampling
from ..core.validation import shown


def paper_epsilon(sampling: Sampling, n_=n, k_=k, models=1) -> sp.Expr:
    """The paper's epsilon (Thm. 2 / Thm. 3), or the natural extension for independent subsets."""
    n_, k_, models = sp.sympify(n_), sp.sympify(k_), sp.sympify(models)
    if sampling is Sampling.WITH_REPLACEMENT:
        return models * k_ * sp.log((n_ + 1) / n_)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return sp.log((n_ + 1) / (n_ + 1 - models * k_))
    if sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        return models * sp.log((n_ + 1) / (n_ + 1 - k_))
    raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")


def paper_exp_epsilon(sampling: Sampling, n_=n, k_=k, models=1) -> sp.Expr:
    r""":math:`e^\varepsilon` of the paper, a rational function of n, k, N."""
    n_, k_, models = sp.sympify(n_), sp.sympify(k_), sp.sympify(models)
    if sampling is Sampling.WITH_REPLACEMENT:
        return ((n_ + 1) / n_) ** (models * k_)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return (n_ + 1) / (n_ + 1 - models * k_)
    if sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        return ((n_ + 1) / (n_ + 1 - k_)) ** models
    raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")


def paper_delta(sampling: Sampling, n_=n, k_=k, models=1) -> sp.Expr:
    """The paper's delta (Thm. 2 / Thm. 3), or the natural extension for independent subsets."""
    n_, k_, models = sp.sympify(n_), sp.sympify(k_), sp.sympify(models)
    if sampling is Sampling.WITH_REPLACEMENT:
        return 1 - ((n_ - 1) / n_) ** (models * k_)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return models * k_ / n_
    if sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        return 1 - ((n_ - k_) / n_) ** models
    raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")


def source(sampling: Sampling) -> str:
    """Where the pair comes from."""
    if sampling is Sampling.WITH_REPLACEMENT:
        return "Liu, Jia, Gong, IJCAI 2021, Thm. 2 (N models: Appendix, proof of Thm. 4)"
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return "Liu, Jia, Gong, IJCAI 2021, Thm. 3 (N*k examples sampled at once and split)"
    return ("not in the paper: natural extension of Thm. 3 to N independent k-subsets "
            "(epsilon = N ln((n+1)/(n+1-k)), delta = 1 - ((n-k)/n)^N)")


__all__ = ["paper_epsilon", "paper_exp_epsilon", "paper_delta", "source", "n", "k", "N"]
