"""Declaring a battle changes no position: the traces worked out for the position hold through its steps
(`attack`, `with`, `resolve`, `cancel`), and are searched again once units move (tests/games/cut_off.rulec)."""

from __future__ import annotations

from pathlib import Path

from rulec.engine import Action, EngineContext, new_game
from rulec.engine.traces import traced_flags, traced_hexes
from rulec.pipeline import load_game

GAME = Path(__file__).parent / "games" / "cut_off.rulec"


def test_the_steps_of_a_declaration_keep_the_positions_traces():
    game = load_game(str(GAME))
    state = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "0603"}, phase="blue_combat")
    found = {side: traced_hexes(state, "supply", side, EngineContext) for side in ("blue", "red")}
    for step in (Action.attack("0603"), Action.with_unit("b1")):
        state.apply_action(step)
        for side, hexes in found.items():
            assert traced_hexes(state, "supply", side, EngineContext) is hexes  # kept, not searched again
    fresh = state.clone()
    fresh.forget()  # the same position with nothing kept: the search gives what was kept
    assert {side: traced_hexes(fresh, "supply", side, EngineContext) for side in found} == found
    resolved = state.clone()
    resolved.apply_action(Action.resolve())  # its odds read supply: the position's own answer
    assert resolved.is_chance_node() and traced_hexes(resolved, "supply", "blue", EngineContext) is found["blue"]
    state.apply_action(Action.cancel())
    assert traced_hexes(state, "supply", "blue", EngineContext) is found["blue"]


def test_a_condition_reads_the_trace_a_hex_at_a_time_as_the_set_of_hexes_says():
    """EngineContext.traced_hex and traced read the trace's bytes by hex number (traces.traced_flags): the same
    answers as the set of hexes reached, for every hex of the map, and no for a hex off it."""
    game = load_game(str(GAME))
    state = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "0603"}, phase="blue_move")
    context = EngineContext(state)
    for side in ("blue", "red"):
        reached = traced_hexes(state, "supply", side, EngineContext)
        assert 0 < len(reached) < len(state.tables.numbered)  # (some hexes in, some out: the test can fail)
        assert {h for h in state.tables.numbered if context.traced_hex("supply", side, h)} == reached
        assert not context.traced_hex("supply", side, "9999")
    for uid, where in state.positions.items():
        unit = state.unit(uid)
        assert context.traced("supply", unit) == (where in traced_hexes(state, "supply", unit.side, EngineContext))


def test_a_move_searches_the_traces_again():
    game = load_game(str(GAME))
    state = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "1001"}, phase="blue_move")
    before = traced_hexes(state, "supply", "blue", EngineContext)
    state.apply_action(Action.move("b3", "0203"))  # opens the enemy zone of control in 0303 no more
    after = traced_hexes(state, "supply", "blue", EngineContext)
    assert after is not before and "0503" in before and "0503" not in after


def test_a_traces_bytes_are_made_again_only_where_the_hexes_reached_changed():
    """traced_flags keeps the bytes last made for the trace and side: a move that changes the trace nowhere reads
    the same bytes, one that changes it gets new ones, and either way they say what the set of hexes says."""
    game = load_game(str(GAME))
    state = new_game(game).arrange({"b1": "0503", "b3": "0303", "r1": "0302", "r3": "1001"}, phase="blue_move")
    before = traced_flags(state, "supply", "blue", EngineContext)
    state.apply_action(Action.move("b1", "0603"))  # the blue trace reaches the same hexes as before
    same = traced_flags(state, "supply", "blue", EngineContext)
    assert same is before
    state.apply_action(Action.move("b3", "0203"))  # opens the enemy zone of control in 0303 no more
    after = traced_flags(state, "supply", "blue", EngineContext)
    assert after != before
    index = state.tables.index
    reached = traced_hexes(state, "supply", "blue", EngineContext)
    assert {h for h in state.tables.numbered if after[index[h]] == 1} == reached
