"""Whether a unit has a move is first looked for one step away (movement.first_step_end): a hex found there must be
one of the unit's legal moves as its whole search and every check after it (stacking, may_end_move) list them, in
every map game, at every movement decision of random games; and the answers it gives must be the answers the whole
search gives."""

from __future__ import annotations

import random

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.engine import legal_moves, new_game
from rulec.engine.actions import MOVE
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

TEST_GAMES = GAMES_DIR.parent / "tests" / "games"
MAP_GAMES = [str(p) for folder in (GAMES_DIR, TEST_GAMES) for p in sorted(folder.glob(f"*{SUFFIX}"))
             if load_game(str(p)).map is not None]


def _afresh(state):
    """A clone that knows nothing of the position but the position itself (no answer kept, none for the phase)."""
    fresh = state.clone()
    fresh._cache, fresh._phase_moves = {}, {}
    return fresh


def _movement_decisions(state, rng, limit):
    """Each step of a random game up to its end or `limit` steps, dice rolled here: yields where the units of a free
    movement decision are to be checked, then plays a random legal action."""
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        yield _checked_units(state)
        state.apply_action(rng.choice(state.legal_actions()))


def _checked_units(state):
    """The units a free movement decision asks whether they have a move."""
    if not legal_moves.free_to_move(state) or state._stack:
        return []
    return legal_moves.movable_units(state)


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_a_hex_found_one_step_away_is_a_legal_move_and_has_move_agrees_with_the_whole_search(path):
    game = load_game(path)
    rng = random.Random(7)
    state = new_game(game, seed=7)
    limit = STEPS_OF_A_BIG_GAME if is_big(game) else 1500
    for units in _movement_decisions(state, rng, limit):
        for uid in units:
            whole = _afresh(state)
            listed = whole.moves_of(uid)  # the whole search, stacking and may_end_move: what a player is offered
            destinations = {m.hex for m in listed if m.kind == MOVE}
            probing = _afresh(state)
            if legal_moves._one_step_first(probing, uid):
                hex_found = legal_moves._first_step_end(probing, uid)
                assert hex_found is None or hex_found in destinations, (str(state), uid, hex_found)
            # has_move asked first (the path a listing takes) answers as the whole listing does
            assert legal_moves.has_move(_afresh(state), uid) == bool(listed), (str(state), uid)


def test_the_one_step_look_is_taken_and_sometimes_finds_nothing():
    """The look one step away answers most units, and falls back to the whole search for some (hemmed in by rivers,
    zones of control and full hexes): in these games both ways are taken, so the test above checks both."""
    found = none = 0
    for name in ("river_screen", "crowded_roads", "river_assault"):
        game = load_game(str(TEST_GAMES / f"{name}{SUFFIX}"))
        rng = random.Random(3)
        state = new_game(game, seed=3)
        for units in _movement_decisions(state, rng, 600):
            for uid in units:
                fresh = _afresh(state)
                if legal_moves._one_step_first(fresh, uid):
                    if legal_moves._first_step_end(fresh, uid) is None:
                        none += 1
                    else:
                        found += 1
    assert found > 40 and none > 10, (found, none)


def test_a_neighbour_whose_zone_of_control_costs_more_than_the_unit_has_is_no_move():
    """tests/games/dear_zoc.rulec: the middle hex costs 1 MP and 1 more for the enemy's zone of control, and each
    unit has 1 MP. The look one step away finds nothing there, and neither side is offered a move."""
    state = new_game(load_game(str(TEST_GAMES / f"dear_zoc{SUFFIX}")), seed=0)
    assert legal_moves._one_step_first(state, "r_scout")
    assert legal_moves._first_step_end(state, "r_scout") is None
    assert [str(a) for a in state.legal_actions()] == ["end"]
    state.apply_action(state.legal_actions()[0])
    assert [str(a) for a in state.legal_actions()] == ["end"]  # blue, the same
