"""Build: who may attack, who must attack and who must be attacked (`combat { ... }`).

Each is a condition about one unit (the compiler's `about_unit` names: `unit`,
`strength`, `type`, `side`, `has_flag(unit, F)`...), compiled like award
conditions; the engine reads them in engine/duties.py. Part of the Builder
(rulec/check/build.py); units' reduced sides are built there with the units.
"""

from __future__ import annotations

from typing import Any

from rulec.compile import kinds

COMBAT_DUTIES = ("may_attack", "must_attack", "must_be_attacked")


class UnitSections:
    """Builder methods for the unit parts of other sections (mixed into Builder)."""

    def combat_duties(self, body: dict, compiler: Any) -> dict[str, Any]:
        """The combat block's conditions about a unit, compiled (None where one failed: already reported)."""
        if compiler is None:
            return {}
        return {name: self.expression(body[name], ("combat", name), compiler, kinds.BOOL)
                for name in COMBAT_DUTIES if name in body}
