"""movement { may_end_move } asked of a unit's destinations at once, as the set algebra the checker writes it as
(rulec/check/end_sets.py, rulec/engine/end_sets.py), answers as the condition does hex by hex: at every position of
random games, for every unit that may move and every hex it reaches, and it notes at least what asking hex by hex
reads (so that a move keeps no answer it changed)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import end_sets, legal_moves, new_game
from rulec.engine.answer_reads import ReadingContext
from rulec.engine.context import EngineContext
from rulec.engine.hex_bits import bits_of
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"

# A made-up game's may_end_move with every form the sets are written in: a scalar and an if on it, a hex fact of a
# side given by an expression, a hex equal to the unit's, the neighbours of the hex, a condition on the map alone
# and one asked hex by hex; set in supply_leash (a unit-side supply trace, a marker).
EVERY_FORM = ("may_end_move = if(marked(unit, isolated), distance_to(west, hex) < distance_to(west, unit.hex), "
              "(traced_hex(supply, unit.side, hex) and not enemy_zoc(unit.side, unit.hex)) "
              "or any(n in neighbours(hex) where traced_hex(supply, unit.side, n) and (n != unit.hex or not enemy_zoc(unit.side, n))) "
              "or (hex == unit.hex and not enemy_occupied(unit.side, hex)) "
              "or (unit.side == blue and distance(hex, unit.hex) == 1 and not controls(red, hex)))")


def _every_form(tmp_path) -> object:
    text = (GAMES / "supply_leash.rulec").read_text(encoding="utf-8")
    start = text.index("  may_end_move = ") + 2
    end = text.index("traced_hex(supply, unit.side, hex))", start) + len("traced_hex(supply, unit.side, hex))")
    path = tmp_path / "every_form.rulec"
    path.write_text(text[:start] + EVERY_FORM + text[end:], encoding="utf-8")
    return load_game(str(path))


def _forms(formula) -> set[str]:
    kind = formula[0]
    inner = formula[1] if kind in ("and", "or") else formula[1:] if kind in ("not", "if", "next to") else ()
    return {kind}.union(*(_forms(part) for part in inner if isinstance(part, tuple)))


def test_the_checker_writes_each_form_and_leaves_what_gains_nothing(tmp_path):
    game = _every_form(tmp_path)
    assert _forms(game.movement.may_end_sets) >= {"if", "scalar", "per hex", "or", "and", "traced", "not", "next to",
                                                  "fact", "at"}
    marne = load_game("the_marne").movement.may_end_sets
    assert "hexes" in _forms(marne) and "next to" in _forms(marne)
    metz = load_game("drive_on_metz")
    assert metz.movement.may_end_move is None and metz.movement.may_end_sets is None


def _compare_everywhere(game, seeds: range, positions: int) -> int:
    """At positions of random games, each movable unit's destinations answered as sets and hex by hex, and what
    each notes as read. Returns the units compared."""
    compared = 0
    for seed in seeds:
        state, rng = new_game(game, seed=seed), random.Random(seed)
        for _ in range(positions):
            if state.is_terminal():
                break
            if state.phase.kind == "movement" and state.pending is None:
                for uid in [u for u in state.pos if legal_moves.may_move_now(state, u)]:
                    compared += _compare_unit(state, uid)
            state.apply_action(state.sample_legal_action(rng))
    return compared


def _compare_unit(state, uid: str) -> int:
    to = legal_moves.unit_moves(state, uid).to
    if not to:
        return 0
    unit = state.unit(uid)
    read_sets: set = set()
    at_sets: dict = {}
    sets = ReadingContext(state, unit, read_sets, at_sets)
    found = end_sets.allowed(state, state.game.movement.may_end_sets, sets, bits_of(to, state.tables.index))
    read_hexes: set = set()
    at_hexes: dict = {}
    one_by_one = ReadingContext(state, unit, read_hexes, at_hexes)
    for h in to:
        one_by_one.hex = h
        assert bool(found & state.tables.hex_bit[h]) == bool(state.game.movement.may_end_move(one_by_one)), (uid, h)
    assert read_sets >= read_hexes  # what was read: traces, zones of control, holders, markers
    for key, hexes in at_hexes.items():  # and the traces at least where hex by hex read them
        noted = at_sets.get(key + ("bits",), 0)
        assert all(noted & state.tables.hex_bit[h] for h in hexes), (uid, key)
    plain = EngineContext(state, unit)  # (asked with a context that notes nothing, the same answers)
    assert end_sets.allowed(state, state.game.movement.may_end_sets, plain, bits_of(to, state.tables.index)) == found
    return 1


def test_the_marne_answers_as_sets_as_hex_by_hex():
    assert _compare_everywhere(load_game("the_marne"), range(2), 500) > 300


def test_every_form_answers_as_sets_as_hex_by_hex(tmp_path):
    assert _compare_everywhere(_every_form(tmp_path), range(20), 200) > 200


@pytest.mark.parametrize("name", ["the_marne", "every form"])
def test_games_played_with_the_sets_are_the_games_played_hex_by_hex(name, tmp_path):
    game = load_game(name) if name != "every form" else _every_form(tmp_path)
    by_hex = replace(game, movement=replace(game.movement, may_end_sets=None))
    for seed in range(2):
        one, other = new_game(game, seed=seed), new_game(by_hex, seed=seed)
        rng_one, rng_other = random.Random(seed), random.Random(seed)
        for _ in range(600):
            if one.is_terminal():
                break
            action = rng_one.choice(one.legal_orders()) if one.current_player() >= 0 else \
                one.sample_legal_action(rng_one)
            assert action == (rng_other.choice(other.legal_orders()) if other.current_player() >= 0 else
                              other.sample_legal_action(rng_other))
            one.apply_action(action)
            other.apply_action(action)
        assert one.history() == other.history()
