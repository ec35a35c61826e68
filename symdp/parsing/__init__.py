r"""Parse formulas typed by users into SymPy expressions, without running them.

``symdp step LHS REL RHS`` and ``--assume`` take formulas from the shell.  This
module reads them with its own tokenizer and recursive-descent parser and
builds SymPy objects directly: no ``eval``/``exec``, no ``sympify``, no
``parse_expr``, no ``S()`` on the text.  Anything outside the grammar below is a
:class:`~symdp.core.errors.ParseError` whose one-line message names the column and
the problem, e.g. ``cannot parse formula at column 7: unexpected ')'``.

Grammar
-------
Both syntaxes share one grammar; juxtaposition is multiplication and binds
like ``*`` (``1/2n`` is ``n/2``)::

    relation := expr (REL expr)+                  chained: 0 <= delta <= 1
    expr     := term (("+" | "-") term)*
    term     := unary (("*" | "/") unary | power)*   # the second form: juxtaposition
    unary    := ("-" | "+") unary | power
    power    := postfix ("^" exponent)?           # right-associative: 2^3^2 = 2^9
    postfix  := primary "!"?                      # n! is factorial(n)
    primary  := NUMBER | symbol | constant | call | group | "|" expr "|"
    group    := "(" expr ")" | "[" expr "]"
    REL      := "=" | "==" | "<=" | ">=" | "<" | ">" | "≤" | "≥"

A number on the right of a juxtaposition is an error (``x 2``, ``2 3``): write
the operator.  A ``|`` opens an absolute value unless one is open.

**Plain** (``latex=False``, the default):

- ``NUMBER``: ``3``, ``0.25``, ``1e-3``; always an exact Rational.
- ``symbol``: an identifier ``[A-Za-z][A-Za-z0-9_]*`` followed by primes ``'``:
  ``eps``, ``delta``, ``x_1``, ``eps'``.  A leading or doubled underscore, a
  trailing one, Python keywords and names such as ``eval``/``exec``/``open``
  are refused.
- ``constant``: ``e``, ``E`` (Euler's number), ``pi``, ``oo``, ``inf``, ``infinity``.
- ``call``: ``f(args)`` for ``f`` in ``exp log ln sqrt binomial binom Phi PhiInv
  erf erfc min max Min Max abs Abs factorial floor ceiling ceil``;
  ``log(x, b)`` is the logarithm to base ``b``.  Any other identifier followed
  by ``(`` is a product: ``n(n-1)`` is ``n*(n-1)``.
- ``**`` is ``^``; the exponent is a ``unary``, so ``2^-1`` is ``1/2``.

**LaTeX** (``latex=True``), as printed in a paper or by :func:`sympy.latex`:

- ``\frac{a}{b}`` (``\dfrac``, ``\tfrac``, ``\cfrac``), ``\binom{n}{k}``
  (``\dbinom``, ``\tbinom``), ``\sqrt{x}``, ``\sqrt[3]{x}``; a braceless
  argument is one TeX token, so ``\frac12`` is 1/2.
- ``x^{2}``, ``x^2``, ``e^{\varepsilon}`` with ``e`` Euler's number.  A braceless
  script is one token; ``x^23`` (TeX: :math:`x^2 3`) is refused as ambiguous.
- ``{...}`` groups; ``\left( \right)``, ``\left[ \right]``, ``\{ \}``,
  ``\left| \right|`` (absolute value), ``\lfloor \rfloor``, ``\lceil \rceil``.
- ``\cdot``, ``\times``, ``\div``; ``\,`` ``\;`` ``\:`` ``\!`` ``\quad`` ``~``
  are spacing and ignored.
- Letters are one symbol each: ``nk`` is ``n k``.  A run of letters that
  spells a Greek letter (``eps``, ``delta``) or a function (``exp``, ``ln``) is
  that name; ``\mathrm{tot}``/``\text{tot}`` is the symbol ``tot``.
- Greek commands ``\alpha ... \omega``, ``\Gamma ... \Omega``; ``\pi`` and
  ``\infty`` are constants, ``\Phi`` is the normal CDF.
- Subscripts and primes name symbols: ``x_{1}`` is ``x_1``, ``\varepsilon_0`` is
  ``varepsilon_0``, ``\varepsilon'`` and ``\varepsilon^{\prime}`` are ``varepsilon'``.
- Functions ``\ln \log \exp \Phi \erf \erfc \min \max``, ``\operatorname{erfc}``
  and the same names as words (``exp``, ``erfc``).  The argument is a
  parenthesised or braced group (``\ln(x)``, ``\log{\left(x\right)}``) and
  a following ``^`` powers the value (``\ln(x)^2`` is :math:`(\ln x)^2`);
  otherwise it is the next factor with its exponent (``\ln x^2`` is
  :math:`\ln(x^2)`, ``\ln 2n`` is :math:`n\ln 2`).  ``\log_{2}`` sets the base,
  ``\Phi^{-1}`` is the inverse normal CDF, ``\ln^{2} x`` is :math:`(\ln x)^2`.
  ``\min`` and ``\max`` need a delimited argument list: ``\min\{a, b\}``.
- Scientific notation is not LaTeX: ``2e-3`` is :math:`2e - 3`.

Names
-----
``eps``, ``epsilon``, ``varepsilon``, ``\epsilon``, ``\varepsilon`` (and ``ε``)
are all ``Symbol("varepsilon")``; other Greek letters are named by their
command (``delta``, ``mu``).  ``symbols`` maps names to caller-made Symbols
(with assumptions); a name is looked up as typed, then canonically
(``{"varepsilon": eps}`` also serves ``eps``).  Constant and function names are
reserved and cannot be overridden.

Limits
------
Input is at most :data:`MAX_LENGTH` characters and :data:`MAX_DEPTH` levels of
nesting, so no input reaches Python's recursion limit.  SymPy evaluates
numbers as it builds them (``2**99999999`` computes the integer, ``sqrt(n)``
factors ``n``, ``floor(x)`` evaluates ``x`` to every digit of its integer
part), so each construction is checked *before* it runs against a budget of
:data:`MAX_DIGITS` digits for the numbers of the whole formula: exact numbers
count their digits, inexact ones (``e^{9000}``, ``erfc(60)``) their order of
magnitude.  ``10^10^10``, ``2**99999999``, ``10000!``, ``e^{e^{20}}`` and
``erfc(10^10)`` are a ``ParseError`` "number too large", as are exact
fractional powers ``b^(p/q)`` for which SymPy would factor more than
:data:`MAX_ROOT_DIGITS` digits (``b^(q-1)``), ``floor``/``ceiling`` of inexact
numbers above ``10^100``, ``PhiInv`` of an argument within ``10^-100`` of 0 or
1 (its evaluation takes time cubic in that exponent) and ``min``/``max``
needing more than :data:`MAX_COMPARISONS` comparisons.  ``binomial(n, k)`` of
an inexact ``n`` and an integer ``k`` stays unevaluated (SymPy would expand a
product of ``k`` sums).  As a safety net, building a formula that takes more
than :data:`MAX_SECONDS` seconds is stopped.

Examples
--------
>>> parse_formula(r"\frac{1}{2} + \frac{1}{3}", latex=True)
5/6
>>> parse_formula("(n-1)/n")
(n - 1)/n
>>> parse_formula(r"e^{\varepsilon} \binom{n}{k}", latex=True)
exp(varepsilon)*binomial(n, k)
>>> parse_relation("0 <= delta <= 1")
(0 <= delta) & (delta <= 1)
>>> parse_formula("__import__('os')")
Traceback (most recent call last):
...
symdp.core.errors.ParseError: cannot parse formula at column 1: identifiers may not start with '_'
"""

from __future__ import annotations

import keyword
import math
import os
import re
import time
from dataclasses import dataclass, replace
from typing import NamedTuple

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError, ParseError
from ..core.special import Phi, PhiInv

__all__ = ["parse_formula", "parse_relation", "parse_assumptions", "MAX_LENGTH", "MAX_DEPTH",
           "MAX_DIGITS", "MAX_ROOT_DIGITS", "MAX_COMPARISONS", "MAX_SECONDS"]

#: Longest accepted input, in characters.
MAX_LENGTH = 10_000
#: Deepest accepted nesting (groups, exponents, unary signs); keeps the parser
#: far from Python's recursion limit.
MAX_DEPTH = 50
#: Budget of digits for the numbers of one formula (see Limits).  Python refuses
#: int <-> str conversions above 4300 digits: a larger number could not be printed.
MAX_DIGITS = 4000
#: Most digits under a fractional power: SymPy factors the radicand, in time
#: growing like the cube of its length (1600 digits take about a second).
MAX_ROOT_DIGITS = 500

#: Most pairwise comparisons that Min/Max may make in one formula (about 1 ms each).
MAX_COMPARISONS = 100
#: A safety net: building one formula may take at most this long (checked between
#: constructions).  SymPy's assumption queries can evaluate a number thousands of
#: times; the limits above keep each construction short, this keeps their sum short.
MAX_SECONDS = 10.0
# PhiInv(a) is evaluated with as many extra digits as min(a, 1 - a) has leading
# zeros, in time growing like their cube (10^-400 takes half a second).
_PHI_INV_DIGITS = 100
# floor/ceiling of an inexact number evaluates it to every digit of its integer part.
_FLOOR_DIGITS = 100

# ---------------------------------------------------------------------------
# Vocabulary

_EPSILON = "varepsilon"
_CANONICAL = {"eps": _EPSILON, "epsilon": _EPSILON, "varepsilon": _EPSILON}

_GREEK = frozenset("""alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta
    iota kappa lambda mu nu xi rho varrho sigma varsigma tau upsilon phi varphi chi psi
    omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Psi Omega pi""".split())

_UNICODE_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon",
    "ϵ": "varepsilon", "ζ": "zeta", "η": "eta", "θ": "theta", "ι": "iota",
    "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi",
    "ρ": "rho", "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta",
    "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi",
    "Ψ": "Psi", "Ω": "Omega",
}

_CONSTANTS = {"e": sp.E, "E": sp.E, "pi": sp.pi, "oo": sp.oo, "inf": sp.oo,
              "infinity": sp.oo}
# In LaTeX, E is a letter like any other and inf is i n f.
_LATEX_CONSTANTS = {"e": sp.E, "pi": sp.pi, "oo": sp.oo}

#: function name -> (canonical name, fewest arguments, most arguments or None)
_FUNCTIONS = {
    "exp": ("exp", 1, 1), "log": ("log", 1, 2), "ln": ("log", 1, 1),
    "sqrt": ("sqrt", 1, 1), "binomial": ("binomial", 2, 2), "binom": ("binomial", 2, 2),
    "Phi": ("Phi", 1, 1), "PhiInv": ("PhiInv", 1, 1), "erf": ("erf", 1, 1),
    "erfc": ("erfc", 1, 1), "min": ("Min", 1, None), "Min": ("Min", 1, None),
    "max": ("Max", 1, None), "Max": ("Max", 1, None), "abs": ("Abs", 1, 1),
    "Abs": ("Abs", 1, 1), "factorial": ("factorial", 1, 1), "floor": ("floor", 1, 1),
    "ceiling": ("ceiling", 1, 1), "ceil": ("ceiling", 1, 1),
}
_LATEX_FUNCTION_COMMANDS = frozenset("exp ln log Phi erf erfc min max".split())
_SYMPY_FUNCTIONS = {"log": sp.log, "Phi": Phi, "PhiInv": PhiInv, "erf": sp.erf,
                    "erfc": sp.erfc, "Min": sp.Min, "Max": sp.Max, "Abs": sp.Abs,
                    "factorial": sp.factorial, "binomial": sp.binomial,
                    "floor": sp.floor, "ceiling": sp.ceiling}

# Words that are never names: they mean code, not mathematics.  ``lambda`` is
# kept out of the list because it is a Greek letter.
_RESERVED = (frozenset(keyword.kwlist) - {"lambda"}) | frozenset(
    """eval exec compile open input print getattr setattr delattr hasattr globals
    locals vars dir breakpoint help exit quit import""".split())

# \left and \right only size the delimiter that follows; the delimiter is the token.
_SPACING = frozenset([",", ";", ":", "!", " ", *"""quad qquad displaystyle textstyle scriptstyle
    left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr""".split()])

_COMMAND_TOKENS = {
    "cdot": ("op", "*"), "times": ("op", "*"), "ast": ("op", "*"), "div": ("op", "/"),
    "le": ("rel", "<="), "leq": ("rel", "<="), "leqslant": ("rel", "<="),
    "ge": ("rel", ">="), "geq": ("rel", ">="), "geqslant": ("rel", ">="),
    "lt": ("rel", "<"), "gt": ("rel", ">"),
    "{": ("open", "\\{"), "lbrace": ("open", "\\{"), "}": ("close", "\\}"),
    "rbrace": ("close", "\\}"), "lfloor": ("open", "lfloor"), "rfloor": ("close", "rfloor"),
    "lceil": ("open", "lceil"), "rceil": ("close", "rceil"), "lvert": ("op", "|"),
    "rvert": ("op", "|"), "vert": ("op", "|"), "prime": ("op", "'"),
}
_WORD_COMMANDS = frozenset("mathrm operatorname text textrm mathit rm".split())

_CHARACTERS = {
    "+": ("op", "+"), "-": ("op", "-"), "−": ("op", "-"), "*": ("op", "*"),
    "·": ("op", "*"), "×": ("op", "*"), "/": ("op", "/"), "÷": ("op", "/"),
    "^": ("op", "^"), ",": ("op", ","), "|": ("op", "|"), "!": ("op", "!"),
    "(": ("open", "("), ")": ("close", ")"), "[": ("open", "["), "]": ("close", "]"),
    "<": ("rel", "<"), ">": ("rel", ">"), "=": ("rel", "="), "≤": ("rel", "<="),
    "≥": ("rel", ">="), "∞": ("name", "oo"),
}
_LATEX_CHARACTERS = {"{": ("open", "{"), "}": ("close", "}"), "_": ("op", "_"),
                     "'": ("op", "'")}
_TWO_CHARACTERS = {"**": ("op", "^"), "<=": ("rel", "<="), ">=": ("rel", ">="),
                   "==": ("rel", "=")}

_CLOSING = {"(": ")", "[": "]", "{": "}", "\\{": "\\}", "lfloor": "rfloor", "lceil": "rceil"}

_RELATIONS = {"=": sp.Eq, "<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}

_PLAIN_NUMBER = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_LATEX_NUMBER = re.compile(r"[0-9]+\.?[0-9]*|\.[0-9]+")
_ASCII_DIGITS = "0123456789"
#: superscript digits read as an exponent: x² is x^2
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹", _ASCII_DIGITS))
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*'*")
_GREEK_TAIL = re.compile(r"(_[A-Za-z0-9_]*)?'*")
_LETTERS = re.compile(r"[A-Za-z]+")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
_BRACED_WORD = re.compile(r"\s*\{\s*([A-Za-z]+)\s*\}")


# ---------------------------------------------------------------------------
# Tokens

@dataclass(frozen=True)
class _Token:
    kind: str    # num, name, cmd, op, open, close, rel, end
    value: str   # normalised: "<=" for \le, "frac" for \frac, "varepsilon" for ε
    col: int     # 1-based column of the first character
    text: str    # as typed, for messages

    def shown(self) -> str:
        return "end of input" if self.kind == "end" else f"'{self.text}'"


class _Problem(Exception):
    """A syntax problem at a column; the public functions turn it into a ParseError."""

    def __init__(self, col: int, message: str):
        super().__init__(message)
        self.col = col
        self.message = message


def _check_identifier(name: str, col: int) -> None:
    bare = name.rstrip("'")
    if bare.startswith("_"):
        raise _Problem(col, "identifiers may not start with '_'")
    if "__" in bare or bare.endswith("_"):
        raise _Problem(col, f"malformed identifier '{name}'")
    if bare in _RESERVED:
        raise _Problem(col, f"'{bare}' is a reserved word, not a formula")


def _tokenize(text: str, latex: bool) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    if latex:  # $...$ or $$...$$ around the whole formula, as pasted from a paper
        first = len(text) - len(text.lstrip().lstrip("$"))
        last = len(text.rstrip().rstrip("$"))
        dollars = {j for j in range(n) if text[j] == "$" and (j < first or j >= last)}
    else:
        dollars = set()

    def add(kind, value, start, end):
        tokens.append(_Token(kind, value, start + 1, text[start:end]))

    while i < n:
        ch = text[i]
        if ch.isspace() or i in dollars or (latex and ch == "~"):
            i += 1
            continue
        pair = text[i:i + 2]
        if pair == "!=":
            raise _Problem(i + 1, "'!=' is not a supported relation")
        if pair in _TWO_CHARACTERS:
            add(*_TWO_CHARACTERS[pair], i, i + 2)
            i += 2
            continue
        if ch in _SUPERSCRIPTS:  # x² is x^2 (a run of superscript digits is one exponent)
            j = i
            while j < n and text[j] in _SUPERSCRIPTS:
                j += 1
            add(*_CHARACTERS["^"], i, i)
            tokens.append(_Token("num", "".join(_SUPERSCRIPTS[c] for c in text[i:j]), i + 1,
                                 text[i:j]))
            i = j
            continue
        if ch in _ASCII_DIGITS or (ch == "." and text[i + 1:i + 2] in tuple(_ASCII_DIGITS)):
            match = (_LATEX_NUMBER if latex else _PLAIN_NUMBER).match(text, i)
            add("num", match.group(0), i, match.end())
            i = match.end()
            continue
        if ch in _CHARACTERS:
            add(*_CHARACTERS[ch], i, i + 1)
            i += 1
            continue
        if ch in _UNICODE_GREEK:
            name = _UNICODE_GREEK[ch]
            if latex:
                add("cmd", name, i, i + 1)
                i += 1
            else:
                tail = _GREEK_TAIL.match(text, i + 1)
                _check_identifier(name + tail.group(0), i + 1)
                add("name", name + tail.group(0), i, tail.end())
                i = tail.end()
            continue
        if latex:
            i = _latex_token(text, i, add)
            continue
        if ch.isascii() and (ch.isalpha() or ch == "_"):
            match = _IDENTIFIER.match(text, i)
            _check_identifier(match.group(0), i + 1)
            add("name", match.group(0), i, match.end())
            i = match.end()
            continue
        if ch == "\\":
            command = _COMMAND.match(text, i)
            raise _Problem(i + 1, f"LaTeX command '{command.group(0) if command else ch}' "
                                  "in a plain formula (pass latex=True)")
        if ch in "{}":
            raise _Problem(i + 1, f"unexpected '{ch}' (braces are LaTeX; pass latex=True)")
        raise _Problem(i + 1, f"unexpected character {ch!r}")
    tokens.append(_Token("end", "", n + 1, ""))
    return tokens


def _latex_token(text: str, i: int, add) -> int:
    """Read one LaTeX token at ``text[i]``; return the index after it."""
    ch = text[i]
    if ch in _LATEX_CHARACTERS:
        add(*_LATEX_CHARACTERS[ch], i, i + 1)
        return i + 1
    if ch.isascii() and ch.isalpha():
        run = _LETTERS.match(text, i)
        word = run.group(0)
        if word in _RESERVED:
            raise _Problem(i + 1, f"'{word}' is a reserved word, not a formula")
        if len(word) > 1 and (word in _GREEK or word in _CANONICAL or word in _FUNCTIONS):
            add("name", word, i, run.end())
        else:  # juxtaposed letters are a product, one symbol per letter
            for j in range(i, run.end()):
                add("name", text[j], j, j + 1)
        return run.end()
    if ch == "\\":
        command = _COMMAND.match(text, i)
        if command is None:
            raise _Problem(i + 1, "a lone '\\' at the end")
        name, end = command.group(1), command.end()
        if name in _SPACING:
            return end
        if name in _COMMAND_TOKENS:
            add(*_COMMAND_TOKENS[name], i, end)
            return end
        if name in _WORD_COMMANDS:
            word = _BRACED_WORD.match(text, end)
            if word is None:
                raise _Problem(i + 1, f"\\{name} must be followed by a word in braces, "
                                      f"e.g. \\{name}{{erfc}}")
            if word.group(1) in _RESERVED:
                raise _Problem(i + 1, f"'{word.group(1)}' is a reserved word, not a formula")
            add("name", word.group(1), i, word.end())
            return word.end()
        if not name.isalpha():
            raise _Problem(i + 1, f"unknown command {command.group(0)!r}")
        add("cmd", name, i, end)
        return end
    raise _Problem(i + 1, f"unexpected character {ch!r}")


# ---------------------------------------------------------------------------
# Values: a SymPy expression with bounds on the exact numbers inside it

class _Value(NamedTuple):
    """A built expression and what building it cost, as bounds (see _Builder)."""

    expr: sp.Basic
    digits: int = 0  # digits of the numbers SymPy computed with
    roots: int = 0   # digits of those under a fractional power: SymPy factors them
    q: int = 1       # lcm of those powers' denominators: b^(p/q) expands to b^(q-1)


def _cost(values) -> tuple[int, int, int]:
    """The summed cost of several values: digits and roots add, denominators lcm."""
    return (sum(v.digits for v in values), sum(v.roots for v in values),
            math.lcm(*(v.q for v in values)))


def _rational_digits(r: sp.Rational) -> int:
    return int(max(abs(r.p).bit_length(), r.q.bit_length()) * math.log10(2)) + 1


def _expression_digits(expr: sp.Basic) -> int:
    return sum(_rational_digits(r) for r in expr.atoms(sp.Rational))


def _ceil_abs(r: sp.Rational) -> int:
    return -(-abs(r.p) // r.q)


def _spread(exponent: sp.Basic) -> tuple[int, int]:
    """How far SymPy may raise the numbers of a base to ``exponent``.

    Returns the product of the exponent's numbers (rounded up, at least 1) and
    the lcm of their denominators: SymPy pulls ``b^(c h)`` out of
    ``b^(c (h + t))`` and expands ``b^(p/q)`` into ``b^(q-1)``.  Both are capped
    far above any accepted size, so they stay small integers.
    """
    cap = 10 ** (MAX_DIGITS + 1)
    k = q = 1
    for node in sp.preorder_traversal(exponent):
        if node.is_Rational:
            k = min(k * max(_ceil_abs(node), 1), cap)
            q = min(math.lcm(q, node.q), cap)
    return k, q


def _approximate(expr: sp.Basic, col: int):
    """``expr`` as an mpmath number at low precision, or None if SymPy cannot say.

    Only called on numbers already accepted, whose size is within the budget,
    so the evaluation is quick.  A number that mpmath fails on is refused.
    """
    try:
        value = expr.evalf(15, maxn=60)
    except (ArithmeticError, TypeError, ValueError) as error:  # fail closed: size unknown
        raise _Problem(col, f"SymPy failed to evaluate a number to bound its size "
                            f"({type(error).__name__}: {error})") from None
    real, imag = value.as_real_imag()
    if not (real.is_Number and imag.is_Number) or sp.nan in (real, imag):
        return None
    if real.is_infinite or imag.is_infinite:
        return mpmath.inf
    return mpmath.mpc(mpmath.mpf(sp.Float(real, 15)._mpf_), mpmath.mpf(sp.Float(imag, 15)._mpf_))


def _size(log10_magnitude) -> int:
    """Decimal digits of a number of the given log10 magnitude; capped, never huge."""
    size = abs(log10_magnitude)
    return MAX_DIGITS + 1 if size > MAX_DIGITS else int(size) + 1


class _Builder:
    """Builds SymPy expressions from values, refusing numbers that are too large.

    SymPy evaluates as it builds: ``2**99999999`` computes the integer,
    ``sqrt(n)`` factors ``n``, ``12**(996/997)`` multiplies out ``12**995``,
    ``floor(x)`` evaluates ``x`` to every digit of its integer part.  Each value
    carries bounds on what building it cost (:class:`_Value`), summed over its
    parts; an inexact number such as ``e^{9000}`` counts its order of magnitude.
    Every construction is checked against :data:`MAX_DIGITS` and
    :data:`MAX_ROOT_DIGITS` before it runs.
    """

    def __init__(self):
        self.comparisons = 0  # pairwise comparisons Min/Max make; they cost ~1 ms each
        self.deadline = time.monotonic() + MAX_SECONDS

    def check(self, digits: int, roots: int, q: int, col: int) -> None:
        """Refuse a construction over the limits; called before each one runs."""
        if time.monotonic() > self.deadline:
            raise _Problem(col, f"the formula takes too long to build (over {MAX_SECONDS:g} s)")
        if digits > MAX_DIGITS:
            raise _Problem(col, f"number too large (more than {MAX_DIGITS} digits)")
        if roots * max(q - 1, 1) > MAX_ROOT_DIGITS:
            raise _Problem(col, f"number too large for exact fractional powers (SymPy "
                                f"factors b^(q-1) for b^(p/q): at most {MAX_ROOT_DIGITS} "
                                "digits)")

    def defined(self, expr: sp.Basic, col: int) -> sp.Basic:
        for part in (expr, *expr.args):
            if part is sp.zoo:
                raise _Problem(col, "the value is complex infinity (zoo), "
                                    "e.g. a division by zero")
            if part is sp.nan:
                raise _Problem(col, "the value is undefined (nan), e.g. oo - oo")
        return expr

    def add(self, values: list[_Value], cols: list[int]) -> _Value:
        """A sum; integers add to at most one digit per tenfold more terms."""
        digits = roots = integers = count = 0
        q = 1
        for value, col in zip(values, cols):
            if value.expr.is_Integer:
                integers, count = max(integers, value.digits), count + 1
            else:
                digits += value.digits
            roots, q = roots + value.roots, math.lcm(q, value.q)
            self.check(digits + integers + len(str(count)), roots, q, col)
        digits += integers + len(str(count)) if count else 0
        expr = sp.Add(*(v.expr for v in values))
        return _Value(self.defined(expr, cols[-1]), digits, roots, q)

    def mul(self, values: list[_Value], cols: list[int]) -> _Value:
        """A product; its numbers have at most the digits of the factors' together."""
        digits = roots = 0
        q = 1
        for value, col in zip(values, cols):
            digits, roots, q = digits + value.digits, roots + value.roots, math.lcm(q, value.q)
            self.check(digits, roots, q, col)
        expr = sp.Mul(*(v.expr for v in values))
        return _Value(self.defined(expr, cols[-1]), digits, roots, q)

    def neg(self, value: _Value) -> _Value:
        return value._replace(expr=-value.expr)

    def inverse(self, value: _Value, col: int) -> _Value:
        if value.expr.is_zero:
            raise _Problem(col, "division by zero")
        return self.pow(value, _Value(sp.S.NegativeOne, 1), col)

    def pow(self, base: _Value, exponent: _Value, col: int) -> _Value:
        b, e = base.expr, exponent.expr
        if b is sp.E:
            return self.exp(exponent, col)
        if b.is_zero and e.is_extended_negative:
            raise _Problem(col, "division by zero")
        digits, roots, q = _cost([base, exponent])
        if base.digits and b not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne):
            k, denominator = _spread(e)
            if b.is_Rational and e.is_Integer:  # exact: the size of b**e
                digits = exponent.digits + (MAX_DIGITS + 1 if k > MAX_DIGITS else
                                            _size(k * math.log10(max(abs(b.p), b.q))))
            elif not (b.is_Pow and b.base.is_Symbol):  # (x^a)^e is x^(a e): digits add
                digits = base.digits * k + exponent.digits
            if denominator > 1:
                roots, q = roots + base.digits, math.lcm(q, denominator)
        if e.is_number and b.is_number and not (b.is_Rational and e.is_Rational):
            self.check(digits, roots, q, col)  # inexact: count the order of magnitude
            with mpmath.workdps(15):
                bv, ev = _approximate(b, col), _approximate(e, col)
                if bv is not None and ev is not None and bv != 0 and mpmath.isfinite(bv) \
                        and mpmath.isfinite(ev):
                    digits += _size(abs(ev) * mpmath.log10(abs(bv)))
        self.check(digits, roots, q, col)
        return _Value(self.defined(sp.Pow(b, e), col), digits, roots, q)

    def exp(self, arg: _Value, col: int) -> _Value:
        a = arg.expr
        digits, roots, q = arg.digits, arg.roots, arg.q
        if a.has(sp.log):
            # SymPy rewrites exp(c log(u)) as u**c (after logcombine): bound it like a power
            k, denominator = _spread(a)
            digits = arg.digits * (k + 1)
            if denominator > 1:
                roots, q = roots + arg.digits, math.lcm(q, denominator)
        elif a.is_number and not a.is_infinite:
            self.check(digits, roots, q, col)
            with mpmath.workdps(15):
                value = _approximate(a, col)
                if value is not None and mpmath.isfinite(value):
                    digits += _size(abs(value) / mpmath.ln(10))
        self.check(digits, roots, q, col)
        return _Value(self.defined(sp.exp(a), col), digits, roots, q)

    def call(self, name: str, args: list[_Value], col: int) -> _Value:
        exprs = [a.expr for a in args]
        digits, roots, q = _cost(args)
        self.check(digits, roots, q, col)
        if name == "exp":
            return self.exp(args[0], col)
        if name == "sqrt":
            return self.pow(args[0], _Value(sp.S.Half, 1), col)
        if name == "log" and len(args) == 2:
            return self.mul([self.call("log", args[:1], col),
                             self.inverse(self.call("log", args[1:], col), col)], [col, col])
        if name == "factorial":
            digits += self._factorial_digits(exprs[0], col)
        elif name == "binomial":
            digits += self._binomial_digits(args[0], args[1], col)
        elif name in ("floor", "ceiling") and exprs[0].is_number and not exprs[0].is_Rational:
            with mpmath.workdps(15):  # SymPy evaluates the integer part, every digit of it
                value = _approximate(exprs[0], col)
                if value is not None and value != 0 and mpmath.isfinite(value):
                    size = _size(mpmath.log10(abs(value)))
                    if size > _FLOOR_DIGITS:  # evaluating gamma(571.5) to 1300 digits: 17 s
                        raise _Problem(col, f"number too large for {name} (more than "
                                            f"{_FLOOR_DIGITS} digits before the point)")
                    digits += size
        elif name == "PhiInv" and exprs[0].is_number:
            digits += self._phi_inv_digits(exprs[0], col)
        elif name in ("Min", "Max"):
            count = sum(len(e.args) if e.func.__name__ == name else 1 for e in exprs)
            self.comparisons += count * (count - 1) // 2
            if self.comparisons > MAX_COMPARISONS:
                raise _Problem(col, f"too many min/max arguments (SymPy compares them "
                                    f"pairwise; at most {MAX_COMPARISONS} comparisons)")
        elif name in ("erf", "erfc", "Phi") and exprs[0].is_number:
            digits += self._gaussian_tail_digits(name, exprs[0], col)
        self.check(digits, roots, q, col)
        # binomial(n, k) of an inexact number n and an integer k: SymPy would expand the
        # product of k sums (binomial(log(3) + pi, 17) takes minutes); keep it as it is
        evaluate = not (name == "binomial" and exprs[1].is_Integer and exprs[0].is_number
                        and not exprs[0].is_Rational)
        try:
            expr = _SYMPY_FUNCTIONS[name](*exprs, evaluate=evaluate)
        except ValueError as error:  # Min/Max of numbers that cannot be ordered, e.g. I
            raise _Problem(col, f"{name} needs real arguments ({error})") from None
        return _Value(self.defined(expr, col), digits, roots, q)

    def _gaussian_tail_digits(self, name: str, z: sp.Basic, col: int) -> int:
        """Leading zeros of erf/erfc/Phi at z, about z^2 / ln 10 in the tail."""
        with mpmath.workdps(15):
            value = _approximate(z, col)
            if value is None or not mpmath.isfinite(value):
                return 0
            if abs(value) > 10 ** 100:  # mpmath overflows near 10^300
                return MAX_DIGITS + 1
            if value.imag == 0 and (name == "erf" or (name == "erfc") == (value.real < 0)):
                return 1  # erf is within [-1, 1]; erfc(-z), Phi(z) within [1, 2] for z > 0
            scale = 2 if name == "Phi" else 1  # Phi(z) = erfc(-z / sqrt 2) / 2
            return _size(abs(value) ** 2 / scale / mpmath.ln(10))

    def _phi_inv_digits(self, a: sp.Basic, col: int) -> int:
        """Digits of precision that evaluating PhiInv(a) takes: those of min(a, 1 - a)."""
        if a.is_extended_real is False or a.is_extended_negative \
                or (a - 1).is_extended_positive:  # mpmath would raise on evaluation
            raise _Problem(col, f"PhiInv needs an argument in [0, 1]; got {a}")
        if a.is_zero or (a - 1).is_zero or (isinstance(a, Phi) and a.args[0].is_extended_real):
            return 1  # PhiInv evaluates these exactly
        with mpmath.workdps(15):
            low, high = _approximate(a, col), _approximate(1 - a, col)
            if low is None or high is None:
                return 0
            tail = min(abs(low), abs(high))
            size = MAX_DIGITS + 1 if tail == 0 else _size(mpmath.log10(tail))
        if size > _PHI_INV_DIGITS:
            raise _Problem(col, f"PhiInv argument too close to 0 or 1 (within "
                                f"10^-{_PHI_INV_DIGITS}); its evaluation would take too long")
        return size

    def _factorial_digits(self, n: sp.Basic, col: int) -> int:
        """Digits of n! when n is a number (SymPy computes it for integers)."""
        if not n.is_number or n.is_infinite:
            return 0
        with mpmath.workdps(15):
            value = _approximate(n, col)
            if value is None or not mpmath.isfinite(value):
                return 0
            size = abs(value)
            if size > 10 ** 5:
                return MAX_DIGITS + 1
            return _size(mpmath.loggamma(size + 1) / mpmath.ln(10))

    def _binomial_digits(self, n: _Value, k: _Value, col: int) -> int:
        """Digits of binomial(n, k) when n and k are numbers."""
        ne, ke = n.expr, k.expr
        if not (ne.is_number and ke.is_number) or ne.is_infinite or ke.is_infinite:
            return 0
        if ne.is_Integer and ke.is_Integer:
            nn, kk = int(ne), int(ke)
            if nn < 0:  # binomial(n, k) = (-1)^k binomial(k - n - 1, k)
                nn = kk - nn - 1
            if kk < 0 or kk > nn:
                return 1
            m = min(kk, nn - kk)
            if m == 0:
                return 1
            if m > 10 ** 6:  # binomial(n, m) >= 2^m
                return MAX_DIGITS + 1
            if m * math.log10(nn) <= MAX_DIGITS:
                return _size(m * math.log10(nn))
            if nn < 10 ** 15:
                return _size((math.lgamma(nn + 1) - math.lgamma(kk + 1)
                              - math.lgamma(nn - kk + 1)) / math.log(10))
            return _size(m * (math.log10(nn) - math.log10(m) + math.log10(math.e)))
        # otherwise SymPy multiplies out k factors (Integer k) or leaves it to gamma
        with mpmath.workdps(15):
            nv, kv = _approximate(ne, col), _approximate(ke, col)
            if nv is None or kv is None or not (mpmath.isfinite(nv) and mpmath.isfinite(kv)):
                return 0
            size = abs(nv) + abs(kv) + 2
            if size > 10 ** 5:
                return MAX_DIGITS + 1
            return _size(size * mpmath.log10(size)) + (abs(int(ke)) * n.digits
                                                         if ke.is_Integer else 0)


# ---------------------------------------------------------------------------
# Parser

class _Parser:
    """Recursive descent over the tokens; see the module docstring for the grammar."""

    def __init__(self, tokens: list[_Token], latex: bool, symbols: dict):
        self.tokens = tokens
        self.pos = 0
        self.latex = latex
        self.symbols = symbols
        self.build = _Builder()
        self.depth = 0
        self.abs_open = False  # inside |...|, a '|' closes instead of opening

    # -- token stream -------------------------------------------------------

    def peek(self, offset: int = 0) -> _Token:
        return self.tokens[min(self.pos + offset, len(self.tokens) - 1)]

    def advance(self) -> _Token:
        token = self.tokens[self.pos]
        if token.kind != "end":
            self.pos += 1
        return token

    def at(self, kind: str, value: str | None = None, offset: int = 0) -> bool:
        token = self.peek(offset)
        return token.kind == kind and (value is None or token.value == value)

    def unexpected(self, token: _Token | None = None) -> _Problem:
        token = token or self.peek()
        if token.kind == "end":
            return _Problem(token.col, "unexpected end of input")
        if token.kind == "rel":
            return _Problem(token.col, f"unexpected relation {token.shown()}")
        if token.kind == "op" and token.value == "'":
            return _Problem(token.col, "a prime (') must follow a symbol")
        return _Problem(token.col, f"unexpected {token.shown()}")

    def expect_close(self, opening: _Token) -> None:
        closing = _CLOSING[opening.value]
        token = self.peek()
        if token.kind == "close" and token.value == closing:
            self.advance()
            return
        want = closing if len(closing) <= 2 else "\\" + closing
        if token.kind == "end":
            raise _Problem(token.col, f"missing '{want}' to close {opening.shown()} "
                                      f"at column {opening.col}")
        raise _Problem(token.col, f"expected '{want}' to close {opening.shown()} at "
                                  f"column {opening.col}, got {token.shown()}")

    # -- entry points ---------------------------------------------------------

    def formula(self) -> sp.Basic:
        if self.at("end"):
            raise _Problem(1, "empty input")
        value = self.expression()
        if self.at("rel"):
            token = self.peek()
            raise _Problem(token.col, f"unexpected relation {token.shown()} in a formula "
                                      "(use parse_relation)")
        if not self.at("end"):
            raise self.unexpected()
        return value.expr

    def relation(self) -> sp.Basic:
        if self.at("end"):
            raise _Problem(1, "empty input")
        sides = [self.expression()]
        operators: list[_Token] = []
        while self.at("rel"):
            operators.append(self.advance())
            sides.append(self.expression())
        if not self.at("end"):
            raise self.unexpected()
        if not operators:
            raise _Problem(self.peek().col, "expected a relation (=, <=, >=, <, >)")
        directions = {op.value[0] for op in operators} & {"<", ">"}
        if len(directions) > 1:
            raise _Problem(operators[-1].col, "a chain of relations must point one way "
                                              "(write a < b <= c, not a < b > c)")
        relations = [_RELATIONS[op.value](left.expr, right.expr, evaluate=False)
                     for left, op, right in zip(sides, operators, sides[1:])]
        if len(relations) == 1:
            return relations[0]
        return sp.And(*relations, evaluate=False)

    # -- grammar ------------------------------------------------------------

    def expression(self) -> _Value:
        """expr := term (("+" | "-") term)*"""
        start = self.peek().col
        terms, cols = [self.term()], [start]
        while self.at("op", "+") or self.at("op", "-"):
            operator = self.advance()
            term = self.term()
            terms.append(term if operator.value == "+" else self.build.neg(term))
            cols.append(operator.col)
        return terms[0] if len(terms) == 1 else self.build.add(terms, cols)

    def term(self) -> _Value:
        """term := unary (("*" | "/") unary | power)*"""
        cols = [self.peek().col]
        factors = [self.unary()]
        while True:
            token = self.peek()
            if token.kind == "op" and token.value in ("*", "/"):
                self.advance()
                factor = self.unary()
                if token.value == "/":
                    factor = self.build.inverse(factor, token.col)
            elif self.starts_factor(token):
                if token.kind == "num":
                    raise _Problem(token.col, f"missing operator before the number "
                                              f"{token.shown()}")
                factor = self.power()
            else:
                break
            factors.append(factor)
            cols.append(token.col)
        return factors[0] if len(factors) == 1 else self.build.mul(factors, cols)

    def starts_factor(self, token: _Token) -> bool:
        if token.kind in ("num", "name", "cmd", "open"):
            return True
        return token.kind == "op" and token.value == "|" and not self.abs_open

    def unary(self) -> _Value:
        """unary := ("-" | "+") unary | power"""
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Problem(self.peek().col, f"nesting deeper than {MAX_DEPTH} levels")
            if self.at("op", "-"):
                self.advance()
                return self.build.neg(self.unary())
            if self.at("op", "+"):
                self.advance()
                return self.unary()
            return self.power()
        finally:
            self.depth -= 1

    def power(self) -> _Value:
        """power := primary "!"? ("^" exponent)?"""
        base = self.primary()
        if self.at("op", "!"):
            token = self.advance()
            if self.at("op", "!"):
                raise _Problem(token.col, "'!!' (double factorial) is not supported")
            base = self.build.call("factorial", [base], token.col)
        if not self.at("op", "^"):
            return base
        caret = self.advance()
        exponent = self.script() if self.latex else self.unary()
        if self.latex and self.at("op", "^"):
            raise _Problem(self.peek().col, "double superscript: use braces, x^{a^{b}}")
        return self.build.pow(base, exponent, caret.col)

    def primary(self) -> _Value:
        token = self.peek()
        if token.kind == "num":
            self.advance()
            return self.number(token)
        if token.kind == "name":
            return self.name()
        if token.kind == "cmd":
            return self.command()
        if token.kind == "open":
            self.advance()
            value = self.group(token)
            if token.value in ("lfloor", "lceil"):
                return self.build.call("floor" if token.value == "lfloor" else "ceiling",
                                       [value], token.col)
            return value
        if token.kind == "op" and token.value == "|" and not self.abs_open:
            self.advance()
            self.abs_open = True
            try:
                value = self.expression()
            finally:
                self.abs_open = False
            if not self.at("op", "|"):
                raise _Problem(self.peek().col, f"missing '|' to close '|' at column {token.col}")
            self.advance()
            return self.build.call("Abs", [value], token.col)
        raise self.unexpected(token)

    def group(self, opening: _Token) -> _Value:
        """The expression after ``opening`` up to its closing delimiter."""
        outer, self.abs_open = self.abs_open, False
        try:
            if self.at("close"):
                raise _Problem(self.peek().col, f"empty {opening.shown()} group")
            value = self.expression()
            self.expect_close(opening)
        finally:
            self.abs_open = outer
        return value

    def arguments(self, opening: _Token) -> list[_Value]:
        """Comma-separated expressions after ``opening`` up to its closing delimiter."""
        outer, self.abs_open = self.abs_open, False
        try:
            if self.at("close"):
                raise _Problem(self.peek().col, "missing argument")
            values = [self.expression()]
            while self.at("op", ","):
                self.advance()
                values.append(self.expression())
            self.expect_close(opening)
        finally:
            self.abs_open = outer
        return values

    # -- atoms --------------------------------------------------------------

    def number(self, token: _Token) -> _Value:
        match = re.fullmatch(r"(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?", token.value)
        whole, fraction, exponent = match.group(1), match.group(2) or "", match.group(3)
        mantissa = (whole + fraction).lstrip("0") or "0"
        if exponent is not None and len(exponent.lstrip("+-")) > 6:
            raise _Problem(token.col, f"number too large (more than {MAX_DIGITS} digits)")
        scale = int(exponent or 0) - len(fraction)
        size = len(mantissa) + scale if scale >= 0 else max(len(mantissa), -scale)
        if size > MAX_DIGITS and mantissa != "0":
            raise _Problem(token.col, f"number too large (more than {MAX_DIGITS} digits)")
        if mantissa == "0":
            return _Value(sp.S.Zero, 1)
        if scale >= 0:
            return _Value(sp.Integer(int(mantissa) * 10 ** scale), size)
        return _Value(sp.Rational(int(mantissa), 10 ** -scale), size)

    def symbol(self, typed: str, canonical: str) -> _Value:
        for key in (typed, canonical):
            if key in self.symbols:
                value = self.symbols[key]
                return _Value(value, _expression_digits(value))
        return _Value(sp.Symbol(canonical))

    def name(self) -> _Value:
        token = self.advance()
        word = token.value
        if word in _FUNCTIONS:
            return self.latex_function(token) if self.latex else self.plain_call(token)
        if not self.latex:
            if word in _CONSTANTS:
                return _Value(_CONSTANTS[word])
            bare = word.rstrip("'")
            primes = word[len(bare):]
            base, _, subscript = bare.partition("_")
            canonical = _CANONICAL.get(base, base) + ("_" + subscript if subscript else "")
            return self.symbol(word, canonical + primes)
        return self.latex_symbol(token, word)

    def plain_call(self, token: _Token) -> _Value:
        if not self.at("open", "("):
            raise _Problem(token.col, f"{token.value} is a function: write "
                                      f"{token.value}(...)")
        args = self.arguments(self.advance())
        return self.apply(token, args)

    def apply(self, token: _Token, args: list[_Value]) -> _Value:
        name, fewest, most = _FUNCTIONS[token.value]
        if len(args) < fewest or (most is not None and len(args) > most):
            wanted = (f"{fewest}" if fewest == most else
                      f"at least {fewest}" if most is None else f"{fewest} or {most}")
            raise _Problem(token.col, f"{token.value} takes {wanted} "
                                      f"argument{'s' if wanted != '1' else ''}, got {len(args)}")
        return self.build.call(name, args, token.col)

    # -- LaTeX --------------------------------------------------------------

    def command(self) -> _Value:
        token = self.advance()
        name = token.value
        if name in _GREEK:
            return self.latex_symbol(token, name)
        if name == "Phi" or name in _LATEX_FUNCTION_COMMANDS:
            return self.latex_function(token)
        if name == "infty":
            return _Value(sp.oo)
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            numerator = self.tex_argument(token)
            denominator = self.tex_argument(token)
            return self.build.mul([numerator, self.build.inverse(denominator, token.col)],
                                  [token.col, token.col])
        if name in ("binom", "dbinom", "tbinom"):
            top = self.tex_argument(token)
            bottom = self.tex_argument(token)
            return self.build.call("binomial", [top, bottom], token.col)
        if name == "sqrt":
            if self.at("open", "["):
                index = self.group(self.advance())
                radicand = self.tex_argument(token, parenthesis=True)
                return self.build.pow(radicand, self.build.inverse(index, token.col), token.col)
            return self.build.pow(self.tex_argument(token, parenthesis=True),
                                  _Value(sp.S.Half, 1), token.col)
        raise _Problem(token.col, f"unknown function or command \\{name}")

    def tex_argument(self, command: _Token, parenthesis: bool = False,
                     script: str = "") -> _Value:
        """A TeX macro argument: ``{...}`` or a single token (``\\frac12``).

        ``parenthesis`` also accepts ``(...)``; ``script`` is ``"^"`` for a superscript.
        """
        token = self.peek()
        if token.kind == "open" and (token.value == "{" or
                                     (parenthesis and token.value in ("(", "["))):
            return self.group(self.advance())
        if token.kind == "num":
            return self.single_digit(script)
        if token.kind in ("name", "cmd"):
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise _Problem(token.col, f"nesting deeper than {MAX_DEPTH} levels")
                return self.primary()
            finally:
                self.depth -= 1
        if token.kind == "end":
            raise _Problem(token.col, f"{command.shown()} needs an argument in braces")
        raise _Problem(token.col, f"{command.shown()} needs an argument in braces, "
                                  f"got {token.shown()}")

    def script(self) -> _Value:
        """A LaTeX superscript: a TeX argument, a parenthesised group, or -token."""
        token = self.peek()
        if token.kind == "op" and token.value in ("-", "+"):
            self.advance()
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise _Problem(token.col, f"nesting deeper than {MAX_DEPTH} levels")
                value = self.script()
            finally:
                self.depth -= 1
            return self.build.neg(value) if token.value == "-" else value
        return self.tex_argument(_Token("op", "^", token.col, "^"), parenthesis=True, script="^")

    def single_digit(self, script: str = "") -> _Value:
        """The first digit of a number token, as TeX reads ``\\frac12``.

        In a script (``script`` is ``"^"`` or ``"_"``) a longer number is refused:
        TeX reads ``x^23`` as ``x^2 3``, which is rarely what was meant.
        """
        token = self.tokens[self.pos]
        if token.value[0] == ".":
            raise _Problem(token.col, f"expected a digit, got {token.shown()}")
        if script and len(token.value) > 1:
            raise _Problem(token.col, f"TeX reads only the first digit of {token.shown()} "
                                      f"here: write {script}{{{token.value}}}")
        if len(token.value) > 1:
            self.tokens[self.pos] = replace(token, value=token.value[1:], col=token.col + 1,
                                            text=token.value[1:])
        else:
            self.advance()
        return _Value(sp.Integer(int(token.value[0])), 1)

    def latex_symbol(self, token: _Token, base: str) -> _Value:
        """A letter or Greek command with optional subscript and primes."""
        subscript, primes = "", ""
        while True:
            if self.at("op", "_") and not subscript:
                self.advance()
                subscript = self.subscript()
            elif self.at("op", "'"):
                self.advance()
                primes += "'"
            elif self.at("op", "^") and self.at("op", "'", 1):
                self.advance()
                while self.at("op", "'"):
                    primes += "'"
                    self.advance()
            elif (self.at("op", "^") and self.at("open", "{", 1) and self.at("op", "'", 2)):
                self.advance()
                opening = self.advance()
                while self.at("op", "'"):
                    primes += "'"
                    self.advance()
                self.expect_close(opening)
            else:
                break
        if not subscript and not primes and base in _LATEX_CONSTANTS:
            return _Value(_LATEX_CONSTANTS[base])
        canonical = _CANONICAL.get(base, base)
        suffix = ("_" + subscript if subscript else "") + primes
        return self.symbol(base + suffix, canonical + suffix)

    def subscript(self) -> str:
        """The text of a subscript: letters, digits, Greek commands and primes."""
        token = self.peek()
        if token.kind == "num":
            return str(int(self.single_digit("_").expr))
        if token.kind in ("name", "cmd") and (token.kind == "name" or token.value in _GREEK):
            self.advance()
            return _CANONICAL.get(token.value, token.value)
        if not self.at("open", "{"):
            raise _Problem(token.col, f"unsupported subscript {token.shown()}")
        opening = self.advance()
        parts = []
        while not self.at("close", "}"):
            if self.at("end"):
                self.expect_close(opening)
            token = self.advance()
            if token.kind == "num" or token.kind == "name":
                parts.append(token.value)
            elif token.kind == "cmd" and token.value in _GREEK:
                parts.append(_CANONICAL.get(token.value, token.value))
            elif token.kind == "op" and token.value in (",", "'"):
                parts.append(token.value)
            else:
                raise _Problem(token.col, f"unsupported subscript: {token.shown()} "
                                          "(letters, digits and Greek letters only)")
        self.expect_close(opening)
        if not parts:
            raise _Problem(opening.col, "empty subscript")
        return "".join(parts)

    def latex_function(self, token: _Token) -> _Value:
        """``\\ln``, ``\\log_{b}``, ``\\Phi^{-1}``, ``\\min\\{a, b\\}`` and friends."""
        name = token.value
        base = power = None
        while True:
            if self.at("op", "_") and base is None:
                underscore = self.advance()
                if _FUNCTIONS[name][0] != "log":
                    raise _Problem(underscore.col, f"a subscript on {token.shown()} is "
                                                   "not supported")
                base = self.script()
            elif self.at("op", "^") and power is None:
                caret = self.advance()
                power = self.script()
                if power.expr == -1:
                    if name != "Phi":
                        raise _Problem(caret.col, f"{token.shown()}^{{-1}} is ambiguous: "
                                                  f"write 1/(...) for the reciprocal")
                    name, power = "PhiInv", None
            else:
                break
        function = replace(token, value=name)
        opening = self.peek()
        if opening.kind == "open" and opening.value in ("(", "[", "{", "\\{"):
            self.advance()
            args = self.arguments(opening)
        elif _FUNCTIONS[name][2] is None:
            raise _Problem(opening.col, f"{token.shown()} needs its arguments in "
                                        "parentheses or braces, e.g. \\min\\{a, b\\}")
        else:  # the argument is the next factor: \ln x^2 is ln(x^2), \ln 2n is n ln 2
            args = [self.unary()]
        if base is not None:
            if len(args) != 1:
                raise _Problem(token.col, f"{token.shown()} with a base takes 1 argument")
            args.append(base)
        value = self.apply(function, args)
        if power is not None:
            value = self.build.pow(value, power, token.col)
        return value


# ---------------------------------------------------------------------------
# Public API

def _validated_symbols(symbols) -> dict:
    if symbols is None:
        return {}
    if not isinstance(symbols, dict):
        raise InvalidParameterError(f"symbols must be a dict of name -> Symbol; "
                                    f"got symbols={symbols!r}")
    for key, value in symbols.items():
        if not isinstance(key, str) or not isinstance(value, sp.Basic):
            raise InvalidParameterError(f"symbols must map names (str) to SymPy objects; "
                                        f"got {key!r}: {value!r}")
    return symbols


_LIBRARIES = tuple(os.path.dirname(module.__file__) + os.sep for module in (sp, mpmath))


def _raised_inside_sympy(error: BaseException) -> bool:
    """Whether ``error`` was raised by SymPy or mpmath code (its innermost frame)."""
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is not None and frame.tb_frame.f_code.co_filename.startswith(_LIBRARIES)


def _parse(text, what: str, latex: bool, symbols, entry):
    if not isinstance(text, str):
        raise ParseError(f"a {what} must be a string; got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ParseError(f"cannot parse {what}: it has {len(text)} characters, more than "
                         f"the limit of {MAX_LENGTH}")
    symbols = _validated_symbols(symbols)
    parser = None
    try:
        parser = _Parser(_tokenize(text, latex), latex, symbols)
        result = entry(parser)
    except _Problem as problem:
        raise ParseError(f"cannot parse {what} at column {problem.col}: "
                         f"{problem.message}") from None
    except RecursionError:  # a backstop: MAX_DEPTH should be reached first
        raise ParseError(f"cannot parse {what}: nesting too deep") from None
    except (ArithmeticError, TypeError, ValueError) as error:
        # SymPy's automatic evaluation can fail inside SymPy or mpmath, e.g. with a
        # ZeroDivisionError when a number cancels at low precision (log(erf(4.27))
        # is -1.6e-9, not 0) or a TypeError comparing it; anything else is a bug here
        if not _raised_inside_sympy(error):
            raise
        col = parser.tokens[max(parser.pos - 1, 0)].col if parser else 1
        detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        raise ParseError(f"cannot parse {what} at column {col}: SymPy failed to evaluate a "
                         f"number ({detail})") from None
    if result.has(sp.zoo, sp.nan):
        raise ParseError(f"cannot parse {what}: its value is undefined ({result})")
    return result


def parse_formula(text: str, *, latex: bool = False, symbols: dict | None = None) -> sp.Expr:
    r"""Parse a formula into a SymPy expression without evaluating the text as code.

    Parameters
    ----------
    text : str
        The formula, in plain syntax (``exp(eps)*binomial(n, k)``) or, with
        ``latex=True``, in LaTeX (``e^{\varepsilon}\binom{n}{k}``); see the
        module docstring for the grammar.
    latex : bool
        Read ``text`` as LaTeX.
    symbols : dict, optional
        Name -> SymPy Symbol (or expression) to use instead of a plain
        ``Symbol(name)``, e.g. to carry assumptions.

    Raises
    ------
    ParseError
        For anything outside the grammar, naming the column and the problem.

    Examples
    --------
    >>> parse_formula("2n(n-1)")
    2*n*(n - 1)
    >>> parse_formula(r"\ln\frac{n+1}{n}", latex=True)
    log((n + 1)/n)
    >>> parse_formula("1/(2*n")
    Traceback (most recent call last):
    ...
    symdp.core.errors.ParseError: cannot parse formula at column 7: missing ')' to close '(' at column 3
    """
    return _parse(text, "formula", latex, symbols, _Parser.formula)


def parse_relation(text: str, *, latex: bool = False, symbols: dict | None = None):
    r"""Parse ``lhs REL rhs`` into an unevaluated SymPy Relational.

    ``REL`` is one of ``= == <= >= < > ≤ ≥`` (LaTeX also ``\le \leq \ge \geq
    \lt \gt``).  A chain ``0 <= delta <= 1`` gives the ``And`` of its links; a
    chain must point one way.  Relations are built with ``evaluate=False``,
    so ``1 <= 2`` stays a Relational.

    >>> parse_relation(r"\delta \le 1", latex=True)
    delta <= 1
    """
    return _parse(text, "relation", latex, symbols, _Parser.relation)


def parse_assumptions(texts: list[str], *, latex: bool = False,
                      symbols: dict | None = None) -> list[sp.Basic]:
    """Parse each ``--assume`` item as a relation (see :func:`parse_relation`).

    >>> parse_assumptions(["eps >= 0", "0 < delta < 1"])
    [varepsilon >= 0, (0 < delta) & (delta < 1)]
    """
    if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
        raise InvalidParameterError(f"texts must be a list of strings; got texts={texts!r}")
    return [parse_relation(text, latex=latex, symbols=symbols) for text in texts]
