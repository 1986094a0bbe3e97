"""What the engine keeps to answer movement { may_end_move } and the traces it reads must be what working them out
from scratch gives, at every position of random games (rulec/engine/trace_sets.py, move_ends.py, answer_reads.py).

A trace written as sets keeps, with its search, the hex facts its conditions read (trace_sets._Plan): the next search
asks the conditions again only at the hexes whose facts changed. Its answer is compared with a search from scratch
(every condition asked hex by hex, nothing kept), in The Marne and in Drive on Metz given a supply trace as sets."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import EngineContext, new_game, trace_sets
from rulec.engine.hex_bits import hexes
from rulec.engine.traces import search, traced_bits
from rulec.pipeline import load_game
from rulec.players import RandomPlayer

ROOT = Path(__file__).resolve().parent.parent

# A supply trace for Drive on Metz whose conditions the checker writes as sets: they read the enemies, their zones
# of control, the friends and who holds the objectives, at the hex only.
METZ_SUPPLY = """
trace supply {
  from { us = [west, 0701, 0807]  germany = [east, 0701, 0807] }
  through = not enemy_occupied(hex) and (not enemy_zoc(hex) or friendly_occupied(hex))
            and (not (hex in objectives) or controls(friendly, hex) or friendly_occupied(hex))
  max_length = 7
  lost_when = enemy_occupied(hex) or (hex in objectives and not controls(friendly, hex))
}
"""


def metz_with_supply(tmp_path):
    path = tmp_path / "metz_supply.rulec"
    path.write_text((ROOT / "games" / "drive_on_metz.rulec").read_text() + METZ_SUPPLY)
    return load_game(str(path))


def afresh(state, trace, side) -> int:
    """The trace's hexes from scratch: every condition asked hex by hex, nothing kept from another position."""
    return search(state, replace(trace, reads_at_hex=None, sets=None), side, EngineContext(state))


def play_and_compare(game, seeds: range, positions: int) -> tuple[int, int]:
    """Random games; at each position every trace of every side is asked (the kept search asked again) and compared
    with the search from scratch, and now and then in a clone of an earlier position (facts kept from a position far
    away). Returns the positions checked and how many searches found some fact changed."""
    touched_counts = [0]
    real_touched = trace_sets._touched

    def counted(kept, now):
        found = real_touched(kept, now)
        touched_counts[0] += bool(found)
        return found

    trace_sets._touched = counted
    try:
        checked = 0
        rng = random.Random(5)
        for seed in seeds:
            state = new_game(game, seed=seed)
            player, earlier = RandomPlayer(seed), []
            while not state.is_terminal() and checked < positions:
                for states in ([state], [rng.choice(earlier)] if earlier and rng.random() < 0.1 else []):
                    for asked in states:
                        asked.forget()
                        for trace in game.traces.values():
                            for side in game.sides:
                                found = traced_bits(asked, trace.id, side, EngineContext)
                                expected = afresh(asked, trace, side)
                                assert found == expected, (trace.id, side, hexes(found ^ expected,
                                                                                 asked.tables.numbered))
                checked += 1
                if rng.random() < 0.1:
                    earlier.append(state.clone())
                if state.is_chance_node():
                    state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                else:
                    state.apply_action(player.choose(state))
    finally:
        trace_sets._touched = real_touched
    return checked, touched_counts[0]


def test_a_kept_trace_asked_again_where_facts_changed_is_exact_over_random_games_of_the_marne():
    game = load_game("the_marne")
    assert game.traces["supply"].sets is not None  # (searched as sets: trace_sets.py)
    checked, touched = play_and_compare(game, range(2), 300)
    assert checked == 300
    assert touched > 50  # the searches asked the conditions again at the hexes touched, and were exact


def test_a_kept_trace_asked_again_where_facts_changed_is_exact_over_random_games_of_drive_on_metz(tmp_path):
    game = metz_with_supply(tmp_path)
    assert game.traces["supply"].sets is not None
    checked, touched = play_and_compare(game, range(3), 300)
    assert checked == 300
    assert touched > 50


def test_a_plan_reads_only_the_facts_its_conditions_can_use():
    """An `and` with a part on the map alone that holds nowhere is dropped with the facts only it read: The Marne's
    German supply reads no holder (its `lost_when` asks `controls(germany, hex)` of the Allies' only)."""
    game = load_game("the_marne")
    state = new_game(game, seed=1)
    for side in game.sides:
        traced_bits(state, "supply", side, EngineContext)
    plans = {side: state.tables.trace_folds[(trace_sets._OF_THE_MAP, "supply", side)] for side in game.sides}
    assert plans["germany"].sides == ("germany",) and plans["germany"].held == ()
    assert plans["allies"].sides == ("allies",) and plans["allies"].held == ("germany",)


@pytest.mark.parametrize("side", ["germany", "allies"])
def test_a_plan_holds_where_the_conditions_hold_hex_by_hex(side):
    """The plan's set algebra over the whole map gives the hexes the trace's conditions hold for, asked hex by hex."""
    game = load_game("the_marne")
    state = new_game(game, seed=2)
    trace = game.traces["supply"]
    traced_bits(state, "supply", side, EngineContext)
    plan = state.tables.trace_folds[(trace_sets._OF_THE_MAP, "supply", side)]
    facts = plan.facts(state)
    context = EngineContext(state)
    context.friendly = side
    index = state.tables.index
    for condition, part in ((trace.through, plan.through), (trace.lost_when, plan.lost)):
        expected = 0
        for h in state.tables.hexes:
            context.hex = h
            if condition(context):
                expected |= 1 << index[h]
        assert part.within(facts, plan.everything) == expected


def test_a_source_lost_where_nothing_else_changed_stops_the_kept_trace(tmp_path):
    """tests/games/cut_off with a `through` on the map alone and Red's depot (its one source) lost in a Blue zone of
    control: a Blue unit stepping next to the depot changes where the trace passes nowhere, and still no hex is
    supplied. The kept search must not answer as it did, as it may where the facts changed leave `through` as it was."""
    text = (ROOT / "tests" / "games" / "cut_off.rulec").read_text()
    through = ("through = not has_terrain(hex, marsh) and not enemy_occupied(hex) and (not enemy_zoc(hex) or "
               "friendly_occupied(hex))")
    assert text.count(through) == 1 and text.count("lost_when = enemy_occupied(hex)") == 1
    path = tmp_path / "cut_off_lost_in_a_zone.rulec"
    path.write_text(text.replace(through, "through = not has_terrain(hex, marsh)")
                    .replace("lost_when = enemy_occupied(hex)", "lost_when = enemy_zoc(hex)"))
    game = load_game(str(path))
    trace = game.traces["supply"]
    assert trace.sets is not None
    start = new_game(game)
    away = {"r3": "0603", "r1": "0302", "b2": "0101", "b3": "0102"}
    supplied = start.arrange({**away, "b1": "0503"}, phase="red_move")
    found = traced_bits(supplied, "supply", "red", EngineContext)
    assert found and found == afresh(supplied, trace, "red")
    cut = start.arrange({**away, "b1": "0902"}, phase="red_move")  # next to the depot (1002)
    assert "1002" in cut.enemy_zoc("red")
    assert traced_bits(cut, "supply", "red", EngineContext) == afresh(cut, trace, "red") == 0
    back = start.arrange({**away, "b1": "0503"}, phase="red_move")  # the depot supplies again
    assert traced_bits(back, "supply", "red", EngineContext) == found
