"""Every module of symdp.parsing keeps the safety property of tests/test_parsing.py:
it names none of eval, exec, sympify, parse_expr, ... and never calls S() or compile()
(tests/test_parsing.py checks the package's __init__; the rules now live in modules)."""

import ast
import pathlib

import pytest

import symdp.parsing

MODULES = sorted(pathlib.Path(symdp.parsing.__file__).parent.glob("*.py"))
FORBIDDEN = {"eval", "exec", "sympify", "parse_expr", "parse_latex", "__import__", "simplify",
             "nsimplify", "literal_eval", "lambdify", "getattr"}


def test_the_package_has_its_modules():
    assert {m.stem for m in MODULES} >= {"__init__", "vocabulary", "tokens", "budget", "grammar",
                                          "plain", "latex", "ranges"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_no_module_evaluates_text(path):
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name)
    assert not names & FORBIDDEN
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            assert name not in {"S", "compile"} or ast.unparse(func) == "re.compile"
