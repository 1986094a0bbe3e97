"""Five hundred random games of each scenario of every big game through the engine's promises.

A random game of a big game (a hundred units or more: tests/big_games.py) costs seconds with the checks, so these
games are the suite's `long` tier: `make test` leaves them out, `make test-long` and CI (.ci/run) play them, each
scenario's five hundred shared among the machine's cores. tests/test_engine_conformance.py plays one of each scenario
in `make test`; benchmarks/conformance.py times the same games.

They are played by the compiled engine (make fast), built once a session for the long tier (tests/compiled_engine.py),
where this machine can build it: it plays them in about 0.6 of pure Python's time, and tests/test_engine_compiled.py
shows that it plays the same games as pure Python. Elsewhere, or with RULEC_PURE=1, pure Python plays them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from big_games import is_big
from conformance_batches import SHARE, in_parallel, loaded

from rulec.pipeline import GAMES_DIR, SUFFIX

pytestmark = pytest.mark.long

GAMES_A_SCENARIO = 500  # half the bar of a thousand: a checked Marne game now costs about twice what it did (retreats,
# entries, duties and stacking play more), and a thousand of each scenario would pass CI's 90 minutes (issue 19)
BATCH = 50  # games a test: a test ends (and pytest says so) every half minute or so, and a failure names its games;
# small enough that the last batch, which the other workers do not share, keeps one core busy for a short while only
RUNNER = Path(__file__).resolve().parent / "conformance_batches.py"

BIG_GAMES = [p.stem for p in sorted(GAMES_DIR.glob(f"*{SUFFIX}"))
             if (g := loaded(p.stem)).map is not None and is_big(g)]
CHECKS = [(name, scenario, first) for name in BIG_GAMES for scenario in (loaded(name).scenarios or [None])
          for first in range(0, GAMES_A_SCENARIO, BATCH)]


def _compiled(tree: Path, name: str, scenario: str | None, first: int, games: int, workers: int) -> list[str]:
    """The batch played by the compiled engine built in `tree`, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree), "RULEC_PURE": "0"}
    done = subprocess.run([sys.executable, str(RUNNER), name, scenario or "", str(first), str(games), str(workers)],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["engine"] == "compiled engine (mypyc)", found["engine"]
    return found["problems"]


def processes_a_batch() -> int:
    """The machine's cores, shared among the pytest-xdist workers running batches side by side (make test-long): a
    core each, on the two cores of CI."""
    workers_running = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return max(1, (os.cpu_count() or 1) // workers_running)


@pytest.mark.parametrize("name, scenario, first", CHECKS,
                         ids=[f"{n}-{s}-games-{f}-{f + BATCH - 1}" for n, s, f in CHECKS])
def test_random_games_of_each_scenario_keep_every_promise(name, scenario, first, compiled_tree):
    workers = processes_a_batch()
    if compiled_tree.path is None:  # pure Python, in this process's forks
        problems = in_parallel(name, scenario, first, BATCH, workers)
    else:
        problems = _compiled(compiled_tree.path, name, scenario, first, BATCH, workers)
    assert problems == []


def test_the_long_tier_plays_its_games_of_each_scenario_of_every_big_game():
    assert "the_marne" in BIG_GAMES
    for name in BIG_GAMES:
        for scenario in loaded(name).scenarios or [None]:
            firsts = sorted(f for n, s, f in CHECKS if (n, s) == (name, scenario))
            assert firsts == list(range(0, GAMES_A_SCENARIO, BATCH)) and BATCH % SHARE == 0
