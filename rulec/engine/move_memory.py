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
from rulec.engine.position import STALE, VIEWS, Position, view_keys
from rulec.runtime.model import Hex

# Stale views asked again at more hexes than this are worked out from scratch instead.
MOST_TOUCHED: Final = 48
# The kinds of views, exact and kept stale (the first of a view's key: position.ViewKeys)
VIEW_KINDS: Final = frozenset(VIEWS)
STALE_KINDS: Final = frozenset(STALE.values())
STALE_ENEMY: Final = STALE["enemy"]
STALE_OBSTACLES: Final = STALE["obstacles"]


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
    left_bit = bit[left] if left is not None else 0
    entered_bit = bit[entered] if entered is not None else 0
    moved = left_bit | entered_bit
    zones = moved
    if left is not None:
        zones |= into[left]
    if entered is not None:
        zones |= into[entered]
    standing = state._standing
    # One pass over the views `before` knows (few: a view is kept only once asked), not a look-up of every view of
    # every side, most of them unknown. A view is known exact or stale, never both (position.VIEWS).
    for key, known in before.items():
        if type(key) is not tuple:
            continue  # (the occupants and their sides: stacking.py's)
        view: tuple[str, ...] = key
        kind, side = view[0], view[1]
        if kind in STALE_KINDS:
            stale: tuple[object, int] = known
            if side != mover:  # stale at the hexes the move touched too
                touched = stale[1] | (moved if kind == STALE_ENEMY else zones)
            elif kind == STALE_OBSTACLES:  # the enemy's part as stale as it was; the friends' redone when asked
                touched = stale[1] | moved
            else:  # its enemies and their zones are as they were
                standing[key] = known
                continue
            if touched.bit_count() <= MOST_TOUCHED:
                standing[key] = (stale[0], touched)
        elif kind in VIEW_KINDS:
            if side != mover:  # kept stale at the hexes the move touched
                standing[view_keys(side).stale[kind]] = (known, moved if kind == "enemy" else zones)
            elif kind == "obstacles":  # its own hexes patched
                standing[key] = _own_obstacles(state, known, side, left, left_bit, entered_bit, occupied)
            else:  # its enemies and their zones are as they were
                standing[key] = known
        # (any other key is no view: not carried over)


def _own_obstacles(state: Position, found: tuple[int, int, int], side: str, left: Hex | None, left_bit: int,
                   entered_bit: int, occupied: dict[Hex, list[str]]) -> tuple[int, int, int]:
    """The mover's side's obstacles `found` before its move from `left` (its bit: `left_bit`, 0 for none) to the hex
    of `entered_bit` (0: off the map), with its own hexes patched."""
    enemy, zoc, friends = found
    if left is not None:
        there = occupied.get(left)
        if there is None or not _any_of(state, there, side):
            friends &= ~left_bit
    return enemy, zoc, friends | entered_bit


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
        del standing[keys.stale_obstacles]  # (exact now: never both, position.VIEWS)
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
