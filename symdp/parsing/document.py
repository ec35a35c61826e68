r"""Read the display mathematics of a LaTeX document into chains of steps (``symdp check-tex``).

A display's lines (rows ending in ``\\``) are read one by one with the formula grammar of
:mod:`symdp.parsing` (``latex=True``); nothing is evaluated and nothing is run: this module
never calls TeX, never opens another file and never expands anything but the simple
``\newcommand``/``\def`` macros it found in the text.

What is read
------------
* **Displays**: ``align``, ``gather``, ``equation``, ``eqnarray``, ``multline`` (starred or
  not) and ``\[ ... \]``; ``aligned`` and ``split`` inside them.  ``%`` comments are not
  mathematics.
* **Chains**: a row with a left side starts a chain, a row that starts with a relation
  continues it: ``a &= b \\ &\le c \\ &< d`` is the steps ``a = b``, ``b <= c``, ``c < d``
  and the conclusion ``a < d``.  A row without a relation continues the row above it (a
  long right side broken over two rows).  Relations: ``= < > \le \leq \leqslant \ge \geq
  \geqslant \lt \gt``; ``\overset{(a)}{\le}`` and ``\stackrel{(a)}{=}`` are the relation,
  the label joins the rule text.  Others (``\approx``, ``\ne``, ``\in``, ``:=``, ...) make
  the row unread, with the reason.
* **Ignored, not refused**: ``&``, ``\label{..}``, ``\nonumber``, ``\notag``, ``\tag{..}``,
  ``\quad``, ``\qquad``, ``\,``, ``\!``, ``\left``/``\right``, ``\displaystyle``, trailing
  ``.``/``,``/``;``; ``\text{..}`` (outside subscripts) and ``\intertext{..}`` are kept as
  the step's rule text.
* **Macros**: ``\newcommand``, ``\renewcommand``, ``\providecommand`` (with ``[n]``
  arguments and an optional default) and ``\def\name#1#2{..}`` are expanded (at most
  :data:`MAX_EXPANSIONS` times per row, to at most ``MAX_LENGTH`` characters);
  ``\DeclareMathOperator{\Foo}{Foo}`` is ``\operatorname{Foo}``.  ``\usepackage`` is skipped.
* **Never executed, only reported** (:attr:`TexDocument.notes`): ``\input``,
  ``\include``, ``\write``, ``\immediate``, ``\openin``, ``\openout``, ``\read``,
  ``\catcode`` and friends.  The text is read with TeX's standard category codes.
* **Hypotheses**: comments ``% symdp: assume 0 <= p <= 1, eps >= 0; integer n, k; n >= 1``
  apply to the next display; ``% symdp file: ...`` and any ``% symdp:`` comment before
  ``\begin{document}`` apply to every display after it.  Items (separated by ``;``):
  ``assume REL, REL``, a bare ``REL`` (more assumptions), ``integer n, k``,
  ``let \varepsilon' = \log(1 - p + p e^{\varepsilon})`` (a name that stands for a
  formula), and -- in a row of a display -- ``expect REFUTED`` (a finding) or ``skip``.
  The relations are LaTeX formulas read by the same grammar, so ``eps`` and
  ``\varepsilon`` are one symbol.
* **symdp's objects** by their usual spellings: ``G_\mu(x)`` (the Gaussian trade-off
  function), ``f_{\varepsilon,\delta}(x)`` (the (eps, delta)-DP one), besides what the
  formula grammar reads (``\Phi``, ``\Phi^{-1}``, ``\binom``, ``\mathrm{e}``, ``\exp``,
  ``\ln``, ``\log``, ``\sum``/``\prod`` with limits).

A row that cannot be read is a :class:`TexProblem` with its source line, column and what
was expected; the other rows are still read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import sympy as sp

from ..core.errors import InvalidParameterError, ParseError
from ..core.validation import shown
from ..core.special import Phi, PhiInv  # noqa: F401  (the grammar builds them; named in docs)
from . import MAX_LENGTH, parse_formula, parse_relation

__all__ = ["TexDocument", "Display", "Row", "TexStep", "TexProblem", "TexNote", "Hypotheses",
           "read_tex", "read_directive", "normalise_text", "MAX_EXPANSIONS", "MAX_DOCUMENT_CHARS",
           "MAX_ROWS", "MAX_EXPONENT", "RELATION_WORDS"]

#: Most macro expansions in one row (a macro that expands to itself stops here).
MAX_EXPANSIONS = 200
#: Longest document read, in characters.
MAX_DOCUMENT_CHARS = 2_000_000
#: Most display rows of a document (rows are read, then checked, one by one: a row takes
#: about 0.1 to 1 s to check, so 2000 rows is already half an hour; a paper has hundreds).
MAX_ROWS = 2000
#: Largest size of a number in the exponent of a power of a symbol (``x^{10000}``): the checks
#: evaluate the power exactly at sample points, with that many times the digits of the point.
MAX_EXPONENT = 10_000
#: Most ``assume``/``integers`` items given to :func:`read_tex`.
MAX_OPTIONS = 100

#: Top-level display environments (``aligned``/``split`` live inside them).
ENVIRONMENTS = ("align", "align*", "gather", "gather*", "equation", "equation*", "eqnarray",
                "eqnarray*", "multline", "multline*", "flalign", "flalign*")
_INNER = ("aligned", "split", "gathered", "alignedat")
#: Relations a step may use, as written -> symdp's relation.
RELATION_WORDS = {"=": "=", "<": "<", ">": ">", "\\le": "<=", "\\leq": "<=",
                  "\\leqslant": "<=", "\\ge": ">=", "\\geq": ">=", "\\geqslant": ">=",
                  "\\lt": "<", "\\gt": ">", "≤": "<=", "≥": ">=", "<=": "<=", ">=": ">="}
#: Relations that are mathematics but not a step symdp checks.
_OTHER_RELATIONS = ("\\approx", "\\ne", "\\neq", "\\sim", "\\simeq", "\\equiv", "\\propto",
                    "\\in", "\\notin", "\\subset", "\\subseteq", "\\to", "\\mapsto",
                    "\\Rightarrow", "\\implies", "\\iff", "\\Leftrightarrow", "\\coloneqq",
                    "\\triangleq", "\\ll", "\\gg", "\\lesssim", "\\gtrsim", "\\prec", "\\succ",
                    "\\preceq", "\\succeq", ":=", "\\leftarrow", "\\gets")
#: Control words never executed: reading other files, writing files, changing how TeX reads.
REFUSED = ("input", "include", "includeonly", "InputIfFileExists", "write", "immediate",
           "openin", "openout", "read", "readline", "catcode", "csname", "special",
           "directlua", "pdfprimitive", "scantokens", "everyeof", "endlinechar", "lccode",
           "uccode", "makeatletter", "usepackage", "RequirePackage", "documentclass")
_REPORTED = frozenset(REFUSED) - {"usepackage", "RequirePackage", "documentclass",
                                  "makeatletter"}
_IGNORED_WORDS = ("nonumber", "notag", "displaystyle", "textstyle", "allowbreak",
                  "quad", "qquad", "noindent", "hfill", "nobreak", "break")
_IGNORED_WITH_ARGUMENT = ("label", "tag", "tag*", "hspace", "hspace*", "vspace", "vspace*",
                          "eqref", "ref", "phantom", "hphantom", "vphantom", "mathstrut")
_TEXT_WORDS = ("text", "textrm", "textnormal", "mbox", "intertext", "shortintertext",
               "textit", "textbf", "emph")

_WORD = re.compile(r"\\([A-Za-z]+\*?|.)", re.DOTALL)
_LETTERS = re.compile(r"[A-Za-z]")


# --------------------------------------------------------------------------- records

@dataclass(frozen=True)
class Hypotheses:
    """What the steps of a display may assume: relations, integer names and ``let`` names."""

    relations: tuple = ()   # (text, SymPy relation)
    integers: tuple = ()    # symbol names
    lets: tuple = ()        # (name, SymPy expression)

    def __add__(self, other: "Hypotheses") -> "Hypotheses":
        return Hypotheses(self.relations + other.relations,
                          tuple(dict.fromkeys(self.integers + other.integers)),
                          self.lets + other.lets)

    def symbols(self) -> dict:
        """The parser's ``symbols``: symdp's objects, then the ``let`` names."""
        return {**_objects(), **dict(self.lets)}


@dataclass(frozen=True)
class TexStep:
    """One step ``lhs relation rhs`` read from a row; ``line`` is the row's first line."""

    lhs: sp.Basic
    relation: str
    rhs: sp.Basic
    line: int
    column: int
    rule: str = ""
    expect: str | None = None  # a verdict name, from "% symdp: expect REFUTED"


@dataclass(frozen=True)
class TexProblem:
    """A row (or directive) that could not be read: where, and what was expected."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


@dataclass(frozen=True)
class TexNote:
    """Something in the document that symdp does not do (``\\input`` is never executed)."""

    line: int
    column: int
    message: str


@dataclass(frozen=True)
class Row:
    """A row of a display: the source lines it spans, its steps or why it was not read.

    ``start``/``end`` are offsets into the document text (``end`` is where the row's
    ``\\\\`` or the environment's ``\\end`` begins: where a margin mark goes);
    ``numbered`` tells whether LaTeX numbers this row; ``nested`` rows sit inside
    ``split``/``aligned``/``eqnarray``/``multline``, where a tag is not allowed.
    """

    line: int
    last_line: int
    text: str
    start: int
    end: int
    steps: tuple = ()
    problem: TexProblem | None = None
    skipped: bool = False
    numbered: bool = False
    nested: bool = False
    chain: int = -1   # the index of the chain in the display, -1 when none

    @property
    def read(self) -> bool:
        return self.problem is None and bool(self.steps)


@dataclass(frozen=True)
class Display:
    """A display environment: its rows, chains (lists of step indices into ``steps``), and
    hypotheses."""

    environment: str
    line: int
    rows: tuple
    hypotheses: Hypotheses
    hypothesis_problem: TexProblem | None = None


@dataclass(frozen=True)
class TexDocument:
    """What :func:`read_tex` read: the displays in order, the notes and the macros."""

    path: str
    text: str
    displays: tuple
    notes: tuple
    macros: dict = field(default_factory=dict)
    begin_document: int | None = None  # offset of \begin{document}, when there is one

    @property
    def rows(self) -> list:
        return [row for d in self.displays for row in d.rows]

    def read_fraction(self) -> tuple[int, int]:
        """``(read, total)`` rows with mathematics (skipped rows are not counted)."""
        rows = [r for r in self.rows if not r.skipped]
        return sum(1 for r in rows if r.read), len(rows)


def _objects() -> dict:
    """symdp's objects by their usual spellings: ``G_\\mu(x)``, ``f_{\\varepsilon,\\delta}(x)``."""
    from ..tradeoff import EpsDelta, Gaussian

    mu, eps, delta, x = sp.Dummy("mu"), sp.Dummy("varepsilon"), sp.Dummy("delta"), sp.Dummy("x")
    return {"G_": sp.Lambda((mu, x), Gaussian(mu)(x)),
            "f_": sp.Lambda((eps, delta, x), EpsDelta(eps, delta)(x))}


# --------------------------------------------------------------------------- low-level text

def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return starts


def _position(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of an offset."""
    import bisect

    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def _comments(text: str) -> list[tuple[int, int]]:
    """(start, end) of every ``%`` comment (an unescaped ``%`` to the end of its line)."""
    spans, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "%":
            end = text.find("\n", i)
            end = n if end < 0 else end
            spans.append((i, end))
            i = end
            continue
        i += 1
    return spans


def _blank(text: str, spans) -> str:
    """``text`` with the characters of ``spans`` replaced by spaces (newlines kept)."""
    chars = list(text)
    for start, end in spans:
        for j in range(start, end):
            if chars[j] != "\n":
                chars[j] = " "
    return "".join(chars)


def _group(text: str, i: int) -> int | None:
    """The index after the balanced ``{...}`` that starts at ``text[i]``; None if unbalanced."""
    depth = 0
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\n":
        i += 1
    return i


def _argument(text: str, i: int) -> tuple[str, int] | None:
    """One TeX macro argument at ``text[i]`` (after spaces): a braced group's content or one
    token; ``(content, end)``, None at the end of the text or before a closing brace."""
    i = _skip_spaces(text, i)
    if i >= len(text) or text[i] == "}":
        return None
    if text[i] == "{":
        end = _group(text, i)
        return None if end is None else (text[i + 1:end - 1], end)
    if text[i] == "\\":
        word = _WORD.match(text, i)
        return word.group(0), word.end()
    return text[i], i + 1


# --------------------------------------------------------------------------- macros

@dataclass(frozen=True)
class _Macro:
    name: str
    arguments: int
    default: str | None
    body: str


def _definitions(text: str, starts) -> tuple[dict, list]:
    """The macros defined in ``text`` (comment-blanked) and notes on those not read."""
    macros, notes = {}, []
    for match in re.finditer(r"\\(newcommand|renewcommand|providecommand|DeclareMathOperator|def)"
                             r"(\*?)(?![A-Za-z])", text):
        kind, i = match.group(1), match.end()
        line, col = _position(starts, match.start())
        try:
            if kind == "def":
                word = _WORD.match(text, _skip_spaces(text, i))
                if word is None or not word.group(1)[:1].isalpha():
                    raise ValueError("\\def needs a control word")
                name, i = word.group(1), word.end()
                params = re.match(r"(#[1-9])*", text[i:]).group(0)
                i += len(params)
                if text[i:i + 1] != "{":
                    raise ValueError(f"\\def\\{name}: only undelimited arguments #1#2... are read")
                end = _group(text, i)
                if end is None:
                    raise ValueError(f"\\def\\{name}: unbalanced braces")
                macros[name] = _Macro(name, len(params) // 2, None, text[i + 1:end - 1])
                continue
            first = _argument(text, i)
            if first is None or not first[0].startswith("\\"):
                raise ValueError(f"\\{kind} needs a command name")
            name, i = first[0][1:], first[1]
            if kind == "DeclareMathOperator":
                body = _argument(text, i)
                if body is None:
                    raise ValueError(f"\\DeclareMathOperator{{\\{name}}} needs its text")
                macros[name] = _Macro(name, 0, None, "\\operatorname{" + body[0].strip() + "}")
                continue
            count, default = 0, None
            j = _skip_spaces(text, i)
            if text[j:j + 1] == "[":
                close = text.find("]", j)
                count, i = int(text[j + 1:close]), close + 1
                j = _skip_spaces(text, i)
                if text[j:j + 1] == "[":
                    close = text.find("]", j)
                    default, i = text[j + 1:close], close + 1
            body = _argument(text, i)
            if body is None:
                raise ValueError(f"\\{kind}{{\\{name}}} needs a body")
            if kind == "providecommand" and name in macros:
                continue
            macros[name] = _Macro(name, count, default, body[0])
        except (ValueError, IndexError) as error:
            message = str(error) if isinstance(error, ValueError) and str(error) else \
                f"a \\{kind} that symdp cannot read"
            notes.append(TexNote(line, col, f"{message}; the macro is not expanded"))
    return macros, notes


def expand_macros(text: str, macros: dict) -> str:
    """``text`` with the macros expanded, at most :data:`MAX_EXPANSIONS` times and up to
    ``MAX_LENGTH`` characters (a ``ParseError`` otherwise)."""
    if not macros:
        return text
    pattern = re.compile(r"\\(" + "|".join(sorted(map(re.escape, macros), key=len, reverse=True))
                         + r")(?![A-Za-z])")
    count = 0
    while True:
        match = pattern.search(text)
        if match is None:
            return text
        count += 1
        if count > MAX_EXPANSIONS:
            raise ParseError(f"more than {MAX_EXPANSIONS} macro expansions (a macro that "
                             "expands to itself?)")
        macro = macros[match.group(1)]
        i, args = match.end(), []
        if macro.default is not None:
            j = _skip_spaces(text, i)
            if text[j:j + 1] == "[":
                close = text.find("]", j)
                if close < 0:
                    raise ParseError(f"\\{macro.name}: missing ']'")
                args.append(text[j + 1:close])
                i = close + 1
            else:
                args.append(macro.default)
        while len(args) < macro.arguments:
            arg = _argument(text, i)
            if arg is None:
                raise ParseError(f"\\{macro.name} takes {macro.arguments} argument(s)")
            args.append(arg[0])
            i = arg[1]
        body = re.sub(r"#([1-9])", lambda m: args[int(m.group(1)) - 1]
                      if int(m.group(1)) <= len(args) else m.group(0), macro.body)
        # keep a control word in the body apart from letters that follow the call
        if body[-1:].isalpha() and re.search(r"\\[A-Za-z]+$", body) and text[i:i + 1].isalpha():
            body += " "
        text = text[:match.start()] + body + text[i:]
        if len(text) > MAX_LENGTH:
            raise ParseError(f"the row has more than {MAX_LENGTH} characters after macro "
                             "expansion")


_STAR = re.compile(r"\^\s*(?:\*|\\ast\b|\\star\b|\{\s*(?:\*|\\ast|\\star)\s*\})(?!\s*\()")


def starred(text: str) -> str:
    """``x^*`` (also ``x^{*}``, ``x^\\ast``, ``x^\\star``) is the name ``x_star``, as a
    paper's fixed point :math:`x^*`; a starred name followed by ``(`` (a conjugate
    :math:`f^*(y)`) is left alone, so the grammar refuses it rather than reading a product."""
    return _STAR.sub("_{star}", text)


# --------------------------------------------------------------------------- directives

def _split_top(text: str, separators: str) -> list[tuple[int, str]]:
    """``text`` split at ``separators`` outside braces, parentheses and brackets:
    ``(offset, piece)`` pairs."""
    pieces, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if text[i + 1:i + 2] in "{}":
                depth += 1 if text[i + 1] == "{" else -1
            i += 2
            continue
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth = max(depth - 1, 0)
        elif ch in separators and depth == 0:
            pieces.append((start, text[start:i]))
            start = i + 1
        i += 1
    pieces.append((start, text[start:]))
    return pieces


#: the verbs of a directive, in any case and with their usual inflections
_VERBS = {**dict.fromkeys(("assume", "assumes", "assuming"), "assume"),
          **dict.fromkeys(("integer", "integers"), "integer"),
          **dict.fromkeys(("let", "lets"), "let"),
          **dict.fromkeys(("expect", "expects", "expected"), "expect"),
          **dict.fromkeys(("skip", "skipped"), "skip")}
_RELATION_START = re.compile(r"(<|>|=|≤|≥|\\(le|leq|ge|geq|leqslant|geqslant|lt|gt|ne|neq)"
                             r"(?![A-Za-z]))")


def _refuse_unknown_word(relation: str) -> None:
    """A hypothesis that starts with an English word (``suppose p >= 0``, ``where p <= 1``,
    ``given ...``) is refused naming the word: the grammar would read it as a product of
    one-letter symbols (s u p p o s e p >= 0), a constraint on symbols no step uses, and the
    hypothesis would be lost without a word.  A name the grammar knows (``eps``, ``delta``)
    followed by another factor is a product and is kept."""
    match = re.match(r"([A-Za-z]{3,}) +(\S.*)", relation)
    if match is None or _RELATION_START.match(match.group(2)):
        return
    word = match.group(1)
    try:
        read = parse_formula(word, latex=True)
    except ParseError:
        return   # a function name (log, exp): the grammar reads "log x"
    if not isinstance(read, sp.Symbol):
        raise ParseError(f"'{word}' is not a word of a symdp comment (the items are assume, "
                         f"integer, let, expect, skip or a relation); write 'assume "
                         f"{match.group(2)}' -- a product of the letters of '{word}' needs "
                         "spaces between them")


def read_directive(text: str, hypotheses: Hypotheses | None = None, macros: dict | None = None):
    """The items of one ``symdp:`` comment: ``(hypotheses, expect, skip)``.

    ``hypotheses`` are those already in force (a ``let`` may use the names they define).
    Raises ``ParseError`` naming the item that cannot be read.
    """
    base = hypotheses or Hypotheses()
    text = " ".join(text.split())   # a tab or a no-break space separates like a space
    text = expand_macros(text, macros or {})  # the document's macros read here too
    relations, integers, lets = [], [], []
    expect, skip = None, False
    for _, item in _split_top(text, ";"):
        item = item.strip()
        if not item:
            continue
        word, _, rest = item.partition(" ")
        word = _VERBS.get(word.lower(), word)   # "Assume", "assumes", "INTEGERS": the verb
        if word == "assume":
            items = rest
        elif word == "integer":
            for _, name in _split_top(rest, ","):
                symbol = parse_formula(starred(name.strip()), latex=True)
                if not isinstance(symbol, sp.Symbol):
                    raise ParseError(f"integer {name.strip()}: not a symbol name")
                integers.append(symbol.name)
            continue
        elif word == "let":
            for _, definition in _split_top(rest, ","):
                name, equals, formula = definition.partition("=")
                if not equals:
                    raise ParseError(f"let {definition.strip()}: expected NAME = FORMULA")
                known = (base + Hypotheses(lets=tuple(lets))).symbols()
                call = re.fullmatch(r"(.*?)\s*\((.*)\)\s*", name.strip())
                names = [call.group(1), *call.group(2).split(",")] if call else [name]
                symbols = [parse_formula(starred(n.strip()), latex=True) for n in names]
                if not all(isinstance(s_, sp.Symbol) for s_ in symbols):
                    raise ParseError(f"let {name.strip()}: the left side must be a name or "
                                     "a function of names, e.g. f_p(x)")
                if call:  # a function: its arguments are bound in the formula
                    bound = {s_.name: s_ for s_ in symbols[1:]}
                    body = parse_formula(starred(formula.strip()), latex=True,
                                         symbols={**known, **bound})
                    lets.append((symbols[0].name, sp.Lambda(tuple(symbols[1:]), body)))
                else:
                    lets.append((symbols[0].name, parse_formula(starred(formula.strip()),
                                                                latex=True, symbols=known)))
            continue
        elif word == "expect":
            expect = rest.strip().upper().replace("-", "_").replace(" ", "_")
            from ..proof.verdict import Verdict

            if expect not in {v.value for v in Verdict}:
                raise ParseError(f"expect {rest.strip()}: not a verdict (one of "
                                 f"{', '.join(v.value for v in Verdict)})")
            continue
        elif word == "skip":
            skip = True
            continue
        else:
            items = item
        known = (base + Hypotheses(lets=tuple(lets))).symbols()
        for _, relation in _split_top(items, ","):
            _refuse_unknown_word(relation.strip())
            if relation.strip():
                relations.append((relation.strip(),
                                  _bounded(parse_relation(starred(relation.strip()), latex=True,
                                                          symbols=known))))
    return Hypotheses(tuple(relations), tuple(integers), tuple(lets)), expect, skip


# --------------------------------------------------------------------------- rows

_RELATION = re.compile("|".join(
    sorted((re.escape(w) + (r"(?![A-Za-z])" if w[-1:].isalpha() else "")
            for w in [*RELATION_WORDS, *_OTHER_RELATIONS]), key=len, reverse=True)))


def _clean_row(text: str) -> tuple[str, list[str]]:
    """The row with what is ignored blanked to spaces (same length, so columns hold) and the
    rule texts (``\\text``, ``\\intertext``, ``\\overset`` labels) it carried."""
    chars = list(text)
    rules: list[str] = []

    def blank(a, b):
        for j in range(a, b):
            if chars[j] != "\n":
                chars[j] = " "

    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "&":
            chars[i] = " "
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "\\":
            word = _WORD.match(text, i)
            name = word.group(1)
            end = word.end()
            if name in _INNER or name in ("begin", "end"):
                pass
            elif name in _IGNORED_WORDS:
                blank(i, end)
            elif name in _IGNORED_WITH_ARGUMENT:
                j = _skip_spaces(text, end)
                close = _group(text, j) if text[j:j + 1] == "{" else None
                blank(i, close if close else end)
                i = close if close else end
                continue
            elif name in _TEXT_WORDS and depth == 0 and _has_step("".join(chars[:i])):
                # "&\le c \quad \text{since } x \le 1": the rest of the row is annotation
                rest = re.sub(r"\\(?:" + "|".join(_TEXT_WORDS) + r")\s*\{([^{}]*)\}", r"\1", text[i:])
                rules.append(" ".join(rest.split()))
                blank(i, len(text))
                break
            elif name in _TEXT_WORDS and (depth == 0 or name in ("intertext", "shortintertext")):
                j = _skip_spaces(text, end)
                close = _group(text, j) if text[j:j + 1] == "{" else None
                if close:
                    rules.append(" ".join(text[j + 1:close - 1].split()))
                    blank(i, close)
                    i = close
                    continue
            elif name in ("overset", "stackrel"):
                j = _skip_spaces(text, end)
                close = _group(text, j) if text[j:j + 1] == "{" else None
                if close:
                    label = text[j + 1:close - 1].strip()
                    inner = _skip_spaces(text, close)
                    last = _group(text, inner) if text[inner:inner + 1] == "{" else None
                    if last and _RELATION.fullmatch(text[inner + 1:last - 1].strip()):
                        rules.append(" ".join(_clean_row(label)[0].split()) or label)
                        blank(i, inner + 1)
                        blank(last - 1, last)
                        i = last
                        continue
            i = end
            continue
        i += 1
    cleaned = "".join(chars)
    # trailing punctuation: "a = b." or "a = b,"
    stripped = cleaned.rstrip()
    while stripped and stripped[-1] in ".,;":
        cut = len(stripped) - 1
        cleaned = cleaned[:cut] + " " + cleaned[cut + 1:]
        stripped = cleaned.rstrip()
    return cleaned, rules


def _has_step(cleaned: str) -> bool:
    """Whether ``cleaned`` already holds a relation with a right side after it."""
    pieces = _segments(cleaned)
    return len(pieces) >= 3 and bool(pieces[-1][1].strip(" \n\t.,;"))


def _segments(cleaned: str) -> list[tuple[int, str]] | TexProblem:
    """The formulas and relations of a row: ``[(offset, formula), (offset, relation), ...]``
    alternating, starting and ending with a formula (possibly blank)."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(cleaned):
        ch = cleaned[i]
        if ch == "\\" and cleaned[i + 1:i + 2] in ("{", "}"):
            i += 2
            continue
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth = max(depth - 1, 0)
        if depth == 0:
            match = _RELATION.match(cleaned, i)
            if match:
                out.append((start, cleaned[start:i]))
                out.append((i, match.group(0)))
                i = start = match.end()
                continue
        if ch == "\\":
            word = _WORD.match(cleaned, i)
            i = word.end()
            continue
        i += 1
    out.append((start, cleaned[start:]))
    return out


def _row_spans(body: str, offset: int) -> list[tuple[int, int]]:
    """(start, end) of the rows of a display body, split at ``\\\\`` (also ``\\\\[2pt]``,
    ``\\\\*``) outside nested environments such as ``cases``."""
    spans, depth, start, i = [], 0, 0, 0
    while i < len(body):
        if body[i] != "\\":
            i += 1
            continue
        word = _WORD.match(body, i)
        if word.group(1) in ("begin", "end"):
            name = re.match(r"\s*\{([^}]*)\}", body[word.end():])
            if name and name.group(1) not in _INNER:
                depth += 1 if word.group(1) == "begin" else -1
        if body[i + 1:i + 2] == "\\" and depth <= 0:
            spans.append((offset + start, offset + i))
            j = i + 2
            if body[j:j + 1] == "*":
                j += 1
            k = _skip_spaces(body, j)
            if body[k:k + 1] == "[":
                close = body.find("]", k)
                j = close + 1 if close > 0 else j
            i = start = j
            continue
        i = word.end()
    spans.append((offset + start, offset + len(body)))
    return spans


_INNER_MARKUP = re.compile(r"\\(begin|end)\s*\{(" + "|".join(_INNER) + r")\}(\[[a-z]\]|\{[0-9]+\})?")


def _logical_rows(blanked: str, spans, macros) -> list[tuple[list, str]]:
    """The rows as read: a row without a relation continues the row above it (a long right
    side broken over two rows).  Returns ``(spans, raw text)`` per row, the raw text from the
    first span's start to the last span's end with the ``\\\\`` between them blanked."""
    def has_relation(cleaned: str) -> bool:
        try:
            return len(_segments(expand_macros(cleaned, macros))) > 1
        except ParseError:
            return True

    rows = []
    for start, end in spans:
        raw = _INNER_MARKUP.sub(lambda m: " " * len(m.group(0)), blanked[start:end])
        cleaned, _ = _clean_row(raw)
        previous = _clean_row(rows[-1][1])[0] if rows else ""
        # a right side continued on this row, or a left side begun on the row above
        # (multline: "c + c \\ = 2c")
        if cleaned.strip() and previous.strip() and \
                (not has_relation(cleaned) or not has_relation(previous)):
            parts, text = rows[-1]
            gap = start - parts[-1][1]
            rows[-1] = (parts + [(start, end)], text + " " * gap + raw)
        else:
            rows.append(([(start, end)], raw))
    return rows


# --------------------------------------------------------------------------- the document

def _displays(blanked: str) -> list[tuple[str, int, int, int, int]]:
    """(environment, begin, body_start, body_end, end) of every top-level display."""
    found = []
    pattern = re.compile(r"\\begin\s*\{(" + "|".join(re.escape(e) for e in ENVIRONMENTS)
                         + r")\}|\\\[")
    i = 0
    while True:
        match = pattern.search(blanked, i)
        if match is None:
            return found
        if match.group(0) == "\\[":
            if match.start() > 0 and blanked[match.start() - 1] == "\\":  # "\\[2pt]"
                i = match.end()
                continue
            close = blanked.find("\\]", match.end())
            if close < 0:
                return found
            found.append(("\\[", match.start(), match.end(), close, close + 2))
            i = close + 2
            continue
        env = match.group(1)
        close = re.compile(r"\\end\s*\{" + re.escape(env) + r"\}").search(blanked, match.end())
        if close is None:
            return found
        found.append((env, match.start(), match.end(), close.start(), close.end()))
        i = close.end()


def _directives(text: str, comments) -> list[tuple[int, "str | _NearMiss", bool]]:
    """(offset, directive text, file-wide) of every ``% symdp:`` / ``% symdp file:`` comment,
    read leniently (``symdp`` in any case, any spacing, a tab or a no-break space anywhere,
    no colon before a known verb: ``% Symdp assume ...``).  A comment that starts like a
    directive but is not one (``% symdp`` without a colon or a verb, ``% sympd:``) is a
    :class:`_NearMiss` in the list: an error at its line, never dropped in silence."""
    out = []
    for start, end in comments:
        comment = re.sub(r"\s", " ", text[start:end])   # tabs, no-break spaces: spaces
        match = re.match(r"%+ *([A-Za-z]+)(.*)", comment)
        if match is None:
            continue
        word, rest = _split_keyword(match.group(1), match.group(2))
        directive = re.match(r" *(file\b)? *:(.*)", rest, re.IGNORECASE)
        verb = re.match(r" *(file\b)? *([A-Za-z]+)\b(.*)", rest, re.IGNORECASE)
        verb = verb if verb and verb.group(2).lower() in _VERBS else None
        if word.lower() == "symdp":
            if directive:
                out.append((start, directive.group(2).strip(), bool(directive.group(1))))
            elif verb:
                out.append((start, (verb.group(2) + verb.group(3)).strip(), bool(verb.group(1))))
            else:
                out.append((start, _NearMiss(
                    f"a comment that starts with '{word}' is read as a symdp directive and "
                    f"needs a colon: '% symdp: assume ...'; got '{_shorten(comment)}'"), False))
        elif _one_edit(word.lower(), "symdp"):
            out.append((start, _NearMiss(f"'{word}' is not 'symdp' (a misspelt directive?); "
                                         f"got '{_shorten(comment)}'"), False))
    return out


def _split_keyword(word: str, rest: str) -> tuple[str, str]:
    """``symdpassume`` is ``symdp`` then ``assume``: the keyword (or a near miss of it) split
    from a word glued to it, where what follows is a verb, ``file`` or a colon."""
    if word.lower() == "symdp" or _one_edit(word.lower(), "symdp"):
        return word, rest
    for k in (5, 4, 6):
        head, tail = word[:k], word[k:] + rest
        follows = re.match(r"(file\b|:| *:)|([A-Za-z]+)", tail, re.IGNORECASE)
        if len(word) > k and (head.lower() == "symdp" or _one_edit(head.lower(), "symdp")) and \
                follows and (follows.group(1) or follows.group(2).lower() in _VERBS):
            return head, tail
    if len(word) > 5 and (word[:5].lower() == "symdp" or _one_edit(word[:5].lower(), "symdp")):
        return word[:5], word[5:] + rest
    return word, rest


@dataclass(frozen=True)
class _NearMiss:
    """A comment that starts like a directive but cannot be one: why (an error at its line)."""

    message: str


def _shorten(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter changed, added, dropped or two neighbours
    swapped (and not ``b`` itself)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _directive(body, hypotheses: Hypotheses, macros: dict):
    """:func:`read_directive` of a directive found by :func:`_directives` (a near miss is
    a ``ParseError`` saying why)."""
    if isinstance(body, _NearMiss):
        raise ParseError(body.message)
    return read_directive(body, hypotheses, macros)


def normalise_text(text: str) -> str:
    """``text`` with its line endings made ``\\n`` (CRLF and a lone CR, as TeX reads them) and
    a leading byte-order mark dropped: neither may change what is read or where."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _document_arguments(text, path, assume, integers) -> tuple[str, str]:
    """The arguments of :func:`read_tex` checked before any work (types, sizes): the text
    normalised (:func:`normalise_text`) and the path."""
    if not isinstance(text, str):
        raise InvalidParameterError(f"text must be a string (the LaTeX source); got "
                                    f"text={shown(text)}")
    if len(text) > MAX_DOCUMENT_CHARS:
        raise InvalidParameterError(f"the document has {len(text)} characters, more than "
                                    f"the limit of {MAX_DOCUMENT_CHARS}")
    if not isinstance(path, str) or "\n" in path or len(path) > 4096:
        raise InvalidParameterError(f"path must be one line of text (the file name shown in "
                                    f"messages); got path={path!r:.80}")
    for name, values in (("assume", assume), ("integers", integers)):
        if isinstance(values, str) or not isinstance(values, (list, tuple)) or \
                not all(isinstance(v, str) for v in values):
            raise InvalidParameterError(f"{name} must be a list of strings (one relation or "
                                        f"name each); got {name}={values!r:.80}")
        if len(values) > MAX_OPTIONS:
            raise InvalidParameterError(f"{name} must have at most {MAX_OPTIONS} items; got "
                                        f"{len(values)}")
    return normalise_text(text), path


def _check_rows(blanked: str, displays) -> None:
    """Refuse a document with more than :data:`MAX_ROWS` display rows, before any is read
    (each row is parsed and then checked: 20,000 rows would take hours)."""
    rows = 0
    for _, _, body_start, body_end, _ in displays:
        rows += len(_row_spans(blanked[body_start:body_end], body_start))
        if rows > MAX_ROWS:
            raise InvalidParameterError(
                f"the document has more than {MAX_ROWS} display rows, the limit of symdp "
                f"check-tex (the limit on work); check it in parts")


def read_tex(text: str, path: str = "<string>", *, assume=(), integers=()) -> TexDocument:
    """Read the display mathematics of ``text`` (the contents of ``path``).

    ``assume`` (relations, LaTeX or plain as the directives) and ``integers`` (names) hold
    for every display, like ``symdp check-tex --assume/--integer``; a ``ParseError`` names
    the one that cannot be read.
    """
    text, path = _document_arguments(text, path, assume, integers)
    starts = _line_starts(text)
    comments = _comments(text)
    blanked = _blank(text, comments)
    macros, notes = _definitions(blanked, starts)
    for match in re.finditer(r"\\(" + "|".join(sorted(_REPORTED, key=len, reverse=True))
                             + r")(?![A-Za-z])", blanked):
        line, col = _position(starts, match.start())
        notes.append(TexNote(line, col, f"\\{match.group(1)} is never executed (symdp reads "
                                        "only this file, with TeX's standard category codes)"))
    begin = re.search(r"\\begin\s*\{document\}", blanked)
    begin_at = begin.start() if begin else None

    cli = Hypotheses()
    for item in assume:
        try:
            more, _, _ = read_directive("assume " + item, cli)
        except ParseError as error:
            raise ParseError(f"--assume {item}: {error}") from None
        cli = cli + more
    for name in integers:
        try:
            more, _, _ = read_directive("integer " + name, cli)
        except ParseError as error:
            raise ParseError(f"--integer {name}: {error}") from None
        cli = cli + more

    displays = _displays(blanked)
    _check_rows(blanked, displays)
    directives = _directives(text, comments)
    file_wide, file_problem = cli, None
    result = []
    d_index = 0
    pending, pending_problem, pending_skip = Hypotheses(), None, False
    for env, begin_off, body_start, body_end, end_off in displays + [(None, len(text) + 1, 0, 0, 0)]:
        # the directives before this display
        while d_index < len(directives) and directives[d_index][0] < begin_off:
            offset, body, wide = directives[d_index]
            d_index += 1
            if begin_at is not None and offset < begin_at:
                wide = True
            line, col = _position(starts, offset)
            try:
                more, expect, skip = _directive(body, file_wide + pending, macros)
            except ParseError as error:
                problem = TexProblem(line, col, f"cannot read the symdp comment: {error}")
                if wide:
                    file_problem = problem
                else:
                    pending_problem = problem
                continue
            if wide:
                file_wide = file_wide + more
            else:
                pending = pending + more
                pending_skip = pending_skip or skip
        if env is None:
            break
        # directives inside the display apply to it (expect/skip: to their row)
        inside = []
        while d_index < len(directives) and directives[d_index][0] < end_off:
            inside.append(directives[d_index])
            d_index += 1
        hypotheses = file_wide + pending
        problem = file_problem or pending_problem
        row_directives = {}
        for offset, body, _ in inside:
            line, col = _position(starts, offset)
            try:
                more, expect, skip = _directive(body, hypotheses, macros)
            except ParseError as error:
                problem = problem or TexProblem(line, col, f"cannot read the symdp comment: "
                                                           f"{error}")
                continue
            hypotheses = hypotheses + more
            row_directives[offset] = (expect, skip)
        result.append(_read_display(text, blanked, starts, env, begin_off, body_start, body_end,
                                    hypotheses, problem, pending_skip, row_directives, macros))
        pending, pending_problem, pending_skip = Hypotheses(), None, False
    return TexDocument(path, text, tuple(result), tuple(sorted(notes, key=lambda n: (n.line, n.column))),
                       macros, begin_at)


def _read_display(text, blanked, starts, env, begin_off, body_start, body_end, hypotheses,
                  problem, skip_all, row_directives, macros) -> Display:
    line = _position(starts, begin_off)[0]
    body = blanked[body_start:body_end]
    inner = re.search(r"\\begin\s*\{(" + "|".join(_INNER) + r")\}", body)
    unnumbered = env.endswith("*") or env == "\\["
    nested_env = inner is not None or env.rstrip("*") in ("eqnarray", "multline")
    symbols = hypotheses.symbols()
    rows, chain_index, carried = [], -1, []
    previous = None    # the right side that the next row continues from
    for parts, raw in _logical_rows(blanked, _row_spans(body, body_start), macros):
        start, end = parts[0][0], parts[-1][1]
        cleaned, rules = _clean_row(raw)
        first_line = _position(starts, start + len(raw) - len(raw.lstrip()))[0] \
            if raw.strip() else _position(starts, start)[0]
        last_line = _position(starts, max(start, end - 1))[0]
        expect, skip = None, skip_all
        for offset, (e, s) in row_directives.items():
            if start <= offset < end or (offset >= end and offset < end + 3):
                expect, skip = e or expect, skip or s
        words = text[parts[-1][0]:parts[-1][1]]  # the physical row that the mark goes on
        numbered = not unnumbered and not nested_env and not re.search(r"\\(nonumber|notag)\b",
                                                                   words)
        record = dict(line=first_line, last_line=last_line, text=text[start:end].strip(),
                      start=start, end=end, numbered=numbered, nested=nested_env)
        if not cleaned.strip():
            carried += rules  # an \intertext row: its text is the rule of the next row
            continue
        rules, carried = carried + rules, []
        if skip:
            rows.append(Row(**record, skipped=True))
            previous = None
            continue
        if problem is not None:
            rows.append(Row(**record, problem=replace(problem, message="not checked: "
                                                      + problem.message)))
            continue
        rule_text = "; ".join(rules)
        try:
            expanded = expand_macros(cleaned, macros)
        except ParseError as error:
            rows.append(Row(**record, problem=TexProblem(first_line, 1, str(error))))
            previous = None
            continue
        expanded = starred(expanded)
        changed = expanded != cleaned
        if changed:
            expanded, more_rules = _clean_row(expanded)
            rules += more_rules
            rule_text = "; ".join(rules)
        pieces = _segments(expanded)
        formulas = pieces[0::2]
        relations = pieces[1::2]
        if not relations:
            rows.append(Row(**record, problem=TexProblem(
                first_line, 1, "expected a relation (=, \\le, \\ge, <, >) on this line")))
            previous = None
            continue
        steps, row_problem = [], None
        lhs_text = formulas[0][1]
        continues = not lhs_text.strip()
        if continues and previous is None:
            row_problem = TexProblem(first_line, 1, "this line continues a chain, but the line "
                                     "before it has no right side symdp could read")
        if not continues:
            chain_index += 1
        values = []
        for offset, formula in formulas:
            if not formula.strip():
                values.append(None)
                continue
            try:
                values.append(_bounded(parse_formula(formula, latex=True, symbols=symbols)))
            except ParseError as error:
                values.append(None)
                if row_problem is None:
                    row_problem = _located(error, start + offset, formula, starts, changed,
                                           first_line)
        if continues and previous is not None:
            values[0] = previous
        row_problem = row_problem or _missing_side(formulas, relations, first_line)
        for (_, word), lhs, rhs in zip(relations, values, values[1:]):
            if word not in RELATION_WORDS:
                row_problem = row_problem or TexProblem(first_line, 1, f"the relation {word} "
                                                        "is not one symdp checks (=, \\le, \\ge, <, >)")
                continue
            if lhs is not None and rhs is not None:
                line_col = _position(starts, start + len(raw) - len(raw.lstrip()))
                steps.append(TexStep(lhs, RELATION_WORDS[word], rhs, first_line, line_col[1],
                                     rule_text, expect))
        previous = values[-1]
        rows.append(Row(**record, steps=tuple(steps), problem=row_problem,
                        chain=chain_index))
    return Display(env, line, tuple(rows), hypotheses, problem)


def _bounded(value):
    """``value``, or a ``ParseError`` when it holds a power of a symbol whose exponent holds a
    number above :data:`MAX_EXPONENT` in size (``x^{10^{100}}``, ``2^{20000 x}``): the checks
    evaluate such a power exactly at sample points, with that many times the digits of the
    point (they would never finish)."""
    for power in value.atoms(sp.Pow) if isinstance(value, sp.Basic) else ():
        if power.base.is_number and power.exp.is_number:
            continue   # a number: the parser's digit budget has bounded it
        exponent = power.exp
        for r in (exponent.atoms(sp.Rational) if not exponent.is_Rational else {exponent}):
            if abs(r) > MAX_EXPONENT:
                digits = len(str(abs(r.p) // r.q))
                shown = str(r) if digits < 10 else f"a number of {digits} digits"
                raise ParseError(f"exponent too large: {shown} (the limit is {MAX_EXPONENT} in "
                                 "the exponent of a power of a symbol)")
    return value


def _missing_side(formulas, relations, first_line: int) -> TexProblem | None:
    """A relation with nothing after it (``a &= \\\\``): the row is not read, with the reason
    (a right side left blank would otherwise leave the row without a step or a word)."""
    for (_, word), (_, rhs) in zip(relations, formulas[1:]):
        if not rhs.strip():
            return TexProblem(first_line, 1, f"nothing after the relation {word}: expected its "
                                             "right side on this line")
    return None


def _located(error: ParseError, offset: int, formula: str, starts, changed: bool,
             first_line: int) -> TexProblem:
    """A parse error at its source line and column (the parser counts from the formula's
    first character; after macro expansion the column is the expanded row's)."""
    message = str(error)
    match = re.match(r"cannot parse formula at column (\d+): (.*)", message)
    if match is None:
        return TexProblem(first_line, 1, message.replace("cannot parse formula: ", ""))
    col, what = int(match.group(1)), match.group(2)
    if changed:
        return TexProblem(first_line, 1, f"{what} (column {col} of the formula "
                                         f"'{' '.join(formula.split())}' after macro expansion)")
    # "unexpected end of input" points just after the formula, not to the next line
    line, column = _position(starts, offset + min(col - 1, len(formula.rstrip())))
    return TexProblem(line, column, what)
