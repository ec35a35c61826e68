r"""``symdp compose``: composition of trade-off functions (Dong, Roth, Su 2022, Sec. 3).

::

    symdp compose --gaussian MU [MU ...]              [--delta D ...] [--eps E ...] [--json]
    symdp compose --eps-delta EPS DELTA [--times K]   [--delta D ...] [--eps E ...]
    symdp compose --eps-delta E1 D1 --eps-delta E2 D2 ...   (heterogeneous, at most 12)
    symdp compose --laplace MU [MU ...]
    symdp compose --subsampled-gaussian --sigma S --p P --steps T --clt [--poisson]

Prints the product (text and LaTeX), its closed form where there is one, ε(δ) at each
``--delta`` and δ(ε) at each ``--eps``.  Every number is computed by symdp: Gaussians by
:math:`G_{\sqrt{\sum\mu_i^2}}` and Cor. 2.13; (ε, δ) powers exactly by Kairouz--Oh--Viswanath
2015 Thm. 3.3 (ε(δ) is a closed-form logarithm on the segment holding δ); heterogeneous
(ε, δ) products by exact enumeration; Laplace by the privacy-loss integral; noisy SGD by
the CLT (μ = 2K/s, and the Berry--Esseen γ).  ``--json`` writes decimal strings of
``--dps`` (30 to :data:`MAX_DPS`) significant digits, closed forms and enumerations evaluated
at two precisions (dps + 5, dps + 25) that must agree to dps digits relative to the value.

A repeated option counts every time (``--gaussian 0.5 --gaussian 1.2`` is G_0.5 ⊗ G_1.2).
Limits on work, each named when hit (everything inside them finishes in well under a
minute): at most :data:`MAX_FACTORS` Gaussian factors, :data:`MAX_LAPLACE` Laplace factors
(a quadrature per factor), :data:`MAX_TIMES` for ``--times`` (KOV's sum has k + 1 terms),
every mu, pair's eps and ``--eps`` at most :data:`MAX_PARAMETER` in size, ``--sigma`` in
:data:`SIGMA_RANGE`,
:data:`MAX_VALUES` values of ``--delta``/``--eps`` and :data:`MAX_STEPS` for ``--steps``::

    {"composition": str, "latex": str, "closed_form": str | null, "method": str,
     "epsilon": [{"delta": str, "epsilon": str | "inf"}], "delta": [{"eps": str, "delta": str}],
     "clt": {"mu": str, "gamma": str, "limit_mu": str, "scheme": str,
             "berry_esseen_valid": bool} | null}
"""

from __future__ import annotations

import json
import sys

import mpmath

from ..core.errors import InvalidParameterError

DEFAULT_DELTA = ("1e-5",)
#: the most Gaussian factors (each is a SymPy term of the closed form)
MAX_FACTORS = 1000
#: the most Laplace factors: the profile is a nested quadrature, one level per factor
#: (two take 3 s, three more than two minutes)
MAX_LAPLACE = 2
#: the largest --times, and of (number of factors) x --times for (eps, delta) products:
#: KOV's O(k) walk takes about 5 s at k = 10^4 and 40 s at 10^5
MAX_TIMES = 20_000
#: the most --delta and --eps values of one run
MAX_VALUES = 50
#: the largest --dps (digits printed; the work grows with it)
MAX_DPS = 200
#: the largest --steps of noisy SGD (the CLT's mu is a closed form in T)
MAX_STEPS = 10 ** 9
#: the largest size of a mu (--gaussian, --laplace), of an (eps, delta) pair's eps and of
#: an --eps: beyond it every number is 0 or 1 to any printed digit, and exp(eps) of a huge
#: eps would not finish
MAX_PARAMETER = 1000
#: the range of --sigma of noisy SGD (the one-step quadrature of the CLT)
SIGMA_RANGE = ("0.1", "1000")


def add_parser(subparsers):
    p = subparsers.add_parser(
        "compose", help="f (x) g: Gaussian, (eps, delta), Laplace, noisy-SGD CLT; eps(delta), delta(eps)",
        description="Composition of trade-off functions (Dong, Roth, Su 2022, Sec. 3; "
                    "Kairouz-Oh-Viswanath 2015 Thm. 3.3; Bu-Dong-Long-Su 2020).")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--gaussian", nargs="+", action="extend", metavar="MU",
                   help="G_mu1 (x) G_mu2 (x) ... (a repeated --gaussian adds factors)")
    g.add_argument("--eps-delta", nargs=2, action="append", metavar=("EPS", "DELTA"),
                   help="f_{eps,delta}; repeat for a heterogeneous product")
    g.add_argument("--laplace", nargs="+", action="extend", metavar="MU",
                   help=f"Laplace trade-off functions L_mu (at most {MAX_LAPLACE})")
    g.add_argument("--subsampled-gaussian", action="store_true",
                   help="T steps of noisy SGD: C_p(G_{1/sigma})^{(x)T} (needs --clt)")
    p.add_argument("--times", default="1", metavar="K",
                   help=f"compose the product K times (default 1, at most {MAX_TIMES})")
    p.add_argument("--sigma", metavar="S", help="noise multiplier of noisy SGD")
    p.add_argument("--p", metavar="P", help="sampling rate of noisy SGD")
    p.add_argument("--steps", metavar="T", help="number of noisy-SGD steps")
    p.add_argument("--clt", action="store_true", help="use the central limit theorem (DRS Sec. 3.3)")
    p.add_argument("--poisson", action="store_true",
                   help="Poisson instead of uniform subsampling (Bu et al. 2020)")
    p.add_argument("--delta", nargs="+", action="extend", metavar="D",
                   help="report eps(delta) (default 1e-5)")
    p.add_argument("--eps", nargs="+", action="extend", metavar="E", help="report delta(eps)")
    p.add_argument("--dps", default="30", metavar="N",
                   help=f"significant digits of the printed numbers (30 to {MAX_DPS}; default 30)")
    p.add_argument("--json", action="store_true", help="write the results as JSON on stdout")
    return p


def _two_precisions(fn, dps: int):
    """``fn(d)`` at d = dps + 5 and dps + 25 digits; the two must agree to ``dps`` significant
    digits (else the number is not printed: an error says so), relative to their size: a
    δ of 1e-300 is compared digit by digit, not against 1."""
    from ..core.errors import RootFindingError

    low, high = fn(dps + 5), fn(dps + 25)
    if low == high or (mpmath.isinf(low) and mpmath.isinf(high)):
        return high
    with mpmath.workdps(dps + 30):
        if mpmath.isinf(low) or mpmath.isinf(high) or \
                abs(low - high) > mpmath.mpf(10) ** (-dps) * max(abs(low), abs(high)):
            raise RootFindingError(f"the value does not agree to {dps} digits at two precisions: "
                                   f"{mpmath.nstr(low, 10)} vs {mpmath.nstr(high, 10)}")
    return high


def _str(value, dps: int) -> str:
    """``dps`` significant digits: in fixed point for 1e-30 <= |value| < 1e30, else with an
    exponent (a δ of 1e-156000 is not printed as 156,000 zeros)."""
    if value == mpmath.inf:
        return "inf"
    if value == 0:
        return "0." + "0" * dps
    if not mpmath.mpf("1e-30") <= abs(value) < mpmath.mpf("1e30"):
        return mpmath.nstr(value, dps, strip_zeros=False)
    return mpmath.nstr(value, dps, min_fixed=-mpmath.inf, max_fixed=mpmath.inf, strip_zeros=False)


def compute(args) -> dict:
    import sympy as sp

    from ..core.validation import shown
    from .arguments import integer_argument

    dps = args.dps
    deltas = args.delta or (DEFAULT_DELTA if not args.eps else ())
    epss = args.eps or ()
    times = integer_argument("--times", args.times)
    if times > MAX_TIMES:
        raise InvalidParameterError(f"--times must be at most {MAX_TIMES} (the limit on work); "
                                    f"got --times={shown(args.times)}")
    out = {"closed_form": None, "clt": None, "epsilon": [], "delta": []}

    if args.subsampled_gaussian:
        return _sgd(args, deltas, epss, dps, out)
    for name in ("sigma", "p", "steps"):
        if getattr(args, name) is not None:
            raise InvalidParameterError(f"--{name} goes with --subsampled-gaussian")
    if args.clt or args.poisson:
        raise InvalidParameterError("--clt and --poisson go with --subsampled-gaussian")

    from ..composition import tensor, tensor_power
    from ..composition.eps_delta import MAX_HETEROGENEOUS, kov_epsilon_value, kov_profile_value
    from ..tradeoff.families import EpsDelta, Gaussian, Laplace

    count = len(args.eps_delta or args.gaussian or args.laplace)
    if count > MAX_FACTORS:
        raise InvalidParameterError(f"at most {MAX_FACTORS} factors are composed (the limit on "
                                    f"work); got {count}")
    if args.laplace and count > MAX_LAPLACE:
        raise InvalidParameterError(
            f"--laplace takes at most {MAX_LAPLACE} factors (the limit on work: one quadrature "
            f"level per factor); got {count}")
    if args.laplace and times * count > MAX_LAPLACE:
        raise InvalidParameterError(
            f"--laplace with --times composes at most {MAX_LAPLACE} factors in all (the limit "
            f"on work); got {count} x --times {times}")
    if args.eps_delta and count * times > MAX_TIMES:
        raise InvalidParameterError(
            f"at most {MAX_TIMES} (eps, delta) factors in all, --eps-delta pairs x --times (the "
            f"limit on work); got {count} x {times}")
    if args.eps_delta:
        factors = [EpsDelta(_exact("--eps-delta EPS", e, 0), _exact("--eps-delta DELTA", d, 0, 1))
                   for e, d in args.eps_delta]
        if len(set(factors)) > MAX_HETEROGENEOUS:
            raise InvalidParameterError(
                f"at most {MAX_HETEROGENEOUS} distinct --eps-delta pairs (exact composition is "
                f"#P-hard, Murtagh-Vadhan 2016); got {len(set(factors))}")
    elif args.gaussian:
        factors = [Gaussian(_exact("--gaussian", m, 0)) for m in args.gaussian]
    else:
        factors = [Laplace(_exact("--laplace", m, 0)) for m in args.laplace]
    product = tensor(*factors) if len(factors) > 1 else factors[0]
    if times > 1:
        product = tensor_power(product, times)
    closed = product.doit() if len(factors) > 1 or times > 1 else product
    out["composition"] = sp.sstr(product)
    out["latex"] = sp.latex(product) + ("" if closed == product else " = " + sp.latex(closed))
    if closed != product:
        out["closed_form"] = sp.sstr(closed)

    single = set(factors) if args.eps_delta else set()
    if len(single) == 1:  # f_{eps,delta}^{(x) k}: KOV 2015 Thm. 3.3, O(k)
        f = factors[0]
        k = len(factors) * times
        out["method"] = "exact: Kairouz-Oh-Viswanath 2015 Thm. 3.3 (privacy profile of k-fold " \
                        "randomized response with delta)"
        out["epsilon"] = [{"delta": d, "epsilon": _str(_two_precisions(
            lambda n, d=d: kov_epsilon_value(f.eps, f.delta, k, d, n), dps), dps)} for d in deltas]
        out["delta"] = [{"eps": e, "delta": _str(_two_precisions(
            lambda n, e=e: kov_profile_value(f.eps, f.delta, k, e, n), dps), dps)} for e in epss]
        return out
    if args.eps_delta:
        out["method"] = ("exact: enumeration of the losses sum_j (2 i_j - k_j) eps_j of the product "
                         "of the (P, Q) pairs of f_{eps_j,delta_j}")
    elif isinstance(closed, Gaussian):
        out["method"] = "closed form G_sqrt(sum mu_i^2) (DRS Sec. 3) and Cor. 2.13"
    else:
        out["method"] = "privacy-loss integral delta(eps) = E[(1 - e^(eps - L))_+], mpmath quadrature"
    # closed forms and enumerations are evaluated at two precisions; quadrature once (it
    # costs seconds per value; its accuracy is tested against independent routes)
    twice = args.eps_delta or isinstance(closed, Gaussian)
    value = (lambda fn: _two_precisions(fn, dps)) if twice else (lambda fn: fn(dps + 5))
    out["epsilon"] = [{"delta": d, "epsilon": _str(value(lambda n, d=d: _single_epsilon(closed, d, n)), dps)}
                      for d in deltas]
    out["delta"] = [{"eps": e, "delta": _str(value(lambda n, e=e: _delta(closed, e, n)), dps)} for e in epss]
    return out


def _exact(name, text, lower=-MAX_PARAMETER, upper=MAX_PARAMETER):
    """A number typed on the command line, exactly (never evaluated), in [lower, upper]
    (at most :data:`MAX_PARAMETER` in size)."""
    from ..core.validation import parameter

    return parameter(name, text, lower, upper)


def _mpf(value):
    from ..tradeoff.numeric import to_mpf

    return to_mpf(value)


def _single_epsilon(f, d, dps):
    from ..composition.products import epsilon_value

    return epsilon_value(f, d, dps)


def _delta(f, e, dps):
    from ..composition.products import profile_value

    return profile_value(f, e, dps)


def _sgd(args, deltas, epss, dps, out):
    import sympy as sp

    from ..composition.clt import sgd_clt_mu, sgd_limit_mu
    from ..composition.privacy_loss import GaussianLoss
    from ..composition.products import epsilon_for_delta
    from ..core.validation import parameter, probability
    from .arguments import integer_argument

    if not args.clt:
        raise InvalidParameterError(
            "--subsampled-gaussian needs --clt (the exact T-fold composition of C_p(G) is the "
            "accountant's job, issue #16)")
    if args.sigma is None or args.p is None or args.steps is None:
        raise InvalidParameterError("--subsampled-gaussian needs --sigma, --p and --steps")
    sigma = parameter("--sigma", args.sigma, sp.Rational(SIGMA_RANGE[0]), sp.Rational(SIGMA_RANGE[1]))
    p = probability("--p", args.p)
    steps = integer_argument("--steps", args.steps)
    if steps > MAX_STEPS:
        raise InvalidParameterError(f"--steps must be at most {MAX_STEPS} (the limit on work); "
                                    f"got --steps={steps}")
    scheme = "poisson" if args.poisson else "uniform"
    be = sgd_clt_mu(sigma, p, steps, scheme, dps + 5)
    limit = sgd_limit_mu(sigma, p * sp.sqrt(steps), scheme)
    if scheme == "uniform":
        from ..composition import tensor_power
        from ..subsampling import subsample
        from ..tradeoff.families import Gaussian

        product = tensor_power(subsample(Gaussian(1 / sigma), p), steps)
        out["composition"] = sp.sstr(product)
        out["latex"] = sp.latex(product) + r" \approx G_{\mu}"
    else:
        out["composition"] = f"T(N(0,1), (1-p) N(0,1) + p N(1/sigma,1))^(x){steps}, p = {p}, sigma = {sigma}"
        out["latex"] = (r"T\left(\mathcal{N}(0,1), (1-p)\mathcal{N}(0,1) + p\,\mathcal{N}(1/\sigma,1)"
                        r"\right)^{\otimes %d} \approx G_{\mu}" % steps)
    out["method"] = ("CLT (DRS Sec. 3.3): mu = 2K/s from the one-step kl, kappa_2 by quadrature; "
                     "Berry-Esseen gamma = 0.56 sum kappa3bar / s^3")
    with mpmath.workdps(dps + 5):
        mu = be.mu
        out["clt"] = {"scheme": scheme, "mu": _str(mu, dps), "gamma": _str(be.gamma, dps),
                      "limit_mu": _str(mpmath.mpf(sp.N(limit, dps + 10)), dps),
                      # DRS's Berry-Esseen theorem (Sec. 3.3) is stated for symmetric trade-off
                      # functions; the Poisson step T(N(0,1), (1-p)N(0,1) + pN(1/sigma,1)) is not
                      # symmetric, so its gamma is a number, not a bound
                      "berry_esseen_valid": bool(be.valid) and scheme == "uniform"}
        loss = GaussianLoss(sp.Float(mu, dps + 5))
        out["epsilon"] = [{"delta": d, "epsilon": _str(epsilon_for_delta(
            loss.profile, _mpf(_exact("--delta", d))), dps)} for d in deltas]
        out["delta"] = [{"eps": e, "delta": _str(loss.profile(_mpf(_exact("--eps", e))), dps)}
                        for e in epss]
    return out


def run(args) -> int:
    from ..core.validation import precision, probability, shown

    if not isinstance(args.dps, int):
        text = str(args.dps).strip()
        if not text.isdigit() or len(text) > 6:
            raise InvalidParameterError(f"--dps must be an integer in [30, {MAX_DPS}]; got "
                                        f"--dps={shown(args.dps)}")
        args.dps = int(text)
    precision("--dps", args.dps, minimum=30, maximum=MAX_DPS)
    for name, values in (("--delta", args.delta), ("--eps", args.eps)):
        if values and len(values) > MAX_VALUES:
            raise InvalidParameterError(f"{name} takes at most {MAX_VALUES} values (the limit on "
                                        f"work); got {len(values)}")
    for d in args.delta or ():
        probability("--delta", d)
    for e in args.eps or ():
        _exact("--eps", e)
    result = compute(args)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    w = sys.stdout.write
    w(f"composition: {result['composition']}\n")
    if result["closed_form"]:
        w(f"closed form: {result['closed_form']}\n")
    w(f"latex:       {result['latex']}\n")
    w(f"method:      {result['method']}\n")
    if result["clt"]:
        c = result["clt"]
        w(f"CLT mu:      {c['mu']}   (limit nu*sqrt(2c), nu = p sqrt(T): {c['limit_mu']})\n")
        note = ("" if c["berry_esseen_valid"] else
                "  (not a bound: the Poisson step is not a symmetric trade-off function, which "
                "DRS's Berry-Esseen theorem assumes)" if c["scheme"] == "poisson" else "  (>= 1/2: no bound)")
        w(f"Berry-Esseen gamma: {c['gamma']}{note}\n")
    for row in result["epsilon"]:
        w(f"eps(delta={row['delta']}) = {row['epsilon']}\n")
    for row in result["delta"]:
        w(f"delta(eps={row['eps']}) = {row['delta']}\n")
    return 0
