"""Random playouts of a game: full games per second and actions per second on one core,
and how `rulec simulate` scales from one worker process to two.

    .venv/bin/python benchmarks/playouts.py [--game drive_on_metz] [-n 200] [--profile]
    .venv/bin/python benchmarks/playouts.py --against 20317e9 [-n 200] [--rounds 3]
    .venv/bin/python benchmarks/playouts.py --side-by-side drive_on_metz,the_marne [--seconds 10] [--top 12]

The aim for Drive on Metz is 200 random playouts per second on one core.
`--profile` prints where the time of the one-core run goes (cProfile, top 25).
`--against REV` prints this tree's playouts per second (CPU time, one core) and
those of commit REV side by side: REV is checked out into a temporary directory
(`git archive`), and the two are measured in turns, each in a fresh process, the
best of `--rounds` rounds kept for each (the machine may be busy in between).
`--side-by-side` measures several games in one run (each scenario of a game that has
scenarios), as many games a row as fit in `--seconds` of CPU time, prints each row's
ratio to the first game's, then each game's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
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


def one_core(game, games: int, scenario: str | None = None, seconds: float | None = None) -> tuple[float, float]:
    """(playouts per CPU second, actions per CPU second) of random games in this process: `games` of them, or
    with `seconds` as many as fit in that much CPU time (at least two)."""
    actions = played = 0
    started = time.process_time()
    for seed in range(games if seconds is None else 1_000_000):
        if seconds is not None and played >= 2 and time.process_time() - started >= seconds:
            break
        # a reference engine older than scenarios (--against) takes no scenario argument
        state = new_game(game, seed=seed, scenario=scenario) if scenario else new_game(game, seed=seed)
        actions += play_match(state, [RandomPlayer(seed * 2 + i) for i in range(len(state.players))], seed=seed).actions
        played += 1
    elapsed = time.process_time() - started
    return played / elapsed, actions / elapsed


def decision_sizes(game, scenario: str | None, seed: int = 0) -> tuple[float, int]:
    """(mean, largest) number of legal actions at the players' decisions of one random game (not timed)."""
    state = new_game(game, seed=seed, scenario=scenario) if scenario else new_game(game, seed=seed)
    rng, sizes = random.Random(seed), []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        actions = state.legal_actions()
        sizes.append(len(actions))
        state.apply_action(rng.choice(actions))
    return sum(sizes) / max(1, len(sizes)), max(sizes, default=0)


def side_by_side(names: list[str], seconds: float, top: int) -> None:
    """Each game's random playouts per CPU second (each scenario of a game that has them) beside the first
    game's, the size of its decisions, then where each game's time goes (its top functions by own time)."""
    rows = []
    for name in names:
        game = load_game(name)
        for scenario in list(game.scenarios) or [None]:
            one_core(game, 1, scenario)  # warm the per-game tables
            playouts, actions = one_core(game, 0, scenario, seconds)
            rows.append((name + (f" / {scenario}" if scenario else ""), playouts, actions, decision_sizes(game, scenario)))
    print(f"random playouts, CPU time on one core (about {seconds:.0f} s a row); legal actions a decision, mean and largest")
    width = max(len(row[0]) for row in rows)
    for label, playouts, actions, (mean, largest) in rows:
        print(f"  {label:<{width}} {playouts:9.2f} playouts/s {actions:9.0f} actions/s {mean:6.1f} / {largest:4d} actions"
              f"   x{playouts / rows[0][1]:.3f} of {rows[0][0]}'s playouts/s, x{actions / rows[0][2]:.2f} its actions/s")
    for name in names:
        game = load_game(name)
        profiler = cProfile.Profile()
        profiler.enable()
        one_core(game, 0, None, seconds / 2)
        profiler.disable()
        print(f"\nwhere {name}'s time goes (top {top} functions by own time, profiled):")
        stats = pstats.Stats(profiler)
        total = sum(row[2] for row in stats.stats.values()) or 1.0
        ranked = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
        for (path, line, function), (_, calls, own, cumulative, _) in ranked:
            where = f"{path.rsplit('rulec/', 1)[-1]}:{line}({function})"
            print(f"  {own / total:6.1%} own  {cumulative / total:6.1%} with callees  {calls:9d} calls  {where}")


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
    parser.add_argument("--side-by-side", metavar="GAMES", help="comma-separated games (e.g. drive_on_metz,the_marne): "
                        "playouts/s of each (and of each scenario) beside the first's, and their top functions")
    parser.add_argument("--seconds", type=float, default=10.0, help="with --side-by-side: CPU seconds a row")
    parser.add_argument("--top", type=int, default=12, help="with --side-by-side: functions listed a game")
    args = parser.parse_args()
    if args.side_by_side:
        side_by_side(args.side_by_side.split(","), args.seconds, args.top)
        return
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
