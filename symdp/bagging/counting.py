r"""The appendix's counting arguments as SymPy expressions.

Liu, Jia, Gong, IJCAI 2021, Appendix, proofs of Thm. 2 (with replacement) and
Thm. 3 (without replacement).  ``|D| = n``, ``|D'| = n + s`` with ``s = -1``
(remove) or ``s = +1`` (add), so :math:`|D \cap D'| = n - 1` or ``n``.

With replacement (ordered ``k``-sequences, each of the :math:`|X|^k` equally likely
under ``b(X)``):

.. math::
    |\Gamma_1| = |D|^k - |D\cap D'|^k,\quad |\Gamma_2| = |D'|^k - |D\cap D'|^k,\quad
    |\Gamma_3| = |D\cap D'|^k .

Without replacement (``k``-subsets, each of the :math:`\binom{|X|}{k}` equally likely
under ``a(X)``):

.. math::
    |\Lambda_1| = \binom{|D|}{k} - \binom{|D\cap D'|}{k},\quad
    |\Lambda_2| = \binom{|D'|}{k} - \binom{|D\cap D'|}{k},\quad
    |\Lambda_3| = \binom{|D\cap D'|}{k}.

``P[b(X) in Gamma_i] = |Gamma_i| / |X|^k`` when ``X`` can produce the outputs of
``Gamma_i`` and 0 otherwise (region 1 is impossible under ``D'``, region 2
under ``D``).  Checked against enumeration in ``proofs/bagging_counts.py``.
"""

from __future__ import annotations

import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.validation import shown


def _sizes(n, sign):
    if sign not in (-1, 1):
        raise InvalidParameterError(f"sign must be -1 (remove) or +1 (add); got sign={shown(sign)}")
    n = sp.sympify(n)
    return n, n + sign, (n - 1 if sign < 0 else n)


def _region(region):
    if region not in (1, 2, 3):
        raise InvalidParameterError(f"region must be 1, 2 or 3; got region={shown(region)}")
    return region


def gamma_count(region: int, n, k, sign: int) -> sp.Expr:
    r""":math:`|\Gamma_i|` for ``|D| = n``, ``|D'| = n + sign`` (paper's formulas).

    >>> gamma_count(1, 5, 2, -1)
    9
    """
    size_d, size_dprime, common = _sizes(n, sign)
    k = sp.sympify(k)
    return {1: size_d ** k - common ** k, 2: size_dprime ** k - common ** k,
            3: common ** k}[_region(region)]


def lambda_count(region: int, n, k, sign: int) -> sp.Expr:
    r""":math:`|\Lambda_i|` for ``|D| = n``, ``|D'| = n + sign`` (paper's formulas)."""
    size_d, size_dprime, common = _sizes(n, sign)
    k = sp.sympify(k)
    b = sp.binomial
    return {1: b(size_d, k) - b(common, k), 2: b(size_dprime, k) - b(common, k),
            3: b(common, k)}[_region(region)]


def _probability(count, region, n, k, sign, of_dprime, total):
    size_d, size_dprime, _ = _sizes(n, sign)
    if (region == 2 and not of_dprime) or (region == 1 and of_dprime):
        return sp.Integer(0)
    return count(region, n, k, sign) / total(size_dprime if of_dprime else size_d, sp.sympify(k))


def gamma_probability(region: int, n, k, sign: int, of_dprime: bool = False) -> sp.Expr:
    r""":math:`P[b(X) \in \Gamma_i]`, ``X = D`` (default) or ``D'``: count over :math:`|X|^k`."""
    return _probability(gamma_count, _region(region), n, k, sign, of_dprime, lambda s, k_: s ** k_)


def lambda_probability(region: int, n, k, sign: int, of_dprime: bool = False) -> sp.Expr:
    r""":math:`P[a(X) \in \Lambda_i]`: count over :math:`\binom{|X|}{k}`."""
    return _probability(lambda_count, _region(region), n, k, sign, of_dprime, sp.binomial)


def gamma_output_probability(n, k, sign: int, of_dprime: bool = False) -> sp.Expr:
    r"""Probability of one output under ``b(X)``: :math:`|X|^{-k}`."""
    size_d, size_dprime, _ = _sizes(n, sign)
    return 1 / (size_dprime if of_dprime else size_d) ** sp.sympify(k)


def lambda_output_probability(n, k, sign: int, of_dprime: bool = False) -> sp.Expr:
    r"""Probability of one output under ``a(X)``: :math:`1/\binom{|X|}{k}`."""
    size_d, size_dprime, _ = _sizes(n, sign)
    return 1 / sp.binomial(size_dprime if of_dprime else size_d, sp.sympify(k))
