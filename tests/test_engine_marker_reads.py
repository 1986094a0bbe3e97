"""Answers that read nothing of the position but its markers (model.Expr.reads_only_markers) are kept while the
markers in play are the same (MarkerTable.version): a unit's allowance through such modifiers is worked out once
per unit and set of markers, not once per position, and always equals the allowance worked out from scratch."""

from __future__ import annotations

import random

from big_games import STEPS_OF_A_BIG_GAME

from rulec.engine import modifiers, new_game
from rulec.engine.marker_table import MarkerTable
from rulec.language.parse import parse_text
from rulec.pipeline import GAMES_DIR, SUFFIX, check, load_game

MARNE = str(GAMES_DIR / f"the_marne{SUFFIX}")


def _from_scratch(state, uid: str) -> int:
    copy = state.clone()
    copy._cache, copy._for_the_game = {}, {}
    return modifiers.allowance(copy, uid)


def test_the_checker_tells_an_expression_that_reads_only_markers():
    game = load_game(MARNE)
    by_id = {m.id: m.when for m in game.modifiers}
    assert by_id["isolated_movement"].reads_only_markers and by_id["isolated_movement"].reads_position
    assert not by_id["out_of_supply"].reads_only_markers  # supplied(unit): where units stand
    assert not by_id["demoralized"].reads_only_markers  # turn
    text = open(MARNE, encoding="utf-8").read().replace("when = marked(unit, isolated)",
                                                        "when = marked(unit, isolated) and turn > 1")
    changed, diagnostics = check(parse_text(text, "marne_variant.rulec"))
    assert changed is not None, diagnostics
    assert not {m.id: m.when for m in changed.modifiers}["isolated_movement"].reads_only_markers


def test_a_marker_table_changes_version_with_its_markers_and_keeps_it_in_a_copy():
    game = load_game(MARNE)
    isolated = game.markers["isolated"]
    table = MarkerTable()
    first = table.version
    copy = table.copy()
    assert copy.version == first
    table.put(isolated, "g1", (1, 0))
    assert table.version != first and copy.version == first
    put = table.version
    table.take(isolated, "nobody")  # nothing to take: the same markers
    assert table.version == put
    table.take(isolated, "g1")
    assert table.version not in (first, put)


def test_an_allowance_kept_by_markers_follows_a_marker_put_on_and_taken_off():
    state = new_game(load_game(MARNE), seed=1)
    from rulec.engine import markers
    uid = next(u for u in state.positions if state.unit(u).move > 1)
    printed = modifiers.allowance(state, uid)
    markers.mark(state, uid, "isolated")
    assert modifiers.allowance(state, uid) == printed - 1 == _from_scratch(state, uid)
    markers.unmark(state, uid, "isolated")
    assert modifiers.allowance(state, uid) == printed == _from_scratch(state, uid)


def test_kept_allowances_equal_allowances_from_scratch_through_random_games():
    game = load_game(MARNE)
    state, rng, compared, reduced = new_game(game, seed=2), random.Random(2), 0, 0
    for step in range(20 * STEPS_OF_A_BIG_GAME):  # until units were isolated (and compared) or the game ends
        if state.is_terminal() or (reduced > 3 and compared > 100):
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        if state.phase.kind == "movement" and step % 5 == 0:
            for uid in list(state.positions)[::7]:
                kept = modifiers.allowance(state, uid)
                assert kept == _from_scratch(state, uid), (uid, state.history()[-3:])
                compared += 1
                reduced += kept < state.unit(uid).move
        state.apply_action(state.sample_legal_action(rng))
    assert compared > 100 and reduced > 0  # some units were isolated, with an MP less
