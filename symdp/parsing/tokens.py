"""Tokens of a typed formula: :func:`_tokenize` for plain text and LaTeX.

Each token carries its normalised value (``<=`` for ``\\le``, ``varepsilon`` for ``ε``) and
its 1-based column; a character outside the vocabulary is a :class:`_Problem` at its
column, which :mod:`symdp.parsing` turns into a ``ParseError``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .vocabulary import (_ASCII_DIGITS, _CANONICAL, _CHARACTERS, _COMMAND, _COMMAND_TOKENS,
                         _FONT_COMMANDS, _FONT_LETTERS, _FUNCTIONS, _GREEK, _GREEK_TAIL,
                         _IDENTIFIER, _LATEX_CHARACTERS, _LATEX_NUMBER, _LETTERS, _PLAIN_NUMBER,
                         _RESERVED, _SPACING, _SUPERSCRIPTS, _TWO_CHARACTERS, _UNICODE_GREEK,
                         _WORD_COMMANDS)


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
        if latex and pair == "||":  # D(P || Q), ||x - x'||_1: one double bar
            add("op", "‖", i, i + 2)
            i += 2
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
        if word in _RESERVED and len(word) > 2:  # d_{in}, x_{if}: two letters are letters
            raise _Problem(i + 1, f"'{word}' is a reserved word, not a formula")
        if len(word) > 1 and (word in _GREEK or word in _CANONICAL or word in _FUNCTIONS):
            add("name", word, i, run.end())
        elif word in ("argmax", "argmin"):  # an index, not a number: the grammar refuses it
            add("cmd", word, i, run.end())
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
        if name in _WORD_COMMANDS or name in _FONT_COMMANDS:
            return _word_command(text, i, name, end, add)
        if not name.isalpha():
            raise _Problem(i + 1, f"unknown command {command.group(0)!r}")
        add("cmd", name, i, end)
        return end
    raise _Problem(i + 1, f"unexpected character {ch!r}")


_ESCAPED = re.compile(r"\\([_#&$%{}])")
_WRAPPER = re.compile(r"\\(?:" + "|".join(sorted(_WORD_COMMANDS, key=len, reverse=True))
                      + r")\s*\{([^{}]*)\}")


def _braced(text: str, i: int) -> int | None:
    """The index after the balanced ``{...}`` at ``text[i]`` (after spaces), None if none."""
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    depth, j = 0, i
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None


def _word_command(text: str, i: int, name: str, end: int, add) -> int:
    r"""``\mathrm{tot}``, ``\texttt{d\_in}``, ``\mathcal{X}``, ``\mathbb{E}``: one token.

    A word command's argument is a name as written (``\texttt{len(x)}`` is the name
    ``len(x)``; escaped characters and nested word commands are unwrapped); a font command's
    is a letter of another alphabet (``\mathcal{X}`` is the name ``cal(X)``, not ``X``), except
    ``\mathbb{E}``, ``\mathbb{P}``, ``\mathbb{I}``, ``\mathbb{1}`` and the number sets, which are
    commands the grammar reads (an expectation, a probability, an indicator, a set)."""
    close = _braced(text, end)
    if close is None:
        single = re.match(r"\s*([A-Za-z0-9])", text[end:])
        if name in _FONT_COMMANDS and single:  # \mathbb E
            close, inner = end + single.end(), single.group(1)
        else:
            raise _Problem(i + 1, f"\\{name} must be followed by a word in braces, "
                                  f"e.g. \\{name}{{erfc}}")
    else:
        inner = text[text.index("{", end) + 1:close - 1]
    previous = None
    while previous != inner:  # \texttt{a\_\texttt{b}}: unwrap nested word commands
        previous, inner = inner, _WRAPPER.sub(lambda m: m.group(1), inner)
    word = " ".join(_ESCAPED.sub(lambda m: m.group(1), inner).split())
    if not word:
        raise _Problem(i + 1, f"\\{name}{{}} is empty")
    if name in _FONT_COMMANDS:
        font = _FONT_COMMANDS[name]
        known = _FONT_LETTERS.get((font, word))
        if known is not None:
            add("cmd", known, i, close)
        else:
            add("name", f"{font}({word})", i, close)
        return close
    if word in _RESERVED:
        raise _Problem(i + 1, f"'{word}' is a reserved word, not a formula")
    add("name", word, i, close)
    return close
