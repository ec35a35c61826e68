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

from ..certificates import ConjugateEvidence, Unfolding
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
            out.append(Unfolding(node, closed, "conjugate" if evidence is not None else
                                 "derived", evidence))
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
