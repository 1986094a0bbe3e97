"""The engine's conformance routine over many random games (default 1000), timed.

    .venv/bin/python benchmarks/conformance.py [--game drive_on_metz|all] [-n 1000] [--seed 0]
    .venv/bin/python benchmarks/conformance.py --game the_marne --each-scenario -n 1000

The test suite runs a thousand of these games too (tests/test_engine_conformance.py);
this script times them, takes other games (`all`: every map game in games/), counts and
seeds, and exits non-zero if any promise is broken. The nightly-size run is -n 10000.
`--each-scenario` plays -n games of each scenario of a game that has scenarios (the
suite plays only a few of a big game's: tests/test_engine_conformance.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulec.engine.conformance import ANY_SCENARIO, check_game  # noqa: E402
from rulec.pipeline import GAMES_DIR, load_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz", help="a game, or 'all' for every map game in games/")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--each-scenario", action="store_true", help="-n games of each scenario of a game that has scenarios")
    args = parser.parse_args()
    names = [args.game] if args.game != "all" else [p.stem for p in sorted(GAMES_DIR.glob("*.rulec"))]
    broken = 0
    for name in names:
        game = load_game(name)
        if game.map is None or not game.sequence:
            print(f"{name}: no map to play, skipped")
            continue
        scenarios = list(game.scenarios) if args.each_scenario and game.scenarios else [ANY_SCENARIO]
        for scenario in scenarios:
            label = name if scenario == ANY_SCENARIO else f"{name} / {scenario}"
            started = time.perf_counter()
            problems = check_game(game, n_games=args.n, seed=args.seed, scenario=scenario)
            elapsed = time.perf_counter() - started
            print(f"{label}: {args.n} random games checked in {elapsed:.1f}s ({args.n / elapsed:.2f} games/s), "
                  f"{len(problems)} problem(s)", flush=True)
            for problem in problems:
                print("  " + problem)
            broken += len(problems)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
