"""A marker put on or taken off by a hook or a result keeps what no marker changes (markers._forget_what_markers_decide):
the answers of a trace whose conditions read nothing of the position but the occupants, ZOCs and holders of hexes
(model.Trace.reads_at_hex), and the units on the map by filter (EngineContext.units). What is kept must be what a
position worked out from scratch gives; a trace that reads markers is searched again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulec.engine import markers, new_game, traces
from rulec.engine.context import EngineContext
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


def _assert_kept_answers_fresh(state) -> int:
    """Each trace answer and unit list in the position's cache is what a fresh copy of the position gives; how many
    were compared."""
    fresh = state.clone()
    fresh.forget()  # (its own empty cache: the position's is not touched)
    compared = 0
    for key, value in list(state._cache.items()):
        if key == "units":
            for filters, found in value.items():
                assert tuple(EngineContext(fresh).units(*filters)) == tuple(found), filters
                compared += 1
        elif type(key) is tuple and key[0] == "trace bits":
            assert value == traces.traced_bits(fresh, key[1], key[2], EngineContext), key
            compared += 1
        elif type(key) is tuple and key[0] == "trace flags":
            assert value == traces.traced_flags(fresh, key[1], key[2], EngineContext), key
            compared += 1
        elif type(key) is tuple and key[0] == "trace":
            assert value == traces.traced_hexes(fresh, key[1], key[2], EngineContext), key
            compared += 1
    return compared


def _ask_supply_and_units(state) -> None:
    """What a phase's `mark(select(u in units(side = S) where not supplied(u)), M)` asks, for every side."""
    context = EngineContext(state)
    for side in state.game.sides:
        for unit in context.units(side=side):
            context.traced("supply", unit)
        traces.traced_hexes(state, "supply", side, EngineContext)


def test_marking_keeps_the_supply_trace_and_units_and_they_stay_right():
    """Over positions of random Marne games: mark the units out of supply (as the game's phase-start hooks do), then
    take the marker off again; the supply traces and unit lists asked before are kept through both, and are what a
    fresh position gives; what the markers decide (who a marker forbids to attack) is worked out again."""
    game = load_game("the_marne")
    assert game.traces["supply"].reads_at_hex is not None  # (read only at hexes: kept)
    kept = compared = 0
    for seed in range(3):
        state, rng = new_game(game, seed=seed), random.Random(seed)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 7 == 3 and state.pos:
                _ask_supply_and_units(state)
                markers.forbidden(state, "attack")  # (the markers decide it: dropped)
                context = EngineContext(state)
                cut_off = [u.id for side in game.sides for u in context.units(side=side)
                           if not context.traced("supply", u)] or [next(iter(state.pos))]
                before = dict(state._cache)
                markers.mark_each(state, cut_off, "isolated")
                assert ("forbidden", "attack") not in state._cache
                for key in before:
                    if type(key) is tuple and key[0] in ("trace bits", "trace flags", "trace") or key == "units":
                        assert key in state._cache, key
                        kept += 1
                compared += _assert_kept_answers_fresh(state)
                markers.unmark_each(state, cut_off, "isolated")
                assert all(("trace bits", "supply", side) in state._cache for side in game.sides)
                compared += _assert_kept_answers_fresh(state)
            state.apply_action(state.sample_legal_action(rng))
    assert kept > 50 and compared > 100, (kept, compared)


@pytest.mark.parametrize("policy", ["actions", "orders"])
def test_what_the_cache_holds_after_each_action_is_what_a_fresh_position_gives(policy):
    """Random Marne games, whose phases mark the units out of supply as they begin and take the marker off as they
    end: after every action, the trace answers and unit lists the position holds are those of a fresh position."""
    game = load_game("the_marne")
    state, rng = new_game(game, seed=5), random.Random(5)
    compared = 0
    for _ in range(1200):
        if state.is_terminal():
            break
        compared += _assert_kept_answers_fresh(state)
        action = state.sample_legal_action(rng) if policy == "actions" else state.sample_legal_order(rng)
        state.apply_action(action)
    assert compared > 0


def test_a_trace_that_reads_markers_is_searched_again(tmp_path):
    """A trace whose `through` reads a hex marker (reads_at_hex None): marking hexes drops its answers, and the new
    answer is the fresh one (different: the marked hexes cut the path)."""
    text = (GAMES / "river_assault.rulec").read_text()
    old = "through = not has_terrain(hex, marsh) and not enemy_occupied(hex)"
    assert old in text
    path = tmp_path / "marked_supply.rulec"
    path.write_text(text.replace(old, old + " and not marked_hex(hex, shelled)"))
    game = load_game(str(path))
    assert game.traces["supply"].reads_at_hex is None
    state = new_game(game, seed=1)
    before = traces.traced_bits(state, "supply", "blue", EngineContext)
    column_3 = [h for h in state.tables.numbered if h.startswith("03")]
    markers.mark_each(state, column_3, "shelled")
    assert ("trace bits", "supply", "blue") not in state._cache
    after = traces.traced_bits(state, "supply", "blue", EngineContext)
    assert after != before
    assert _assert_kept_answers_fresh(state) >= 1
