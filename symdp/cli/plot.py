"""``symdp plot KIND [options] --out FILE``: a figure as PNG or PDF (by FILE's suffix).

KIND is one of

* ``tradeoff``  -- f, and with ``--p``: f_p, f_p^{-1}, C_p(f) (and f_{eps',delta'} for
  ``--family eps-delta``);
* ``subsample`` -- Figure 6 (right) of Dong, Roth, Su 2022 for f_{eps,delta};
* ``profile``   -- privacy profiles delta(eps) of G_mu (one curve per ``--mu``) or of
  f_{eps,delta}, with ``--p`` also of C_p(f);
* ``bagging``   -- the paper's (eps, delta) against the exact values across k/n.

Exit codes: 0 written; 2 unknown kind, bad parameter or unwritable file (one line).
"""

from __future__ import annotations

import sympy as sp

from ..core.errors import InvalidParameterError

KINDS = ("tradeoff", "subsample", "profile", "bagging")


def _number(name: str, text: str) -> sp.Rational:
    """A decimal or fraction typed on the command line, exactly (no evaluation)."""
    try:
        value = sp.Rational(str(text).strip())
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a number (e.g. 0.5 or 1/3); got {name}={text}") \
            from None
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
    common(t)

    s = kinds.add_parser("subsample", help="Figure 6 (right) of Dong, Roth, Su 2022")
    s.add_argument("--eps", default="3", help="default 3 (the paper's)")
    s.add_argument("--delta", default="0.1", help="default 0.1 (the paper's)")
    s.add_argument("--p", default="0.2", help="sampling ratio, default 0.2 (the paper's)")
    common(s)

    r = kinds.add_parser("profile", help="privacy profiles delta(eps)")
    r.add_argument("--family", choices=("gaussian", "laplace", "eps-delta"), default="gaussian")
    r.add_argument("--mu", nargs="+", default=["0.5", "1", "2"],
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
    return p


def build(args):
    """The matplotlib Figure that ``args`` describe."""
    from .. import plotting

    if args.kind == "tradeoff":
        return plotting.tradeoff_figure(_family(args, args.mu),
                                        None if args.p is None else _number("--p", args.p))
    if args.kind == "subsample":
        return plotting.subsampling_figure(_number("--eps", args.eps),
                                           _number("--delta", args.delta), _number("--p", args.p))
    if args.kind == "profile":
        from ..subsampling import subsample

        fs = [_family(args, mu) for mu in (args.mu if args.family != "eps-delta" else [None])]
        if args.p is not None:
            fs += [subsample(f, _number("--p", args.p)) for f in fs]
        eps_max = float(_number("--eps-max", args.eps_max))
        if not eps_max > 0:
            raise InvalidParameterError(f"--eps-max must be > 0; got --eps-max={args.eps_max}")
        return plotting.profile_figure(fs, eps_max=eps_max, log=args.log)
    if args.kind == "bagging":
        from ..bagging.report import integer_argument
        from ..bagging.schemes import Bagging, sampling_from_flags

        n = integer_argument("n", args.n)
        models = integer_argument("models", args.models)
        sampling = sampling_from_flags(args.without_replacement, args.joint)
        Bagging(n, 1, models, sampling)  # validates n and models (one line on error)
        return plotting.bagging_figure(n, models, sampling)
    raise InvalidParameterError(f"unknown plot kind {args.kind!r}; choose from {', '.join(KINDS)}")


def run(args) -> int:
    from ..plotting import save_figure
    from ..plotting._mpl import check_path

    check_path(args.out)  # before any work
    path = save_figure(build(args), args.out)
    print(f"wrote {path}")
    return 0
