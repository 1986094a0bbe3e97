"""What may_end_move's answers read, and when a move keeps them (rulec/engine/answer_reads.py).

Played on the made-up game tests/games/supply_leash.rulec (no unit ends its move out of supply) and variants of
its may_end_move: answers are kept over a friend's move when nothing they read changed (the trace, the holders, the
markers, the side's view of the enemy zones), worked out again when something did, and never kept for a condition
that reads the position otherwise (units_at). Every kept answer equals one worked out from scratch.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, answer_reads, move_ends, new_game, reach
from rulec.engine.hex_bits import hexes
from rulec.engine.position import holders_changed
from rulec.pipeline import load_game

GAME = Path(__file__).resolve().parent / "games" / "supply_leash.rulec"
RULE = "traced_hex(supply, unit.side, hex))"


def variant(tmp_path: Path, rule: str | None = None, through: str | None = None):
    text = GAME.read_text()
    if rule is not None:
        text = text.replace(RULE, rule + ")")
    if through is not None:
        text = text.replace("through = not enemy_occupied(hex) and not enemy_zoc(hex)", f"through = {through}")
    path = tmp_path / "supply_leash.rulec"
    path.write_text(text)
    return load_game(str(path))


def kept_after_a_move(game) -> tuple[int, object]:
    """List Blue's moves, move b_scout one hex west, and compare every may_end_move answer the new position kept
    with one worked out from scratch: how many were kept, and the new position."""
    state = new_game(game)
    state.legal_orders()  # every Blue unit's moves, and may_end_move's answers for each destination
    state.apply_action(Action.move("b_scout", "0301"))
    scratch = state.clone()
    scratch.forget()
    kept = 0
    for uid, answers in state._cache.get(move_ends.END_ALLOWED, {}).items():
        for h, ok in answers.items():
            assert ok == move_ends.end_allowed(scratch, uid, h), (uid, h)
            kept += 1
    assert state.legal_orders() == scratch.legal_orders()
    return kept, state


def test_a_condition_reading_only_noted_things_is_readable(tmp_path):
    assert answer_reads.readable(load_game(str(GAME)).movement.may_end_move.function)
    assert answer_reads.readable(variant(tmp_path, RULE.removesuffix(")") + " and not controls(red, hex)")
                                 .movement.may_end_move.function)
    # units_at reads who stands in a hex, which a friend's move changes: not readable, nothing is kept
    crowded = variant(tmp_path, "traced_hex(supply, unit.side, hex) and count(units_at(hex)) == 0")
    assert not answer_reads.readable(crowded.movement.may_end_move.function)
    assert not reach.moves_carry_over(new_game(crowded))


def test_a_move_that_changes_nothing_read_keeps_the_answers(tmp_path):
    kept, state = kept_after_a_move(load_game(str(GAME)))
    assert kept > 0  # b_lost's answers: Blue's trace is the same after Blue's own move
    readings = state._for_the_game[move_ends.READINGS]["blue"]
    assert ("trace", "supply", "blue") in readings and ("markers",) in readings


def test_a_move_that_changes_the_trace_read_drops_the_answers(tmp_path):
    # A trace that friends block: b_scout's move changes Blue's trace, so no answer is kept
    kept, _ = kept_after_a_move(variant(tmp_path, through="not occupied(hex)"))
    assert kept == 0


def test_a_trace_changed_only_where_a_units_answers_never_read_it_keeps_them(tmp_path):
    # A wider map: b_lost stands far east, its answers read the trace only around columns 8 to 15; b_near stands
    # next to b_scout, whose move changes Blue's trace (friends block it) at 0302 and 0301
    text = GAME.read_text().replace("columns = 1..9", "columns = 1..15").replace("0901..0903", "1501..1503")
    text = text.replace("setup = 0702", "setup = 1202").replace("setup = 0903", "setup = 1503")
    text = text.replace("through = not enemy_occupied(hex) and not enemy_zoc(hex)", "through = not occupied(hex)")
    text = text.replace("unit r_guard", "unit b_near { side = blue  type = infantry  strength = 2  move = 4  "
                                        "setup = 0202 }\nunit r_guard")
    path = tmp_path / "supply_leash.rulec"
    path.write_text(text)
    state = new_game(load_game(str(path)))
    state.legal_orders()
    reads = state._cache[move_ends.END_READS]
    supply = ("trace", "supply", "blue")
    assert not _read_at(state, reads["b_lost"], supply) & {"0301", "0302"}
    assert _read_at(state, reads["b_near"], supply) >= {"0301", "0302"}
    before = state._cache[("trace bits", "supply", "blue")]  # (the hexes reached, as bits of hex numbers)
    state.apply_action(Action.move("b_scout", "0301"))
    assert state._cache[("trace bits", "supply", "blue")] != before  # the move changed the trace
    answers = state._cache.get(move_ends.END_ALLOWED, {})
    assert set(answers) == {"b_lost"} and answers["b_lost"]  # b_near's are asked again, b_scout's as it moved
    kept, _ = kept_after_a_move(load_game(str(path)))  # and those kept are right
    assert kept == len(answers["b_lost"])


def _read_at(state, reads: dict, key: tuple) -> set[str]:
    """The hexes a unit's answers read the trace at: noted one by one, or as bits (asked at once: end_sets.py)."""
    return set(reads.get(key, ())) | hexes(reads.get(key + ("bits",), 0), state.tables.numbered)


def test_holders_are_read_and_compared(tmp_path):
    game = variant(tmp_path, RULE.removesuffix(")") + " and not controls(red, hex)")
    kept, state = kept_after_a_move(game)
    assert kept > 0 and ("holders",) in state._for_the_game[move_ends.READINGS]["blue"]
    # the holders changing drop them: an answer that read who holds a hex is not kept past a change of hands
    before = new_game(game)
    before.legal_orders()
    snapshot = answer_reads.snapshot(before)
    after = before.clone()
    after.holders["0501"] = "red"
    holders_changed(after)  # (as changes.enter does)
    assert answer_reads.changes(after, before._cache, before._standing, snapshot, {("holders",)}) is None
    assert answer_reads.changes(before, before._cache, before._standing, snapshot, {("holders",)}) == {}


def test_a_condition_that_is_not_readable_keeps_nothing_and_plays_alike(tmp_path):
    crowded = variant(tmp_path, "traced_hex(supply, unit.side, hex) and count(units_at(hex)) == 0")
    kept, _ = kept_after_a_move(crowded)
    assert kept == 0


@pytest.mark.parametrize("seed", range(3))
def test_random_games_keep_only_answers_that_hold(tmp_path, seed):
    import random

    for game in (load_game(str(GAME)), variant(tmp_path, through="not occupied(hex)")):
        state, rng = new_game(game, seed=seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            scratch = state.clone()
            scratch.forget()
            for uid, answers in state._cache.get(move_ends.END_ALLOWED, {}).items():
                for h, ok in answers.items():
                    assert ok == move_ends.end_allowed(scratch, uid, h)
            assert state.legal_actions() == scratch.legal_actions()


def test_answers_handed_on_by_a_move_are_shared_until_either_position_adds_one():
    """carry_moves hands b_lost's answers to the position after b_scout's move without copying them; an answer
    either position asks afterwards is its own: the other never sees it (it might not hold there)."""
    state = new_game(load_game(str(GAME)))
    move_ends.end_allowed(state, "b_lost", "0702")  # one answer about b_lost, made by the position before
    after = state.clone()
    after.apply_action(Action.move("b_scout", "0301"))
    before_answers = state._cache[move_ends.END_ALLOWED]["b_lost"]
    assert after._cache[move_ends.END_ALLOWED]["b_lost"] is before_answers  # handed on, not copied
    move_ends.end_allowed(state, "b_lost", "0803")  # asked again before the move: the position before's alone
    move_ends.end_allowed(after, "b_lost", "0601")  # asked after it: the position after's alone
    move_ends.end_allowed(state, "b_lost", "0802")
    mine, theirs = after._cache[move_ends.END_ALLOWED]["b_lost"], state._cache[move_ends.END_ALLOWED]["b_lost"]
    assert set(mine) == {"0702", "0601"} and set(theirs) == {"0702", "0803", "0802"}


def test_the_hex_that_said_a_unit_has_a_move_is_asked_again_once_a_friend_moves_next_to_it(tmp_path):
    """has_move asks first the hex that answered last time in the phase (a hint the phase keeps, shared by its
    positions): once a friend's move makes may_end_move refuse it there, another hex must answer, one the unit may
    really end its move in. Here no unit may end its move next to another unit (other than the hex it leaves)."""
    from rulec.engine import legal_moves

    game = variant(tmp_path, "not any(n in neighbours(hex) where n != unit.hex and count(units_at(n)) > 0)")
    state = new_game(game)
    assert legal_moves.has_move(state, "b_lost", searched=True)  # the whole search: its first end is the hint
    witness = state._cache[legal_moves.HAS_MOVE]["b_lost"]
    assert witness in {a.hex for a in state.moves_of("b_lost")}
    neighbours = state.tables.neighbours
    tried = 0
    for move in state.moves_of("b_scout"):
        if move.hex not in neighbours[witness]:
            continue
        after = state.clone()
        after.apply_action(move)  # b_scout next to the hex that answered: b_lost may no longer end its move there
        assert witness not in {a.hex for a in after.moves_of("b_lost")}
        after.forget()  # what the position knows dropped, the phase's hint kept
        assert legal_moves.has_move(after, "b_lost")
        found = after._cache[legal_moves.HAS_MOVE]["b_lost"]
        assert found != witness and found in {a.hex for a in after.moves_of("b_lost")}
        tried += 1
    assert tried >= 2
