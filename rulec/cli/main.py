"""The `rulec` command.

Each sub-command lives in its own module of this package and exposes
`register(subparsers)`, which adds its parser and sets `func` to a function
taking the parsed arguments and returning an exit status. Exit statuses:
0 success, 1 the input has errors, 2 a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rulec.diagnostics import DiagnosticError, render

COMMANDS = ("check", "compile", "play", "simulate", "replay", "battle", "aids", "vassal", "lsp", "serve", "info")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with a short message, as argparse does
        self.print_usage(sys.stderr)
        self.exit(2, f"rulec: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with `only`, just that sub-command is imported (a faster start)."""
    parser = _Parser(prog="rulec", description="Compile and play hex-and-counter wargames.",
                     epilog="`rulec info GAME` lists a game's sides, options, scenarios and unit kinds; "
                            "`rulec COMMAND --help` tells more about a command.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"rulec.cli.{name}_command").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except DiagnosticError as error:
        for diagnostic in error.diagnostics:
            print(render(diagnostic), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
