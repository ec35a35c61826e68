"""Output files (issue #14): symdp writes regular files only, never replaces a device, a FIFO
or a directory, writes through a symbolic link, leaves no temporary file and gives a new file
the mode ``0o666 & ~umask``."""

import json
import os
import stat
from pathlib import Path

import pytest

from symdp.cli.main import main
from symdp.core.errors import InvalidParameterError
from symdp.core.files import atomic_write, output_file

GOOD = str(Path(__file__).resolve().parent / "fixtures" / "good_step.py")


@pytest.fixture
def umask022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def one_line_exit_2(capsys, argv, *words):
    rc = main(argv)
    captured = capsys.readouterr()
    assert rc == 2, captured
    assert captured.err.startswith("symdp: error:") and captured.err.count("\n") == 1
    for word in words:
        assert word in captured.err, captured.err
    return captured


def no_temporary_files(directory):
    return not [p for p in Path(directory).iterdir() if p.name.startswith(".symdp-")]


def test_json_refuses_a_character_device(capsys):
    before = os.stat("/dev/null")
    one_line_exit_2(capsys, ["check", GOOD, "--json", "/dev/null"], "--json",
                    "character device")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_json_refuses_a_fifo_and_a_directory(tmp_path, capsys, monkeypatch):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    one_line_exit_2(capsys, ["check", GOOD, "--json", str(fifo)], "FIFO")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    monkeypatch.chdir(tmp_path)
    one_line_exit_2(capsys, ["check", GOOD, "--json", "."], "directory")
    one_line_exit_2(capsys, ["check", GOOD, "--json", "sub/"], "directory")
    assert no_temporary_files(tmp_path)


def test_json_empty_path_is_an_error_not_ignored(capsys):
    one_line_exit_2(capsys, ["check", GOOD, "--json", ""], "--json", "file path")


def test_json_missing_directory_and_dangling_link(tmp_path, capsys):
    one_line_exit_2(capsys, ["check", GOOD, "--json", str(tmp_path / "no" / "r.json")],
                    "does not exist")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "missing.json")
    one_line_exit_2(capsys, ["check", GOOD, "--json", str(tmp_path / "dangling.json")],
                    "symbolic link")
    assert not (tmp_path / "missing.json").exists()


def test_json_writes_through_a_symbolic_link_with_the_usual_mode(tmp_path, capsys, umask022):
    target = tmp_path / "real.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["check", GOOD, "--jobs", "1", "--json", str(link)]) == 0
    assert link.is_symlink() and json.loads(target.read_text())["derivations"][0]["id"] == \
        "fixture_good_step"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # a replaced file keeps its mode
    new = tmp_path / "new.json"
    assert main(["check", GOOD, "--jobs", "1", "--json", str(new)]) == 0
    assert stat.S_IMODE(new.stat().st_mode) == 0o644  # 0o666 & ~0o022, not mkstemp's 0o600
    assert no_temporary_files(tmp_path)
    capsys.readouterr()


def test_new_file_mode_follows_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        atomic_write("--json", tmp_path / "private.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "private.json").stat().st_mode) == 0o600


def test_an_error_while_writing_leaves_the_old_file_and_no_temporary_file(tmp_path):
    from symdp.core.files import atomic_path

    target = tmp_path / "r.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_path("--json", target) as tmp:
            Path(tmp).write_text("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old" and no_temporary_files(tmp_path)


@pytest.mark.parametrize("path", ["", "\x00x", "a" * 5000 + ".json"])
def test_output_file_rejects_unusable_paths_naming_the_option(tmp_path, path):
    with pytest.raises(InvalidParameterError, match="--json"):
        output_file("--json", path if not path.startswith("a") else tmp_path / path)


def test_report_out_must_be_a_directory_path(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_exit_2(capsys, ["report", GOOD, "--out", "", "--no-check", "--no-figures"],
                    "--out", "file path")
    assert list(tmp_path.iterdir()) == []  # nothing written into the current folder
    (tmp_path / "file").write_text("x")
    one_line_exit_2(capsys, ["report", GOOD, "--out", "file", "--no-check", "--no-figures"],
                    "--out", "cannot write to output directory", "a regular file")


def test_report_tex_has_the_usual_mode(tmp_path, capsys, umask022):
    assert main(["report", GOOD, "--out", str(tmp_path / "out"), "--no-check",
                 "--no-figures"]) == 0
    tex = tmp_path / "out" / "symdp-report.tex"
    assert stat.S_IMODE(tex.stat().st_mode) == 0o644
    capsys.readouterr()


def test_plot_out_existing_directory_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing_dir.png").mkdir()
    one_line_exit_2(capsys, ["plot", "tradeoff", "--out", "existing_dir.png"], "directory")
    one_line_exit_2(capsys, ["plot", "tradeoff", "--out", ""], "--out")


def test_figure_has_the_usual_mode(tmp_path, umask022):
    pytest.importorskip("matplotlib")
    from symdp import Gaussian
    from symdp.plotting import profile_figure, save_figure

    path = save_figure(profile_figure([Gaussian(1)], points=11), tmp_path / "p.png")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 and no_temporary_files(tmp_path)
