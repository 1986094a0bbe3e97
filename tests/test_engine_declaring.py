"""How battles are declared across a combat phase and a player turn, on made-up games:
declare every battle first, then fight them one by one (tests/games/declare_all_first.rulec),
one attack per unit a player turn (tests/games/two_fights.rulec), and battles against several
hexes (tests/games/multi_hex.rulec)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"
# r1 in 0302 and r2 in 0304; b1 in 0303 is next to both, b2 (0202) only to r1, b3 (0403) only to r2.
PLACES = {"b1": "0303", "b2": "0202", "b3": "0403", "r1": "0302", "r2": "0304"}


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "declare_all_first.rulec"))


def declare(state, text):
    for step in state.parse_orders(text):
        state.apply_action(step)


def test_battles_are_declared_first_and_fought_in_the_attackers_order(game):
    state = new_game(game).arrange(PLACES, phase="blue_fight")
    declare(state, "attack 0302 with b1 b2")
    assert not state.is_chance_node()  # declared, not fought
    assert Action.end() not in state.legal_actions()  # a declared battle must be fought
    assert set(state.legal_actions()) == {Action.attack("0304"), Action.fight("0302")}
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.end())
    assert "fight" in error.value.message
    declare(state, "attack 0304 with b3")  # b1 has already attacked: only b3 may go for 0304
    assert set(state.legal_actions()) == {Action.fight("0302"), Action.fight("0304")}
    # The attacker picks the order: 0304 first (+3: a 1 eliminates r2).
    state.apply_action(Action.fight("0304"))
    assert state.is_chance_node() and state.battle.battle.attackers == ("b3",)
    state.apply_action(Action.roll(1))
    assert state.status("r2") == "eliminated"
    state.apply_action(Action.advance())  # b3 stays
    # Once fighting has begun no new battle may be declared: only the one left.
    assert state.legal_actions() == [Action.fight("0302")]
    state.apply_action(Action.fight("0302"))
    state.apply_action(Action.roll(6))  # NE
    assert state.legal_actions() == [Action.end()]
    state.apply_action(Action.end())
    assert state.phase.id == "blue_move"


def test_declared_battles_replay_from_saved_text(game):
    state = new_game(game).arrange(PLACES, phase="blue_fight")
    declare(state, "attack 0302 with b1, b2")
    assert state.parse_action("fight 0302") == Action.fight("0302")
    assert state.action_to_string(Action.fight("0302")) == "fight 0302"


def test_a_unit_attacks_once_a_player_turn_when_the_game_says_so(game):
    from dataclasses import replace

    two_fights = load_game(str(GAMES / "two_fights.rulec"))
    state = new_game(two_fights).arrange(PLACES, phase="blue_fight")
    declare(state, "attack 0302 with b1")
    state.apply_action(Action.roll(6))  # NE
    state.apply_action(Action.end())
    state.apply_action(Action.end())  # blue's movement phase: nobody moves
    assert state.phase.id == "blue_fight_again"
    # b1 fought in this player turn's first combat phase: it may not attack 0304 now; b3 may.
    state.apply_action(Action.attack("0304"))
    assert {a.unit for a in state.legal_actions() if a.kind == "with"} == {"b3"}
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.with_unit("b1"))
    assert "already attacked this player-turn" in error.value.message
    # With one attack a phase, b1 may attack again in the second combat phase.
    per_phase = replace(two_fights, combat=replace(two_fights.combat, one_attack_per_unit="phase"))
    state = new_game(per_phase).arrange(PLACES, phase="blue_fight")
    declare(state, "attack 0302 with b1")
    state.apply_action(Action.roll(6))
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    state.apply_action(Action.attack("0304"))
    assert {a.unit for a in state.legal_actions() if a.kind == "with"} == {"b1", "b3"}


def test_a_battle_may_take_several_hexes_when_every_attacker_is_next_to_all_of_them():
    game = load_game(str(GAMES / "multi_hex.rulec"))
    state = new_game(game).arrange(PLACES, phase="blue_fight")
    state.apply_action(Action.attack("0302"))
    # b1 (0303) is next to 0302 and 0304: the battle may take 0304 too; b2 (0202) only 0302.
    assert set(state.legal_actions()) == {Action.with_unit("b1"), Action.with_unit("b2"), Action.attack("0304"),
                                          Action.cancel()}
    state.apply_action(Action.attack("0304"))
    assert state.declaring.targets == ("0302", "0304")
    assert {a.unit for a in state.legal_actions() if a.kind == "with"} == {"b1"}  # b2 and b3 are next to one only
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.with_unit("b2"))
    assert "not adjacent to 0302 and 0304" in error.value.message
    state.apply_action(Action.with_unit("b1"))
    odds = state.odds()
    assert (odds.attack, odds.defence) == (6, 2)  # both defenders together
    assert odds.terrain_shift == -1  # 0304's woods: the worst of the two hexes for the attacker
    assert odds.label == "+1, +3"  # +4, one column left
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))  # DE: both hexes emptied
    assert state.status("r1") == state.status("r2") == "eliminated"
    assert set(state.legal_actions()) == {Action.advance("b1", "0302"), Action.advance("b1", "0304"), Action.advance()}
    # Once b2 attacks 0302 alone, 0304 may not join: b2 is not next to it.
    state = new_game(game).arrange(PLACES, phase="blue_fight")
    state.apply_action(Action.attack("0302"))
    state.apply_action(Action.with_unit("b2"))
    assert Action.attack("0304") not in state.legal_actions()


def test_without_multi_hex_a_battle_has_one_target(game):
    state = new_game(game).arrange(PLACES, phase="blue_fight")
    state.apply_action(Action.attack("0302"))
    assert not [a for a in state.legal_actions() if a.kind == "attack"]
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0304"))
    assert "one target hex" in error.value.message


def test_declared_battles_are_told_when_declared_and_when_fought(game, capsys):
    from rulec.cli.board_view import GameScreen

    state = new_game(game).arrange(PLACES, phase="blue_fight")
    screen = GameScreen(game)
    for step in [*state.parse_orders("attack 0302 with b1 b2"), Action.attack("0304"), Action.with_unit("b3"),
                 Action.resolve(), Action.fight("0304"), Action.roll(1)]:
        screen.narrate(state, step, state.current_player())
        state.apply_action(step)
    screen.flush(state)
    out = capsys.readouterr().out
    assert "Blue: declares: b1, b2 attack 0302 (held by r1 (1-3))\n" in out
    assert "Blue: declares: b3 attacks 0304 (held by r2 (1-3))\n" in out
    assert "Blue: b3 attacks 0304 (held by r2 (1-3))  -- 4 vs 1, differential +3 -> column" in out
    assert "result: DE (Defender Eliminated)" in out


@pytest.mark.parametrize("table_drm, woods_drm, applied", [
    ("attacker", 2, 0),    # a positive DRM helps the attacker: the clear hex (0) is worse for it than the woods
    ("attacker", -2, -2),  # the woods' -2 is worse
    ("defender", 2, 2),    # a positive DRM helps the defender: the woods' +2 is worse for the attacker
    ("defender", -2, 0),
])
def test_a_multi_hex_battle_takes_the_terrain_drm_worst_for_the_attacker(tmp_path, table_drm, woods_drm, applied):
    text = (GAMES / "multi_hex.rulec").read_text(encoding="utf-8")
    text = text.replace("terrain woods { move = 2  combat_shift = -1 }", f"terrain woods {{ move = 2  combat_drm = {woods_drm} }}")
    text = text.replace("  kind = differential\n", f"  kind = differential\n  drm = {table_drm}\n", 1)
    path = tmp_path / "multi_hex_drm.rulec"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_game(str(path))).arrange(PLACES, phase="blue_fight")
    for step in (Action.attack("0302"), Action.attack("0304"), Action.with_unit("b1")):  # 0304 is woods, 0302 clear
        state.apply_action(step)
    assert state.odds().drm == applied and state.odds().terrain_shift == 0
