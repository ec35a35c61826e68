"""The ``%%symdp_check`` cell magic, run in notebooks/06_check_tex_magic.ipynb by a kernel.

The verdicts shown must be what the mathematics says: Bernoulli's inequality holds,
C(n, 2) = n(n - 1) is refuted (it is n(n - 1)/2), and Cor. 4.3 as printed is refuted at
Figure 6's parameters (eps = 3, delta = 1/10, p = 1/5, alpha = 1/2 on the chord).
"""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="pip install -e '.[test]' (nbformat)")
nbclient = pytest.importorskip("nbclient", reason="pip install -e '.[test]' (nbclient)")
pytest.importorskip("ipykernel", reason="pip install -e '.[test]' (ipykernel)")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "06_check_tex_magic.ipynb"


def test_the_magic_renders_the_verdicts_in_a_notebook(executed_notebook):
    nb = executed_notebook(NOTEBOOK)   # run once with test_notebooks.py's run of it (conftest.py)
    tables = [o["data"]["text/html"] for c in nb.cells if c.cell_type == "code"
              for o in c.outputs if o.output_type == "execute_result"]
    assert len(tables) == 2
    bernoulli, corollary = tables
    rows = bernoulli.split("<tr>")[2:]
    assert len(rows) == 4
    # (1 + p)^n >= 1 + n p (Bernoulli, true for integer n >= 0, p >= -1): never refuted; the
    # kernel does not yet confirm a power with a symbolic exponent, so it may be evidence (~)
    assert "REFUTED" not in rows[0] and ("✓" in rows[0] or "~" in rows[0])
    assert "REFUTED" in rows[3] and "counterexample" in rows[3]  # binom(n, 2) = n(n - 1)
    assert "REFUTED" in corollary and "counterexample" in corollary
