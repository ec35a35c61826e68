"""The domain of each parameter from the assumptions a user typed (``symdp step --assume``,
``% symdp: assume`` in ``symdp check-tex``): the part both readers share."""

from __future__ import annotations

import sympy as sp

from ..core.errors import ParseError


def integer_domains(domains: dict, integers, *, hint: str, where: str = "") -> dict:
    """``domains`` with every ``integers`` name's set replaced by the integers in it, exactly:
    a ``Range``, or a union of Ranges and finite sets when the assumptions leave holes
    (``n >= -10, n^2 >= 9`` is ``{-10, ..., -3} u {3, 4, ...}``, never its hull
    ``{-10, -9, ...}``).  It needs a lower bound: ``hint(name)`` says how to give one.  An
    empty set, or one whose integers SymPy cannot list exactly, is a ``ParseError`` naming the
    symbol; ``where`` ends each message."""
    out = dict(domains)
    for s, dom in domains.items():
        if dom is sp.S.EmptySet:
            raise ParseError(f"the assumptions leave no value for {s.name}{where}")
        if s.name in integers and not isinstance(dom, sp.Range):
            if not dom.inf.is_finite:
                raise ParseError(f"give integer {s.name} a lower bound (e.g. {hint(s.name)}){where}")
            exact = sp.S.Integers.intersect(dom)
            if isinstance(exact, sp.Interval) or exact is sp.S.Integers:
                exact = sp.Range(sp.ceiling(exact.inf), sp.floor(exact.sup) + 1
                                 if exact.sup.is_finite else sp.oo)
            parts = exact.args if isinstance(exact, sp.Union) else (exact,)
            if exact is sp.S.EmptySet or exact.is_empty:
                raise ParseError(f"the assumptions leave no integer value for {s.name}{where}")
            if not all(isinstance(p, (sp.Range, sp.FiniteSet)) for p in parts):
                raise ParseError(f"the integers allowed for {s.name} by the assumptions "
                                 f"({sp.sstr(dom)}) cannot be listed exactly; state them as "
                                 f"an interval (e.g. {hint(s.name)}){where}")
            out[s] = exact
    return out
