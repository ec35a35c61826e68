"""symdp.proof.loader: proof files are found, their ``derivation``/``DERIVATIONS`` loaded, and
a bad file is a :class:`LoadError` naming the file while the others still load."""

import textwrap

import pytest

from symdp.core.errors import InvalidParameterError
from symdp.proof import Derivation
from symdp.proof.loader import LoadError, load_derivations, load_file, proof_files

HEADER = """\
import sympy as sp
from symdp.proof import Derivation, Step
x = sp.Symbol("x")
"""


def _deriv(ident):
    return (f'Derivation("{ident}", "x**2 <= x on [0, 1]", "test", {{x: sp.Interval(0, 1)}}, '
            f'(Step(x**2, "<=", x, "x <= 1"),), chained=False)')


def _write(path, body):
    path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return path


def test_single_derivation_is_loaded(tmp_path):
    f = _write(tmp_path / "one.py", f"derivation = {_deriv('loader_one')}\n")
    found = load_file(f)
    assert [d.id for d in found] == ["loader_one"]
    assert isinstance(found[0], Derivation)


def test_derivation_and_DERIVATIONS_are_both_loaded(tmp_path):
    f = _write(tmp_path / "many.py", f"derivation = {_deriv('loader_a')}\n"
                                     f"DERIVATIONS = [{_deriv('loader_b')}, {_deriv('loader_c')}]\n")
    assert [d.id for d in load_file(f)] == ["loader_a", "loader_b", "loader_c"]


def test_a_file_without_derivations_is_an_import_error(tmp_path):
    f = _write(tmp_path / "empty.py", "y = 1\n")
    with pytest.raises(ImportError, match="defines no `derivation`"):
        load_file(f)


def test_DERIVATIONS_holding_something_else_is_a_type_error(tmp_path):
    f = _write(tmp_path / "wrong.py", "DERIVATIONS = [42]\n")
    with pytest.raises(TypeError, match="int"):
        load_file(f)


def test_bad_file_is_a_load_error_and_the_good_one_still_loads(tmp_path):
    _write(tmp_path / "a_good.py", f"derivation = {_deriv('loader_good')}\n")
    _write(tmp_path / "b_bad.py", "\n\nraise RuntimeError('broken proof file')\n")
    loaded, errors = load_derivations([tmp_path])
    assert [d.id for _, d in loaded] == ["loader_good"]
    assert len(errors) == 1 and isinstance(errors[0], LoadError)
    assert errors[0].path.endswith("b_bad.py")
    assert "RuntimeError: broken proof file" in errors[0].error
    # HEADER is 3 lines, then two blank lines: the raise is on line 6
    assert "(line 6)" in errors[0].error


def test_sys_exit_in_a_proof_file_is_a_load_error(tmp_path):
    _write(tmp_path / "quits.py", "import sys\nsys.exit(0)\n")
    loaded, errors = load_derivations([tmp_path])
    assert loaded == []
    assert len(errors) == 1 and "SystemExit(0)" in errors[0].error


def test_duplicate_ids_across_files_are_reported(tmp_path):
    _write(tmp_path / "a.py", f"derivation = {_deriv('loader_dup')}\n")
    _write(tmp_path / "b.py", f"derivation = {_deriv('loader_dup')}\n")
    loaded, errors = load_derivations([tmp_path])
    assert len(loaded) == 1
    assert len(errors) == 1 and "duplicate derivation id 'loader_dup'" in errors[0].error


def test_proof_files_skips_private_files_and_rejects_bad_paths(tmp_path):
    _write(tmp_path / "p.py", f"derivation = {_deriv('loader_p')}\n")
    (tmp_path / "_helper.py").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    assert [f.name for f in proof_files([tmp_path])] == ["p.py"]
    with pytest.raises(InvalidParameterError, match="not a proof file"):
        proof_files([tmp_path / "notes.txt"])
    with pytest.raises(InvalidParameterError, match="no such proof file"):
        proof_files([tmp_path / "missing.py"])
    empty = tmp_path / "empty_dir"
    empty.mkdir()
    with pytest.raises(InvalidParameterError, match="no proof files"):
        proof_files([empty])
