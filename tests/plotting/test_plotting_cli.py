"""``symdp plot KIND --out FILE``: files written, bad input is one line and exit 2."""

from pathlib import Path

import pytest

from symdp.cli.main import main

pytest.importorskip("matplotlib")


@pytest.mark.parametrize("argv,suffix", [
    (["tradeoff", "--family", "eps-delta", "--eps", "1", "--delta", "0.05", "--p", "0.3"], ".png"),
    (["tradeoff", "--mu", "1/2"], ".pdf"),
    (["subsample"], ".pdf"),
    (["profile", "--mu", "1", "2", "--eps-max", "3"], ".png"),
    (["profile", "--family", "eps-delta", "--eps", "1", "--delta", "0.01", "--p", "0.5",
      "--log"], ".pdf"),
    (["bagging", "--n", "30", "--models", "2", "--without-replacement"], ".png"),
])
def test_plot_kinds_write_files(tmp_path, capsys, argv, suffix):
    out = tmp_path / f"fig{suffix}"
    assert main(["plot", *argv, "--out", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert capsys.readouterr().out.strip() == f"wrote {out}"


@pytest.mark.parametrize("argv,message", [
    (["nope", "--out", "x.png"], "invalid choice: 'nope'"),
    (["tradeoff", "--out", "x.txt"], "must end in .png or .pdf"),
    (["tradeoff", "--mu", "abc", "--out", "x.png"], "--mu must be a number"),
    (["tradeoff", "--mu", "-1", "--out", "x.png"], "mu must be"),
    (["bagging", "--n", "1", "--out", "x.png"], "n must be an integer >= 2"),
    (["profile", "--eps-max", "0", "--out", "x.png"], "--eps-max must be > 0"),
    (["tradeoff", "--out", "no/such/dir/x.png"], "output directory does not exist"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) if argv[0] == "nope" else _no_exit() as caught:
        rc = main(["plot", *argv])
    rc = caught.value.code if argv[0] == "nope" else rc
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and message in err, err
    assert not list(Path(tmp_path).glob("x.*"))


class _no_exit:
    value = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
