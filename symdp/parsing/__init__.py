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
like ``*`` (``2n/3`` is ``2n/3``; ``1/2n`` has two readings and is refused, see below)::

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
  by ``(`` is a product: ``n(n-1)`` is ``n*(n-1)``.  A quotient followed by a juxtaposed
  factor (``1/2n``) is refused: see "Two readings are refused".
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
- Functions ``\ln \log \exp \sin \cos \Phi \erf \erfc \min \max``, ``\operatorname{erfc}``
  and the same names as words (``exp``, ``erfc``).  The argument is a
  parenthesised or braced group (``\ln(x)``, ``\log{\left(x\right)}``) and
  a following ``^`` powers the value (``\ln(x)^2`` is :math:`(\ln x)^2`);
  otherwise it is the next factor (``\ln x + 1`` is :math:`\ln(x) + 1`; ``\ln x^2`` and
  ``\ln 2n`` have two readings and are refused).  ``\log_{2}`` sets the base,
  ``\Phi^{-1}`` is the inverse normal CDF, ``\ln^{2} x`` is :math:`(\ln x)^2`.
  ``\min`` and ``\max`` need a delimited argument list: ``\min\{a, b\}``; with a subscript
  (``\max_i |x_i|``, ``\sup_{x \in S} f(x)``, ``\inf_z``) they are an extremum over the
  subscript's variables of the term that follows.
- Quantities read but not evaluated (:mod:`symdp.core.quantities`): ``\Pr[E]``, ``P(K = k)``,
  ``\mathbb{P}``; ``\mathbb{E}[X]``, ``\mathbb{E}_{x \sim P}[\cdot]``,
  ``\underset{x \sim P}{\mathbb{E}}``; ``\operatorname{Var}(X)``; ``\mathbb{I}[E]``; sums and
  products over a set (``\sum_{y \in S}``, ``\sum_i``); norms ``\|x\|_1``.  Under
  ``\sum_i``, ``\max_i``, ... a name subscripted by the index is indexed: ``x_i`` is ``x[i]``.
- Functions: a name applied to arguments in parentheses is an application when ``symbols``
  maps it to a :class:`sympy.Lambda` (``f_p(x)``; ``f'(z)`` is its derivative) or to an
  undefined function (``sympy.Function('s')``), when it is a word (``\operatorname{score}(x)``),
  when it has several arguments (``score(x, c, \alpha)``, ``D(P \| Q)``) or an event as
  argument; it is a product when the name stands for a number (a ``symbols`` entry, a bound
  index, or a name the formula uses on its own: ``p(1-p)``).
- Names: ``x_{n+1}``, accents (``\bar x`` is ``bar(x)``, ``\widehat{\mu}`` is ``hat(mu)``),
  ``\texttt{d\_in}`` (``d_in``), ``\mathcal{X}`` (``cal(X)``).
- Scientific notation is not LaTeX: ``2e-3`` is :math:`2e - 3`.

Two readings are refused
------------------------
Where people write the same thing for two different formulas the parser does not choose: it
raises a ``ParseError`` that names both readings and how to write each (issue #27, item 4).
The rule: a quotient followed by a juxtaposed factor (``a/bc``, ``1/2n``, ``x/2y``,
``1/2\pi``, in both syntaxes: (a/b)c or a/(bc)); a function's bare argument followed by what
could continue it (``\ln xy``, ``\exp xy``, ``\ln 2\pi``: a factor; ``\ln x/y``: a quotient;
``\sin x^2``, ``\ln x^2``: a power -- but ``\ln e^{x}`` is ln(e^x), and another function
ends the argument: ``\log n \log\log n``); a one-argument application of a name that is
neither a function nor a number (``s(X)``: s applied to X, or s times X; ``E[X]``); an index
used after the term its operator applies to (``\sum_i a_i - b_i``).  A reading that is
unambiguous stays: ``a/b \cdot c``, ``\frac12 x``, ``\ln x + y``, ``\log n!``.

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

import os

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError, ParseError
from .budget import (MAX_COMPARISONS, MAX_DEPTH, MAX_DIGITS, MAX_LENGTH, MAX_ROOT_DIGITS,
                     MAX_SECONDS)
from .grammar import _Parser
from .tokens import _Problem, _tokenize

__all__ = ["parse_formula", "parse_relation", "parse_assumptions", "MAX_LENGTH", "MAX_DEPTH",
           "MAX_DIGITS", "MAX_ROOT_DIGITS", "MAX_COMPARISONS", "MAX_SECONDS"]

# The package (tokens -> grammar with its plain and LaTeX rules -> budgeted SymPy builder):
#   vocabulary.py  names, constants, functions, reserved words, characters, regexes
#   tokens.py      the tokenizer (_tokenize) and the column-carrying _Problem
#   budget.py      the limits (MAX_*) and _Builder, which checks each construction first
#   grammar.py     _Parser: the shared recursive descent; plain.py and latex.py: its rules
#   ranges.py      --box ranges "p=0..1" (parse_range)
# This module keeps the public entry points; MAX_SECONDS is read here at each call.
# A generated parser (lark) was considered for the two syntaxes and not used: the digit
# budget is checked before each SymPy construction *during* the descent, TeX's one-token
# arguments (\frac12, x^23 refused) and letter juxtaposition are lexer state, and every
# message names a column in words tests/test_parsing.py pins; a grammar file would move
# the rules, not shorten them.


def _validated_symbols(symbols) -> dict:
    if symbols is None:
        return {}
    if not isinstance(symbols, dict):
        raise InvalidParameterError(f"symbols must be a dict of name -> Symbol; "
                                    f"got symbols={symbols!r}")
    for key, value in symbols.items():
        if not isinstance(key, str) or not (isinstance(value, sp.Basic) or
                                            isinstance(value, sp.core.function.UndefinedFunction)):
            raise InvalidParameterError(f"symbols must map names (str) to SymPy objects or "
                                        f"undefined functions; got {key!r}: {value!r}")
    return symbols


_LIBRARIES = tuple(os.path.dirname(module.__file__) + os.sep for module in (sp, mpmath))


def _raised_inside_sympy(error: BaseException) -> bool:
    """Whether ``error`` was raised by SymPy or mpmath code (its innermost frame)."""
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is not None and frame.tb_frame.f_code.co_filename.startswith(_LIBRARIES)


def _parse(text, what: str, latex: bool, symbols, entry, evaluate: bool = True):
    if not isinstance(text, str):
        raise ParseError(f"a {what} must be a string; got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ParseError(f"cannot parse {what}: it has {len(text)} characters, more than "
                         f"the limit of {MAX_LENGTH}")
    symbols = _validated_symbols(symbols)
    parser = None
    try:
        parser = _Parser(_tokenize(text, latex), latex, symbols, MAX_SECONDS, evaluate)
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


def parse_formula(text: str, *, latex: bool = False, symbols: dict | None = None,
                  evaluate: bool = True) -> sp.Expr:
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
    evaluate : bool
        False: sums, products and powers are built as written (``x/x`` stays
        ``x*x**-1``), for checking that a formula is defined where it is claimed.

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
    return _parse(text, "formula", latex, symbols, _Parser.formula, evaluate)


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
