r"""LaTeX rules of the formula parser: ``\frac``, ``\binom``, ``x^{2}``, ``\log_{b}``, ``\Pr[E]``,
``\mathbb{E}[X]``, ``\max_i``, ``\sup_{x \in S}``, functions, accents, ...

A mixin of :class:`symdp.parsing.grammar._Parser`; see :mod:`symdp.parsing` for what is
read and how (TeX's one-token arguments: ``\frac12`` is 1/2; ``x^23`` is refused; notation
with two readings is refused, naming both).
"""

from __future__ import annotations

import re
from dataclasses import replace

import sympy as sp

from ..core.quantities import (Aggregate, Event, Expectation, Extremum, Indicator, Norm,
                               Probability, Text, Variance)
from .budget import MAX_DEPTH, _Value, _cost
from .tokens import _Problem, _Token
from .vocabulary import (_ACCENTS, _CANONICAL, _FUNCTIONS, _GREEK, _LATEX_CONSTANTS,
                         _LATEX_FUNCTION_COMMANDS)


#: most terms of a \sum or \prod whose limits are both numbers
MAX_TERMS = 1000

#: commands that are relations inside an event or a binder (``M(x) \in S``, ``x \sim x'``)
_SET_RELATIONS = frozenset("""in notin subseteq subset supseteq supset sim ne neq mid
    leftarrow gets to mapsto approx equiv cap cup setminus backslash wedge land vee lor
    neg lnot forall exists""".split())
_FONT_NAME = re.compile(r"(cal|bf|sf|frak|scr|bb)\(.*\)")
#: words that are not numbers: refused by name
_NOT_NUMBERS = {"argmax": "an index (argmax), not a number",
                "argmin": "an index (argmin), not a number", "set": "a set, not a number"}


def _identifier(token: _Token) -> bool:
    """A name or a Greek letter that could name a function: ``s``, ``\\phi``, ``F``."""
    return token.kind == "name" or (token.kind == "cmd" and token.value in _GREEK)


def _canonical(event: Event) -> tuple[Event, bool]:
    r"""One event as one relation ``d <= 0`` or ``d = 0`` (``d`` expanded, its sign fixed), so
    that ``\Pr[\Delta + Z \le T]`` and ``\Pr[Z \le T - \Delta]`` are one probability; a
    strict inequality is the complement of one: ``(event, True)`` for ``\Pr[X > t] =
    1 - \Pr[X - t \le 0]``.  An event that is not one relation is as written."""
    relation = event.relation
    if not isinstance(relation, (sp.Le, sp.Lt, sp.Ge, sp.Gt, sp.Eq)):
        return event, False
    d = sp.expand(relation.lhs - relation.rhs)
    if isinstance(relation, sp.Eq):
        d = -d if d.could_extract_minus_sign() else d
        form, complement = sp.Eq(d, 0, evaluate=False), False
    elif isinstance(relation, sp.Le):
        form, complement = sp.Le(d, 0, evaluate=False), False
    elif isinstance(relation, sp.Ge):
        form, complement = sp.Le(-d, 0, evaluate=False), False
    elif isinstance(relation, sp.Gt):   # d > 0 is not d <= 0
        form, complement = sp.Le(d, 0, evaluate=False), True
    else:                               # d < 0 is not -d <= 0
        form, complement = sp.Le(-d, 0, evaluate=False), True
    return Event(Text(sp.sstr(form)), form), complement


class _LatexRules:
    """The rules only LaTeX has: commands, TeX arguments, scripts, subscripts, primes,
    probabilities and expectations, bound indices, functions of several arguments."""

    # -- token helpers ---------------------------------------------------------------

    def matching(self, at: int) -> int:
        """The index of the token that closes the group opened at ``self.tokens[at]``
        (any kind of bracket: ``[0, 1)`` is a group), or the end token's index."""
        depth = 0
        for j in range(at, len(self.tokens)):
            kind = self.tokens[j].kind
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth -= 1
                if depth == 0:
                    return j
            elif kind == "end":
                return j
        return len(self.tokens) - 1

    def top_level(self, start: int, stop: int, test) -> list[int]:
        """Indices ``j`` in ``[start, stop)`` at bracket depth 0 where ``test(token)``."""
        found, depth = [], 0
        for j in range(start, stop):
            token = self.tokens[j]
            if token.kind == "open":
                depth += 1
            elif token.kind == "close":
                depth -= 1
            elif depth == 0 and test(token):
                found.append(j)
        return found

    @staticmethod
    def is_separator(token: _Token) -> bool:
        return token.kind == "op" and token.value in (",", "‖")

    @staticmethod
    def is_event_relation(token: _Token) -> bool:
        return token.kind == "rel" or (token.kind == "cmd" and token.value in _SET_RELATIONS) \
            or (token.kind == "op" and token.value == "|")

    def source(self, start: int, stop: int) -> str:
        """The text of tokens ``[start, stop)`` as one canonical spelling (a space only after a
        control word before a letter), so that two spellings of one formula agree
        (``\\Pr[Y\\in S]`` and ``\\Pr[ Y \\in S ]``, ``\\left(`` and ``(``)."""
        out = ""
        for token in self.tokens[start:stop]:
            if token.kind == "end":
                break
            text = token.text.strip()
            if re.search(r"\\[A-Za-z]+$", out) and text[:1].isalpha():
                out += " "
            out += text
        return out

    def subparse(self, start: int, stop: int, entry):
        """Parse tokens ``[start, stop)`` with ``entry`` (a method of a parser) in a parser
        that shares this one's symbols, budget and depth; raises ``_Problem``."""
        end = self.tokens[stop] if stop < len(self.tokens) else self.tokens[-1]
        sub = type(self).__new__(type(self))
        sub.__dict__.update(self.__dict__)
        sub.tokens = self.tokens[start:stop] + [_Token("end", "", end.col, "")]
        sub.pos = 0
        sub.abs_open = False
        sub.bound_names = set()
        from .grammar import _bare_names, _letter_runs  # token indices are the slice's own

        sub.run_ends = _letter_runs(sub.tokens)
        sub.bare = self.bare | _bare_names(sub.tokens)
        result = entry(sub)
        self.bound_names |= sub.bound_names
        return result

    def mentioned(self, start: int, stop: int) -> sp.Tuple:
        """The symbols tokens ``[start, stop)`` mention (``c_j``, ``\\Delta_\\infty``, ``x'``):
        what an event or a body read as text depends on."""
        names, j = [], start
        while j < stop:
            token = self.tokens[j]
            if _identifier(token) and not (token.kind == "cmd" and token.value not in _GREEK):
                base = _CANONICAL.get(token.value, token.value)
                k = j + 1
                if k < stop and self.tokens[k].kind == "op" and self.tokens[k].value == "_" \
                        and k + 1 < stop and self.tokens[k + 1].kind in ("name", "num", "cmd"):
                    base += "_" + _CANONICAL.get(self.tokens[k + 1].value,
                                                 self.tokens[k + 1].value)
                    k += 2
                while k < stop and self.tokens[k].kind == "op" and self.tokens[k].value == "'":
                    base += "'"
                    k += 1
                names.append(base)
                j = k
                continue
            j += 1
        symbols = []
        for name in dict.fromkeys(names):
            value = self.bound.get(name) or self.symbols.get(name)
            symbols.append(value if isinstance(value, sp.Basic) and not
                           isinstance(value, sp.Lambda) else sp.Symbol(name))
        return sp.Tuple(*symbols)

    def event(self, start: int, stop: int) -> Event:
        """An event as written between tokens ``start`` and ``stop``: its relation when the
        grammar reads it (``X \\ge t``), else the symbols it mentions."""
        text = self.source(start, stop)
        try:
            content = self.subparse(start, stop, type(self).relation)
        except _Problem:
            content = self.mentioned(start, stop)
        return Event(Text(text), content)

    def body(self, start: int, stop: int):
        """The body of an expectation or variance: a formula, or an :class:`Event`-like
        record of its text and symbols when the grammar does not read it."""
        try:
            return self.subparse(start, stop, type(self).formula)
        except _Problem:
            return Event(Text(self.source(start, stop)), self.mentioned(start, stop))

    # -- commands --------------------------------------------------------------------

    def command(self) -> _Value:
        token = self.advance()
        name = token.value
        if name in _GREEK:
            return self.latex_symbol(token, name)
        if name == "Phi" or name in _LATEX_FUNCTION_COMMANDS:
            if name in ("max", "min") and self.at("op", "_"):
                return self.extremum(token, name)
            return self.latex_function(token)
        if name == "infty":
            return _Value(sp.oo)
        if name in ("sum", "prod"):
            return self.big_operator(token)
        if name in ("sup", "inf"):
            return self.extremum(token, name)
        if name in ("Pr", "Prob"):
            return self.probability(token)
        if name == "Expectation":
            return self.expectation(token)
        if name == "Indicator":
            return self.indicator(token)
        if name == "Var":
            return self.variance(token)
        if name in ("underset", "mathop"):
            return self.underset(token)
        if name in _ACCENTS:
            return self.accent(token)
        if name == "abs":
            return self.build.call("Abs", [self.tex_argument(token)], token.col)
        if name in ("norm", "lVert"):
            return self.build_norm(token, self.tex_argument(token))
        if name in _NOT_NUMBERS:
            raise _Problem(token.col, f"{token.shown()} is {_NOT_NUMBERS[name]}")
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
        if name in _SET_RELATIONS or name in ("cdots", "ldots", "dots", "cdot"):
            raise _Problem(token.col, f"unexpected {token.shown()} in a formula")
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

    # -- names, subscripts, functions --------------------------------------------------

    def latex_symbol(self, token: _Token, base: str) -> _Value:
        """A letter, Greek command or word with optional subscript and primes; applied to
        arguments when it names a function (see :meth:`application`)."""
        if token.kind == "name" and len(base) == 1 and base.isalpha():
            run = self.letter_run(token)
            if run is not None:
                return run
        subscript, primes, sub_tokens = "", "", None
        while True:
            if self.at("op", "_") and not subscript:
                self.advance()
                start = self.pos
                subscript = self.subscript()
                sub_tokens = (start, self.pos)
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
            return _Value(_LATEX_CONSTANTS[base])  # e(1 - x), \pi(2) are products
        canonical = _CANONICAL.get(base, base)
        if subscript and sub_tokens and self.mentions_bound(*sub_tokens):  # x_i under \sum_i
            indices = self.indices(*sub_tokens)
            if self.at("open", "("):  # f_i(v_i) under \sum_i: the i-th function, applied
                name = f"{canonical}_{subscript}{primes}"
                if self.declared(name, name) is None and self.declared(canonical, canonical) \
                        is None:
                    raise _Problem(token.col, f"'{token.text}_{{{subscript}}}(...)' has two "
                                              f"readings: the function {token.text}_{subscript} "
                                              "applied to (...), or the indexed value times "
                                              f"(...); declare '% symdp: function {token.text}_"
                                              f"{subscript}' for the first, write '\\cdot' "
                                              "for the second")
                function = sp.Function(f"{canonical}_", real=True)
                value = self.applied(token, f"{canonical}_", function)
                return _Value(value.expr.func(*value.expr.args, *indices), value.digits,
                              value.roots, value.q)
            return _Value(sp.Indexed(sp.IndexedBase(canonical + primes), *indices))
        suffix = ("_" + subscript if subscript else "") + primes
        opening = self.peek()
        if opening.kind == "open" and opening.value in ("(", "[", "\\{") or \
                (self.at("op", "^") and self.declared(base + suffix, canonical + suffix)):
            applied = self.application(token, base, subscript, primes)
            if applied is not None:
                return applied
        return self.symbol(base + suffix, canonical + suffix)

    def declared(self, typed: str, canonical: str):
        """The caller's function of this name: a :class:`sympy.Lambda` (a ``let``) or an
        undefined function (``% symdp: function s``); None if it names none."""
        for key in (typed, canonical):
            value = self.symbols.get(key)
            if isinstance(value, sp.Lambda) or isinstance(value, sp.core.function.FunctionClass):
                return value
        return None

    def is_value(self, typed: str, canonical: str) -> bool:
        """Whether a name is known to stand for a number here: the caller gave it (an
        assumption, a ``let``), it is a bound index, or the formula uses it on its own."""
        for key in (typed, canonical):
            if key in self.bound or key in self.bare:
                return True
            value = self.symbols.get(key)
            if isinstance(value, sp.Basic) and not isinstance(value, sp.Lambda):
                return True
        return False

    def mentions_bound(self, start: int, stop: int) -> bool:
        return any(_identifier(t) and _CANONICAL.get(t.value, t.value) in self.bound
                   for t in self.tokens[start:stop])

    def indices(self, start: int, stop: int) -> list:
        """The index expressions of a subscript that mentions a bound index (``_i``,
        ``_{i+1}``, ``_{i,j}``)."""
        if self.tokens[start].kind == "open":
            start, stop = start + 1, stop - 1
        pieces, first = [], start
        for j in self.top_level(start, stop, lambda t: t.kind == "op" and t.value == ",") + [stop]:
            pieces.append(self.subparse(first, j, type(self).formula))
            first = j + 1
        return pieces

    def is_bound_subscript(self, subscript: str) -> bool:
        parts = subscript.split(",")
        return all(part in self.bound for part in parts)

    def application(self, token: _Token, base: str, subscript: str, primes: str):
        """``f(x)`` read as an application, or None when it is a product.

        An application: a ``let`` function (``f_p(x)``), its derivative (``f'(z)`` for a
        ``let f(z) = ...``), a family (``G_\\mu(x)``), a declared function (``% symdp:
        function s``), a word (``\\operatorname{score}(x)``), any name with several
        arguments (``D_\\alpha(P \\| Q)``), ``P(K = k)`` and ``P[X \\ge t]`` (a probability).
        A product: a name known to stand for a number (``p(1-p)`` with ``p`` assumed, or
        used on its own in the formula).  Anything else has two readings and is refused."""
        canonical = _CANONICAL.get(base, base)
        typed = base + ("_" + subscript if subscript else "") + primes
        name = canonical + ("_" + subscript if subscript else "") + primes
        function = self.declared(typed, name)
        opening_at = self.pos
        if self.at("op", "^"):  # f^2(x) for a declared function: (f(x))^2
            caret = self.advance()
            power = self.script()
            if not self.at("open", "("):
                raise _Problem(caret.col, f"{name}^... must be applied: {name}^{{2}}(x)")
            value = self.application(token, base, subscript, primes)
            return self.build.pow(value, power, caret.col)
        opening = self.peek()
        close = self.matching(opening_at)
        separators = self.top_level(opening_at + 1, close, self.is_separator)
        relations = self.top_level(opening_at + 1, close, self.is_event_relation)
        if isinstance(function, sp.Lambda) and opening.value == "(":
            return self.function_at(token, name, function)
        if primes and not subscript and opening.value == "(":
            root = self.declared(canonical, canonical)
            if isinstance(root, sp.Lambda) and len(root.variables) == 1:
                variable = root.variables[0]
                derivative = sp.Lambda(variable, sp.diff(root.expr, variable, len(primes)))
                return self.function_at(token, name, derivative)
        if subscript and not primes and opening.value == "(":
            family = self.symbols.get(base + "_")
            if isinstance(family, sp.Lambda):
                return self.family_at(token, base, subscript, family)
        if base == "P" and not subscript and not primes and relations:
            return self.probability(token)
        if function is not None and opening.value == "(":
            return self.applied(token, name, function)
        word = token.kind == "name" and len(base) > 1 and token.text.startswith("\\") \
            and not _FONT_NAME.fullmatch(base)
        if opening.value == "(" and (word or separators or relations):
            # a word (\operatorname{score}), several arguments, or an event (\#(x < C_i)):
            # no product reads so
            return self.applied(token, name, sp.Function(name, real=True))
        if self.is_value(typed, name):
            return None
        if opening.value == "(" or (base in ("E", "P") and opening.value == "["):
            inner = self.source(opening_at + 1, close)
            shown = self.source(opening_at, close + 1)
            typed = token.text + ("_{" + subscript + "}" if subscript else "") + primes
            what = f"{typed}{shown}"
            product = f"{typed} \\cdot {shown}"
            if base == "E" and opening.value == "[":
                raise _Problem(token.col, f"'{what}' has two readings: an expectation, or "
                                          f"{typed} times [{inner}]; write \\mathbb{{E}}"
                                          f"[{inner}] for the first, '{product}' for the second")
            raise _Problem(token.col, f"'{what}' has two readings: the function {typed} "
                                      f"applied to {inner}, or the product {typed}·({inner}); "
                                      f"declare '% symdp: function {typed}' for the first, "
                                      f"write '{product}' for the second")
        return None

    def applied(self, token: _Token, name: str, function) -> _Value:
        """An undefined function applied to its arguments (events allowed: ``\\#(x < C_i)``),
        then indexed by a subscript if one follows (``f(x)_i``)."""
        opening = self.advance()
        close = self.matching(self.pos - 1)
        pieces, start = [], self.pos
        for j in self.top_level(self.pos, close, self.is_separator) + [close]:
            if j == start:
                raise _Problem(self.tokens[j].col, "missing argument")
            if self.top_level(start, j, self.is_event_relation):
                pieces.append(self.event(start, j))
            else:
                pieces.append(self.subparse(start, j, type(self).formula))
            start = j + 1
        self.pos = close
        self.expect_close(opening)
        if self.at("op", "_"):  # f(x)_i: the i-th component
            self.advance()
            index = self.subscript()
            if self.is_bound_subscript(index):
                function = sp.Function(f"{name}_", real=True)
                pieces += [self.bound[part] for part in index.split(",")]
            else:
                function = sp.Function(f"{name}_{index}", real=True)
        digits, roots, q = _cost([_Value(p) for p in pieces])
        self.build.check(digits, roots, q, token.col)
        return _Value(function(*pieces), digits, roots, q)

    def letter_run(self, token: _Token):
        """``score(x, c, \\alpha)``: adjacent letters before a parenthesised list of several
        arguments name one function (a product with a tuple means nothing); else None."""
        j = self.run_ends.get(self.pos - 1, self.pos)
        if j - self.pos < 1 or not self.at("open", "(", j - self.pos):
            return None
        letters = self.tokens[self.pos - 1:j]
        if not all(t.value.isalpha() for t in letters) or \
                not (self.tokens[j].kind == "open" and
                                    self.tokens[j].value == "(" and
                                    self.tokens[j].col == letters[-1].col + 1):
            return None
        close = self.matching(j)
        if not self.top_level(j + 1, close, self.is_separator):
            return None
        self.pos = j
        name = "".join(t.value for t in letters)
        return self.applied(token, name, sp.Function(name, real=True))

    def subscript(self) -> str:
        """The text of a subscript: letters, digits, Greek commands, words and primes."""
        token = self.peek()
        if token.kind == "num":
            return str(int(self.single_digit("_").expr))
        if token.kind in ("name", "cmd") and (token.kind == "name" or token.value in _GREEK):
            self.advance()
            return _CANONICAL.get(token.value, token.value)
        if token.kind == "cmd" and token.value == "infty":
            self.advance()
            return "infty"
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
            elif token.kind == "cmd" and token.value == "infty":
                parts.append("infty")
            elif token.kind == "op" and token.value in (",", "'", "+", "-", "*", "_"):
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

    def accent(self, token: _Token) -> _Value:
        """``\\bar x``, ``\\hat\\sigma``, ``\\widehat{\\mu}``, ``\\hat{N_i}``: the name
        ``bar(x)``, ``hat(sigma)``, ``hat(mu)``, ``hat(N_i)`` (with its own subscripts and
        primes after it); an accent over an expression is refused."""
        kind = _ACCENTS[token.value]
        if self.at("open", "{"):
            opening = self.advance()
            inner_token = self.peek()
            if not _identifier(inner_token):
                raise _Problem(inner_token.col, f"{token.shown()} over {inner_token.shown()}: "
                                                "an accent names a symbol (\\bar{x})")
            self.advance()
            inner = _CANONICAL.get(inner_token.value, inner_token.value)
            if self.at("op", "_"):
                self.advance()
                sub_start = self.pos
                subscript = self.subscript()
                if self.mentions_bound(sub_start, self.pos):  # \hat{N_i} under \sum_i
                    indices = self.indices(sub_start, self.pos)
                    self.expect_close(opening)
                    return _Value(sp.Indexed(sp.IndexedBase(f"{kind}({inner})"), *indices))
                inner += "_" + subscript
            while self.at("op", "'"):
                self.advance()
                inner += "'"
            if not self.at("close", "}"):
                raise _Problem(self.peek().col, f"{token.shown()} over an expression: an "
                                                "accent names a symbol (\\bar{x})")
            self.expect_close(opening)
        else:
            inner_token = self.peek()
            if not _identifier(inner_token):
                raise _Problem(inner_token.col, f"{token.shown()} needs a symbol (\\bar x)")
            self.advance()
            inner = _CANONICAL.get(inner_token.value, inner_token.value)
        name = f"{kind}({inner})"
        return self.latex_symbol(replace(token, kind="name", value=name), name)

    # -- probabilities, expectations, binders ------------------------------------------

    def delimited(self, what: _Token) -> tuple[int, int]:
        """The token range inside the ``[...]``, ``(...)`` or ``\\{...\\}`` after ``what``;
        the parser moves past the closing delimiter."""
        opening = self.peek()
        if opening.kind != "open" or opening.value not in ("[", "(", "\\{", "{"):
            raise _Problem(opening.col, f"{what.shown()} needs its argument in brackets, "
                                        f"e.g. {what.text}[X \\ge t]")
        at = self.pos
        close = self.matching(at)
        if self.tokens[close].kind != "close":
            self.pos = close
            self.expect_close(opening)
        self.pos = close + 1
        return at + 1, close

    def binder_script(self, pairs: bool = False) -> tuple[str, tuple]:
        """A subscript that binds (``_{x \\sim P}``, ``_{i \\in S}``, ``_i``): its text and
        the names it binds (those before the first relation, else all of them; with
        ``pairs``, ``x \\sim x'`` binds both, the neighbouring pair of a maximum)."""
        if not self.at("op", "_"):
            return "", ()
        self.advance()
        if self.at("open", "{"):
            start, stop = self.delimited(self.peek())
        else:
            start, stop = self.pos, self.pos + 1
            self.pos += 1
        text = self.source(start, stop)
        relation = self.top_level(start, stop, lambda t: self.is_event_relation(t) or
                                  t.kind == "op" and t.value == ":")
        last = relation[0] if relation else stop
        if pairs and relation and self.tokens[relation[0]].value == "sim":
            last = relation[1] if len(relation) > 1 else stop  # max_{x ~ x'}: both bound
        names, j = [], start
        while j < last:
            token = self.tokens[j]
            if _identifier(token):
                name = _CANONICAL.get(token.value, token.value)
                j += 1
                while j < last and self.tokens[j].kind == "op" and self.tokens[j].value == "'":
                    name += "'"
                    j += 1
                names.append(name)
                continue
            j += 1
        if not names:
            raise _Problem(self.tokens[start].col if start < len(self.tokens) else 1,
                           f"the subscript '{text}' binds no variable")
        return text, tuple(dict.fromkeys(names))

    def bound_body(self, names: tuple, integer: bool = False) -> tuple[_Value, tuple]:
        """The term after a binder, with ``names`` bound in it (``x_i`` is ``x[i]``)."""
        symbols = tuple(sp.Symbol(n, integer=True) if integer else sp.Symbol(n) for n in names)
        outer = self.bound
        self.bound = {**outer, **dict(zip(names, symbols))}
        self.bound_names |= set(names)
        try:
            body = self.term()
        finally:
            self.bound = outer
        return body, symbols

    def extremum(self, token: _Token, kind: str) -> _Value:
        """``\\max_i |x_i|``, ``\\sup_{x \\in S} f(x)``: the extremum of the term that follows
        over the subscript's variables (an :class:`~symdp.core.quantities.Extremum`)."""
        text, names = self.binder_script(pairs=True)
        if not names:
            raise _Problem(token.col, f"{token.shown()} needs a subscript naming what it "
                                      f"ranges over, e.g. \\{kind}_{{x \\in S}}")
        body, symbols = self.bound_body(names)
        return _Value(Extremum(Text(kind), body.expr, Text(text), sp.Tuple(*symbols)),
                      body.digits, body.roots, body.q)

    def probability(self, token: _Token, under: str = "") -> _Value:
        """``\\Pr[E]``, ``\\Pr(E)``, ``\\mathbb{P}[E]``, ``P(K = k)``, ``\\Pr_{x \\sim D}[E]``."""
        if self.at("op", "_"):
            under, _ = self.binder_script()
        start, stop = self.delimited(token)
        event = self.event(start, stop)
        if under:
            return _Value(Probability(Event(Text(f"{under}: {event.text}"), event.args[1])))
        event, complement = _canonical(event)
        return _Value(1 - Probability(event) if complement else Probability(event))

    def expectation(self, token: _Token, under: str = "") -> _Value:
        """``\\mathbb{E}[X]``, ``\\mathbb{E}_{x \\sim P}[f(x)]``, ``\\underset{Z}{\\mathbb{E}}[Z]``."""
        if self.at("op", "_"):
            under, names = self.binder_script()
        start, stop = self.delimited(token)
        return _Value(Expectation(self.body(start, stop), Text(under)))

    def variance(self, token: _Token) -> _Value:
        """``\\operatorname{Var}(X)``, ``\\mathbb{V}[X]``."""
        start, stop = self.delimited(token)
        return _Value(Variance(self.body(start, stop)))

    def indicator(self, token: _Token) -> _Value:
        """``\\mathbb{I}[Y \\in E]``, ``\\mathbf{1}\\{X > t\\}``."""
        if self.at("op", "_"):  # \mathbb{1}_{X > t}
            self.advance()
            if not self.at("open", "{"):
                raise _Problem(self.peek().col, "an indicator needs its event: \\mathbb{1}_{X > t}")
        start, stop = self.delimited(token)
        return _Value(Indicator(self.event(start, stop)))

    def underset(self, token: _Token) -> _Value:
        """``\\underset{Z \\sim P}{\\mathbb{E}}[Z]`` (the law under the operator) and
        ``\\mathop{\\mathbb{E}}[Z]``."""
        under = ""
        if token.value == "underset":
            start, stop = self.delimited(token)
            under = self.source(start, stop)
        start, stop = self.delimited(token)
        if stop != start + 1:
            raise _Problem(token.col, f"{token.shown()} is read over \\mathbb{{E}}, \\Pr, "
                                      "\\max, \\min, \\sup or \\inf only")
        operator = self.tokens[start]
        if operator.value == "Expectation":
            return self.expectation(operator, under)
        if operator.value in ("Pr", "Prob"):
            return self.probability(operator, under)
        if operator.value in ("max", "min", "sup", "inf") and under:
            names = self.binder_names(under)
            body, symbols = self.bound_body(names)
            return _Value(Extremum(Text(operator.value), body.expr, Text(under),
                                   sp.Tuple(*symbols)), body.digits, body.roots, body.q)
        raise _Problem(token.col, f"{token.shown()} is read over \\mathbb{{E}}, \\Pr, \\max, "
                                  "\\min, \\sup or \\inf only")

    @staticmethod
    def binder_names(text: str) -> tuple:
        r"""The names a binder written as text binds (``x \sim P`` binds ``x``)."""
        names = re.findall(r"\\?[A-Za-z]+'*", re.split(r"\\(?:in|sim|leftarrow|subseteq)\b|=|:",
                                                     text)[0])
        return tuple(_CANONICAL.get(n.lstrip("\\"), n.lstrip("\\")) for n in names) or ("x",)

    def build_norm(self, token: _Token, body: _Value) -> _Value:
        kind = ""
        if self.at("op", "_"):
            self.advance()
            kind = self.subscript()
        return _Value(Norm(body.expr, Text(kind)), body.digits, body.roots, body.q)

    def big_operator(self, token: _Token) -> _Value:
        """``\\sum_{i=1}^{n} body`` and ``\\prod``: the body is the term that follows
        (``\\sum_{i=1}^{n} i + 1`` is the sum, plus 1); the index is bound, and a subscripted
        name with the index (``x_i``) is the indexed ``x[i]``.  Over a set (``\\sum_{y \\in S}``,
        ``\\sum_i``, ``\\prod_{j \\ne k}``) it is an
        :class:`~symdp.core.quantities.Aggregate` symdp does not evaluate."""
        lower_script = upper_script = None
        for _ in range(2):
            if self.at("op", "_") and lower_script is None:
                lower_script = self.pos
                self.advance()
                if self.at("open", "{"):
                    self.pos = self.matching(self.pos) + 1
                else:
                    self.advance()
            elif self.at("op", "^") and upper_script is None:
                self.advance()
                upper_script = self.pos
                if self.at("open", "{"):
                    self.pos = self.matching(self.pos) + 1
                else:
                    self.advance()
        if lower_script is None:
            raise _Problem(self.peek().col, f"{token.shown()} needs its limits, e.g. "
                                            f"\\{token.value}_{{i=1}}^{{n}}")
        after = self.pos
        self.pos = lower_script
        if self.at("open", "{", 1) and self.at("rel", "=", 3) and _identifier(self.peek(2)) \
                and upper_script is not None:
            return self.sum_with_limits(token, upper_script, after)
        text, names = self.binder_script(pairs=True)
        if upper_script is not None:
            self.pos = upper_script
            self.pos = self.matching(self.pos) + 1 if self.at("open", "{") else self.pos + 1
            text += " ^ " + self.source(upper_script, self.pos)
        self.pos = after
        body, symbols = self.bound_body(names)
        return _Value(Aggregate(Text(token.value), body.expr, Text(text), sp.Tuple(*symbols)),
                      body.digits, body.roots, body.q)

    def sum_with_limits(self, token: _Token, upper_at: int, after: int) -> _Value:
        self.advance()  # _
        opening = self.advance()
        index = self.advance()
        if not (index.kind == "name" and len(index.value) == 1 or
                index.kind == "cmd" and index.value in _GREEK):
            raise _Problem(index.col, f"expected the index of {token.shown()} (one letter), "
                                      f"got {index.shown()}")
        self.advance()  # =
        lower = self.expression()
        self.expect_close(opening)
        self.pos = upper_at
        upper = self.script()
        self.pos = after
        if (upper.expr - lower.expr).is_number and upper.expr - lower.expr > MAX_TERMS:
            raise _Problem(token.col, f"{token.shown()} of more than {MAX_TERMS} terms with "
                                      "numeric limits")
        name = _CANONICAL.get(index.value, index.value)
        body, (bound,) = self.bound_body((name,), integer=True)
        digits, roots, q = _cost([lower, upper, body])
        self.build.check(digits, roots, q, token.col)
        operator = sp.Sum if token.value == "sum" else sp.Product
        return _Value(operator(body.expr, (bound, lower.expr, upper.expr)), digits, roots, q)

    def latex_function(self, token: _Token) -> _Value:
        """``\\ln``, ``\\log_{b}``, ``\\Phi^{-1}``, ``\\min\\{a, b\\}`` and friends.

        A bare argument (``\\ln x``) is the next factor; where what follows could also be
        read as part of the argument (``\\ln xy``, ``\\exp xy``, ``\\ln 2\\pi``, ``\\ln x/y``,
        ``\\ln x^2``) both readings are used and the formula is refused, naming them."""
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
        else:  # the argument is the next factor: \ln x, \ln 2, \ln\frac{a}{b}
            start = self.pos
            args = [self.unary()]
            self.bare_argument(token, start)
        if base is not None:
            if len(args) != 1:
                raise _Problem(token.col, f"{token.shown()} with a base takes 1 argument")
            args.append(base)
        value = self.apply(function, args)
        if power is not None:
            value = self.build.pow(value, power, token.col)
        return value

    def bare_argument(self, token: _Token, start: int) -> None:
        """Refuse a bare argument that has two readings (see :meth:`latex_function`)."""
        argument = self.source(start, self.pos)
        after = self.peek()
        word = token.text
        carets = self.top_level(start, self.pos, lambda t: t.kind == "op" and t.value == "^")
        first = self.tokens[start]
        if first.kind == "cmd" and first.value in ("sum", "prod", "sup", "inf", "max", "min",
                                                   "frac", "dfrac", "tfrac", "binom", "sqrt"):
            carets = []  # \ln \prod_{i=1}^{d} ...: the limits of the argument's own operator
        euler = carets and carets[0] == start + 1 and self.tokens[start].value == "e"
        if carets and not euler:  # \ln e^{x} is ln(e^x): (ln e)^x = 1 is nobody's reading
            root, power = self.source(start, carets[0]), self.source(carets[0] + 1, self.pos)
            raise _Problem(token.col, f"'{word} {argument}' has two readings: {word}({argument}) "
                                      f"and ({word} {root})^{power}; write {word}\\left("
                                      f"{argument}\\right) for the first, \\left({word} {root}"
                                      f"\\right)^{power} for the second")
        follows = after.kind in ("num", "name", "open") or \
            (after.kind == "cmd" and after.value not in _LATEX_FUNCTION_COMMANDS and
             after.value not in ("Phi", "Pr", "Expectation", "sum", "prod", "sup", "inf")) or \
            (after.kind == "op" and after.value in ("/", "|") and
             not (after.value == "|" and self.abs_open))
        if follows:
            rest = after.text + ("…" if after.kind == "open" or after.kind == "cmd" and
                                 after.value not in _GREEK else "")
            raise _Problem(token.col, f"'{word} {argument}{rest}' has two readings: "
                                      f"({word} {argument})·{rest} and {word}({argument}{rest}); "
                                      f"write \\left({word} {argument}\\right){rest} for the "
                                      f"first, {word}\\left({argument}{rest}\\right) for the "
                                      "second")
