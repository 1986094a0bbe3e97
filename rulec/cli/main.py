"""The `rulec` command.

Each sub-command lives in its own module of this package and exposes
`register(subparsers)`, which adds its parser and sets `func` to a function
taking the parsed arguments and returning an exit status. Exit statuses:
0 success, 1 the input has errors, 2 a usage error (one line on stderr),
130 interrupted (Ctrl-C, or a stop signal; no traceback).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys

from rulec import __version__
from rulec.diagnostics import Diagnostic, DiagnosticError, printable, render
from rulec.fast_path import engine_kind
from rulec.runtime.errors import ExpressionFailed

COMMANDS = ("check", "compile", "play", "simulate", "replay", "battle", "aids", "vassal", "lsp", "serve", "info")

# Mistakes in the command line rather than in a game file: for the commands that play a game, one line, exit 2.
USAGE_CODES = {"no-such-game", "no-such-file", "unknown-side", "unknown-option", "unknown-player", "bad-player",
               "repeated-player"}
USAGE_COMMANDS = {"play", "simulate", "battle", "replay"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with one short line
        self.exit(2, f"rulec: error: {printable(message)[:300]} (see '{self.prog} --help')\n")


class _Version(argparse.Action):
    """--version: one line, as long as it is (argparse's own version action wraps it to the terminal)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"rulec {__version__}, {engine_kind()}")
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with `only`, just that sub-command is imported (a faster start)."""
    parser = _Parser(prog="rulec", description="Compile and play hex-and-counter wargames.",
                     epilog="`rulec info GAME` lists a game's sides, options, scenarios and unit kinds; "
                            "`rulec COMMAND --help` tells more about a command.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="the version, and which engine runs: compiled (make fast) or pure Python")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"rulec.cli.{name}_command").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    command_line = argv is None  # the real command line (tests call main with their own arguments)
    if command_line:
        stop_on_signals()
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    try:
        parser = build_parser(command)
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return args.func(args)
    except DiagnosticError as error:
        if command in USAGE_COMMANDS and error.diagnostics and all(d.code in USAGE_CODES for d in error.diagnostics):
            for diagnostic in error.diagnostics:
                print(f"rulec {command}: error: {one_line(diagnostic)}", file=sys.stderr)
            return 2
        for diagnostic in error.diagnostics:
            print(render(diagnostic), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except ExpressionFailed as error:  # an expression of the game file failed while playing (play reports it with its place)
        print(f"rulec: game error: {printable(str(error))}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `rulec ... | head`: the reader left; stop quietly, as Unix tools do
        return 1
    except OSError as error:  # a disk full, a file vanished: one line, no traceback
        print(f"rulec: error: {printable(error.strerror or str(error))}"
              + (f": '{printable(str(error.filename))[:200]}'" if error.filename else ""), file=sys.stderr)
        return 1
    except Exception as error:
        if not command_line:
            raise  # in the tests a bug shows its traceback
        print(f"rulec: internal error ({type(error).__name__}: {printable(str(error))[:300]}); this is a bug in rulec",
              file=sys.stderr)
        return 1


def one_line(diagnostic: Diagnostic) -> str:
    hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
    return printable(f"{diagnostic.message}{hint}")


def stop_on_signals() -> None:
    """A stop signal (SIGTERM, SIGHUP) ends rulec as Ctrl-C does: files being written are cleaned up, no traceback."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), interrupt)
