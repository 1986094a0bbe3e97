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
