"""SymPy assumptions implied by a parameter's domain -- and nothing stronger.

A parameter with domain D becomes a Dummy carrying only what D implies: real; integer when
D holds integers only; nonnegative when inf D >= 0, positive only when moreover 0 is not
in D (inf D > 0, or an open end at 0); the mirror images for sup D <= 0.  A closed end at
0 gives ``nonnegative``, never ``positive``: ``x > 0`` must not follow from
``0 <= x <= 1`` (issue #12).  Never ``integer=False`` (SymPy reads it as non-zero).
"""

from __future__ import annotations

import sympy as sp

from .sampling import is_integer_domain

_ASSUMPTION_SYMBOLS: dict = {}


def assumption_symbols(hypotheses: dict) -> dict:
    """Map each symbol to a Dummy carrying what its domain implies as assumptions.

    The same hypotheses give the same Dummies (cached), so that the closed forms derived for
    one step of a derivation are found again, in the caches of symdp's objects, by the next.
    """
    key = tuple(hypotheses.items())
    try:
        return dict(_ASSUMPTION_SYMBOLS[key])
    except KeyError:
        pass
    except TypeError:  # an unhashable domain: no caching
        return _assumption_symbols(hypotheses)
    mapping = _assumption_symbols(hypotheses)
    _ASSUMPTION_SYMBOLS[key] = mapping
    return dict(mapping)


def _assumption_symbols(hypotheses: dict) -> dict:
    mapping = {}
    for symbol, domain in hypotheses.items():
        assumptions = {"real": True}
        lo, hi = domain.inf, domain.sup
        if is_integer_domain(domain):
            assumptions["integer"] = True
        if lo.is_finite and lo >= 0:
            assumptions["nonnegative"] = True
            if lo > 0 or (lo == 0 and 0 not in domain):
                assumptions["positive"] = True
        if hi.is_finite and hi <= 0:
            assumptions["nonpositive"] = True
            if hi < 0 or (hi == 0 and 0 not in domain):
                assumptions["negative"] = True
        mapping[symbol] = sp.Dummy(symbol.name, **assumptions)
    return mapping
