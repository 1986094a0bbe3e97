"""`rulec check GAME...`: report every problem of game files.

Prints each diagnostic (file:line:col, the source line with a caret, a hint)
and a one-line summary per game. Exit status: 0 when no game has errors
(warnings are allowed), 1 when some game has errors, 2 on usage errors (a
game named that is no file at all included).
"""

from __future__ import annotations

import argparse
import os
import sys

from rulec.check.fields import counted
from rulec.pipeline import check_file


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("check", help="check game files and report every problem",
                                   description="Check game files (paths, or names of games in games/) and report every problem.")
    parser.add_argument("games", nargs="+", metavar="GAME", help="a game file, or the name of a game in games/")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the diagnostics, no summary lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        return check_games(args.games, args.quiet)
    except BrokenPipeError:  # `rulec check ... | head`: the reader left; stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def check_games(games: list[str], quiet: bool) -> int:
    """Print every diagnostic of every game; 1 if any game has errors."""
    status = 0
    for name in games:
        result = check_file(name)
        for text in result.rendered():
            print(text)
        errors = sum(1 for d in result.diagnostics if d.is_error)
        warnings = sum(1 for d in result.diagnostics if d.severity == "warning")
        if not quiet:
            print(f"{result.file}: {summary(errors, warnings)}")
        if not result.ok:
            status = 1 if status == 1 or not not_found(result) else 2  # errors in a game come first
    return status


def not_found(result) -> bool:
    """The game named on the command line is no file at all: a usage error (exit 2), not errors in a game (1)."""
    return bool(result.diagnostics) and all(d.code in ("no-such-game", "no-such-file") for d in result.diagnostics)


def summary(errors: int, warnings: int) -> str:
    """'ok', 'ok, 1 warning', '3 errors, 1 warning'."""
    parts = [counted(errors, "error")] if errors else ["ok"]
    if warnings:
        parts.append(counted(warnings, "warning"))
    return ", ".join(parts)
