"""`rulec serve`: the board in a browser, for any compiled map game.

    rulec serve [GAME ...] [--port 8000] [--host 127.0.0.1]

With no GAME every game in games/ is offered. Open the address it prints; each tab
plays its own game. Needs the `board` extra (pip install 'rulec[board]').
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="play on a board in the browser", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="games to offer (default: every game in games/)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.set_defaults(func=run)


def load_games(names: list[str]) -> dict[str, Any]:
    """name -> compiled game; every game in games/ when no name is given."""
    from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

    names = names or sorted(p.stem for p in GAMES_DIR.glob(f"*{SUFFIX}"))
    return {name: load_game(name) for name in names}


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from rulec.web.app import create_app
    except ImportError as error:
        print(f"rulec: error: rulec serve needs the board extra ({error.name} is missing): "
              "pip install 'rulec[board]'", file=sys.stderr)
        return 2
    app = create_app(load_games(args.games))
    print(f"the board is at http://{args.host}:{args.port}/ (open it in a browser; Ctrl-C stops the server)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
