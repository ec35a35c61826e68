"""The soundness battery (issue #12, item 6): statements of known truth through the cascade.

The families are in :mod:`soundness_families` (each statement's truth is argued there,
without symdp).  What is required:

* a **false** statement is REFUTED or UNDECIDED -- never a verdict that holds everywhere
  (PROVED, CERTIFIED, ENUMERATED) and never evidence at points (CHECKED_AT_POINTS,
  NUMERIC_AT_POINTS).  Evidence is required to fail too because a step reported as
  evidence is counted as supported by the summary and by ``dominates()``; the
  counterexample search runs precisely so that a false step does not end there.
  UNDECIDED is tolerated (it claims nothing), but the families below whose witness is an
  exact rational point must be REFUTED, and are;
* a **true** statement is never REFUTED (a counterexample to a true statement would be a
  bug in a stage's rigour, e.g. a point outside the constraints).

The budgets are the cascade's defaults except fewer points and shorter symbolic
timeouts, so that the battery runs in about a minute; none of them can make a verdict
wrong, only weaker.
"""

from __future__ import annotations

import collections
import subprocess
import sys
from pathlib import Path

import pytest

from symdp.proof import Derivation, Step, Verdict, check_derivation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soundness_families import all_statements  # noqa: E402

STATEMENTS = all_statements()
SETTINGS = dict(points=8, symbolic_seconds=0.5, box_limit=60)

# families whose false statements all have an exact rational witness the search proposes:
# for these, UNDECIDED is not good enough
MUST_REFUTE = {"boundary", "interior", "coupled", "tiny", "far", "ties", "dp"}


def _check(s):
    d = Derivation("battery", "a statement of known truth", "soundness battery", s.hypotheses,
                   (Step(s.lhs, s.relation, s.rhs, s.why),), constraints=s.constraints)
    return check_derivation(d, **SETTINGS).steps[0]


def test_the_battery_is_large_and_balanced():
    counts = collections.Counter((s.family, s.true) for s in STATEMENTS)
    assert len(STATEMENTS) >= 300
    for family in ("boundary", "interior", "coupled", "tiny", "far", "ties", "dp"):
        assert counts[(family, True)] >= 5 and counts[(family, False)] >= 5, family


@pytest.mark.parametrize("index", range(len(STATEMENTS)),
                         ids=[f"{i}-{s.family}-{'true' if s.true else 'false'}"
                              for i, s in enumerate(STATEMENTS)])
def test_statement_of_known_truth(index):
    s = STATEMENTS[index]
    r = _check(s)
    if s.true:
        assert r.verdict is not Verdict.REFUTED, (s.label, s.why, r.detail)
        return
    assert not r.verdict.holds_everywhere, (s.label, "is false:", s.why, r.verdict, r.detail)
    assert not r.verdict.is_evidence, (s.label, "is false:", s.why, r.verdict, r.detail)
    if s.family in MUST_REFUTE:
        assert r.verdict is Verdict.REFUTED, (s.label, s.why, r.verdict, r.detail)
        assert r.counterexample is not None


# the five lines of the issue's table, through the command line
ISSUE_TABLE = [
    (["x", ">", "0", "--assume", "0<=x<=1"], {"x": "0"}),
    (["exp(eps)", ">", "1", "--assume", "eps>=0"], {"varepsilon": "0"}),
    (["x+y", ">=", "6/5", "--assume", "0<=x<=1", "--assume", "0<=y<=1", "--assume", "x+y>=1"],
     None),
    (["exp(10^-80)-1", "=", "0"], {}),
    (["Abs(x-1/3)", ">", "0", "--assume", "0<=x<=1"], {"x": "1/3"}),
]


@pytest.mark.parametrize("args, point", ISSUE_TABLE, ids=[" ".join(a[:3]) for a, _ in ISSUE_TABLE])
def test_issue_table_is_refuted_with_a_counterexample(args, point):
    import json

    out = subprocess.run([sys.executable, "-m", "symdp.cli.main", "step", *args, "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, (out.stdout, out.stderr)
    record = json.loads(out.stdout)
    step = record["steps"][0] if "steps" in record else record
    assert step["verdict"] == "REFUTED", step
    cx = step["counterexample"]
    assert cx is not None
    if point is not None:
        assert cx["point"] == point, cx
    else:  # x + y >= 6/5 fails wherever 1 <= x + y < 6/5: check the point given
        from fractions import Fraction

        px, py = Fraction(cx["point"]["x"]), Fraction(cx["point"]["y"])
        assert 1 <= px + py < Fraction(6, 5) and 0 <= px <= 1 and 0 <= py <= 1
