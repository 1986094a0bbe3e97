"""The engine's conformance routine over many random games (default 1000), timed.

    .venv/bin/python benchmarks/conformance.py [--game drive_on_metz] [-n 1000] [--seed 0]

The test suite runs a thousand of these games too (tests/test_engine_conformance.py);
this script times them, takes other games, counts and seeds, and exits non-zero if
any promise is broken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulec.engine.conformance import check_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = load_game(args.game)
    started = time.perf_counter()
    problems = check_game(game, n_games=args.n, seed=args.seed)
    elapsed = time.perf_counter() - started
    print(f"{args.game}: {args.n} random games checked in {elapsed:.1f}s ({args.n / elapsed:.1f} games/s), "
          f"{len(problems)} problem(s)")
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
