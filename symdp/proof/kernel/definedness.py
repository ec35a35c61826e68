"""The kernel's definedness rules: where an expression, as written, is defined.

:func:`hazards` lists the conditions under which an expression is defined (a non-zero base
under a negative power, a non-negative base under a fractional power, a positive log
argument); :func:`defined_on` confirms each of them on a domain through the kernel's
:func:`~symdp.proof.kernel.confirm`.  Words, never a verdict: only the package's ``accept``
seals.
"""

from __future__ import annotations

import sympy as sp

from ..certificates import Domain, Fact


def confirm(fact: Fact, domain: Domain) -> str:
    """The kernel's :func:`~symdp.proof.kernel.confirm` (imported late: it calls back here)."""
    from . import confirm as kernel_confirm

    return kernel_confirm(fact, domain)


def hazards(expr, where=(), domain: Domain | None = None) -> list:
    """The facts under which ``expr`` is defined: a non-zero base under a negative integer
    power, a non-negative base under a fractional power (positive when also negative), a
    positive log argument; a power with a symbolic exponent ``b**k`` needs ``b > 0`` unless
    ``k > 0`` on ``domain`` (then ``0**k = 0``; ``b >= 0`` for a non-integer k).  Piecewise conditions are looked into as expressions; a hazard inside a
    branch is needed only where its condition holds and the earlier ones fail (``where``)."""
    found = []
    if isinstance(expr, sp.Piecewise):
        earlier = ()
        for branch, cond in expr.args:
            found += hazards(cond, where + earlier, domain) if isinstance(cond, sp.Basic) else []
            relational = isinstance(cond, sp.core.relational.Relational)
            found += hazards(branch, where + earlier + ((cond,) if relational else ()), domain)
            if not relational:
                break
            earlier += (cond.negated,)
        return list(dict.fromkeys(found))
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return found
    for arg in expr.args:
        found += hazards(arg, where, domain)
    e, dom = expr, (Domain((), (), where) if where else None)
    if isinstance(e, sp.Pow) and e.base.free_symbols:
        if not e.exp.is_number:
            k_positive = domain is not None and confirm(Fact(e.exp, "positive"), domain)
            if not k_positive:
                found.append(Fact(e.base, "positive", "definedness: exponent", dom))
            elif not confirm(Fact(e.exp, "integer"), domain):
                found.append(Fact(e.base, "nonnegative", "definedness: exponent", dom))
        elif e.exp.is_negative:
            found.append(Fact(e.base, "nonzero" if e.exp.is_integer else "positive",
                              "definedness", dom))
        elif not e.exp.is_integer:
            found.append(Fact(e.base, "nonnegative", "definedness", dom))
    elif isinstance(e, sp.log) and e.args[0].free_symbols:
        found.append(Fact(e.args[0], "positive", "definedness", dom))
    return list(dict.fromkeys(found))


def defined_on(sides, domain: Domain) -> str:
    """"" when every hazard of ``sides`` is confirmed on ``domain``, else what is not."""
    for side in sides:
        if side.has(sp.nan) or side.has(sp.zoo):
            return "a side contains nan or zoo"
        for fact in hazards(side, domain=domain):
            if not confirm(fact, domain):
                return f"{fact.text()} is not shown on the domain"
    return ""
