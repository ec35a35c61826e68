r"""``symdp audit``: check a reported (eps, delta) claim against the certified bracket.

    symdp audit --poisson-gaussian --sigma 1 --q 0.01 --steps 1000 --delta 1e-5 --claimed-eps 1.62

Verdicts: **REFUTED** -- delta(E) > D is proved for a realised pair of adjacent datasets
(the mechanism is not (E, D)-DP; for ``--uniform-gaussian`` the pair x = 1 / x' = 0, whose
steps are the Poisson pairs with q = p, since C_p(G_{1/sigma})^{(x)T} is only an upper bound);
**HOLDS** -- delta(E) <= D is proved; **UNDECIDED** -- E is inside the certified
bracket (raise ``--precision``).  Exit codes as ``symdp step``: 0 when the verdict is
the expected one (``--expect``, default HOLDS), 1 otherwise, 2 on input errors.
"""

from __future__ import annotations

import json

from ..core.errors import InvalidParameterError
from .account import (Progress, add_mechanism_arguments, check_precision, describe, exact_str, fmt, number,
                      read_phases)

VERDICTS = ("HOLDS", "REFUTED", "UNDECIDED")


def add_parser(subparsers):
    p = subparsers.add_parser("audit", help="check a reported eps: REFUTED / HOLDS / UNDECIDED, proved",
                              description="Check a claimed (eps, delta) of a subsampled Gaussian composition. "
                                          "Exit 0 when the verdict is the expected one (default HOLDS), 1 "
                                          "otherwise, 2 on input errors.")
    add_mechanism_arguments(p)
    p.add_argument("--delta", metavar="D", help="the reported delta")
    p.add_argument("--claimed-eps", metavar="E", help="the reported epsilon")
    p.add_argument("--expect", choices=VERDICTS, default="HOLDS", help="the verdict expected (default HOLDS)")
    return p


def audit(phases, claimed_eps, delta, precision=2, progress=None):
    """(verdict, details): compare delta(E) with D by certified bounds, plus the eps bracket."""
    import time

    from ..accountant.certify import (EPS_MAX, Phase, certified_epsilon, compose, delta_bounds, grid_for,
                                      refinement)
    from ..accountant.certify import poisson_gaussian
    from ..accountant.pairs import UniformGaussian, check_range

    check_range("claimed-eps", claimed_eps, 0.0, EPS_MAX)
    start = time.perf_counter()
    # the eps bracket (each direction on the grid it needed), then delta at the claim on
    # the same composed pairs: every one of them brackets its direction, at any grid
    phases = [phases] if isinstance(phases, Phase) else list(phases)
    b = certified_epsilon(phases, delta, precision=precision, progress=progress)
    e_lo, e_hi = b.lo, b.hi
    d_lo, d_hi = delta_bounds(b.composed, claimed_eps)
    if any(isinstance(pair, UniformGaussian) for ph in phases for pair in ph.pairs):
        # C_p(G_{1/sigma})^{(x)T} is a guarantee (DRS Thm 4.2 + composition), not the exact
        # profile of the mechanism: for T >= 2 it is strictly above that of the adjacent
        # datasets x = 1 / x' = 0 (all others 0), whose one-step pairs are exactly the Poisson
        # remove/add pairs with q = p.  A refutation needs a lower bound on a *realised* pair,
        # so delta_lo comes from those two pairs composed (both orders of the fixed datasets).
        realised = [poisson_gaussian(pair.sigma, pair.p, ph.steps) for ph in phases for pair in ph.pairs]
        grid = grid_for(precision, None, refinement(realised))
        d_lo, _ = delta_bounds(compose(realised, grid, progress), claimed_eps)
    if d_lo > delta:
        verdict = "REFUTED"
    elif d_hi <= delta:
        verdict = "HOLDS"
    else:
        verdict = "UNDECIDED"
    return verdict, {"delta_lo": d_lo, "delta_hi": d_hi, "eps_lo": e_lo, "eps_hi": e_hi,
                     "seconds": time.perf_counter() - start}


def run(args) -> int:
    raw, phases, uniform = read_phases(args)
    if args.delta is None or args.claimed_eps is None:
        raise InvalidParameterError("give both --delta D and --claimed-eps E")
    E, D = number("claimed-eps", args.claimed_eps), number("delta", args.delta)
    from ..accountant.certify import DELTA_MIN, EPS_MAX
    from ..accountant.pairs import check_range

    check_precision(args.precision)
    check_range("--claimed-eps", E, 0.0, EPS_MAX)
    check_range("--delta", D, DELTA_MIN, 1.0)
    progress = Progress(not args.json)
    try:
        verdict, info = audit(phases, E, D, args.precision, progress)
    finally:
        progress.done()
    if verdict == "REFUTED":
        detail = (f"delta({fmt(E, 'down', 12)}) >= {fmt(info['delta_lo'], 'down')} > {fmt(D, 'down', 12)} "
                  f"is proved: the mechanism is not ({fmt(E, 'down', 12)}, {fmt(D, 'down', 12)})-DP")
    elif verdict == "HOLDS":
        # delta is non-increasing: an upper bound at E holds at every eps >= E, so E prints up
        detail = (f"delta({fmt(E, 'up', 12)}) <= {fmt(info['delta_hi'], 'up')} <= {fmt(D, 'up', 12)} "
                  f"is proved: the claim holds")
    else:
        detail = (f"{fmt(info['delta_lo'], 'down')} <= delta({fmt(E, 'down', 12)}) <= "
                  f"{fmt(info['delta_hi'], 'up')} straddles {fmt(D, 'down', 12)}; "
                  f"try --precision {min(6, args.precision + 1)}"
                  + ("; for --uniform-gaussian the gap between the C_p guarantee (upper end) and the "
                     "realised 0/1 datasets (lower end) does not close with precision" if uniform else ""))
    if args.json:
        print(json.dumps({
            "schema": "symdp-audit/1",
            "mechanism": "uniform-gaussian" if uniform else "poisson-gaussian",
            "phases": [{"sigma": exact_str(s), ("p" if uniform else "q"): exact_str(q), "steps": t}
                       for s, q, t in raw],
            "claimed_eps": exact_str(E), "delta": exact_str(D), "verdict": verdict, "detail": detail,
            "delta_at_claimed_eps": {"lower": fmt(info["delta_lo"], "down", 12),
                                     "upper": fmt(info["delta_hi"], "up", 12)},
            "eps_at_delta": {"lower": fmt(info["eps_lo"], "down", 12), "upper": fmt(info["eps_hi"], "up", 12)},
            "precision": args.precision, "seconds": round(info["seconds"], 3),
            "expect": args.expect, "matches_expectation": verdict == args.expect,
        }, indent=2))
    else:
        print(describe(raw, uniform))
        print(f"claimed: ({fmt(E, 'down', 12)}, {fmt(D, 'down', 12)})-DP")
        print(f"{verdict}: {detail}")
        whose = "eps of the C_p(G_1/sigma)^(x)T guarantee" if uniform else "eps"
        print(f"certified: {fmt(info['eps_lo'], 'down')} <= {whose}({fmt(D, 'down', 12)}) <= "
              f"{fmt(info['eps_hi'], 'up')}  ({info['seconds']:.1f} s, precision {args.precision})")
    return 0 if verdict == args.expect else 1
