r"""``symdp subsample``: privacy amplification by subsampling (Dong, Roth, Su 2022, Sec. 4).

::

    symdp subsample --eps E --delta D --p P [--at EPS ...] [--dps N] [--json]
    symdp subsample --mu M --p P [--at EPS ...] [--dps N] [--json]

Prints, for f = f_{E,D} (or G_M) and the sampling ratio P: ε' and δ' of Lemma 4.4, the
closed form of C_P(f) (Eq. 14; text and LaTeX), the smallest guaranteed sum of type I and
II errors min_α (α + g(α)) for g = C_P(f), f_{ε',δ'} and f, and the privacy profile
δ(ε) = 1 + C_P(f)^*(-e^ε) at the ε values of ``--at``.  Every number is computed by
symdp from the objects; ``--json`` writes them as decimal strings with at least 30
significant digits (``--dps``)::

    {"family": "eps_delta" | "gaussian", "parameters": {...},
     "eps_prime": str | null, "delta_prime": str | null,
     "min_error_sum": {"subsampled": str, "lemma_4_4": str | null, "original": str},
     "profile": [{"eps": str, "delta": str}, ...],
     "closed_form": str, "latex": str, "closed_form_max": str | null}

(ε', δ' and the Lemma 4.4 sum are null for the Gaussian: Lemma 4.4 is about (ε, δ)-DP.)
"""

from __future__ import annotations

import json
import sys

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..tradeoff.base import alpha
from ..tradeoff.families import EpsDelta, Gaussian
from ..core.validation import nonnegative, probability, to_exact

DEFAULT_AT = ("0", "0.5", "1", "2")


def add_parser(subparsers):
    p = subparsers.add_parser(
        "subsample", help="C_p(f) for f = f_{eps,delta} or G_mu: closed form, error sums, profile",
        description="Privacy amplification by subsampling (Dong, Roth, Su 2022, Def. 4.1, Eq. 14, "
                    "Cor. 4.3, Lemma 4.4).  Give --eps and --delta, or --mu, and --p.")
    p.add_argument("--eps", metavar="E", help="epsilon of the (eps, delta)-DP mechanism")
    p.add_argument("--delta", metavar="D", help="delta of the (eps, delta)-DP mechanism")
    p.add_argument("--mu", metavar="M", help="mu of a mu-GDP (Gaussian) mechanism")
    p.add_argument("--p", required=True, metavar="P", help="sampling ratio m/n in [0, 1]")
    p.add_argument("--at", nargs="+", metavar="EPS",
                   help="epsilon values for the privacy profile (default: 0 0.5 1 2, and eps' "
                        "for (eps, delta))")
    p.add_argument("--dps", type=int, default=30, metavar="N",
                   help=f"significant digits of the printed numbers (30 to {MAX_DPS}; default 30)")
    p.add_argument("--json", action="store_true", help="write the results as JSON on stdout")
    return p


#: the largest --eps, --mu and --at accepted: beyond them e^eps has thousands of digits and
#: the closed forms take minutes (eps = 10^6 took 61 s); the smallest positive values are
#: bounded by the number syntax (1e-1000)
MAX_PARAMETER = 10_000
#: the most significant digits printed (--dps)
MAX_DPS = 10_000


def _decimal(expr, dps: int, at: dict | None = None) -> str:
    """``expr`` (its symbols set to the exact values ``at``) as a decimal string with ``dps``
    significant digits.

    By ball arithmetic (:mod:`symdp.numeric.ball_compiler`) at increasing precision until the ball's
    relative accuracy covers ``dps`` digits, so that cancellation cannot go unnoticed (SymPy's
    ``N`` gives 0 for log(4/5 + e^(1e-100)/5)); an expression the ball compiler does not
    support goes through ``sympy.N`` at ``dps + 15`` digits.
    """
    from ..numeric.balls import UNAVAILABLE, digits_to_bits, point_ball, working_bits
    from ..numeric.ball_compiler import UnsupportedExpression, compile_ball

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


def _bounded(name: str, text):
    """``text`` as an exact number in [0, :data:`MAX_PARAMETER`]."""
    value = nonnegative(name, text)
    if value.is_number and value > MAX_PARAMETER:
        raise InvalidParameterError(
            f"{name} must be <= {MAX_PARAMETER} (symdp subsample's limit: beyond it e^eps has "
            f"thousands of digits); got {name}={str(text).strip()}")
    return value


def _family(args):
    if args.mu is not None:
        if args.eps is not None or args.delta is not None:
            raise InvalidParameterError("give either --mu or --eps with --delta, not both")
        return "gaussian", Gaussian(_bounded("--mu", args.mu))
    if args.eps is None or args.delta is None:
        raise InvalidParameterError("give --eps and --delta (an (eps, delta)-DP mechanism) or --mu")
    return "eps_delta", EpsDelta(_bounded("--eps", args.eps), args.delta)


def compute(family: str, f, p, at, dps: int) -> dict:
    """The results as a dict of decimal strings and closed forms (the ``--json`` schema)."""
    from ..subsampling import subsample
    from ..subsampling.eps_delta import cor_4_3, lemma_4_4

    C = subsample(f, p)
    p = probability("p", p)
    result = {"family": family}
    if family == "eps_delta":
        result["parameters"] = {"eps": sp.sstr(f.eps), "delta": sp.sstr(f.delta), "p": sp.sstr(p)}
        eps1, delta1 = lemma_4_4(f.eps, f.delta, p)
        result["eps_prime"] = _decimal(eps1, dps)
        result["delta_prime"] = _decimal(delta1, dps)
        lemma_sum = 2 * EpsDelta(eps1, delta1).fixed_point()
        result["closed_form_max"] = sp.sstr(cor_4_3(f.eps, f.delta, p))
    else:
        result["parameters"] = {"mu": sp.sstr(f.mu), "p": sp.sstr(p)}
        result["eps_prime"] = result["delta_prime"] = None
        lemma_sum = None
        result["closed_form_max"] = None
    subsampled_sum = C.min_error_sum() if hasattr(C, "min_error_sum") else 2 * C.fixed_point()
    result["min_error_sum"] = {
        "subsampled": _decimal(subsampled_sum, dps),
        "lemma_4_4": _decimal(lemma_sum, dps) if lemma_sum is not None else None,
        "original": _decimal(2 * f.fixed_point(), dps),
    }
    e = sp.Symbol("varepsilon", real=True)
    profile = C.privacy_profile(e)
    points = []
    for value in at:
        points.append({"eps": _decimal(value, dps), "delta": _decimal(profile, dps, {e: value})})
    result["profile"] = points
    expr = C.expr(alpha)
    result["closed_form"] = sp.sstr(expr)
    result["latex"] = r"%s = %s" % (sp.latex(C(alpha)), sp.latex(expr))
    return result


def run(args) -> int:
    if not 30 <= args.dps <= MAX_DPS:
        raise InvalidParameterError(f"--dps must be in [30, {MAX_DPS}]; got --dps={args.dps}")
    family, f = _family(args)
    p = probability("p", args.p)
    if args.at:
        at = [_bounded("--at", v) for v in args.at]
    else:
        at = [to_exact("eps", v) for v in DEFAULT_AT]
        if family == "eps_delta":
            from ..subsampling.eps_delta import lemma_4_4

            at.append(lemma_4_4(f.eps, f.delta, p)[0])
    result = compute(family, f, p, at, args.dps)
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return 0
    out = []
    name = f"f_{{{result['parameters'].get('eps')},{result['parameters'].get('delta')}}}" \
        if family == "eps_delta" else f"G_{result['parameters']['mu']}"
    out.append(f"C_p(f) for f = {name}, p = {result['parameters']['p']} "
               "(Dong, Roth, Su 2022, Def. 4.1 / Eq. 14)")
    if family == "eps_delta":
        out.append(f"  eps'   = log(1 - p + p e^eps) = {result['eps_prime']}   (Lemma 4.4)")
        out.append(f"  delta' = p delta              = {result['delta_prime']}")
    out.append(f"  closed form: C_p(f)(alpha) = {result['closed_form']}")
    if result["closed_form_max"]:
        out.append(f"             = {result['closed_form_max']}   (Cor. 4.3, derived)")
    out.append(f"  LaTeX: {result['latex']}")
    sums = result["min_error_sum"]
    out.append("  smallest type I + type II error, min_alpha (alpha + g(alpha)):")
    out.append(f"    C_p(f) (Thm. 4.2)      {sums['subsampled']}")
    if sums["lemma_4_4"] is not None:
        out.append(f"    f_(eps',delta') (L4.4) {sums['lemma_4_4']}")
    out.append(f"    f (no subsampling)     {sums['original']}")
    out.append("  privacy profile delta(eps) = 1 + C_p(f)^*(-e^eps):")
    for row in result["profile"]:
        out.append(f"    eps = {row['eps']}   delta = {row['delta']}")
    print("\n".join(out))
    return 0
