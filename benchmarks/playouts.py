"""Random playouts of a game: full games per second and actions per second on one core,
and how `rulec simulate` scales from one worker process to two.

    .venv/bin/python benchmarks/playouts.py [--game drive_on_metz] [-n 200] [--profile]

The aim for Drive on Metz is 200 random playouts per second on one core.
`--profile` prints where the time of the one-core run goes (cProfile, top 25).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulec.cli.simulate_command import simulate  # noqa: E402
from rulec.engine import new_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402
from rulec.players import RandomPlayer  # noqa: E402
from rulec.players.match import play_match  # noqa: E402

AIM = 200.0


def one_core(game, games: int) -> tuple[float, float]:
    """(playouts per second, actions per second) of random games in this process."""
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        state = new_game(game, seed=seed)
        actions += play_match(state, [RandomPlayer(seed * 2 + i) for i in range(len(state.players))], seed=seed).actions
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / elapsed


def simulate_rate(name: str, game, games: int, jobs: int) -> float:
    kinds = {side: "random" for side in game.sides}
    started = time.perf_counter()
    simulate(name, game, (), kinds, range(games), jobs)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("-n", type=int, default=200, help="games per measurement")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    game = load_game(args.game)
    one_core(game, 3)  # warm the per-game tables
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    playouts, actions = one_core(game, args.n)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    jobs_1 = simulate_rate(args.game, game, args.n, 1)
    jobs_2 = simulate_rate(args.game, game, args.n, 2)
    print(f"{args.game}, {args.n} random games per measurement")
    print(f"  one core:          {playouts:8.1f} playouts/s  {actions:10.0f} actions/s  (aim {AIM:.0f} playouts/s:"
          f" {'met' if playouts >= AIM else f'{playouts / AIM:.0%} of it'})")
    print(f"  simulate --jobs 1: {jobs_1:8.1f} games/s")
    print(f"  simulate --jobs 2: {jobs_2:8.1f} games/s  (x{jobs_2 / jobs_1:.2f})")


if __name__ == "__main__":
    main()
