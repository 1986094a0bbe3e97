"""A marker put on or taken off by a hook or a result keeps what no marker changes (markers._forget_what_markers_decide):
the answers of a trace whose conditions read nothing of the position but the occupants, ZOCs and holders of hexes
(model.Trace.reads_at_hex), and the units on the map by filter (EngineContext.units). What is kept must be what a
position worked out from scratch gives; a trace that reads markers is searched again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulec.engine import markers, modifiers, new_game, traces
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


# ------------------------------------------------------------ allowances kept by the unit's own markers
def _allowance_from_scratch(state, uid: str) -> int:
    return modifiers._allowance(state, state._units[uid], state._modifiers[1])


def test_an_allowance_kept_by_the_units_own_markers_is_what_a_fresh_one_gives():
    """The Marne's isolated_movement (when = marked(unit, isolated)) reads only the unit's own markers: a unit's
    allowance is kept while it carries the same markers, through the markers' version changing as each movement
    phase marks the units out of supply and takes the marker off again. Over random games, every unit's allowance is
    the one worked out afresh, and kept answers were handed on through such changes."""
    game = load_game("the_marne")
    handed_on = compared = 0
    for seed in range(2):
        state, rng = new_game(game, seed=seed), random.Random(seed)
        for _ in range(1500):
            if state.is_terminal():
                break
            if state.phase.kind == "movement":
                kept = state._for_the_game.get(modifiers._ALLOWANCES, (True, {}))[1]
                for uid in state.units(side=state.phase.side):
                    known = kept.get(uid)
                    if known is not None and known[1] != state.markers.version and known[2] is not None \
                            and known[0] is state._units[uid]:
                        handed_on += known[2] == modifiers._marker_ids(state, uid)
                    assert modifiers.allowance(state, uid) == _allowance_from_scratch(state, uid), uid
                    compared += 1
            state.apply_action(state.sample_legal_action(rng))
    assert handed_on > 20 and compared > 1000, (handed_on, compared)


@pytest.mark.parametrize("condition", ["marked(r1, isolated)", "marked_hex(0303, shelled)"])
def test_an_allowance_that_reads_other_markers_is_worked_out_again_when_they_change(tmp_path, condition):
    """A move modifier reading another unit's marker or a hex's (read_only_markers, but not the unit's own): marking
    them changes every unit's allowance, which is worked out again by the markers' version."""
    text = (GAMES / "river_assault.rulec").read_text()
    path = tmp_path / "slowed.rulec"
    path.write_text(text + f"\nmodifier slowed {{ applies = unit  when = {condition}  move_plus = -1 }}\n")
    game = load_game(str(path))
    state = new_game(game, seed=1)
    assert modifiers.read_only_markers(state, state._modifiers[1], "move")
    before = modifiers.allowance(state, "b1")
    assert modifiers.allowance(state, "b1") == before  # (kept)
    marker, target = ("isolated", "r1") if condition.startswith("marked(") else ("shelled", "0303")
    markers.mark_each(state, [target], marker)
    assert modifiers.allowance(state, "b1") == before - 1 == _allowance_from_scratch(state, "b1")
    markers.unmark_each(state, [target], marker)
    assert modifiers.allowance(state, "b1") == before == _allowance_from_scratch(state, "b1")
