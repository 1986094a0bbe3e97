"""Five hundred random games of each scenario of every big game through the engine's promises.

A random game of a big game (a hundred units or more: tests/big_games.py) costs seconds with the checks, so these
games are the suite's `long` tier: `make test` leaves them out, `make test-long` and CI (.ci/run) play them, each
scenario's five hundred shared among the machine's cores. tests/test_engine_conformance.py plays one of each scenario
in `make test`; benchmarks/conformance.py times the same games.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from big_games import is_big

from rulec.engine.conformance import check_game
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

pytestmark = pytest.mark.long

GAMES_A_SCENARIO = 500  # half the bar of a thousand: a checked Marne game now costs about twice what it did (retreats,
# entries, duties and stacking play more), and a thousand of each scenario would pass CI's 90 minutes (issue 19)
BATCH = 100  # games a test: a test ends (and pytest says so) every minute or two, and a failure names its games
SHARE = 10  # games a worker process plays at a time: small shares keep every core busy to the end of a batch
SEED = 1  # the games are numbered 0..999 under this seed: the same games on every machine


@functools.cache
def _loaded(name: str):
    """A game, loaded once: here, so that the worker processes (forked) start with it. Loading The Marne costs
    about a second, and its games share what the engine works out once a game (its tables, the searches and traces
    it keeps): loaded again for each share of ten games, every share would start cold."""
    return load_game(name)


BIG_GAMES = [p.stem for p in sorted(GAMES_DIR.glob(f"*{SUFFIX}"))
             if (g := _loaded(p.stem)).map is not None and is_big(g)]
CHECKS = [(name, scenario, first) for name in BIG_GAMES for scenario in (_loaded(name).scenarios or [None])
          for first in range(0, GAMES_A_SCENARIO, BATCH)]


def _share(name: str, scenario: str | None, first: int, games: int) -> list[str]:
    return check_game(_loaded(name), n_games=games, seed=SEED, scenario=scenario, first=first)


def _in_parallel(name: str, scenario: str | None, first: int, games: int, workers: int) -> list[str]:
    """check_game over games first..first+games-1, in shares handed to `workers` processes as they free up (new
    processes for each batch: what a game keeps grows with the games played, up to its caches' bounds)."""
    starts = range(first, first + games, SHARE)
    with ProcessPoolExecutor(workers) as pool:
        parts = pool.map(_share, [name] * len(starts), [scenario] * len(starts), starts,
                         [min(SHARE, first + games - s) for s in starts])
        return [problem for part in parts for problem in part]


@pytest.mark.parametrize("name, scenario, first", CHECKS,
                         ids=[f"{n}-{s}-games-{f}-{f + BATCH - 1}" for n, s, f in CHECKS])
def test_random_games_of_each_scenario_keep_every_promise(name, scenario, first):
    problems = _in_parallel(name, scenario, first, BATCH, max(1, os.cpu_count() or 1))
    assert problems == []


def test_the_long_tier_plays_its_games_of_each_scenario_of_every_big_game():
    assert "the_marne" in BIG_GAMES
    for name in BIG_GAMES:
        for scenario in _loaded(name).scenarios or [None]:
            firsts = sorted(f for n, s, f in CHECKS if (n, s) == (name, scenario))
            assert firsts == list(range(0, GAMES_A_SCENARIO, BATCH)) and BATCH % SHARE == 0
