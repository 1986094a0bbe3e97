"""How long the greedy player takes to decide: CPU milliseconds per greedy decision, and what a whole
greedy game costs in random games.

    .venv/bin/python benchmarks/greedy.py [-n 3] [--game drive_on_metz]

Measured on a made-up game of 140 hexes and 40 units (benchmarks/made_up_game.py,
compiled through the normal pipeline) and on a game of games/ (`--game`). Each
game is greedy against random, greedy on each side in turn; a decision with one
legal action is not counted (the player does not think about it). The aim is
under 10 ms per decision on the 140-hex, 40-unit game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from made_up_game import compile_text, game_text  # noqa: E402

from rulec.engine import new_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402
from rulec.players import GreedyPlayer, RandomPlayer  # noqa: E402
from rulec.players.base import sample_chance  # noqa: E402
from rulec.players.match import chance_rng, play_match  # noqa: E402

AIM_MS = 10.0


def greedy_decisions(game, games: int) -> tuple[float, int, float]:
    """(CPU ms per greedy decision, decisions, CPU seconds per whole greedy-against-random game)."""
    thinking, decisions, whole = 0.0, 0, 0.0
    for seed in range(games):
        for greedy_seat in range(len(game.sides)):
            state = new_game(game, seed=seed)
            players = [GreedyPlayer(seed * 2 + i) if i == greedy_seat else RandomPlayer(seed * 2 + i)
                       for i in range(len(state.players))]
            rng = chance_rng(seed)
            started_game = time.process_time()
            while not state.is_terminal():
                seat = state.current_player()
                if state.is_chance_node():
                    action = sample_chance(state, rng)
                elif seat == greedy_seat and len(state.legal_actions()) > 1:
                    started = time.process_time()
                    action = players[seat].choose(state)
                    thinking += time.process_time() - started
                    decisions += 1
                else:
                    action = players[seat].choose(state)
                state.apply_action(action)
            whole += time.process_time() - started_game
    return 1000 * thinking / max(1, decisions), decisions, whole / (games * len(game.sides))


def random_game_seconds(game, games: int) -> float:
    started = time.process_time()
    for seed in range(games):
        state = new_game(game, seed=seed)
        play_match(state, [RandomPlayer(seed * 2 + i) for i in range(len(state.players))], seed=seed)
    return (time.process_time() - started) / games


def report(name: str, game, games: int) -> float:
    per_decision, decisions, greedy_game = greedy_decisions(game, games)
    random_game = random_game_seconds(game, max(10, games * 10))
    hexes = len(game.map.hexes) if game.map else 0
    print(f"  {name} ({hexes} hexes, {len(game.units)} units): {per_decision:6.2f} ms per greedy decision"
          f" ({decisions} decisions); a greedy-against-random game costs {greedy_game / random_game:5.1f} random games"
          f" ({greedy_game:.2f} s)")
    return per_decision


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=3, help="games per side")
    parser.add_argument("--game", default="drive_on_metz")
    args = parser.parse_args(argv)
    made_up = compile_text(game_text(columns=14, rows=10, units=40))
    print(f"greedy against random, greedy on each side in turn, {args.n} games a side, CPU time")
    per_decision = report("made-up game", made_up, args.n)
    print(f"  aim: under {AIM_MS:.0f} ms per decision on the made-up game:"
          f" {'met' if per_decision < AIM_MS else 'NOT met'}")
    report(args.game, load_game(args.game), args.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
