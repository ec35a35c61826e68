r"""``symdp calibrate``: the smallest noise multiplier whose certified epsilon meets a target.

    symdp calibrate --target-eps 2 --delta 1e-5 --q 0.01 --steps 1000
    symdp calibrate --target-eps 1 --delta 1e-5 --uniform-gaussian --p 0.01 --steps 100

Prints sigma with its certified eps_hi <= target, and sigma * 0.99 with its certified
eps_lo > target (the proof that the returned sigma is within 1% of the smallest), or says
that the second could not be shown at the precisions tried.  Exit 0, 1 when the 1% check
could not be shown, 2 on input errors.
"""

from __future__ import annotations

import json

from ..core.errors import InvalidParameterError
from .account import Progress, exact_str, fmt, integer, number


def add_parser(subparsers):
    p = subparsers.add_parser("calibrate", help="smallest sigma whose certified epsilon meets a target",
                              description="The smallest noise multiplier sigma (Opacus' noise_multiplier) whose "
                                          "certified eps(delta) is at most --target-eps, for Poisson (--q) or "
                                          "uniform (--p) subsampling over --steps steps.")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--poisson-gaussian", action="store_true", help="Poisson sampling with rate --q (default)")
    kind.add_argument("--uniform-gaussian", action="store_true", help="sampling a fraction --p without replacement")
    p.add_argument("--target-eps", metavar="E", required=True, help="the epsilon to meet")
    p.add_argument("--delta", metavar="D", required=True, help="at this delta")
    p.add_argument("--q", metavar="Q", help="Poisson sampling rate (Opacus' sample_rate)")
    p.add_argument("--p", metavar="P", help="sampled fraction for --uniform-gaussian")
    p.add_argument("--steps", metavar="T", required=True, help="number of steps")
    p.add_argument("--precision", type=int, default=1, metavar="N", help="grid level 0-6 (default 1)")
    p.add_argument("--json", action="store_true", help="print a JSON record")
    return p


def run(args) -> int:
    from ..accountant.calibrate import calibrate

    uniform = bool(args.uniform_gaussian)
    rate_name = "p" if uniform else "q"
    other = args.q if uniform else args.p
    if other is not None:
        raise InvalidParameterError(f"--{'uniform' if uniform else 'poisson'}-gaussian takes --{rate_name}, not "
                                    f"--{'q' if uniform else 'p'}")
    rate = number(rate_name, getattr(args, rate_name))
    progress = Progress(not args.json)
    try:
        c = calibrate(number("target-eps", args.target_eps), number("delta", args.delta), rate,
                      integer("steps", args.steps), uniform=uniform, precision=args.precision,
                      progress=progress)
    finally:
        progress.done()
    of = "the guarantee C_p(G_1/sigma)^(x)T" if uniform else "the mechanism"
    if args.json:
        print(json.dumps({
            "schema": "symdp-calibrate/1", "target_eps": exact_str(c.target_eps), "delta": exact_str(c.delta),
            rate_name: exact_str(rate), "steps": int(args.steps), "sigma": exact_str(c.sigma),
            "eps_upper": fmt(c.sigma_hi_eps, "up", 12), "smaller_sigma": exact_str(c.smaller),
            "smaller_eps_lower": None if c.smaller_lo_eps is None else fmt(c.smaller_lo_eps, "down", 12),
            "smaller_shown_not_to_meet": c.shown, "lower_end_bounds": of, "certified": True,
            "evaluations": c.evaluations, "seconds": round(c.seconds, 3)}, indent=2))
        return 0 if c.shown else 1
    print(f"sigma = {exact_str(c.sigma)}: certified eps <= {fmt(c.sigma_hi_eps, 'up')} <= target "
          f"{exact_str(c.target_eps)} at delta = {exact_str(c.delta)}")
    if c.shown:
        print(f"sigma = {exact_str(c.smaller)} (1% smaller): certified eps >= {fmt(c.smaller_lo_eps, 'down')} "
              f"> target (lower end bounds {of})")
    else:
        print(f"sigma = {exact_str(c.smaller)} (1% smaller): not shown to miss the target "
              f"(certified eps >= {fmt(c.smaller_lo_eps, 'down')} only); raise --precision")
    print(f"  ({c.evaluations} certified evaluations, {c.seconds:.1f} s)")
    return 0 if c.shown else 1
