"""Read-only helpers over an engine state: where the units are and how strong.

The players and the terminal map read unit positions through these few
functions, so a change in how the engine stores them is absorbed here.
"""

from __future__ import annotations

from typing import Any

from rulec.runtime.model import Hex, Unit


def unit_hexes(state: Any) -> dict[str, Hex]:
    """Unit id -> hex, for every unit on the map."""
    return {}


def unit_strength(state: Any, unit: Unit) -> int:
    """The strength the unit has now (its improved counter if it got one)."""
    return unit.strength
