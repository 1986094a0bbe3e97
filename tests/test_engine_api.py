"""The engine's OpenSpiel-like API on Drive on Metz: phases, players, clones, text round trips."""

from __future__ import annotations

import random

import pytest

from rulec.engine import CHANCE, TERMINAL, Action, ActionSyntaxError, IllegalAction, UnknownOption, new_game


def play_randomly(state, seed: int, limit: int = 2000):
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_game_starts_in_the_first_decision_phase(metz):
    state = new_game(metz)
    assert state.players == ("us", "germany")
    assert state.turn == 1
    assert state.phase.id == "us_movement"
    assert state.current_player() == 0
    assert not state.is_chance_node() and not state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_action_text_round_trips(metz):
    state = new_game(metz)
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_string(action)) == action


def test_a_move_made_by_its_shortcut_is_the_named_tuple_s_own():
    """Action.move writes a move's fields out itself (faster than the named tuple's keyword __new__): the same value,
    type and fields, so a field added to Action must be added there too."""
    made = Action.move("unit_1", "0203")
    assert type(made) is Action and made == Action("move", unit="unit_1", hex="0203")
    assert made._asdict() == {**Action._field_defaults, "kind": "move", "unit": "unit_1", "hex": "0203"}
    assert hash(made) == hash(Action("move", unit="unit_1", hex="0203"))


def test_parse_errors(metz):
    state = new_game(metz)
    with pytest.raises(ActionSyntaxError):
        state.parse_action("fly 357 0204")
    with pytest.raises(ActionSyntaxError):
        state.parse_action("move 999 0204")
    with pytest.raises(IllegalAction):
        state.parse_action("move 357 0909")
    assert state.explain("move 357 0909") is not None
    assert state.explain("end") is None


def test_unknown_option_is_reported(metz):
    with pytest.raises(UnknownOption, match="command_contro"):
        new_game(metz, options=["command_contro"])


def test_random_game_ends_with_an_outcome(metz):
    state = play_randomly(new_game(metz, seed=3), seed=3)
    assert state.is_terminal() and state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome.vp == state.vp
    returns = state.returns()
    assert sorted(returns) in ([0.0, 0.0], [-1.0, 1.0])
    assert state.turn == metz.info.turns


def test_attack_is_a_chance_node(metz):
    state = new_game(metz, seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        attacks = [a for a in state.legal_actions() if a.kind == "attack"]
        if attacks:
            attacker = state.current_player()
            state.apply_action(attacks[0])  # declared step by step: the target, an attacker, resolve
            assert not state.is_chance_node() and state.current_player() == attacker
            state.apply_action(next(a for a in state.legal_actions() if a.kind == "with"))
            state.apply_action(Action.resolve())
            assert state.is_chance_node() and state.current_player() == CHANCE
            outcomes = state.chance_outcomes()
            assert [a.number for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            return
        state.apply_action(rng.choice([a for a in state.legal_actions() if a.kind != "attack"]))
    pytest.fail("no attack in a whole random game")


def test_clone_is_independent(metz):
    state = new_game(metz, seed=2)
    copy = state.clone()
    chosen = state.legal_actions()[0]
    state.apply_action(chosen)  # a unit chosen to move: nothing moves yet
    assert copy.history() == [] and len(state.history()) == 1 and copy.pending is None and state.pending is not None
    state.apply_action(state.legal_actions()[0])  # where it goes
    assert copy.positions != state.positions or copy.where != state.where
    assert copy.legal_actions()[0] == chosen


def test_a_clone_late_in_a_game_copies_only_the_last_actions_and_both_histories_stay_whole(metz):
    """A clone shares the actions played but the last few (an AI clones thousands of times a decision, late in a game
    of thousands of actions): each state's history is still all its own actions, in order, whichever plays on."""
    from rulec.engine.position import HISTORY_TAIL

    state = new_game(metz, seed=3)
    rng = random.Random(3)
    played = []
    for step in range(5 * HISTORY_TAIL):
        copy = state.clone()
        assert len(copy._history) <= HISTORY_TAIL
        assert copy.history() == state.history() == played and copy.last_action() == state.last_action()
        action = rng.choice(copy.legal_actions())
        copy.apply_action(action)  # the clone plays on: the original does not see it
        assert copy.history() == played + [action] and state.history() == played
        if step % 3:
            state = copy  # and now and then the clone is the line played on
            played.append(action)
    assert len(played) > 2 * HISTORY_TAIL and state.last_action() == played[-1]
    again = new_game(metz, seed=3)
    for action in state.history():
        again.apply_action(action)
    assert again.positions == state.positions


def test_the_compiled_clone_copies_every_field_a_position_declares_and_has():
    """Compiled, a clone copies the position's fields one by one (position._copy_declared): every field declared on
    Position, which every game's set-up gives a value, whatever its first phase (a field added and not declared, or
    not set up, would be lost by a compiled clone or stop it; the latter falls back on copying field by field)."""
    from pathlib import Path

    from rulec.adapters.games import load, map_game_names
    from rulec.engine.position import Position, _copy_declared

    class Recorder:
        def __init__(self):
            object.__setattr__(self, "copied", {})

        def __setattr__(self, name, value):
            self.copied[name] = value

    for name in map_game_names() + sorted(str(p) for p in Path("tests/games").glob("*.rulec")):
        game = load(name)
        for scenario in [None, *game.scenarios]:
            state = new_game(game, seed=1, scenario=scenario)
            recorder = Recorder()
            _copy_declared(state, recorder)
            assert set(recorder.copied) == set(Position.__annotations__) == set(vars(state)), (name, scenario)
            assert all(recorder.copied[field] is value for field, value in vars(state).items())


def test_end_is_always_legal_in_a_players_phase(metz):
    state = new_game(metz)
    assert Action.end() in state.legal_actions()


def test_views_for_a_map_renderer(metz):
    state = new_game(metz)
    assert state.units(side="germany", status="map") == [u for u, x in metz.units.items()
                                                         if x.side == "germany" and x.setup]
    assert state.units_at("0807") == ["de_gar"]
    assert state.off_map()["pending"] == state.units(status="pending")
    assert state.unit_name("us_357") == "357"
    assert str(Action.move("us_357", "0204")) == "move us_357 0204"
    assert state.action_to_string(Action.move("us_357", "0204")) == "move 357 0204"


def test_clones_part_ways_in_the_middle_of_a_retreat(metz):
    # A DR2 retreat waiting for the German's choice: two clones choose differently.
    state = new_game(metz).arrange({"us_cca": "0305", "de_1010": "0405"}, turn=2, phase="us_combat")
    for step in state.parse_orders("attack 0405 with CCA"):
        state.apply_action(step)
    state.apply_action(Action.roll(1))
    first, second = state.legal_actions()[0], state.legal_actions()[-1]
    assert first.path[0] != second.path[0]
    one, other = state.clone(), state.clone()
    one.apply_action(first)
    other.apply_action(second)
    assert {a.hex for a in one.legal_actions() if a.unit} == {"0405", first.path[0]}
    assert {a.hex for a in other.legal_actions() if a.unit} == {"0405", second.path[0]}
    assert state.retreats and state.advancing is None


def test_a_unit_not_in_the_game_has_no_moves_before_or_after_a_move(metz):
    """moves_of a name that is no unit: none, in a game whose moves are kept over a move as in any other (the
    board asks it of whatever the pointer is over)."""
    state = new_game(metz, seed=1)
    assert state.moves_of("nobody") == []
    state.legal_orders()
    unit = next(a.unit for a in state.legal_actions() if a.kind == "move")
    state.apply_action(next(a for a in state.moves_of(unit) if a.kind == "move"))
    assert state.moves_of("nobody") == [] and state.moves_of("nobody") == []


@pytest.mark.parametrize("listed_first", [True, False])
def test_choosing_a_unit_to_move_is_legal_exactly_for_the_units_listed(metz, listed_first):
    """`move UNIT` (a move's first step) is checked by that unit's own answer, not by a search of the listing: it
    must accept exactly the units listed, with the list asked for first or not."""
    state = new_game(metz, seed=1)
    listed = {a.unit for a in state.legal_actions() if a.kind == "move" and a.hex is None}
    mover = sorted(listed)[0]
    state.apply_action(state.moves_of(mover)[0])  # it has moved: no longer listed
    listed = {a.unit for a in state.legal_actions() if a.kind == "move" and a.hex is None}
    assert listed and mover not in listed
    for uid in [*state.game.units, "no_such_unit"]:
        trial = state.clone()
        if listed_first:
            trial.legal_actions()
        if uid in listed:
            trial.apply_action(Action.move(uid))
            assert trial.moves_of(uid)
        else:
            with pytest.raises(IllegalAction):
                trial.apply_action(Action.move(uid))
