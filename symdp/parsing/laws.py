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
    """The value of one quantity from the laws, or None when it does not involve one or
    SymPy does not finish within :data:`LAW_WORK`."""
    content = node.args[0]
    if isinstance(content, Event):
        content = content.relation
    if content is None or not isinstance(content, sp.Basic):
        return None
    variables = {s: laws[s] for s in content.free_symbols if s in laws}
    if not variables:
        return None
    target = content.xreplace(variables).xreplace(assumed)
    try:
        with hang_guard(LAW_GUARD_SECONDS), work_limit(LAW_WORK):
            if isinstance(node, Probability):
                value = stats.P(target)
            elif isinstance(node, Expectation):
                value = stats.E(target)
            else:
                value = stats.variance(target)
    except (WorkExhausted, HangGuardHit, NotImplementedError, ValueError, TypeError,
            RecursionError):
        return None
    value = value.xreplace({v: k for k, v in assumed.items()})
    if value.has(sp.Integral, sp.Sum) or value.has(stats.rv.RandomSymbol) or \
            value.has(sp.nan, sp.zoo):
        return None  # SymPy left it unevaluated: the quantity stays opaque
    return value
