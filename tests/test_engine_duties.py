"""Combat legality as conditions: who may attack, who must attack (mandatory combat), who must
be attacked (a fort), played on tests/games/mandatory_combat.rulec."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, battles, new_game
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


# ------------------------------------------------ units that attack at range (tests/games/ranged_duties.rulec)
@pytest.fixture(scope="module")
def ranged():
    return load_game(str(GAMES / "ranged_duties.rulec"))


def declare(state, hex, *units):
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units)]:
        state.apply_action(step)
    return state


def test_a_gun_next_to_no_enemy_owes_no_attack_to_battles_it_could_bombard(ranged):
    # The gun (range 2) stands next to no enemy; r1 and r2 are both in its range. Both plans of a
    # printed example must be accepted: the gun joins the second battle, or the first.
    places = dict(gun="0403", i1="0304", i2="0503", r1="0305", r2="0502")
    state = declare(new_game(ranged).arrange(places, phase="blue_fight"), "0305", "i1")
    assert Action.resolve() in state.legal_actions()
    state.apply_action(Action.resolve()), state.apply_action(Action.roll(1))
    fight(state, "0502", "i2", "gun")
    assert state.legal_actions() == [Action.end()]
    state = fight(new_game(ranged).arrange(places, phase="blue_fight"), "0305", "i1", "gun")
    fight(state, "0502", "i2")
    assert state.legal_actions() == [Action.end()]
    # Nor does its range keep the phase going once every enemy next to a blue unit is attacked.
    state = fight(new_game(ranged).arrange(dict(gun="0403", i1="0304", r1="0305", r2="0502"), phase="blue_fight"),
                  "0305", "i1")
    assert Action.end() in state.legal_actions()


def test_an_enemys_only_possible_attacker_may_not_be_used_up_elsewhere(ranged):
    # i1 is the only blue unit next to r1; both i1 and i2 are next to r2. Every red unit next to
    # a blue unit must be attacked, so i1 may not attack r2: i2 must, and i1 attacks r1.
    places = dict(i1="0304", i2="0404", r1="0204", r2="0305")
    for attackers in (("i1",), ("i1", "i2")):  # (i1 alone would also leave out i2, which must attack r2)
        state = declare(new_game(ranged).arrange(places, phase="blue_fight"), "0305", *attackers)
        assert Action.resolve() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="would leave the units in 0204 with no unit left to attack them"):
        state.apply_action(Action.resolve())
    state = fight(new_game(ranged).arrange(places, phase="blue_fight"), "0305", "i2")
    assert state.legal_actions() == [Action.attack("0204")]
    fight(state, "0204", "i1")
    assert state.legal_actions() == [Action.end()]


def test_a_unit_next_to_two_enemies_alone_may_attack_either(ranged):
    # No plan attacks both: i1 attacks one of them, and the other's duty lapses.
    for target in ("0204", "0305"):
        state = fight(new_game(ranged).arrange(dict(i1="0304", r1="0204", r2="0305"), phase="blue_fight"), target, "i1")
        assert state.legal_actions() == [Action.end()]


def test_whether_a_gun_next_to_an_enemy_may_bombard_elsewhere_does_not_depend_on_the_order_of_battles(ranged):
    # The gun stands next to r3 and has r2 (next to i2) in range; i1 is also next to r3.
    places = dict(gun="0403", i1="0303", i2="0601", r3="0402", r2="0502")
    # r2's battle first: the gun owes its attack to r3 and may not join.
    state = declare(new_game(ranged).arrange(places, phase="blue_fight"), "0502", "i2")
    assert Action.with_unit("gun") not in state.legal_actions()
    with pytest.raises(IllegalAction, match=r"gun must attack an enemy next to it \(0402\)"):
        state.apply_action(Action.with_unit("gun"))
    # r3's battle first: the gun may not be left out of it either.
    state = declare(new_game(ranged).arrange(places, phase="blue_fight"), "0402", "i1")
    assert Action.resolve() not in state.legal_actions()
    state.apply_action(Action.with_unit("gun"))
    state.apply_action(Action.resolve()), state.apply_action(Action.roll(1))
    assert Action.with_unit("gun") not in declare(state, "0502").legal_actions()


def test_random_games_with_ranged_duties_keep_every_promise(ranged):
    from rulec.engine.conformance import check_game

    # Every duty can be met: random games never stall nor break an invariant.
    assert check_game(ranged, n_games=40, seed=5) == []


def test_a_declaration_called_off_lists_the_phase_s_targets_as_they_were_without_asking_again(game, monkeypatch):
    """The phase's targets, which may be joined and the duties still open depend on nothing a declaration's steps
    change: they are kept through `attack`, `with` and `cancel` (state._KEPT_WHILE_DECLARING), and are the ones a
    position with nothing kept lists."""
    state = at(game, tank="0302", inf="0402", r1="0303", r2="0401")
    listed = state.legal_actions()
    asked = []
    joined = battles._may_be_joined
    monkeypatch.setattr(battles, "_may_be_joined", lambda s, h: asked.append(h) or joined(s, h))
    for step in (Action.attack("0303"), Action.with_unit("inf"), Action.cancel()):
        state.apply_action(step)
    assert state.legal_actions() == listed and asked == []  # kept, not asked again
    fresh = state.clone()
    fresh.forget()  # the same position with nothing kept
    assert fresh.legal_actions() == listed and sorted(asked) == ["0303", "0401"]
    fight(state, "0303", "tank", "inf")  # a battle fought (its attackers may attack no more): worked out again
    assert state.pending is None and state.legal_actions() == [Action.end()]
