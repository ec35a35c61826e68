r"""Facts a closed form rests on that the object building it did not prove.

An object with symbolic parameters sometimes has to choose between formulas that SymPy
cannot choose between symbolically: which end of a piece comes first, which root of a
quadratic is the inverse on a piece (:mod:`symdp.subsampling.operator`).  It chooses at a
witness point -- and records the choice as an :class:`Assumption`, a SymPy relation in its
parameters, so that it is never silently taken for a fact.  Objects never run the checker:
the proof layer (:mod:`symdp.proof.obligations`) checks every assumption of every object a
step uses over the step's domain.  One that holds for every parameter value is a proved
fact; one that does not is a named hypothesis that the step's verdict carries and prints
("PROVED under: ...").
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

__all__ = ["Assumption"]


@dataclass(frozen=True)
class Assumption:
    """``claim`` (a SymPy Relational in the object's parameters), assumed, not proved.

    ``over`` lists further variables the claim is made for, each with its set (the claim is
    "for every value of them"), restricted by the relations ``where``; ``reason`` says what
    the claim decided and how it was chosen (e.g. at which witness point).
    """

    claim: sp.Basic
    reason: str
    over: tuple = ()   # ((Symbol, Set), ...)
    where: tuple = ()  # Relationals on the ``over`` variables

    def xreplace(self, mapping: dict) -> "Assumption":
        """The assumption with symbols renamed (the checker's assumption symbols and back)."""
        over = tuple((mapping.get(s, s), dom) for s, dom in self.over)
        return Assumption(self.claim.xreplace(mapping), self.reason, over,
                          tuple(w.xreplace(mapping) for w in self.where))

    @property
    def text(self) -> str:
        """The claim in plain text: ``x* <= t0``, with ``for every a in [..] with ...``."""
        named = {s: sp.Symbol(s.name) for s, _ in self.over}  # print a Dummy by its name
        claim = _relation_text(self.claim.xreplace(named))
        if not self.over:
            return claim
        over = ", ".join(f"{s.name} in {sp.sstr(dom)}" for s, dom in self.over)
        where = " with " + " and ".join(_relation_text(w.xreplace(named))
                                          for w in self.where) if self.where else ""
        return f"{claim} for every {over}{where}"


def _relation_text(rel) -> str:
    if isinstance(rel, sp.core.relational.Relational):
        return f"{sp.sstr(rel.lhs)} {rel.rel_op} {sp.sstr(rel.rhs)}"
    return sp.sstr(rel)
