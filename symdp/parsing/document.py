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
from typing import NamedTuple

import sympy as sp

from ..core.errors import InvalidParameterError, ParseError
from ..core.validation import shown
from ..core.special import Phi, PhiInv  # noqa: F401  (the grammar builds them; named in docs)
from . import MAX_LENGTH, parse_formula, parse_relation

__all__ = ["TexDocument", "Display", "Row", "TexStep", "TexProblem", "TexNote", "Hypotheses",
           "read_tex", "read_directive", "Directive", "normalise_text", "MAX_EXPANSIONS",
           "MAX_DOCUMENT_CHARS", "MAX_ROWS", "MAX_EXPONENT", "RELATION_WORDS"]

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
                "eqnarray*", "multline", "multline*", "flalign", "flalign*", "alignat",
                "alignat*", "displaymath", "dmath", "dmath*")
_INNER = ("aligned", "split", "gathered", "alignedat")
#: Relations a step may use, as written -> symdp's relation.
RELATION_WORDS = {"=": "=", "<": "<", ">": ">", "\\le": "<=", "\\leq": "<=",
                  "\\leqslant": "<=", "\\ge": ">=", "\\geq": ">=", "\\geqslant": ">=",
                  "\\lt": "<", "\\gt": ">", "≤": "<=", "≥": ">=", "<=": "<=", ">=": ">="}
#: Relations that are mathematics but not a step symdp checks.
_OTHER_RELATIONS = ("\\approx", "\\ne", "\\neq", "\\sim", "\\simeq", "\\propto",
                    "\\in", "\\notin", "\\subset", "\\subseteq", "\\to", "\\mapsto",
                    "\\ll", "\\gg", "\\lesssim", "\\gtrsim", "\\prec", "\\succ",
                    "\\preceq", "\\succeq", "\\leftarrow", "\\gets")
#: Relations that define the name on their left (read as a ``let`` for the rest of the
#: document, never checked); ``\\equiv`` defines when its left side is a name.
DEFINITION_WORDS = (":=", "\\coloneqq", "\\triangleq", "\\equiv", "\\eqqcolon", "\\doteq")
#: Connectives between claims: a row with one is one logical statement, refused by name.
LOGICAL_WORDS = ("\\iff", "\\Leftrightarrow", "\\Longleftrightarrow", "\\implies",
                 "\\Rightarrow", "\\Longrightarrow", "\\impliedby", "\\Leftarrow",
                 "\\Longleftarrow", "\\therefore", "\\because", "\\iff")
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
    """What the steps of a display may assume: relations, integer names, ``let`` names,
    declared functions, the laws of random variables and the values of quantities."""

    relations: tuple = ()   # (text, SymPy relation)
    integers: tuple = ()    # symbol names
    lets: tuple = ()        # (name, SymPy expression or Lambda)
    functions: tuple = ()   # names declared "% symdp: function s, F_{Y'}"
    laws: tuple = ()        # (Symbol, SymPy random symbol): "let X \\sim \\mathrm{Laplace}(b)"
    values: tuple = ()      # (quantity, value): "let \\Pr[Y = 1] = p"

    def __add__(self, other: "Hypotheses") -> "Hypotheses":
        return Hypotheses(self.relations + other.relations,
                          tuple(dict.fromkeys(self.integers + other.integers)),
                          self.lets + other.lets,
                          tuple(dict.fromkeys(self.functions + other.functions)),
                          self.laws + other.laws, self.values + other.values)

    def symbols(self) -> dict:
        """The parser's ``symbols``: symdp's objects, the names the relations and ``integer``
        declare (numbers: ``p(1-p)`` is then a product), the declared functions, the
        variables with a law, then the ``let`` names."""
        out = _objects()
        for _, relation in self.relations:
            for s in relation.free_symbols:
                if isinstance(s, sp.Symbol):
                    out.setdefault(s.name, s)
        for name in self.integers:
            out.setdefault(name, sp.Symbol(name))
        for name in self.functions:
            out[name] = sp.Function(name, real=True)
        for symbol, _ in self.laws:
            out.setdefault(symbol.name, symbol)
        out.update(dict(self.lets))
        return out

    def substitute(self, expr):
        """``expr`` with the quantities given a value (``let \\Pr[Y = 1] = p``) replaced by it
        and the probabilities of variables with a law computed
        (:func:`symdp.parsing.laws.apply_laws`)."""
        if self.values:
            expr = expr.xreplace(dict(self.values))
        if self.laws:
            from .laws import apply_laws

            expr = apply_laws(expr, dict(self.laws), _assumed(self.relations))
        return expr


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

    kind: str = "steps"   # "steps", "definition", "premise" or "expression"

    @property
    def read(self) -> bool:
        """Read whole: its steps, or a definition, a premise or an expression (nothing to
        check in those three: they are read, not checked)."""
        return self.problem is None and not self.skipped and \
            (bool(self.steps) or self.kind != "steps")


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
        """``(read, total)``: every display row counts, read or not (a row skipped by a
        ``% symdp: skip`` is not read)."""
        rows = self.rows
        return sum(1 for r in rows if r.read), len(rows)


def _assumed(relations) -> dict:
    """Symbol -> the same name with SymPy assumptions, from the relations that bound one
    symbol below by 0 (``s > 0``: positive; ``t >= 0``: nonnegative), for the laws' sake."""
    out = {}
    for _, relation in relations:
        for rel in (relation.args if isinstance(relation, sp.And) else (relation,)):
            if not isinstance(rel, sp.core.relational.Relational) or rel.rel_op == "==":
                continue
            lo, hi = (rel.lhs, rel.rhs) if rel.rel_op in (">", ">=") else (rel.rhs, rel.lhs)
            if isinstance(lo, sp.Symbol) and hi.is_number and hi >= 0:
                strict = rel.rel_op in (">", "<") or hi > 0
                out[lo] = sp.Symbol(lo.name, positive=True) if strict else \
                    sp.Symbol(lo.name, nonnegative=True)
    return out


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


class Directive(NamedTuple):
    """What one ``% symdp:`` comment says (:func:`read_directive`)."""

    hypotheses: Hypotheses
    expect: str | None = None
    skip: bool = False
    premise: bool = False
    define: bool = False


#: the verbs of a directive, in any case and with their usual inflections
_VERBS = {**dict.fromkeys(("assume", "assumes", "assuming"), "assume"),
          **dict.fromkeys(("integer", "integers"), "integer"),
          **dict.fromkeys(("let", "lets"), "let"),
          **dict.fromkeys(("expect", "expects", "expected"), "expect"),
          **dict.fromkeys(("skip", "skipped"), "skip"),
          **dict.fromkeys(("function", "functions"), "function"),
          **dict.fromkeys(("premise",), "premise"),
          **dict.fromkeys(("define",), "define")}
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
                         f"integer, function, let, expect, skip, premise, define or a "
                         f"relation); write 'assume "
                         f"{match.group(2)}' -- a product of the letters of '{word}' needs "
                         "spaces between them")


def read_directive(text: str, hypotheses: Hypotheses | None = None, macros: dict | None = None):
    r"""The items of one ``symdp:`` comment, a :class:`Directive`: ``(hypotheses, expect, skip,
    premise, define)``.

    ``hypotheses`` are those already in force (a ``let`` may use the names they define).
    Items: ``assume REL, ...`` (or a bare relation), ``integer n, k``, ``function s, F_{Y'}``,
    ``let NAME = FORMULA`` / ``let f(x) = FORMULA`` / ``let \Pr[Y = 1] = p`` (the value of a
    quantity) / ``let X \sim \mathrm{Laplace}(b)`` (a law), ``expect VERDICT``, ``skip``,
    ``premise`` (the display states hypotheses for the rest of the document), ``define``
    (its rows ``NAME = FORMULA`` define NAME).
    Raises ``ParseError`` naming the item that cannot be read.
    """
    base = hypotheses or Hypotheses()
    text = " ".join(text.split())   # a tab or a no-break space separates like a space
    text = expand_macros(text, macros or {})  # the document's macros read here too
    relations, integers, lets, functions, laws, values = [], [], [], [], [], []
    expect, skip, premise, define = None, False, False, False

    def known() -> dict:
        return (base + Hypotheses(tuple(relations), tuple(integers), tuple(lets),
                                  tuple(functions), tuple(laws), tuple(values))).symbols()

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
                integers.append(_name_of(name, "integer"))
            continue
        elif word in ("function", "functions"):
            for _, name in _split_top(rest, ","):
                functions.append(_name_of(name, "function"))
            continue
        elif word == "let":
            for _, definition in _split_top(rest, ","):
                law = _split_top(definition, "~")
                if len(law) == 1:
                    law = re.split(r"\\sim(?![A-Za-z])", definition, maxsplit=1)
                    law = [(0, piece) for piece in law]
                if len(law) == 2 and "=" not in law[0][1]:
                    laws.append(_law(law[0][1], law[1][1], known()))
                    continue
                pieces = _split_top(definition, "=")
                if len(pieces) != 2:
                    raise ParseError(f"let {definition.strip()}: expected NAME = FORMULA "
                                     "or NAME \\sim LAW")
                name, value = _defined(pieces[0][1], pieces[1][1], known())
                if isinstance(name, str):
                    lets.append((name, value))
                else:
                    values.append((name, value))
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
        elif word == "premise" and not rest.strip():
            premise = True
            continue
        elif word == "define" and not rest.strip():
            define = True
            continue
        else:
            items = item
        for _, relation in _split_top(items, ","):
            _refuse_unknown_word(relation.strip())
            if relation.strip():
                relations.append((relation.strip(),
                                  _bounded(parse_relation(starred(relation.strip()), latex=True,
                                                          symbols=known()))))
    return Directive(Hypotheses(tuple(relations), tuple(integers), tuple(lets),
                                tuple(functions), tuple(laws), tuple(values)),
                     expect, skip, premise, define)


def _name_of(text: str, what: str) -> str:
    """The symbol name written in ``text`` (``n``, ``F_{Y'}``, ``\\texttt{x}``)."""
    symbol = parse_formula(starred(text.strip()), latex=True)
    if not isinstance(symbol, sp.Symbol):
        raise ParseError(f"{what} {text.strip()}: not a symbol name")
    return symbol.name


_CALL = re.compile(r"\s*(.*?)\s*(?:\\left)?\(\s*(.*?)\s*(?:\\right)?\)\s*$", re.DOTALL)


def _defined(name_text: str, formula_text: str, known: dict):
    """``(name, value)`` of a definition ``NAME = FORMULA`` or ``f(x, y) = FORMULA`` (a
    :class:`sympy.Lambda` of its arguments), or ``(quantity, value)`` when the left side is
    a probability or another quantity (``\\Pr[Y = 1] = p``)."""
    call = _CALL.fullmatch(name_text)
    names = [call.group(1), *call.group(2).split(",")] if call and call.group(2).strip() \
        else [name_text]
    try:
        symbols = [parse_formula(starred(n.strip()), latex=True) for n in names]
    except ParseError:
        symbols = [None]
    if all(isinstance(s_, sp.Symbol) for s_ in symbols) and \
            len({s_.name for s_ in symbols}) == len(symbols):
        if len(symbols) > 1:  # a function: its arguments are bound in the formula
            bound = {s_.name: s_ for s_ in symbols[1:]}
            body = parse_formula(starred(formula_text.strip()), latex=True,
                                 symbols={**known, **bound})
            return symbols[0].name, sp.Lambda(tuple(symbols[1:]), body)
        return symbols[0].name, parse_formula(starred(formula_text.strip()), latex=True,
                                              symbols=known)
    from ..core.quantities import is_opaque

    quantity = parse_formula(starred(name_text.strip()), latex=True, symbols=known)
    if not is_opaque(quantity):
        raise ParseError(f"let {name_text.strip()}: the left side must be a name, a function "
                         "of names (f_p(x)) or a quantity (\\Pr[Y = 1])")
    return quantity, parse_formula(starred(formula_text.strip()), latex=True, symbols=known)


def _law(name_text: str, law_text: str, known: dict):
    """``(Symbol, random symbol)`` of ``X \\sim \\mathrm{Laplace}(b)``."""
    from .laws import read_law

    symbol = parse_formula(starred(name_text.strip()), latex=True)
    if not isinstance(symbol, sp.Symbol):
        raise ParseError(f"let {name_text.strip()} \\sim ...: the left side must be a name")
    return symbol, read_law(symbol, law_text, lambda p: parse_formula(p, latex=True,
                                                                       symbols=known))


# --------------------------------------------------------------------------- rows

_RELATION = re.compile("|".join(
    sorted((re.escape(w) + (r"(?![A-Za-z])" if w[-1:].isalpha() else "")
            for w in [*RELATION_WORDS, *_OTHER_RELATIONS, *DEFINITION_WORDS, *LOGICAL_WORDS]),
           key=len, reverse=True)))


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
        if ch == "&" and depth == 0 and re.match(r"&\s*&", text[i:]) and \
                _has_step("".join(chars[:i])) and not _RELATION.search(text[i:]):
            # "a &= b && \text{by Lemma 2}", "&\le c && d \text{ applications of ...}": a
            # second column pair after a step, without a relation, is annotation
            rest = re.sub(r"\\(?:" + "|".join(_TEXT_WORDS) + r")\s*\{([^{}]*)\}", r"\1",
                          text[i:].lstrip("& \t"))
            if rest.strip():
                rules.append(" ".join(rest.split()))
            blank(i, len(text))
            break
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
            elif name in _TEXT_WORDS and _math_word(text, end):
                i = end  # \text{erf}(x), \text{Var}(X): an operator name, mathematics
                continue
            elif name in _TEXT_WORDS and depth == 0 and _has_step("".join(chars[:i])):
                # "&\le c \quad \text{since } x \le 1": the rest of the row is annotation,
                # with an opening "(" just before it: "&& (\text{by Lemma 2})"
                rest = re.sub(r"\\(?:" + "|".join(_TEXT_WORDS) + r")\s*\{([^{}]*)\}", r"\1", text[i:])
                rules.append(" ".join(rest.split()))
                before = "".join(chars[:i]).rstrip()
                cut = len(before) - 1 if before.endswith(("(", "[")) else i
                blank(cut, len(text))
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


#: words that are mathematics inside \text{..} whatever follows them
_MATH_WORDS = frozenset("""erf erfc erfinv exp log ln Var Cov sign supp argmax argmin max min
    sup inf Pr""".split())


def _math_word(text: str, end: int) -> bool:
    """Whether the ``\\text{..}`` group at ``text[end]`` is an operator name (``\\text{erf}(x)``,
    ``\\text{Var}(X)``): one word that is a known function, or is followed by ``(``, ``[``, a
    subscript or a superscript; then it is mathematics, not annotation."""
    j = _skip_spaces(text, end)
    if text[j:j + 1] != "{":
        return False
    close = _group(text, j)
    if close is None:
        return False
    word = text[j + 1:close - 1].strip()
    if not re.fullmatch(r"[A-Za-z]+", word):
        return False
    k = _skip_spaces(text, close)
    return word in _MATH_WORDS or text[k:k + 1] in ("(", "[", "_", "^") or \
        text.startswith("\\left", k)


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
    """(environment, begin, body_start, body_end, end) of every top-level display: the
    environments of :data:`ENVIRONMENTS`, ``\\[ .. \\]`` and ``$$ .. $$``, found with
    pylatexenc's TeX walker (which knows comments, ``\\verb`` and escaped dollars) in the text
    whose comments are blanked; the hand scan of :func:`_scanned_displays` is the fallback."""
    try:
        from pylatexenc.latexwalker import (LatexEnvironmentNode, LatexGroupNode, LatexMacroNode,
                                            LatexMathNode, LatexWalker)

        nodes, _, _ = LatexWalker(blanked, tolerant_parsing=True).get_latex_nodes()
    except Exception:  # noqa: BLE001 - a walker failure must not lose the document
        return _scanned_displays(blanked)
    found = []

    def visit(nodelist) -> None:
        for node in nodelist or ():
            if isinstance(node, LatexEnvironmentNode):
                if node.environmentname in ENVIRONMENTS:
                    opening = re.match(r"\\begin\s*\{[^}]*\}", blanked[node.pos:])
                    closing = list(re.finditer(r"\\end\s*\{[^}]*\}",
                                               blanked[node.pos:node.pos + node.len]))
                    if opening and closing:
                        found.append((node.environmentname, node.pos, node.pos + opening.end(),
                                      node.pos + closing[-1].start(), node.pos + node.len))
                    continue
                visit(node.nodelist)
            elif isinstance(node, LatexMathNode) and node.displaytype == "display":
                left, right = node.delimiters
                found.append((left, node.pos, node.pos + len(left),
                              node.pos + node.len - len(right), node.pos + node.len))
            elif isinstance(node, LatexGroupNode):
                visit(node.nodelist)
            elif isinstance(node, LatexMacroNode) and node.nodeargd is not None:
                visit([a for a in node.nodeargd.argnlist or () if a is not None])

    visit(nodes)
    # the walker found where each display begins (outside \verb, comments, escaped dollars);
    # where it ends is the first closing delimiter after that, as TeX reads it even when a
    # brace inside is unbalanced (the walker would swallow the \end into the open group)
    out, reached = [], -1
    for env, begin, body_start, _, _ in sorted(found, key=lambda d: d[1]):
        if begin < reached:
            continue
        if env in ("$$", "\\["):
            close = blanked.find("$$" if env == "$$" else "\\]", body_start)
            if close < 0:
                continue
            end = close + 2
        else:
            closing = re.compile(r"\\end\s*\{" + re.escape(env) + r"\}").search(blanked, body_start)
            if closing is None:
                continue
            close, end = closing.start(), closing.end()
        out.append((env, begin, body_start, close, end))
        reached = end
    return out


def _scanned_displays(blanked: str) -> list[tuple[str, int, int, int, int]]:
    """The displays by a scan of the text (``\\[`` and the environments; no ``$$``)."""
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


def read_tex(text: str, path: str = "<string>", *, assume=(), integers=(), macros=(),
             inputs=None) -> TexDocument:
    r"""Read the display mathematics of ``text`` (the contents of ``path``).

    ``assume`` (relations, LaTeX or plain as the directives) and ``integers`` (names) hold
    for every display, like ``symdp check-tex --assume/--integer``; a ``ParseError`` names
    the one that cannot be read.  ``macros`` are texts whose macro *definitions* are read
    before the document's (``--macros FILE``); ``inputs(name, command)`` returns
    ``(where, text)`` of a file the document ``\input``s or ``\usepackage``s, None for a
    package of TeX's own, or raises ``ParseError`` saying why not (``--follow-inputs``:
    :func:`symdp.parsing.inputs.folder_inputs`); only the definitions of those files are
    read -- nothing is ever executed.
    """
    text, path = _document_arguments(text, path, assume, integers)
    starts = _line_starts(text)
    comments = _comments(text)
    blanked = _blank(text, comments)
    macros_found, notes = {}, []
    for index, extra in enumerate(macros):
        more, more_notes = _definitions(_blank(extra, _comments(extra)), _line_starts(extra))
        macros_found.update(more)
        notes += [replace(n, message=f"(--macros file {index + 1}, line {n.line}) {n.message}")
                  for n in more_notes]
    if inputs is not None:
        more, more_notes = _followed_definitions(blanked, starts, inputs)
        macros_found.update(more)
        notes += more_notes
    own, own_notes = _definitions(blanked, starts)
    macros_found.update(own)
    notes += own_notes
    macros = macros_found
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
            more = read_directive("assume " + item, cli)[0]
        except ParseError as error:
            raise ParseError(f"--assume {item}: {error}") from None
        cli = cli + more
    for name in integers:
        try:
            more = read_directive("integer " + name, cli)[0]
        except ParseError as error:
            raise ParseError(f"--integer {name}: {error}") from None
        cli = cli + more

    displays = _displays(blanked)
    _check_rows(blanked, displays)
    directives = _directives(text, comments)
    reader = _Reader(text, blanked, starts, macros)
    file_wide, file_problem = cli, None
    result = []
    d_index = 0
    pending, pending_problem, pending_skip, pending_premise, pending_define = \
        Hypotheses(), None, False, False, False
    for env, begin_off, body_start, body_end, end_off in displays + [(None, len(text) + 1, 0, 0, 0)]:
        # the directives before this display
        while d_index < len(directives) and directives[d_index][0] < begin_off:
            offset, body, wide = directives[d_index]
            d_index += 1
            if begin_at is not None and offset < begin_at:
                wide = True
            line, col = _position(starts, offset)
            try:
                more, expect, skip, premise, define = _directive(
                    body, file_wide + reader.defined + pending, macros)
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
                pending_premise = pending_premise or premise
                pending_define = pending_define or define
        if env is None:
            break
        # directives inside the display apply to it (expect/skip/premise: to their row)
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
                more, expect, skip, premise, define = _directive(
                    body, hypotheses + reader.defined, macros)
            except ParseError as error:
                problem = problem or TexProblem(line, col, f"cannot read the symdp comment: "
                                                           f"{error}")
                continue
            hypotheses = hypotheses + more
            row_directives[offset] = (expect, skip, premise, define)
        result.append(reader.display(env, begin_off, body_start, body_end, end_off,
                                     hypotheses, problem, pending_skip, pending_premise,
                                     pending_define, row_directives))
        pending, pending_problem, pending_skip, pending_premise, pending_define = \
            Hypotheses(), None, False, False, False
    return TexDocument(path, text, tuple(result), tuple(sorted(notes, key=lambda n: (n.line, n.column))),
                       macros, begin_at)


_INPUT = re.compile(r"\\(input|include|usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")


def _followed_definitions(blanked: str, starts, inputs, depth: int = 0) -> tuple[dict, list]:
    r"""The macro definitions of the files ``\input``, ``\include`` or ``\usepackage`` names
    (``inputs(name, command)`` reads one, returns None for a package of TeX's own, or raises
    ``ParseError`` saying why not: a note); at most four files deep.  Definitions only:
    nothing in them is executed."""
    macros, notes = {}, []
    for match in _INPUT.finditer(blanked):
        line, col = _position(starts, match.start())
        for name in (n.strip() for n in match.group(2).split(",")):
            if not name:
                continue
            try:
                found = inputs(name, match.group(1))
            except ParseError as error:
                notes.append(TexNote(line, col, f"\\{match.group(1)}{{{name}}} not read: {error}"))
                continue
            if found is None:  # a package of TeX's own: nothing to read
                continue
            where, content = found
            inner = _blank(content, _comments(content))
            if depth < 4:
                more, more_notes = _followed_definitions(inner, _line_starts(content), inputs,
                                                         depth + 1)
                macros.update(more)
                notes += more_notes
            more, more_notes = _definitions(inner, _line_starts(content))
            macros.update(more)
            notes += [replace(n, message=f"({where}, line {n.line}) {n.message}")
                      for n in more_notes]
            notes.append(TexNote(line, col, f"\\{match.group(1)}{{{name}}}: {len(more)} macro "
                                            f"definition(s) read from {where} (definitions "
                                            "only, nothing executed)"))
    return macros, notes


#: an interval as a set: "[t, t + \eta]", "(0, 1]", "\left[a, b\right)"
_INTERVAL = re.compile(r"\s*(?:\\left)?\s*([\[(])(.*)(?:\\right)?\s*([\])])\s*", re.DOTALL)
#: words of the sentence before a display (or of an \intertext) that announce a definition
_ANNOUNCING = re.compile(r"\b(define|defines|defined|let|denote|denotes|where|given by|"
                         r"we write|set)\b", re.IGNORECASE)
_DEFINITION_LABELS = frozenset(["def", "\\text{def}", "\\mathrm{def}", "\\rm def", ":",
                                "\\Delta", "\\triangle"])


class _Reader:
    """Reads the displays of one document in order, keeping what carries from one display to
    the next: the definitions and premises made so far, the names already used (a name used
    before is not defined by a later row), and the last right side read (a display that starts
    with a relation continues it)."""

    def __init__(self, text: str, blanked: str, starts, macros: dict):
        self.text, self.blanked, self.starts, self.macros = text, blanked, starts, macros
        self.defined = Hypotheses()   # definitions (lets) and premises of earlier rows
        self.seen: set = set()        # names used in displays so far
        self.tail = None              # (end offset of the display, its last right side)
        self.lost: dict = {}          # name -> line of a definition that could not be read

    def parse(self, formula: str, symbols: dict, hypotheses: Hypotheses):
        value = parse_formula(formula, latex=True, symbols=symbols)
        value = _bounded(hypotheses.substitute(value))
        names = {s.name for s in value.free_symbols if isinstance(s, sp.Symbol)} | \
            {f.func.__name__ for f in value.atoms(sp.core.function.AppliedUndef)}
        lost = sorted(n for n in names & self.lost.keys() if n not in symbols)
        if lost:  # a name the document defined where symdp could not read it
            raise ParseError(f"{lost[0]} is defined on line {self.lost[lost[0]]}, which "
                             "was not read: this line is not checked without it")
        self.note_names(value)
        return value

    def note_names(self, value) -> None:
        for s in value.free_symbols:
            self.seen.add(s.name if isinstance(s, sp.Symbol) else str(s))
        for f in value.atoms(sp.core.function.AppliedUndef):
            self.seen.add(f.func.__name__)

    def fresh(self, name: str, symbols: dict) -> bool:
        return name not in self.seen and name not in symbols

    def display(self, env, begin_off, body_start, body_end, end_off, hypotheses, problem,
                skip_all, premise_all, define_all, row_directives) -> Display:
        text, blanked, starts, macros = self.text, self.blanked, self.starts, self.macros
        line = _position(starts, begin_off)[0]
        body = blanked[body_start:body_end]
        inner = re.search(r"\\begin\s*\{(" + "|".join(_INNER) + r")\}", body)
        unnumbered = env.endswith("*") or env in ("\\[", "$$", "displaymath")
        nested_env = inner is not None or env.rstrip("*") in ("eqnarray", "multline")
        hyp = hypotheses + self.defined
        symbols = hyp.symbols()
        rows, chain_index, carried = [], -1, []
        previous = None    # the right side that the next row continues from
        if self.tail is not None and self.tail[1] is not None and \
                not re.search(r"[A-Za-z0-9]", blanked[self.tail[0]:begin_off]):
            previous = self.tail[1]  # "\[ a = b \]  \[ = c \]": one chain over two displays
        premises = []
        before = blanked[self.tail[0] if self.tail else 0:begin_off]
        sentence = re.split(r"\.\s|\n\s*\n", before.rstrip().rstrip(".:,"))[-1]
        announce = bool(_ANNOUNCING.search(sentence))  # "... let $D$ be the ratio ...:"
        logical = _logical_rows(blanked, _row_spans(body, body_start), macros)
        owners = _directive_rows(row_directives, logical, starts)
        for number, (parts, raw) in enumerate(logical):
            start, end = parts[0][0], parts[-1][1]
            cleaned, rules = _clean_row(raw)
            first_line = _position(starts, start + len(raw) - len(raw.lstrip()))[0] \
                if raw.strip() else _position(starts, start)[0]
            last_line = _position(starts, max(start, end - 1))[0]
            expect, skip, premise, define = None, skip_all, premise_all, define_all
            for offset, (e, s, pr, d) in row_directives.items():
                if owners.get(offset) == number:
                    expect, skip, premise = e or expect, skip or s, premise or pr
                    define = define or d
            words = text[parts[-1][0]:parts[-1][1]]  # the physical row that the mark goes on
            numbered = not unnumbered and not nested_env and \
                not re.search(r"\\(nonumber|notag)\b", words)
            record = dict(line=first_line, last_line=last_line,
                          text=" ".join(blanked[start:end].split()),
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
            words_used = [w for _, w in relations]

            def parsed(offset_formula, fail):
                offset, formula = offset_formula
                try:
                    return self.parse(formula, symbols, hyp), fail
                except ParseError as error:
                    return None, fail or _located(error, start + offset, formula, starts,
                                                  changed, first_line)

            logical = [w for w in words_used if w in LOGICAL_WORDS]
            if logical:
                rows.append(Row(**record, problem=TexProblem(
                    first_line, 1, f"{logical[0]} joins two claims into one logical statement, "
                                   "which symdp does not check (it checks chains of relations): "
                                   "write each claim on a row of its own")))
                previous = None
                if words_used and words_used[-1] in RELATION_WORDS and formulas[-1][1].strip():
                    previous, _ = parsed(formulas[-1], None)  # "\implies a \le b": b goes on
                continue
            if not relations:
                value, row_problem = parsed(formulas[0], None)
                if row_problem is None:
                    rows.append(Row(**record, kind="expression"))
                    previous = value
                else:
                    rows.append(Row(**record, problem=row_problem))
                    previous = None
                continue
            interval = _INTERVAL.fullmatch(formulas[1][1]) if words_used == ["\\in"] else None
            if interval and formulas[0][1].strip():  # "X \in [t, t + \eta]": t <= X <= t + eta
                pieces = _split_top(interval.group(2), ",")
                if len(pieces) == 2:
                    (x, row_problem), steps = parsed(formulas[0], None), []
                    bounds = []
                    for piece in pieces:
                        value, row_problem = parsed((formulas[1][0] + piece[0], piece[1]),
                                                    row_problem)
                        bounds.append(value)
                    if row_problem is None:
                        column = _position(starts, start + len(raw) - len(raw.lstrip()))[1]
                        low = ">=" if interval.group(1) == "[" else ">"
                        high = "<=" if interval.group(3) == "]" else "<"
                        steps = [TexStep(x, low, bounds[0], first_line, column, rule_text, expect),
                                 TexStep(x, high, bounds[1], first_line, column, rule_text,
                                         expect)]
                    chain_index += 1
                    rows.append(Row(**record, steps=tuple(steps), problem=row_problem,
                                    chain=chain_index))
                    previous = None
                    chain_index += 1
                    continue
            lhs_text = formulas[0][1]
            continues = not lhs_text.strip()
            # a definition: "f(y) := ...", "\overset{def}{=}", or "c = ..." announced by the
            # words before the display ("let", "define", "where", ...), an \intertext or a
            # "% symdp: define", for a name no earlier display used
            labelled = words_used[0] in DEFINITION_WORDS or (
                words_used[0] == "=" and any(r.strip() in _DEFINITION_LABELS for r in rules))
            announced = (announce and not rows) or any(_ANNOUNCING.search(r) for r in rules)
            if not continues and (labelled or words_used[0] == "=" and (announced or define)) \
                    and not premise:
                # ":=" and "% symdp: define" define any name; words, only a name never used
                defined = self.definition(lhs_text, formulas[1][1], symbols, hyp,
                                          labelled or define)
                if defined is None and (labelled or define or announced):
                    name = _defined_name(lhs_text)
                    if name and name not in symbols and not isinstance(
                            dict(hyp.lets).get(name), sp.Basic):
                        self.lost.setdefault(name, first_line)
                if defined is not None:
                    self.lost.pop(defined[0], None)
                    name, value = defined
                    self.defined = self.defined + Hypotheses(lets=((name, value),))
                    hyp = hyp + Hypotheses(lets=((name, value),))
                    symbols = hyp.symbols()
                    self.seen.add(name)
                    rule_text = "; ".join([*rules, f"defines {name}"])
                    formulas, relations = formulas[1:], relations[1:]
                    words_used = words_used[1:]
                    continues = True
                    previous = value if not isinstance(value, sp.Lambda) else None
                    chain_index += 1
                    if not relations:
                        rows.append(Row(**record, kind="definition", chain=chain_index))
                        continue
                    formulas = [(formulas[0][0], "")] + formulas[1:]
            steps, row_problem = [], None
            if continues and previous is None:
                row_problem = TexProblem(first_line, 1, "this line continues a chain, but the "
                                         "line before it has no right side symdp could read")
            if not continues:
                chain_index += 1
            values = []
            for offset, formula in formulas:
                if not formula.strip():
                    values.append(None)
                    continue
                value, row_problem = parsed((offset, formula), row_problem)
                values.append(value)
            if continues and previous is not None:
                values[0] = previous
            row_problem = row_problem or _missing_side(formulas, relations, first_line)
            for (_, word), lhs, rhs in zip(relations, values, values[1:]):
                if word in DEFINITION_WORDS:
                    row_problem = row_problem or TexProblem(first_line, 1, f"{word} defines a "
                                                            "name: its left side must be a name "
                                                            "or a function of names, f(x)")
                    continue
                if word not in RELATION_WORDS:
                    row_problem = row_problem or TexProblem(first_line, 1, f"the relation {word} "
                                                            "is not one symdp checks (=, \\le, \\ge, <, >)")
                    continue
                if lhs is not None and rhs is not None:
                    if premise:
                        premises.append((f"{sp.sstr(lhs)} {RELATION_WORDS[word]} {sp.sstr(rhs)}",
                                         _RELATIONS_OF[RELATION_WORDS[word]](lhs, rhs)))
                        continue
                    line_col = _position(starts, start + len(raw) - len(raw.lstrip()))
                    steps.append(TexStep(lhs, RELATION_WORDS[word], rhs, first_line, line_col[1],
                                         rule_text, expect))
            previous = values[-1]
            kind = "premise" if premise and row_problem is None else "steps"
            rows.append(Row(**record, steps=tuple(steps), problem=row_problem,
                            chain=chain_index, kind=kind))
        if premises:
            self.defined = self.defined + Hypotheses(relations=tuple(premises))
        self.tail = (end_off, previous)
        return Display(env, line, tuple(rows), hyp, problem)

    def definition(self, lhs_text: str, rhs_text: str, symbols: dict, hyp: Hypotheses,
                   announced: bool):
        """``(name, value)`` when the row defines its left side, a name or a function of names
        (``f(z)``) not defined already: any such name when ``announced`` (``:=`` and friends,
        ``% symdp: define``), else only one that no earlier display used and no hypothesis
        gives; None otherwise."""
        lhs = starred(lhs_text).strip()
        call = _CALL.fullmatch(lhs)
        head = call.group(1) if call and call.group(2).strip() else lhs
        try:
            head_symbol = parse_formula(head, latex=True)
        except ParseError:
            return None
        if not isinstance(head_symbol, sp.Symbol):
            return None
        name = head_symbol.name
        if isinstance(symbols.get(name), sp.Lambda) or name in dict(hyp.lets):
            return None  # defined already: this row states something about it
        base, _, subscript = name.partition("_")
        if subscript and isinstance(symbols.get(base + "_"), sp.Lambda):
            return None  # f_{\varepsilon,\delta}(x) is symdp's object: the row is a claim
        if not announced and not self.fresh(name, symbols):
            return None
        try:
            name, value = _defined(lhs, starred(rhs_text), symbols)
        except ParseError:
            return None
        if not isinstance(name, str):
            return None
        body = value.expr if isinstance(value, sp.Lambda) else value
        if name in {s.name for s in body.free_symbols if isinstance(s, sp.Symbol)}:
            return None  # "x = x^2" is an equation, not a definition
        value = value if isinstance(value, sp.Lambda) else hyp.substitute(value)
        self.note_names(body)
        return name, value


def _directive_rows(row_directives: dict, logical: list, starts) -> dict:
    """offset of a directive in a display -> the index of the row it belongs to: the row that
    ends on its line ("a &= b \\\\ % symdp: expect REFUTED"), else the row whose span holds it."""
    owners = {}
    last_lines = [_position(starts, max(parts[0][0], parts[-1][1] - 1))[0]
                  for parts, _ in logical]
    for offset in row_directives:
        line = _position(starts, offset)[0]
        ends_here = [k for k, last in enumerate(last_lines)
                     if last == line and logical[k][0][0][0] <= offset]
        if ends_here:
            owners[offset] = ends_here[0]
            continue
        within = [k for k, (parts, _) in enumerate(logical) if parts[0][0] <= offset < parts[-1][1]]
        if within:
            owners[offset] = within[0]
    return owners


def _defined_name(lhs_text: str) -> str | None:
    """The name on the left of a definition row (``c``, ``f`` of ``f(z)``), or None."""
    lhs = starred(lhs_text).strip()
    call = _CALL.fullmatch(lhs)
    head = call.group(1) if call and call.group(2).strip() else lhs
    try:
        symbol = parse_formula(head, latex=True)
    except ParseError:
        return None
    return symbol.name if isinstance(symbol, sp.Symbol) else None


_RELATIONS_OF = {"=": lambda a, b: sp.Eq(a, b, evaluate=False),
                 "<=": lambda a, b: sp.Le(a, b, evaluate=False),
                 ">=": lambda a, b: sp.Ge(a, b, evaluate=False),
                 "<": lambda a, b: sp.Lt(a, b, evaluate=False),
                 ">": lambda a, b: sp.Gt(a, b, evaluate=False)}


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
