r"""The laws a document names for its random variables: ``% symdp: let X \sim \mathrm{Laplace}(b)``.

A law turns the probabilities, expectations and variances of :mod:`symdp.core.quantities`
that involve its variable into numbers, computed by :mod:`sympy.stats` from the
distribution's own definition (nothing here writes a density again): ``\Pr[X > t]`` with
``X \sim \mathrm{Laplace}(0, s)`` is ``P(X > t)`` of SymPy's Laplace distribution.  The
computation is bounded in work (:data:`LAW_WORK` heartbeats, :func:`symdp.proof.budgets.work_limit`);
where SymPy cannot finish, or an event mentions no variable with a law, the quantity stays
opaque.  Symbols of an event without a law are parameters of it; distinct variables are
independent, as :mod:`sympy.stats` makes them.

Laws, by the names papers use (case does not matter; ``\mathrm{..}``, ``\operatorname{..}``,
``\text{..}`` and ``\mathcal{N}`` are read):

=====================================  ==========================================
``Laplace(b)``, ``Lap(b)``             Laplace, location 0, scale ``b``
``Laplace(\mu, b)``                    Laplace, location ``\mu``, scale ``b``
``Exp(\lambda)``, ``Exponential``      exponential with rate ``\lambda``
``\mathcal{N}(\mu, \sigma^2)``         normal with mean ``\mu`` and *variance* ``\sigma^2``
``Normal``, ``Gaussian`` likewise
``Bern(p)``, ``Bernoulli(p)``          Bernoulli (1 with probability ``p``)
``Bin(n, p)``, ``Binomial(n, p)``      binomial
``Unif(a, b)``, ``Uniform(a, b)``      uniform on [a, b]
``Poisson(\lambda)``, ``Pois``         Poisson
``Geom(p)``, ``Geometric(p)``          geometric on 1, 2, ... (trials to the first success)
=====================================  ==========================================
"""

from __future__ import annotations

import re

import sympy as sp
import sympy.stats as stats

from ..core.errors import ParseError
from ..core.quantities import Event, Expectation, Probability, Variance
from ..proof.budgets import HangGuardHit, WorkExhausted, hang_guard, work_limit

__all__ = ["LAWS", "read_law", "apply_laws", "LAW_WORK"]

#: heartbeats for computing one probability, expectation or variance from a law
LAW_WORK = 150_000
#: a wall-clock guard around one such computation (a guard, not a budget)
LAW_GUARD_SECONDS = 20.0


def _laplace(name, *params):
    if len(params) == 1:
        return stats.Laplace(name, 0, params[0])
    return stats.Laplace(name, *params)


def _normal(name, mean, variance):
    return stats.Normal(name, mean, sp.sqrt(variance))


#: law name (lower case) -> (SymPy constructor, allowed numbers of parameters)
LAWS = {
    "laplace": (_laplace, (1, 2)), "lap": (_laplace, (1, 2)),
    "exp": (stats.Exponential, (1,)), "exponential": (stats.Exponential, (1,)),
    "n": (_normal, (2,)), "normal": (_normal, (2,)), "gaussian": (_normal, (2,)),
    "bern": (stats.Bernoulli, (1,)), "bernoulli": (stats.Bernoulli, (1,)),
    "bin": (stats.Binomial, (2,)), "binomial": (stats.Binomial, (2,)),
    "unif": (stats.Uniform, (2,)), "uniform": (stats.Uniform, (2,)),
    "poisson": (stats.Poisson, (1,)), "pois": (stats.Poisson, (1,)),
    "geom": (stats.Geometric, (1,)), "geometric": (stats.Geometric, (1,)),
}

_LAW = re.compile(r"^\s*(?:\\(?:mathrm|operatorname|text|textrm|mathcal|mathsf)\s*\{\s*)?"
                  r"([A-Za-z]+)\s*\}?\s*(?:\\left)?\s*[(\[](.*?)(?:\\right)?\s*[)\]]\s*$",
                  re.DOTALL)


def read_law(name: sp.Symbol, text: str, parse) -> sp.Basic:
    r"""The random variable ``name`` with the law written in ``text``
    (``\mathrm{Laplace}(0, s)``); ``parse(text)`` reads one parameter.  Raises ``ParseError``
    naming what is not a law symdp knows."""
    match = _LAW.match(text)
    if match is None:
        raise ParseError(f"{text.strip()}: a law is written NAME(parameters), e.g. "
                         "\\mathrm{Laplace}(b)")
    law = match.group(1).lower()
    if law not in LAWS:
        raise ParseError(f"{match.group(1)}: not a law symdp knows (one of "
                         f"{', '.join(sorted(LAWS))})")
    constructor, counts = LAWS[law]
    params = [parse(p) for p in _split(match.group(2))]
    if len(params) not in counts:
        raise ParseError(f"{match.group(1)} takes {' or '.join(map(str, counts))} "
                         f"parameter(s), got {len(params)}")
    try:
        return constructor(name.name, *params)
    except (ValueError, TypeError) as error:
        raise ParseError(f"{match.group(1)}{tuple(params)}: {error}") from None


def _split(text: str) -> list[str]:
    pieces, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    return [p for p in pieces if p.strip()]


def apply_laws(expr: sp.Basic, laws: dict, assumed: dict | None = None) -> sp.Basic:
    """``expr`` with every probability, expectation and variance of a variable with a law
    computed from it (``laws``: Symbol -> SymPy random symbol); the others as they are.
    ``assumed`` maps symbols to the same names with SymPy assumptions (``s > 0``), which
    SymPy's integrals need to finish; the value is given back in the document's symbols."""
    if not laws or not isinstance(expr, sp.Basic):
        return expr

    def visit(node):
        if isinstance(node, (Probability, Expectation, Variance)):
            value = _computed(node, laws, assumed or {})
            if value is not None:
                return value
            return node
        if not node.args or isinstance(node, Event):
            return node
        args = tuple(visit(a) for a in node.args)
        return node if args == node.args else node.func(*args)

    return visit(expr)


def _computed(node, laws: dict, assumed: dict):
    r"""The value of one quantity from the laws, or None when it does not involve one, SymPy
    does not finish within :data:`LAW_WORK`, or the value is not confirmed by a second route
    (:func:`_confirmed`).

    Supported: the probability of one event affine in one variable (``X > t``, ``X + c \le T``,
    ``X = k``), through the distribution's CDF (``P(X <= c) = F(c)``, the complement for
    ``>``; SymPy's own ``P`` gave 0 for ``P(x - X <= 0)`` with ``X`` exponential), and the
    expectation and variance of a function of one variable."""
    content = node.args[0]
    if isinstance(content, Event):
        content = content.relation
    if content is None or not isinstance(content, sp.Basic):
        return None
    variables = {s: laws[s] for s in content.free_symbols if s in laws}
    if len(variables) != 1:
        return None  # several variables: SymPy's joint integrals are not relied on; none:
        # nothing to compute
    (variable,) = variables
    rv = variables[variable].xreplace(assumed)
    try:
        with hang_guard(LAW_GUARD_SECONDS), work_limit(LAW_WORK):
            if isinstance(node, Probability):
                value = _probability(content, variable, rv, assumed)
            elif isinstance(node, Expectation):
                value = stats.E(content.xreplace(assumed).xreplace({variable: rv}))
            else:
                value = stats.variance(content.xreplace(assumed).xreplace({variable: rv}))
    except (WorkExhausted, HangGuardHit, NotImplementedError, ValueError, TypeError,
            RecursionError):
        return None
    if value is None or value.has(sp.Integral, sp.Sum) or \
            value.has(stats.rv.RandomSymbol) or value.has(sp.nan, sp.zoo):
        return None  # SymPy left it unevaluated: the quantity stays opaque
    if not _confirmed(node, content, variable, rv, value, assumed):
        return None
    return value.xreplace({v: k for k, v in assumed.items()})


def _probability(relation, variable, rv, assumed):
    """``P(relation)`` for a relation affine in ``variable`` with a coefficient of known sign,
    from the CDF ``F`` of ``rv``: ``a X + b <= 0`` is ``X <= -b/a`` (``a > 0``) or ``X >= -b/a``;
    ``P(X >= c) = 1 - F(c)`` for a continuous law, ``1 - F(c - 1)`` at an integer ``c`` of a
    law on the integers; equalities have probability 0 (continuous) or the mass at the point
    (discrete).  None for anything else."""
    if not isinstance(relation, (sp.Le, sp.Eq)):
        return None
    side = sp.expand((relation.lhs - relation.rhs).xreplace(assumed))
    if not side.is_polynomial(variable) or sp.degree(side, variable) != 1:
        return None
    a = side.coeff(variable, 1)
    b = side.coeff(variable, 0)
    if not a.is_number or a == 0:
        return None
    c = -b / a
    masses = stats.density(rv)
    if isinstance(masses, dict) or hasattr(masses, "dict"):  # a finite law: sum its masses
        masses = dict(masses) if isinstance(masses, dict) else masses.dict
        if not c.is_number:
            return None
        if isinstance(relation, sp.Eq):
            return sum((m for k, m in masses.items() if k == c), sp.S.Zero)
        keep = (lambda k: k <= c) if a > 0 else (lambda k: k >= c)
        return sum((m for k, m in masses.items() if keep(k)), sp.S.Zero)
    discrete = isinstance(stats.pspace(rv), stats.drv.SingleDiscretePSpace)
    F = stats.cdf(rv)
    if isinstance(relation, sp.Eq):
        if not discrete:
            return sp.S.Zero
        return stats.density(rv)(c) if c.is_integer else None
    if a > 0:  # X <= c
        return F(c) if not discrete or c.is_integer else None
    if discrete:  # X >= c
        return 1 - F(c - 1) if c.is_integer else None
    return 1 - F(c)


def _confirmed(node, content, variable, rv, value, assumed) -> bool:
    """The value computed agrees, at two sample values of its parameters, with a second route:
    mpmath's quadrature (a sum, for a law on the integers) of the law's density over the
    event, or of the body times the density; a disagreement or a failure leaves the quantity
    opaque."""
    import mpmath

    from ..numeric.mp_compiler import mp_callable

    pspace = stats.pspace(rv)
    density = stats.density(rv)
    z = sp.Dummy("z")
    if isinstance(density, dict) or hasattr(density, "dict"):
        return True  # a finite law: the value is the sum of its masses, its definition
    try:
        pdf = density(z)
        support = pspace.distribution.set
    except Exception:  # noqa: BLE001 - no density: not confirmed, the quantity stays opaque
        return False
    free = sorted((value.free_symbols | content.xreplace(assumed).free_symbols |
                   pdf.free_symbols) - {variable, z}, key=lambda s: s.name)
    discrete = not isinstance(support, sp.Interval)
    for trial in range(2):
        point = {s: sp.Rational(7 + 6 * trial, 10) * (1 if s.is_nonnegative or s.is_positive
                                                      else (-1) ** trial) for s in free}
        with mpmath.workdps(30):
            try:
                expected = mpmath.mpf(sp.N(value.xreplace(point), 30))
                cuts = [mpmath.mpf(0)] + [mpmath.mpf(sp.N(p_, 30)) for p_ in
                                          rv.pspace.distribution.args
                                          if p_.xreplace(point).is_number and
                                          p_.xreplace(point).is_real
                                          for p_ in [p_.xreplace(point)]]
                if isinstance(node, Probability):
                    event = content.xreplace(assumed).xreplace(point).xreplace({variable: z})
                    integrand = sp.Piecewise((pdf.xreplace(point), event), (0, True))
                    side = sp.expand(event.lhs - event.rhs)
                    if side.coeff(z, 1).is_number and side.coeff(z, 1) != 0:
                        cuts.append(mpmath.mpf(sp.N(-side.coeff(z, 0) / side.coeff(z, 1), 30)))
                elif isinstance(node, Expectation):
                    body = content.xreplace(assumed).xreplace(point).xreplace({variable: z})
                    integrand = body * pdf.xreplace(point)
                else:
                    return True  # a variance: E[(X - E X)^2], the same integrals as E
                f = mp_callable((z,), integrand)
                support_here = support.xreplace(point) if hasattr(support, "xreplace") else support
                if discrete:
                    low = support_here.inf if support_here.inf.is_finite else -200
                    high = support_here.sup if support_here.sup.is_finite else 400
                    second = mpmath.fsum(f(mpmath.mpf(k)) for k in range(int(low), int(high) + 1))
                else:
                    low = mpmath.mpf(sp.N(support_here.inf, 30)) if support_here.inf.is_finite \
                        else -mpmath.inf
                    high = mpmath.mpf(sp.N(support_here.sup, 30)) if support_here.sup.is_finite \
                        else mpmath.inf
                    inside = sorted({c_ for c_ in cuts if low < c_ < high})
                    second = mpmath.quad(f, [low, *inside, high])
            except Exception:  # noqa: BLE001 - a second route that fails confirms nothing
                return False
            if not mpmath.isfinite(second) or \
                    abs(second - expected) > mpmath.mpf(10) ** -12 * max(1, abs(expected)):
                return False
    return True
