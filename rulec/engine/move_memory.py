"""What a move keeps of the position before it: every side's view of the others.

After one unit moved (or left the map) and nothing else changed, the mover's own side meets the same enemies
and the same enemy zones of control as before; the other sides meet the same, but for the mover, whose two
hexes are patched: the hex it left (still held, or in a zone, if another unit holds it) and the hex it entered.
The answers patched are exactly those of a search from scratch (Position.enemy_zoc, Position._enemy_occupied,
legal_moves.obstacles): conformance.py and tests/test_engine_move_memory.py compare them.
"""

from __future__ import annotations

from rulec.engine.position import Position
from rulec.runtime.model import Hex


def carry_views(state: Position, before: dict, uid: str, left: Hex | None, entered: Hex | None) -> None:
    """After `uid` moved from `left` to `entered` (None: off the map or not on it), with the occupants of the new
    position already patched (stacking.carry_over): keep or patch every side's enemies, zones and obstacles
    that the position `before` (its cache) knew."""
    occupied = state._cache.get("occupants")
    if occupied is None:
        return
    units = state._units
    mover = units[uid].side
    into = state.tables.zoc_into_typed.get(units[uid].type, state.tables.zoc_into)
    zoc_left = into[left] if left is not None else ()
    zoc_entered = into[entered] if entered is not None else ()
    for side in state.game.sides:
        if side == mover:
            _keep_own(state, before, side, uid, left, entered, occupied)
        else:
            _patch_other(state, before, side, uid, left, entered, occupied, zoc_left, zoc_entered)


def _keep_own(state: Position, before: dict, side: str, uid: str, left: Hex | None, entered: Hex | None,
              occupied: dict[Hex, list[str]]) -> None:
    """The mover's side: its enemies and their zones are as they were; its own hexes patched."""
    for key in (("zoc", side), ("enemy", side)):
        if key in before:
            state._cache[key] = before[key]
    found = before.get(("obstacles", side))
    if found is None:
        return
    enemy, zoc, friends = found
    bit, units = state.tables.hex_bit, state._units
    if left is not None and not any(units[u].side == side for u in occupied.get(left, ())):
        friends &= ~bit[left]
    if entered is not None:
        friends |= bit[entered]
    state._cache[("obstacles", side)] = (enemy, zoc, friends)


def _patch_other(state: Position, before: dict, side: str, uid: str, left: Hex | None, entered: Hex | None,
                 occupied: dict[Hex, list[str]], zoc_left: tuple[Hex, ...], zoc_entered: tuple[Hex, ...]) -> None:
    """A side the mover is an enemy of: the enemy hexes and zones lose the mover's old hex and zone, where no
    other enemy of `side` holds them, and gain its new ones."""
    units = state._units
    left_held = left is not None and any(units[u].side != side for u in occupied.get(left, ()))
    if ("zoc", side) in before or ("obstacles", side) in before:
        kept_zoc = set(zoc_entered)
        lost = [h for h in dict.fromkeys(zoc_left) if h not in kept_zoc and not _in_zone(state, occupied, h, side)]
    if ("enemy", side) in before:
        hexes = before[("enemy", side)]
        if left is not None and not left_held:
            hexes = hexes - {left}
        state._cache[("enemy", side)] = hexes | {entered} if entered is not None else hexes
    if ("zoc", side) in before:
        state._cache[("zoc", side)] = (before[("zoc", side)] - frozenset(lost)) | frozenset(zoc_entered)
    found = before.get(("obstacles", side))
    if found is not None:
        enemy, zoc, friends = found
        bit = state.tables.hex_bit
        if left is not None and not left_held:
            enemy &= ~bit[left]
        for h in lost:
            zoc &= ~bit[h]
        if entered is not None:
            enemy |= bit[entered]
            typed = state.tables.zoc_bits_typed
            kind = units[uid].type
            zoc |= typed[kind][entered] if typed and kind in typed else state.tables.zoc_bits[entered]
        state._cache[("obstacles", side)] = (enemy, zoc, friends)


def _in_zone(state: Position, occupied: dict[Hex, list[str]], h: Hex, side: str) -> bool:
    """Is `h` in the zone of control of some enemy of `side` now (any unit, in the hexes that may reach it)?"""
    units, typed, plain = state._units, state.tables.zoc_into_typed, state.tables.zoc_into
    for x in zoc_sources(state).get(h, ()):
        for u in occupied.get(x, ()):
            unit = units[u]
            if unit.side != side and h in typed.get(unit.type, plain)[x]:
                return True
    return False


def zoc_sources(state: Position) -> dict[Hex, tuple[Hex, ...]]:
    """Each hex -> the hexes from which a unit of some type may control it (the zones' reverse), once a game."""
    found = state._for_the_game.get("zoc sources")
    if found is None:
        sources: dict[Hex, set[Hex]] = {}
        for into in (state.tables.zoc_into, *state.tables.zoc_into_typed.values()):
            for x, hexes in into.items():
                for h in hexes:
                    sources.setdefault(h, set()).add(x)
        found = state._for_the_game["zoc sources"] = {h: tuple(xs) for h, xs in sources.items()}
    return found
