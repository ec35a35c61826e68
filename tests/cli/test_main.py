"""symdp.cli.main: the dispatcher lists every subcommand, and every way out of a run is one
line and a documented exit code (0, 2 usage/input, 3 internal error, 130 interrupted).

The subcommand names are the ones the README documents, written out here (not read from
``COMMANDS``), so that a command that silently fails to register is caught."""

import signal

import pytest

import symdp.cli.latex
from symdp import __version__
from symdp.cli.main import INTERNAL_ERROR, main

DOCUMENTED = ("check", "step", "latex", "subsample", "bagging", "report", "plot", "account",
              "audit", "compose", "calibrate", "check-tex", "tradeoff")


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()
              if line.startswith("    ") and not line.startswith("     ")]
    assert sorted(listed) == sorted(DOCUMENTED)


@pytest.mark.parametrize("name", DOCUMENTED)
def test_each_subcommand_has_its_own_help(name, capsys):
    with pytest.raises(SystemExit) as exc:
        main([name, "--help"])
    assert exc.value.code == 0
    assert f"usage: symdp {name}" in capsys.readouterr().out


def test_unknown_command_exits_2_with_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("symdp: error:") and "no-such-command" in err


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"symdp {__version__}"


def _run_raising(monkeypatch, exc):
    def run(args):
        raise exc
    monkeypatch.setattr(symdp.cli.latex, "run", run)


def test_an_input_error_is_one_line_exit_2(monkeypatch, capsys):
    _run_raising(monkeypatch, ValueError("sigma must be > 0, got -1\nsecond line"))
    assert main(["latex", "anything"]) == 2
    assert capsys.readouterr().err == "symdp: error: sigma must be > 0, got -1\n"


def test_a_bug_is_one_line_exit_3_without_traceback(monkeypatch, capsys):
    monkeypatch.delenv("SYMDP_TRACEBACK", raising=False)
    _run_raising(monkeypatch, ZeroDivisionError("division by zero"))
    assert main(["latex", "anything"]) == INTERNAL_ERROR == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" in err and "ZeroDivisionError" in err
    assert "Traceback" not in err


def test_SYMDP_TRACEBACK_shows_the_exception(monkeypatch):
    monkeypatch.setenv("SYMDP_TRACEBACK", "1")
    _run_raising(monkeypatch, ZeroDivisionError("division by zero"))
    with pytest.raises(ZeroDivisionError):
        main(["latex", "anything"])


def test_interrupt_exits_130(monkeypatch, capsys):
    _run_raising(monkeypatch, KeyboardInterrupt())
    assert main(["latex", "anything"]) == 130
    assert capsys.readouterr().err == "symdp: interrupted\n"


def test_the_sigterm_handler_is_put_back(monkeypatch):
    before = signal.getsignal(signal.SIGTERM)
    seen = []
    monkeypatch.setattr(symdp.cli.latex, "run",
                        lambda args: seen.append(signal.getsignal(signal.SIGTERM)) or 0)
    assert main(["latex", "anything"]) == 0
    assert seen and seen[0] is not before          # during the run: SIGTERM -> SystemExit
    assert signal.getsignal(signal.SIGTERM) is before
