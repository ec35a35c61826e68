r"""Float evaluation of trade-off functions on numpy arrays: the fast path for grids and plots.

The exact objects of :mod:`symdp.tradeoff` evaluate one point at a time (exactly, or in
mpmath at any precision).  A plot or a numeric comparison wants a million points in
double precision; this module gives them, each function a transcription of the formula
it names (Dong, Roth, Su 2022, arXiv 1905.02383v3):

=================================  ==============================================================
:func:`eps_delta`                  :math:`f_{\varepsilon,\delta}(\alpha) = \max\{0,\ 1-\delta-e^{\varepsilon}\alpha,\
                                   e^{-\varepsilon}(1-\delta-\alpha)\}` (Eq. 5)
:func:`subsampled_eps_delta`       :math:`C_p(f_{\varepsilon,\delta}) = \max\{f_{\varepsilon',\delta'},\ L\}`,
                                   :math:`\varepsilon' = \log(1-p+pe^{\varepsilon})`, :math:`\delta' = p\delta`,
                                   :math:`L(\alpha) = 1 - p + 2p(1-\delta)/(1+e^{\varepsilon}) - \alpha`
                                   (Eq. 14 for :math:`f_{\varepsilon,\delta}`; Cor. 4.3 as derived in
                                   :mod:`symdp.subsampling.eps_delta`)
:func:`gaussian`                   :math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)` (Def. 2.7)
:func:`vectorize`                  any :class:`~symdp.tradeoff.base.TradeOff` with numeric parameters,
                                   from its pieces; an implicit inverse
                                   (:class:`~symdp.tradeoff.base.InverseAt`) by bisection on the array
=================================  ==============================================================

Accuracy is that of double precision: the hand-written families agree with the exact
mpmath route to about ``1e-16`` absolute (``tests/numeric/test_vectorized.py`` checks
``1e-12`` at sampled points, kinks included).  :math:`\Phi` and :math:`\Phi^{-1}` use
``scipy.special.ndtr`` / ``ndtri`` when SciPy is installed and the standard library's
``math.erfc`` / ``statistics.NormalDist.inv_cdf`` element by element otherwise (same
accuracy, slower).  :math:`\Phi^{-1}(1-\alpha)` is evaluated as :math:`-\Phi^{-1}(\alpha)`
for :math:`\alpha < 1/2`, so small :math:`\alpha` loses no digits to ``1 - alpha``.

This module imports numpy; ``import symdp`` does not import it.
"""

from __future__ import annotations

import functools
import math
import statistics

import numpy as np
import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.special import Phi, PhiInv
from ..numeric.roots import decreasing_inverse_array
from ..core.validation import shown

__all__ = ["eps_delta", "subsampled_eps_delta", "gaussian", "normal_cdf", "normal_quantile",
           "decreasing_inverse", "vectorize"]


# ---------------------------------------------------------------- the normal law on arrays

def _scipy_special():
    try:
        from scipy import special
    except ImportError:  # optional: the standard library gives the same values, slower
        return None
    return special


_erfc_elementwise = np.frompyfunc(math.erfc, 1, 1)
_inv_cdf_elementwise = np.frompyfunc(statistics.NormalDist().inv_cdf, 1, 1)


def normal_cdf(z):
    r""":math:`\Phi(z) = \tfrac12\operatorname{erfc}(-z/\sqrt2)` on an array (erfc: no
    cancellation in either tail)."""
    z = np.asarray(z, dtype=float)
    special = _scipy_special()
    if special is not None:
        return special.ndtr(z)
    # frompyfunc gives a Python float for a 0-d input: asarray, not .astype
    return np.asarray(_erfc_elementwise(-z / math.sqrt(2)), dtype=float) / 2


def normal_quantile(a):
    r""":math:`\Phi^{-1}(a)` on an array; :math:`\pm\infty` at 1 and 0."""
    a = np.asarray(a, dtype=float)
    special = _scipy_special()
    if special is not None:
        return special.ndtri(a)
    out = np.empty_like(a)
    inside = (a > 0) & (a < 1)
    out[a <= 0] = -np.inf
    out[a >= 1] = np.inf
    out[inside] = np.asarray(_inv_cdf_elementwise(a[inside]), dtype=float)
    return out


def _upper_quantile(alpha):
    r""":math:`\Phi^{-1}(1-\alpha)`, as :math:`-\Phi^{-1}(\alpha)` for :math:`\alpha < 1/2`."""
    alpha = np.asarray(alpha, dtype=float)
    return np.where(alpha < 0.5, -normal_quantile(alpha), normal_quantile(1 - alpha))


# ---------------------------------------------------------------- the families

def _check_parameter(name, value, lo, hi=None):
    value = float(value)
    if not (value >= lo and (hi is None or value <= hi)):
        constraint = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise InvalidParameterError(f"{name} must be {constraint}; got {name}={shown(value)}")
    return value


def _alphas(alpha):
    alpha = np.asarray(alpha, dtype=float)
    if alpha.size and not (alpha.min() >= 0 and alpha.max() <= 1):   # NaN fails both
        bad = alpha[~((alpha >= 0) & (alpha <= 1))].flat[0]
        raise InvalidParameterError(f"alpha must be in [0, 1]; got alpha={shown(bad)}")
    return alpha


def eps_delta(alpha, eps, delta):
    r""":math:`f_{\varepsilon,\delta}(\alpha) = \max\{0,\ 1-\delta-e^{\varepsilon}\alpha,\
    e^{-\varepsilon}(1-\delta-\alpha)\}` (Eq. 5) at every point of ``alpha``.

    >>> eps_delta([0.0, 0.25, 1.0], 0.0, 0.0).tolist()
    [1.0, 0.75, 0.0]
    """
    alpha = _alphas(alpha)
    eps = _check_parameter("eps", eps, 0)
    delta = _check_parameter("delta", delta, 0, 1)
    E = math.exp(eps)
    steep = np.multiply(alpha, -E, out=np.empty_like(alpha))          # 1 - delta - e^eps alpha
    steep += 1 - delta
    flat = np.multiply(alpha, -1 / E, out=np.empty_like(alpha))       # e^-eps (1 - delta - alpha)
    flat += (1 - delta) / E
    np.maximum(steep, flat, out=steep)
    return np.maximum(steep, 0.0, out=steep)


def subsampled_eps_delta(alpha, eps, delta, p):
    r""":math:`C_p(f_{\varepsilon,\delta})(\alpha) = \max\{f_{\varepsilon',\delta'}(\alpha),\ L(\alpha)\}`
    with :math:`\varepsilon' = \log(1 - p + pe^{\varepsilon})`, :math:`\delta' = p\delta` and
    the chord of Eq. 14 :math:`L(\alpha) = x^* + f_p(x^*) - \alpha = 1 - p + 2p(1-\delta)/(1+e^{\varepsilon}) - \alpha`.

    (This is the closed form derived from Eq. 14 and checked in ``proofs/drs_cor_4_3.py``;
    the seed note's printed line :math:`1 - p\delta - p(e^\varepsilon-1)/(e^\varepsilon+1) - \alpha`
    lies below it by :math:`p\delta(e^\varepsilon-1)/(e^\varepsilon+1)`.)

    >>> float(subsampled_eps_delta(0.5, 3.0, 0.0, 1.0)) == float(eps_delta(0.5, 3.0, 0.0))
    True
    """
    alpha = _alphas(alpha)
    eps = _check_parameter("eps", eps, 0)
    delta = _check_parameter("delta", delta, 0, 1)
    p = _check_parameter("p", p, 0, 1)
    eps_prime = math.log1p(p * math.expm1(eps))      # log(1 - p + p e^eps), no cancellation
    chord = 1 - p + 2 * p * (1 - delta) / (1 + math.exp(eps))
    out = eps_delta(alpha, eps_prime, p * delta)
    return np.maximum(out, chord - alpha, out=out)


def gaussian(alpha, mu):
    r""":math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)` (Def. 2.7) at every point of
    ``alpha``; :math:`G_\mu(0) = 1`, :math:`G_\mu(1) = 0`.

    >>> round(float(gaussian(0.5, 1.0)), 12) == round(1 - 0.8413447460685429, 12)
    True
    """
    alpha = _alphas(alpha)
    mu = _check_parameter("mu", mu, 0)
    return normal_cdf(_upper_quantile(alpha) - mu)


# ---------------------------------------------------------------- generic: from the pieces

#: :math:`\inf\{t \in [0, 1] : f(t) \le a\}` on arrays (bisection on the predicate; from
#: :mod:`symdp.numeric.roots`, the one root-finding module)
decreasing_inverse = decreasing_inverse_array


def _numpy_namespace():
    return {"Phi": normal_cdf, "PhiInv": normal_quantile}


def _float(value, name):
    value = sp.sympify(value)
    if value.free_symbols:
        raise InvalidParameterError(
            f"{name} must be a number to evaluate in floating point; got {name}={value}")
    return float(sp.N(value, 30))


def _piece_function(g: sp.Lambda):
    """The numpy function of one piece ``g``; implicit inverses become array bisections."""
    from .base import InverseAt

    t = g.variables[0]
    body = g.expr
    namespace = _numpy_namespace()
    replacements = {}
    for k, node in enumerate(sorted(body.atoms(InverseAt), key=sp.default_sort_key)):
        name = f"_inverse_{k}"
        base = vectorize(node.args[0])
        namespace[name] = functools.partial(decreasing_inverse, base)
        replacements[node] = sp.Function(name)(node.args[1])
    body = body.xreplace(replacements)
    if body.free_symbols - {t}:
        raise InvalidParameterError(
            f"parameters must be numbers to evaluate in floating point; got symbols "
            f"{', '.join(sorted(map(str, body.free_symbols - {t})))}")
    fn = sp.lambdify((t,), body, modules=[namespace, "numpy"])

    def piece(x):
        return np.broadcast_to(np.asarray(fn(x), dtype=float), np.shape(x))
    return piece


@functools.lru_cache(maxsize=128)
def vectorize(f):
    r"""``f`` as a numpy function of an array of :math:`\alpha \in [0, 1]`, built once per f.

    :math:`f(\alpha) = g_i(\alpha)` for :math:`\mathrm{lo}_i \le \alpha \le \mathrm{hi}_i` over
    the pieces of f (:meth:`~symdp.tradeoff.base.TradeOff.pieces`); each :math:`g_i` is
    compiled with ``lambdify`` to numpy and evaluated on its points only.  A piece that is
    an implicit inverse :math:`h^{-1}(a)` is evaluated by :func:`decreasing_inverse` on the
    vectorised h.  Raises ``NotImplementedError`` for an object without pieces (a convex
    envelope from its definition) and :class:`~symdp.core.errors.InvalidParameterError` when
    a parameter is symbolic.

    >>> from symdp import EpsDelta
    >>> vectorize(EpsDelta(1, "0.1"))([0.0, 1.0]).tolist()
    [0.9, 0.0]
    """
    parts = [p for p in f.pieces() if p.lo != p.hi]
    bounds = [(_float(p.lo, "a piece boundary"), _float(p.hi, "a piece boundary")) for p in parts]
    functions = [_piece_function(p.g) for p in parts]

    def evaluate(alpha):
        x = _alphas(alpha)
        out = np.empty_like(x)
        todo = np.ones(x.shape, dtype=bool)
        for (lo, hi), g in zip(bounds, functions):
            mine = todo & (x <= hi)
            if mine.any():
                out[mine] = g(x[mine])
            todo &= ~mine
        if todo.any():  # above the last boundary by rounding: the last piece
            out[todo] = functions[-1](x[todo])
        return out

    evaluate.__doc__ = f"{f} on an array of alpha in [0, 1] (double precision)."
    return evaluate
