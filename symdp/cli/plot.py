"""``symdp plot KIND [options] --out FILE``: a figure as PNG or PDF (by FILE's suffix).

KIND is one of

* ``tradeoff``  -- f, and with ``--p``: f_p, f_p^{-1}, C_p(f) (and f_{eps',delta'} for
  ``--family eps-delta``); with ``--event FILE``: the certified band of that event's
  trade-off curve and G_mu (``symdp tradeoff``);
* ``subsample`` -- Figure 6 (right) of Dong, Roth, Su 2022 for f_{eps,delta};
* ``profile``   -- privacy profiles delta(eps) of G_mu (one curve per ``--mu``) or of
  f_{eps,delta}, with ``--p`` also of C_p(f);
* ``bagging``   -- the paper's (eps, delta) against the exact values across k/n;
* ``compose``   -- eps at a fixed delta after T compositions of C_p(f_{eps,delta}) and of
  Lemma 4.4's f_{eps',delta'} (the seed's "the loss compounds under composition").

Exit codes: 0 written; 2 unknown kind, bad parameter or unwritable file (one line).
"""

from __future__ import annotations

import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.validation import to_exact

KINDS = ("tradeoff", "subsample", "profile", "bagging", "compose")
#: the largest --mu, --eps and --eps-max drawn: beyond it every curve lies on the axes
#: (G_100 is below 1e-1000 away from 0) and drawing takes long (--mu 1e400 took 37 s)
MAX_PARAMETER = 100
#: the largest --n and --models of ``plot bagging`` (its points are floats of k/n)
MAX_BAGGING = 10 ** 6
#: the curves of ``plot profile`` when no --mu is given
DEFAULT_MU = ("0.5", "1", "2")
#: the most curves of ``plot profile`` (200 took 40 s and cannot be told apart)
MAX_CURVES = 20


def _number(name: str, text: str) -> sp.Rational:
    """A decimal or fraction typed on the command line, exactly (no evaluation), at most
    :data:`MAX_PARAMETER` in size."""
    try:
        value = to_exact(name, str(text))
    except InvalidParameterError:
        raise InvalidParameterError(f"{name} must be a number (e.g. 0.5 or 1/3); got "
                                    f"{name}={str(text)[:40]}") from None
    if name in ("--mu", "--eps", "--eps-max") and abs(value) > MAX_PARAMETER:
        raise InvalidParameterError(f"{name} must be at most {MAX_PARAMETER} for a plot (the "
                                    f"curves would lie on the axes); got {name}={text}")
    return value


def _family(args, mu):
    from ..tradeoff import EpsDelta, Gaussian, Laplace

    if args.family == "gaussian":
        return Gaussian(_number("--mu", mu))
    if args.family == "laplace":
        return Laplace(_number("--mu", mu))
    return EpsDelta(_number("--eps", args.eps), _number("--delta", args.delta))


def add_parser(subparsers):
    p = subparsers.add_parser("plot", help="draw a figure (PNG or PDF): trade-off curves, "
                              "Figure 6, privacy profiles, bagging",
                              description="Draw a figure and write it as PNG or PDF (by the "
                              "suffix of --out). KIND: tradeoff, subsample, profile, bagging; "
                              "'symdp plot KIND --help' lists its options.")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)

    def common(sub):
        sub.add_argument("--out", required=True, metavar="FILE",
                         help="output file ending in .png or .pdf")

    t = kinds.add_parser("tradeoff", help="f, f_p, f_p^-1, C_p(f), f_{eps',delta'}")
    t.add_argument("--family", choices=("gaussian", "laplace", "eps-delta"), default="gaussian")
    t.add_argument("--mu", default="1", help="mu of G_mu or of the Laplace family (default 1)")
    t.add_argument("--eps", default="1", help="eps of f_{eps,delta} (default 1)")
    t.add_argument("--delta", default="0", help="delta of f_{eps,delta} (default 0)")
    t.add_argument("--p", default=None, help="sampling ratio: add f_p, f_p^-1, C_p(f)")
    t.add_argument("--event", default=None, metavar="FILE",
                   help="instead: the certified band [beta_lo, beta_hi] of the event in FILE (JSON, "
                        "docs/events.md) with G_mu for comparison (symdp tradeoff)")
    t.add_argument("--points", default=None, metavar="N",
                   help="with --event: the number of alpha (4 to 200; default 40)")
    common(t)

    s = kinds.add_parser("subsample", help="Figure 6 (right) of Dong, Roth, Su 2022")
    s.add_argument("--eps", default="3", help="default 3 (the paper's)")
    s.add_argument("--delta", default="0.1", help="default 0.1 (the paper's)")
    s.add_argument("--p", default="0.2", help="sampling ratio, default 0.2 (the paper's)")
    common(s)

    r = kinds.add_parser("profile", help="privacy profiles delta(eps)")
    r.add_argument("--family", choices=("gaussian", "laplace", "eps-delta"), default="gaussian")
    r.add_argument("--mu", nargs="+", action="extend", default=None,
                   help="one curve per mu (default 0.5 1 2)")
    r.add_argument("--eps", default="1", help="eps of f_{eps,delta} (default 1)")
    r.add_argument("--delta", default="0", help="delta of f_{eps,delta} (default 0)")
    r.add_argument("--p", default=None, help="also the profile of C_p(f) for each f")
    r.add_argument("--eps-max", default="4", help="largest eps on the axis (default 4)")
    r.add_argument("--log", action="store_true", help="delta on a log scale")
    common(r)

    b = kinds.add_parser("bagging", help="the paper's (eps, delta) against the exact values")
    b.add_argument("--n", default="100", help="dataset size (default 100)")
    b.add_argument("--models", default="1", help="number of base models N (default 1)")
    b.add_argument("--without-replacement", action="store_true")
    g = b.add_mutually_exclusive_group()
    g.add_argument("--joint", dest="joint", action="store_const", const=True, default=None)
    g.add_argument("--independent", dest="joint", action="store_const", const=False)
    common(b)

    c = kinds.add_parser("compose", help="eps after T compositions: C_p(f_{eps,delta}) vs Lemma 4.4")
    c.add_argument("--eps", default="1", help="eps of f_{eps,delta} (default 1)")
    c.add_argument("--delta", default="1e-8", help="delta of f_{eps,delta} (default 1e-8)")
    c.add_argument("--p", default="0.01", help="sampling ratio (default 0.01)")
    c.add_argument("--at-delta", default="1e-5", help="the fixed delta of the composition (default 1e-5)")
    c.add_argument("--steps", nargs="+", action="extend", default=None, metavar="T",
                   help="numbers of compositions (default 10 20 50 ... 10000)")
    common(c)
    return p


def build(args):
    """The matplotlib Figure that ``args`` describe."""
    from .. import plotting

    if args.kind == "tradeoff" and args.event is not None:
        from ..accountant.curve import tradeoff_curve
        from .account import read_event
        from .arguments import integer_argument

        points = integer_argument("--points", "40" if args.points is None else args.points)
        if not 4 <= points <= 200:
            raise InvalidParameterError(f"--points must be in [4, 200]; got --points={points}")
        c = tradeoff_curve(read_event(args.event), plotting.band_alphas(points), main_only=True)
        return plotting.certified_band_figure(c)
    if args.kind == "tradeoff" and args.points is not None:
        raise InvalidParameterError("--points is for --event (the certified band); give --event FILE")
    if args.kind == "tradeoff":
        return plotting.tradeoff_figure(_family(args, args.mu),
                                        None if args.p is None else _number("--p", args.p))
    if args.kind == "subsample":
        return plotting.subsampling_figure(_number("--eps", args.eps),
                                           _number("--delta", args.delta), _number("--p", args.p))
    if args.kind == "profile":
        from ..subsampling import subsample

        if args.family != "eps-delta" and len(args.mu or ()) > MAX_CURVES:
            raise InvalidParameterError(f"--mu takes at most {MAX_CURVES} values (one curve "
                                        f"each); got {len(args.mu)}")
        fs = [_family(args, mu) for mu in (args.mu or DEFAULT_MU if args.family != "eps-delta" else [None])]
        if args.p is not None:
            fs += [subsample(f, _number("--p", args.p)) for f in fs]
        eps_max = float(_number("--eps-max", args.eps_max))
        if not eps_max > 0:
            raise InvalidParameterError(f"--eps-max must be > 0; got --eps-max={args.eps_max}")
        return plotting.profile_figure(fs, eps_max=eps_max, log=args.log)
    if args.kind == "bagging":
        from ..bagging.schemes import Bagging, sampling_from_flags
        from .arguments import integer_argument

        n = integer_argument("--n", args.n)
        models = integer_argument("--models", args.models)
        for name, value in (("--n", n), ("--models", models)):
            if value > MAX_BAGGING:
                raise InvalidParameterError(f"{name} must be at most {MAX_BAGGING} for a plot (the "
                                            f"limit on work; symdp bagging takes any size); got "
                                            f"{name}={value}")
        sampling = sampling_from_flags(args.without_replacement, args.joint)
        Bagging(n, 1, models, sampling)  # validates n and models (one line on error)
        return plotting.bagging_figure(n, models, sampling)
    if args.kind == "compose":
        from ..core.validation import nonnegative, probability

        from ..composition.seed_claim import MAX_T, MAX_TOTAL_T
        from .arguments import integer_argument

        steps = plotting.composition.DEFAULT_STEPS if args.steps is None else \
            [integer_argument("--steps", t) for t in args.steps]
        for t in steps:
            if t > MAX_T:
                raise InvalidParameterError(f"--steps must be at most {MAX_T} (the limit on work); "
                                            f"got --steps={t}")
        if sum(steps) > MAX_TOTAL_T:
            raise InvalidParameterError(f"--steps must sum to at most {MAX_TOTAL_T} (the limit on "
                                        f"work); got {sum(steps)}")
        return plotting.composition_figure(nonnegative("--eps", _number("--eps", args.eps)),
                                           probability("--delta", args.delta),
                                           probability("--p", args.p), probability("--at-delta", args.at_delta),
                                           steps)
    raise InvalidParameterError(f"unknown plot kind {args.kind!r}; choose from {', '.join(KINDS)}")


def run(args) -> int:
    from ..plotting import save_figure
    from ..plotting._mpl import check_path

    check_path(args.out)  # before any work
    path = save_figure(build(args), args.out)
    print(f"wrote {path}")
    return 0
