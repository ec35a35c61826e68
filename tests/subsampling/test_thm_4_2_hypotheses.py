"""Thm. 4.2 is PROVED from exactly the paper's hypotheses, and removing any one makes the
kernel refuse (issue #28).

The hypotheses: f a symmetric trade-off function (``AbstractTradeOff("f", symmetric=True)``),
M f-DP (``Mechanism("M", dp=f)``), 0 <= p <= 1.  The same proof, with one hypothesis taken
away -- f not declared symmetric, M not declared f-DP, p allowed up to 2 -- is refused, at
the lemma that needed it.  Prop. 4.5 likewise without its condition or its guarantees.
"""

from __future__ import annotations

import pytest
import sympy as sp

from symdp.proof import Derivation, Step, kernel
from symdp.proof.certificates import Claim, Domain, Inference, Judgement, MinorantCertificate
from symdp.proof.check import check_step
from symdp.proof.convex_proofs import prop_4_5_proof, thm_4_2_proof
from symdp.subsampling import subsample
from symdp.subsampling.mechanism import Mechanism, MechanismTradeOff, SampledMechanism
from symdp.tradeoff import AbstractTradeOff, ConvexEnvelope, Inverse, PointwiseMin

alpha = sp.Symbol("alpha", real=True)
p = sp.Symbol("p", real=True)
f = AbstractTradeOff("f", symmetric=True)
M = Mechanism("M", dp=f)
HYP = {alpha: sp.Interval(0, 1), p: sp.Interval(0, 1)}


def _step(mechanism, g):
    return Step(MechanismTradeOff(SampledMechanism(mechanism, p))(alpha), ">=",
                subsample(g, p)(alpha), "Thm. 4.2", proof=thm_4_2_proof(mechanism, g, p))


@pytest.fixture(scope="module")
def certificate():
    step = _step(M, f)
    return step.proof(step, Domain.of(HYP))


def _swap(value, mapping, sets=None):
    """``value`` with the objects of ``mapping`` replaced everywhere in a proof (and the sets of
    the symbols in ``sets`` replaced in every domain)."""
    sets = sets or {}
    if isinstance(value, Inference):
        return Inference(value.rule, tuple((k, _swap(v, mapping, sets)) for k, v in value.data),
                         value.premises, value.note)
    if isinstance(value, Judgement):
        return Judgement(value.lhs.xreplace(mapping), value.relation, value.rhs.xreplace(mapping),
                         _swap(value.domain, mapping, sets))
    if isinstance(value, Domain):
        return Domain(tuple((s, sets.get(s, d.xreplace(mapping))) for s, d in value.hypotheses),
                      tuple(c.xreplace(mapping) for c in value.constraints),
                      tuple(c.xreplace(mapping) for c in value.side_conditions))
    if isinstance(value, MinorantCertificate):
        return MinorantCertificate(value.lhs.xreplace(mapping), value.rhs.xreplace(mapping),
                                   value.relation, value.stage, variable=value.variable,
                                   kinds=value.kinds, proof=_swap(value.proof, mapping, sets),
                                   discharge=value.discharge)
    if isinstance(value, tuple):
        return tuple(_swap(v, mapping, sets) for v in value)
    if isinstance(value, sp.Basic):
        return value.xreplace(mapping)
    return value


def _accept(cert, mapping=None, hyp=HYP, sets=None):
    if mapping or sets:
        mapping = mapping or {}
        cert = type(cert)(cert.lhs.xreplace(mapping), cert.rhs.xreplace(mapping), cert.relation,
                          cert.stage, proof=_swap(cert.proof, mapping, sets))
    return kernel.accept(Claim(cert.lhs, cert.relation, cert.rhs, Domain.of(hyp)), cert)


def test_thm_4_2_is_proved_for_every_symmetric_f(certificate):
    result = _accept(certificate)
    assert result.verdict.value == "PROVED", result.detail
    for lemma in ("dp_hypothesis", "lemma_4_4", "prop_2_12_dual", "symmetric_inverse"):
        assert lemma in result.detail


def test_through_the_cascade_too():
    step = _step(M, f)
    d = Derivation("thm", "Thm. 4.2", "DRS 2022", HYP, (step,))
    assert check_step(step, d, 0, search=False).verdict.value == "PROVED"


def test_without_symmetry_the_kernel_refuses(certificate):
    f_plain = AbstractTradeOff("f")
    result = _accept(certificate, {f: f_plain, M: Mechanism("M", dp=f_plain)})
    assert not result.holds_everywhere
    assert "not declared symmetric" in result.detail


def test_without_f_dp_the_kernel_refuses(certificate):
    result = _accept(certificate, {M: Mechanism("M")})
    assert not result.holds_everywhere
    assert "dp_hypothesis" in result.detail and "not declared f-DP" in result.detail


def test_without_p_at_most_one_the_kernel_refuses(certificate):
    wider = {alpha: sp.Interval(0, 1), p: sp.Interval(0, 2)}
    assert not _accept(certificate, hyp=wider).holds_everywhere      # the proof covers [0, 1]
    # the same proof written for p in [0, 2]: Lemma 4.4 (and f_p) need p <= 1
    result = _accept(certificate, hyp=wider, sets={p: sp.Interval(0, 2)})
    assert not result.holds_everywhere
    # refused for p > 1: by M o Sample_p's definedness (a rate in [0, 1]) or by Lemma 4.4
    assert "p <= 1" in result.detail or "1 - p >= 0 is not shown" in result.detail


def test_without_a_hypothesis_the_step_is_not_proved():
    """Through the cascade (the script then stops at the lemma; no other stage decides an
    abstract mechanism): UNDECIDED, naming the missing hypothesis."""
    f_plain = AbstractTradeOff("f")
    for mechanism, g, missing in ((Mechanism("M", dp=f_plain), f_plain, "not declared symmetric"),
                                  (Mechanism("M"), f, "not declared f-DP")):
        step = _step(mechanism, g)
        d = Derivation("thm", "Thm. 4.2", "DRS 2022", HYP, (step,))
        result = check_step(step, d, 0, search=False)
        assert result.verdict.value == "UNDECIDED" and missing in result.detail


def test_prop_4_5_needs_its_condition_and_its_guarantees():
    g = AbstractTradeOff("g", profile_dominates_inverse=True)
    N = Mechanism("N", dp_profile=g)
    hyp = {alpha: sp.Interval(0, 1)}

    def proved(mechanism, h):
        step = Step(MechanismTradeOff(mechanism)(alpha), ">=",
                    ConvexEnvelope(PointwiseMin(h, Inverse(h)))(alpha), "Prop. 4.5",
                    proof=prop_4_5_proof(mechanism, h))
        d = Derivation("prop", "Prop. 4.5", "DRS 2022", hyp, (step,))
        return check_step(step, d, 0, search=False)
    assert proved(N, g).verdict.value == "PROVED"
    g_plain = AbstractTradeOff("g")
    assert "not declared with delta_g" in proved(Mechanism("N", dp_profile=g_plain), g_plain).detail
    assert "not declared (eps, delta_g(eps))-DP" in proved(Mechanism("N"), g).detail
