"""Build the movement sections: the Terrain Effects Chart (terrain, hexside) and the movement block.

A mixin of rulec.check.build.Builder, like build_map. Costs may be given per unit type
(`move_for`, `prohibited_for`, `move_extra_for`) and as expressions (`move = if(turn >= 3, 3, 2)`),
which the engine evaluates as each phase begins (rulec/engine/step_costs.py). Expressions are
compiled once the game's names are known (`movement_expressions`), after the chart itself is read.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulec.check.end_sets import end_sets
from rulec.compile import kinds
from rulec.compile.expressions import ExpressionCompiler
from rulec.compile.functions import IN_EXIT, IN_MOVE
from rulec.runtime import model as m

# Cost fields that may hold an expression, per block: (field, is it a table per unit type).
_COST_FIELDS = {"terrain": (("move", False), ("move_extra", False), ("move_for", True)),
                "hexside": (("move", False), ("move_extra", False), ("move_extra_for", True))}


class MovementSections:
    """Terrain, hexside types and the movement rules."""

    def terrain_types(self) -> dict[str, m.TerrainType]:
        result = {}
        for tid, body in self.get(("terrain",), {}).items():
            body = dict(body)
            if body.get("move") == "as_other":
                body["move"] = None
            body.setdefault("name", tid.replace("_", " ").title())
            expressions = self._keep_raw_costs("terrain", tid, body)
            extra = {k: v for k, v in body.items() if k in ("move", "name") and k not in expressions}
            result[tid] = self.record(m.TerrainType, ("terrain", tid), built=expressions, id=tid, **extra)
        return result

    def _keep_raw_costs(self, section: str, bid: str, body: dict) -> tuple[str, ...]:
        """The cost fields of a terrain or hexside type written as expressions: kept aside (`raw_costs`) until
        movement_expressions compiles them, the type built meanwhile with those fields' defaults."""
        found = tuple(k for k, per_type in _COST_FIELDS[section] if not per_type and isinstance(body.get(k), dict))
        for k in found:
            self.raw_costs[(section, bid, k)] = body[k]
        return found

    def hexside_types(self) -> dict[str, m.HexsideType]:
        result = {}
        for hid, body in self.get(("hexside",), {}).items():
            extra: dict[str, Any] = {"id": hid}
            if "name" not in body:
                extra["name"] = hid.replace("_", " ").title()
            extra["kind"] = body.get("kind", "river" if hid == "river" else "other")
            expressions = self._keep_raw_costs("hexside", hid, body)
            result[hid] = self.record(m.HexsideType, ("hexside", hid), built=expressions, **extra)
        return result

    def zoc_across(self, unit_types: dict, hexside_types: dict) -> dict:
        """`unit_types` with their `zoc_across` hexside types checked (did-you-mean) and made tuples."""
        result = {}
        for tid, kind in unit_types.items():
            across = self.get(("unit_type", tid, "zoc_across"))
            if kind is not None and isinstance(across, list):
                for i, hid in enumerate(across):
                    self.reference(hid, hexside_types, "hexside feature", ("unit_type", tid, "zoc_across", i))
                kind = replace(kind, zoc_across=tuple(h for h in across if h in hexside_types))
            result[tid] = kind
        return result

    def movement_expressions(self, blocks: dict[str, dict], section: str, unit_types: dict,
                             compiler: ExpressionCompiler) -> dict:
        """`blocks` (terrain or hexside types) with their cost expressions compiled and unit types checked."""
        about_no_unit = compiler.for_unit(False)
        result = {}
        for bid, block in blocks.items():
            if block is None:
                result[bid] = None
                continue
            path = (section, bid)
            changes: dict[str, Any] = {}
            for field_name, per_type in _COST_FIELDS[section]:
                value = self.raw_costs.get((section, bid, field_name), getattr(block, field_name))
                if per_type:
                    table = {}
                    for type_id, cost in (value or {}).items():
                        self.reference(type_id, unit_types, "unit type", path + (field_name, type_id), key=True)
                        table[type_id] = self._cost(cost, path + (field_name, type_id), about_no_unit)
                    changes[field_name] = table
                elif isinstance(value, dict):
                    changes[field_name] = self._cost(value, path + (field_name,), about_no_unit)
            for i, type_id in enumerate(block.prohibited_for):
                self.reference(type_id, unit_types, "unit type", path + ("prohibited_for", i))
            result[bid] = replace(block, **changes)
        return result

    def _cost(self, value: Any, path, compiler: ExpressionCompiler) -> int | m.Expr:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return self.expression(value, path, compiler, kinds.NUMBER) or 0

    def movement(self, hexside_types: dict, options: dict, compiler: ExpressionCompiler,
                 control_of: tuple[str, ...] = (), first_holder: str | None = None) -> m.MovementRules:
        body = self.get(("movement",), {})
        leave = None
        if isinstance(body.get("leave_zoc"), dict):
            path = ("movement", "leave_zoc")
            raw = body["leave_zoc"]
            when = self.expression(raw["when"], path + ("when",), compiler.for_unit(True), kinds.BOOL) if "when" in raw else None
            not_across = tuple(raw.get("not_across", ()))
            for i, hid in enumerate(not_across):
                self.reference(hid, hexside_types, "hexside feature", path + ("not_across", i))
            if "option" in raw:
                self.reference(raw["option"], options, "option", path + ("option",))
            into_zoc = raw.get("into_zoc", False)
            if not isinstance(into_zoc, bool):  # about the unit and `hex`, the enemy-controlled hex entered
                into_zoc = self.expression(into_zoc, path + ("into_zoc",), compiler.inside(IN_MOVE, about_unit=True),
                                           kinds.BOOL) or False
            leave = m.LeaveZoc(when=when, cost=raw.get("cost", 0), into_zoc=into_zoc, then_stop=raw.get("then_stop", False),
                               not_across=not_across, option=raw.get("option"))
        extra: dict[str, Any] = {"leave_zoc": leave} if leave or "leave_zoc" in body else {}
        delay = body.get("reinforcement_delay")
        if delay is not None and not isinstance(delay, bool):  # a condition about the arriving unit
            extra["reinforcement_delay"] = self.expression(delay, ("movement", "reinforcement_delay"),
                                                           compiler.for_unit(True), kinds.BOOL) or False
        for name in ("may_end_move", "entry_blocked"):  # about the unit and `hex`, a destination or an entry hex
            if name in body:
                extra[name] = self.expression(body[name], ("movement", name), compiler.inside(IN_MOVE, about_unit=True),
                                              kinds.BOOL)
        if extra.get("may_end_move") is not None:  # the same condition as set algebra, where it can be written so
            extra["may_end_sets"] = end_sets(body["may_end_move"], compiler.inside(IN_MOVE, about_unit=True))
        if "may_exit" in body:  # about the unit and `edge`, the edge it would leave by
            extra["may_exit"] = self.expression(body["may_exit"], ("movement", "may_exit"),
                                                compiler.inside(IN_EXIT, about_unit=True), kinds.BOOL)
            if not body.get("exit_map", False):
                self.error("field-alone", "movement gives 'may_exit' without 'exit_map = true', so no unit leaves the map "
                           "and it would do nothing", ("movement", "may_exit"), key=True, hint="add exit_map = true")
        tracked = {"control_of": control_of, "first_holder": first_holder}  # built by build_scenarios.py
        return self.record(m.MovementRules, ("movement",), built=tuple(tracked), **tracked, **extra)

    def stacking(self, compiler: ExpressionCompiler) -> m.StackingRules:
        """The stacking rules; `counts` is a condition about a unit (which units count toward the limit)."""
        counts = self.get(("stacking", "counts"))
        extra = {}
        if counts is not None:
            extra["counts"] = None if counts is True else self.expression(counts, ("stacking", "counts"),
                                                                          compiler.for_unit(True), kinds.BOOL)
        return self.record(m.StackingRules, ("stacking",), **extra)

    def modes(self, hexside_types: dict, options: dict, compiler: ExpressionCompiler) -> dict[str, m.MovementMode]:
        """Movement modes along a network (`mode rail { network = rail  cost = 1/4  eligible = ... }`)."""
        result = {}
        for mid, body in self.get(("mode",), {}).items():
            path = ("mode", mid)
            if not isinstance(body, dict):
                continue
            self.reference(body.get("network"), hexside_types, "hexside feature", path + ("network",))
            if "option" in body:
                self.reference(body["option"], options, "option", path + ("option",))
            cost = body.get("cost", 1)
            if isinstance(cost, dict):
                cost = self.expression(cost, path + ("cost",), compiler.for_unit(False), kinds.NUMBER) or 1
            eligible = (self.expression(body["eligible"], path + ("eligible",), compiler.for_unit(True), kinds.BOOL)
                        if "eligible" in body else None)
            result[mid] = self.record(m.MovementMode, path, id=mid, name=body.get("name", mid), cost=cost, eligible=eligible,
                                      may_not_start_in=tuple(body.get("may_not_start_in", ())),
                                      may_not_enter=tuple(body.get("may_not_enter", ())))
        return result
