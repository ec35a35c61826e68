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
                   help="significant digits of the printed numbers (>= 30; default 30)")
    p.add_argument("--json", action="store_true", help="write the results as JSON on stdout")
    return p


def _decimal(expr, dps: int) -> str:
    """A decimal string with ``dps`` significant digits, computed at ``dps + 15`` digits."""
    with mpmath.workdps(dps + 15):
        value = sp.N(expr, dps + 15)
    if value.is_zero:
        return "0." + "0" * dps
    if not value.is_Number:
        raise InvalidParameterError(f"could not evaluate {expr} to a number")
    return sp.Float(value, dps).__str__()


def _family(args):
    if args.mu is not None:
        if args.eps is not None or args.delta is not None:
            raise InvalidParameterError("give either --mu or --eps with --delta, not both")
        return "gaussian", Gaussian(args.mu)
    if args.eps is None or args.delta is None:
        raise InvalidParameterError("give --eps and --delta (an (eps, delta)-DP mechanism) or --mu")
    return "eps_delta", EpsDelta(args.eps, args.delta)


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
        with mpmath.workdps(dps + 15):
            points.append({"eps": _decimal(value, dps), "delta": _decimal(profile.subs(e, value), dps)})
    result["profile"] = points
    expr = C.expr(alpha)
    result["closed_form"] = sp.sstr(expr)
    result["latex"] = r"%s = %s" % (sp.latex(C(alpha)), sp.latex(expr))
    return result


def run(args) -> int:
    if args.dps < 30:
        raise InvalidParameterError(f"--dps must be >= 30; got --dps={args.dps}")
    family, f = _family(args)
    p = probability("p", args.p)
    if args.at:
        at = [nonnegative("eps", v) for v in args.at]
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
