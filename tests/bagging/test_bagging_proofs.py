"""The derivations in proofs/bagging_*.py: well-formed, and every verdict as expected.

The full ranges run under ``symdp check proofs/bagging_*.py``; here the heavy
exact-profile derivations run on truncated enumeration ranges to stay fast.
"""

import dataclasses
import importlib.util
import pathlib

import pytest

from symdp.proof.derivation import Derivation
from symdp.proof.verdict import Verdict

PROOFS = sorted((pathlib.Path(__file__).resolve().parents[2] / "proofs").glob("bagging_*.py"))


def _load(path):
    spec = importlib.util.spec_from_file_location(f"proofs_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = getattr(module, "DERIVATIONS", None)
    return list(found) if found is not None else [module.derivation]


ALL = [(path.stem, d) for path in PROOFS for d in _load(path)]


def test_there_is_one_module_per_chain():
    stems = {p.stem for p in PROOFS}
    assert {"bagging_counts", "bagging_delta_from_gamma1", "bagging_decomposition",
            "bagging_thm2_models", "bagging_thm3_without_replacement", "bagging_thm4_tightness",
            "bagging_exact_profile"} <= stems


def test_derivations_are_well_formed():
    ids = [d.id for _, d in ALL]
    assert len(ids) == len(set(ids))
    for _, d in ALL:
        assert isinstance(d, Derivation)
        assert d.statement and d.citation
        assert "Liu, Jia, Gong, IJCAI 2021" in d.citation or "Balle" in d.citation


def test_findings_are_recorded():
    refuted = [(d.id, i) for _, d in ALL for i, s in enumerate(d.steps) if s.expect is Verdict.REFUTED]
    assert len(refuted) >= 5


def _truncate(d: Derivation) -> Derivation:
    small = {s: list(r)[:3] if s.name in ("n", "a", "b") else list(r)[:2] for s, r in d.enumeration.items()}
    return dataclasses.replace(d, enumeration=small)


@pytest.mark.parametrize("stem, derivation", ALL, ids=[d.id for _, d in ALL])
def test_every_verdict_matches_its_expectation(stem, derivation):
    check = pytest.importorskip("symdp.proof.check")
    if stem == "bagging_exact_profile":
        derivation = _truncate(derivation)
    report = check.check_derivation(derivation, points=8)
    for i, result in enumerate(report.steps):
        assert result.matches_expectation, f"{derivation.id} step {i + 1}: {result.verdict} {result.detail}"
        if derivation.steps[i].expect is Verdict.REFUTED:
            assert result.counterexample is not None
    assert all(r.verdict is not Verdict.UNDECIDED for r in report.steps)
