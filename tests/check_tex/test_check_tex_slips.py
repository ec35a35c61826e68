r"""Slips injected into the example and test documents never get a "holds" verdict.

Each read line of the documents gets five kinds of slip, one at a time, in its right side:
a flipped relation (``\le`` becomes ``>``: the strict complement), a sign error (the first
``+`` or ``-`` flipped), a dropped term, a wrong exponent and an off-by-one number.  A slip
counts only when an independent probe -- both sides evaluated with mpmath at random points
of the hypotheses, not the check cascade -- finds a point where the slipped line is false
(a slip that happens to leave the line true is no slip).  Every counted slip must be
REFUTED or, at worst, evidence at points: never a verdict that holds everywhere.  For a
sample of slips the whole slipped document is checked again: every line that does not
depend on the slip keeps its verdict.

One test per slip (issue #30: the slips run in parallel under pytest-xdist), in the ``slow``
set (about 10 minutes of CPU in all; CI's later step runs it).  A candidate whose slipped line
the probe finds true at every probed point is no slip: its test is skipped, saying so.  What
the cascade makes of all the slips is asserted once every slip's test has run, by
``tests/check_tex/conftest.py`` (at least 200 slips of the five kinds, at least 90 % REFUTED
outright, some whole documents compared), which fails the run when it does not hold.

Runtime: only the slipped line's steps are checked (``lines=``, ``only_lines=True``: not the
rest of its chain, whose steps the slip does not touch and which took most of the time), without
the certified stage, at 6 points; the unmutated verdicts of a document are computed once per
process, for the slips that compare the whole document.
"""

import functools
import random
import re
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symdp.parsing.document import read_tex
from symdp.report.tex_check import check_document, domains_of
from symdp.tradeoff.base import TradeOffAt

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted((ROOT / "docs" / "examples").glob("*.tex")) + \
    sorted((Path(__file__).parent / "fixtures").glob("*.tex"))
OPTIONS = {"certify": False, "points": 6, "symbolic_work": 20_000, "dps": (20, 40)}
COMPLEMENT = {r"\le": ">", r"\leq": ">", r"\ge": "<", r"\geq": "<", "<": r"\ge", ">": r"\le",
              "=": "<"}
_RELATION = re.compile(r"\\leq?(?![a-z])|\\geq?(?![a-z])|<|>|=")


def _last_relation(raw: str):
    """The last relation at brace depth 0 of a row's source text: a match or None."""
    depth, found = 0, None
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            m = _RELATION.match(raw, i)
            if m and not raw[max(0, i - 1)] == "\\":
                found = m
    return found


def _right_side_end(raw: str, start: int) -> int:
    """Where the right side ends: before a comment, a \\text annotation or a \\label."""
    ends = [len(raw)]
    for pattern in (r"%", r"\\q?quad", r"\\text", r"\\label", r"\\nonumber", r"\\notag"):
        m = re.compile(pattern).search(raw, start)
        if m:
            ends.append(m.start())
    return min(ends)


def _term_end(text: str, i: int) -> int:
    depth = 0
    for j in range(i, len(text)):
        ch = text[j]
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            if depth == 0:
                return j
            depth -= 1
        elif ch in "+-" and depth == 0 and j > i:
            return j
    return len(text)


def slips(raw: str):
    """(kind, slipped row text) pairs for one row's source text."""
    first = _RELATION.search(raw)
    if first is None:
        return []
    annotation = _right_side_end(raw, first.end())
    relation = _last_relation(raw[:annotation])
    if relation is None:
        return []
    start = relation.end()
    end = len(raw[:annotation].rstrip(" .,;\n\t"))
    rhs = raw[start:end]
    out = []
    word = relation.group(0)
    out.append(("flipped relation", raw[:relation.start()] + COMPLEMENT[word] + " " + raw[start:]))
    signs = list(re.finditer(r"(?<![\^{])[+-]", rhs))
    for sign in signs[:3]:
        flipped = "-" if sign.group(0) == "+" else "+"
        out.append(("sign error", raw[:start] + rhs[:sign.start()] + flipped
                    + rhs[sign.end():] + raw[end:]))
    term = re.search(r"(?<![\^{(])\s[+-]\s", rhs)
    if term:
        stop = _term_end(rhs, term.end())
        out.append(("dropped term", raw[:start] + rhs[:term.start()] + " " + rhs[stop:]
                    + raw[end:]))
    power = re.search(r"\^\{([^{}]*)\}|\^([0-9A-Za-z])", rhs)
    if power:
        exponent = power.group(1) or power.group(2)
        out.append(("wrong exponent", raw[:start] + rhs[:power.start()] + "^{(" + exponent
                    + ") + 1}" + rhs[power.end():] + raw[end:]))
    out.append(("wrong exponent", raw[:start] + r" \left(" + rhs + r"\right)^{2} " + raw[end:]))
    for number in list(re.finditer(r"(?<![\^_{\\a-z])\b([0-9])\b", rhs))[:2]:
        bumped = str(int(number.group(1)) + 1)
        out.append(("off-by-one", raw[:start] + rhs[:number.start()] + bumped
                    + rhs[number.end():] + raw[end:]))
    for name in list(re.finditer(r"(?<![\\A-Za-z_^])([nkmNp])(?![A-Za-z])", rhs))[:2]:
        out.append(("off-by-one", raw[:start] + rhs[:name.start()] + "(" + name.group(1)
                    + " + 1)" + rhs[name.end():] + raw[end:]))
    return out


def _probe_false(step, display, rng) -> bool:
    """An independent probe: is the step false at some random point of its hypotheses?
    (mpmath on the parsed sides at 30 digits; the cascade is not used.)"""
    symbols = step.lhs.free_symbols | step.rhs.free_symbols
    try:
        domains, constraints = domains_of([r for _, r in display.hypotheses.relations], symbols,
                                          set(display.hypotheses.integers))
    except Exception:  # noqa: BLE001 - an empty domain: nothing to probe
        return False
    symbols = sorted(domains, key=lambda s: s.name)
    relation = {"=": lambda u, v: abs(u - v) <= 1e-20 * (1 + abs(u) + abs(v)),
                "<=": lambda u, v: u <= v + 1e-20, "<": lambda u, v: u < v,
                ">=": lambda u, v: u >= v - 1e-20, ">": lambda u, v: u > v}[step.relation]
    lhs, rhs = step.lhs.doit(), step.rhs.doit()
    for _ in range(60):
        point = {}
        for s in symbols:
            dom = domains[s]
            if isinstance(dom, sp.FiniteSet):
                point[s] = rng.choice(sorted(dom))
                continue
            lo = dom.inf if dom.inf.is_finite else -5
            hi = dom.sup if dom.sup.is_finite else lo + 10
            if isinstance(dom, sp.Range):
                point[s] = sp.Integer(rng.randint(int(lo), int(min(hi, lo + 12))))
            else:
                point[s] = sp.Rational(rng.randint(0, 1000), 1000) * (hi - lo) + lo
            if point[s] not in dom:
                break
        else:
            if not all(bool(c.xreplace(point)) for c in constraints):
                continue
            with mpmath.workdps(30):
                try:
                    u = sp.N(lhs.xreplace(point), 30)
                    v = sp.N(rhs.xreplace(point), 30)
                    if not (u.is_real and v.is_real):
                        continue
                    if not relation(mpmath.mpf(str(u)), mpmath.mpf(str(v))):
                        return True
                except (TypeError, ValueError, ZeroDivisionError):
                    continue
    return False


@functools.lru_cache(maxsize=None)
def original_verdicts(path: Path) -> dict:
    """The unmutated verdicts of a document, by source line (checked once per process)."""
    check = check_document(read_tex(path.read_text(), path.name), **OPTIONS)
    return {row.row.line: [r.verdict for r in row.step_results] for row in check.rows}


def _candidates():
    """Every slip of every read row, as test parameters: (document, row line, kind, index
    among the row's slips, whether the whole document is compared) -- found by parsing and
    editing text only (collection must stay cheap: the probe and the check run in the test)."""
    out, n = [], 0
    for path in DOCUMENTS:
        text = path.read_text()
        for display in read_tex(text, path.name).displays:
            for row in display.rows:
                if not row.read or any(s.expect for s in row.steps) or \
                        any(s.lhs.has(TradeOffAt) or s.rhs.has(TradeOffAt) for s in row.steps):
                    continue  # findings, and the trade-off objects' lines (slow to check)
                for k, (kind, _) in enumerate(slips(text[row.start:row.end])):
                    out.append(pytest.param(path, row.line, kind, k, n % 40 == 0,
                                            id=f"{path.stem}:{row.line}:{k}:{kind}"))
                    n += 1
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path, line, kind, k, whole_document", _candidates())
def test_an_injected_slip_never_holds(path, line, kind, k, whole_document, slip_tally):
    slip_tally.started()
    text = path.read_text()
    row = next(r for r in read_tex(text, path.name).rows if r.line == line and r.read)
    found, slipped = slips(text[row.start:row.end])[k]
    assert found == kind
    new_text = text[:row.start] + slipped + text[row.end:]
    new_doc = read_tex(new_text, path.name)
    new_rows = [r for r in new_doc.rows if r.line == line and r.read]
    if not new_rows:
        pytest.skip("the slipped line is not read as a line: no slip to check")
    new_row = new_rows[0]
    new_display = next(d for d in new_doc.displays if new_row in d.rows)
    rng = random.Random(f"{path.name}:{line}:{k}")   # a str seed: the same in every process
    if not any(_probe_false(s, new_display, rng) for s in new_row.steps):
        pytest.skip("no slip: the probe finds the slipped line true at every point it tried")
    check = check_document(new_doc, lines={line}, only_lines=True, **OPTIONS)
    results = next(r for r in check.rows if r.row.line == line).step_results
    assert not all(r.holds_everywhere for r in results), \
        f"{path.name}:{line} {kind}: {[r.label for r in results]}"
    compared = 0
    if whole_document:  # the whole slipped document: the other lines keep their verdicts
        whole = check_document(new_doc, **OPTIONS)
        chain = next(r.row.chain for r in whole.rows if r.row.line == line)
        display = next(r.display for r in whole.rows if r.row.line == line)
        for other in whole.rows:
            if other.row.line == line or (other.display is display and
                                          other.row.chain == chain):
                continue
            assert [r.verdict for r in other.step_results] == \
                original_verdicts(path)[other.row.line], (path.name, line, other.row.line)
            compared += 1
    slip_tally.counted(kind, any(r.verdict.value == "REFUTED" for r in results), compared)
