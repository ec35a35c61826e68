"""symdp.parsing.tokens: kinds, normalised values and 1-based columns of both syntaxes."""

import pytest

from symdp.parsing.tokens import _Problem, _tokenize


def _kinds(text, latex=False):
    return [(t.kind, t.value, t.col) for t in _tokenize(text, latex)]


def test_plain_tokens_with_columns():
    assert _kinds("eps' <= 2x**3") == [
        ("name", "eps'", 1), ("rel", "<=", 6), ("num", "2", 9), ("name", "x", 10),
        ("op", "^", 11), ("num", "3", 13), ("end", "", 14)]


def test_superscript_digits_are_an_exponent():
    assert _kinds("x²³") == [("name", "x", 1), ("op", "^", 2), ("num", "23", 2), ("end", "", 4)]


def test_latex_tokens_commands_letters_and_dollars():
    assert _kinds(r"$\frac12 nk \le \varepsilon$", latex=True) == [
        ("cmd", "frac", 2), ("num", "12", 7), ("name", "n", 10), ("name", "k", 11),
        ("rel", "<=", 13), ("cmd", "varepsilon", 17), ("end", "", 29)]
    # a run of letters that spells a known word stays one name
    assert [t.value for t in _tokenize("exp", True)][:1] == ["exp"]
    assert [t.value for t in _tokenize(r"\mathrm{tot}", True)][:1] == ["tot"]


@pytest.mark.parametrize("text, latex, col, message", [
    ("__import__", False, 1, "may not start with '_'"),
    ("a__b", False, 1, "malformed identifier"),
    ("eval", False, 1, "reserved word"),
    ("x != 1", False, 3, "'!=' is not a supported relation"),
    (r"\frac{1}{2}", False, 1, "LaTeX command"),
    ("x @ 1", False, 3, "unexpected character"),
    ("x\\", True, 2, "a lone"),
    (r"\text{import}", True, 1, "reserved word"),
    ("١٢", False, 1, "unexpected character"),          # Arabic-Indic digits are not numbers
])
def test_problems_name_the_column(text, latex, col, message):
    with pytest.raises(_Problem) as info:
        _tokenize(text, latex)
    assert info.value.col == col and message in info.value.message
