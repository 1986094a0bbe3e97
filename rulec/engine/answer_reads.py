"""What a condition's answers read of the position, so that a move that changed none of it keeps them.

A compiled expression reads the game only through its evaluation context (context.py). Its code names every
attribute it may use (the code object's names, its generator expressions' included): when each is either static
within a movement phase (the map, zones and distances, the turn, the options, the unit's own fields and hex) or
one of the few readings noted here (traces, a side's view of the enemy zones, who holds an objective, the
markers), its answers depend on nothing else. A ReadingContext notes which of those each evaluation read, for the
whole game; a move that changed none of them leaves every such answer as it was (legal_moves.carry_moves, for
movement { may_end_move }). Any other name (units_at, vp, history ...) and nothing is kept: answers are worked out
again, as for a condition whose code cannot be read (a function without a code object).
"""

from __future__ import annotations

import builtins
from dataclasses import fields
from typing import Any, Callable, Collection

from rulec.engine import traces
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.runtime.model import Unit

# The context's names whose answers do not change within a movement phase, whatever moves: the map's geometry,
# the hex a condition is about, the turn, the options, the unit the condition is about and where it stands (a
# friend's move does not move it), and whether it moved (only the mover's changes).
_STILL = frozenset({
    "unit", "hex", "from_hex", "edge", "zone", "hexes", "neighbours", "adjacent", "distance", "distance_to",
    "terrain", "has_terrain", "crossing", "objectives", "option", "union", "without", "turn", "turns", "phase",
    "phasing_side", "hex_of", "moved",
}) | frozenset(f.name for f in fields(Unit)) | frozenset(dir(builtins))
# The readings a ReadingContext notes (each a key of `holds`).
_NOTED = frozenset({"traced", "traced_hex", "enemy_zoc", "controller", "marked", "marked_hex"})


def readable(condition: Callable[..., Any]) -> bool:
    """Does the condition read nothing but still names and noted readings (worked out from its code)?"""
    names = names_in(condition)
    return names is not None and names <= _STILL | _NOTED


def names_in(condition: Callable[..., Any]) -> set[str] | None:
    """Every name the condition's code uses (its generator expressions' included): the context's attributes and
    methods it may read, and any global it calls. None for a condition whose code cannot be read."""
    code = getattr(condition, "__code__", None)
    if code is None:
        return None
    names: set[str] = set()
    pending = [code]
    while pending:
        found = pending.pop()
        names.update(found.co_names)
        pending.extend(c for c in found.co_consts if hasattr(c, "co_names"))
    return names


class ReadingContext(EngineContext):
    """An EngineContext that notes, in `read` (shared by every evaluation of the condition in a game), what it was
    asked that a move may change: ("trace", trace, side), ("zoc", side), ("holders",) and ("markers",)."""

    def __init__(self, state: Position, unit: Unit, read: set[tuple[str, ...]]):
        super().__init__(state, unit)
        self._read = read

    def enemy_zoc(self, side: str) -> Collection[str]:
        self._read.add(("zoc", side))
        return super().enemy_zoc(side)

    def traced(self, trace: str, unit: Unit) -> bool:
        self._read.add(("trace", trace, unit.side))
        return super().traced(trace, unit)

    def traced_hex(self, trace: str, side: str, hex: str) -> bool:
        self._read.add(("trace", trace, side))
        return super().traced_hex(trace, side, hex)

    def controller(self, hex: str) -> str:
        self._read.add(("holders",))
        return super().controller(hex)

    def marked(self, unit: Unit, marker: str) -> bool:
        self._read.add(("markers",))
        return super().marked(unit, marker)

    def marked_hex(self, hex: str, marker: str) -> bool:
        self._read.add(("markers",))
        return super().marked_hex(hex, marker)


def snapshot(state: Position) -> tuple[int, dict]:
    """What a later position is compared with that its cache does not keep: the markers' version, the holders."""
    return state.markers.version, dict(state.holders)


def holds(state: Position, before: dict, kept: tuple[int, dict], read: set[tuple[str, ...]]) -> bool:
    """Is every reading in `read` the same in `state` as in the position whose cache was `before` (and snapshot
    `kept`)? The traces read are worked out in `state` (kept in its cache: they are asked next anyway)."""
    version, holders = kept
    for reading in read:
        kind = reading[0]
        if kind == "markers":
            if state.markers.version != version:
                return False
        elif kind == "holders":
            if state.holders != holders:
                return False
        elif kind == "zoc":
            known = before.get(reading)
            if known is None or state._cache.get(reading) is not known:
                return False
        else:  # a trace: the same hexes reached
            _, trace, side = reading
            known = before.get(reading)
            if known is None:
                return False
            found = traces.traced_hexes(state, trace, side, EngineContext)
            if found is not known and found != known:  # (a search that kept its hexes returns the same set)
                return False
    return True
