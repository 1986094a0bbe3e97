"""`rulec serve`: the board in a browser, for any compiled map game.

    rulec serve [GAME ...] [--port 8000] [--host 127.0.0.1] [--memory MB]

With no GAME every game in games/ is offered. Open the address it prints; each tab
plays its own game. Needs the `board` extra (pip install 'rulec[board]').

The server answers only to the address it prints (a page of another website cannot
change a game: rulec.web.security), closes idle and slow connections, and holds at most
64 games and `--memory` MB of them: a game in use is never dropped for a new one, which
is refused ("the server is full") until a game has been left alone for 30 minutes.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rulec.cli.arguments import bounded_int


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="play on a board in the browser", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="games to offer (default: every game in games/)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=bounded_int("--port", 1, 65535), default=8000, help="the port (default 8000)")
    parser.add_argument("--memory", type=bounded_int("--memory", 16, 2**20), default=1024, metavar="MB",
                        help="the memory all games together may hold (default 1024 MB)")
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
        from rulec.web.connections import quiet_logs, raise_file_limit, server_settings
    except ImportError as error:
        print(f"rulec: error: rulec serve needs the board extra ({error.name} is missing): "
              "pip install 'rulec[board]'", file=sys.stderr)
        return 2
    app = create_app(load_games(args.games), host=args.host, port=args.port, memory_budget=args.memory * 2**20)
    raise_file_limit()
    quiet_logs()
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"the board is at http://{shown}:{args.port}/ (open it in a browser; Ctrl-C stops the server)", flush=True)
    uvicorn.run(app, **server_settings(args.host, args.port))  # a port in use: uvicorn says so and exits 3
    return 0
