"""Random playouts of a game: full games per second and actions per second on one core,
and how `rulec simulate` scales from one worker process to two.

    .venv/bin/python benchmarks/playouts.py [--game drive_on_metz] [-n 200] [--profile]
    .venv/bin/python benchmarks/playouts.py --against 20317e9 [-n 200] [--rounds 3]

The aim for Drive on Metz is 200 random playouts per second on one core.
`--profile` prints where the time of the one-core run goes (cProfile, top 25).
`--against REV` prints this tree's playouts per second (CPU time, one core) and
those of commit REV side by side: REV is checked out into a temporary directory
(`git archive`), and the two are measured in turns, each in a fresh process, the
best of `--rounds` rounds kept for each (the machine may be busy in between).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time

import reference

reference.tree_on_path()

from rulec.cli.simulate_command import simulate  # noqa: E402
from rulec.engine import new_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402
from rulec.players import RandomPlayer  # noqa: E402
from rulec.players.match import play_match  # noqa: E402

AIM = 200.0


def one_core(game, games: int) -> tuple[float, float]:
    """(playouts per CPU second, actions per CPU second) of random games in this process."""
    actions = 0
    started = time.process_time()
    for seed in range(games):
        state = new_game(game, seed=seed)
        actions += play_match(state, [RandomPlayer(seed * 2 + i) for i in range(len(state.players))], seed=seed).actions
    elapsed = time.process_time() - started
    return games / elapsed, actions / elapsed


def simulate_rate(name: str, game, games: int, jobs: int) -> float:
    kinds = {side: "random" for side in game.sides}
    started = time.perf_counter()
    simulate(name, game, (), kinds, range(games), jobs)
    return games / (time.perf_counter() - started)


def against(rev: str, game: str, games: int, rounds: int) -> None:
    """This tree and commit `rev`, side by side: each measured in a fresh process, in turns, the best round kept."""
    best = {"this": (0.0, 0.0), "reference": (0.0, 0.0)}
    with reference.checkout(rev) as reference_tree:
        for round_ in range(rounds):
            trees = [("this", reference.ROOT), ("reference", reference_tree)]
            for name, tree in trees if round_ % 2 == 0 else trees[::-1]:  # neither always runs first
                found = reference.run_json(tree, "playouts.py", ["--game", game, "-n", str(games), "--json"])
                best[name] = max(best[name], (found["playouts_per_s"], found["actions_per_s"]))
    print(f"{game}, {games} random games per measurement, best of {rounds} rounds, CPU time on one core")
    labels = (f"this ({reference.describe('HEAD')})", f"reference ({reference.describe(rev)})")
    width = max(map(len, labels))
    for label, (playouts, actions) in zip(labels, (best["this"], best["reference"])):
        print(f"  {label + ':':<{width + 1}} {playouts:8.1f} playouts/s  {actions:10.0f} actions/s")
    print(f"  ratio this/reference: x{best['this'][0] / best['reference'][0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("-n", type=int, default=200, help="games per measurement")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--against", metavar="REV", help="also measure commit REV, side by side")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: rounds, the best of each kept")
    parser.add_argument("--json", action="store_true", help="print only the one-core figures (CPU time), as JSON")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.game, args.n, args.rounds)
        return
    if args.json:
        game = load_game(args.game)
        one_core(game, 3)  # warm the per-game tables
        playouts, actions = one_core(game, args.n)
        print(json.dumps({"playouts_per_s": playouts, "actions_per_s": actions}))
        return
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
