"""The notebooks in notebooks/ run from top to bottom (nbclient), so a broken one fails CI.

They are stored without outputs; this test checks that too.
"""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="pip install -e '.[test]' (nbformat)")
nbclient = pytest.importorskip("nbclient", reason="pip install -e '.[test]' (nbclient)")
pytest.importorskip("ipykernel", reason="pip install -e '.[test]' (ipykernel)")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    assert {"01", "02", "03", "04", "05"} <= {p.name[:2] for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, executed_notebook):
    # a fresh kernel importing symdp from this checkout, whatever is installed (conftest.py);
    # raises CellExecutionError with the failing cell and its traceback
    nb = executed_notebook(path)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
