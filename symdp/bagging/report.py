r"""The ``symdp bagging`` report: numbers, LaTeX of each formula, JSON and text.

Built from :func:`symdp.bagging.numeric.analyse` (values) and
:mod:`symdp.bagging.profile` / :mod:`symdp.bagging.paper` (formulas).  Numbers
are decimal strings with ``dps`` significant digits (exact zero prints "0");
exact rationals are added under ``"rational"`` where they are short.
"""

from __future__ import annotations

import json

import sympy as sp

from ..core.validation import positive_integer
from . import paper as paper_formulas
from . import profile as pf
from .numeric import BaggingAnalysis, analyse
from .schemes import NOTATION, ORDERINGS, Bagging, Sampling

def convention(sampling: Sampling = Sampling.WITH_REPLACEMENT) -> str:
    """The conventions of the report, with the paper's subsample map of the scheme
    (``b`` with replacement, ``a`` without: Liu, Jia, Gong 2021, Appendix)."""
    op = NOTATION[sampling].operator
    return ("n = |D|; D' = D minus one record (n - 1 records) or D plus one record "
            "(n + 1 records); delta(eps) = sup_S P(S) - e^eps Q(S) for each ordered pair "
            f"(P, Q) in {{({op}(D), {op}(D')), ({op}(D'), {op}(D))}}; the guarantee is the maximum "
            "over the four orderings (indexing by the first dataset's size gives the same maximum)")


CONVENTION = convention()

DEFAULT_EPSILONS = ("0", "1")


def _positive_part(expr: sp.Expr) -> str:
    """LaTeX of :math:`(x)_+` (printing ``Max`` makes SymPy simplify, which is slow)."""
    return r"\left(" + sp.latex(expr) + r"\right)_{+}"


def _display(expr: sp.Expr, models: int) -> sp.Expr:
    return expr.subs(pf.N, 1) if models == 1 else expr


def formulas(bagging: Bagging) -> dict:
    """The LaTeX of every reported formula, in n, k (and N)."""
    s, N_ = bagging.sampling, bagging.models
    op = NOTATION[s].operator    # the paper's b(D) with replacement, a(D) without
    q = _display(pf.inclusion_probability(s, pf.n, pf.k, pf.N), N_)
    q_add = _display(pf.inclusion_probability(s, pf.n + 1, pf.k, pf.N), N_)
    e = sp.Symbol(r"\varepsilon")
    latex = {
        "paper_epsilon": r"\varepsilon_{\mathrm{paper}} = " + sp.latex(_display(paper_formulas.paper_epsilon(s, pf.n, pf.k, pf.N), N_)),
        "paper_delta": r"\delta_{\mathrm{paper}} = " + sp.latex(_display(paper_formulas.paper_delta(s, pf.n, pf.k, pf.N), N_)),
        "q": r"q(n) = " + sp.latex(q),
        "q_add": r"q(n + 1) = " + sp.latex(q_add),
        "tv": rf"\mathrm{{TV}}\big({op}(D), {op}(D')\big)_{{\max}} = q(n) = " + sp.latex(q),
        "profile": r"\delta(\varepsilon) = \max_{\text{orderings}} \sup_S \big(P(S) - e^{\varepsilon} Q(S)\big) = q(n) = "
                   + sp.latex(q) + r" \quad (\varepsilon \ge 0)",
        "min_epsilon_at_paper_delta": r"\min\{\varepsilon \ge 0 : \delta(\varepsilon) \le \delta_{\mathrm{paper}}\} = 0"
                                      r" \quad (\delta_{\mathrm{paper}} = q(n))",
        "min_delta_at_paper_epsilon": r"\delta(\varepsilon_{\mathrm{paper}}) = q(n) = " + sp.latex(q),
        "tradeoff": r"f(\alpha) = C_{q(n)}(0)(\alpha) = \min\{f_q, f_q^{-1}\}^{**}(\alpha) = "
                    + _positive_part(1 - sp.Symbol("q") - pf.alpha),
        "min_error_sum": r"\min_\alpha \big(\alpha + f(\alpha)\big) = 1 - q(n)",
        "bbg": r"\varepsilon' = \log\big(1 + q\,(e^{\varepsilon} - 1)\big),\ \delta' = q"
               r" \text{ (Balle--Barthe--Gaboardi with the identity mechanism; } \varepsilon \to 0)",
        "orderings": {},
    }
    for o in ORDERINGS:
        qo = sp.Symbol("q(n)") if o.neighbour < 0 else sp.Symbol("q(n + 1)")
        if o.larger_first:
            body = sp.latex(qo)
            trade = r"\left(1 - \frac{\alpha}{1 - " + sp.latex(qo) + r"}\right)_{+}"
        else:
            body = _positive_part(1 - sp.exp(e) * (1 - qo))
            trade = sp.latex((1 - qo) * (1 - pf.alpha))
        latex["orderings"][o.key] = {"profile": r"\delta(\varepsilon) = " + body,
                                     "tradeoff": r"T(P, Q)(\alpha) = " + trade}
    return latex


def findings(bagging: Bagging, a: BaggingAnalysis) -> list:
    """Plain statements of where the paper's pair is exact and where it is loose."""
    out = [
        "paper delta equals the exact total variation q(n): the delta is exact (tight) and "
        "cannot be lowered for any epsilon",
        "paper epsilon is loose: the subsample map is already (0, q(n))-DP, so the smallest "
        "epsilon at the paper's delta is 0",
    ]
    if bagging.sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        out.append("independent subsets are not covered by the paper; the reported 'paper' pair is "
                   "the natural extension (N ln((n+1)/(n+1-k)), 1 - ((n-k)/n)^N), whose delta is exact")
    return out


def as_dict(a: BaggingAnalysis) -> dict:
    """The JSON report."""
    b, digits = a.bagging, a.dps

    def num(v):
        return v.decimal(digits)

    rational = {}
    for name, v in (("q", a.q), ("tv", a.tv), ("paper_delta", a.paper_delta),
                    ("q_add", a.q_add), ("min_error_sum", a.min_error_sum)):
        if v.exact is not None:
            rational[name] = str(v.exact)
    return {
        "parameters": {"n": b.n, "k": b.k, "models": b.models, "total_draws": b.total_draws,
                       "sampling": b.sampling.value, "dps": a.dps},
        "convention": convention(b.sampling),
        "paper": {"epsilon": num(a.paper_epsilon), "delta": num(a.paper_delta),
                  "source": paper_formulas.source(b.sampling)},
        "exact": {
            "tv": num(a.tv),
            "min_epsilon_at_paper_delta": num(a.min_epsilon_at_paper_delta),
            "min_delta_at_paper_epsilon": num(a.min_delta_at_paper_epsilon),
            "q": num(a.q),
            "q_add": num(a.q_add),
            "profile": [{"eps": num(p.eps_value), "delta": num(p.delta),
                         "orderings": {key: num(v) for key, v in p.orderings.items()}}
                        for p in a.profile],
            "at_paper_epsilon": {key: num(v) for key, v in a.paper_epsilon_orderings.items()},
            "tradeoff": "max(0, 1 - q - alpha) with q = exact.q (C_q(0) of Dong-Roth-Su Def. 4.1)",
            "min_error_sum": num(a.min_error_sum),
        },
        "rational": rational,
        "findings": findings(b, a),
        "latex": formulas(b),
    }


def to_json(a: BaggingAnalysis) -> str:
    return json.dumps(as_dict(a), indent=2)


def to_text(a: BaggingAnalysis) -> str:
    """Human-readable report with the LaTeX of each formula."""
    d = as_dict(a)
    b, lx = a.bagging, d["latex"]
    lines = [
        f"bagging, sampling {b.sampling.value}: n = {b.n}, k = {b.k}, models N = {b.models}"
        f" (N k = {b.total_draws}), {a.dps} significant digits",
        f"convention: {convention(b.sampling)}",
        "",
        f"paper ({d['paper']['source']}):",
        f"  epsilon = {d['paper']['epsilon']}      {lx['paper_epsilon']}",
        f"  delta   = {d['paper']['delta']}      {lx['paper_delta']}",
        "",
        "exact:",
        f"  total variation                 = {d['exact']['tv']}      {lx['tv']}",
        f"  smallest epsilon at paper delta = {d['exact']['min_epsilon_at_paper_delta']}      "
        f"{lx['min_epsilon_at_paper_delta']}",
        f"  smallest delta at paper epsilon = {d['exact']['min_delta_at_paper_epsilon']}      "
        f"{lx['min_delta_at_paper_epsilon']}",
        f"  trade-off function (f-DP)       : {lx['tradeoff']}",
        f"  min over alpha of alpha + f     = {d['exact']['min_error_sum']}      {lx['min_error_sum']}",
        f"  profile: {lx['profile']}",
    ]
    for p in d["exact"]["profile"]:
        lines.append(f"    eps = {p['eps']}: delta = {p['delta']}")
        for key, v in p["orderings"].items():
            lines.append(f"      {key:<20} {v}      {lx['orderings'][key]['profile']}")
    lines.append("  at the paper's epsilon, per ordering:")
    for key, v in d["exact"]["at_paper_epsilon"].items():
        lines.append(f"      {key:<20} {v}")
    if d["rational"]:
        lines.append("  exact rationals: " + ", ".join(f"{k_} = {v}" for k_, v in d["rational"].items()))
    lines.append("")
    lines.append("findings:")
    lines += [f"  - {f}" for f in d["findings"]]
    return "\n".join(lines)


def report(bagging: Bagging, at=None, dps: int = 40, as_json: bool = False) -> str:
    """Analyse and format one configuration (the body of ``symdp bagging``)."""
    dps = positive_integer("dps", dps)
    epsilons = tuple(at) if at else DEFAULT_EPSILONS
    a = analyse(bagging, epsilons, dps)
    return to_json(a) if as_json else to_text(a)
