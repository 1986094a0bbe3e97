"""rulec.pettingzoo: PettingZoo's own API test passes on every map game; masks, rewards and seeds behave."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from big_games import is_big

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install -e '.[pettingzoo]')")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulec.adapters.games import load, map_game_names  # noqa: E402
from rulec.engine import IllegalAction  # noqa: E402
from rulec.pettingzoo import env  # noqa: E402

TEST_GAMES = sorted(str(p) for p in Path("tests/games").glob("*.rulec"))
# api_test's advice (agent names like "player_0", a plain Box observation) is style, not the API.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")


@pytest.mark.parametrize("name", map_game_names())
def test_pettingzoos_api_test_passes_on_every_map_game(name):
    api_test(env(name), num_cycles=300 if is_big(load(name)) else 1000)


@pytest.mark.parametrize("path", TEST_GAMES)
def test_pettingzoos_api_test_passes_on_made_up_test_games(path):
    api_test(env(path), num_cycles=300)


def test_the_same_seed_plays_the_same_game():
    seed_test(lambda: env("drive_on_metz", options=["command_control"]), num_cycles=300)


def _play(e, seed: int) -> dict[str, float]:
    """A random game to its end; the rewards each agent was given."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {agent: 0.0 for agent in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() == len(e.engine.legal_actions())
        e.step(int(rng.choice(np.flatnonzero(mask))))
    return total


def test_a_whole_game_ends_with_the_engines_result_as_rewards():
    e = env("drive_on_metz")
    total = _play(e, seed=4)
    outcome = e.engine.outcome()
    assert e.engine.is_terminal()
    assert total == ({side: 0.0 for side in total} if outcome.winner is None else
                     {side: 1.0 if side == outcome.winner else -1.0 for side in total})


def test_only_the_agent_to_move_has_legal_actions_and_an_illegal_number_is_refused():
    e = env("drive_on_metz")
    e.reset(seed=0)
    mover = e.agent_selection
    other = next(a for a in e.agents if a != mover)
    assert e.observe(mover)["action_mask"].any() and not e.observe(other)["action_mask"].any()
    illegal = int(np.flatnonzero(e.observe(mover)["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="is not legal for"):
        e.step(illegal)


def test_a_game_cut_at_max_steps_is_truncated_not_terminated():
    e = env("drive_on_metz", max_steps=3)
    total = _play(e, seed=1)
    assert total == {side: 0.0 for side in total}
    assert not e.engine.is_terminal() and len(e.engine.history()) >= 3


def test_without_pettingzoo_installed_the_import_says_how_to_install_it(monkeypatch):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "rulec.pettingzoo")
    with pytest.raises(ImportError, match=r"pip install -e '\.\[pettingzoo\]'"):
        importlib.import_module("rulec.pettingzoo")


def test_pettingzoos_api_test_passes_on_a_scenario():
    from rulec.adapters.games import load, scenarios_of

    found = [(n, scenarios_of(load(n))[0]) for n in map_game_names() + TEST_GAMES if scenarios_of(load(n))]
    if not found:
        pytest.skip("no map game declares a scenario (the engine has none yet)")
    name, scenario = found[0]
    e = env(name, scenario=scenario)
    assert e.engine.scenario == scenario
    api_test(e, num_cycles=300)


def test_an_observation_is_the_callers_to_keep_and_shows_its_own_position():
    """The environment fills one tensor of its own at every observation and hands out a copy: an observation kept
    is not changed by the steps after it, and each shows the position it was taken in."""
    from rulec.adapters.observation import Layout

    e = env("drive_on_metz")
    e.reset(seed=2)
    layout, rng = Layout(e.model), np.random.default_rng(2)
    kept = []
    for agent in e.agent_iter(max_iter=40):
        observation, _, termination, truncation, _ = e.last()
        expected = np.zeros(layout.size, np.float32)
        layout.fill(layout.views(expected), e.engine, e.possible_agents.index(agent))
        assert np.array_equal(observation["observation"], expected)
        kept.append((observation["observation"], expected))
        e.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert len(kept) == 40 and not all(np.array_equal(kept[0][1], other) for _, other in kept[1:])
    assert all(np.array_equal(seen, expected) for seen, expected in kept)  # none changed since
