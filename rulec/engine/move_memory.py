"""What a move keeps of the position before it: every side's view of the others.

Each side's view (the enemy hexes, the enemy zones of control, the obstacles of a movement search) is known with
who stands where (Position._standing): an action that moves nobody hands it on as it is. After one unit moved (or
left the map) and nothing else changed, the mover's own side meets the same enemies and the same enemy zones of
control as before. The other sides' views are kept too, marked stale at the hexes the mover left and entered and
at the zones around them: whoever asks next asks again at those hexes only (Position.enemy_zoc, _enemy_occupied,
obstacles, below), however many moves later. Nobody asking costs nothing. The answers are exactly those of
a position worked out from scratch: tests/test_engine_move_memory.py compares them after every move.
"""

from __future__ import annotations

from typing import Final

from rulec.engine.hex_bits import hexes_in_order
from rulec.engine.position import Position, ViewKeys, view_keys
from rulec.runtime.model import Hex

# Stale views asked again at more hexes than this are worked out from scratch instead.
MOST_TOUCHED: Final = 48


def carry_views(state: Position, before: dict, uid: str, left: Hex | None, entered: Hex | None) -> None:
    """After `uid` moved from `left` to `entered` (None: off the map or not on it), with the occupants of the new
    position already patched (stacking.carry_over): keep the mover's side's views known where units stood `before`
    (the position before's Position._standing), and the other sides' views marked stale where the move may have
    changed them."""
    occupied: dict[Hex, list[str]] | None = state._standing.get("occupants")
    if occupied is None:
        return
    tables = state.tables
    unit = state._units[uid]
    mover = unit.side
    # The hexes touched, as bits of hex numbers: a stale view's grow by an OR a move, made hexes only when asked
    bit, into = tables.hex_bit, tables.zoc_bits_typed.get(unit.type, tables.zoc_bits)
    moved = zones = 0
    if left is not None:
        moved, zones = bit[left], into[left]
    if entered is not None:
        moved |= bit[entered]
        zones |= into[entered]
    zones |= moved
    standing = state._standing
    for side in state.game.sides:
        keys = view_keys(side)
        if side == mover:
            _keep_own(state, before, side, keys, left, entered, moved, occupied)
        else:  # (in the order of VIEWS)
            _mark_stale(standing, before, keys.zoc, keys.stale_zoc, zones)
            _mark_stale(standing, before, keys.enemy, keys.stale_enemy, moved)
            _mark_stale(standing, before, keys.obstacles, keys.stale_obstacles, zones)


def _mark_stale(standing: dict, before: dict, exact: tuple[str, ...], stale_key: tuple[str, ...], touched: int
                ) -> None:
    """One view of another side (`exact`, `stale_key`: its keys) known `before`, exactly or stale, kept in `standing`
    stale at the hexes `touched` (bits) besides those it was stale at already."""
    known = before.get(exact)
    if known is None:
        stale: tuple[object, int] | None = before.get(stale_key)
        if stale is None:
            return
        known = stale[0]
        touched |= stale[1]
        if touched.bit_count() > MOST_TOUCHED:
            return
    standing[stale_key] = (known, touched)


def _keep_own(state: Position, before: dict, side: str, keys: ViewKeys, left: Hex | None, entered: Hex | None, moved: int,
              occupied: dict[Hex, list[str]]) -> None:
    """The mover's side: its enemies and their zones are as they were; its own hexes patched (`moved`: the hexes
    the mover left and entered, as bits)."""
    standing = state._standing
    _hand_on(standing, before, keys.zoc, keys.stale_zoc)
    _hand_on(standing, before, keys.enemy, keys.stale_enemy)
    found: tuple[int, int, int] | None = before.get(keys.obstacles)
    if found is None:
        stale: tuple[tuple[int, int, int], int] | None = before.get(keys.stale_obstacles)
        if stale is not None:  # the enemy's part is as stale as it was; the friends' part is redone when asked
            touched = stale[1] | moved
            if touched.bit_count() <= MOST_TOUCHED:
                standing[keys.stale_obstacles] = stale[0], touched
        return
    enemy, zoc, friends = found
    bit = state.tables.hex_bit
    if left is not None:
        there = occupied.get(left)
        if there is None or not _any_of(state, there, side):
            friends &= ~bit[left]
    if entered is not None:
        friends |= bit[entered]
    standing[keys.obstacles] = (enemy, zoc, friends)


def _hand_on(standing: dict, before: dict, exact: tuple[str, ...], stale_key: tuple[str, ...]) -> None:
    """A view `before` knows (`exact`, `stale_key`: its keys), as it is: the exact one if known (a stale copy beside it
    is never read again), else the stale one."""
    known = before.get(exact)
    if known is not None:
        standing[exact] = known
        return
    known = before.get(stale_key)
    if known is not None:
        standing[stale_key] = known


def _any_of(state: Position, uids: list[str], side: str) -> bool:
    """Is one of `uids` of `side`?"""
    units = state._units
    for u in uids:
        if units[u].side == side:
            return True
    return False


def obstacles(state: Position, side: str) -> tuple[int, int, int]:
    """Hexes of the enemies of `side`, of their zones of control, and of `side`'s units, as bits of
    hex numbers (see Tables.index)."""
    keys = view_keys(side)
    standing = state._standing
    found: tuple[int, int, int] | None = standing.get(keys.obstacles)
    if found is not None:
        return found
    stale: tuple[tuple[int, int, int], int] | None = standing.get(keys.stale_obstacles)
    if stale is not None:
        found = standing[keys.obstacles] = _obstacles_again(state, side, stale[0], stale[1])
        return found
    bit, zoc_bits, units = state.tables.hex_bit, state.tables.zoc_bits, state._units
    typed = state.tables.zoc_bits_typed  # unit types whose ZOC reaches across more hexsides
    enemy = zoc = friends = 0
    for uid, h in state.pos.items():
        if units[uid].side != side:
            enemy |= bit[h]
            zoc |= typed[units[uid].type][h] if typed and units[uid].type in typed else zoc_bits[h]
        else:
            friends |= bit[h]
    found = standing[keys.obstacles] = (enemy, zoc, friends)
    return found


def _obstacles_again(state: Position, side: str, known: tuple[int, int, int], touched: int) -> tuple[int, int, int]:
    """The obstacles `known` in an earlier position, asked again at the hexes `touched` (bits) by the moves since."""
    enemy, zoc, friends = known
    bit, occupants, units = state.tables.hex_bit, state.occupants(), state._units
    for h in hexes_in_order(touched, state.tables.numbered):
        b = bit[h]
        enemy, zoc, friends = enemy & ~b, zoc & ~b, friends & ~b
        for u in occupants.get(h, ()):
            if units[u].side != side:
                enemy |= b
            else:
                friends |= b
        if state.in_enemy_zoc(h, side):
            zoc |= b
    return enemy, zoc, friends
