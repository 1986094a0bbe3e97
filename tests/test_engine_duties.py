"""Combat legality as conditions: who may attack, who must attack (mandatory combat), who must
be attacked (a fort), played on tests/games/mandatory_combat.rulec."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "mandatory_combat.rulec"))


def at(game, **places):
    return new_game(game).arrange(places, phase="blue_fight")


def fight(state, hex, *units):
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units), Action.resolve(), Action.roll(1)]:
        state.apply_action(step)
    return state


def test_a_unit_that_must_attack_keeps_the_phase_going_until_it_has(game):
    state = at(game, tank="0302", r1="0303")
    assert state.legal_actions() == [Action.attack("0303")]
    with pytest.raises(IllegalAction, match="combat is mandatory: tank must still attack"):
        state.apply_action(Action.end())
    fight(state, "0303", "tank")
    assert Action.end() in state.legal_actions()
    state.apply_action(Action.end())
    assert state.phase.id == "red_move"


def test_a_unit_that_must_attack_may_not_be_left_out_of_its_only_battle(game):
    state = at(game, tank="0302", inf="0402", r1="0303")
    state.apply_action(Action.attack("0303"))
    state.apply_action(Action.with_unit("inf"))
    assert Action.resolve() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="tank must attack and would have no other enemy to attack"):
        state.apply_action(Action.resolve())
    state.apply_action(Action.with_unit("tank"))
    assert Action.resolve() in state.legal_actions()
    # With another enemy next to it, the tank may attack that one instead.
    state = at(game, tank="0302", inf="0402", r1="0303", r2="0401")
    state.apply_action(Action.attack("0303"))
    state.apply_action(Action.with_unit("inf"))
    assert Action.resolve() in state.legal_actions()


def test_units_without_a_duty_may_decline_to_attack(game):
    state = at(game, inf="0302", r1="0303")
    assert set(state.legal_actions()) == {Action.attack("0303"), Action.end()}


def test_a_fort_must_be_attacked_by_a_unit_next_to_it(game):
    state = at(game, inf="0302", fort="0303")
    assert state.legal_actions() == [Action.attack("0303")]
    with pytest.raises(IllegalAction, match=r"the units in 0303 must still be attacked \(fort\)"):
        state.apply_action(Action.end())
    fight(state, "0303", "inf")
    assert state.legal_actions() == [Action.end()]


def test_a_unit_that_may_not_attack_neither_attacks_nor_obliges(game):
    state = at(game, res="0302", fort="0303")  # res is a reserve: may_attack fails for it
    assert state.legal_actions() == [Action.end()]
    state = at(game, res="0302", inf="0402", fort="0303")
    state.apply_action(Action.attack("0303"))
    assert Action.with_unit("res") not in state.legal_actions()
    with pytest.raises(IllegalAction, match=r"res may not attack: the game's condition \(may_attack = "):
        state.apply_action(Action.with_unit("res"))


def test_declaring_every_battle_first_fights_none_until_every_duty_is_declared(tmp_path):
    text = (GAMES / "mandatory_combat.rulec").read_text(encoding="utf-8")
    path = tmp_path / "mandatory_all_first.rulec"
    path.write_text(text.replace("  table = main\n", "  table = main\n  declare = all_first\n", 1), encoding="utf-8")
    game = load_game(str(path))
    state = new_game(game).arrange({"inf": "0402", "tank": "0302", "r1": "0303", "r2": "0401"}, phase="blue_fight")
    for step in (Action.attack("0303"), Action.with_unit("inf"), Action.resolve()):
        state.apply_action(step)
    assert state.legal_actions() == [Action.attack("0401")]  # the tank's battle must be declared before any is fought
    with pytest.raises(IllegalAction, match="tank must still attack"):
        state.apply_action(Action.fight("0303"))
    for step in (Action.attack("0401"), Action.with_unit("tank"), Action.resolve()):
        state.apply_action(step)
    assert set(state.legal_actions()) == {Action.fight("0303"), Action.fight("0401")}


@pytest.mark.parametrize("written,code,message", [
    ("must_attack = strenght", "unknown-name", "unknown name 'strenght' in expression"),
    ("must_attack = strength + 1", "wrong-kind", "expected a condition here, found a number (strength + 1)"),
])
def test_a_wrong_condition_is_reported_where_it_is_written(tmp_path, written, code, message):
    from rulec.pipeline import check_file
    text = (GAMES / "mandatory_combat.rulec").read_text(encoding="utf-8")
    path = tmp_path / "bad.rulec"
    path.write_text(text.replace("must_attack = unit.type == armor", written), encoding="utf-8")
    [found] = [d for d in check_file(str(path)).diagnostics if d.is_error]
    assert (found.code, found.message) == (code, message)
    line = text.split("\n").index("  must_attack = unit.type == armor") + 1
    assert (found.span.line, found.span.column) == (line, 17)
