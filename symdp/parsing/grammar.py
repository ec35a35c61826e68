"""The recursive-descent parser both syntaxes share (:class:`_Parser`).

``relation := expr (REL expr)+``, ``expr := term (("+" | "-") term)*`` and so on down to
``primary``, with juxtaposition as multiplication; the grammar is written out in
:mod:`symdp.parsing`.  Every SymPy construction goes through the budget of
:class:`~symdp.parsing.budget._Builder`.
"""

from __future__ import annotations

import re

import sympy as sp

from .budget import MAX_DEPTH, MAX_DIGITS, MAX_SECONDS, _Builder, _Value, _expression_digits
from .latex import _LatexRules
from .plain import _PlainRules
from .tokens import _Problem, _Token
from .vocabulary import _CLOSING, _FUNCTIONS, _GREEK, _RELATIONS


class _Parser(_PlainRules, _LatexRules):
    """Recursive descent over the tokens; see :mod:`symdp.parsing` for the grammar.

    The rules both syntaxes share are here; :class:`~symdp.parsing.plain._PlainRules` and
    :class:`~symdp.parsing.latex._LatexRules` add what only one of them reads.
    """

    def __init__(self, tokens: list[_Token], latex: bool, symbols: dict,
                 seconds: float = MAX_SECONDS, evaluate: bool = True):
        self.tokens = tokens
        self.pos = 0
        self.latex = latex
        self.symbols = symbols
        self.build = _Builder(seconds, evaluate)
        self.depth = 0
        self.abs_open = False  # inside |...|, a '|' closes instead of opening
        self.bound = {}          # index names bound here (\sum_i, \max_{x \in S}) -> Symbol
        self.bound_names = set()  # every name bound somewhere in the formula
        self.bare = _bare_names(tokens)  # names the formula uses on their own (values)
        self.run_ends = _letter_runs(tokens)  # where each run of adjacent letters ends

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
        self.no_index_outside(value.expr)
        return value.expr

    def no_index_outside(self, expr) -> None:
        r"""Refuse an index used after its operator's body ended: ``\sum_i a_i - b_i`` reads
        as ``(\sum_i a_i) - b_i`` (``i`` free) or as ``\sum_i (a_i - b_i)``."""
        ended = self.bound_names - set(self.bound)  # bound, and out of scope here
        if not ended:
            return
        for symbol in expr.free_symbols:
            name = symbol.name if isinstance(symbol, sp.Symbol) else str(symbol)
            base, _, sub = name.partition("_")
            if name in ended or (sub and set(sub.split(",")) & ended):
                index = name if name in ended else next(iter(set(sub.split(",")) & ended))
                raise _Problem(1, f"the index {index} of a \\sum, \\prod, \\max or \\sup is "
                                  f"used after the term it applies to ({name}): write "
                                  "\\sum_i (a_i - b_i) for one operator over the whole, or "
                                  "(\\sum_i a_i) - b_j with another name")

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
        for side in sides:
            self.no_index_outside(side.expr)
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
        starts = [self.pos]
        factors = [self.unary()]
        while True:
            token = self.peek()
            if token.kind == "op" and token.value in ("*", "/"):
                slash = self.pos
                self.advance()
                factor = self.unary()
                if token.value == "/":
                    if self.starts_factor(self.peek()):
                        raise self.two_quotients(starts[-1], slash)
                    factor = self.build.inverse(factor, token.col)
                starts.append(slash + 1)
            elif self.starts_factor(token):
                if token.kind == "num":
                    raise _Problem(token.col, f"missing operator before the number "
                                              f"{token.shown()}")
                starts.append(self.pos)
                factor = self.power()
            else:
                break
            factors.append(factor)
            cols.append(token.col)
        return factors[0] if len(factors) == 1 else self.build.mul(factors, cols)

    def two_quotients(self, start: int, slash: int) -> _Problem:
        """``a/bc`` (``1/2n``, ``x/2y``, ``1/2\\pi``) reads as (a/b)·c or as a/(bc): refused,
        naming both."""
        def text(a, b):
            return " ".join(t.text for t in self.tokens[a:b])
        a, b = text(start, slash), text(slash + 1, self.pos)
        following = self.peek()
        c = following.text + ("…" if following.kind == "open" or following.kind == "cmd" and
                              following.value not in _GREEK else "")
        if self.latex:
            how = f"write \\frac{{{a}}}{{{b}}} {c} for the first, \\frac{{{a}}}{{{b} {c}}} " \
                  "for the second"
        else:
            how = f"write ({a}/{b})*{c} for the first, {a}/({b}*{c}) for the second"
        return _Problem(self.tokens[slash].col, f"'{a}/{b}{c}' has two readings: ({a}/{b})·{c} "
                                                f"and {a}/({b}·{c}); {how}")

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
        if token.kind == "op" and token.value == "‖" and self.latex:
            return self.norm(token)
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

    def norm(self, token: _Token) -> _Value:
        """``\\|x - x'\\|_1``, ``||x - x'||_1``: a norm (of vectors symdp does not know)."""
        self.advance()
        outer, self.abs_open = self.abs_open, False
        try:
            value = self.expression()
        finally:
            self.abs_open = outer
        if self.at("op", "‖"):
            self.advance()
        else:
            raise _Problem(self.peek().col, f"missing '{token.text}' to close the norm at "
                                            f"column {token.col}")
        return self.build_norm(token, value)

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
            if key in self.bound:  # an index bound by \sum_i, \max_{x \in S}
                return _Value(self.bound[key])
        for key in (typed, canonical):
            if key in self.symbols:
                value = self.symbols[key]
                return _Value(value, _expression_digits(value))
        return _Value(sp.Symbol(canonical))

    def name(self) -> _Value:
        token = self.advance()
        word = token.value
        if self.latex and word in ("max", "min") and self.at("op", "_"):
            return self.extremum(token, word)  # max_i G_i, typed without a backslash
        if self.latex and word in ("Var", "Variance", "var") and self.at("open"):
            return self.variance(token)
        if self.latex and token.text.startswith("\\") and self.at("open"):
            if word == "E":
                return self.expectation(token)  # \operatorname{E}[X]
            if word in ("P", "Pr"):
                return self.probability(token)
        if word in _FUNCTIONS:
            return self.latex_function(token) if self.latex else self.plain_call(token)
        if not self.latex:
            return self.plain_name(word)
        return self.latex_symbol(token, word)

    def apply(self, token: _Token, args: list[_Value]) -> _Value:
        name, fewest, most = _FUNCTIONS[token.value]
        if len(args) < fewest or (most is not None and len(args) > most):
            wanted = (f"{fewest}" if fewest == most else
                      f"at least {fewest}" if most is None else f"{fewest} or {most}")
            raise _Problem(token.col, f"{token.value} takes {wanted} "
                                      f"argument{'s' if wanted != '1' else ''}, got {len(args)}")
        return self.build.call(name, args, token.col)


def _bare_names(tokens: list[_Token]) -> set:
    """The names a formula uses on their own, not followed by ``(`` or ``[``: those stand for
    numbers, so ``p(1 - p)`` is a product.  Subscripted names count with a one-token or
    braced subscript of letters and digits (``x_1``, ``x_{ij}``)."""
    from .vocabulary import _CANONICAL, _GREEK

    found = set()
    n = len(tokens)
    for j, token in enumerate(tokens):
        if not (token.kind == "name" or token.kind == "cmd" and token.value in _GREEK):
            continue
        if j > 0 and tokens[j - 1].kind == "op" and tokens[j - 1].value == "_":
            continue  # a subscript, not a name
        name = _CANONICAL.get(token.value, token.value)
        k = j + 1
        if k < n and tokens[k].kind == "op" and tokens[k].value == "_":
            if k + 1 < n and tokens[k + 1].kind in ("name", "num"):
                name += "_" + tokens[k + 1].value
                k += 2
            elif k + 1 < n and tokens[k + 1].kind == "open" and tokens[k + 1].value == "{":
                parts, m = [], k + 2
                while m < n and tokens[m].kind in ("name", "num") or \
                        (m < n and tokens[m].kind == "op" and tokens[m].value == ","):
                    parts.append(tokens[m].value)
                    m += 1
                if not (m < n and tokens[m].kind == "close"):
                    continue
                name += "_" + "".join(parts)
                k = m + 1
            else:
                continue
        while k < n and tokens[k].kind == "op" and tokens[k].value == "'":
            name += "'"
            k += 1
        if k < n and tokens[k].kind == "open" and tokens[k].value in ("(", "["):
            continue
        found.add(name)
    return found


def _letter_runs(tokens: list[_Token]) -> dict:
    """For each token that starts or continues a run of adjacent one-letter names, the index
    just after the run (``score`` in ``score(x, c)``); computed once, in one pass."""
    ends, j, n = {}, 0, len(tokens)
    while j < n:
        k = j
        while k + 1 < n and tokens[k].kind == "name" and len(tokens[k].value) == 1 and \
                tokens[k + 1].kind == "name" and len(tokens[k + 1].value) == 1 and \
                tokens[k + 1].col == tokens[k].col + 1:
            k += 1
        for m in range(j, k + 1):
            ends[m] = k + 1
        j = k + 1
    return ends
