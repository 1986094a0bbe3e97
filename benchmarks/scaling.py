"""How the engine scales with the map and the number of units: load time, peak memory, CPU time per action.

    .venv/bin/python benchmarks/scaling.py            # 100, 1,000 and 5,000 hexes, 20 to 400 units
    .venv/bin/python benchmarks/scaling.py --quick    # tiny sizes, seconds (a test runs it so it never rots)
    .venv/bin/python benchmarks/scaling.py --against 20317e9   # and a reference commit, row under row

Each size is a made-up game (benchmarks/made_up_game.py) compiled through the
normal pipeline, then played by random players, in a fresh process of its own
(so its peak memory is its own). Columns:

- compile: game text -> game model (parse, check, build), CPU seconds;
- load: the engine's tables, a new game and its first legal actions, CPU seconds;
- peak MB: the process's peak resident memory, imports included;
- us/action: CPU microseconds per action of random play (legal actions, choice, apply);
- per unit: us/action divided by the number of units: flat when the cost per action
  grows no faster than linearly in units.

Aims: load under 2 s and peak under 200 MB at 5,000 hexes; `per unit` not growing with units.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import reference

reference.tree_on_path()

# (columns, rows) of each map, and the unit counts tried on it (those that fit).
FULL_MAPS = ((10, 10), (40, 25), (100, 50))
FULL_UNITS = (20, 100, 400)
FULL_ACTIONS = 3000
QUICK_MAPS = ((6, 5), (9, 8))
QUICK_UNITS = (4, 8)
QUICK_ACTIONS = 60
LOAD_AIM_S, MEMORY_AIM_MB, AIM_HEXES = 2.0, 200.0, 5000


def measure(columns: int, rows: int, units: int, actions: int, seed: int = 0) -> dict:
    """One size, measured in this process (see `main` for a fresh process per size)."""
    from made_up_game import compile_text, game_text

    from rulec.engine import new_game
    from rulec.players import RandomPlayer
    from rulec.players.base import sample_chance
    from rulec.players.match import chance_rng

    text = game_text(columns, rows, units)
    started = time.process_time()
    game = compile_text(text)
    compiled = time.process_time()
    state = new_game(game, seed=seed)
    state.legal_actions()
    loaded = time.process_time()
    players = [RandomPlayer(seed * 2 + i) for i in range(len(state.players))]
    rng = chance_rng(seed)
    played = 0
    started_play = time.process_time()
    while played < actions:
        if state.is_terminal():  # a short game: play another to make up the count
            state = new_game(game, seed=seed + played)
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = players[state.current_player()].choose(state)
        state.apply_action(action)
        played += 1
    per_action = (time.process_time() - started_play) / played
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    return {"hexes": len(game.map.hexes), "units": len(game.units), "compile_s": compiled - started,
            "load_s": loaded - compiled, "peak_mb": peak, "us_per_action": per_action * 1e6}


def in_fresh_process(tree: Path, columns: int, rows: int, units: int, actions: int, timeout: float) -> dict | None:
    """`measure` in a fresh process, against the rulec in `tree`; None if it took longer than `timeout`."""
    try:
        return reference.run_json(tree, "scaling.py", ["--one", str(columns), str(rows), str(units),
                                                       "--actions", str(actions)], timeout)
    except subprocess.TimeoutExpired:
        return None


def sizes(quick: bool) -> list[tuple[int, int, int]]:
    maps, unit_counts = (QUICK_MAPS, QUICK_UNITS) if quick else (FULL_MAPS, FULL_UNITS)
    # A side stands on every other hex of its half of the map: sizes where that does not fit are left out.
    return [(c, r, u) for c, r in maps for u in unit_counts if u // 2 <= (c // 2) * (r // 2)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to check the benchmark still runs")
    parser.add_argument("--actions", type=int, help="random actions timed per size")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a size may take before it is given up")
    parser.add_argument("--against", metavar="REV", help="also measure commit REV: its row under this tree's")
    parser.add_argument("--one", nargs=3, type=int, metavar=("COLUMNS", "ROWS", "UNITS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    actions = args.actions or (QUICK_ACTIONS if args.quick else FULL_ACTIONS)
    if args.one:
        print(json.dumps(measure(*args.one, actions)))
        return 0
    if args.against:
        with reference.checkout(args.against) as tree:
            trees = [("this", reference.ROOT), (reference.describe(args.against), tree)]
            return _table(args, actions, trees)
    return _table(args, actions, [("", reference.ROOT)])


def _table(args: argparse.Namespace, actions: int, trees: list[tuple[str, Path]]) -> int:
    label = max(len(name) for name, _ in trees)
    print(f"{'':{label}}{' ' if label else ''}{'hexes':>6} {'units':>5} {'compile s':>9} {'load s':>7} {'peak MB':>8}"
          f" {'us/action':>10} {'per unit':>9}")
    failed = False
    for columns, rows, units in sizes(args.quick):
        for name, tree in trees:
            lead = f"{name:{label}} " if label else ""
            row = in_fresh_process(tree, columns, rows, units, actions, args.timeout)
            if row is None:
                print(f"{lead}{columns * rows:>6} {units:>5}  gave up after {args.timeout:.0f} s", flush=True)
                failed |= tree == reference.ROOT
                continue
            print(f"{lead}{row['hexes']:>6} {row['units']:>5} {row['compile_s']:>9.2f} {row['load_s']:>7.2f}"
                  f" {row['peak_mb']:>8.0f} {row['us_per_action']:>10.0f} {row['us_per_action'] / row['units']:>9.1f}",
                  flush=True)
            if row["hexes"] >= AIM_HEXES and tree == reference.ROOT:
                met = row["load_s"] < LOAD_AIM_S and row["peak_mb"] < MEMORY_AIM_MB
                failed |= not met
                print(f"{'':{label + 12}} aim at {AIM_HEXES} hexes: load under {LOAD_AIM_S:.0f} s and"
                      f" {MEMORY_AIM_MB:.0f} MB: {'met' if met else 'NOT met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
