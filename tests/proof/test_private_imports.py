"""No private names imported across modules of symdp/proof (issue #19, item 4).

A name that one module of the proof engine needs from another is part of that module's
interface and carries a public name.  (A public name bound locally under a private alias,
``from ..timeouts import Timeout as _Timeout``, imports nothing private and is allowed.)
"""

import ast
import pathlib

import symdp.proof

ROOT = pathlib.Path(symdp.proof.__file__).parent


def private_imports(source: str, where: str) -> list:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{where}:{node.lineno}: from {'.' * node.level}"
                                 f"{node.module or ''} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(part.startswith("_") and not part.startswith("__")
                       for part in alias.name.split(".")):
                    found.append(f"{where}:{node.lineno}: import {alias.name}")
    return found


def test_the_scanner_sees_a_private_import():
    # the scanner itself, on sources whose answer is known
    assert private_imports("from .reduce import _Signs\n", "x") == \
        ["x:1: from .reduce import _Signs"]
    assert private_imports("def f():\n    from ..a.b import c, _d\n", "x") == \
        ["x:2: from ..a.b import _d"]
    assert private_imports("from ..timeouts import Timeout as _Timeout\n", "x") == []
    assert private_imports("from .x import __version__\n", "x") == []


def test_no_module_of_symdp_proof_imports_a_private_name():
    files = sorted(ROOT.rglob("*.py"))
    assert len(files) > 20   # the scan really walks the package
    found = [hit for p in files
             for hit in private_imports(p.read_text(), str(p.relative_to(ROOT)))]
    assert found == []
