"""One execution per notebook and test session, read by every test of that notebook
(notebooks/06_check_tex_magic.ipynb is read by test_notebooks.py and test_check_tex_magic.py)."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def executed_notebook():
    """``executed_notebook(path)``: the notebook run from top to bottom by a fresh kernel
    (nbclient) that imports symdp from this checkout, with its outputs; a run that raised
    (CellExecutionError names the failing cell) raises again for every test that reads it."""
    import nbclient
    import nbformat

    runs = {}

    def execute(path: Path):
        if path not in runs:
            nb = nbformat.read(path, as_version=4)
            before = os.environ.get("PYTHONPATH")
            os.environ["PYTHONPATH"] = str(ROOT)   # the kernel inherits it
            try:
                nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                        resources={"metadata": {"path": str(ROOT / "notebooks")}}
                                        ).execute()
                runs[path] = nb
            except Exception as exc:  # noqa: BLE001 - reported to each test that reads it
                runs[path] = exc
            finally:
                if before is None:
                    del os.environ["PYTHONPATH"]
                else:
                    os.environ["PYTHONPATH"] = before
        if isinstance(runs[path], Exception):
            raise runs[path]
        return runs[path]

    return execute
