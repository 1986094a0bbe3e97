"""Markers with expiry, played (tests/games/disruption.rulec).

Red and Blue each have two movement and two combat phases a player-turn. An even
battle marks both sides `disrupted`, which forbids moving, attacking and advancing
and expires once the unit's side has had a movement and a combat phase since; a won
battle disrupts the attacker (who may then not advance) and marks the attacked hex
`shelled`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.engine.context import EngineContext
from rulec.compile.expressions import compiler_for, to_function
from rulec.pipeline import load_game

GAME = Path(__file__).resolve().parent / "games" / "disruption.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def fight(state, target, *attackers, roll=1):
    state.apply_action(Action.attack(target))
    for uid in attackers:
        state.apply_action(Action.with_unit(uid))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(roll))


def end_until(state, phase):
    while state.phase.id != phase:
        state.apply_action(Action.end())


def attackers_offered(state, target):
    trial = state.clone()
    trial.apply_action(Action.attack(target))
    return {a.unit for a in trial.legal_actions() if a.kind == "with"}


def even_battle(game):
    state = new_game(game).arrange({"r1": "0202", "r2": "0204", "b1": "0302", "b2": "0604"}, phase="red_fight")
    fight(state, "0302", "r1")  # 2 against 2: both disrupted
    return state


def test_an_even_battle_marks_both_sides(game):
    state = even_battle(game)
    assert state.last_battle.result == "DD"
    assert state.markers_on("r1") == ("disrupted",) and state.markers_on("b1") == ("disrupted",)
    assert state.markers_on("r2") == () and state.markers_on("b2") == ()


def test_a_disrupted_unit_sits_out_its_next_movement_and_combat_phase(game):
    state = even_battle(game)
    end_until(state, "red_move2")
    assert not [a for a in state.legal_actions() if a.unit == "r1"]
    assert [a for a in state.legal_actions() if a.unit == "r2"]
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("r1", "0102"))
    assert "marked Disrupted" in str(error.value) and error.value.rule == "D.1"
    state.apply_action(Action.move("r2", "0303"))  # next to b1 at 0302
    end_until(state, "red_fight2")
    assert attackers_offered(state, "0302") == {"r2"}
    assert state.explain("attack 0302 with r1") == "illegal (D.1): r1 is marked Disrupted and may not attack"
    assert state.markers_on("r1") == ("disrupted",)
    end_until(state, "blue_move")
    assert state.markers_on("r1") == ()  # recovered at the end of its second combat phase


def test_the_defender_recovers_after_its_own_movement_and_combat_phases(game):
    state = even_battle(game)
    end_until(state, "blue_move")
    assert state.markers_on("b1") == ("disrupted",)  # red's phases do not count for a blue unit
    assert not [a for a in state.legal_actions() if a.unit == "b1"]
    end_until(state, "blue_fight")
    assert Action.attack("0202") not in state.legal_actions()  # b1, next to r1, may not attack
    end_until(state, "blue_move2")
    assert state.markers_on("b1") == ()
    assert [a for a in state.legal_actions() if a.unit == "b1"]


def test_an_award_counts_marked_units(game):
    state = even_battle(game)
    assert state.vp["red"] == 0
    end_until(state, "red_move2")
    assert state.vp["red"] == 1  # b1 is still disrupted when red's second movement phase begins


def test_a_disrupted_victor_may_not_advance_and_the_hex_is_marked(game):
    state = new_game(game).arrange({"r1": "0101", "r2": "0204", "b1": "0601", "b2": "0304"}, phase="red_fight")
    fight(state, "0304", "r2")  # 4 against 1: the attacker is disrupted, the defender retreats
    assert state.last_battle.result == "DX"
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    assert state.pos["b2"] != "0304"
    assert state.advancing is None  # r2 is disrupted: nothing may advance into the vacated hex
    assert state.markers_on("0304") == ("shelled",)
    context = EngineContext(state)
    compiler = compiler_for(game)
    assert to_function(compiler.source(["call", "marked_hex", [["const", "0304"], ["name", "shelled"]], {}]))(context)


def test_markers_survive_clones_independently_and_the_api_marks_and_unmarks(game):
    state = new_game(game)
    other = state.clone()
    state.mark("b2", "disrupted")
    assert state.markers_on("b2") == ("disrupted",) and other.markers_on("b2") == ()
    state.unmark("b2", "disrupted")
    assert state.markers_on("b2") == ()
    with pytest.raises(ValueError):
        state.mark("b2", "disruptd")


def test_unmarking_units_that_carry_no_such_marker_changes_nothing_and_keeps_what_the_position_knows(game):
    """A hook's `unmark(units(side = S), M)` names every unit of a side: those without the marker change nothing, so
    what the position worked out (its legal actions here) still holds; taking one marker off drops it."""
    from rulec.engine import markers

    state = even_battle(game)  # r1 and b1 disrupted, r2 and b2 not
    state.legal_actions()
    known, version = dict(state._cache), state.markers.version
    assert "legal" in known
    markers.unmark_each(state, ["r2", "b2"], "disrupted")
    assert state.markers.version == version and state._cache == known
    markers.unmark_each(state, ["r2", "r1"], "disrupted")
    assert state.markers_on("r1") == () and state.markers_on("b1") == ("disrupted",)
    assert state.markers.version != version and "legal" not in state._cache


def test_marking_several_units_at_once_marks_each_with_the_phase_and_drops_what_the_position_knew(game):
    from rulec.engine import markers

    state = new_game(game).arrange({"r1": "0202", "r2": "0204", "b1": "0602"}, phase="red_move")
    assert state.is_legal(Action.move("r1", "0203"))
    markers.mark_each(state, ["r1", "r2"], "disrupted")
    assert state.markers_on("r1") == state.markers_on("r2") == ("disrupted",)
    assert state.markers.units["r1"] == state.markers.units["r2"] == {"disrupted": (state.turn, state.phase_index)}
    assert not state.is_legal(Action.move("r1", "0203"))  # disrupted units may not move: asked again, not kept
    version = state.markers.version
    markers.mark_each(state, [], "disrupted")
    assert state.markers.version == version


def test_the_units_a_marker_forbids_to_move_are_the_markers_own_in_every_position_played_on(game):
    """markers.forbidden is kept with the markers' version: a position with the same markers as one that worked it
    out (a clone that changed no marker) finds it, and one whose markers changed asks again."""
    from rulec.engine import markers

    state = even_battle(game)  # r1 and b1 disrupted, r2 and b2 not
    assert markers.forbidden(state, "move") == {"r1", "b1"}
    calm, marked = state.clone(), state.clone()
    calm.forget()  # (a clone shares its position's cache until it plays: its own, empty, as after an action)
    assert markers.forbidden(calm, "move") is markers.forbidden(state, "move")  # the same markers: kept
    marked.forget()
    marked.mark("r2", "disrupted")
    assert markers.forbidden(marked, "move") == {"r1", "b1", "r2"}
    marked.unmark("r1", "disrupted")
    assert markers.forbidden(marked, "move") == {"b1", "r2"}
    calm.forget()
    assert markers.forbidden(calm, "move") == {"r1", "b1"}  # the first position's markers: worked out again


def test_a_marker_table_says_whether_it_took_a_marker_off(game):
    table = new_game(game).clone().markers
    disrupted = game.markers["disrupted"]
    table.put(disrupted, "r1", (1, 0))
    version = table.version
    assert table.take(disrupted, "r2") is False and table.version == version
    assert table.take(disrupted, "r1") is True and table.version != version and "r1" not in table.units
    assert table.take(disrupted, "r1") is False


def test_a_marked_unit_holds_its_hex_for_stacking(game):
    state = new_game(game).arrange({"r1": "0202", "r2": "0204", "b1": "0602"}, phase="red_move")
    state.mark("r1", "disrupted")
    # stacking limit 1: r2 may not end in r1's hex, since r1 may not move away
    assert not state.is_legal(Action.move("r2", "0202"))
    assert state.is_legal(Action.move("r2", "0203"))


def test_random_games_of_the_marker_and_history_games_keep_every_promise(game):
    from rulec.engine.conformance import check_game

    assert check_game(game, n_games=30, seed=3) == []
    assert check_game(load_game(str(GAME.with_name("history.rulec"))), n_games=30, seed=3) == []


def test_replaying_the_actions_replays_the_markers(game):
    state = new_game(game)
    state.apply_action(Action.move("r2", "0203"))
    end_until(state, "red_fight")
    fight(state, "0302", "r1")
    end_until(state, "red_move2")
    again = new_game(game)
    for action in state.history():
        again.apply_action(action)
    assert again.markers_on("r1") == state.markers_on("r1") == ("disrupted",)
    assert again.markers.units == state.markers.units


def test_an_unmark_effect_takes_the_marker_off(game):
    from dataclasses import replace

    from rulec.runtime.model import Effect

    rally = replace(game.results["DD"], effects=game.results["DD"].effects + (Effect("unmark", "attacker", marker="disrupted"),))
    variant = replace(game, results={**game.results, "DD": rally})
    state = new_game(variant).arrange({"r1": "0202", "b1": "0302"}, phase="red_fight")
    fight(state, "0302", "r1")
    assert state.markers_on("r1") == () and state.markers_on("b1") == ("disrupted",)


def test_a_hex_marker_expires_by_every_sides_phases(game):
    from dataclasses import replace

    from rulec.compile import kinds
    from rulec.runtime.model import Expr

    source = compiler_for(game).for_marker().source(
        ["op", ">=", ["call", "phases_since_marked", [["name", "combat"]], {}], ["const", 2]], kinds.BOOL)
    shelled = replace(game.markers["shelled"], expires=Expr("phases_since_marked(combat) >= 2", to_function(source)))
    variant = replace(game, markers={**game.markers, "shelled": shelled})
    state = new_game(variant)
    end_until(state, "red_fight")
    state.mark("0403", "shelled")
    end_until(state, "blue_move")  # red_fight2 ended: one combat phase since
    assert state.markers_on("0403") == ("shelled",)
    end_until(state, "blue_move2")  # blue_fight ended: the second, of the other side, counts for a hex
    assert state.markers_on("0403") == ()


def test_phases_since_counts_kinds_and_phase_ids_of_the_owner(game):
    from rulec.engine.markers import phases_since

    ids = [p.id for p in game.sequence]
    marked, now = (1, ids.index("red_fight")), (2, ids.index("red_move"))
    assert phases_since(game, marked, now, "combat", "red") == 1  # red_fight2
    assert phases_since(game, marked, now, "movement", "red") == 2  # red_move2, then red_move of turn 2
    assert phases_since(game, marked, now, "combat", None) == 3  # and blue's two
    assert phases_since(game, marked, now, "blue_fight", None) == 1
    assert phases_since(game, marked, now, "blue_fight", "red") == 0


def test_an_eliminated_unit_loses_its_markers(game):
    from dataclasses import replace

    from rulec.runtime.model import Effect

    rout = replace(game.results["DD"], effects=game.results["DD"].effects + (Effect("eliminate", "defender"),))
    variant = replace(game, results={**game.results, "DD": rout})
    state = new_game(variant).arrange({"r1": "0202", "b1": "0302"}, phase="red_fight")
    fight(state, "0302", "r1")  # b1 is marked, then eliminated
    assert state.status("b1") == "eliminated"
    assert state.markers_on("b1") == () and state.markers_on("r1") == ("disrupted",)
