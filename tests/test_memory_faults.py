"""What a move keeps of the position before it, each rule found by planting a fault in the engine's code that the
rest of the suite let through: answer_reads.py (what may_end_move's and entry_blocked's answers read, and whether a
move changed it), move_memory.py (each side's view of the enemy, kept for the mover's side and kept stale for the
others), and reach.py's keeping of a unit's moves for the phase (not for a side that is not moving). Each test plays the rule through the public API
(or the kept answers' own functions, as tests/test_engine_move_memory.py does) on a made-up game of tests/games/ or
a variant of one, and says what the answer is by the game's rules; a position worked out from scratch (`clone();
forget()`) agrees."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from game_variants import variant
from test_listing_faults import destinations, scratch

from rulec.engine import PENDING, Action, answer_reads, move_ends, move_memory, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"



def allowed(state, uid):
    """The hexes of supply_leash's map where GameState.may_end_move lets `uid` end a move, in order."""
    return [h for h in _columns(1, 9) if state.may_end_move(uid, h)]


def _columns(first: int, last: int) -> list[str]:
    """Every hex of supply_leash's three rows from column `first` to `last`, in order."""
    return [f"{c:02d}{r:02d}" for c in range(first, last + 1) for r in (1, 2, 3)]


def _hex_by_hex(game):
    """The game with may_end_move asked hex by hex, as the checker leaves a condition it cannot write as sets."""
    return replace(game, movement=replace(game.movement, may_end_sets=None))


# tests/games/supply_leash's may_end_move (no unit ends its move out of supply), and a supply trace no unit lets through
_LEASH_RULE = """  may_end_move = if(marked(unit, isolated), distance_to(west, hex) < distance_to(west, unit.hex),
                    traced_hex(supply, unit.side, hex))"""
_FRIENDS_BLOCK = ("through = not enemy_occupied(hex) and not enemy_zoc(hex)", "through = not occupied(hex)")


# ------------------------------------------------------------ may_end_move's answers kept over a move (answer_reads.py)
@pytest.mark.parametrize("scout, opened", [("0303", {"0403", "0503"}), ("0101", {"0101"})])
def test_answers_that_read_a_trace_where_a_move_opens_it_are_asked_again(tmp_path, scout, opened):
    """tests/games/supply_leash with a supply trace that no unit lets through (friends block it too) and units free
    to leave the map: no unit may end its move out of supply, 4 hexes from the west edge. b_scout in 0303 (with
    b_lost in 0402) stands in the trace's way to 0403 and 0503; in 0101, in its way to 0101 alone. Once b_scout
    leaves the map by the west edge, the trace reaches those hexes (and loses none), and b_lost may end its move
    there: its answers there, refused before, are asked again."""
    game = variant(tmp_path, "supply_leash", _FRIENDS_BLOCK, ("  zoc = none\n", "  zoc = none  exit_map = true\n"))
    state = new_game(game).arrange({"b_scout": scout, "b_lost": "0402", "r_guard": "0903"}, turn=1, phase="blue_move")
    assert not opened & set(destinations(state, "b_lost"))
    state.apply_action(Action.exit("b_scout", "west"))
    after = destinations(state, "b_lost")
    assert opened <= set(after) and after == destinations(scratch(state), "b_lost")


@pytest.mark.parametrize("as_sets", [True, False], ids=["as sets", "hex by hex"])
def test_a_condition_reading_both_sides_traces_reads_each_its_own(tmp_path, as_sets):
    """tests/games/supply_leash with may_end_move = in the side's own supply and out of Red's. Each trace runs 4
    hexes from its side's edge: Blue's reaches columns 1 to 5, Red's 5 to 9; b_scout (0302, 4 MP) may end its move
    in columns 1 to 4 alone, whether the condition is asked of all its destinations at once or hex by hex (the two
    traces, of the same name, read one after the other at each hex)."""
    game = variant(tmp_path, "supply_leash", (_LEASH_RULE, "  may_end_move = traced_hex(supply, unit.side, hex) "
                                                           "and not traced_hex(supply, red, hex)"))
    state = new_game(game if as_sets else _hex_by_hex(game)).arrange(
        {"b_scout": "0302", "b_lost": "0103", "r_guard": "0903"}, turn=1, phase="blue_move")
    assert destinations(state, "b_scout") == [h for h in _columns(1, 4) if h != "0302"]


def test_each_sides_answers_are_asked_again_where_its_own_trace_changed(tmp_path):
    """tests/games/supply_leash with supply traces that every unit stands in the way of, and r_guard with 6 MP:
    may_end_move asked hex by hex of b_lost (Blue), then of r_guard (Red), in Blue's movement phase. b_scout (0601)
    and b_lost (0602) keep Red's trace (4 hexes from the east edge) out of 0502, which r_guard reaches round them.
    b_lost's move to 0202 changes Blue's trace there alone, and opens Red's to 0602 and 0502: r_guard may now end a
    move in 0502, where Blue's trace did not change."""
    game = variant(tmp_path, "supply_leash", _FRIENDS_BLOCK, ("move = 4  setup = 0903", "move = 6  setup = 0903"))
    state = new_game(game).arrange({"b_scout": "0601", "b_lost": "0602", "r_guard": "0903"}, turn=1, phase="blue_move")
    allowed(state, "b_lost")
    assert "0502" not in allowed(state, "r_guard")
    state.apply_action(Action.move("b_lost", "0202"))
    assert "0502" in allowed(state, "r_guard")
    assert allowed(state, "r_guard") == allowed(scratch(state), "r_guard")


@pytest.mark.parametrize("as_sets", [True, False], ids=["as sets", "hex by hex"])
def test_answers_that_read_who_holds_a_hex_are_asked_again_when_a_move_takes_it(tmp_path, as_sets):
    """tests/games/supply_leash where Red first holds 0401 (movement { control_of }), the last side to end a move
    in it takes it, and no unit may end its move next to a hex Red holds. b_lost (0702) may not end its move next
    to 0401 until b_scout takes it: then it may (in 0402, 0501 ...), whether the condition is asked of all its
    destinations at once or hex by hex."""
    game = variant(tmp_path, "supply_leash",
                   (_LEASH_RULE, "  may_end_move = not any(n in neighbours(hex) where controls(red, n))"),
                   ("  zoc = none\n", "  zoc = none  control = end_move  control_of = [0401]  first_holder = red\n"))
    state = new_game(game if as_sets else _hex_by_hex(game))  # (b_scout in 0302, b_lost in 0702, r_guard in 0903)
    assert state.phase.id == "blue_move" and state.holders == {"0401": "red"}
    around = set(state.tables.neighbours["0401"])
    assert not around & set(destinations(state, "b_lost"))
    state.apply_action(Action.move("b_scout", "0401"))
    assert state.holders["0401"] == "blue"
    after = destinations(state, "b_lost")
    assert {"0402", "0501"} <= around & set(after) and after == destinations(scratch(state), "b_lost")


def test_answers_that_read_who_stands_where_are_not_kept_over_a_move(tmp_path):
    """tests/games/supply_leash where no unit may end its move next to an occupied hex (but the one it leaves): a
    condition that reads who stands in a hex (occupied), which any move changes. Once b_scout has moved to 0501,
    b_lost (0702) may no longer end its move next to it."""
    game = variant(tmp_path, "supply_leash",
                   (_LEASH_RULE, "  may_end_move = not any(n in neighbours(hex) where n != unit.hex and occupied(n))"))
    state = new_game(game).arrange({"b_scout": "0302", "b_lost": "0702", "r_guard": "0903"}, turn=1, phase="blue_move")
    around = set(state.tables.neighbours["0501"])
    assert around & set(destinations(state, "b_lost"))
    state.apply_action(Action.move("b_scout", "0501"))
    after = destinations(state, "b_lost")
    assert not around & set(after) and after == destinations(scratch(state), "b_lost")


def test_answers_that_read_the_markers_hold_only_while_the_markers_are_the_same():
    """answer_reads.changes: a reading of the markers (may_end_move's `marked(unit, isolated)` in
    tests/games/supply_leash) holds while the markers in play are those of the position the answers were made in,
    and not once a unit is marked (as a hook or a result may mark one): the answers are worked out again."""
    state = new_game(load_game(str(GAMES / "supply_leash.rulec")))
    state.legal_orders()
    assert ("markers",) in state._for_the_game[move_ends.READINGS]["blue"]
    snapshot = answer_reads.snapshot(state)
    same, marked = state.clone(), state.clone()
    marked.mark("b_lost", "isolated")
    assert answer_reads.changes(same, state._cache, state._standing, snapshot, {("markers",)}) == {}
    assert answer_reads.changes(marked, state._cache, state._standing, snapshot, {("markers",)}) is None


# ------------------------------------------------------------ may_end_move asked of a unit of the side not moving
def test_an_enemy_units_answers_that_read_the_zones_of_control_follow_the_moves_of_the_side_moving(tmp_path):
    """tests/games/supply_leash where no unit may end its move in an enemy zone of control (the hexes next to an
    enemy unit), asked in Blue's movement phase of Red's r_guard (0802). Once b_lost moves from 0502 to 0602,
    r_guard may no longer end a move next to it (0603, 0702, 0703), and may in 0501, next to no Blue unit now: its
    answers, made before the move, read Blue's zones of control, which the move changed."""
    game = variant(tmp_path, "supply_leash", (_LEASH_RULE, "  may_end_move = not enemy_zoc(unit.side, hex)"))
    state = new_game(game).arrange({"b_scout": "0302", "b_lost": "0502", "r_guard": "0802"}, turn=1, phase="blue_move")
    before = set(allowed(state, "r_guard"))
    assert {"0603", "0702", "0703"} <= before and "0501" not in before
    state.apply_action(Action.move("b_lost", "0602"))
    after = set(allowed(state, "r_guard"))
    assert not {"0603", "0702", "0703"} & after and "0501" in after


def test_the_hexes_a_unit_of_the_side_not_moving_reaches_follow_the_moves_of_its_enemies(tmp_path):
    """GameState.may_end_move is false for a hex the unit does not reach. tests/games/supply_leash where a unit may
    end its move anywhere but 0101, asked in Blue's movement phase of Red's r_guard (0802, 4 MP): it reaches 0602
    until b_lost moves into it (a hex holding an enemy unit is no unit's destination), though r_guard has not moved;
    and 0502 once b_lost has left it. (The moves of a unit of the side not moving were kept for the phase, as a
    moving side's are: its enemies, the units that move, stood where they stood.)"""
    game = variant(tmp_path, "supply_leash", (_LEASH_RULE, "  may_end_move = hex != 0101"))
    state = new_game(game).arrange({"b_scout": "0302", "b_lost": "0502", "r_guard": "0802"}, turn=1, phase="blue_move")
    before = allowed(state, "r_guard")
    assert "0602" in before and "0502" not in before
    state.apply_action(Action.move("b_lost", "0602"))
    assert not state.may_end_move("r_guard", "0602") and state.may_end_move("r_guard", "0502")
    assert allowed(state, "r_guard") == allowed(scratch(state), "r_guard")


# ------------------------------------------------------------ entry_blocked's answers kept for the phase (NotingContext)
def test_entry_answers_that_read_who_stands_next_to_an_entry_hex_are_asked_again_when_a_friend_moves(tmp_path):
    """tests/games/far_watch with entry_blocked reading the sides in a hex (occupied_by) and a may_end_move that
    reads nothing a move changes: Blue's relief enters by the east edge (0601 to 0605), not north of Red's
    northernmost unit (0601) nor next to a Blue unit. With b_guard in 0503 it enters at 0604 or 0605, and its 3 MP
    do not take it to 0402; once b_guard has moved to 0501, it may enter at 0602 (next to no Blue unit now), and
    reaches 0402."""
    game = variant(tmp_path, "far_watch",
                   ("or any(n in neighbours(hex) where any(units(side = unit.side, hex = n)))",
                    "or any(n in neighbours(hex) where occupied_by(unit.side, n))"),
                   ("""  may_end_move = unit.side == red
                 or not any(n in neighbours(hex) where any(units(side = red, hex = n)))
                 or count(units(side = red, zone = western)) <= 1""", "  may_end_move = unit.side == red or hex != 0404"))
    state = new_game(game).arrange({"r_north": "0202", "r_south": "0204", "b_guard": "0503", "b_relief": PENDING},
                                   phase="blue_move", turn=2)
    assert "0402" not in destinations(state, "b_relief")
    state.apply_action(Action.move("b_guard", "0501"))
    after = destinations(state, "b_relief")
    assert "0402" in after and after == destinations(scratch(state), "b_relief")


# ------------------------------------------------------------ each side's view of the enemy (move_memory.py)
def test_a_zone_of_control_reaching_across_a_stream_leaves_with_the_unit(tmp_path):
    """tests/games/river_screen with a fort that moves: a stream between columns 3 and 4 blocks every zone of
    control but a fort's (unit_type fort { zoc_across = [stream] }). b_fort in 0402 controls 0302 and 0303, across
    the stream; once it has moved to 0502, Red's view of the enemy zones (kept over Blue's move, stale at the hexes
    the move may have changed) no longer holds them."""
    game = variant(tmp_path, "river_screen",
                   ("type = fort      strength = 2  move = 0", "type = fort      strength = 2  move = 2"))
    state = new_game(game).arrange({"r_line": "0101", "b_fort": "0402", "b_guard": "0604", "b_picket": "0601"},
                                   turn=1, phase="blue_move")
    assert {"0302", "0303"} <= state.enemy_zoc("red")
    state.apply_action(Action.move("b_fort", "0502"))
    assert not {"0302", "0303"} & state.enemy_zoc("red")
    assert state.enemy_zoc("red") == scratch(state).enemy_zoc("red")


def test_a_side_whose_view_went_stale_sees_its_own_unit_leave(tmp_path):
    """tests/games/ranged_duties where every battle eliminates both sides' units, the attacker's first: the gun
    (0403) bombards r2, two hexes off (0603). The gun's elimination leaves Red's view of where units stand stale
    about the hexes around the gun; r2's then changes Red's own hexes: Red's obstacles (its enemies, their zones,
    its own units) hold no unit in 0603, nor in 0403."""
    game = variant(tmp_path, "ranged_duties", (
        'result NE { name = "No Effect" }',
        'result NE { name = "Both Lost"  effects = [eliminate(attacker), eliminate(defender)] }'))
    state = new_game(game).arrange({"gun": "0403", "i1": "0101", "i2": "0107", "r1": "0707", "r2": "0603",
                                    "r3": "0701"}, phase="blue_fight")
    for side in ("red", "blue"):  # known as the battle begins: kept, stale or patched through its losses
        move_memory.obstacles(state, side)
    for action in (Action.attack("0603"), Action.with_unit("gun"), Action.resolve(), Action.roll(1)):
        state.apply_action(action)
    assert state.status("gun") == state.status("r2") == "eliminated" and state.phase.id == "blue_fight"
    bit = state.tables.hex_bit
    for side in ("red", "blue"):
        enemy, zoc, friends = move_memory.obstacles(state, side)
        assert not (enemy | friends) & (bit["0403"] | bit["0603"]), side
        assert (enemy, zoc, friends) == move_memory.obstacles(scratch(state), side)

