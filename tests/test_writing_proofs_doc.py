"""docs/writing-proofs.md: its worked example is a proof file that ``symdp check`` passes,
uses every field it documents, and stops passing when its finding is not declared; the
page is pointed to from ``symdp check --help``, the README and notebook 03 (issue #14)."""

import re
from pathlib import Path

import pytest

from symdp.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "writing-proofs.md").read_text(encoding="utf-8")
EXAMPLE = re.findall(r"```python\n(.*?)```", DOC, re.S)[0]


def check(tmp_path, source, capsys):
    path = tmp_path / "amplification.py"
    path.write_text(source, encoding="utf-8")
    rc = main(["check", str(path), "--jobs", "1"])
    return rc, capsys.readouterr().out


def test_the_worked_example_passes_symdp_check(tmp_path, capsys):
    rc, out = check(tmp_path, EXAMPLE, capsys)
    assert rc == 0, out
    assert "all verdicts match their expectations" in out and "LOAD ERROR" not in out
    rows = {line.split()[0]: line for line in out.splitlines()
            if line and line.split()[0] in ("amplified_eps_le_eps", "ratio_le_one_of_k_le_n")}
    assert re.search(r"\b(PROVED|CERTIFIED)\b", rows["amplified_eps_le_eps"])  # holds everywhere
    assert "PROVED" in rows["ratio_le_one_of_k_le_n"]
    assert "[reproduced]" in out and "counterexample:" in out


def test_the_example_uses_every_documented_field():
    for field in ("id=", "statement=", "citation=", "hypotheses=", "steps=", "constraints=",
                  "chained=False", "notes=", "side_conditions=", "expect=Verdict.REFUTED",
                  "note=", "skip=(", "chain(", "DERIVATIONS ="):
        assert field in EXAMPLE, field


def test_without_its_expect_the_finding_fails_the_run(tmp_path, capsys):
    mutant = EXAMPLE.replace("expect=Verdict.REFUTED,", "")
    assert mutant != EXAMPLE
    rc, out = check(tmp_path, mutant, capsys)
    assert rc == 1 and "do NOT match" in out


def test_the_page_is_pointed_to(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "docs/writing-proofs.md" in capsys.readouterr().out
    assert "docs/writing-proofs.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    notebook = (ROOT / "notebooks" / "03_check_your_own_derivation.ipynb").read_text("utf-8")
    assert "docs/writing-proofs.md" in notebook


INDUCTION_EXAMPLE = re.findall(r"```python\n(.*?)```", DOC, re.S)[1]


def test_the_induction_and_counting_example_passes(tmp_path, capsys):
    """Issue #20: induction steps and counting lemmas, as the page shows them."""
    path = tmp_path / "counting.py"
    path.write_text(INDUCTION_EXAMPLE, encoding="utf-8")
    rc = main(["check", str(path), "--jobs", "1", "--verbose"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.count("by induction on n from 1") >= 2, out
    assert "counting lemmas (card_congr, card_fun, card_sdiff" in out
    assert out.count("[reproduced]") == 2
    mutant = INDUCTION_EXAMPLE.replace("expect=Verdict.REFUTED,", "", 1)
    path.write_text(mutant, encoding="utf-8")
    assert main(["check", str(path), "--jobs", "1"]) == 1


LEMMA_EXAMPLE = re.findall(r"```python\n(.*?)```", DOC, re.S)[2]


def test_the_lemma_proof_example_passes(tmp_path, capsys):
    """Issue #28: proofs about every trade-off function, as the page shows them; without the
    symmetry the kernel names the lemma that needed it."""
    path = tmp_path / "every_f.py"
    path.write_text(LEMMA_EXAMPLE, encoding="utf-8")
    rc = main(["check", str(path), "--jobs", "1"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "3 of 3 steps hold for every parameter value" in out
    mutant = LEMMA_EXAMPLE.replace('AbstractTradeOff("f", symmetric=True)', 'AbstractTradeOff("f")')
    path.write_text(mutant, encoding="utf-8")
    assert main(["check", str(path), "--jobs", "1", "--verbose"]) == 1
    assert "f is not declared symmetric" in capsys.readouterr().out
