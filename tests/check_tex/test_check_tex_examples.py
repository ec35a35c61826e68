"""The LaTeX examples of both papers (docs/examples/) checked as a user would check them.

What must come out is what the mathematics says, derived independently in the proof files
(proofs/drs_cor_4_3.py and friends): every step of the examples holds (proved, or evidence
at points), except Cor. 4.3 as printed, which is refuted -- on the chord of Eq. 14 the
printed line is lower than x* + f_p(x*) - alpha by p delta (e^eps - 1)/(e^eps + 1), which
is positive when eps, delta, p > 0 (at Figure 6's eps = 3, delta = 1/10, p = 1/5 and
alpha = 1/2: 0.31707 on the chord, 0.29897 printed).
"""

from pathlib import Path

import mpmath
import pytest

from symdp.parsing.document import read_tex
from symdp.report.tex_check import check_document

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
OPTIONS = {"certify": False, "points": 6, "symbolic_work": 40_000}


def checked(name):
    path = EXAMPLES / f"{name}.tex"
    return check_document(read_tex(path.read_text(), str(path)), **OPTIONS)


@pytest.mark.parametrize("name", ["drs_eq14", "drs_thm_4_2_proof", "drs_lemma_4_4",
                                  "bagging_thm2", "bagging_thm3"])
def test_every_line_of_the_example_holds(name):
    check = checked(name)
    assert not check.unread
    results = [r for row in check.rows for r in row.step_results]
    assert results and all(r.verdict.supports for r in results), \
        [(row.row.line, [r.label for r in row.step_results]) for row in check.rows]
    assert check.ok


def test_cor_4_3_as_printed_is_refuted_and_the_finding_reproduces():
    check = checked("drs_cor_4_3")
    assert check.ok  # the refuted lines are expected (% symdp: expect REFUTED)
    by_line = {row.row.line: row.step_results for row in check.rows}
    assert [r.verdict.value for r in by_line[13]] == ["PROVED"]  # the chord, simplified
    (printed,) = by_line[15]
    assert printed.verdict.value == "REFUTED" and printed.is_finding
    (figure6,) = by_line[20]
    assert figure6.verdict.value == "REFUTED"
    cx = figure6.counterexample
    assert cx.point == {"alpha": "1/2", "delta": "1/10", "p": "1/5", "varepsilon": "3"}
    # the two sides from the closed forms, at 30 digits (independent of the cascade)
    with mpmath.workdps(30):
        e, d, q, a = mpmath.e ** 3, mpmath.mpf(1) / 10, mpmath.mpf(1) / 5, mpmath.mpf(1) / 2
        xs = (1 - d) / (1 + e)
        chord = xs + q * xs + (1 - q) * (1 - xs) - a
        line = 1 - q * d - q * (e - 1) / (e + 1) - a
        assert _within(cx.lhs, chord) and _within(cx.rhs, line)  # the max is the printed line
    assert [r.verdict.value for r in by_line[26]] == ["PROVED", "PROVED"]  # the gap >= 0


def _within(shown: str, value, tolerance=1e-20) -> bool:
    """The value a counterexample shows -- a decimal, or an Arb ball ``[mid +/- rad]`` when a
    probe or the search refuted by balls -- holds ``value`` (to ``tolerance``)."""
    text = shown.strip()
    if text.startswith("[") and "+/-" in text:
        mid, rad = text.strip("[]").split("+/-")
        return abs(mpmath.mpf(mid) - value) <= mpmath.mpf(rad) + tolerance
    return abs(mpmath.mpf(text) - value) < tolerance
