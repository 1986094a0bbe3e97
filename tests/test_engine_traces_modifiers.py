"""Traces and the modifiers pipeline on a made-up game (tests/games/cut_off.rulec): a supply trace that
enemy units and zones of control block, with a length and a source the enemy can take; units out of
supply at half strength (rounded down) and one MP less; a town that helps blue defenders only; an
elite attacker's DRM. Each test asserts the effect in play: the odds, the moves, the result."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulec.engine import Action, EngineContext, new_game
from rulec.pipeline import check, load_game, parse

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "cut_off.rulec"))


def supplied(state, uid):
    return EngineContext(state).traced("supply", state.unit(uid))


def test_a_unit_cut_off_by_enemy_units_and_zones_of_control_fights_at_half_strength(game):
    # r1 in 0302 holds the middle hex of column 3 and controls the two others: no path leads west.
    state = new_game(game).arrange({"b1": "0503", "r1": "0302", "r3": "0603"}, phase="blue_combat")
    assert not supplied(state, "b1") and "0303" not in state.positions.values()
    odds = state.odds(Action.attack("0603", ("b1",)))
    assert odds.attack == 2  # 5 halved is 2.5, rounded down (combat { fractions = down })
    assert odds.modifiers == ("out_of_supply",) and odds.label == "+0"
    # A friendly unit in 0303 opens its hex of the enemy zone: b1 is in supply and fights at 5.
    state = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "0603"}, phase="blue_combat")
    assert supplied(state, "b1")
    odds = state.odds(Action.attack("0603", ("b1",)))
    assert (odds.attack, odds.modifiers, odds.label) == (5, (), "+3 or more")


def test_out_of_supply_units_move_one_mp_less(game):
    far = Action.move("b1", "0903")  # four clear hexes east of 0503
    cut_off = new_game(game).arrange({"b1": "0503", "r1": "0302", "r3": "1001"}, phase="blue_move")
    assert cut_off.allowance("b1") == 3 and not cut_off.is_legal(far)
    assert cut_off.is_legal(Action.move("b1", "0803"))
    open_road = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "1001"}, phase="blue_move")
    assert open_road.allowance("b1") == 4 and open_road.is_legal(far)


def test_supply_is_asked_when_the_rule_is_evaluated(game):
    # Moving the friendly unit out of 0303 closes the path: the next question gets the new answer.
    state = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "1001"}, phase="blue_move")
    assert supplied(state, "b1")
    state.apply_action(Action.move("b3", "0203"))
    assert not supplied(state, "b1") and state.allowance("b1") == 3


def test_a_trace_is_at_most_max_length_hexes_long(game):
    state = new_game(game).arrange({"b1": "0903", "b3": "1003", "r3": "0601"}, phase="blue_combat")
    assert state.tables.distance["0103"]["0903"] == 8
    assert supplied(state, "b1") and not supplied(state, "b3")


def test_the_map_conditions_of_a_trace_are_folded_once_for_every_game_on_the_map(game):
    [trace] = game.traces.values()
    assert trace.through_static.source == "not has_terrain(hex, marsh)"
    assert "marsh" not in trace.through.source  # the position's conditions are asked at each search
    state = new_game(game).arrange({"b1": "0401", "b3": "0402", "r3": "1003"}, phase="blue_combat")
    assert not supplied(state, "b1") and supplied(state, "b3")  # nothing passes through the marsh
    folded = state.tables.trace_folds[("steps", "supply", "blue")]
    _, closed = folded  # the hexes the map alone closes, as bits
    assert closed >> state.tables.index["0401"] & 1 and not closed >> state.tables.index["0402"] & 1
    other = new_game(game).arrange({"b1": "0401", "b3": "0402", "r3": "1003"}, phase="blue_combat")
    assert not supplied(other, "b1") and supplied(other, "b3")
    assert other.tables.trace_folds[("steps", "supply", "blue")] is folded  # another game: not worked out again


def test_a_source_held_by_the_enemy_supplies_nobody(game):
    held = new_game(game).arrange({"b1": "0503", "b3": "1002", "r3": "0603"}, phase="blue_combat")
    assert not supplied(held, "r3")
    assert held.odds(Action.attack("0603", ("b1",))).defence == 1  # 2 halved
    free = new_game(game).arrange({"b1": "0503", "b3": "0103", "r3": "0603"}, phase="blue_combat")
    assert supplied(free, "r3") and free.odds(Action.attack("0603", ("b1",))).defence == 2


def test_the_town_shifts_for_blue_defenders_only(game):
    blue_in_town = new_game(game).arrange({"b3": "0802", "r3": "0902"}, phase="red_combat")
    odds = blue_in_town.odds(Action.attack("0802", ("r3",)))
    assert (odds.base_column, odds.modifier_shift, odds.column) == (1, -1, 0) and "town_defence" in odds.modifiers
    red_in_town = new_game(game).arrange({"b3": "0702", "r3": "0802"}, phase="blue_combat")
    odds = red_in_town.odds(Action.attack("0802", ("b3",)))
    assert (odds.base_column, odds.modifier_shift, odds.column) == (1, 0, 1) and odds.modifiers == ()


def test_a_hill_doubles_its_defenders_not_its_attackers(game):
    defending = new_game(game).arrange({"b3": "0802", "r3": "0902"}, phase="blue_combat")
    odds = defending.odds(Action.attack("0902", ("b3",)))
    assert odds.defence == 4 and odds.modifiers == ("dug_in",)
    attacking = new_game(game).arrange({"b3": "0802", "r3": "0902"}, phase="red_combat")
    odds = attacking.odds(Action.attack("0802", ("r3",)))
    assert odds.attack == 2 and "dug_in" not in odds.modifiers


def test_an_elite_attacker_adds_one_to_the_die(game):
    def fight(attacker):
        state = new_game(game).arrange({attacker: "0702", "r3": "0802"}, phase="blue_combat")
        for step in state.parse_orders(f"attack 0802 with {attacker}"):
            state.apply_action(step)
        drm = state.battle.odds.drm
        state.apply_action(Action.roll(4))  # column "0": 4 is NE, 5 is DE
        return drm, state.status("r3")

    assert fight("b2") == (1, "eliminated")
    assert fight("b3") == (0, "map")


def test_command_control_is_a_battle_modifier_guarded_by_its_option():
    metz = load_game("drive_on_metz")
    [modifier] = [m for m in metz.modifiers if m.option == "command_control"]
    assert modifier.applies == "battle" and modifier.shift == 1 and "attackers" in modifier.when.source


def problems(tmp_path, text):
    path = tmp_path / "g.rulec"
    path.write_text((GAMES / "cut_off.rulec").read_text() + text)
    return [(d.code, d.message) for d in check(parse(path))[1] if d.is_error]


def test_battle_names_exist_only_in_battle_modifiers(tmp_path):
    [(code, message)] = problems(tmp_path, "award a { side = red  when = phase(red_move)  amount = count(attackers) }\n")
    assert code == "unknown-name" and "battle modifier" in message


def test_trace_names_exist_only_in_traces(tmp_path):
    [(code, message)] = problems(tmp_path, "modifier m { applies = unit  when = enemy_zoc(hex)  move_plus = 1 }\n")
    assert code == "unknown-name" and "trace" in message


def test_supplied_needs_a_trace_named_supply(tmp_path):
    path = tmp_path / "g.rulec"
    path.write_text((GAMES / "cut_off.rulec").read_text().replace("trace supply", "trace lines"))
    [(code, message)] = [(d.code, d.message) for d in check(parse(path))[1] if d.is_error]
    assert code == "unknown-function" and "no trace named supply" in message


def test_a_unit_modifier_has_no_column_shift(tmp_path):
    [(code, message)] = problems(tmp_path, "modifier m { applies = unit  strength_plus = 1  shift = 1 }\n")
    assert code == "unknown-field" and "'shift'" in message


def test_random_games_keep_the_engine_promises_with_traces_and_modifiers(game):
    from rulec.engine.conformance import check_game

    assert check_game(game, n_games=20, seed=3) == []


def test_the_compiled_module_plays_the_same_and_type_checks(tmp_path):
    from rulec.cli.main import main as rulec_main
    from rulec.pipeline import load_compiled

    assert rulec_main(["compile", str(GAMES / "cut_off.rulec"), "--out", str(tmp_path)]) == 0
    compiled = load_compiled(tmp_path / "cut_off.py")
    state = new_game(compiled).arrange({"b1": "0503", "r1": "0302", "r3": "0603"}, phase="blue_combat")
    odds = state.odds(Action.attack("0603", ("b1",)))
    assert (odds.attack, odds.modifiers) == (2, ("out_of_supply",))
    api = pytest.importorskip("mypy.api")
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary",
                                    str(tmp_path / "cut_off.py")])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process
    assert status == 0, out + err


def test_the_odds_preview_names_the_modifiers_that_applied(game):
    from rulec.web.view import odds_view

    state = new_game(game).arrange({"b1": "0503", "r1": "0302", "r3": "0603"}, phase="blue_combat")
    view = odds_view(game, state.odds(Action.attack("0603", ("b1",))))
    assert view["modifiers"] == ["out_of_supply"] and view["attack"] == 2 and view["modifier_shift"] == 0


@pytest.mark.parametrize("fractions, attack, label", [("keep", 2.5, "+0"), ("down", 2, "+0"), ("up", 3, "+1"),
                                                      ("nearest", 3, "+1")])
def test_a_sides_total_strength_is_rounded_as_the_game_says(tmp_path, fractions, attack, label):
    path = tmp_path / "g.rulec"
    path.write_text((GAMES / "cut_off.rulec").read_text().replace("fractions = down", f"fractions = {fractions}"))
    game = load_game(str(path))
    state = new_game(game).arrange({"b1": "0503", "r1": "0302", "r3": "0603"}, phase="blue_combat")
    odds = state.odds(Action.attack("0603", ("b1",)))
    assert (odds.attack, odds.label) == (attack, label)
