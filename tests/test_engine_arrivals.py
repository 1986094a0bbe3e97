"""Reinforcements that may not be held back, and landings that lock or do not (tests/games/reinforcements.rulec).

A made-up game: Red's reserve is due on turn 2 at the west edge and the game says
`reinforcement_delay = false`; two options add a unit that lands anywhere, one of them
marked `landed` as it lands. The rulings are in docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from game_variants import variant

from rulec.engine import PENDING, Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAME = Path(__file__).resolve().parent / "games" / "reinforcements.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def red_moves_on_turn_two(game, **units):
    return new_game(game).arrange({"r_line": "0202", "b_line": "0404", **units}, turn=2, phase="red_move")


def test_a_due_reinforcement_must_enter_before_the_movement_phase_ends(game):
    state = red_moves_on_turn_two(game, r_reserve=PENDING)
    legal = state.legal_actions()
    assert Action.end() not in legal and Action.delay("r_reserve") not in legal
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.end())
    assert "must enter the map first" in str(error.value)
    state.apply_action(Action.move("r_reserve", "0103"))
    assert Action.end() in state.legal_actions()  # entered: the phase may end


def test_other_units_may_still_stand_still(game):
    state = red_moves_on_turn_two(game, r_reserve=PENDING)
    state.apply_action(Action.move("r_reserve", "0101"))
    state.apply_action(Action.end())  # r_line never moved
    assert state.phase.id == "red_fight"


def test_a_reinforcement_that_cannot_enter_waits_for_the_next_turn(game):
    # Blue fills every west-edge hex: with nowhere to enter the phase may end, and the reserve is due on turn 3.
    blockers = {f"b_{i}": h for i, h in enumerate(("0101", "0102", "0103", "0104"))}
    variant = replace(game, units={**game.units, **{uid: replace(game.units["b_line"], id=uid, setup=h)
                                                    for uid, h in blockers.items()}})
    state = new_game(variant).arrange({"r_line": "0202", "r_reserve": PENDING, **blockers}, turn=2, phase="red_move")
    assert not [a for a in state.legal_actions() if a.unit == "r_reserve"]
    state.apply_action(Action.end())
    assert state.arrival_turn("r_reserve") == 3


def test_with_delay_allowed_the_phase_may_end_and_the_unit_is_held(game):
    delaying = replace(game, movement=replace(game.movement, reinforcement_delay=True))
    state = new_game(delaying).arrange({"r_line": "0202", "b_line": "0404", "r_reserve": PENDING}, turn=2, phase="red_move")
    assert Action.end() in state.legal_actions() and Action.delay("r_reserve") in state.legal_actions()
    state.apply_action(Action.end())
    assert state.arrival_turn("r_reserve") == 3


def attackers_after_landing(game, option, uid):
    state = new_game(game, options=(option,)).arrange({"r_line": "0304", "b_line": "0404", uid: PENDING},
                                                       turn=1, phase="red_move")
    state.apply_action(Action.move(uid, "0403"))
    assert not [a for a in state.legal_actions() if a.unit == uid]  # one move a phase, landed or not
    state.apply_action(Action.end())
    assert state.phase.id == "red_fight"
    # Battles are declared step by step: the units offered to join an attack on any target.
    offered = set()
    for target in [a for a in state.legal_actions() if a.kind == "attack"]:
        declaring = state.clone()
        declaring.apply_action(target)
        offered |= {a.unit for a in declaring.legal_actions() if a.kind == "with"}
    return offered


def test_a_landed_marker_keeps_the_landed_unit_out_of_the_next_combat(game):
    assert attackers_after_landing(game, "glider_landing", "r_glider") == {"r_line"}


def test_an_unmarked_landing_lets_the_landed_unit_attack(game):
    assert attackers_after_landing(game, "light_landing", "r_light") == {"r_line", "r_light"}


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_players_play_the_game_through_and_the_reserve_always_enters(game, kind):
    from rulec.players import make_player
    from rulec.players.match import play_match

    for seed in range(3):
        state = new_game(game, options=("glider_landing", "light_landing"), seed=seed)
        play_match(state, [make_player(kind, seed), make_player(kind, seed + 1)], seed=seed)
        assert state.terminal and state.status("r_reserve") == "map"  # it could not be left off the map


SCENARIOS = ('option glider_landing', '''scenario late_start { start = { turn = 2  phase = blue_move } }
scenario red_start { start = { turn = 2  phase = red_move } }
option glider_landing''')


def test_a_scenario_that_starts_after_a_reinforcements_phase_brings_it_the_turn_after(tmp_path):
    """A scenario starting on turn 2 at blue_move, after red_move: r_reserve, due on turn 2 in red_move (its side's
    first movement phase), enters on turn 3 and must (reinforcement_delay = false); started at red_move, on turn 2
    (docs/rulings.md)."""
    game = variant(tmp_path, "reinforcements", SCENARIOS)
    state = new_game(game, scenario="late_start")
    assert (state.turn, state.phase.id) == (2, "blue_move")
    assert state.arrival_turn("r_reserve") == 3
    while (state.turn, state.phase.id) != (3, "red_move"):
        state.apply_action(Action.end())
    assert Action.end() not in state.legal_actions()  # due now, and may not be held back
    state.apply_action(Action.move("r_reserve", "0102"))
    assert state.status("r_reserve") == "map"
    early = new_game(game, scenario="red_start")
    assert early.arrival_turn("r_reserve") == 2 and Action.end() not in early.legal_actions()
    arranged = new_game(game).arrange({"r_line": "0202", "b_line": "0404", "r_reserve": PENDING}, turn=2,
                                      phase="blue_move")
    assert arranged.arrival_turn("r_reserve") == 3  # a position arranged past its phase: the same
