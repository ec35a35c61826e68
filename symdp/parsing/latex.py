"""LaTeX rules of the formula parser: ``\\frac``, ``\\binom``, ``x^{2}``, ``\\log_{b}``, ...

A mixin of :class:`symdp.parsing.grammar._Parser`; see :mod:`symdp.parsing` for what is
read and how (TeX's one-token arguments: ``\\frac12`` is 1/2; ``x^23`` is refused).
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from .budget import MAX_DEPTH, _Value, _cost
from .tokens import _Problem, _Token
from .vocabulary import _CANONICAL, _FUNCTIONS, _GREEK, _LATEX_CONSTANTS, _LATEX_FUNCTION_COMMANDS


#: most terms of a \sum or \prod whose limits are both numbers
MAX_TERMS = 1000


class _LatexRules:
    """The rules only LaTeX has: commands, TeX arguments, scripts, subscripts, primes."""

    def command(self) -> _Value:
        token = self.advance()
        name = token.value
        if name in _GREEK:
            return self.latex_symbol(token, name)
        if name == "Phi" or name in _LATEX_FUNCTION_COMMANDS:
            return self.latex_function(token)
        if name == "infty":
            return _Value(sp.oo)
        if name in ("sum", "prod"):
            return self.big_operator(token)
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
        suffix = ("_" + subscript if subscript else "") + primes
        if self.at("open", "("):
            function = self.symbols.get(base + suffix)
            if isinstance(function, sp.Lambda):  # a caller's function: f_p(x)
                return self.function_at(token, base + suffix, function)
            family = self.symbols.get(base + "_") if subscript and not primes else None
            if isinstance(family, sp.Lambda):
                return self.family_at(token, base, subscript, family)
        canonical = _CANONICAL.get(base, base)
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

    def function_at(self, token: _Token, name: str, function: sp.Lambda) -> _Value:
        """``f_p(x)`` for a name the caller maps to a :class:`sympy.Lambda`: applied to the
        arguments in parentheses."""
        opening = self.advance()
        args = self.arguments(opening)
        if len(args) != len(function.variables):
            raise _Problem(opening.col, f"{name} takes {len(function.variables)} argument"
                                        f"{'s' if len(function.variables) != 1 else ''}, "
                                        f"got {len(args)}")
        digits, roots, q = _cost(args)
        self.build.check(digits, roots, q, token.col)
        try:
            expr = function(*(a.expr for a in args))
        except (TypeError, ValueError) as error:
            raise _Problem(token.col, f"{name}: {error}") from None
        return _Value(expr, digits, roots, q)

    def family_at(self, token: _Token, base: str, subscript: str, family: sp.Lambda) -> _Value:
        """``G_\\mu(x)``, ``f_{\\varepsilon,\\delta}(x)``: a family the caller maps ``base_`` to.

        ``symbols[base + "_"]`` is a :class:`sympy.Lambda` whose variables are the
        subscript's comma-separated parameters, then the one argument in parentheses.
        """
        parts = subscript.split(",")
        wanted = len(family.variables) - 1
        if len(parts) != wanted:
            raise _Problem(token.col, f"{base}_{{...}} takes {wanted} subscript"
                                      f"{'s' if wanted != 1 else ''} before its argument, "
                                      f"got {len(parts)} ('{subscript}')")
        parameters = [_Value(sp.Integer(int(part)), len(part)) if part.isdigit() else
                      self.symbol(part, _CANONICAL.get(part, part)) for part in parts]
        opening = self.advance()
        args = self.arguments(opening)
        if len(args) != 1:
            raise _Problem(opening.col, f"{base}_{{{subscript}}} takes 1 argument, "
                                        f"got {len(args)}")
        values = [*parameters, *args]
        digits, roots, q = _cost(values)
        self.build.check(digits, roots, q, token.col)
        try:
            expr = family(*(v.expr for v in values))
        except (TypeError, ValueError) as error:  # a parameter out of the family's range
            raise _Problem(token.col, f"{base}_{{{subscript}}}: {error}") from None
        return _Value(expr, digits, roots, q)

    def big_operator(self, token: _Token) -> _Value:
        """``\\sum_{i=1}^{n} body`` and ``\\prod``: the body is the term that follows
        (``\\sum_{i=1}^{n} i + 1`` is the sum, plus 1); the index is bound."""
        if not self.at("op", "_"):
            raise _Problem(self.peek().col, f"{token.shown()} needs its limits, e.g. "
                                            f"\\{token.value}_{{i=1}}^{{n}}")
        self.advance()
        if not self.at("open", "{"):
            raise _Problem(self.peek().col, f"expected '{{' with the index and lower limit "
                                            f"of {token.shown()}, e.g. _{{i=1}}")
        opening = self.advance()
        index = self.peek()
        if not (index.kind == "name" and len(index.value) == 1 or
                index.kind == "cmd" and index.value in _GREEK):
            raise _Problem(index.col, f"expected the index of {token.shown()} (one letter), "
                                      f"got {index.shown()}")
        self.advance()
        if not self.at("rel", "="):
            raise _Problem(self.peek().col, f"expected '=' after the index of {token.shown()}")
        self.advance()
        lower = self.expression()
        self.expect_close(opening)
        if not self.at("op", "^"):
            raise _Problem(self.peek().col, f"{token.shown()} needs an upper limit: "
                                            "^{n}")
        self.advance()
        upper = self.script()
        if (upper.expr - lower.expr).is_number and upper.expr - lower.expr > MAX_TERMS:
            raise _Problem(token.col, f"{token.shown()} of more than {MAX_TERMS} terms with "
                                      "numeric limits")
        name = _CANONICAL.get(index.value, index.value)
        bound = sp.Symbol(name, integer=True)
        outer = self.symbols
        self.symbols = {**outer, name: bound}
        try:
            body = self.term()
        finally:
            self.symbols = outer
        digits, roots, q = _cost([lower, upper, body])
        self.build.check(digits, roots, q, token.col)
        operator = sp.Sum if token.value == "sum" else sp.Product
        return _Value(operator(body.expr, (bound, lower.expr, upper.expr)), digits, roots, q)

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
