"""Movement mechanisms of tests/games/river_screen.rulec, a made-up game.

A stream between columns 3 and 4 blocks zones of control, but a fort's reaches across it
(`unit_type fort { zoc_across = [stream] }`); the fort does not count for stacking
(`stacking { counts = unit.type != fort }`), and the owner removes the excess at the end
of its movement phase; Red may hold its reinforcements back (`reinforcement_delay = side == red`),
Blue may not.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import PENDING, Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAME = Path(__file__).resolve().parent / "games" / "river_screen.rulec"
START = {"r_line": "0301", "b_fort": "0402", "b_guard": "0404", "b_picket": "0501"}


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def checked(tmp_path, old: str, new: str):
    text = GAME.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "river_screen.rulec"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return check_file(str(path)).diagnostics


# ------------------------------------------------------------ zoc_across
def test_a_forts_zone_of_control_reaches_across_the_stream_and_an_infantry_units_does_not(game):
    state = new_game(game).arrange(START, turn=1, phase="red_move")
    zoc = state.enemy_zoc("red")
    assert {"0302", "0303"} <= zoc  # the fort in 0402, across the stream
    assert "0304" not in zoc  # next to b_guard (0404), but across the stream
    # r_line stops on entering 0302, so 0304 (three steps down the bank) is out of reach.
    assert "0302" in destinations(state, "r_line") and "0304" not in destinations(state, "r_line")


def test_without_zoc_across_the_stream_blocks_the_forts_zone_of_control_too(game):
    plain = replace(game, unit_types={**game.unit_types, "fort": replace(game.unit_types["fort"], zoc_across=())})
    state = new_game(plain).arrange(START, turn=1, phase="red_move")
    assert not {"0302", "0303"} & state.enemy_zoc("red")
    assert "0304" in destinations(state, "r_line")


def test_an_unknown_hexside_type_in_zoc_across_is_named_with_a_suggestion(tmp_path):
    wrong = 'can_attack = false  zoc_across = [streem]'
    found = checked(tmp_path, "can_attack = false  zoc_across = [stream]", wrong)
    assert [(d.code, d.message) for d in found] == [("unknown-hexside-feature", "unknown hexside feature 'streem'")]
    assert "did you mean 'stream'?" in found[0].hint
    lines = GAME.read_text(encoding="utf-8").split("\n")
    line = next(n for n, text in enumerate(lines, start=1) if "can_attack = false  zoc_across" in text)
    assert (found[0].span.line, found[0].span.column) == (line, lines[line - 1].index("stream]") + 1)


# ------------------------------------------------------------ reinforcement_delay as a condition
def test_red_may_hold_its_reinforcement_back(game):
    state = new_game(game).arrange({**START, "r_reserve": PENDING}, turn=2, phase="red_move")
    legal = state.legal_actions()
    assert Action.delay("r_reserve") in legal and Action.end() in legal
    state.apply_action(Action.end())
    assert state.arrival_turn("r_reserve") == 3


def test_blue_must_bring_its_reinforcement_in_when_it_is_due(game):
    state = new_game(game).arrange({**START, "b_reserve": PENDING}, turn=2, phase="blue_move")
    legal = state.legal_actions()
    assert Action.delay("b_reserve") not in legal and Action.end() not in legal
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.delay("b_reserve"))
    assert "may not be delayed" in str(error.value)
    with pytest.raises(IllegalAction):
        state.apply_action(Action.end())
    state.apply_action(Action.move("b_reserve", "0602"))
    assert Action.end() in state.legal_actions()


# ------------------------------------------------------------ stacking { counts }
def test_a_unit_may_end_its_move_with_the_fort_which_does_not_count(game):
    state = new_game(game).arrange(START, turn=1, phase="blue_move")
    assert "0402" in destinations(state, "b_picket")  # limit 1, but the fort does not count
    state.apply_action(Action.move("b_picket", "0402"))
    state.apply_action(Action.end())
    assert state.removing is None and state.phase.id == "blue_fight"
    assert set(state.units_at("0402")) == {"b_fort", "b_picket"}


def test_the_owner_removes_the_excess_at_the_end_of_its_movement_phase_never_the_fort(game):
    state = new_game(game).arrange({**START, "b_guard": "0402"}, turn=1, phase="blue_move")
    # b_guard may still move away, so b_picket may end its move on it for now ...
    state.apply_action(Action.move("b_picket", "0402"))
    assert Action.end() in state.legal_actions()
    state.apply_action(Action.end())
    # ... but the phase ends over the limit: Blue, the owner, removes one (the fort is not offered).
    assert state.removing == "blue" and state.current_player() == state.players.index("blue")
    assert set(state.legal_actions()) == {Action.remove("b_guard"), Action.remove("b_picket")}
    state.apply_action(Action.remove("b_guard"))
    assert state.status("b_guard") == "eliminated" and state.status("b_fort") == "map"
    assert state.phase.id == "blue_fight"


def test_stacking_is_not_checked_at_the_end_of_a_combat_phase(game):
    state = new_game(game).arrange({**START, "b_guard": "0501"}, turn=1, phase="blue_fight")
    state.apply_action(Action.end())
    assert state.removing is None and set(state.units_at("0501")) == {"b_guard", "b_picket"}


def test_end_of_movement_checks_only_the_moving_sides_stacks(game):
    # Red is over the limit in 0101 (as after a retreat): Blue's movement phase ends without a check of
    # it; Red's own next movement phase ends with Red removing one.
    state = new_game(game).arrange({**START, "r_line": "0101", "r_reserve": "0101"}, turn=1, phase="blue_move")
    state.apply_action(Action.end())
    assert state.removing is None and state.phase.id == "blue_fight"
    state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (2, "red_move")
    state.apply_action(Action.end())
    assert state.removing == "red" and set(state.legal_actions()) == {Action.remove("r_line"), Action.remove("r_reserve")}


def test_conformance_expects_only_the_moving_sides_hexes_within_the_limit_after_its_movement(game):
    from rulec.engine.conformance import _over_stacked

    state = new_game(game).arrange({**START, "r_line": "0101", "r_reserve": "0101"}, turn=1, phase="red_fight")
    index = {p.id: i for i, p in enumerate(game.sequence)}
    assert _over_stacked(state, index["blue_move"]) == [] and _over_stacked(state, index["red_fight"]) == []
    assert _over_stacked(state, index["red_move"]) == ["0101"]


# ------------------------------------------------------------ blocked entry areas
BLUE = {"b_fort": "0402", "b_guard": "0404", "b_picket": "0501"}


def reserve_entering(game, red: dict[str, str]):
    state = new_game(game).arrange({**BLUE, **red, "b_reserve": PENDING}, turn=2, phase="blue_move")
    return state, {h: state.move_cost("b_reserve", h) for h in destinations(state, "b_reserve")}


def without_entry_rule(game, **changes):
    return replace(game, movement=replace(game.movement, entry_blocked=None, **changes))


def test_entry_hexes_in_an_enemy_zoc_are_blocked_and_the_unit_sidesteps_to_the_nearest_edge_hexes(game):
    # Red in 0503 controls both hexes of the east road (0602, 0603): Blue enters by 0601 and 0604 instead.
    _, costs = reserve_entering(game, {"r_line": "0503"})
    assert costs["0601"] == 1 and costs["0604"] == 1
    assert costs["0602"] == 2 and costs["0603"] == 2  # reached only by moving on from the sidestep


def test_without_entry_blocked_an_entry_hex_in_an_enemy_zoc_is_entered_and_the_unit_stops(game):
    _, costs = reserve_entering(without_entry_rule(game), {"r_line": "0503"})
    assert costs == {"0602": 1, "0603": 1}


def test_closest_legal_with_every_road_hex_enemy_occupied_enters_by_the_nearest_edge_hexes_on_either_side(game):
    _, costs = reserve_entering(without_entry_rule(game), {"r_line": "0602", "r_reserve": "0603"})
    assert costs == {"0601": 1, "0604": 1}  # in red's ZOC: the unit stops there


def test_when_the_sidestep_hexes_are_blocked_too_the_unit_cannot_enter_and_comes_next_turn(game):
    state, costs = reserve_entering(game, {"r_line": "0602", "r_reserve": "0603"})
    assert costs == {}  # 0601 and 0604 are in red's ZOC, and the east edge has no other hex
    state.apply_action(Action.end())
    assert state.arrival_turn("b_reserve") == 3


def test_with_blocked_entry_delay_a_blocked_area_is_not_sidestepped(game):
    _, costs = reserve_entering(without_entry_rule(game, blocked_entry="delay"), {"r_line": "0602", "r_reserve": "0603"})
    assert costs == {}


def test_a_fort_set_up_with_a_unit_is_no_overstacking_but_two_units_are(tmp_path):
    # The checker warns of set-up stacks over the limit, counting only the units `counts` holds for.
    with_fort = checked(tmp_path, "setup = 0404 }", "setup = 0402 }")  # b_guard joins the fort
    assert [d.code for d in with_fort] == []
    two = checked(tmp_path, "setup = 0501 }", "setup = 0404 }")  # b_picket joins b_guard
    assert [d.code for d in two] == ["setup-overstacked"]


def test_the_checker_tells_whether_a_condition_reads_the_position(game, tmp_path):
    from rulec.pipeline import load_game as load

    assert game.stacking.counts.reads_position is False  # unit.type != fort: about the unit alone
    for condition in ("not (unit.type == fort and unit.hex == 0402)", "unit.strength > 1", "turn > 1 or unit.type != fort"):
        text = GAME.read_text(encoding="utf-8").replace("counts = unit.type != fort", f"counts = {condition}")
        path = tmp_path / "river_screen.rulec"
        path.write_text(text, encoding="utf-8")
        assert load(str(path)).stacking.counts.reads_position is True, condition


def test_a_stacking_condition_that_reads_the_position_is_asked_in_each_position(game, tmp_path):
    from rulec.pipeline import load_game as load

    text = GAME.read_text(encoding="utf-8").replace("counts = unit.type != fort",
                                                    "counts = not (unit.type == fort and unit.hex == 0402)")
    path = tmp_path / "river_screen.rulec"
    path.write_text(text, encoding="utf-8")
    variant = load(str(path))
    # The fort counts everywhere but in 0402. Where it counts, the picket may not end its move on it: a fort
    # has nowhere to go, so it cannot make room before the limit is checked (the move is not even offered).
    state = new_game(variant).arrange({**START, "b_fort": "0402"}, turn=1, phase="blue_move")
    state.apply_action(Action.move("b_picket", "0402"))
    state.apply_action(Action.end())
    assert state.removing is None
    state = new_game(variant).arrange({**START, "b_fort": "0502"}, turn=1, phase="blue_move")
    assert not state.is_legal(Action.move("b_picket", "0502"))
    assert Action.move("b_picket", "0502") not in state.moves_of("b_picket")


def test_units_kept_out_of_stacking_for_the_game_are_those_a_fresh_count_gives(game):
    """The answers of a condition that reads nothing of the position are worked out once a game: at every
    position of random games they are those the condition gives there."""
    import random

    from rulec.engine import stacking
    from rulec.engine.context import EngineContext

    for seed in range(5):
        rng = random.Random(seed)
        state = new_game(game, seed=seed)
        while not state.is_terminal():
            asked = [u for u in state.game.units if state.where[u] in ("map", "pending")]
            fresh = {u for u in asked if not game.stacking.counts(EngineContext(state, state.unit(u)))}
            assert fresh == set(asked) & stacking.uncounted(state)
            state.apply_action(rng.choice(state.legal_actions()))
