"""How strong the AI players are: one player kind against another, from each side.

    python benchmarks/strength.py greedy random -n 50 [--game drive_on_metz] [--jobs 2] [--scenario S]
    python benchmarks/strength.py greedy random -n 100 --game the_marne   # 200 games, 100 from each side

For each side the first kind plays it against the second kind on the other
side(s), over seeds 0..n-1; prints wins, losses and draws of the first kind, then
its win rate over every game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulec.cli.simulate_command import simulate  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("-n", type=int, default=50)
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenario", default=None, help="a scenario of the game (default: the game's own)")
    args = parser.parse_args()
    game = load_game(args.game)
    sides = list(game.sides)
    total = wins = 0
    for side in sides:
        kinds = {s: (args.first if s == side else args.second) for s in sides}
        started = time.perf_counter()
        records = simulate(args.game, game, (), kinds, range(args.seed, args.seed + args.n), args.jobs,
                           scenario=args.scenario)
        won = sum(r.winner == side for r in records)
        drawn = sum(r.winner is None for r in records)
        lost = len(records) - won - drawn
        print(f"{args.first} as {side} vs {args.second}: {len(records)} games, won {won} ({100 * won / len(records):.0f}%), "
              f"lost {lost}, drawn {drawn}  [{time.perf_counter() - started:.1f}s]", flush=True)
        total, wins = total + len(records), wins + won
    print(f"{args.first} against {args.second}: won {wins} of {total} games ({100 * wins / max(total, 1):.0f}%)")


if __name__ == "__main__":
    main()
