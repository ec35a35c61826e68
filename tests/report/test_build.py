"""symdp.report.build: the report is written completely or not at all, with the verdicts of the
proof files given (checked by hand: x**2 <= x holds on [0, 1]; x >= 1 fails there at x = 0)."""

from pathlib import Path

import pytest

from symdp.report.build import ReportOutputError, write_report

FIXTURES = Path(__file__).resolve().parents[1] / "cli" / "fixtures"
GOOD, FALSE = FIXTURES / "good_step.py", FIXTURES / "false_step.py"


def _leftovers(out: Path):
    """Anything a finished or failed build must not leave behind: its temporary directory."""
    return sorted(p.name for p in out.iterdir() if p.name.startswith("."))


def test_a_true_derivation_gives_an_ok_report_and_only_the_document(tmp_path):
    out = write_report(tmp_path, paths=[GOOD], figures=False, jobs=1)
    assert out.tex == tmp_path / "symdp-report.tex" and out.tex.is_file()
    assert out.pdf is None and out.figures == ()
    assert [r.derivation.id for r in out.reports] == ["fixture_good_step"]
    assert out.ok and out.errors == ()
    assert _leftovers(tmp_path) == []
    text = out.tex.read_text(encoding="utf-8")
    assert text.lstrip().startswith("\\documentclass") and text.rstrip().endswith("\\end{document}")


def test_a_false_step_makes_the_report_not_ok(tmp_path):
    out = write_report(tmp_path, paths=[GOOD, FALSE], figures=False, jobs=1)
    assert {r.derivation.id: r.ok for r in out.reports} == {"fixture_good_step": True,
                                                            "fixture_false_step": False}
    assert not out.ok


def test_a_stale_pdf_is_removed_when_no_pdf_is_built(tmp_path):
    # a PDF from an earlier document would not match the new .tex
    (tmp_path / "symdp-report.pdf").write_bytes(b"%PDF-1.4 old")
    write_report(tmp_path, paths=[GOOD], figures=False, check=False)
    assert not (tmp_path / "symdp-report.pdf").exists()
    assert (tmp_path / "symdp-report.tex").exists()


def test_an_unknown_id_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="unknown derivation id 'no_such_id'"):
        write_report(tmp_path, paths=[GOOD], figures=False, check=False, only=["no_such_id"])
    assert list(tmp_path.iterdir()) == []


def test_an_output_directory_below_a_file_is_an_error_naming_it(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory", encoding="utf-8")
    with pytest.raises(ValueError) as info:   # ReportOutputError or InvalidParameterError
        write_report(blocker / "out", paths=[GOOD], figures=False, check=False)
    assert "a_file" in str(info.value)
    assert "\n" not in str(info.value)


def test_report_output_error_is_a_value_error():
    # the CLI turns ValueError into one line and exit 2
    assert issubclass(ReportOutputError, ValueError)
