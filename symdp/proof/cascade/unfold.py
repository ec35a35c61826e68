"""The proposer of unfoldings (issue #27): how the closed forms the stages work on were
obtained from the step's written sides.

The kernel unfolds a named family's ``f(x)`` by its own definitions
(:data:`symdp.proof.kernel.closed_forms.DEFINITIONS`).  Every other symdp node of a written
side (:func:`~symdp.proof.kernel.closed_forms.residual_nodes`) is unfolded here by its
``doit`` under the hypotheses' assumptions and sent to the kernel as an
:class:`~symdp.proof.certificates.Unfolding`: a convex conjugate ``f^*(y)`` of a function the
kernel can read with its :class:`~symdp.proof.certificates.ConjugateEvidence` (pieces,
maximisers; :func:`symdp.tradeoff.base.conjugate_branches`), anything else as ``"derived"`` --
a closed form the kernel does not check, on which a verdict then rests as a hypothesis.
"""

from __future__ import annotations

from ..assumptions import assumption_symbols
import sympy as sp

from ..certificates import ConjugateEvidence, InverseEvidence, Unfolding
from ..kernel import closed_forms
from .common import expand


def unfoldings_for(sides, hypotheses: dict) -> tuple:
    """The :class:`Unfolding` of every symdp node of ``sides`` the kernel does not unfold by
    definition and whose ``doit`` changes it."""
    mapping = assumption_symbols(hypotheses)
    back = {v: k for k, v in mapping.items()}
    out = []
    for side in sides:
        for node in closed_forms.residual_nodes(side):
            closed = expand(node.xreplace(mapping)).xreplace(back)
            if closed == node:
                continue
            evidence = conjugate_evidence(node, mapping)
            rule = "conjugate"
            if evidence is None:
                evidence, rule = inverse_evidence(node, mapping), "inverse"
            out.append(Unfolding(node, closed, rule if evidence is not None else "derived",
                                 evidence))
    return tuple(dict.fromkeys(out))


def conjugate_evidence(node, mapping):
    """The :class:`ConjugateEvidence` of a ``ConjugateAt(f, y)`` node (None for another node,
    or when f's pieces give none), built under the hypotheses' assumptions as ``doit`` is."""
    if closed_forms.qualified_name(node) != closed_forms.CONJUGATE_AT:
        return None
    from ...tradeoff.base import conjugate_evidence as evidence_of

    f, y = node.args
    back = {v: k for k, v in mapping.items()}
    try:
        t, pieces, branches = evidence_of(f.xreplace(mapping), y.xreplace(mapping))
    except (NotImplementedError, ValueError, TypeError, AttributeError):
        return None
    pieces = tuple(tuple(sp.sympify(e).xreplace(back) for e in piece) for piece in pieces)
    branches = tuple((sp.sympify(value).xreplace(back), sp.sympify(condition).xreplace(back),
                      sp.sympify(maximiser).xreplace(back), k, kind)
                     for value, condition, maximiser, k, kind in branches)
    return ConjugateEvidence(f, t, y, pieces, branches)


def inverse_evidence(node, mapping):
    """The :class:`InverseEvidence` of a ``TradeOffAt(Inverse(f), a)`` node whose f the
    kernel can read and whose inverse's pieces invert f's pieces (None otherwise): f's pieces,
    and each piece of ``Inverse(f)`` with the index of the piece of f it inverts (matched by
    its ends), built under the hypotheses' assumptions."""
    if closed_forms.qualified_name(node) != closed_forms.TRADEOFF_AT or \
            closed_forms.qualified_name(node.args[0]) != closed_forms.INVERSE:
        return None
    f = node.args[0].args[0]
    if closed_forms.DEFINITIONS.get(closed_forms.qualified_name(f)) is None:
        return None
    back = {v: k for k, v in mapping.items()}
    t, a = sp.Dummy("x", real=True), sp.Dummy("a", real=True)
    try:
        g = f.xreplace(mapping)
        pieces = [(p.lo, p.hi, p.at(t)) for p in g.pieces() if p.lo != p.hi]
        branches = []
        for q in type(node.args[0])(g).pieces():
            k = next((i for i, (lo, hi, h) in enumerate(pieces)
                      if sp.simplify(q.hi - h.xreplace({t: lo})) == 0
                      and sp.simplify(q.lo - h.xreplace({t: hi})) == 0), None)
            if k is None and q.at(a) != 0:
                return None
            branches.append((q.lo, q.hi, q.at(a), k))
    except (NotImplementedError, ValueError, TypeError, AttributeError):
        return None
    pieces = tuple(tuple(sp.sympify(e).xreplace(back) for e in piece) for piece in pieces)
    branches = tuple((sp.sympify(lo).xreplace(back), sp.sympify(hi).xreplace(back),
                      sp.sympify(h).xreplace(back), k) for lo, hi, h, k in branches)
    return InverseEvidence(f, t, a, pieces, branches)
