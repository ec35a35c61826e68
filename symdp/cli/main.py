"""The ``symdp`` command: one dispatcher, one module per subcommand.

Exit codes: 0 every verdict matches its expectation (or the command succeeded),
1 some verdict does not, 2 usage or input error -- printed as one line, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..core.errors import SymdpError

#: subcommand modules under symdp.cli, each with add_parser(subparsers) and run(args)
COMMANDS = ("check", "step", "latex", "subsample", "bagging", "report", "plot")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage too; keep it short)
        sys.stderr.write(f"symdp: error: {message}\n")
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
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args._run(args))
    except (SymdpError, ValueError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        sys.stderr.write(f"symdp: error: {message}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("symdp: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
