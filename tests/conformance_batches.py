"""A batch of the long tier's checked games (tests/test_engine_conformance_long.py), shared among worker processes.

Run in the test's own process (pure Python), or as a script in a tree where the compiled engine is built, in a
process of its own (the test's process has imported the pure-Python engine already):

    PYTHONPATH=TREE RULEC_PURE=0 python tests/conformance_batches.py GAME SCENARIO FIRST GAMES WORKERS

prints, as JSON, the engine that played and the broken promises found (none: an empty list).
"""

from __future__ import annotations

import functools
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from rulec.engine.conformance import check_game
from rulec.pipeline import load_game

SHARE = 10  # games a worker process plays at a time: small shares keep every core busy to the end of a batch
SEED = 1  # the games are numbered 0..999 under this seed: the same games on every machine


@functools.cache
def loaded(name: str):
    """A game, loaded once: here, so that the worker processes (forked) start with it. Loading The Marne costs
    about a second, and its games share what the engine works out once a game (its tables, the searches and traces
    it keeps): loaded again for each share of ten games, every share would start cold."""
    return load_game(name)


def _share(name: str, scenario: str | None, first: int, games: int) -> list[str]:
    return check_game(loaded(name), n_games=games, seed=SEED, scenario=scenario, first=first)


def in_parallel(name: str, scenario: str | None, first: int, games: int, workers: int) -> list[str]:
    """check_game over games first..first+games-1, in shares handed to `workers` processes as they free up (new
    processes for each batch: what a game keeps grows with the games played, up to its caches' bounds)."""
    loaded(name)  # before the workers fork
    starts = range(first, first + games, SHARE)
    with ProcessPoolExecutor(workers) as pool:
        parts = pool.map(_share, [name] * len(starts), [scenario] * len(starts), starts,
                         [min(SHARE, first + games - s) for s in starts])
        return [problem for part in parts for problem in part]


def main(argv: list[str]) -> None:
    from rulec.fast_path import engine_kind

    name, scenario, first, games, workers = argv
    problems = in_parallel(name, scenario or None, int(first), int(games), int(workers))
    print(json.dumps({"engine": engine_kind(), "problems": problems}))


if __name__ == "__main__":
    main(sys.argv[1:])
