"""``symdp latex --list`` and ``symdp check --only ID`` without importing every proof file
(issue #14): the ids come from an index cached beside the files, refreshed when a file
changes."""

import os
from pathlib import Path

import symdp.proof.loader as loader
from symdp.cli.main import main

PROOF = ("import sympy as sp\n"
         "from symdp.proof import Derivation, Step\n"
         "x = sp.Symbol('x')\n"
         "derivation = Derivation({ident}, 'x = x', 'test', {{x: sp.Interval(0, 1)}},\n"
         "    (Step(x, '=', x, 'reflexive'),))\n")


def _write(directory: Path):
    (directory / "a_plain.py").write_text(PROOF.format(ident="'plain_id'"))
    (directory / "b_built.py").write_text(PROOF.format(ident="'built_' + 'at_import'"))


def test_list_imports_only_changed_files(tmp_path, capsys, monkeypatch):
    _write(tmp_path)
    assert main(["latex", "--list", "--paths", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert "derivation  plain_id" in first and "derivation  built_at_import" in first
    imported = []
    real = loader.load_file
    monkeypatch.setattr(loader, "load_file", lambda f: imported.append(Path(f).name) or real(f))
    assert main(["latex", "--list", "--paths", str(tmp_path)]) == 0
    assert capsys.readouterr().out == first and imported == []   # all from the index
    changed = tmp_path / "b_built.py"
    changed.write_text(PROOF.format(ident="'renamed_' + 'at_import'"))
    os.utime(changed, ns=(changed.stat().st_atime_ns, changed.stat().st_mtime_ns + 10**9))
    assert main(["latex", "--list", "--paths", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "renamed_at_import" in out and "built_at_import" not in out
    assert imported == ["b_built.py"]


def test_check_only_loads_the_file_that_defines_the_id(tmp_path, capsys):
    _write(tmp_path)
    (tmp_path / "c_broken.py").write_text("raise RuntimeError('must not be imported')\n")
    assert main(["check", str(tmp_path), "--only", "plain_id", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "plain_id" in out and "LOAD ERROR" not in out
    # an id built at import is found through the index once it exists
    assert main(["latex", "--list", "--paths", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["check", str(tmp_path), "--only", "built_at_import", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "built_at_import" in out and "must not be imported" not in out


def test_an_unknown_id_imports_no_file_that_symdp_check_indexed(tmp_path, capsys, monkeypatch):
    """``symdp latex no_such_id`` (issue #30): the ids of the files ``symdp check`` imported
    are in the cache's index, keyed by each file's text; none is imported to say "unknown"."""
    _write(tmp_path)
    assert main(["check", str(tmp_path), "--jobs", "1"]) == 0
    capsys.readouterr()
    imported = []
    real = loader.load_file
    monkeypatch.setattr(loader, "load_file", lambda f: imported.append(Path(f).name) or real(f))
    import symdp.cli.latex as latex

    monkeypatch.setattr(latex, "load_file", loader.load_file)
    assert main(["latex", "no_such_id", "--paths", str(tmp_path)]) == 2
    assert "unknown derivation or formula id" in capsys.readouterr().err
    assert imported == []
    assert main(["latex", "built_at_import", "--paths", str(tmp_path)]) == 0
    assert "x" in capsys.readouterr().out and imported == ["b_built.py"]   # the one defining it
    # a file edited since is imported again (its text is another key)
    (tmp_path / "a_plain.py").write_text(PROOF.format(ident="'plain_renamed'"))
    imported.clear()
    assert main(["latex", "no_such_id", "--paths", str(tmp_path)]) == 2
    assert imported == ["a_plain.py"]
