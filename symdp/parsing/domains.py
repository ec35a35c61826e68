"""The domain of each parameter from the assumptions a user typed (``symdp step --assume``,
``% symdp: assume`` in ``symdp check-tex``): the part both readers share."""

from __future__ import annotations

import sympy as sp

from ..core.errors import ParseError


def integer_domains(domains: dict, integers, *, hint: str, where: str = "") -> dict:
    """``domains`` with every ``integers`` name's set replaced by the integers in it, as a
    ``Range`` (it needs a lower bound: ``hint(name)`` says how to give one).  An empty set is
    a ``ParseError`` naming the symbol; ``where`` ends each message."""
    out = dict(domains)
    for s, dom in domains.items():
        if dom is sp.S.EmptySet:
            raise ParseError(f"the assumptions leave no value for {s.name}{where}")
        if s.name in integers and not isinstance(dom, sp.Range):
            lo, hi = dom.inf, dom.sup
            lo = sp.ceiling(lo) if lo.is_finite else -sp.oo
            hi = sp.floor(hi) + 1 if hi.is_finite else sp.oo
            if lo == -sp.oo:
                raise ParseError(f"give integer {s.name} a lower bound (e.g. {hint(s.name)}){where}")
            out[s] = sp.Range(lo, hi)
    return out
