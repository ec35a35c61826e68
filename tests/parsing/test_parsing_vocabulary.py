"""symdp.parsing.vocabulary: the names the parser knows, and the words it refuses."""

from symdp.parsing.vocabulary import (_CANONICAL, _FUNCTIONS, _GREEK, _RESERVED,
                                      _SYMPY_FUNCTIONS, _UNICODE_GREEK)

#: functions the builder makes itself (exp and sqrt as powers) rather than by a SymPy class
BUILT = {"exp", "sqrt"}


def test_every_function_name_has_a_construction():
    for name, (canonical, fewest, most) in _FUNCTIONS.items():
        assert canonical in _SYMPY_FUNCTIONS or canonical in BUILT, name
        assert 1 <= fewest and (most is None or most >= fewest)


def test_epsilon_has_one_name():
    assert set(_CANONICAL.values()) == {"varepsilon"} and _UNICODE_GREEK["ε"] == "varepsilon"
    assert {"alpha", "delta", "mu", "Gamma", "Lambda"} <= _GREEK


def test_code_words_are_reserved_but_lambda_is_a_letter():
    assert {"eval", "exec", "import", "open", "getattr", "globals", "class", "def"} <= _RESERVED
    assert "lambda" not in _RESERVED and "lambda" in _GREEK
