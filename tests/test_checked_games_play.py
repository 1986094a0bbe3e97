"""What the checker accepts, the engine plays: every game file of the project that `rulec check` passes
(games/, the made-up games of tests/games/ with the tutorial's stages, the good files of the bad-game
corpus) starts with `new_game` and plays a short random game, in each of its scenarios and with each of
its options, without an exception. A file that fails here is a checker that let a meaningless game through, or an engine bug:
fix the cause, never skip the file.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from rulec.engine.scenarios import ScenarioError
from rulec.engine.state import new_game
from rulec.pipeline import check_file

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted([*(ROOT / "games").glob("*.rulec"), *(ROOT / "tests" / "games").rglob("*.rulec"),
                     *(ROOT / "tests" / "bad_games").glob("ok_*.rulec")])
ACTIONS = 200  # a turn or two of most games; enough to reach combat, retreats and the end of a turn


def checked(path: Path):
    result = check_file(str(path))
    return result.game if result.ok else None


def play_randomly(game, scenario: str | None, options: tuple[str, ...], seed: int) -> int:
    """A random game of up to ACTIONS actions, chance nodes rolled by their odds; the actions played."""
    state, rng = new_game(game, seed=seed, scenario=scenario, options=options), random.Random(seed)
    for played in range(ACTIONS):
        if state.is_terminal():
            return played
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            legal = state.legal_actions()
            assert legal, f"turn {state.turn}, phase {state.phase.id}: a position with no legal action that is not the end"
            state.apply_action(rng.choice(legal))
    return ACTIONS


def test_the_files_include_every_kind_of_game_file():
    names = {p.relative_to(ROOT).as_posix() for p in GAME_FILES}
    assert {"games/the_marne.rulec", "tests/games/tutorial/stage4.rulec", "tests/bad_games/ok_minimal.rulec"} <= names
    assert len(GAME_FILES) > 60


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_game_that_checks_plays(path: Path):
    game = checked(path)
    if game is None:
        return  # refused with diagnostics (a tutorial stage before its terrain, a typical mistake): nothing to play
    if game.map is None:  # a battle system: `rulec play` refuses it with no-map; the map engine says why
        with pytest.raises(ValueError, match="has no map"):
            new_game(game)
        return
    choices = [(None, ()), *((s, ()) for s in game.scenarios), *((None, (o,)) for o in game.options)]
    for seed, (scenario, options) in enumerate(choices):
        try:
            played = play_randomly(game, scenario, options, seed)
        except ScenarioError:  # an option that may not be chosen alone: `rulec play` says so, a diagnostic
            continue
        assert played > 0


def test_a_map_game_built_in_code_without_a_sequence_is_refused_in_words():
    # The checker refuses such a file (no-sequence); a model changed in code reaches the engine unchecked.
    game = checked(ROOT / "tests" / "bad_games" / "ok_minimal.rulec")
    with pytest.raises(ValueError, match="has no sequence of play"):
        new_game(dataclasses.replace(game, sequence=()))
