"""Build: where units start and how they arrive in a scenario or option, and the hexes whose holder is tracked.

A scenario's (or option's) `setup = { UNIT = HEX | free }` and `arrivals = { UNIT = TURN | { turn = N ... } }`
override the units' own set-up and arrival (rulec/engine/scenarios.py applies them); `holders` and
the movement block's `control_of` name hexes by zone, edge, hex or range (`area_hexes`).
Mixed into the Builder (build.py) like the other sections.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulec.check.fields import plain
from rulec.language.document import Path
from rulec.runtime import model as m


class ScenarioSections:
    """Builder methods for scenario and option overrides and tracked hexes (mixed into Builder)."""

    def area_hexes(self, value: Any, path: Path, game_map: m.MapDef | None) -> tuple[str, ...]:
        """The hexes of zones, edges, hex numbers and ranges (one, or a list), in the order written, each once."""
        items = value if isinstance(value, list) else [value]
        areas = {**game_map.zones, **game_map.edges} if game_map else {}
        found: list[str] = []
        for i, item in enumerate(items):
            here = path + (i,) if isinstance(value, list) else path
            if isinstance(item, str) and not item.isdigit():
                if game_map is not None and self.reference(item, areas, "zone", here):
                    found.extend(areas[item])
            else:
                found.extend(self.hex_list(item, here))
        return tuple(dict.fromkeys(found))

    def control_hexes(self, game_map: m.MapDef | None) -> tuple[str, ...]:
        """`movement { control_of = [...] }`: hexes whose holder is tracked besides those of 'holds' awards."""
        value = self.get(("movement", "control_of"))
        before = len(self.diagnostics)
        hexes = self.area_hexes(value, ("movement", "control_of"), game_map) if value is not None else ()
        self.control_of_failed = len(self.diagnostics) > before  # then no hex is called untracked for want of it
        return hexes

    def unit_overrides(self, body: dict, path: Path, units: dict, game_map: m.MapDef | None,
                       start_turn: int | None = None) -> tuple[dict[str, str | None], dict[str, m.Arrival]]:
        """A scenario's or option's `setup` and `arrivals`: unit -> set-up hex (None: free), unit -> its arrival.

        An arrival written as a turn is the unit's own arrival on that turn; `start_turn` (a scenario's)
        is the earliest turn an arrival may name."""
        owner = f"{path[0]} '{path[-1]}'"
        setup: dict[str, str | None] = {}
        for uid, value in (body.get("setup") or {}).items():
            where = path + ("setup", uid)
            if not self.reference(uid, units, "unit", where, key=True):
                continue
            setup[uid] = None if value == "free" else self.hex_ref(value, where)
        arrivals: dict[str, m.Arrival] = {}
        for uid, value in (body.get("arrivals") or {}).items():
            where = path + ("arrivals", uid)
            if not self.reference(uid, units, "unit", where, key=True):
                continue
            if uid in setup:
                self.error("setup-and-arrival", f"{owner} gives unit '{uid}' both a set-up and an arrival", where, key=True,
                           hint="a unit either starts on the map (setup) or arrives (arrivals)")
                continue
            if isinstance(value, dict):
                arrival = self.arrival(value, where, game_map)  # checked further with the units' own (references.py)
            elif isinstance(value, int) and not isinstance(value, bool):
                own = units[uid].arrives if units[uid] is not None else None
                if own is None:
                    self.error("scenario-arrival", f"unit '{uid}' has no arrival to schedule", where, key=True,
                               hint="give it a whole arrival here: { turn = N, area = ZONE_OR_EDGE }")
                    continue
                arrival = replace(own, turn=value)
            else:
                self.error("wrong-type", f"expected a turn or an arrival, found {plain(value)}", where)
                continue
            if start_turn is not None and arrival.turn is not None and arrival.turn < start_turn:
                self.error("arrival-before-start", f"unit '{uid}' arrives on turn {arrival.turn}, before {owner} "
                           f"starts on turn {start_turn}", where, key=True,
                           hint=f"a unit there from the start is set up: setup = {{ {uid} = HEX }}")
                continue
            arrivals[uid] = arrival
        return setup, arrivals

    def scenario_holders(self, body: dict, path: Path, sides: dict, game_map: m.MapDef | None,
                         tracked: frozenset[str]) -> dict[str, tuple[str, ...]]:
        """A scenario's `holders = { SIDE = [ZONE | HEX, ...] }`: hexes whose holder is tracked, by side."""
        result: dict[str, tuple[str, ...]] = {}
        taken: dict[str, str] = {}
        for side, value in (body.get("holders") or {}).items():
            where = path + ("holders", side)
            if not self.reference(side, sides, "side", where, key=True):
                continue
            hexes = self.area_hexes(value, where, game_map)
            untracked = [h for h in hexes if h not in tracked]
            if untracked and game_map is not None and not getattr(self, "control_of_failed", False):
                self.error("untracked-hex", f"the engine does not track who holds {', '.join(untracked[:5])}"
                           + (" ..." if len(untracked) > 5 else ""), where,
                           hint="list the hexes in movement { control_of = [...] } (or a holds(...) award)")
            for h in hexes:
                if taken.get(h, side) != side:
                    self.error("held-twice", f"hex {h} is held by both '{taken[h]}' and '{side}' at the start", where)
                taken[h] = side
            result[side] = tuple(h for h in hexes if h in tracked)
        return result

    def first_holder(self, sides: dict) -> str | None:
        """`movement { first_holder = SIDE }`: who holds the control_of hexes as the game starts."""
        value = self.get(("movement", "first_holder"))
        return self.reference(value, sides, "side", ("movement", "first_holder")) if value is not None else None
