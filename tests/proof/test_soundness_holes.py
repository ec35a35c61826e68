"""The soundness battery's families of issue #27, item 3 (:mod:`soundness_holes`): every
class of the kernel's checks that used to be taken on a stage's word -- ties below 10^-40 in
a piece's branch, the side conditions of a reduction's monotone maps, integer sets with
holes, partial functions outside their domains, near-integer exponents, two Symbols of one
name.  Strict, as the kernel's families of issue #19:

* a false statement never gets a verdict that holds everywhere (PROVED, CERTIFIED,
  ENUMERATED) -- REFUTED, UNDECIDED naming the undefined point, evidence at points, or a
  clear input error are answers;
* a true statement is never REFUTED.

The issue's own rows are checked through the command line below, with the answer each must
give.  Truth is established in soundness_holes.py without symdp.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from symdp.core.errors import DerivationError, InvalidParameterError
from symdp.proof import Derivation, Step, Verdict, check_derivation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soundness_holes import holes_statements, holes_typed  # noqa: E402

STATEMENTS = holes_statements()
TYPED = holes_typed()
SETTINGS = dict(points=8, symbolic_work=40_000, box_limit=60)
FAMILIES = ("ties", "maps", "holes", "partial", "nearint", "samename")


def _ids():
    seen = collections.Counter()
    out = []
    for s in STATEMENTS:
        out.append(f"{s.family}-{seen[s.family]}-{'true' if s.true else 'false'}")
        seen[s.family] += 1
    return out


def outcome(s):
    """``(wrong, what)``: does symdp's answer to ``s`` break the rules above?"""
    d = Derivation("battery", "a statement of known truth", "soundness battery", s.hypotheses,
                   (Step(s.lhs, s.relation, s.rhs, s.why),), constraints=s.constraints)
    try:
        r = check_derivation(d, **SETTINGS).steps[0]
    except (DerivationError, InvalidParameterError) as exc:
        return False, f"refused: {exc}"
    what = f"{r.label}: {r.detail}"
    if not s.true and r.holds_everywhere:
        return True, what
    return (s.true and r.verdict is Verdict.REFUTED), what


def test_the_families_are_large_and_balanced():
    counts = collections.Counter(s.family for s in STATEMENTS)
    counts.update(family for family, *_ in TYPED)
    for family in FAMILIES:
        assert counts[family] >= 30, (family, counts[family])
        assert any(s.true for s in STATEMENTS if s.family == family) or \
            any(t for f, _, t, _ in TYPED if f == family), family
        assert any(not s.true for s in STATEMENTS if s.family == family) or \
            any(not t for f, _, t, _ in TYPED if f == family), family


def test_every_false_statement_names_a_witness_in_its_domain():
    for s in STATEMENTS:
        if not s.true:
            assert s.witness, s.label
            for symbol, value in s.witness:
                assert value in s.hypotheses[symbol], (s.label, symbol, value)


# the monotone-map family takes 10-70 s a statement (a box search over n and x): run with the
# slow tests (CI's step 3), not deselected from the battery
@pytest.mark.parametrize("index", [pytest.param(i, marks=pytest.mark.slow)
                                   if s.family == "maps" else i
                                   for i, s in enumerate(STATEMENTS)], ids=_ids())
def test_statement_of_known_truth(index):
    s = STATEMENTS[index]
    wrong, what = outcome(s)
    assert not wrong, (s.label, "true" if s.true else "false", s.why, what)


def _typed(argv):
    from symdp.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["step", "--json", *argv])
        except SystemExit as exc:
            code = exc.code
    if code == 2:
        return None, err.getvalue().strip()
    return json.loads(out.getvalue()), ""


@pytest.mark.parametrize("index", range(len(TYPED)),
                         ids=[f"{f}-typed-{i}-{'true' if t else 'false'}"
                              for i, (f, _, t, _) in enumerate(TYPED)])
def test_typed_statement_of_known_truth(index):
    family, argv, truth, why = TYPED[index]
    step, refusal = _typed(argv)
    if step is None:   # a clear input error claims nothing
        return
    what = f"{step['label']}: {step['detail']}"
    assert truth or not step["holds_everywhere"], (" ".join(argv), "false", why, what)
    assert not truth or step["verdict"] != "REFUTED", (" ".join(argv), "true", why, what)


# ---------------------------------------------------------------------------------------
# The issue's rows, as a user types them, and the answer each must give (truth: the rows'
# own witnesses, checked in exact arithmetic in soundness_holes.py and here).
# ---------------------------------------------------------------------------------------

ROWS = [
    # Max(x, x + u) <= x with u = (x-1/3)(2/3-x)/10^50: false on (1/3, 2/3) -> REFUTED there
    (["--assume", "0<=x<=1", "--", "Max(x, x + (x-1/3)*(2/3-x)/10^50)", "<=", "x"],
     "REFUTED", "x", (1 / 3, 2 / 3)),
    # k = C(n-5, 3) = 1 at n = 8: 8e + 1 > 17 at x = 1 -> REFUTED at n = 8, x = 1
    (["--integer", "n", "--assume", "8<=n<=15", "--assume", "0<=x<=1", "--",
      "(n*exp(x)+1)^binomial(n-5,3)", "<=", "(n+n*x+1)^binomial(n-5,3)"], "REFUTED", None, None),
    # n^2 >= 9 on {n >= -10, n^2 >= 9}: the hypothesis -> never REFUTED
    (["--integer", "n", "--assume", "n>=-10", "--assume", "n^2>=9", "--", "n^2", ">=", "9"],
     "not REFUTED", None, None),
    # Phi(PhiInv(x)) = x on [0, 2]: undefined on (1, 2] -> UNDECIDED naming the point
    (["--latex", "--assume", "0 <= x <= 2", "--", r"\Phi(\Phi^{-1}(x))", "=", "x"],
     "UNDECIDED", "undefined at x", None),
    # x factorial(x - 1) = factorial(x) on [0, 2]: undefined at x = 0
    (["--assume", "0<=x<=2", "--", "x*factorial(x-1)", "=", "factorial(x)"],
     "UNDECIDED", "undefined at x = 0", None),
]


@pytest.mark.parametrize("argv, want, detail, interval", ROWS, ids=[" ".join(r[0][-3:]) for r in ROWS])
def test_the_issue_rows_give_the_right_answer(argv, want, detail, interval):
    from fractions import Fraction

    step, refusal = _typed(argv)
    assert step is not None, refusal
    if want == "not REFUTED":
        assert step["verdict"] != "REFUTED", step["detail"]
        return
    assert step["verdict"] == want, step["detail"]
    if want == "REFUTED":
        cx = step["counterexample"]["point"]
        if interval is not None:   # a point strictly inside the piece where the branch fails
            assert interval[0] < Fraction(cx[detail]) < interval[1], cx
        else:                      # n = 8, x = 1 (or another point where k = C(n-5,3) >= 1)
            assert int(cx["n"]) >= 8
    else:
        assert detail in step["detail"], step["detail"]
