"""Read-only helpers over an engine state: where the units are and how strong.

The players and the terminal map read unit positions through these few
functions, so a change in how the engine stores them is absorbed here.
A toy state without a map has no positions.
"""

from __future__ import annotations

from typing import Any

from rulec.runtime.model import Hex, Unit


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
    (GameState.moved_since); None for a state that does not tell, or when it cannot."""
    if since is None:
        return None
    moved_since = getattr(state, "moved_since", None)
    return moved_since(since) if callable(moved_since) else None
