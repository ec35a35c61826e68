"""The ``symdp`` command: one dispatcher, one module per subcommand.

Exit codes: 0 every verdict matches its expectation (or the command succeeded),
1 some verdict does not, 2 usage or input error -- printed as one line, no traceback,
3 an internal error (a bug: one line naming the exception; ``SYMDP_TRACEBACK=1`` shows
the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..core.errors import SymdpError

#: the exit code of an unexpected exception (a bug in symdp)
INTERNAL_ERROR = 3

#: subcommand modules under symdp.cli, each with add_parser(subparsers) and run(args)
COMMANDS = ("check", "step", "latex", "subsample", "bagging", "report", "plot", "account", "audit",
            "compose", "calibrate", "check_tex", "tradeoff")


#: the longest run of characters without a space an error message echoes (a file name of 255
#: characters and its directory fit): a 100,001-digit
#: value is shown by its ends and its length, not whole
MAX_ECHO = 320


def short(message: str) -> str:
    """``message`` on one line with every run of more than :data:`MAX_ECHO` non-space
    characters cut to its ends and its length."""
    import re

    def cut(m):
        word = m.group(0)
        return f"{word[:24]}...{word[-12:]} ({len(word)} characters)"

    line = message.splitlines()[0] if message else ""
    return re.sub(r"\S{%d,}" % (MAX_ECHO + 1), cut, line)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage too; keep it short)
        sys.stderr.write(f"symdp: error: {short(message)}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="symdp", description="Symbolic derivations for differential privacy.")
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"symdp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"symdp.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"symdp.cli.{name}":
                continue  # a command not built yet
            raise
        sub_parser = module.add_parser(sub)
        sub_parser.set_defaults(_run=module.run)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["step"]:  # a formula may start with "-": symdp step "x" ">=" "-1"
        from .step import reorder_argv

        argv = ["step", *reorder_argv(argv[1:])]
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return 2
    restore = _exit_cleanly_on_sigterm()
    try:
        return int(args._run(args))
    except (SymdpError, ValueError) as exc:
        message = short(str(exc)) if str(exc) else type(exc).__name__
        sys.stderr.write(f"symdp: error: {message}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("symdp: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:
        sys.stderr.write("symdp: error: the input is nested too deeply to process\n")
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug: one line, not a traceback
        if os.environ.get("SYMDP_TRACEBACK"):
            raise
        where = "".join(str(exc).splitlines()[:1])[:200]
        sys.stderr.write(f"symdp: internal error (a bug in symdp, please report it): "
                         f"{type(exc).__name__}: {where} (SYMDP_TRACEBACK=1 shows the "
                         f"traceback)\n")
        return INTERNAL_ERROR
    finally:
        restore()


def _exit_cleanly_on_sigterm():
    """Make SIGTERM (``kill``, a CI timeout) raise SystemExit(143) so that ``finally`` blocks
    run: temporary build directories are removed and worker processes stopped.  Returns a
    function that puts the previous handler back."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminate)
    return lambda: signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
