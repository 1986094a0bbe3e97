"""`rulec replay`: step through a saved game, drawing the map as it goes.

    rulec replay FILE [--step] [--map-every turn|phase|action] [--no-color]

The whole file is checked first (every problem reported at once). Then the
game is replayed from its start: every action is printed, and the map after
every phase (or every turn, or action: `--map-every`), or with `--step` after
every action (on a terminal, Enter goes on and `q` stops). The narration is the
one `rulec play` prints, so a saved AI game replays as it was played.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rulec.cli.board_view import GameScreen, use_color
from rulec.cli.play_command import load_playable_game, start_state
from rulec.players.saves import read_save, restore
from rulec.players.setup import PLAYER_KINDS


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("replay", help="step through a saved game", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a saved game (rulec play --save)")
    parser.add_argument("--step", action="store_true", help="the map after every action, not every phase")
    parser.add_argument("--map-every", choices=("turn", "phase", "action"), default=None,
                        help="how often the map is drawn (default: every phase; every action with --step)")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, stdin=None, stdout=None) -> int:
    out = stdout or sys.stdout
    saved, text = read_save(args.file)
    game = load_playable_game(saved.game)
    options = tuple(saved.options)
    restore(saved, args.file, text, start=start_state, game=game, sides=list(game.sides), player_kinds=PLAYER_KINDS)
    screen = GameScreen(game, color=use_color(out, args.no_color), out=out,
                        map_every=getattr(args, "map_every", None) or ("action" if args.step else "phase"))
    kinds = {side: saved.players.get(side, "?") for side in game.sides}
    print(screen.title(kinds, options, saved.seed), file=out)
    state = start_state(game, options, saved.seed, saved.scenario)
    screen.show_position(state)
    pause = args.step and (stdin or sys.stdin).isatty()
    for index, text_action in enumerate(saved.history):
        for action in state.parse_orders(text_action):  # an old-style attack line is several steps
            screen.narrate(state, action, state.current_player())
            state.apply_action(action)
        screen.flush(state)
        if pause and not state.is_chance_node():
            print(f"[{index + 1}/{len(saved.history)}] Enter: next order, q: stop ", end="", file=out, flush=True)
            answer = (stdin or sys.stdin).readline()
            if answer.strip().lower() in ("q", "quit"):
                print(f"stopped at action {index + 1} of {len(saved.history)}", file=out)
                return 0
    print(f"end of the saved game ({len(saved.history)} actions).", file=out)
    for line in screen.vp_summary(state):
        print(line, file=out)
    print(screen.result_line(state, final=state.is_terminal()), file=out)
    return 0
