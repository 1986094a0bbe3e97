"""Build: who may attack, who may join which battle, who must attack what and who must be attacked (`combat { ... }`).

Each is a condition about one unit (the compiler's `about_unit` names: `unit`,
`strength`, `type`, `side`, `has_flag(unit, F)`...), compiled like award
conditions; may_join also sees the battle so far (a battle modifier's names:
attackers, defender_hexes...). The engine reads them in engine/duties.py and
engine/joining.py. Part of the Builder
(rulec/check/build.py), which builds the units and calls `variants` for each; an
option's choice of variant counters is `variant_choice`.
"""

from __future__ import annotations

from typing import Any

from rulec.compile import kinds
from rulec.compile.functions import IN_BATTLE
from rulec.runtime import model as m

COMBAT_DUTIES = ("may_attack", "must_attack", "must_be_attacked", "must_attack_target")
# Conditions about a unit and a battle: `unit` and the battle modifier's names (attackers, defender_hexes...).
BATTLE_DUTIES = ("may_join",)


class UnitSections:
    """Builder methods for the unit parts of other sections (mixed into Builder)."""

    def combat_duties(self, body: dict, compiler: Any) -> dict[str, Any]:
        """The combat block's conditions about a unit, compiled (None where one failed: already reported)."""
        if compiler is None:
            return {}
        built = {name: self.expression(body[name], ("combat", name), compiler, kinds.BOOL)
                 for name in COMBAT_DUTIES if name in body}
        in_battle = compiler.inside(IN_BATTLE, about_unit=True)
        built.update({name: self.expression(body[name], ("combat", name), in_battle, kinds.BOOL)
                      for name in BATTLE_DUTIES if name in body})
        return built

    def variants(self, path: Any) -> tuple:
        """A unit's `variant NAME { strength move vp }` blocks, in file order."""
        return tuple(self.record(m.Variant, path + ("variant", name), name=str(name))
                     for name, body in self.get(path + ("variant",), {}).items() if isinstance(body, dict))

    def variant_choice(self, path: Any) -> m.VariantChoice:
        """An option's `choose_variant { variant = NAME  count = LOW..HIGH  vp_to = SIDE }`."""
        body = self.get(path + ("choose_variant",), {})
        count = self.int_range(body.get("count"), path + ("choose_variant", "count")) if "count" in body else (0, 0)
        return m.VariantChoice(variant=str(body.get("variant", "")), count=count or (0, 0), vp_to=body.get("vp_to"))

    def reduced_sides(self, path: Any, unit_types: dict) -> tuple:
        """A unit's `reduced = { ... }` or `reduced = [{ ... }, ...]` (the schema checked the shape)."""
        value = self.get(path + ("reduced",))
        items = [value] if isinstance(value, dict) else value if isinstance(value, list) else []
        sides = []
        for index, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("strength"), int):
                continue
            if "type" in item:
                where = path + ("reduced",) + ((index,) if isinstance(value, list) else ()) + ("type",)
                self.reference(item["type"], unit_types, "unit type", where)
            sides.append(m.Step(item["strength"], item.get("move"), item.get("type")))
        return tuple(sides)
