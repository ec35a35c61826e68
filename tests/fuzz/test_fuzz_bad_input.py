r"""Fuzz the bad-input promise on the newer surfaces (issue #32): ``check-tex``, the event files
(``account --event``), ``calibrate`` and the Python APIs (``symdp.events``, ``symdp.account``,
the events' JSON, ``from_dp_accounting``, the check-tex API, the ``%%symdp_check`` magic).

One test (or a few) per class of the issue's table, each with the issue's examples and
generated cases (fixed seeds, no shrinking: ``fuzz_harness.FUZZ``):

* **traceback** -- a public API raises ``InvalidParameterError`` with one clear line, or works;
* **exit 3** -- the command exits 0, 1 or 2; 2 with one line on stderr, never a traceback;
* **hang** -- every case runs within a stated time (:data:`INSTANT` for a refusal);
* **silent wrong** -- a hypothesis comment is read or refused naming its line; LF, CRLF, CR
  and a byte-order mark read the same;
* **side effect** -- the annotated copy holds no live TeX outside the allowed lists; compiled
  with ``pdflatex -no-shell-escape`` it changes no file outside its directory; an output is
  written only when the run succeeds, never over an input;
* **unhelpful message** -- the message names the parameter or the limit, in its words, never
  a NumPy or builtin message.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz_harness import FUZZ, check_outcome, count, files_in, run_cli, scratch, time_limit

import symdp
from symdp.core.errors import InvalidParameterError
from symdp.core.symbols import alpha
from symdp.parsing.document import TexDocument
from symdp.events import (Composed, EpsDelta, Gaussian, Laplace, PoissonSampled, RandomizedResponse,
                          SampledWithReplacement, SampledWithoutReplacement, SelfComposed,
                          TradeOffFunction, from_json, from_json_text, to_json)

ROOT = Path(__file__).resolve().parents[2]
#: the stated time of a case refused before any work (seconds, on a shared machine)
INSTANT = 30
#: the stated time of a case that computes a small certified bracket (precision 0)
SMALL = 120
#: phrases of Python's, NumPy's or the system's own messages: never what symdp says
BUILTIN = ("zero-size array", "min() arg", "max() arg", "unhashable type", "is not iterable",
           "has no attribute", "NoneType", "object of type", "invalid literal",
           "could not convert", "index out of range", "maximum recursion", "[Errno",
           "Traceback", "positional argument", "unexpected keyword")


def clear(message: str) -> str:
    """The message of a refusal: one non-empty line, not Python's or NumPy's words."""
    assert message and "\n" not in message, message
    assert not any(phrase in message for phrase in BUILTIN), message
    return message


def api(call, seconds=INSTANT):
    """``call()`` within ``seconds``: its value, or the ``InvalidParameterError`` it raised
    (any other exception, or running past the time, fails the case)."""
    start = time.perf_counter()
    try:
        with time_limit(seconds):
            try:
                return call()
            except InvalidParameterError as error:
                clear(str(error))
                return error
    except KeyboardInterrupt:
        pytest.fail(f"a case ran past {seconds} s")
    finally:
        assert time.perf_counter() - start < seconds + 1


def cli(argv, cwd, names=(), *, seconds=INSTANT, stdin: bytes | None = None):
    """``symdp argv`` within ``seconds``: exit 0, 1 or 2; 2 with one line naming one of
    ``names`` (or the limit); returns (code, stdout, stderr)."""
    start = time.perf_counter()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        rc, out, err = run_cli(argv, cwd)
    finally:
        sys.stdin = saved
    assert time.perf_counter() - start < seconds, (argv[:4], time.perf_counter() - start)
    if names:
        check_outcome(rc, out, err, names)
    else:
        assert rc in (0, 1, 2) and "Traceback" not in err and "internal error" not in err, err
        if rc == 2:
            assert err.startswith("symdp: error:") and err.count("\n") == 1, err
    if rc == 2:
        clear(err.strip())
    return rc, out, err


# --------------------------------------------------------------------------- hostile values

HOSTILE = [None, "", " ", "abc", "nan", "inf", "-inf", "1e999", "-1e999", "1e-999", float("nan"),
           float("inf"), -1, 0, 1, 2, "0.5", "1/3", "1/0", True, False, [], [1], {}, {"a": 1},
           (1, 2), 1 + 2j, "1" * 2000, 10 ** 400, Fraction(1, 3), b"1", object(), "__import__('os')"]
values = st.one_of(st.sampled_from(HOSTILE), st.integers(-10 ** 6, 10 ** 6),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                   st.fractions(max_denominator=100))
EVENTS = [Gaussian(1), Laplace(2), EpsDelta(1, "1e-6"), RandomizedResponse("0.5"),
          PoissonSampled(Gaussian(1), "0.01")]
arguments = st.one_of(values, st.sampled_from(EVENTS), st.lists(st.sampled_from(EVENTS), max_size=3))
CLASSES = [Gaussian, Laplace, EpsDelta, RandomizedResponse, TradeOffFunction, PoissonSampled,
           SampledWithoutReplacement, SampledWithReplacement, SelfComposed, Composed]
KEYS = ["kind", "sigma", "b", "eps", "delta", "q", "p", "n", "m", "k", "count", "event", "events",
        "noise_parameter", "num_buckets", "eps0", "formula", "zz"]


# --------------------------------------------------------------------------- class: traceback

TABLE_TRACEBACKS = [
    (lambda: EpsDelta(1), "EpsDelta needs delta; it takes (eps, delta)"),
    (lambda: Composed(None), "events must be a non-empty sequence"),
    (lambda: from_json({"kind": ["gaussian"], "sigma": 1}), "event.kind must be one of"),
    (lambda: from_json({"kind": {"a": 1}}), "event.kind must be one of"),
    (lambda: symdp.account(Gaussian("1e999"), delta="1e-5"), "sigma must be at most 1e300"),
    (lambda: _check_document("text"), "document must be a TexDocument"),
]


def _check_document(document, **options):
    from symdp.report.tex_check import check_document
    return check_document(document, **options)


@pytest.mark.parametrize("case", range(len(TABLE_TRACEBACKS)))
def test_the_table_tracebacks_are_clear_errors(case):
    count("traceback: the table")
    call, message = TABLE_TRACEBACKS[case]
    error = api(call)
    assert isinstance(error, InvalidParameterError) and message in str(error), error


@settings(FUZZ, max_examples=150)
@given(cls=st.sampled_from(CLASSES), args=st.lists(arguments, max_size=4),
       kwargs=st.dictionaries(st.sampled_from(KEYS + ["expr", "text"]), arguments, max_size=3))
def test_event_constructors_validate_every_argument(cls, args, kwargs):
    count("traceback: event constructors")
    api(lambda: cls(*args, **kwargs))


json_values = st.recursive(
    st.one_of(st.sampled_from(HOSTILE[:20]), st.integers(-5, 10 ** 6), st.text(max_size=5),
              st.sampled_from(["gaussian", "composed", "self_composed", "poisson_sampled",
                               "sampled_with_replacement", "eps_delta", "tradeoff"])),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.sampled_from(KEYS), children, max_size=4)),
    max_leaves=12)


@settings(FUZZ, max_examples=150)
@given(data=json_values)
def test_event_json_is_read_or_refused_by_name(data):
    count("traceback: event JSON")
    from symdp.parsing import parse_formula

    result = api(lambda: from_json(data, parse_formula=parse_formula))
    if not isinstance(result, InvalidParameterError):
        assert from_json(to_json(result), parse_formula=parse_formula) == result


@pytest.mark.parametrize("depth", [3000, 5000])
def test_deep_event_trees_are_refused_by_the_depth_limit(depth):
    """An event tree 3,000-5,000 deep (the issue's RecursionError): refused at 64 levels,
    built in Python, as JSON text, as a dp_accounting DpEvent."""
    count("traceback: deep trees")

    def build(make):
        e = Gaussian(1)
        for _ in range(depth):
            e = make(e)
        return e

    for make in (lambda e: SelfComposed(e, 2), lambda e: Composed([e, Gaussian(2)]),
                 lambda e: PoissonSampled(e, "0.5")):
        assert "at most 64 deep" in str(api(lambda: build(make)))
    text = '{"kind": "self_composed", "count": 1, "event": ' * depth + \
        '{"kind": "gaussian", "sigma": 1}' + "}" * depth
    assert "64 deep" in str(api(lambda: from_json_text(text)))
    assert "64 deep" in str(api(lambda: from_json_text("[" * 100_000 + "]" * 100_000)))
    dp_event = pytest.importorskip("dp_accounting").dp_event
    d = dp_event.GaussianDpEvent(1.0)
    for _ in range(depth):
        d = dp_event.SelfComposedDpEvent(d, 2)
    from symdp.events import from_dp_accounting
    assert "64 deep" in str(api(lambda: from_dp_accounting(d)))


def test_shared_subtrees_are_not_re_expanded():
    """``Composed((s, s))`` nested: each level doubles the written-out tree.  Within the limit
    the accountant flattens each shared event once (one phase, counts multiplied); past it
    the tree is refused at construction, by name, at once."""
    count("hang: shared subtrees")
    from symdp.accountant.events import phases_of

    step = PoissonSampled(Gaussian(1), "0.01")
    s = step
    for level in range(14):
        s = Composed((s, s))
    (phase,) = api(lambda: phases_of(s))
    assert phase.steps == 2 ** 14
    error = api(lambda: Composed((Composed((s, s)), Composed((s, s)))))
    assert "at most 100000 events" in str(error)


def test_identical_components_are_a_self_composition():
    """A composition of 100 and 5,000 identical events (the issue's hang) is one phase: its
    certified bracket is that of SelfComposed (the same composition, another route)."""
    count("hang: identical components")
    from symdp.accountant.events import phases_of

    step = PoissonSampled(Gaussian(1), "0.01")
    for n in (100, 5000):
        assert [p.steps for p in api(lambda: phases_of(Composed([step] * n)))] == [n]
    start = time.perf_counter()
    a = api(lambda: symdp.account(Composed([step] * 100), delta="1e-5", precision=0), SMALL)
    b = api(lambda: symdp.account(SelfComposed(step, 100), delta="1e-5", precision=0), SMALL)
    assert (a.lo, a.hi) == (b.lo, b.hi) and a.lo <= a.hi
    assert time.perf_counter() - start < SMALL


@settings(FUZZ, max_examples=60)
@given(event=st.one_of(st.sampled_from([EpsDelta(0, 0), EpsDelta(0, "0.1"), RandomizedResponse(1),
                                        RandomizedResponse.binary(0), Gaussian("1e999"),
                                        Gaussian("0.1"), Laplace(1000), TradeOffFunction(
                                            sp.Max(0, 1 - 2 * alpha)),
                                        PoissonSampled(RandomizedResponse(1), "0.1"),
                                        SampledWithReplacement(Gaussian(1), 1000, 1000),
                                        SampledWithReplacement(Gaussian(1), 10 ** 5, 10 ** 5),
                                        SampledWithReplacement(Gaussian(1), 100, 64),
                                        SelfComposed(Gaussian(1), 10 ** 8)]), values),
       delta=st.one_of(st.none(), values), eps=st.one_of(st.none(), values),
       precision=st.one_of(st.just(0), values))
def test_account_refuses_at_once_or_answers(event, delta, eps, precision):
    """symdp.account with hostile events and arguments: a clear refusal before any work
    (the events above are each over a limit or degenerate), never a NumPy message."""
    count("traceback: symdp.account")
    result = api(lambda: symdp.account(event, delta=delta, eps=eps, precision=precision))
    assert isinstance(result, InvalidParameterError), result


@st.composite
def dp_events(draw, depth=0):
    """dp_accounting DpEvents with hostile parameters (dp_accounting checks none of them)."""
    d = pytest.importorskip("dp_accounting").dp_event
    leaf = st.one_of(st.builds(d.GaussianDpEvent, values), st.builds(d.LaplaceDpEvent, values),
                     st.builds(d.RandomizedResponseDpEvent, values, values),
                     st.just(d.NoOpDpEvent()), st.just(d.NonPrivateDpEvent()), values)
    if depth >= 2:
        return draw(leaf)
    inner = dp_events(depth + 1)
    return draw(st.one_of(leaf, st.builds(d.PoissonSampledDpEvent, values, inner),
                          st.builds(d.SelfComposedDpEvent, inner, values),
                          st.builds(d.ComposedDpEvent, st.one_of(values, st.lists(inner, max_size=3))),
                          st.builds(d.SampledWithReplacementDpEvent, values, values, inner)))


@settings(FUZZ, max_examples=80)
@given(event=dp_events())
def test_dp_accounting_events_are_converted_or_refused_by_name(event):
    count("traceback: DpEvents")
    from symdp.events import from_dp_accounting

    api(lambda: from_dp_accounting(event))


@settings(FUZZ, max_examples=40)
@given(document=st.one_of(values, st.just("\\[ x \\ge 0 \\]")),
       dps=st.one_of(st.just((30, 60)), values), certify=st.one_of(st.just(False), values),
       points=st.one_of(st.none(), st.just(3), values), lines=st.one_of(st.none(), values))
def test_the_check_tex_api_validates_its_arguments(document, dps, certify, points, lines):
    count("traceback: check-tex API")
    from symdp.parsing.document import read_tex
    from symdp.report.notebook import check_cell

    if isinstance(document, str):
        api(lambda: read_tex(document, "doc.tex", assume=dps, integers=lines))
        api(lambda: check_cell("", document, certify=certify, points=points, dps=(30, 60)),
            SMALL)
        document = read_tex(document)
    result = api(lambda: _check_document(document, dps=dps, certify=certify, points=points,
                                         lines=lines), SMALL)
    if not isinstance(result, InvalidParameterError):
        assert isinstance(document, TexDocument)


def test_the_magic_prints_one_line(capsys):
    count("traceback: check-tex API")
    from symdp.report.notebook import load_ipython_extension

    magics = {}

    class Shell:
        def register_magic_function(self, function, magic_kind, magic_name):
            magics[magic_name] = function

    load_ipython_extension(Shell())
    assert magics["symdp_check"]("suppose p >= 0\nx", "x &= 1") is None
    err = capsys.readouterr().err
    assert err.startswith("symdp: error: line") and err.count("\n") == 1, err


# --------------------------------------------------------------------------- class: exit 3

def _fifo(cwd: Path) -> str:
    path = cwd / "fifo"
    os.mkfifo(path)
    return str(path)


SPECIAL_PATHS = ["/dev/zero", "/dev/urandom", "/proc/self/mem", "/proc/self/environ", "/etc", "",
                 "a" * 300 + ".json", "missing.json", "dir/", "link-to-zero", "fifo"]


@pytest.mark.parametrize("path", SPECIAL_PATHS)
def test_input_files_are_regular_files_of_bounded_size(path):
    """``--event`` and ``check-tex`` read regular files only, size-capped before reading: a
    FIFO with no writer, /dev/zero, /proc entries, a directory, a 300-character name are
    refused by name at once (the issue's MemoryError, OSError and hang)."""
    count("exit 3: input files")
    with scratch() as cwd:
        (cwd / "dir").mkdir()
        (cwd / "link-to-zero").symlink_to("/dev/zero")
        if path == "fifo":
            path = _fifo(cwd)
        rc, _, err = cli(["account", "--event", path, "--delta", "1e-5"], cwd, ["--event"])
        assert rc == 2
        rc, _, err = cli(["check-tex", path], cwd, ["FILE.tex"])
        assert rc == 2
        rc, _, err = cli(["account", "--schedule", path, "--delta", "1e-5"], cwd, ["--schedule"])
        assert rc == 2
        assert files_in(cwd) <= {"dir", "link-to-zero", "fifo"}


def test_large_files_and_standard_input_are_capped():
    count("exit 3: input files")
    with scratch() as cwd:
        (cwd / "big.json").write_text(" " * (1 << 20) + "{}")
        rc, _, err = cli(["account", "--event", "big.json", "--delta", "1e-5"], cwd, ["--event"])
        assert "limit of 1048576" in err
        rc, _, err = cli(["account", "--event", "-", "--delta", "1e-5"], cwd, ["--event"],
                         stdin=b" " * (2 << 20))
        assert rc == 2 and "standard input" in err
        (cwd / "big.tex").write_text("%" * 2_000_001)
        rc, _, err = cli(["check-tex", "big.tex"], cwd, ["FILE.tex"])
        assert "limit of 2000000" in err


event_texts = st.one_of(json_values.map(json.dumps), st.text(max_size=40),
                        st.sampled_from(['{"kind": ["gaussian"]}', '{"kind": "gaussian", "sigma": "1e999"}',
                                         '{"kind": "gaussian", "sigma": 1e999}', "[" * 5000,
                                         '{"kind": "composed", "events": []}', "\ufeff{}", "null"]))


@settings(FUZZ, max_examples=40)
@given(text=event_texts)
def test_event_files_exit_0_1_or_2(text):
    count("exit 3: --event files")
    with scratch() as cwd:
        (cwd / "e.json").write_text(text)
        rc, out, err = cli(["account", "--event", "e.json", "--delta", "1e-5", "--precision", "0"],
                           cwd, seconds=SMALL)
        assert files_in(cwd) == {"e.json"}


def test_calibrate_at_ten_million_steps_names_the_fft_limit():
    """The issue's MemoryError (2 GiB) at T = 10^7, q = 0.5: refused before any array."""
    count("exit 3: the table")
    with scratch() as cwd:
        rc, _, err = cli(["calibrate", "--target-eps", "2", "--delta", "1e-5", "--q", "0.5",
                          "--steps", "10000000"], cwd, seconds=30)
    assert rc == 2 and "limit of 2^24" in err, err


# --------------------------------------------------------------------------- class: hang

@pytest.mark.parametrize("n,k,sigma", [(100, 64, 1), (1000, 1000, 1), (10 ** 4, 10 ** 4, 1),
                                       (10 ** 5, 10 ** 5, 1), (2, 10 ** 6, 10), (10, 10 ** 7, 10),
                                       (10 ** 13, 10, 10)])
def test_bootstrap_beyond_its_limits_is_refused_at_once(n, k, sigma):
    """Sampling with replacement, the issue's k = 64 and n = k = 1000, 10^4, 10^5: beyond the
    stated limits (the farthest group pair j/sigma <= 10, k <= 10^6, n <= 10^12) a refusal
    naming the limit, at once (they ran for minutes or never finished)."""
    count("hang: bootstrap")
    event = {"kind": "sampled_with_replacement", "n": n, "k": k,
             "event": {"kind": "gaussian", "sigma": sigma}}
    with scratch() as cwd:
        (cwd / "e.json").write_text(json.dumps(event))
        rc, _, err = cli(["account", "--event", "e.json", "--delta", "1e-5"], cwd, ["k", "n"])
    assert rc == 2 and "the limit on work" in err, err


def test_check_tex_rows_and_exponents_are_bounded():
    """20,000 rows (hours of checking) and x^{10^{100}} (never finishes): refused by their
    limits, at once."""
    count("hang: check-tex")
    with scratch() as cwd:
        rows = "\\\\\n".join(f"x_{{{i}}} &\\ge 0" for i in range(20_000))
        (cwd / "rows.tex").write_text("\\begin{align*}\n" + rows + "\n\\end{align*}\n")
        rc, _, err = cli(["check-tex", "rows.tex"], cwd, ["rows"])
        assert rc == 2 and "2000 display rows" in err
        (cwd / "power.tex").write_text("\\begin{align*}\nx^{10^{100}} &\\ge 0 \\\\\n"
                                       "2^{10^{100} x} &\\ge 0\n\\end{align*}\n")
        rc, out, _ = cli(["check-tex", "power.tex", "--no-certify"], cwd)
        assert rc == 1 and out.count("exponent too large") >= 2 and "limit is 10000" in out


# --------------------------------------------------------------------------- class: silent wrong

DOCUMENT = "%s\n\\begin{align*}\np^2 &\\le p\n\\end{align*}\n"
SPACES = [" ", "  ", "\t", "\u00a0", ""]


@st.composite
def directives(draw):
    """``% symdp: assume 0 <= p <= 1`` spelled as authors and typos spell it."""
    percent = draw(st.sampled_from(["%", "%%", "% ", "%\t", "%\u00a0"]))
    word = draw(st.sampled_from(["symdp", "Symdp", "SYMDP", "sYmDp", "sympd", "symdb", "smydp",
                                 "symd", "symdpp", "symdp file", "symdp  FILE"]))
    colon = draw(st.sampled_from([":", " :", "", "\t:", ": ", ":\u00a0", ":\t"]))
    verb = draw(st.sampled_from(["assume", "Assume", "ASSUME", "assumes", "assuming", "suppose",
                                 "where", "given", "with", "", "Let's assume", "assume:"]))
    gap = draw(st.sampled_from(SPACES[:-1]))
    relation = draw(st.sampled_from(["0 <= p <= 1", "0 \\le p \\le 1", "p \\in [0, 1]", "p<=1, p>=0"]))
    return f"{percent}{word}{colon}{verb}{gap if verb else ''}{relation}"


@settings(FUZZ, max_examples=200)
@given(directive=directives())
def test_a_hypothesis_comment_is_read_or_refused_naming_its_line(directive):
    """The issue's silent drops (``% symdp: assumes``, ``% Symdp:``, a tab or a no-break space
    after the colon, ``suppose``, ``where``): the hypothesis is applied to the display, or the
    display is refused with a problem at the comment's line -- never dropped in silence (the
    step p^2 <= p is refuted at p = 2, which the hypothesis excludes)."""
    count("silent wrong: directives")
    from symdp.parsing.document import read_tex

    (display,) = api(lambda: read_tex(DOCUMENT % directive, "doc.tex")).displays
    relations = [str(r) for _, r in display.hypotheses.relations]
    applied = any("p" in r for r in relations)
    refused = display.hypothesis_problem is not None and display.hypothesis_problem.line == 1
    looks_like_one = re.match(r"%+\s*s\w*", directive.replace("\u00a0", " "))
    assert applied or refused or not looks_like_one, (directive, relations)
    assert not (applied and refused)
    if refused:
        clear(display.hypothesis_problem.message)
        assert all(row.problem is not None and not row.steps for row in display.rows)


CORPUS = sorted((ROOT / "tests" / "check_tex" / "fixtures").glob("*.tex")) + \
    sorted((ROOT / "docs" / "examples").glob("*.tex"))


def _read(text):
    from symdp.parsing.document import read_tex

    document = read_tex(text, "doc.tex")
    return [(d.environment, d.line, d.hypotheses.relations, d.hypotheses.integers,
             d.hypothesis_problem,
             [(r.line, r.last_line, r.steps, r.problem, r.skipped, r.numbered) for r in d.rows])
            for d in document.displays], [(n.line, n.message) for n in document.notes]


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_line_endings_and_a_byte_order_mark_never_change_what_is_read(path):
    """The check-tex corpus (fixtures and docs/examples) read with LF, CRLF, CR and a BOM:
    the same displays, rows, steps, problems and notes, at the same lines."""
    count("silent wrong: line endings")
    text = path.read_text()
    reference = _read(text)
    for variant in (text.replace("\n", "\r\n"), "\ufeff" + text.replace("\n", "\r\n"),
                    text.replace("\n", "\r"), "\ufeff" + text):
        assert _read(variant) == reference


def test_line_endings_never_change_a_verdict():
    """The whole check (reading, checking, the table's marks) in the four forms."""
    count("silent wrong: line endings")
    from symdp.parsing.document import read_tex
    from symdp.report.tex_check import row_mark

    text = ("% symdp: assume 0 <= p <= 1\n\\begin{align*}\np^2 &\\le p \\\\\n  &\\le 1 \\\\\n"
            "  &\\le 0\n\\end{align*}\n")
    marks = []
    for variant in (text, text.replace("\n", "\r\n"), "\ufeff" + text.replace("\n", "\r\n"),
                    text.replace("\n", "\r")):
        check = api(lambda: _check_document(read_tex(variant, "doc.tex"), certify=False,
                                            points=4), SMALL)
        marks.append([(r.row.line, row_mark(r)) for r in check.rows])
    assert marks[0][-1] == (5, "refuted") and all(m == marks[0] for m in marks)


# --------------------------------------------------------------------------- class: side effect

#: TeX that reads or writes files or runs commands, as the issue's table spells it
DANGEROUS = [r"\input{SENTINEL/in}", r"\@input{SENTINEL/in}", r"\@@input SENTINEL/in ",
             r"\include{SENTINEL/in}", r"\InputIfFileExists{SENTINEL/in}{}{}",
             "\\begin{filecontents*}[overwrite]{SENTINEL/written.tex}\nowned\n\\end{filecontents*}",
             "\\begin{filecontents}{SENTINEL/written2.tex}\nowned\n\\end{filecontents}",
             r"\immediate\openout5=SENTINEL/openout.tex \immediate\write5{owned}\immediate\closeout5",
             r"\immediate\write18{touch SENTINEL/shell}", r"\ShellEscape{touch SENTINEL/shell2}",
             r"\lstinputlisting{SENTINEL/in}", r"\verbatiminput{SENTINEL/in}",
             r"\catcode`\^=7 \csname input\endcsname{SENTINEL/in}", r"\makeatletter\@@input SENTINEL/in ",
             r"\openin1=SENTINEL/in \read1 to \x", r"\special{SENTINEL}", r"\pdfximage{SENTINEL/in}"]


def _hat_encode(draw, text: str) -> str:
    """``text`` with some characters in TeX's ``^^xx`` notation (``^^5c`` is a backslash)."""
    out = []
    for c in text:
        if c.isprintable() and draw(st.booleans()) and draw(st.booleans()):
            out.append(f"^^{ord(c):02x}")
        else:
            out.append(c)
    return "".join(out)


@st.composite
def hostile_documents(draw):
    pieces = draw(st.lists(st.sampled_from(DANGEROUS), min_size=1, max_size=4))
    pieces = [_hat_encode(draw, p) if draw(st.booleans()) else p for p in pieces]
    preamble = draw(st.sampled_from(["", "\\usepackage{shellesc}\n", "\\usepackage{amsmath,listings}\n"]))
    body = "\n".join(pieces)
    where = draw(st.sampled_from(["preamble", "body", "display"]))
    display = "\\begin{align*}\nx &\\le x + 1\n\\end{align*}\n"
    if where == "preamble":
        return "\\documentclass{article}\n" + preamble + body + "\n\\begin{document}\n" + display + \
            "\\end{document}\n"
    if where == "display":
        display = display.replace("x + 1", "x + 1 " + body.replace("\n", " "))
    return "\\documentclass{article}\n" + preamble + "\\begin{document}\n" + body + "\n" + \
        display + "\\end{document}\n"


def live_tex(copy: str) -> list[str]:
    """What TeX could run in ``copy`` outside the lists (an independent tokenizer): control
    words neither allowed nor renamed, ``^^``, control characters, other environments and
    packages."""
    from symdp.report.tex_safe import (ALLOWED_CLASSES, ALLOWED_COMMANDS, ALLOWED_ENVIRONMENTS,
                                       ALLOWED_PACKAGES)

    found = []
    if "^^" in copy:
        found.append("^^")
    found += [f"U+{ord(c):04X}" for c in copy if ord(c) < 32 and c not in "\n\t"]
    own = {"providecommand", "renewcommand", "AtBeginDocument", "symdpdenied", "mbox", "def"}
    for m in re.finditer(r"\\([A-Za-z@]+)", copy):
        name = m.group(1)
        if name not in ALLOWED_COMMANDS and name not in own and not name.startswith("symdpU") \
                and not name.startswith("endsymdpU"):
            found.append("\\" + name)
    for m in re.finditer(r"\\(?:begin|end)\s*\{([^}]*)\}", copy):
        if m.group(1) not in ALLOWED_ENVIRONMENTS and not m.group(1).startswith("symdpU"):
            found.append(m.group(1))
    for m in re.finditer(r"\\usepackage(\[[^\]]*\])?\{([^}]*)\}", copy):
        found += [p for p in m.group(2).split(",") if p.strip() not in ALLOWED_PACKAGES]
    for m in re.finditer(r"\\documentclass(\[[^\]]*\])?\{([^}]*)\}", copy):
        if m.group(2) not in ALLOWED_CLASSES:
            found.append(m.group(2))
    return found


@settings(FUZZ, max_examples=40)
@given(document=hostile_documents())
def test_the_annotated_copy_holds_no_live_tex(document):
    count("side effect: annotated copies")
    with scratch() as cwd:
        (cwd / "doc.tex").write_text(document.replace("SENTINEL", str(cwd / "outside")))
        rc, _, err = cli(["check-tex", "doc.tex", "--no-certify", "--annotate", "copy.tex"], cwd,
                         seconds=SMALL)
        assert rc in (0, 1), err
        copy = (cwd / "copy.tex").read_text()
        assert live_tex(copy) == [], live_tex(copy)
        assert files_in(cwd) == {"doc.tex", "copy.tex"}


needs_tex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                               reason="pdflatex is not installed (CI's step 2 installs TeX Live)")


@needs_tex
def test_report_annotated_copy_compiled_changes_no_file_outside(tmp_path):
    """(Named ``report`` so that CI's step 2, which installs TeX Live, runs it: ``-k report``.)
    Every dangerous construct of the table at once, plain and ^^-encoded: the copy,
    compiled with ``pdflatex -no-shell-escape`` in a directory of its own, reads no file
    outside it (the sentinel's content does not appear) and writes none."""
    count("side effect: pdflatex")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "in.tex").write_text("SECRET-CONTENT-1234\n")
    (outside / "in").write_text("SECRET-CONTENT-1234\n")
    before = {p: p.stat().st_mtime_ns for p in outside.iterdir()}
    plain = "\n".join(DANGEROUS).replace("SENTINEL", str(outside))
    encoded = "".join(f"^^{ord(c):02x}" if c in "\\{}" else c for c in plain)
    for n, body in enumerate((plain, encoded)):
        work = tmp_path / f"work{n}"
        work.mkdir()
        doc = work / "doc.tex"
        doc.write_text("\\documentclass{article}\n\\usepackage{amsmath}\n" + body +
                       "\n\\begin{document}\n" + body + "\n\\begin{align*}\nx &\\le x + 1\n"
                       "\\end{align*}\n\\end{document}\n")
        assert main_ok(["check-tex", str(doc), "--no-certify", "--annotate", str(work / "copy.tex")])
        build = tmp_path / f"build{n}"
        build.mkdir()
        shutil.copy(work / "copy.tex", build / "copy.tex")
        proc = subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode",
                               "copy.tex"], cwd=build, capture_output=True, timeout=120,
                              stdin=subprocess.DEVNULL)
        # nothing read from outside (TeX logs every file it opens as "(path"), nothing written
        log = (build / "copy.log").read_text(errors="replace")
        assert "(" + str(outside) not in log and "SECRET-CONTENT" not in log
        assert {p: p.stat().st_mtime_ns for p in outside.iterdir()} == before
        assert {p.name for p in build.iterdir()} <= {"copy.aux", "copy.log", "copy.pdf", "copy.tex"}
        if shutil.which("pdftotext"):
            text = subprocess.run(["pdftotext", str(build / "copy.pdf"), "-"], capture_output=True,
                                  text=True).stdout
            assert "SECRET-CONTENT" not in text
            assert n == 1 or "[\\input]" in text     # plain: the denied names print themselves
        assert (build / "copy.pdf").exists(), proc.stdout[-2000:]


def main_ok(argv) -> bool:
    rc, _, err = run_cli(argv, ".")
    assert rc in (0, 1), err
    return True


def test_outputs_are_written_only_when_the_run_succeeds_and_never_over_an_input(monkeypatch):
    count("side effect: outputs")
    doc = "\\begin{align*}\nx &\\le x + 1\n\\end{align*}\n"
    with scratch() as cwd:
        (cwd / "-").write_text(doc)
        rc, _, err = cli(["check-tex", "-", "--annotate", "-"], cwd, ["--annotate"])
        assert rc == 2 and "would replace an input" in err
        assert (cwd / "-").read_text() == doc
        (cwd / "doc.tex").write_text(doc)
        for option in ("--json", "--annotate"):
            rc, _, err = cli(["check-tex", "doc.tex", option, "./doc.tex"], cwd, [option])
            assert rc == 2
        import symdp.report.tex_output as output

        def failing(check):
            raise InvalidParameterError("--annotate: cannot write the copy (a test)")

        monkeypatch.setattr(output, "annotate", failing)
        rc, _, err = cli(["check-tex", "doc.tex", "--no-certify", "--json", "out.json",
                          "--annotate", "copy.tex"], cwd, ["--annotate"], seconds=SMALL)
        assert rc == 2 and files_in(cwd) == {"-", "doc.tex"}
        assert (cwd / "doc.tex").read_text() == doc


# --------------------------------------------------------------------------- class: messages

MESSAGES = [
    (EpsDelta(0, 0), "eps must be > 0 for an eps_delta event"),
    (RandomizedResponse(1), "noise_parameter must be < 1 for randomized response"),
    (RandomizedResponse.binary(0), "eps0 must be > 0 for randomized response"),
    (SelfComposed(PoissonSampled(RandomizedResponse.binary(0), "0.1"), 3), "eps0 must be > 0"),
]


@pytest.mark.parametrize("case", range(len(MESSAGES)))
def test_messages_say_what_is_wrong_in_the_words_of_the_parameter(case):
    """The issue's "zero-size array to reduction operation maximum": a degenerate mechanism
    named by its parameter, by the API and by the command."""
    count("messages: the table")
    event, message = MESSAGES[case]
    assert message in str(api(lambda: symdp.account(event, delta="1e-5")))
    with scratch() as cwd:
        (cwd / "e.json").write_text(json.dumps(to_json(event)))
        rc, _, err = cli(["account", "--event", "e.json", "--delta", "1e-5"], cwd, ["eps", "eps0", "noise_parameter"])
    assert rc == 2 and message in err


@pytest.mark.parametrize("row", ["a &= ", "a &= b \\\\\n &= ", "x &\\le \\label{e}"])
def test_an_empty_right_side_is_named(row):
    """The issue's "min() arg is an empty sequence": the row is not read, with the reason."""
    count("messages: the table")
    with scratch() as cwd:
        (cwd / "doc.tex").write_text("\\begin{align*}\n" + row + "\n\\end{align*}\n")
        rc, out, err = cli(["check-tex", "doc.tex", "--no-certify"], cwd, seconds=SMALL)
    assert rc == 1 and "nothing after the relation" in out, (out, err)


PARAMETERS = [(Gaussian, "sigma"), (Laplace, "b"), (lambda v: EpsDelta(v, 0), "eps"),
              (lambda v: EpsDelta(1, v), "delta"), (lambda v: RandomizedResponse(v), "noise_parameter"),
              (lambda v: RandomizedResponse("0.5", v), "num_buckets"),
              (lambda v: PoissonSampled(Gaussian(1), v), "q"),
              (lambda v: SelfComposed(Gaussian(1), v), "count"),
              (lambda v: SampledWithReplacement(Gaussian(1), v, 3), "n"),
              (lambda v: Composed(v), "events")]


@settings(FUZZ, max_examples=120)
@given(case=st.sampled_from(PARAMETERS), value=values)
def test_every_refusal_names_its_parameter(case, value):
    count("messages: parameters")
    make, name = case
    result = api(lambda: make(value))
    if isinstance(result, InvalidParameterError):
        assert name in str(result) or "takes" in str(result), (name, str(result))
