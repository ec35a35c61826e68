"""The layers of docs/architecture.md, enforced: import-linter's contracts of pyproject.toml
(``[tool.importlinter]``) must be kept, and they must be able to fail -- a back-edge added to
a copy of symdp, or an import inside a function of a small package, breaks them.

import-linter reads the import graph with grimp, which sees every ``import`` statement of a
module, those inside functions included (they are where the cycles of issue #13 hid).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("importlinter")
grimp = pytest.importorskip("grimp")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"


def lint(config: Path, where: Path) -> subprocess.CompletedProcess:
    """``lint-imports --config config`` run in ``where`` (no cache written).

    lint-imports puts its working directory first on ``sys.path``, so a package copied
    into ``where`` is the one analysed, not the installed symdp.
    """
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", code, "--config", str(config), "--no-cache",
                           "--no-logo"], cwd=where, capture_output=True, text=True)


def test_symdp_keeps_its_layer_contracts():
    result = lint(PYPROJECT, ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "each layer of symdp imports only the layers below it KEPT" in result.stdout
    assert "no import cycle between the modules of core, numeric or tradeoff KEPT" in result.stdout


def test_the_kernel_keeps_its_trusted_base():
    result = lint(PYPROJECT, ROOT)
    assert "the kernel imports only its trusted base KEPT" in result.stdout, result.stdout


def _kernel_closure(graph) -> set:
    kernel = {m for m in graph.modules if m.startswith("symdp.proof.kernel")}
    reached = set(kernel)
    for m in kernel:
        reached |= graph.find_upstream_modules(m)
    return reached


def test_the_kernel_runs_exactly_its_listed_trusted_base():
    """The modules the kernel imports, directly or through one another (imports inside
    functions included), are TRUSTED_BASE's (issue #27); the list names no module it does not
    reach, except the SymPy corrections, which symdp.core applies on import."""
    from symdp.proof.kernel import TRUSTED_BASE

    graph = grimp.build_graph("symdp")
    closure = _kernel_closure(graph)
    assert closure <= set(TRUSTED_BASE), sorted(closure - set(TRUSTED_BASE))
    assert set(TRUSTED_BASE) - closure == {"symdp.core.sympy_fixes"}


def test_the_trusted_base_contract_forbids_every_other_module():
    """Each module of symdp outside the trusted base (and not a package holding part of it)
    lies under an entry of the contract's forbidden_modules: a new module is forbidden to the
    kernel until it is listed in the base."""
    import tomllib

    from symdp.proof.kernel import TRUSTED_BASE

    config = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    contract, = [c for c in config if c.get("id") == "trusted-base"]
    forbidden = contract["forbidden_modules"]
    graph = grimp.build_graph("symdp")
    packages = {".".join(m.split(".")[:i]) for m in TRUSTED_BASE for i in range(1, m.count(".") + 1)}
    loose = [m for m in graph.modules if m not in TRUSTED_BASE and m not in packages
             and not any(m == f or m.startswith(f + ".") for f in forbidden)]
    assert loose == []


def test_grimp_counts_imports_inside_functions_of_symdp():
    # symdp has imports inside functions (lazy imports of heavy modules, the known back-edges
    # of issue #13); the graph the contracts are checked on must hold them
    graph = grimp.build_graph("symdp")
    indented = []
    for importer in graph.modules:
        path = ROOT / (importer.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / importer.replace(".", "/") / "__init__.py"
        lines = path.read_text().splitlines()
        for imported in graph.find_modules_directly_imported_by(importer):
            for detail in graph.get_import_details(importer=importer, imported=imported):
                if lines[detail["line_number"] - 1].startswith((" ", "\t")):
                    indented.append((importer, imported))
    assert ("symdp.tradeoff.highprec", "symdp.numeric.ball_compiler") in indented


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def test_a_back_edge_inside_a_function_breaks_a_layers_contract(tmp_path):
    # a two-layer package: high may import low, low must not import high
    package = tmp_path / "layered_probe"
    _write(package / "__init__.py", "")
    _write(package / "high.py", "from . import low\n")
    _write(package / "low.py", "def helper():\n    return 1\n")
    config = tmp_path / "contracts.toml"
    _write(config, """\
        [tool.importlinter]
        root_package = "layered_probe"

        [[tool.importlinter.contracts]]
        name = "high over low"
        type = "layers"
        containers = ["layered_probe"]
        layers = ["high", "low"]
        """)
    kept = lint(config, tmp_path)
    assert kept.returncode == 0 and "high over low KEPT" in kept.stdout, kept.stdout + kept.stderr
    _write(package / "low.py", """\
        def helper():
            from . import high   # the back-edge, hidden in a function
            return high
        """)
    broken = lint(config, tmp_path)
    assert broken.returncode != 0 and "high over low BROKEN" in broken.stdout, broken.stdout
    assert "layered_probe.low -> layered_probe.high" in broken.stdout


@pytest.fixture
def symdp_copy(tmp_path):
    """A copy of the symdp package in a directory of its own (the installed one is untouched)."""
    shutil.copytree(ROOT / "symdp", tmp_path / "symdp",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_an_unchanged_copy_of_symdp_keeps_the_contracts(symdp_copy):
    kept = lint(PYPROJECT, symdp_copy)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "BROKEN" not in kept.stdout


@pytest.mark.parametrize("module, back_edge", [
    ("proof/kernel/closed_forms.py", "from ...tradeoff import base"),   # kernel -> untrusted
    ("proof/kernel/deciders.py", "from ..cascade import common"),       # kernel -> a stage
    ("numeric/roots.py", "from ..tradeoff import base"),          # numeric -> tradeoff
    ("tradeoff/families.py", "from ..subsampling import operator"),  # tradeoff -> domain
    ("subsampling/formulas.py", "from ..bagging import counting"),   # sibling -> sibling
    ("numeric/balls.py", "from . import ball_compiler"),           # a cycle inside numeric
])
def test_a_back_edge_added_to_a_copy_of_symdp_breaks_the_contracts(symdp_copy, module, back_edge):
    target = symdp_copy / "symdp" / module
    target.write_text(target.read_text() + f"\n\ndef _probe():\n    {back_edge}\n")
    broken = lint(PYPROJECT, symdp_copy)
    assert broken.returncode != 0
    assert "BROKEN" in broken.stdout, broken.stdout + broken.stderr
    assert Path(module).stem in broken.stdout.split("Broken contracts")[-1]   # names the edge
