r"""``symdp tradeoff``: certified trade-off curves β = f(α) of a composed, subsampled mechanism.

    symdp tradeoff --poisson-gaussian --sigma 1 --q 0.01 --steps 1000 --alpha 1e-7 1e-5 1e-3 0.01 0.1 0.5
    symdp tradeoff --event event.json --alpha 1e-5 0.01 [--json]

For each α a bracket β_lo <= f(α) <= β_hi, both ends proved (docs/accountant.md §10): f(α) is
the least type II error of a test at type I error α -- for a membership-inference attack, 1 - β
is its best true-positive rate at false-positive rate α.  Under add/remove-one adjacency
(Poisson sampling) the two orders of the adjacent datasets ("remove": the test for the record
being in, "add": its reverse) and their symmetrisation (the largest f such that the mechanism
is f-DP) are printed.  Also: the minimum error sum min(α + f(α)) = 1 - δ(0) and the implied
Gaussian-DP μ at the α given.  Exit 0, or 2 on input errors.
"""

from __future__ import annotations

import json
from fractions import Fraction

from ..core.errors import InvalidParameterError
from .account import (Progress, add_event_argument, add_mechanism_arguments, exact_str, fmt, read_event,
                      read_phases)

#: the α printed when none is given (issue #31's DP-SGD example)
DEFAULT_ALPHAS = ("1e-7", "1e-5", "1e-3", "0.01", "0.1", "0.5")

#: what each curve is, for the printout
MEANING = {
    "remove": "T(M(D'), M(D)), D = D' + the record: alpha = FPR on D', beta = FNR on D (the membership test)",
    "add": "T(M(D), M(D')): the reverse test (the inverse of remove)",
    "symmetrised": "min(remove, add)**: the largest f with the mechanism f-DP for both orders",
    "curve": "the mechanism's trade-off function (symmetric: one curve)",
}


def add_parser(subparsers):
    p = subparsers.add_parser("tradeoff", help="certified trade-off curve beta = f(alpha) of a composed mechanism",
                              description="Certified brackets on the trade-off function f(alpha) of a "
                                          "composition (subsampled Gaussian flags, or any event with "
                                          "--event). Exit 0, or 2 on input errors.")
    add_mechanism_arguments(p)
    add_event_argument(p)
    p.add_argument("--alpha", nargs="+", action="extend", default=None, metavar="A",
                   help="type I errors in [0, 1] (default: " + " ".join(DEFAULT_ALPHAS) + ")")
    return p


def event_of_flags(args):
    """The event the mechanism flags describe (validated by ``account.read_phases``)."""
    from ..events import Composed, Gaussian, PoissonSampled, SampledWithoutReplacement, SelfComposed

    raw, _, uniform = read_phases(args)
    steps = [SelfComposed(SampledWithoutReplacement(Gaussian(s), p=r) if uniform
                          else PoissonSampled(Gaussian(s), r), t) for s, r, t in raw]
    return steps[0] if len(steps) == 1 else Composed(steps)


def run(args) -> int:
    from ..accountant.curve import tradeoff_curve
    from ..events import to_json
    from .account import check_precision

    if args.event:
        if args.sigma or args.q or args.p or args.steps or args.schedule or args.poisson_gaussian \
                or args.uniform_gaussian:
            raise InvalidParameterError("--event replaces the mechanism flags (--poisson-gaussian, --sigma, --q, "
                                        "--p, --steps, --schedule); give one or the other")
        event = read_event(args.event)
    else:
        event = event_of_flags(args)
    check_precision(args.precision)
    alphas = [_alpha(a, i) for i, a in enumerate(args.alpha or DEFAULT_ALPHAS)]
    progress = Progress(not args.json)
    try:
        c = tradeoff_curve(event, alphas, precision=args.precision, progress=progress)
    finally:
        progress.done()
    if args.json:
        print(json.dumps(record(c, to_json(event)), indent=2))
        return 0
    print(f"event: {json.dumps(to_json(event))}")
    print(f"certified trade-off curves: beta_lo <= f(alpha) <= beta_hi, both ends proved; "
          f"TPR = 1 - beta  ({c.seconds:.1f} s, precision {c.precision})")
    for name, curve in c.curves.items():
        print(f"{name}: {MEANING[name]}")
        print(f"  {'alpha':>10}  {'beta_lo':>16} {'beta_hi':>16}   {'TPR_lo':>13} {'TPR_hi':>13}")
        for p in curve.points:
            print(f"  {exact_str(p.alpha) if len(exact_str(p.alpha)) <= 10 else float(p.alpha):>10}  "
                  f"{fmt(p.beta_lo, 'down', 12):>16} {fmt(p.beta_hi, 'up', 12):>16}   "
                  f"{fmt(1 - p.beta_hi, 'down'):>13} {fmt(1 - p.beta_lo, 'up'):>13}")
    lo, hi = c.error_sum
    where = ""
    if c.error_point is not None:
        p = c.error_point
        where = (f", attained near alpha = {float(p.alpha):.6g}: f in [{fmt(p.beta_lo, 'down')}, "
                 f"{fmt(p.beta_hi, 'up')}]")
    print(f"minimum error sum min(alpha + f(alpha)) = 1 - delta(0) in [{fmt(lo, 'down')}, {fmt(hi, 'up')}]{where}")
    mu_lo, mu_hi = c.mu
    print(f"Gaussian DP at these alphas: G_mu(alpha) <= f(alpha) needs mu >= mu*, "
          f"mu* in [{fmt(mu_lo, 'down')}, {'inf' if mu_hi is None else fmt(mu_hi, 'up')}]")
    print(f"  beta_lo bounds the mechanism (it is f-DP with f >= beta_lo); beta_hi bounds {c.upper_bounds}")
    return 0


def _alpha(text, i) -> Fraction:
    from .account import number
    value = number("alpha", text)
    if not 0 <= value <= 1:
        raise InvalidParameterError(f"--alpha must be in [0, 1]; got --alpha={text}")
    return value


def _bound(x: Fraction, direction: str):
    return {"value": fmt(x, direction, 15), "float": float(x)}


def record(c, event_json) -> dict:
    def point(p):
        return {"alpha": exact_str(p.alpha),
                "beta": {"lower": _bound(p.beta_lo, "down"), "upper": _bound(p.beta_hi, "up")},
                "tpr": {"lower": _bound(1 - p.beta_hi, "down"), "upper": _bound(1 - p.beta_lo, "up")}}
    mu_lo, mu_hi = c.mu
    return {
        "schema": "symdp-tradeoff/1",
        "event": event_json,
        "certified": True,
        "curves": {name: {"meaning": MEANING[name], "points": [point(p) for p in curve.points]}
                   for name, curve in c.curves.items()},
        "error_sum": {"lower": _bound(c.error_sum[0], "down"), "upper": _bound(c.error_sum[1], "up"),
                      "at": None if c.error_point is None else point(c.error_point)},
        "mu": {"lower": _bound(mu_lo, "down"), "upper": None if mu_hi is None else _bound(mu_hi, "up")},
        "upper_bounds": c.upper_bounds,
        "seconds": round(c.seconds, 3),
        "precision": c.precision,
    }
