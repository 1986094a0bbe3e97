"""Combat conditions about a unit and a battle, and hooks that mark, played on tests/games/river_assault.rulec:
who may join a given battle (may_join, with crossing() and traced_without()), what a unit that must attack
must attack (must_attack_target), a battle modifier over neighbours(), and mark/unmark in hooks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.language.parse import parse_text
from rulec.pipeline import check, load_game

GAME_FILE = Path(__file__).parent / "games" / "river_assault.rulec"
# The river runs between columns 3 and 4: 0303/0403 and 0304/0403 are river hexsides, 0404/0403 is not.


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME_FILE))


def withs(state) -> set[str]:
    return {a.unit for a in state.legal_actions() if a.kind == "with"}


def attacks(state) -> set[str]:
    return {a.hex for a in state.legal_actions() if a.kind == "attack"}


def after_moving(game, places, moves):
    """The position at the start of blue_combat_1, once `moves` (unit -> hex) were made in blue_move."""
    state = new_game(game).arrange(places, phase="blue_move")
    for uid, h in moves.items():
        state.apply_action(Action.move(uid, h))
    state.apply_action(Action.end())
    assert state.phase.id == "blue_combat_1"
    return state


def test_a_unit_that_moved_may_not_join_an_attack_across_a_river(game):
    # b1 moved up to the river (0302 -> 0303); b2 stood still across it; b3 moved along the far bank (0405 -> 0404).
    state = after_moving(game, {"b1": "0302", "b2": "0304", "b3": "0405", "r1": "0403"}, {"b1": "0303", "b3": "0404"})
    state.apply_action(Action.attack("0403"))
    assert withs(state) == {"b2", "b3"}  # the legal actions never offer the refused join
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.with_unit("b1"))
    assert error.value.rule == "R.1" and "b1 may not join a battle against 0403" in error.value.message
    state.apply_action(Action.with_unit("b2"))
    state.apply_action(Action.with_unit("b3"))
    assert state.declaring.attackers == ("b2", "b3")


def test_the_same_unit_may_attack_across_the_river_when_it_did_not_move(game):
    state = new_game(game).arrange({"b1": "0303", "r1": "0403"}, phase="blue_combat_1")
    state.apply_action(Action.attack("0403"))
    assert withs(state) == {"b1"}


def test_a_multi_hex_battle_may_not_take_a_hex_across_the_river_from_a_unit_that_moved(game):
    multi = replace(game, combat=replace(game.combat, multi_hex=True))
    # b1 moved to 0303: r1 (0302) is on its bank, r2 (0403) across the river; both are next to b1.
    state = after_moving(multi, {"b1": "0203", "r1": "0302", "r2": "0403"}, {"b1": "0303"})
    assert attacks(state) == {"0302"}  # b1 may not attack 0403 at all, and nobody else is near
    state.apply_action(Action.attack("0302"))
    state.apply_action(Action.with_unit("b1"))
    assert "0403" not in attacks(state)
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0403"))
    assert error.value.rule == "R.1" and "fails for b1 against the hexes together" in error.value.message
    # A unit that did not move may widen the battle across the river.
    state = new_game(multi).arrange({"b1": "0303", "r1": "0302", "r2": "0403"}, phase="blue_combat_1")
    state.apply_action(Action.attack("0302"))
    state.apply_action(Action.with_unit("b1"))
    state.apply_action(Action.attack("0403"))
    assert state.declaring.targets == ("0302", "0403")


def test_an_isolated_unit_attacks_only_where_winning_would_reopen_its_supply(game):
    # The marsh leaves one way west, through 0203; r1 holds it, so b1 (0303) is out of supply.
    state = new_game(game).arrange({"b1": "0303", "r1": "0203", "r2": "0403"}, phase="blue_combat_1")
    assert attacks(state) == {"0203"}  # clearing r1 would reopen the way; clearing r2 would not
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0403"))
    assert error.value.rule == "R.1" and "b1 may not join a battle against 0403" in error.value.message
    state.apply_action(Action.attack("0203"))
    assert withs(state) == {"b1"}
    # In supply (r1 elsewhere), b1 may attack r2 as well.
    state = new_game(game).arrange({"b1": "0303", "r1": "0302", "r2": "0403"}, phase="blue_combat_1")
    assert attacks(state) == {"0302", "0403"}


def test_the_counterfactual_trace_does_not_change_the_positions_own_traces(game):
    from rulec.engine import EngineContext

    state = new_game(game).arrange({"b1": "0303", "r1": "0203", "r2": "0403"}, phase="blue_combat_1")
    context = EngineContext(state)
    b1, r1, r2 = (state.unit(u) for u in ("b1", "r1", "r2"))
    assert context.traced_without("supply", b1, [r1]) and not context.traced_without("supply", b1, [r2])
    assert not context.traced("supply", b1)  # asked after the counterfactual: still cut off
    assert state.positions["r1"] == "0203"


def test_a_unit_next_to_a_fort_must_attack_the_fort(game):
    # b1 (0303) is next to the fort (0403) and to r1 (0302); b2 (0301) only to r1.
    state = new_game(game).arrange({"b1": "0303", "b2": "0301", "fort": "0403", "r1": "0302"}, phase="blue_combat_1")
    assert Action.end() not in state.legal_actions()
    state.apply_action(Action.attack("0302"))
    assert withs(state) == {"b2"}  # b1 may not spend its attack on r1
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.with_unit("b1"))
    assert error.value.rule == "R.2" and "b1 must attack a unit for which" in error.value.message
    state.apply_action(Action.with_unit("b2"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(3))  # no effect
    assert state.legal_actions() == [Action.attack("0403")]  # b1's duty is still open
    state.apply_action(Action.attack("0403"))
    state.apply_action(Action.with_unit("b1"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(3))
    assert state.legal_actions() == [Action.end()]


def test_with_no_fort_near_the_unit_may_attack_anything(game):
    state = new_game(game).arrange({"b1": "0303", "r1": "0302"}, phase="blue_combat_1")
    assert set(state.legal_actions()) == {Action.attack("0302"), Action.end()}
    state.apply_action(Action.attack("0302"))
    assert withs(state) == {"b1"}


def test_an_outflanked_defender_gives_the_attacker_one_on_the_die(game):
    # r1 in 0503: its neighbours are 0402 0403 0502 0504 0602 0603.
    state = new_game(game).arrange({"b1": "0402", "b2": "0504", "b3": "0602", "r1": "0503"}, phase="blue_combat_1")
    state.apply_action(Action.attack("0503"))
    state.apply_action(Action.with_unit("b1"))
    state.apply_action(Action.with_unit("b2"))
    assert state.odds().drm == 0 and "flank" not in state.odds().modifiers  # 0602 is next to no attacker
    state.apply_action(Action.with_unit("b3"))
    assert state.odds().drm == 1 and state.odds().modifiers == ("flank",)
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(6))  # 7 with the flank: defender eliminated
    assert state.status("r1") == "eliminated"


def test_units_that_attack_in_the_first_combat_phase_are_disrupted(game):
    state = new_game(game).arrange({"b1": "0402", "b2": "0504", "r1": "0503", "r2": "0403"}, phase="blue_combat_1")
    for step in (Action.attack("0503"), Action.with_unit("b1"), Action.resolve(), Action.roll(3)):
        state.apply_action(step)
    assert state.markers_on("b1") == ("disrupted",) and state.markers_on("b2") == ()
    assert state.markers_on("0503") == ("shelled",) and state.markers_on("0402") == ()
    state.apply_action(Action.end())
    assert state.phase.id == "blue_combat_2"
    # Disrupted, b1 may not attack again; b2 attacks now, and is not disrupted for it.
    state.apply_action(Action.attack("0403"))
    assert withs(state) == {"b2"}
    for step in (Action.with_unit("b2"), Action.resolve(), Action.roll(3)):
        state.apply_action(step)
    assert state.markers_on("b2") == () and state.markers_on("0403") == ()


def test_the_hook_marks_only_attackers_still_on_the_map(game):
    state = new_game(game).arrange({"b1": "0402", "r1": "0503"}, phase="blue_combat_1")
    for step in (Action.attack("0503"), Action.with_unit("b1"), Action.resolve(), Action.roll(1)):
        state.apply_action(step)  # +1: defender eliminated
    assert state.status("r1") == "eliminated" and state.markers_on("r1") == ()
    assert state.markers_on("b1") == ("disrupted",)


def test_units_out_of_supply_are_marked_isolated_as_the_turn_begins(game):
    state = new_game(game).arrange({"b1": "0303", "b2": "0101", "r1": "0203"}, phase="red_combat")
    state.mark("b2", "isolated")  # left over from an earlier turn: taken off first
    state.apply_action(Action.end())  # turn 2: blue_supply's hooks, then blue_move
    assert state.phase.id == "blue_move"
    assert state.markers_on("b1") == ("isolated",) and state.markers_on("b2") == ()


# ------------------------------------------------------------ the checker
TEXT = GAME_FILE.read_text(encoding="utf-8")


def diagnostics(old: str, new: str) -> list[tuple[str, str, int]]:
    assert old in TEXT
    _, found = check(parse_text(TEXT.replace(old, new, 1), "t.rulec"))
    return [(d.code, d.message, d.span.line) for d in found if d.is_error]


def test_battle_names_exist_only_where_a_battle_is_being_joined_or_resolved():
    found = diagnostics("must_attack_target = unit.type == fort", "must_attack_target = count(attackers) > 1")
    assert [(code, "exists only" in message) for code, message, _ in found] == [("unknown-name", True)]
    found = diagnostics("effects = [unmark(units(side = blue), isolated),", "effects = [unmark(attackers, isolated),")
    assert [code for code, _, _ in found] == ["unknown-name"]
    assert found[0][2] == TEXT.splitlines().index(next(line for line in TEXT.splitlines() if "unmark(units" in line)) + 1


def test_hook_marks_are_checked():
    found = diagnostics("mark(attackers, disrupted)", "mark(attackers, disruptd)")
    assert [code for code, _, _ in found] == ["unknown-marker"]
    misspelt = check(parse_text(TEXT.replace("mark(attackers, disrupted)", "mark(attackers, disruptd)"), "t.rulec"))[1]
    assert "disrupted" in str(next(d for d in misspelt if d.is_error).hint)
    # and the marker, now used nowhere, is warned of (the misspelling is where it should have been used)
    assert [d.code for d in misspelt if not d.is_error] == ["unused-marker"]
    found = diagnostics("mark(defender_hexes, shelled)", "mark(defenders, shelled)")  # shelled is put on hexes
    assert [(code, message) for code, message, _ in found] == [
        ("wrong-kind", "marker 'shelled' is put on hexes: mark takes a set of hexes first, not units (defenders)")]
    found = diagnostics("mark(attackers, disrupted)", "mark(attacker_hexes, disrupted)")
    assert [code for code, _, _ in found] == ["wrong-kind"] and "put on units" in found[0][1]
    found = diagnostics("mark(defender_hexes, shelled)", "mark(defender_hexes)")
    assert [code for code, _, _ in found] == ["argument-count"]


def test_crossing_takes_a_hexside_type():
    text = TEXT.replace("crossing(unit.hex, h, river)", "crossing(unit.hex, h, rivr)")
    (found,) = check(parse_text(text, "t.rulec"))[1]
    assert found.code == "wrong-kind-argument" and "must name a hexside type, not 'rivr'" in found.message
    assert "river" in found.hint
    found = diagnostics("crossing(unit.hex, h, river)", "crossing(unit.hex, h, marsh)")  # a terrain, not a hexside
    assert [code for code, _, _ in found] == ["wrong-kind-argument"]


def test_random_games_keep_every_promise(game):
    from rulec.engine.conformance import check_game

    # Every duty can be met and every offered join is legal: random games never stall nor break an invariant.
    assert check_game(game, n_games=60, seed=3) == []


def test_a_join_condition_that_reads_the_attackers_so_far_is_asked_again_as_each_joins():
    # may_join = count(attackers) < 2: a battle takes at most two units. Answers of a condition that does not read
    # the attackers are kept whoever joins (joining.may_join); this one's must be asked again after each `with`.
    old = TEXT[TEXT.index("  may_join = "):TEXT.index("  must_attack = ")]
    game, found = check(parse_text(TEXT.replace(old, "  may_join = count(attackers) < 2\n", 1), "t.rulec"))
    assert game is not None and not [d for d in found if d.is_error]
    state = new_game(game).arrange({"b1": "0303", "b2": "0304", "b3": "0404", "r1": "0403"}, phase="blue_combat_1")
    state.apply_action(Action.attack("0403"))
    assert withs(state) == {"b1", "b2", "b3"}
    state.apply_action(Action.with_unit("b1"))
    assert withs(state) == {"b2", "b3"}
    state.apply_action(Action.with_unit("b2"))
    assert withs(state) == set()
    with pytest.raises(IllegalAction):
        state.apply_action(Action.with_unit("b3"))
