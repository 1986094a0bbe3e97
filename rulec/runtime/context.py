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
