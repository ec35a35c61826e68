r"""The numbers ``symdp subsample`` reports for :math:`C_p(f)` (Dong, Roth, Su 2022, Sec. 4).

For f = :math:`f_{\varepsilon,\delta}` (Eq. 5) or :math:`G_\mu` (Def. 2.7) and a sampling
ratio p, :func:`summary` computes from the objects:

* :math:`\varepsilon' = \log(1 - p + pe^\varepsilon)` and :math:`\delta' = p\delta`
  (Lemma 4.4; (ε, δ) only);
* the closed form of :math:`C_p(f) = \min\{f_p, f_p^{-1}\}^{**}` (Def. 4.1, Eq. 14), as text
  and LaTeX, and for (ε, δ) the derived Cor. 4.3 maximum form;
* the smallest guaranteed sum of type I and II errors :math:`\min_\alpha(\alpha + g(\alpha))`
  for g = :math:`C_p(f)` (Thm. 4.2), :math:`f_{\varepsilon',\delta'}` (Lemma 4.4) and f;
* the privacy profile :math:`\delta(\varepsilon) = 1 + C_p(f)^*(-e^\varepsilon)` (Prop. 2.12)
  at the requested ε.

Numbers are decimal strings with ``dps`` significant digits, certified by ball arithmetic
where the ball compiler supports the expression (:func:`decimal`); the dict is the JSON schema of ``symdp subsample
--json`` (the CLI only formats it)::

    {"family": "eps_delta" | "gaussian", "parameters": {...},
     "eps_prime": str | null, "delta_prime": str | null,
     "min_error_sum": {"subsampled": str, "lemma_4_4": str | null, "original": str},
     "profile": [{"eps": str, "delta": str}, ...],
     "closed_form": str, "latex": str, "closed_form_max": str | null}
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.validation import nonnegative, probability, to_exact, shown
from ..numeric.ball_compiler import UnsupportedExpression, compile_ball
from ..numeric.balls import UNAVAILABLE, digits_to_bits, point_ball, working_bits
from ..tradeoff.base import alpha
from ..tradeoff.families import EpsDelta, Gaussian
from .eps_delta import cor_4_3, lemma_4_4
from .operator import subsample

__all__ = ["DEFAULT_EPSILONS", "decimal", "default_epsilons", "family_name", "summary"]

#: ε at which the privacy profile is reported unless others are asked for.
DEFAULT_EPSILONS = ("0", "0.5", "1", "2")


def decimal(expr, dps: int, at: dict | None = None) -> str:
    """``expr`` (its symbols set to the exact values ``at``) as a decimal string with ``dps``
    significant digits.

    By ball arithmetic (:mod:`symdp.numeric.ball_compiler`) at increasing precision until the
    ball's relative accuracy covers ``dps`` digits, so that cancellation cannot go unnoticed
    (SymPy's ``N`` gives 0 for log(4/5 + e^(1e-100)/5)); an expression the ball compiler does
    not support goes through ``sympy.N`` at ``dps + 15`` digits.
    """
    at = dict(at or {})
    inexact = {s: v for s, v in at.items() if not (v.is_Rational or v.is_Float)}
    if inexact:  # e.g. eps' = log(1 - p + p e^eps): a constant of the expression
        expr = expr.xreplace(inexact)
        at = {s: v for s, v in at.items() if s not in inexact}
    fn = None
    if UNAVAILABLE is None:
        try:
            fn = compile_ball(expr, tuple(at))
        except UnsupportedExpression:
            fn = None
    if fn is not None:
        bits, limit = digits_to_bits(dps + 15), digits_to_bits(dps + 15 + 4 * 1000)
        while bits <= limit:
            with working_bits(bits):
                ball = fn({s: point_ball(v) for s, v in at.items()})
            if ball.is_finite() and ball.is_zero():
                return "0." + "0" * dps
            if ball.is_finite() and ball.rel_accuracy_bits() >= digits_to_bits(dps) + 4:
                man, exp = ball.mid().man_exp()
                value = sp.Integer(int(man)) * sp.Integer(2) ** int(exp)
                return sp.Float(value, dps).__str__()
            bits *= 2
        # a ball around 0 never reaches a relative accuracy: is the value exactly 0?
        try:
            exact = sp.simplify(expr.xreplace(at)) if at else sp.simplify(expr)
        except (TypeError, ValueError):  # e.g. SymPy comparing a tiny power to 1
            exact = None
        if exact is not None and exact.is_zero:
            return "0." + "0" * dps
        raise InvalidParameterError(f"could not evaluate {sp.sstr(expr)[:80]} to {dps} digits "
                                    f"(--dps) within the limit of {limit} bits of working "
                                    "precision")
    expr = expr.subs(at) if at else expr
    with mpmath.workdps(dps + 15):
        value = sp.N(expr, dps + 15)
    if value.is_zero:
        return "0." + "0" * dps
    if not value.is_Number:
        raise InvalidParameterError(f"could not evaluate {expr} to a number")
    return sp.Float(value, dps).__str__()


def family_name(f) -> str:
    """``"eps_delta"`` or ``"gaussian"``: the two families the summary knows."""
    if isinstance(f, EpsDelta):
        return "eps_delta"
    if isinstance(f, Gaussian):
        return "gaussian"
    raise InvalidParameterError(
        f"f must be an EpsDelta or a Gaussian trade-off function; got f={shown(f)}")


def default_epsilons(f, p) -> list:
    """:data:`DEFAULT_EPSILONS`, and for :math:`f_{\\varepsilon,\\delta}` also ε' of Lemma 4.4."""
    at = [to_exact("eps", v) for v in DEFAULT_EPSILONS]
    if family_name(f) == "eps_delta":
        at.append(lemma_4_4(f.eps, f.delta, probability("p", p))[0])
    return at


def summary(f, p, at, dps: int = 30) -> dict:
    """The numbers and closed forms of :math:`C_p(f)` as a dict (the ``--json`` schema)."""
    family = family_name(f)
    at = [nonnegative("eps", v) for v in at]
    C = subsample(f, p)
    p = probability("p", p)
    result = {"family": family}
    if family == "eps_delta":
        result["parameters"] = {"eps": sp.sstr(f.eps), "delta": sp.sstr(f.delta), "p": sp.sstr(p)}
        eps1, delta1 = lemma_4_4(f.eps, f.delta, p)
        result["eps_prime"] = decimal(eps1, dps)
        result["delta_prime"] = decimal(delta1, dps)
        lemma_sum = 2 * EpsDelta(eps1, delta1).fixed_point()
        result["closed_form_max"] = sp.sstr(cor_4_3(f.eps, f.delta, p))
    else:
        result["parameters"] = {"mu": sp.sstr(f.mu), "p": sp.sstr(p)}
        result["eps_prime"] = result["delta_prime"] = None
        lemma_sum = None
        result["closed_form_max"] = None
    subsampled_sum = C.min_error_sum() if hasattr(C, "min_error_sum") else 2 * C.fixed_point()
    result["min_error_sum"] = {
        "subsampled": decimal(subsampled_sum, dps),
        "lemma_4_4": decimal(lemma_sum, dps) if lemma_sum is not None else None,
        "original": decimal(2 * f.fixed_point(), dps),
    }
    e = sp.Symbol("varepsilon", real=True)
    profile = C.privacy_profile(e)
    points = []
    for value in at:
        points.append({"eps": decimal(value, dps), "delta": decimal(profile, dps, {e: value})})
    result["profile"] = points
    expr = C.expr(alpha)
    result["closed_form"] = sp.sstr(expr)
    result["latex"] = r"%s = %s" % (sp.latex(C(alpha)), sp.latex(expr))
    return result
