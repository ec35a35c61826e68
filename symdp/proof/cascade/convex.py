"""The proof a step carries (``Step.proof``, issue #28), as a certificate for the kernel.

``Step.proof`` is either a tuple of :class:`~symdp.proof.certificates.Inference` (a lemma
proof whose last judgement is the step's claim) or a callable ``proof(step, domain)``
returning a certificate (:class:`~symdp.proof.certificates.LemmaCertificate`,
:class:`~symdp.proof.certificates.MinorantCertificate`) -- a script of
:mod:`symdp.proof.convex_proofs`, written when the step is checked, not when its file is
imported.  Untrusted: :func:`symdp.proof.kernel.accept` replays it.  A certificate whose
claim is not the step's (sides and relation as written) is not proposed.
"""

from __future__ import annotations

from ..certificates import Certificate, Domain, Inference, LemmaCertificate
from ..derivation import Derivation, Step


def proof_stage(step: Step, derivation: Derivation):
    """``(certificate or None, note)``: the certificate of the step's own proof, or why none
    was made (the note goes to the verdict's "tried")."""
    domain = Domain.of(derivation.hypotheses, derivation.constraints, step.side_conditions)
    proof = step.proof
    if isinstance(proof, (tuple, list)) and all(isinstance(i, Inference) for i in proof):
        return LemmaCertificate(step.lhs, step.rhs, step.relation, "lemmas",
                                proof=tuple(proof)), ""
    if not callable(proof):
        return None, f"lemmas: the step's proof is neither inferences nor a script ({type(proof).__name__})"
    try:
        certificate = proof(step, domain)
    except Exception as exc:  # noqa: BLE001 - a script that fails is named, never a verdict
        message = str(exc).splitlines()[0] if str(exc) else ""
        return None, f"lemmas: the proof script stopped: {type(exc).__name__}: {message}"
    if not isinstance(certificate, Certificate):
        return None, "lemmas: the proof script returned no certificate"
    if (certificate.lhs, certificate.relation, certificate.rhs) != \
            (step.lhs, step.relation, step.rhs):
        return None, "lemmas: the proof script proves another claim than the step's"
    return certificate, ""
