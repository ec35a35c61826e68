r"""``symdp subsample``: privacy amplification by subsampling (Dong, Roth, Su 2022, Sec. 4).

::

    symdp subsample --eps E --delta D --p P [--at EPS ...] [--dps N] [--json]
    symdp subsample --mu M --p P [--at EPS ...] [--dps N] [--json]

Prints, for f = f_{E,D} (or G_M) and the sampling ratio P: ε' and δ' of Lemma 4.4, the
closed form of C_P(f) (Eq. 14; text and LaTeX), the smallest guaranteed sum of type I and
II errors min_α (α + g(α)) for g = C_P(f), f_{ε',δ'} and f, and the privacy profile
δ(ε) = 1 + C_P(f)^*(-e^ε) at the ε values of ``--at``.  Every number is computed by
symdp from the objects (:func:`symdp.subsampling.summary.summary`; this module only
parses and formats); ``--json`` writes them as decimal strings with at least 30
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

from ..core.errors import InvalidParameterError
from ..core.validation import nonnegative, probability
from ..subsampling.summary import default_epsilons, summary
from ..tradeoff.families import EpsDelta, Gaussian


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


def run(args) -> int:
    if not 30 <= args.dps <= MAX_DPS:
        raise InvalidParameterError(f"--dps must be in [30, {MAX_DPS}]; got --dps={args.dps}")
    family, f = _family(args)
    p = probability("p", args.p)
    at = [_bounded("--at", v) for v in args.at] if args.at else default_epsilons(f, p)
    result = summary(f, p, at, args.dps)
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
