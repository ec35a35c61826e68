"""The derivations in proofs/bagging_*.py: well-formed, and every verdict as expected.

The verdicts are those of the session's one ``symdp check`` over proofs/ (the ``proofs_check``
fixture of tests/conftest.py, issue #30): over their full ranges, read here, not checked again.
"""

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


@pytest.mark.parametrize("stem, derivation", ALL, ids=[d.id for _, d in ALL])
def test_every_verdict_matches_its_expectation(stem, derivation, proofs_check):
    (checked,) = [d for d in proofs_check.data["derivations"] if d["id"] == derivation.id]
    assert checked["source"].endswith(f"{stem}.py")
    assert len(checked["steps"]) == len(derivation.steps)
    for i, step in enumerate(checked["steps"]):
        assert step["matches_expectation"], f"{derivation.id} step {i + 1}: {step['verdict']} " \
                                            f"{step['detail']}"
        expected = derivation.steps[i].expect
        assert step["expected"] == (expected.value if expected else None)
        if expected is Verdict.REFUTED:
            assert step["verdict"] == "REFUTED" and step["counterexample"] is not None
    assert all(s["verdict"] != Verdict.UNDECIDED.value for s in checked["steps"])
