"""The engine core's speed targets (issue 19, "Done when"), measured in one run: each target's figure beside its aim.

    .venv/bin/python benchmarks/targets.py                   # this tree as it runs: pure Python, or `make fast`'s build
    .venv/bin/python benchmarks/targets.py --tree DIR        # the rulec in DIR (a copy where the compiled engine is built)
    .venv/bin/python benchmarks/targets.py --slow            # also an MCTS-against-MCTS game of The Marne (minutes)
    .venv/bin/python benchmarks/targets.py --quick           # small counts, seconds: to check that it still runs

Each row is measured by the benchmark that owns it, each in a fresh process, CPU time on one core:
- Drive on Metz, random playouts at the whole-orders policy (listed by legal_orders(), and drawn by
  sample_legal_order(): the same distribution), against commit `--against` (20317e9, whose legal actions were
  whole orders): playouts.py, the two trees measured in turns, the best of `--rounds` rounds each. Aim: x4;
- The Marne, random playouts a second at the actions policy (listed, and drawn by sample_legal_action() as
  rulec's random player draws): playouts.py. Aim: 20 a second;
- µs per action from 20 to 500 units on the 5,000-hex made-up map: scaling.py's two sizes, the best of `--rounds`
  rounds each. Aim: at most x2;
- an MCTS-against-MCTS game of Drive on Metz (the players of `rulec play`, seed 1): ai.py. Aim: under 60 CPU s;
  with --slow, of The Marne too. Aim: under 15 CPU minutes;
- a greedy decision on The Marne, on average over a greedy-against-greedy game (seed 1): ai.py. Aim: under 5 ms.
The long tier's wall time (under 10 minutes on two cores) is CI's: `make test-long` prints it.

Which engine ran is said first (rulec --version of the tree): the compiled engine is chosen at install (make fast),
and the targets are the same for both. The machines are shared and noisy: a ratio's two sides are measured in
turns, and a figure is the best of its rounds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import playouts  # (which puts the rulec to measure on the path: reference.tree_on_path)
import reference

METZ, MARNE = "drive_on_metz", "the_marne"
WHOLE_ORDERS = ("orders", "orders, sampled")  # playouts.py's policies at the whole-orders policy
RANDOM_ACTIONS = ("actions", "actions, sampled")
AIM_METZ_RATIO = 4.0
AIM_MARNE_PER_S = 20.0
AIM_GROWTH = 2.0
AIM_MCTS_S = {METZ: 60.0, MARNE: 15 * 60.0}
AIM_GREEDY_MS = 5.0
SCALING_MAP = (100, 50)  # the made-up map of 5,000 hexes, the only one 20 and 500 units both fit on (scaling.py)
SCALING_UNITS = (20, 500)


@dataclass
class Counts:
    """How much each row measures."""

    metz_games: int
    rounds: int
    marne_games: int
    scaling_map: tuple[int, int]
    scaling_units: tuple[int, int]
    scaling_actions: int
    greedy_decisions: int  # the first decisions of the greedy game timed (0: all of them)


FULL = Counts(metz_games=200, rounds=3, marne_games=10, scaling_map=SCALING_MAP, scaling_units=SCALING_UNITS,
              scaling_actions=3000, greedy_decisions=0)  # (0: the whole game's)
QUICK = Counts(metz_games=3, rounds=1, marne_games=1, scaling_map=(9, 8), scaling_units=(4, 8), scaling_actions=60,
               greedy_decisions=5)


@dataclass
class Row:
    target: str
    figure: str
    aim: str
    met: bool | None  # None: not measured (why in `figure`)


def engine_of(tree: Path) -> str:
    """What `rulec --version` says of the tree: which engine runs there."""
    done = subprocess.run([sys.executable, "-m", "rulec", "--version"], cwd=tree, capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def metz_rows(tree: Path, rev: str, counts: Counts) -> list[Row]:
    """Drive on Metz at the whole-orders policy, this tree against `rev`, in turns, the best round of each kept."""
    try:
        with reference.checkout(rev) as reference_tree:
            best = playouts.best_of_rounds([("this", tree), ("reference", reference_tree)], METZ, counts.metz_games,
                                           counts.rounds)
    except reference.MeasurementFailed as error:
        return [Row(f"Drive on Metz, {policy}, x of {reference.describe(rev)}", f"not measured: {error.why}",
                    f">= x{AIM_METZ_RATIO:g}", None) for policy in WHOLE_ORDERS]
    rows = []
    for policy in WHOLE_ORDERS:
        ours, theirs = best["this"][policy]["playouts_per_s"], best["reference"][policy]["playouts_per_s"]
        ratio = ours / theirs
        # a reference without the samplers (20317e9) lists its orders and chooses where this tree draws: the same
        # distribution of games
        listing = "" if best["reference"].get("samplers") or "sampled" not in policy else ", the reference listed"
        rows.append(Row(f"Drive on Metz, {policy}, x of {reference.describe(rev)}",
                        f"x{ratio:.2f} ({ours:.0f} against {theirs:.0f} playouts/s{listing})",
                        f">= x{AIM_METZ_RATIO:g}", ratio >= AIM_METZ_RATIO))
    return rows


def marne_rows(tree: Path, counts: Counts) -> list[Row]:
    found = reference.run_json(tree, "playouts.py", ["--game", MARNE, "-n", str(counts.marne_games), "--json"])
    return [Row(f"The Marne, {policy}", f"{found[policy]['playouts_per_s']:.2f} playouts/s",
                f">= {AIM_MARNE_PER_S:g}/s", found[policy]["playouts_per_s"] >= AIM_MARNE_PER_S)
            for policy in RANDOM_ACTIONS]


def scaling_row(tree: Path, counts: Counts, timeout: float) -> Row:
    """The growth of µs per action from the fewest units to the most, each size's best of `counts.rounds` rounds (as
    scaling.py keeps them: at 20 units a round times a fraction of a second, easily disturbed)."""
    (columns, rows), sizes = counts.scaling_map, counts.scaling_units
    label = f"µs per action, {sizes[0]} to {sizes[1]} units ({columns * rows} hexes)"
    best: dict[int, float] = {}
    for round_ in range(counts.rounds):
        for units in sizes if round_ % 2 == 0 else sizes[::-1]:
            try:
                found = reference.run_json(tree, "scaling.py", ["--one", str(columns), str(rows), str(units),
                                                              "--actions", str(counts.scaling_actions)], timeout)
            except subprocess.TimeoutExpired:
                return Row(label, f"not measured: {units} units took over {timeout:.0f} s", f"<= x{AIM_GROWTH:g}", None)
            best[units] = min(best.get(units, found["us_per_action"]), found["us_per_action"])
    low, high = best[sizes[0]], best[sizes[1]]
    growth = high / low
    return Row(label, f"x{growth:.2f} ({low:.0f} to {high:.0f} µs)", f"<= x{AIM_GROWTH:g}", growth <= AIM_GROWTH)


def mcts_row(tree: Path, game: str) -> Row:
    aim = AIM_MCTS_S[game]
    found = reference.run_json(tree, "ai.py", ["--game", game, "-n", "1", "--max-seconds", str(aim * 2), "--json"])
    seconds, ended = found["mcts_seconds"][0], found["mcts_finished"][0]
    figure = f"{seconds:.2f} CPU s" + ("" if ended else f", NOT ENDED (stopped in turn {found['mcts_turns'][0]})")
    return Row(f"MCTS against MCTS, a game of {game}", figure, f"< {aim:g} CPU s", ended and seconds < aim)


def greedy_row(tree: Path, counts: Counts) -> Row:
    found = reference.run_json(tree, "ai.py", ["--game", MARNE, "-n", "0", "--greedy-decisions",
                                               str(counts.greedy_decisions), "--json"])
    timed = f"first {found['greedy_decisions']}" if counts.greedy_decisions else f"a game's {found['greedy_decisions']}"
    return Row(f"greedy decision on {MARNE} ({timed})", f"{found['greedy_ms']:.2f} ms",
               f"< {AIM_GREEDY_MS:g} ms", found["greedy_ms"] < AIM_GREEDY_MS)


def measure(tree: Path, rev: str, counts: Counts, slow: bool, timeout: float) -> list[Row]:
    rows = metz_rows(tree, rev, counts) + marne_rows(tree, counts) + [scaling_row(tree, counts, timeout),
                                                                     mcts_row(tree, METZ)]
    if slow:
        rows.append(mcts_row(tree, MARNE))
    rows.append(greedy_row(tree, counts))
    return rows


def print_table(rows: list[Row]) -> None:
    width = max(len(row.target) for row in rows)
    figure_width = max(len(row.figure) for row in rows)
    for row in rows:
        verdict = "not measured" if row.met is None else "met" if row.met else "NOT met"
        print(f"  {row.target:<{width}}  {row.figure:<{figure_width}}  aim {row.aim:<12} {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="the rulec tree to measure (default: this one)")
    parser.add_argument("--against", default="20317e9", metavar="REV",
                        help="the commit Drive on Metz is compared with (default: 20317e9, the issue's)")
    parser.add_argument("--rounds", type=int, help="rounds of the Drive on Metz comparison and of the scaling sizes, "
                        "the best of each kept (3; 1 with --quick)")
    parser.add_argument("--slow", action="store_true", help="also an MCTS-against-MCTS game of The Marne")
    parser.add_argument("--quick", action="store_true", help="small counts and sizes: to check that it still runs")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds a scaling size may take")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    tree = (args.tree or reference.ROOT).resolve()
    if not (tree / "rulec" / "__init__.py").is_file():
        parser.error(f"--tree {args.tree}: no rulec package there")
    counts = QUICK if args.quick else FULL
    if args.rounds:
        counts = Counts(**{**vars(counts), "rounds": args.rounds})
    engine = engine_of(tree)
    if not args.json:
        print(f"the engine's targets (issue 19), CPU time on one core: {engine} in {tree}"
              + (" (--quick: small counts, not the targets' sizes)" if args.quick else ""), flush=True)
    rows = measure(tree, args.against, counts, args.slow, args.timeout)
    if args.json:
        print(json.dumps({"engine": engine, "quick": args.quick, "rows": [vars(row) for row in rows]}))
    else:
        print_table(rows)
        print("  long tier under 10 minutes on two cores: see `make test-long` (CI runs it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
