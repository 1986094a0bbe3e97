"""`rulec aids GAME... [--out DIR] [--format html,svg,pdf] [--paper a4|letter] [--counters 5/8|1/2]
[--balance N [--seed S]]`: printable player aids.

Writes aids.html (every aid, the map and counters embedded), map.svg,
counters.svg, balance.svg (with --balance: N AI games' win rates, VP, length
and deciding awards) and aids.pdf into generated/aids/NAME/ (or DIR). With several
games and --out, each game's aids go to DIR/NAME/. Exit status: 0 done,
1 a game has errors or PDF output is unavailable, 2 a usage error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from rulec.aids.balance import balance_svg, play_games, summarise
from rulec.aids.counters_svg import PITCHES
from rulec.aids.render import FORMATS, PAPERS, Balance, write_aids
from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.pipeline import load_game

DEFAULT_OUT = Path("generated") / "aids"


def formats(text: str) -> frozenset[str]:
    chosen = frozenset(part.strip().lower() for part in text.split(",") if part.strip())
    unknown = sorted(chosen - set(FORMATS))
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown format {', '.join(unknown) or '(none)'}; choose from {','.join(FORMATS)}")
    return chosen


MAX_BALANCE_GAMES = 10_000


def game_count(text: str) -> int:
    if not text.isdigit() or len(text) > 6 or not 1 <= int(text) <= MAX_BALANCE_GAMES:
        raise argparse.ArgumentTypeError(f"expected a number of games from 1 to {MAX_BALANCE_GAMES}, found {text[:20]!r}")
    return int(text)


def seed(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 999999999, found {text[:20]!r}")
    return int(text)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "aids", help="build printable player aids (HTML, SVG, PDF)",
        description="Build the player aids of games: charts, tracks, order of battle, counters and map.")
    parser.add_argument("games", nargs="+", metavar="GAME", help="a game file, or the name of a game in games/")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="where to write (default: generated/aids/NAME; with several games DIR/NAME)")
    parser.add_argument("--format", type=formats, default=frozenset(FORMATS), metavar="LIST",
                        help=f"comma-separated formats among {','.join(FORMATS)} (default: all)")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="paper size for every page (default: a4)")
    parser.add_argument("--counters", choices=sorted(PITCHES), default="5/8", metavar="SIZE",
                        help="counter size across, in inches: 5/8 or 1/2 (default: 5/8)")
    parser.add_argument("--balance", type=game_count, default=None, metavar="N",
                        help="play N AI games and add a balance sheet (balance.svg and a page of the aids)")
    parser.add_argument("--seed", type=seed, default=1, help="the first game's seed for --balance (default: 1)")
    parser.set_defaults(func=run)


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def folder_name(game_id: str) -> str:
    """The game's id as a folder name: an identifier, so a game file never chooses where its aids go."""
    if not IDENTIFIER.fullmatch(game_id):
        raise DiagnosticError([Diagnostic(
            "aids-bad-name", f"the game's name {game_id[:80]!r} cannot name a folder of aids",
            hint="a game's name is an identifier: letters, digits and _ (not starting with a digit)")])
    return game_id


def writable_folder(path: Path) -> str | None:
    """None if the aids can be written into `path` (made if missing), else why not."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return error.strerror or type(error).__name__
    if not path.is_dir():
        return "not a folder"
    if not os.access(path, os.W_OK | os.X_OK):
        return "permission denied"
    return None


def run(args: argparse.Namespace) -> int:
    if args.out is not None and (problem := writable_folder(args.out)):
        print(f"rulec: error: cannot write the aids into {str(args.out)[:200]!r}: {problem}", file=sys.stderr)
        return 2
    for name in args.games:
        game = load_game(name)
        if args.out is None:
            out_dir = DEFAULT_OUT / folder_name(game.info.id)
        elif len(args.games) > 1:
            out_dir = args.out / folder_name(game.info.id)
        else:
            out_dir = args.out
        balance = None
        if args.balance:
            if game.map is None:
                print(f"rulec aids: note: {game.info.id} is a battle system with no map game to play: no balance sheet",
                      file=sys.stderr)
            else:
                games = play_games(game, args.balance, args.seed)
                balance = Balance(summarise(game, games), balance_svg(game, games))
        if problem := writable_folder(out_dir):
            print(f"rulec: error: cannot write the aids into {str(out_dir)[:200]!r}: {problem}", file=sys.stderr)
            return 2
        for path in write_aids(game, out_dir, args.format, args.paper, counters=args.counters, balance=balance):
            print(path)
    return 0
