"""symdp.parsing.grammar, .plain, .latex: one recursive descent, two sets of rules.

The grammar itself is tested through the public functions in tests/test_parsing.py; here,
that the parser is assembled from the shared rules and each syntax's own, and that each
syntax's rules are reached only in that syntax.
"""

import pytest
import sympy as sp

from symdp.parsing import parse_formula
from symdp.parsing.grammar import _Parser
from symdp.parsing.latex import _LatexRules
from symdp.parsing.plain import _PlainRules
from symdp.parsing.tokens import _Problem, _tokenize


def test_the_parser_is_the_shared_grammar_with_both_rule_sets():
    assert issubclass(_Parser, _PlainRules) and issubclass(_Parser, _LatexRules)
    shared = {"expression", "term", "unary", "power", "primary", "group", "arguments", "number"}
    assert shared <= set(vars(_Parser))
    assert {"plain_call", "plain_name"} <= set(vars(_PlainRules))
    assert {"command", "tex_argument", "script", "latex_symbol", "latex_function"} <= set(vars(_LatexRules))
    assert not set(vars(_PlainRules)) & set(vars(_LatexRules)) - {"__module__", "__doc__",
                                                                    "__dict__", "__weakref__",
                                                                    "__qualname__"}


def _parse(text, latex):
    return _Parser(_tokenize(text, latex), latex, {}).formula()


def test_each_syntax_reads_its_own_spelling_of_the_same_formula():
    n, k = sp.symbols("n k")
    assert _parse("binomial(n, k)/2", False) == _parse(r"\frac{\binom{n}{k}}{2}", True) \
        == sp.binomial(n, k) / 2
    assert _parse("eps", False) == _parse(r"\epsilon", True) == sp.Symbol("varepsilon")


def test_a_plain_function_name_needs_parentheses_but_latex_takes_the_next_factor():
    with pytest.raises(_Problem, match="exp is a function"):
        _parse("exp 2", False)
    assert _parse(r"\exp 2", True) == sp.exp(2)
    assert parse_formula(r"\ln\left(x^2\right)", latex=True) == sp.log(sp.Symbol("x") ** 2)


def test_the_time_limit_reaches_the_builder():
    with pytest.raises(_Problem, match="takes too long"):
        _Parser(_tokenize("x + 1", False), False, {}, seconds=-1).formula()
