"""The markers in play on one position: a small table of unit and hex -> marker -> the stamp of the phase it was
put on. Data only; markers.py puts markers on, takes them off and reads what they forbid."""

from __future__ import annotations

from rulec.runtime.model import Hex, Marker

Stamp = tuple[int, int]  # (turn, phase index) of the phase a marker was put on


class MarkerTable:
    """The markers in play: unit id -> {marker id: stamp}, and hex -> {marker id: stamp}.

    The inner dicts are never changed in place (a change replaces them), so a copy
    needs only the two outer dicts.
    """

    __slots__ = ("units", "hexes")

    def __init__(self, units: dict[str, dict[str, Stamp]] | None = None,
                 hexes: dict[Hex, dict[str, Stamp]] | None = None):
        self.units = units if units is not None else {}
        self.hexes = hexes if hexes is not None else {}

    def copy(self) -> "MarkerTable":
        return MarkerTable(dict(self.units), dict(self.hexes))

    def __bool__(self) -> bool:
        return bool(self.units or self.hexes)

    def _table(self, marker: Marker) -> dict:
        return self.hexes if marker.on == "hex" else self.units

    def put(self, marker: Marker, target: str, stamp: Stamp) -> None:
        table = self._table(marker)
        table[target] = {**table.get(target, {}), marker.id: stamp}

    def take(self, marker: Marker, target: str) -> None:
        table = self._table(marker)
        found = table.get(target)
        if found is None or marker.id not in found:
            return
        rest = {m: s for m, s in found.items() if m != marker.id}
        if rest:
            table[target] = rest
        else:
            del table[target]
