"""The comparison of ``benchmarks/determinism.py`` (issue #19: no verdict depends on the
clock) on synthetic ``symdp check --json`` reports; the two real runs are the script's."""

from __future__ import annotations

import copy
import json

from benchmarks.determinism import differences, main, step_verdicts


def _report(*derivations, load_errors=()):
    return {"schema": "symdp-check/2", "summary": {},
            "derivations": [{"id": id_, "source": f"proofs/{id_}.py",
                             "steps": [{"index": i, "verdict": v, "hypotheses": list(h)}
                                       for i, (v, h) in enumerate(steps, start=1)]}
                            for id_, steps in derivations],
            "load_errors": [{"path": p, "error": e} for p, e in load_errors]}


BASE = _report(("clt_kappa3_of_gaussian_closed_form", [("PROVED", ()), ("CERTIFIED", ())]),
               ("gamma_counts", [("ENUMERATED", ()), ("PROVED", ("x* <= 1 - delta",))]))


def test_identical_reports_have_no_difference():
    assert differences(BASE, copy.deepcopy(BASE)) == []
    assert len(step_verdicts(BASE)) == 4


def test_a_changed_verdict_is_named_by_derivation_and_step():
    other = copy.deepcopy(BASE)
    other["derivations"][0]["steps"][0]["verdict"] = "CHECKED_AT_POINTS"
    assert differences(BASE, other, ("--jobs 1", "--jobs 2, loaded")) == [
        "clt_kappa3_of_gaussian_closed_form step 1: PROVED (--jobs 1) vs CHECKED_AT_POINTS "
        "(--jobs 2, loaded)"]


def test_a_changed_hypothesis_a_missing_step_and_a_load_error_differ_too():
    other = copy.deepcopy(BASE)
    other["derivations"][1]["steps"][1]["hypotheses"] = []       # now PROVED outright
    del other["derivations"][0]["steps"][1]                       # step 2 gone
    other["load_errors"].append({"path": "proofs/slow.py", "error": "timed out after 300 s"})
    lines = differences(BASE, other)
    assert lines == [
        "clt_kappa3_of_gaussian_closed_form step 2: CERTIFIED (first) vs absent (second)",
        "gamma_counts step 2: PROVED under: x* <= 1 - delta (first) vs PROVED (second)",
        "load error in proofs/slow.py: absent (first) vs LOAD ERROR (second)"]
    # the same load error in both runs, whatever its message, is no difference
    again = copy.deepcopy(other)
    again["load_errors"][0]["error"] = "timed out after 301 s"
    assert differences(other, again) == []


def test_the_command_compares_two_files_and_exits_1_naming_the_steps(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(BASE))
    b.write_text(json.dumps(BASE))
    assert main(["--compare", str(a), str(b)]) == 0
    assert "all 4 steps have the same verdict" in capsys.readouterr().out
    other = copy.deepcopy(BASE)
    other["derivations"][1]["steps"][0]["verdict"] = "UNDECIDED"
    b.write_text(json.dumps(other))
    assert main(["--compare", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "1 of 4 steps differ" in out and "gamma_counts step 1: ENUMERATED" in out
    b.write_text("{not json")
    assert main(["--compare", str(a), str(b)]) == 2
