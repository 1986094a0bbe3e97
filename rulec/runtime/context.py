"""What a compiled expression may ask of the game that runs it.

The expression compiler (rulec.compile.expressions) turns designer
expressions into Python over one argument `ctx`; whoever evaluates them (the
engine, a player aid printing a VP track) passes an object with this shape.
"""

from __future__ import annotations

from typing import Container, Iterable, Mapping, Protocol, Sequence

from rulec.runtime.model import Unit


class EvalContext(Protocol):
    turn: int  # the current game turn, from 1
    turns: int  # the game's length in turns
    phasing_side: str | None
    unit: Unit | None  # the unit an award or condition is about (an exiting or eliminated unit)

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None) -> Sequence[Unit]:
        """The units on the map that match every filter given."""
        ...

    def vp(self, side: str) -> int:
        """A side's victory points so far."""
        ...


def select_units(placed: Iterable[tuple[Unit, str]], zones: Mapping[str, Container[str]], side: str | None = None,
                 zone: str | None = None, hex: str | None = None, type: str | None = None,
                 flag: str | None = None) -> list[Unit]:
    """The units of `placed` ((unit, hex) pairs) that match every filter given: `EvalContext.units` for any context."""
    zone_hexes = zones.get(zone, ()) if zone is not None else None
    return [unit for unit, where in placed
            if (side is None or unit.side == side)
            and (zone_hexes is None or where in zone_hexes)
            and (hex is None or where == hex)
            and (type is None or unit.type == type)
            and (flag is None or flag in unit.flags)]


class StandInContext:
    """An EvalContext for a made-up position, to weigh an award outside a running game.

    Only the `placed` units ((unit, hex) pairs) are on the map; the turn is `turn` and
    also the game's length; the phasing side is `unit`'s; every side has 0 VP.
    """

    def __init__(self, unit: Unit | None = None, turn: int = 1, placed: Iterable[tuple[Unit, str]] = (),
                 zones: Mapping[str, Container[str]] | None = None):
        self.unit = unit
        self.turn = turn
        self.turns = turn
        self.phasing_side = unit.side if unit else None
        self._placed = list(placed)
        self._zones = zones or {}

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None) -> Sequence[Unit]:
        return select_units(self._placed, self._zones, side, zone, hex, type, flag)

    def vp(self, side: str) -> int:
        return 0
