"""What a compiled expression sees of a running game: the engine's EvalContext.

Every answer comes from the GameState's public queries (positions, units(),
status(), vp, turn, phase, holders, the moved and attacked sets, tables) and the
occupants of each hex (stacking.py); the map's geometry comes from ContextBase.
"""

from __future__ import annotations

from typing import Collection, Sequence

from rulec.engine import markers, stacking
from rulec.engine.position import Position
from rulec.engine.traces import traced_at, traced_flags, traced_hexes_without
from rulec.runtime.context import ContextBase, select_units
from rulec.runtime.model import Unit


class EngineContext(ContextBase):
    """A GameState as compiled expressions read it, about `unit` (the unit an award is about) if any."""

    def __init__(self, state: Position, unit: Unit | None = None,
                 marking: tuple[str | None, tuple[int, int]] | None = None):
        self._state = state
        self._marking = marking  # a marker's expiry being decided: (its unit's side or None, its stamp)
        self.game = state.game
        self.turn = state.turn
        self.turns = state.last_turn  # a scenario's length, or the game's
        phase = state.phase
        self.phase = phase.id
        self.phasing_side = phase.side or ""
        self.unit = unit

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None, status: str | None = None) -> Sequence[Unit]:
        state = self._state
        if status is None or status == "map":
            # Kept for the position: a condition asked of every unit (`must_attack`) may read units() each time.
            # A move or exit drops them as it changes where the unit stands (changes.py).
            kept = state._cache.get("units")
            if kept is None:
                kept = state._cache["units"] = {}
            key = (side, zone, hex, type, flag)
            found = kept.get(key)
            if found is None:
                # (each unit with its hex, paired in C; the game's zones merged only for a zone filter)
                placed = zip(map(state._units.__getitem__, state.pos), state.pos.values())
                zones = self._zones() if zone is not None else {}
                found = kept[key] = tuple(select_units(placed, zones, side, zone, hex, type, flag))
            return found
        if zone is not None or hex is not None:  # units off the map stand in no zone and no hex
            return []
        return [state.unit(uid) for uid in state.units(side=side, status=status)
                if (type is None or state.unit(uid).type == type) and (flag is None or flag in state.unit(uid).flags)]

    def _zones(self) -> dict[str, Collection[str]]:
        gmap = self._state.game.map
        if gmap is None:
            return {}
        return {**gmap.edges, **self._state.tables.zones}

    def unit_named(self, uid: str) -> Unit:
        return self._state.unit(uid)

    def units_at(self, hex: str) -> Sequence[Unit]:
        state = self._state  # the occupants of the position, worked out once (a trace asks of every hex)
        return [state.unit(uid) for uid in stacking.occupants(state).get(hex, ())]

    def sides_at(self, hex: str) -> Collection[str]:
        return stacking.occupant_sides(self._state).get(hex, ())  # no unit list built: a trace asks of every hex

    def hex_of(self, unit: Unit) -> str:
        return self._state.positions.get(unit.id, "")

    def status_of(self, unit: Unit) -> str:
        return self._state.status(unit.id)

    def exited_from(self, unit: Unit) -> str:
        return self._state.exited_from.get(unit.id, "")

    def objectives(self) -> Collection[str]:
        return self._state.tables.objectives

    def controller(self, hex: str) -> str:
        return self._state.holders.get(hex, "")

    def moved(self, unit: Unit) -> bool:
        return unit.id in self._state.moved

    def attacked(self, unit: Unit) -> bool:
        return unit.id in self._state.attacked

    def vp(self, side: str) -> int:
        return self._state.vp.get(side, 0)

    def option(self, name: str) -> bool:
        return name in self._state.options

    def variable(self, name: str) -> int | float | bool:
        return self._state.variables[name]

    # ------------------------------------------------------------ traces
    def enemy_zoc(self, side: str) -> Collection[str]:
        return self._state.enemy_zoc(side)

    def traced(self, trace: str, unit: Unit) -> bool:
        where = self._state.positions.get(unit.id)
        return where is not None and traced_at(self._state, trace, unit.side, where, EngineContext)

    def traced_hex(self, trace: str, side: str, hex: str) -> bool:
        state = self._state
        found = state._cache.get(("trace flags", trace, side))  # asked per destination of every move: the kept answer first
        if found is None:
            found = traced_flags(state, trace, side, EngineContext)
        return found[state.tables.index.get(hex, -1)] == 1  # (traces.traced_flags)

    def traced_without(self, trace: str, unit: Unit, units: Collection[Unit]) -> bool:
        state = self._state
        where = state.positions.get(unit.id)
        gone = frozenset(u.id for u in units if u.id != unit.id)  # the unit itself stays: it is the one tracing
        if not gone.intersection(state.positions):
            return self.traced(trace, unit)
        return where is not None and where in traced_hexes_without(state, trace, unit.side, gone, EngineContext)

    def awaiting_placement(self, unit: Unit) -> bool:
        return self._state.awaiting_placement(unit.id)

    def entry_open(self, unit: Unit) -> bool:
        """Whether a hex of the unit's entry area is free of enemy units and not `entry_blocked` for it."""
        arrival = unit.arrives
        if arrival is None:
            return False
        sides = stacking.occupant_sides(self._state)
        rule = self._state.game.movement.entry_blocked
        about = EngineContext(self._state, unit)
        about.keep_while_hex_varies()
        for h in arrival.hexes:
            if any(s != unit.side for s in sides.get(h, ())):
                continue
            about.hex = h
            if rule is None or not rule(about):
                return True
        return False

    # ------------------------------------------------------------ markers
    def marked(self, unit: Unit, marker: str) -> bool:
        return marker in markers.on_unit(self._state, unit.id)

    def marked_hex(self, hex: str, marker: str) -> bool:
        return marker in markers.on_hex(self._state, hex)

    def phases_since_marked(self, kind: str) -> int:
        if self._marking is None:
            return 0
        owner, stamp = self._marking
        state = self._state
        return markers.phases_since(state.game, stamp, (state.turn, state.phase_index), kind, owner)

    # ------------------------------------------------------------ history
    def scope(self, name: str) -> tuple[int, int]:
        return self._state.past.scope(name)

    def previous(self, kind: str) -> tuple[int, int]:
        return self._state.past.previous(kind)

    def did(self, event: str, unit: Unit, scope: tuple[int, int]) -> bool:
        return self._state.past.did(event, unit.id, scope)

    def entered(self, hex: str, scope: tuple[int, int]) -> bool:
        return self._state.past.was_entered(hex, scope)

    def last_to_enter(self, hex: str) -> str:
        return self._state.past.last_side.get(hex, "")
