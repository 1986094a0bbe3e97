"""Build the marker blocks (`marker disrupted { on = unit  forbids = [move]  expires = ... }`).

A mixin of rulec.check.build.Builder, like build_map and build_combat. A marker's
`expires` is compiled with the marker compiler (phases_since_marked() is only
available there); the markers an arrival puts on (`arrives = { marks = [landed] }`)
and the `mark`/`unmark` effects name markers checked here too.
"""

from __future__ import annotations

from typing import Any

from rulec.compile import kinds
from rulec.compile.expressions import ExpressionCompiler
from rulec.language.document import Path
from rulec.runtime import model as m


class MarkerSections:
    """The marker blocks, and the references to them."""

    def marker_ids(self) -> list[str]:
        """The markers the file declares (also one with an error of its own)."""
        return list(self.get(("marker",), {}))

    def marker_reference(self, value: Any, path: Path) -> str | None:
        return self.reference(value, self.marker_ids(), "marker", path)

    def markers(self, compiler: ExpressionCompiler) -> dict[str, m.Marker]:
        result = {}
        for mid, body in self.get(("marker",), {}).items():
            path = ("marker", mid)
            on = body.get("on", "unit")
            forbids = tuple(dict.fromkeys(body.get("forbids", ())))
            if on == "hex" and forbids:
                self.error("marker-forbids", f"marker '{mid}' is put on hexes, and only a unit can be forbidden to "
                           f"{', '.join(forbids)}", path + ("forbids",), hint="write 'on = unit', or leave 'forbids' out")
            expires = None
            if "expires" in body:
                expires = self.expression(body["expires"], path + ("expires",), compiler.for_marker(), kinds.BOOL)
            result[mid] = m.Marker(id=mid, name=body.get("name", mid), on=on, forbids=forbids, expires=expires,
                                   rule=str(body.get("rule", "")))
        return result

    def arrival_marks(self, body: dict, path: Path) -> tuple[str, ...]:
        if "marks" not in body:
            return ()
        written = body["marks"]
        listed = isinstance(written, list)
        found = tuple(x for i, name in enumerate(written if listed else [written])
                      if (x := self.marker_reference(name, path + (("marks", i) if listed else ("marks",)))))
        for name in found:
            if self.get(("marker", name, "on"), "unit") != "unit":
                self.error("marker-on", f"marker '{name}' is put on hexes, not on an arriving unit", path + ("marks",))
        return found
