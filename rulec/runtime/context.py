"""What a compiled expression may ask of the game that runs it.

The expression compiler (rulec.compile.expressions) turns designer
expressions into Python over one argument `ctx`; whoever evaluates them (the
engine, a player aid printing a VP track) passes an object with this shape.
"""

from __future__ import annotations

from typing import Protocol, Sequence

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
