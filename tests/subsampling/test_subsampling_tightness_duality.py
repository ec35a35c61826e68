"""Tightness for f = 0, the dual sup, and the recorded findings of the Sec. 4 derivations."""

from pathlib import Path

import mpmath
import sympy as sp

from symdp import subsample
from symdp.proof import Verdict
from symdp.proof.loader import load_file
from symdp.subsampling.duality import DualSup, eq16_profile
from symdp.subsampling.tightness import SampleReleaseTradeOff, blatant_pair, finite_tradeoff
from symdp.tradeoff import Gaussian, Zero

R = sp.Rational
ROOT = Path(__file__).resolve().parents[2]


def test_finite_tradeoff_of_the_blatant_pair_is_f_0_p():
    P, Q = blatant_pair(R(1, 4))
    for a in (0, R(1, 8), R(1, 2), R(3, 4), R(7, 8), 1):
        assert finite_tradeoff(P, Q, a) == max(0, R(3, 4) - a) == subsample(Zero(), R(1, 4)).evaluate(a)


def test_enumerated_release_mechanism_matches_cp_of_zero():
    assert SampleReleaseTradeOff(4, 2, 1, 4).enumerate() == R(1, 4)   # 1 - 1/2 - 1/4
    assert SampleReleaseTradeOff(3, 3, 0, 1).enumerate() == 0         # the sample is the dataset
    assert SampleReleaseTradeOff(5, 0, 1, 5).enumerate() == R(4, 5)   # empty sample: Id


def test_dual_sup_of_the_eq16_profile_is_cp_gaussian():
    eta = sp.Symbol("eta", real=True)
    C = subsample(Gaussian(1), R(1, 5))
    D = DualSup(sp.Lambda(eta, eq16_profile(Gaussian(1), R(1, 5), eta)), R(1, 3))
    with mpmath.workdps(35):
        assert abs(mpmath.mpf(sp.N(D, 35)) - C.evaluate(R(1, 3), dps=35)) < mpmath.mpf(10) ** -30


def _checked(proofs_check, ident):
    """The verdicts of ``ident`` in the session's one check of proofs/ (tests/conftest.py):
    read, not checked again (issue #30)."""
    (found,) = [d for d in proofs_check.data["derivations"] if d["id"] == ident]
    return found


def test_cor_4_3_finding_reproduces_with_its_counterexample(proofs_check):
    report = _checked(proofs_check, "cor_4_3_as_printed_is_refuted_for_positive_delta")
    assert report["source"].endswith("drs_cor_4_3.py")
    (result,) = report["steps"]
    assert result["verdict"] == "REFUTED" and result["matches_expectation"]
    assert result["counterexample"] is not None
    gap = _checked(proofs_check, "cor_4_3_printed_line_lies_below_the_chord")
    # the gap between the printed line and the chord: never refuted; step 2 is evidence since
    # the kernel (issue #19) cannot confirm its Max/exp sign fact on the unbounded domain
    assert all(Verdict(r["verdict"]).supports for r in gap["steps"])
    assert gap["steps"][0]["verdict"] == "PROVED"


def test_figure6_findings_reproduce(proofs_check):
    (minima, seed) = load_file(ROOT / "proofs" / "drs_figure6.py")
    report = _checked(proofs_check, seed.id)
    assert report["ok"] and len(report["steps"]) == len(seed.steps)
    assert [Verdict(r["verdict"]).supports for r in report["steps"]] == \
        [True, True, False, True, True, False, True]
