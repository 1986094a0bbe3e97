"""Read-only helpers over an engine state: where the units are and how strong.

The players and the terminal map read unit positions through these few
functions, so a change in how the engine stores them is absorbed here.
A toy state without a map has no positions.
"""

from __future__ import annotations

from typing import Any, Final

from rulec.engine.records import Relocated
from rulec.runtime.model import Hex, Unit

# Changes of hexes walked back from two positions to the last one both were played on from (_moved_apart).
MOST_CHANGES_WALKED: Final = 64


def unit_hexes(state: Any) -> dict[str, Hex]:
    """Unit id -> hex, for every unit on the map."""
    return getattr(state, "positions", None) or {}


def current_unit(state: Any, unit_id: str) -> Unit:
    """The unit as it is in this game (its variant counter if an option chose one)."""
    lookup = getattr(state, "unit", None)
    if callable(lookup):
        return lookup(unit_id)
    return state.game.units[unit_id]


def ids_by_hex(positions: dict[str, Hex]) -> dict[Hex, list[str]]:
    """Each occupied hex -> the ids of the units in it, in the order of `positions` (unit id -> hex)."""
    ids_at: dict[Hex, list[str]] = {}
    for uid, hex_ in positions.items():
        found = ids_at.get(hex_)
        if found is None:
            ids_at[hex_] = [uid]
        else:
            found.append(uid)
    return ids_at


def units_moved(state: Any, since: Any, positions: dict[str, Hex], old: dict[str, Hex]) -> set[str]:
    """The units whose hexes differ in `positions` (`state`'s) and `old` (a position's before, whose last change of
    hexes was `since`), a unit off the map in either included (see hexes_moved)."""
    return {uid for uid, _ in hexes_moved(state, since, positions, old)[0]}


def hexes_moved(state: Any, since: Any, positions: dict[str, Hex],
                old: dict[str, Hex]) -> tuple[set[tuple[str, Hex]], bool | None]:
    """The (unit, hex) pairs of `positions` or of `old` that the other lacks (where units moved from and to), and
    whether a unit came onto the map or left it since (None: not told): those of the units the engine's state says
    changed hexes since that position (a few), when it was played on from it; else every unit's compared (a set
    operation, in C)."""
    told = _moved_since(state, since)
    if told is None:
        return positions.items() ^ old.items(), None
    pairs: set[tuple[str, Hex]] = set()
    for uid in told[0]:
        now, then = positions.get(uid), old.get(uid)
        if now != then:
            if now is not None:
                pairs.add((uid, now))
            if then is not None:
                pairs.add((uid, then))
    return pairs, told[1]


def _moved_since(state: Any, since: Any) -> tuple[list[str], bool] | None:
    """What an engine state tells of the units that changed hexes since the position whose last change was `since`
    (GameState.moved_since), or since the last position both were played on from (a candidate and another weighed
    before it, say); None for a state that does not tell, or when it cannot."""
    if since is None:
        return None
    moved_since = getattr(state, "moved_since", None)
    if not callable(moved_since):
        return None
    told = moved_since(since)
    return told if told is not None else _moved_apart(getattr(state, "last_relocated", None), since)


def _moved_apart(now: Any, then: Any) -> tuple[list[str], bool] | None:
    """The units that changed hexes on the way to two positions (`now` and `then`, their last changes of hexes) from
    the last position both were played on from, and whether any came onto the map or left it on the way; None when
    that position lies more than MOST_CHANGES_WALKED changes back, or a change on the way placed every unit anew."""
    if not isinstance(now, Relocated) or not isinstance(then, Relocated):
        return None
    later: Relocated | None = now
    earlier: Relocated | None = then
    moved: list[str] = []
    reorders = False
    while later is not earlier:
        if later is None or earlier is None or len(moved) >= MOST_CHANGES_WALKED:
            return None
        if later.count < earlier.count:
            later, earlier = earlier, later
        uid = later.uid
        if uid is None:
            return None
        moved.append(uid)
        reorders = reorders or later.reorders
        later = later.before
    return moved, reorders
