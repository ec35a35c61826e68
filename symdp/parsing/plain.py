"""Plain-syntax rules of the formula parser: ``exp(eps)*binomial(n, k)``.

A mixin of :class:`symdp.parsing.grammar._Parser`; see :mod:`symdp.parsing` for the grammar.
"""

from __future__ import annotations

from .budget import _Value
from .tokens import _Problem, _Token
from .vocabulary import _CANONICAL, _CONSTANTS


class _PlainRules:
    """The rules only the plain syntax has: calls ``f(args)``, constants, identifiers."""

    def plain_name(self, word: str) -> _Value:
        """A constant, or a symbol: ``eps`` is ``varepsilon``, ``x_1``, ``eps'``."""
        if word in _CONSTANTS:
            return _Value(_CONSTANTS[word])
        bare = word.rstrip("'")
        primes = word[len(bare):]
        base, _, subscript = bare.partition("_")
        canonical = _CANONICAL.get(base, base) + ("_" + subscript if subscript else "")
        return self.symbol(word, canonical + primes)

    def plain_call(self, token: _Token) -> _Value:
        if not self.at("open", "("):
            raise _Problem(token.col, f"{token.value} is a function: write "
                                      f"{token.value}(...)")
        args = self.arguments(self.advance())
        return self.apply(token, args)
