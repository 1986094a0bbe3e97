"""Retreats toward an edge counted across the hex rows (direction = toward_edge_rows): the straight
hex and both diagonals toward the edge on every column, played on tests/games/retreat_rows.rulec."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import ELIMINATED, Action, new_game
from rulec.pipeline import load_game
from rulec.runtime.hexes import rows_to_edge
from rulec.runtime.model import HexGrid

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def rows():
    return load_game(str(GAMES / "retreat_rows.rulec"))


def by_hex_distance(game):
    """The same game with the older measure: each hex one hex nearer the edge across the grid."""
    return replace(game, combat=replace(game.combat, retreat=replace(game.combat.retreat, direction="toward_edge")))


def beaten(game, units, defender_hex, attacker, phase):
    state = new_game(game).arrange(units, phase=phase)
    for step in [Action.attack(defender_hex), Action.with_unit(attacker), Action.resolve(), Action.roll(1)]:
        state.apply_action(step)
    assert state.last_battle.result == "D1"
    return state


def blue_retreats_from(game, hex, below, **more):
    """Blue b1 in `hex` beaten by red r1 from the hex below it: the ways north offered to red."""
    state = beaten(game, {"b1": hex, "r1": below, **more}, hex, "r1", "red_fight")
    return state, {a.path[-1] for a in state.legal_actions()} if state.retreats else set()


@pytest.mark.parametrize("hex, below, ways", [
    ("0404", "0405", {"0403", "0304", "0504"}),  # an even column (pushed down): diagonals on the same row
    ("0504", "0505", {"0503", "0403", "0603"}),  # an odd column: diagonals one row up
])
def test_the_straight_hex_and_both_diagonals_toward_the_edge_on_every_column(rows, hex, below, ways):
    state, offered = blue_retreats_from(rows, hex, below)
    assert offered == ways
    assert state.current_player() == state.players.index("red")  # the victor picks among them


def test_counted_in_hexes_an_even_column_gets_only_the_straight_hex(rows):
    # The grid distance to the north edge: from 0404 both diagonals are as far as 0404 itself.
    state, offered = blue_retreats_from(by_hex_distance(rows), "0404", "0405")
    assert not state.retreats and state.positions["b1"] == "0403"
    state, offered = blue_retreats_from(by_hex_distance(rows), "0504", "0505")
    assert offered == {"0503", "0403", "0603"}


def test_a_blocked_straight_hex_leaves_the_diagonals_on_every_column(rows):
    # b2 stands straight north of b1; may_not_enter = [occupied] closes that hex.
    state, offered = blue_retreats_from(rows, "0404", "0405", b2="0403")
    assert offered == {"0304", "0504"}
    state, offered = blue_retreats_from(rows, "0504", "0505", b2="0503")
    assert offered == {"0403", "0603"}
    # Counted in hexes, the even column's unit has nowhere to go and is eliminated.
    state, _ = blue_retreats_from(by_hex_distance(rows), "0404", "0405", b2="0403")
    assert state.status("b1") == ELIMINATED


def test_south_toward_the_other_edge_alike(rows):
    # Red r1 beaten by blue from straight north retreats south: straight and both diagonals, both parities.
    for hex, above, ways in (("0403", "0402", {"0404", "0304", "0504"}), ("0503", "0502", {"0504", "0403", "0603"})):
        state = beaten(rows, {"r1": hex, "b1": above}, hex, "b1", "blue_fight")
        assert {a.path[-1] for a in state.legal_actions()} == ways


def test_rows_are_counted_along_any_straight_edge_of_either_grid():
    flat = HexGrid("flat_top", "even_columns_down", "CCRR", (1, 6), (1, 6))
    pointy = HexGrid("pointy_top", "even_rows_right", "CCRR", (1, 6), (1, 6))
    coordinates = {f"{c:02}{r:02}": (c, r) for c in range(1, 7) for r in range(1, 7)}
    west = [h for h, (c, r) in coordinates.items() if c == 1]
    north = [h for h, (c, r) in coordinates.items() if r == 1]
    flat_west = rows_to_edge(flat, coordinates, west)
    # Flat-top, a west edge: the lines along it are the columns; both west diagonals are a column nearer.
    assert [flat_west[h] for h in ("0403", "0303", "0304")] == [3, 2, 2]
    # Pointy-top, a north edge: the rows; both north diagonals of 0404 are a row nearer, the same on row 3.
    pointy_north = rows_to_edge(pointy, coordinates, north)
    assert pointy_north["0404"] == 3 and pointy_north["0403"] == pointy_north["0503"] == 2
    assert pointy_north["0303"] == 2 and {pointy_north["0302"], pointy_north["0402"]} == {1}
