"""The markers in play on one position: a small table of unit and hex -> marker -> the stamp of the phase it was
put on. Data only; markers.py puts markers on, takes them off and reads what they forbid."""

from __future__ import annotations

from typing import Final

from itertools import count

from rulec.runtime.model import Hex, Marker

Stamp = tuple[int, int]  # (turn, phase index) of the phase a marker was put on
_VERSIONS: Final = count(1)  # every change of any table takes the next: two tables of one version hold the same markers


class MarkerTable:
    """The markers in play: unit id -> {marker id: stamp}, and hex -> {marker id: stamp}.

    The inner dicts are never changed in place (a change replaces them), so a copy
    needs only the two outer dicts. `version` names the markers held: a copy keeps it, every change takes a new
    one, so what was worked out from the markers alone holds while the version does (modifiers.allowance).
    Change the table only through its methods.
    """

    __slots__ = ("units", "hexes", "version")

    def __init__(self, units: dict[str, dict[str, Stamp]] | None = None,
                 hexes: dict[Hex, dict[str, Stamp]] | None = None):
        self.units = units if units is not None else {}
        self.hexes = hexes if hexes is not None else {}
        self.version = next(_VERSIONS)

    def copy(self) -> "MarkerTable":
        other = MarkerTable(self.units.copy(), self.hexes.copy())  # (.copy(): in one piece, holes and all)
        other.version = self.version
        return other

    def __bool__(self) -> bool:
        return bool(self.units or self.hexes)

    def _table(self, marker: Marker) -> dict:
        return self.hexes if marker.on == "hex" else self.units

    def put(self, marker: Marker, target: str, stamp: Stamp) -> None:
        table = self._table(marker)
        table[target] = {**table.get(target, {}), marker.id: stamp}
        self.version = next(_VERSIONS)

    def take(self, marker: Marker, target: str) -> bool:
        """Take the marker off `target`; False if it carried none (nothing changed)."""
        table = self._table(marker)
        found = table.get(target)
        if found is None or marker.id not in found:
            return False
        self.version = next(_VERSIONS)
        rest = {m: s for m, s in found.items() if m != marker.id}
        if rest:
            table[target] = rest
        else:
            del table[target]
        return True

    def drop_unit(self, uid: str) -> None:
        """Take every marker off a unit."""
        if self.units.pop(uid, None) is not None:
            self.version = next(_VERSIONS)
