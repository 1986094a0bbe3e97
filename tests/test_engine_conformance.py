"""Conformance of the engine on every map game in games/: random games break no promise."""

from __future__ import annotations

import pytest
from big_games import is_big

from rulec.engine import new_game
from rulec.engine.conformance import ANY_SCENARIO, check_game, check_state, snapshot
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

MAP_GAMES = [p.stem for p in sorted(GAMES_DIR.glob(f"*{SUFFIX}")) if load_game(str(p)).map is not None]


RANDOM_GAMES = 1000  # the bar: a thousand random games break no invariant (about 45 s for Drive on Metz)
SHARES = 4  # ...played as four tests of 250 games (games 0-249, 250-499, ...: the same thousand games), which the
# suite's worker processes (make test: pytest-xdist) share out, rather than one test that alone outlasts the rest
# A big game costs seconds a random game: one game of each of its scenarios (played twice: the same seed gives the same game);
# benchmarks/conformance.py plays a thousand of each outside the suite.
BIG_GAME_GAMES = 1


def _budget(name: str) -> list[tuple[str | None, int, int]]:
    """(scenario, first game, games) to check for a game: a thousand random games in shares, or for a big game a few
    of each scenario."""
    game = load_game(name)
    if not is_big(game):
        share = RANDOM_GAMES // SHARES
        return [(ANY_SCENARIO, first, share) for first in range(0, RANDOM_GAMES, share)]
    return [(scenario, 0, BIG_GAME_GAMES) for scenario in (game.scenarios or [None])]


CHECKS = [(name, scenario, first, games) for name in MAP_GAMES for scenario, first, games in _budget(name)]


def _check_id(name: str, scenario: str | None, first: int, games: int) -> str:
    return f"{name}-{scenario}" if scenario != ANY_SCENARIO else f"{name}-games-{first}-{first + games - 1}"


@pytest.mark.parametrize("name, scenario, first, games", CHECKS, ids=[_check_id(*check) for check in CHECKS])
def test_random_games_keep_every_promise(name, scenario, first, games):
    assert check_game(load_game(name), n_games=games, seed=1, scenario=scenario, first=first) == []


def test_each_small_map_game_plays_its_thousand_random_games():
    """The shares of a small game add up to the thousand games 0-999, each played once."""
    for name in MAP_GAMES:
        shares = [(first, games) for n, scenario, first, games in CHECKS if n == name and scenario == ANY_SCENARIO]
        if shares:
            played = [i for first, games in shares for i in range(first, first + games)]
            assert played == list(range(RANDOM_GAMES))


def test_a_variant_without_passing_through_friends_keeps_every_promise(metz):
    from dataclasses import replace

    variant = replace(metz, stacking=replace(metz.stacking, pass_through_friendly=False, limit=2))
    assert check_game(variant, n_games=4, seed=2) == []


def test_the_checks_can_fail(metz):
    state = new_game(metz)
    assert check_state(state) == []
    state.vp["us"] = 3  # VP not in the log
    state.pos["de_106"] = "0101"  # a pending unit on the map
    problems = check_state(state)
    assert any("VP log" in p for p in problems) and any("de_106" in p for p in problems)


def test_snapshot_tells_states_apart(metz):
    state = new_game(metz)
    other = state.clone()
    assert snapshot(state) == snapshot(other)
    other.apply_action(other.legal_actions()[0])
    assert snapshot(state) != snapshot(other)


@pytest.mark.parametrize("name", ["two_steps", "bombardment", "mandatory_combat"])
def test_random_games_of_units_with_steps_ranges_and_duties_keep_every_promise(name):
    from pathlib import Path
    game = load_game(str(Path(__file__).parent / "games" / f"{name}.rulec"))
    assert check_game(game, n_games=200, seed=3) == []
