"""A move is two decisions: the unit (`move UNIT`), then where it goes (`move UNIT HEX`, `exit UNIT EDGE`)
or `cancel`; `move UNIT HEX` given at once is still legal. No movement decision offers units times hexes."""

from __future__ import annotations

import pytest

from rulec.adapters.catalogue import Catalogue
from rulec.engine import Action, IllegalAction, new_game
from rulec.engine.conformance import snapshot
from big_games import is_big


def at(metz, units, phase="us_movement", turn=2):
    return new_game(metz).arrange(units, turn=turn, phase=phase)


def test_the_first_step_offers_each_unit_with_somewhere_to_go_once(metz):
    state = at(metz, {"us_357": "0107", "us_358": "0305", "de_1010": "0911", "de_gar": "0807"})
    actions = state.legal_actions()
    assert Action.move("us_357") in actions and Action.move("us_358") in actions and Action.end() in actions
    assert not [a for a in actions if a.kind == "move" and a.hex is not None]  # no hex yet
    assert not [a for a in actions if a.unit and a.unit.startswith("de_")]  # not the phasing side's
    assert str(Action.move("us_357")) == "move us_357" and state.parse_action("move 357") == Action.move("us_357")


def test_the_second_step_lists_exactly_the_units_moves_and_cancel(metz):
    state = at(metz, {"us_357": "0107", "de_1010": "0911"})
    moves = state.moves_of("us_357")
    assert Action.move("us_357", "0108") in moves and len(moves) > 3
    state.apply_action(Action.move("us_357"))
    assert state.pending is not None and state.current_player() == 0
    assert set(state.legal_actions()) == {*moves, Action.cancel()}
    assert state.positions["us_357"] == "0107"  # nothing has moved yet
    state.apply_action(Action.move("us_357", "0108"))
    assert state.positions["us_357"] == "0108" and state.pending is None
    assert Action.move("us_357") not in state.legal_actions()  # it has moved this phase


def test_cancel_puts_the_unit_back_and_changes_nothing_else(metz):
    state = at(metz, {"us_357": "0107", "us_358": "0305", "de_1010": "0911"})
    before = snapshot(state)[:-7]  # all but the history and what follows it in the snapshot
    first = state.legal_actions()
    state.apply_action(Action.move("us_357"))
    state.apply_action(Action.cancel())
    assert state.pending is None and state.legal_actions() == first
    assert snapshot(state)[:-7] == before
    assert [str(a) for a in state.history()] == ["move us_357", "cancel"]


def test_while_a_unit_is_chosen_another_units_move_is_refused_with_the_reason(metz):
    state = at(metz, {"us_357": "0107", "us_358": "0305", "de_1010": "0911"})
    state.apply_action(Action.move("us_357"))
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(Action.move("us_358", "0306"))
    assert "357" in refused.value.message and "cancel" in refused.value.message
    assert state.explain("end") is not None  # the phase goes on once the unit has moved or been put back
    with pytest.raises(IllegalAction) as too_far:
        state.apply_action(Action.move("us_357", "0911"))
    assert "holds an enemy unit" in too_far.value.message  # the chosen unit's own move: the usual reason


def test_a_move_given_at_once_is_the_two_steps(metz):
    units = {"us_357": "0107", "de_1010": "0911"}
    once, twice = at(metz, units), at(metz, units)
    assert once.is_legal(Action.move("us_357", "0108")) and Action.move("us_357", "0108") not in once.legal_actions()
    once.apply_action(Action.move("us_357", "0108"))
    twice.apply_action(Action.move("us_357"))
    twice.apply_action(Action.move("us_357", "0108"))
    assert snapshot(once)[:-7] == snapshot(twice)[:-7]
    assert once.legal_orders() == twice.legal_orders()


def test_a_unit_with_nowhere_to_go_is_not_offered_and_choosing_it_is_refused(metz):
    # us_357 began the phase in the ZOC of de_1010 with no withdrawal rule: it may not move at all.
    state = at(metz, {"us_357": "0805", "de_1010": "0806", "us_358": "0107"})
    if state.moves_of("us_357"):
        pytest.skip("the unit may move here")
    assert Action.move("us_357") not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply_action(Action.move("us_357"))


def test_legal_orders_are_every_units_moves_given_at_once(metz):
    state = at(metz, {"us_357": "0107", "us_358": "0305", "de_1010": "0911"})
    orders = state.legal_orders()
    assert set(orders) == {*state.moves_of("us_357"), *state.moves_of("us_358"),
                           *(a for a in state.legal_actions() if a.kind != "move")}
    assert all(state.is_legal(order) for order in orders)


def test_the_catalogue_numbers_the_first_step_by_its_unit(metz):
    catalogue = Catalogue(metz)
    state = at(metz, {"us_357": "0107", "de_1010": "0911"})
    first = Action.move("us_357")
    number = catalogue.encode(first, state)
    assert catalogue.decode(number, state) == first
    assert number != catalogue.encode(Action.move("us_357", "0108"), state)


@pytest.mark.parametrize("scenario", ["counterattack", "pursuit"])
def test_no_movement_decision_of_a_big_game_offers_more_than_one_action_per_unit(scenario):
    from conftest import _game

    game = _game("the_marne")
    assert is_big(game)
    state = new_game(game, scenario=scenario)
    while state.phase.kind != "movement" or not any(a.kind == "move" for a in state.legal_actions()):
        state.apply_action(Action.end() if Action.end() in state.legal_actions() else state.legal_actions()[0])
    units = len(game.units)
    first = state.legal_actions()
    assert len(first) <= 2 * units + 1  # `move UNIT` and `delay UNIT` at most, and `end`
    chosen = next(a for a in first if a.kind == "move")
    state.apply_action(chosen)
    assert len(state.legal_actions()) <= len(game.map.hexes) + len(game.map.edges) + 1
    assert len(state.legal_orders()) == len(state.legal_actions())  # the second step: nothing to expand
