"""The symbolic stage of the check cascade (:mod:`symdp.proof.check`): under the
hypotheses turned into SymPy assumptions, ``simplify(lhs - rhs)`` (also after rewriting
:math:`\\Phi` to ``erfc``), the sign of the difference for inequalities, also after
reparametrising bounded parameters ``x = a + (b - a)/(1 + t)``, ``t >= 0``, and
derivative-sign monotonicity (:mod:`symdp.proof.cascade.monotone`).  Each attempt has a
budget counted in work (:func:`symdp.proof.budgets.work_limit`), never in seconds.

A proposer: :func:`symbolic_certificates` yields certificates
(:class:`~symdp.proof.certificates.SymbolicCertificate`) for :func:`symdp.proof.kernel.accept`,
or a REFUTED result; it never says that a step holds."""

from __future__ import annotations

import sympy as sp

from ...core.enumerable import Enumerated
from ..assumptions import assumption_symbols
from ..budgets import WorkExhausted, work_limit
from ..certificates import SymbolicCertificate
from ..verdict import Counterexample, StepResult, Verdict
from .common import sign_holds


def symbolic_certificates(lhs, rhs, relation, hypotheses, work: int, tried: list):
    """Yield a certificate per symbolic argument found (the kernel accepts or refuses each),
    or a REFUTED StepResult (a strict relation between sides that simplify to equal);
    what was tried is appended to ``tried``.  ``work``: the heartbeats of each rewriting
    attempt, of the reparametrised sign analysis and of the monotonicity argument
    (:data:`symdp.proof.budgets.SIMPLIFY_WORK` by default)."""
    mapping = assumption_symbols(hypotheses)
    L, R = lhs.xreplace(mapping), rhs.xreplace(mapping)
    if L.atoms(Enumerated) or R.atoms(Enumerated):
        tried.append("symbolic: skipped (enumerated quantities)")
        return
    diff = L - R
    from ...core.special import phi_normal_form, to_erfc  # local: no cycle through proof

    # each attempt: a rewriting of the difference, then simplify and the sign
    attempts = [
        ("simplify", lambda d: d),
        ("simplify after Phi -> erfc", to_erfc),
        ("Phi identities + simplify", lambda d: phi_normal_form(sp.expand(d))),
        ("piecewise_fold + simplify", lambda d: sp.piecewise_fold(to_erfc(d))),
    ]
    simplified_forms = []
    done = {}   # rewritten form -> (simplified, sign) of an attempt that finished
    for name, rewrite in attempts:
        try:
            with work_limit(work):
                form = rewrite(diff)
                if form in done:   # a rewriting that changed nothing (no Phi, no Piecewise):
                    simplified, verdict = done[form]   # the same simplify, the same sign
                else:
                    simplified = sp.simplify(form)
                    verdict = sign_holds(simplified, relation)
                    done[form] = simplified, verdict
        except WorkExhausted:
            tried.append(f"{name}: undecided within its budget ({work} heartbeats)")
            continue
        except Exception as exc:  # noqa: BLE001 - a stage that fails just does not decide
            tried.append(f"{name}: {type(exc).__name__}")
            continue
        if simplified == 0 and relation in ("<", ">"):
            cx = Counterexample({}, "lhs", "rhs", "0", exact=True)
            yield StepResult(Verdict.REFUTED, "the sides are equal everywhere (their difference "
                             f"simplifies to 0, {name}), so the strict relation fails at every point",
                             "symbolic", counterexample=cx)
            return
        if verdict is True:
            back = {v: k for k, v in mapping.items()}
            yield SymbolicCertificate(lhs, rhs, relation, "symbolic", name,
                                      simplified.xreplace(back), mapping=tuple(mapping.items()))
            tried.append(f"{name}: decided by SymPy; the kernel did not accept it")
            continue
        tried.append(f"{name}: undecided")
        simplified_forms.append(simplified)
    if relation != "=" and simplified_forms:
        # sign analysis after reparametrising bounded parameters
        try:
            with work_limit(work):
                decided = _sign_by_reparametrisation(simplified_forms[0], relation, hypotheses,
                                                     mapping)
        except WorkExhausted:
            tried.append(f"reparametrised sign analysis: undecided within its budget ({work} "
                         "heartbeats)")
            decided = False
        except Exception as exc:  # noqa: BLE001
            tried.append(f"reparametrised sign analysis: {type(exc).__name__}")
            decided = False
        if decided:
            yield SymbolicCertificate(lhs, rhs, relation, "symbolic",
                                      "sign after reparametrising bounded parameters as "
                                      "a + (b - a)/(1 + t), t >= 0, and at the endpoints",
                                      substitution=tuple(decided), mapping=tuple(mapping.items()))
            tried.append("reparametrised sign analysis: decided by SymPy; not accepted")
        else:
            tried.append("reparametrised sign analysis: undecided")
    if relation != "=" and len(lhs.free_symbols | rhs.free_symbols) <= 3:
        from .monotone import prove_by_monotonicity

        margin = (rhs - lhs) if relation in ("<", "<=") else (lhs - rhs)
        chain, why = [], ""
        try:
            with work_limit(work):
                why = prove_by_monotonicity(margin, relation in ("<", ">"), hypotheses,
                                            chain=chain)
        except WorkExhausted:
            tried.append(f"monotonicity: undecided within its budget ({work} heartbeats)")
        except Exception as exc:  # noqa: BLE001 - undecided, not wrong
            tried.append(f"monotonicity: {type(exc).__name__}")
        if why:
            yield SymbolicCertificate(lhs, rhs, relation, "symbolic",
                                      f"derivative-sign monotonicity: {why}",
                                      chain=tuple(chain))
            tried.append("monotonicity: decided; not accepted")
        elif not tried[-1].startswith("monotonicity: undecided within"):
            tried.append("monotonicity: undecided")


def _sign_by_reparametrisation(diff, relation, hypotheses, mapping) -> tuple:
    """The substitutions ``(x, t, a + (b - a)/(1 + t))`` under which the sign of ``diff`` is
    decided (with the included endpoints), or ``()``.

    Not tried on a difference holding a combinatorial function (binomial, factorial, gamma):
    ``simplify`` of the substituted form then runs ``combsimp``, whose ``factor`` of dense
    integer polynomials (Zassenhaus) builds no SymPy object -- no heartbeat stops it -- and ran
    for minutes on ``exp(x binomial(n - 6, 3)) >= exp(x^2 binomial(n - 6, 3))`` in a test
    process whose earlier work had left another simplified form (issue #30)."""
    from sympy.functions.combinatorial.factorials import CombinatorialFunction

    if diff.has(CombinatorialFunction, sp.gamma):
        return ()
    substitutions, endpoints = {}, []
    for symbol, domain in hypotheses.items():
        dummy = mapping[symbol]
        if dummy not in diff.free_symbols or not isinstance(domain, sp.Interval):
            continue
        a, b = domain.start, domain.end
        if a.is_finite and b.is_finite:
            t = sp.Dummy("t", nonnegative=True)
            substitutions[dummy] = a + (b - a) / (1 + t)
            if not domain.left_open:
                endpoints.append((dummy, a))
    if not substitutions:
        return ()
    re_diff = sp.simplify(diff.xreplace(substitutions))
    if sign_holds(re_diff, relation) is not True:
        return ()
    for dummy, value in endpoints:
        at_end = sp.simplify(diff.xreplace({dummy: value}))
        if sign_holds(at_end, relation) is not True:
            return ()
    back = {v: k for k, v in mapping.items()}
    return tuple((back.get(d, d), next(iter(e.free_symbols)), e) for d, e in substitutions.items())
