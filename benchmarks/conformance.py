"""The engine's conformance routine over many random games (default 1000), timed in CPU seconds.

    .venv/bin/python benchmarks/conformance.py [--game drive_on_metz|all] [-n 1000] [--seed 0]
    .venv/bin/python benchmarks/conformance.py --game the_marne --each-scenario -n 1000 --jobs 2
    .venv/bin/python benchmarks/conformance.py --game the_marne --each-scenario -n 20 --bare
    .venv/bin/python benchmarks/conformance.py --game the_marne --each-scenario -n 20 --against cf18180

The test suite runs a thousand of these games too (tests/test_engine_conformance.py);
this script times them, takes other games (`all`: every map game in games/), counts and
seeds, and exits non-zero if any promise is broken. The nightly-size run is -n 10000.
`--jobs N` shares the games among N processes (the same games as one process plays).
`--each-scenario` plays -n games of each scenario of a game that has scenarios (the
suite plays only a few of a big game's: tests/test_engine_conformance.py).
`--bare` also plays the same games without the checks and prints what the checks cost
beside the game itself, and what replaying a game's history costs (one of the checks,
the engine's time alone). `--against REV` prints, side by side, the CPU seconds a checked
game costs with this tree's conformance routine and engine and with commit REV's (each
measured in a fresh process, in turns for `--rounds` rounds), and this tree's bare game.
A routine older than scenarios (20317e9) checks its own promises, fewer than today's, in
one process (`--jobs` is not used there): the ratio compares the two routines as they were.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import reference

reference.tree_on_path()

from rulec.engine import new_game  # noqa: E402
from rulec.engine.conformance import check_game  # noqa: E402

try:
    from rulec.engine.conformance import ANY_SCENARIO
except ImportError:  # a routine older than scenarios (20317e9, --against): its games are numbered from 0, in one process
    ANY_SCENARIO = None
from rulec.pipeline import GAMES_DIR, load_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz", help="a game, or 'all' for every map game in games/")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--each-scenario", action="store_true", help="-n games of each scenario of a game that has scenarios")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes sharing the games")
    parser.add_argument("--bare", action="store_true", help="also play the same games unchecked, for comparison")
    parser.add_argument("--against", metavar="REV", help="also measure the checked games with commit REV, side by side")
    parser.add_argument("--rounds", type=int, default=1, help="with --against: rounds, the least time of each kept")
    parser.add_argument("--json", action="store_true", help="print only each row's CPU seconds a game, as JSON")
    args = parser.parse_args()
    if args.against:
        try:
            return against(args)
        except reference.MeasurementFailed as error:
            print(f"{args.game}: not measured against {reference.describe(args.against)}: {error.why}")
            return 1
    names = [args.game] if args.game != "all" else [p.stem for p in sorted(GAMES_DIR.glob("*.rulec"))]
    broken, rows = 0, {}
    for name in names:
        game = load_game(name)
        if game.map is None or not game.sequence:
            print(f"{name}: no map to play, skipped")
            continue
        _warm(game)
        scenarios = list(game.scenarios) if args.each_scenario and getattr(game, "scenarios", None) else [ANY_SCENARIO]
        for scenario in scenarios:
            label = name if scenario == ANY_SCENARIO else f"{name} / {scenario}"
            started = _cpu()
            problems = _check(name, args.n, args.seed, scenario, max(1, args.jobs))
            checked = (_cpu() - started) / args.n
            row = rows[label] = {"checked_s": checked}
            line = f"{label}: {args.n} random games checked, {checked:.3f} CPU s a game"
            if args.bare:
                bare, replay = row["bare_s"], row["replay_s"] = _bare_seconds(game, args.n, args.seed, scenario)
                line += (f"; unchecked {bare:.3f} s a game: a checked game costs x{checked / bare:.2f} an unchecked one"
                         f" (replaying its history, one of the checks, {replay:.3f} s)")
            if not args.json:
                print(line + f", {len(problems)} problem(s)", flush=True)
                for problem in problems:
                    print("  " + problem)
            broken += len(problems)
    if args.json:
        print(json.dumps(rows))
    return 1 if broken else 0


def against(args) -> int:
    """This tree and commit REV, each in a fresh process, in turns for --rounds rounds (the least CPU time of each row
    kept: the machine may be busy in between): CPU seconds a checked game, row by row."""
    common = ["--game", args.game, "-n", str(args.n), "--seed", str(args.seed), "--jobs", str(args.jobs), "--json"]
    if args.each_scenario:
        common.append("--each-scenario")
    best: dict[str, dict[str, dict[str, float]]] = {"this": {}, "reference": {}}
    with reference.checkout(args.against) as reference_tree:
        runs = [("this", reference.ROOT, [*common, "--bare"]), ("reference", reference_tree, common)]
        for round_ in range(args.rounds):
            for name, tree, arguments in runs if round_ % 2 == 0 else runs[::-1]:  # neither always runs first
                for row, found in reference.run_json(tree, "conformance.py", arguments).items():
                    kept = best[name].setdefault(row, found)
                    for key, seconds in found.items():
                        kept[key] = min(kept[key], seconds)
    this, before = best["this"], best["reference"]
    print(f"{args.game}, {args.n} random games a row, CPU seconds a game (all processes counted), "
          f"the least of {args.rounds} round(s)")
    labels = (f"checked, this ({reference.describe_this()})", f"checked, reference ({reference.describe(args.against)})")
    print(f"  {'':<32} {labels[0]:>36} {labels[1]:>36} {'unchecked (this)':>18} {'replay (this)':>15}")
    for row, found in this.items():
        old = before.get(row, {}).get("checked_s")
        ratio = f" x{found['checked_s'] / old:.2f}" if old else ""
        print(f"  {row:<32} {found['checked_s']:36.3f} {old or float('nan'):36.3f} {found['bare_s']:18.3f}"
              f" {found['replay_s']:15.3f}   this/reference{ratio}, checked/unchecked x{found['checked_s'] / found['bare_s']:.2f}")
    return 0


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _warm(game) -> None:
    """Play a few hundred random actions, so that the tables a game builds as it is played are not timed."""
    state, rng = new_game(game, seed=99), random.Random(99)
    for _ in range(300):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def _bare_seconds(game, n: int, seed: int, scenario: str | None) -> tuple[float, float]:
    """CPU seconds a game of the very games check_game plays, unchecked (random_game without its checks), and
    seconds a game replaying each one's history in a new game (check_game does it after every game)."""
    from rulec.engine.conformance import Report, random_game

    played = replayed = 0.0
    for i in range(n):
        started = time.process_time()
        state = random_game(game, seed * 1_000_003 + i, Report(), scenario=scenario, checks=False)
        middle = time.process_time()
        replay = new_game(game, options=state.options, seed=state.seed, scenario=state.scenario)
        for action in state.history():
            replay.apply_action(action)
        played, replayed = played + middle - started, replayed + time.process_time() - middle
    return played / n, replayed / n


def _chunk(name: str, n: int, seed: int, scenario: str | None, first: int) -> list[str]:
    if ANY_SCENARIO is None:
        return check_game(load_game(name), n_games=n, seed=seed)
    return check_game(load_game(name), n_games=n, seed=seed, scenario=scenario, first=first)


def _check(name: str, n: int, seed: int, scenario: str | None, jobs: int) -> list[str]:
    """check_game over n games, in `jobs` processes each playing a contiguous share of them."""
    if jobs == 1 or ANY_SCENARIO is None:  # an old routine cannot number a process's share of the games
        return _chunk(name, n, seed, scenario, 0)
    shares = [(n * k // jobs, n * (k + 1) // jobs) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(_chunk, *zip(*[(name, end - start, seed, scenario, start) for start, end in shares]))
        return [problem for part in parts for problem in part]


if __name__ == "__main__":
    sys.exit(main())
