"""`rulec vassal GAME --out FILE.vmod`: a VASSAL module of a map game (needs the `vassal` extra)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("vassal", help="write a VASSAL module of a map game", description=__doc__)
    parser.add_argument("game", help="a game name in games/ or a game file")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE.vmod",
                        help="where to write the module (default NAME.vmod in the current directory)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulec.pipeline import load_game
    from rulec.vassal.module import write_module

    game = load_game(args.game)
    out = args.out or Path(f"{game.info.id}.vmod")
    summary = write_module(game, out)
    width, height = summary.map_size
    print(f"wrote {summary.path}: {summary.pieces} pieces ({summary.at_start} set up on the map), "
          f"map {width}x{height} pixels")
    return 0
