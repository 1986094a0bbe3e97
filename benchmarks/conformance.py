"""The engine's conformance routine over many random games (default 1000), timed.

    .venv/bin/python benchmarks/conformance.py [--game drive_on_metz|all] [-n 1000] [--seed 0]
    .venv/bin/python benchmarks/conformance.py --game the_marne --each-scenario -n 1000 --jobs 2

The test suite runs a thousand of these games too (tests/test_engine_conformance.py);
this script times them, takes other games (`all`: every map game in games/), counts and
seeds, and exits non-zero if any promise is broken. The nightly-size run is -n 10000.
`--jobs N` shares the games among N processes (the same games as one process plays).
`--each-scenario` plays -n games of each scenario of a game that has scenarios (the
suite plays only a few of a big game's: tests/test_engine_conformance.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
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
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes sharing the games")
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
            problems = _check(name, args.n, args.seed, scenario, max(1, args.jobs))
            elapsed = time.perf_counter() - started
            print(f"{label}: {args.n} random games checked in {elapsed:.1f}s ({args.n / elapsed:.2f} games/s), "
                  f"{len(problems)} problem(s)", flush=True)
            for problem in problems:
                print("  " + problem)
            broken += len(problems)
    return 1 if broken else 0


def _chunk(name: str, n: int, seed: int, scenario: str | None, first: int) -> list[str]:
    return check_game(load_game(name), n_games=n, seed=seed, scenario=scenario, first=first)


def _check(name: str, n: int, seed: int, scenario: str | None, jobs: int) -> list[str]:
    """check_game over n games, in `jobs` processes each playing a contiguous share of them."""
    if jobs == 1:
        return _chunk(name, n, seed, scenario, 0)
    shares = [(n * k // jobs, n * (k + 1) // jobs) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(_chunk, *zip(*[(name, end - start, seed, scenario, start) for start, end in shares]))
        return [problem for part in parts for problem in part]


if __name__ == "__main__":
    sys.exit(main())
