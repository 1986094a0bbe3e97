"""What a compiled expression may ask of the game that runs it.

The expression compiler (rulec.compile.expressions, with its function table in
rulec.compile.functions) turns designer expressions into Python over one
argument `ctx`; whoever evaluates them (the engine, a player aid printing a VP
track, an AI weighing an award) passes an object with the `EvalContext` shape.
`ContextBase` answers what follows from the rest (the map's geometry, the
leader and the lead), so a context only supplies the primitive queries.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Container, Final, Iterable, Mapping, Protocol, Sequence, TypeVar

from mypy_extensions import mypyc_attr

from rulec.runtime.hexes import grid_distance
from rulec.runtime.model import Game, MapDef, Unit

# The distance to or from no hex (a unit off the map): farther than any range.
FAR: Final = 1_000_000
T = TypeVar("T")  # a part's value (EvalContext.once)


class EvalContext(Protocol):
    turn: int  # the current game turn, from 1
    turns: int  # the game's length in turns
    phase: str  # the current phase id
    phasing_side: str  # the side whose phase it is ("" in a phase of no side)
    unit: Unit | None  # the unit an award or condition is about (an exiting or eliminated unit)
    # A trace's `through` and `lost_when`: the hex entered (or the source) and the side tracing; movement's
    # may_end_move, entry_blocked and leave_zoc's into_zoc: the hex the move ends in, enters by, steps into.
    hex: str
    friendly: str
    from_hex: str  # a trace's `across`: the hex the step leaves (it enters `hex`)
    edge: str  # movement's `may_exit`: the map edge the unit would leave by
    # A unit modifier's `when`: "attack" or "defence" while the unit's strength in a battle is asked ("" otherwise).
    role: str
    # A battle modifier's `when`: the battle as declared.
    attackers: Sequence[Unit]
    defenders: Sequence[Unit]
    attacker_hexes: Sequence[str]
    defender_hexes: Sequence[str]
    attacker_side: str
    defender_side: str

    def once(self, key: str, part: Callable[[], T]) -> T:
        """The value of `part`, a part of a condition that does not read the hex: kept under `key` while a
        condition is asked of hex after hex (see ContextBase.known)."""
        ...

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None, status: str | None = None) -> Sequence[Unit]:
        """The units matching every filter given; only those on the map unless `status` is given."""
        ...

    def unit_named(self, uid: str) -> Unit:
        """The unit with this id, as it plays in this game."""
        ...

    def units_at(self, hex: str) -> Sequence[Unit]:
        """The units in a hex."""
        ...

    def sides_at(self, hex: str) -> Collection[str]:
        """The sides of the units in a hex (empty when none stands there)."""
        ...

    def hex_of(self, unit: Unit) -> str:
        """The hex a unit stands in; "" when it is not on the map."""
        ...

    def status_of(self, unit: Unit) -> str:
        """'map', 'pending', 'exited', 'eliminated' (or 'unused': not in this game)."""
        ...

    def exited_from(self, unit: Unit) -> str:
        """The hex a unit left the map from; "" if it has not left it."""
        ...

    def zone(self, name: str) -> Collection[str]:
        """The hexes of a zone or a map edge."""
        ...

    def objectives(self) -> Collection[str]:
        """The hexes whose holder (the side that last entered or passed through) is tracked."""
        ...

    def hexes(self, terrain: str | None = None, zone: str | None = None) -> Collection[str]:
        """The map's hexes with the terrain (base or feature) and in the zone or edge given."""
        ...

    def terrain(self, hex: str) -> str:
        """A hex's base terrain ("" for no hex)."""
        ...

    def has_terrain(self, hex: str, terrain: str) -> bool:
        """Whether a hex has a terrain, as base terrain or as a feature."""
        ...

    def adjacent(self, a: str, b: str) -> bool:
        ...

    def neighbours(self, hex: str) -> Collection[str]:
        """The hexes next to `hex` on the map."""
        ...

    def crossing(self, a: str, b: str, hexside_type: str) -> bool:
        """Whether the hexside between neighbours `a` and `b` carries the hexside type."""
        ...

    def distance(self, a: str, b: str) -> int:
        ...

    def distance_to(self, hexes: Collection[str], hex: str) -> int:
        """Hexes from the nearest of `hexes` to `hex` across the grid."""
        ...

    def controller(self, hex: str) -> str:
        """The side that last entered or passed through an objective hex ("" if none)."""
        ...

    def moved(self, unit: Unit) -> bool:
        """Whether the unit has moved in the current movement phase."""
        ...

    def attacked(self, unit: Unit) -> bool:
        """Whether the unit has attacked in the current combat phase."""
        ...

    def vp(self, side: str) -> int | float:  # (the AIs weigh fractional VP: compiled, an int would refuse them)
        """A side's victory points so far."""
        ...

    def option(self, name: str) -> bool:
        """Whether the option was chosen for this game."""
        ...

    def union(self, first: Collection, second: Collection) -> Sequence:
        """The members of both sets of units (or of hexes), those of `first` first."""
        ...

    def without(self, first: Collection, second: Collection) -> Sequence:
        """The members of `first` not in `second`."""
        ...

    def variable(self, name: str) -> int:
        """A game variable's value now (variable blocks): a number, or a flag (compiled expressions read a flag
        through bool(), so each reads the kind the checker typed it as; numbers are typed int as elsewhere)."""
        ...

    def enemy_zoc(self, side: str) -> Collection[str]:
        """The hexes in the zone of control of a unit of another side."""
        ...

    def traced(self, trace: str, unit: Unit) -> bool:
        """Whether the trace reaches the unit's hex from its side's sources."""
        ...

    def traced_hex(self, trace: str, side: str, hex: str) -> bool:
        """Whether the side's trace reaches the hex from its sources."""
        ...

    def traced_without(self, trace: str, unit: Unit, units: Collection[Unit]) -> bool:
        """Whether the trace would reach the unit's hex were `units` off the map."""
        ...

    def marked(self, unit: Unit, marker: str) -> bool:
        """Whether the unit carries the marker."""
        ...

    def awaiting_placement(self, unit: Unit) -> bool:
        """Whether the unit waits off the map for a placement phase (set up free)."""
        ...

    def entry_open(self, unit: Unit) -> bool:
        """Whether a hex of the unit's own entry area is open to it now (not enemy-occupied, not entry_blocked)."""
        ...

    def marked_hex(self, hex: str, marker: str) -> bool:
        """Whether the hex carries the marker."""
        ...

    def phases_since_marked(self, kind: str) -> int:
        """In a marker's expiry: the phases of kind (or id) `kind` begun and ended since it was put on."""
        ...

    def scope(self, name: str) -> tuple[int, int]:
        """A named scope of the history (this_phase, this_player_turn, ...) as a range of phase serials."""
        ...

    def previous(self, kind: str) -> tuple[int, int]:
        """The scope of the last ended phase of kind (or id) `kind`."""
        ...

    def did(self, event: str, unit: Unit, scope: tuple[int, int]) -> bool:
        """Whether the unit moved, attacked, defended or retreated (`event`) in the scope."""
        ...

    def entered(self, hex: str, scope: tuple[int, int]) -> bool:
        """Whether a unit ended a move, retreat or advance in the hex in the scope."""
        ...

    def last_to_enter(self, hex: str) -> str:
        """The side of the last unit to end a move, retreat or advance in the hex ("" if none)."""
        ...

    def lead(self) -> int | float:
        """The leader's VP minus the next side's."""
        ...

    def lead_ratio(self) -> float:
        """The leader's VP divided by the next side's."""
        ...

    def leader(self) -> str:
        """The side with most VP ("" on equal scores)."""
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


def objective_hexes(game: Game) -> tuple[str, ...]:
    """The hexes whose holder the engine tracks (`objectives`), in order: those of `holds` awards and of
    movement { control_of }."""
    return tuple(sorted({h for a in game.awards if a.trigger.kind == "holds" for h in a.trigger.hexes}
                        | set(game.movement.control_of)))


def zones_and_edges(gmap: MapDef) -> dict[str, tuple[str, ...]]:
    """A map's zones and edges by name: what `units(zone = ...)` may name."""
    return {**gmap.edges, **gmap.zones}


def ranked_scores(sides: Iterable[str], vp: Mapping[str, int | float]) -> list[str]:
    """The sides, most VP first (ties in the order the game lists its sides)."""
    order = list(sides)
    return sorted(order, key=lambda s: (-vp.get(s, 0), order.index(s)))


# ContextBase.known where nothing is kept: never written to
NOTHING_KNOWN: Final[dict[str, Any]] = {}

# id(game) -> (game, {set of hexes -> {hex -> distance from the set's nearest hex}}) for distance_to
_NEAREST: Final[dict[int, tuple[Any, dict]]] = {}
_NEAREST_SETS: Final = 256  # sets kept per game (the oldest half is dropped beyond that)


# id(map) -> (map, {(terrain, id(zone)) -> (zone, the hexes of `hexes(terrain, zone)`)})
_HEXES: Final[dict[int, tuple[Any, dict]]] = {}
_HEXES_KEPT: Final = 256  # lists kept per map (all dropped beyond that)


def _kept_for(kept_by_id: dict[int, tuple[Any, dict]], owner: Any) -> dict:
    """The dict kept for `owner` (a game, its map) in `kept_by_id`, by its id (checked: an id may be reused)."""
    kept = kept_by_id.get(id(owner))
    if kept is None or kept[0] is not owner:
        if len(kept_by_id) > 64:
            kept_by_id.clear()
        kept = kept_by_id[id(owner)] = (owner, {})
    return kept[1]


def _nearest(game: Game, hexes: Collection[str]) -> dict[str, int]:
    """The table of distances from the nearest hex of `hexes`, filled as distance_to asks."""
    tables = _kept_for(_NEAREST, game)
    same = tables.get(id(hexes))  # a zone or an edge: the game's own collection, the same object every time
    if same is not None and same[0] is hexes:
        return same[1]
    key = hexes if isinstance(hexes, frozenset) else frozenset(hexes)
    table = tables.get(key)
    if table is None:
        if len(tables) >= _NEAREST_SETS:
            for old in list(tables)[: _NEAREST_SETS // 2]:
                del tables[old]
        table = tables[key] = {}
        tables[id(hexes)] = (hexes, table)  # keeps `hexes` alive, so its id is not reused while kept
    return table


def _key(member: Unit | str) -> str:
    """What makes two members of a set the same: a unit's id (a unit flipped to another side is the same unit)."""
    return member if isinstance(member, str) else member.id


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (make fast): engine/scores_context.py's ScoresContext is not
class ContextBase:
    """What every context answers the same way from the game and the scores.

    A subclass sets `game` and supplies `vp` and the position queries.
    """

    game: Game | None
    # Set only while a trace or a battle modifier is evaluated (the names of those fields).
    hex: str = ""
    friendly: str = ""
    from_hex: str = ""
    edge: str = ""
    role: str = ""
    attackers: Sequence[Unit] = ()
    defenders: Sequence[Unit] = ()
    attacker_hexes: Sequence[str] = ()
    defender_hexes: Sequence[str] = ("",)
    attacker_side: str = ""
    defender_side: str = ""

    # What the parts of a condition that do not read the hex it is asked about came to, while it is asked of hex
    # after hex in one position about one unit (keep_while_hex_varies): worked out at the first hex, read at the
    # others. The compiler writes such a part of a condition about a hex (movement's may_end_move, a trace's
    # through, a retreat's prefer ...) as `ctx.once(K, lambda: PART)`, K a digest of the part's Python.
    # Elsewhere nothing is kept: `known` is NOTHING_KNOWN, never written to.
    known: dict[str, Any] = NOTHING_KNOWN

    def once(self, key: str, part: Callable[[], T]) -> T:
        """The value of `part` (a part of a condition, named by `key`): kept while the hex varies."""
        known = self.known
        if known is NOTHING_KNOWN:
            return part()
        if key in known:
            kept: T = known[key]
            return kept
        value = known[key] = part()
        return value

    def keep_while_hex_varies(self) -> None:
        """Keep what conditions' parts that do not read the hex come to, from now on: the caller asks them with
        nothing of this context changed but `hex` (and a step's `from_hex`), in a position that does not change."""
        self.known = {}

    def vp(self, side: str) -> int | float:
        raise NotImplementedError

    def units_at(self, hex: str) -> Sequence[Unit]:
        raise NotImplementedError  # each context answers it (sides_at below asks it)

    def sides_at(self, hex: str) -> Collection[str]:
        return {unit.side for unit in self.units_at(hex)}  # a context that keeps the sides per hex answers faster

    # ------------------------------------------------------------ scores
    def _ranked(self) -> list[str]:
        sides = list(self.game.sides) if self.game is not None else []
        return ranked_scores(sides, {side: self.vp(side) for side in sides})

    def leader(self) -> str:
        ranked = self._ranked()
        if not ranked or (len(ranked) > 1 and self.vp(ranked[0]) == self.vp(ranked[1])):
            return ""
        return ranked[0]

    def lead(self) -> int | float:
        ranked = self._ranked()
        if not ranked:
            return 0
        return self.vp(ranked[0]) - (self.vp(ranked[1]) if len(ranked) > 1 else 0)

    def lead_ratio(self) -> float:
        ranked = self._ranked()
        if not ranked:
            return 1.0
        first, second = self.vp(ranked[0]), (self.vp(ranked[1]) if len(ranked) > 1 else 0)
        if second == 0:
            return float("inf") if first else 1.0
        return first / second

    # ------------------------------------------------------------ the map
    def zone(self, name: str) -> Collection[str]:
        gmap = self.game.map if self.game is not None else None
        if gmap is None:
            return ()
        return gmap.zones.get(name) or gmap.edges.get(name, ())

    def terrain(self, hex: str) -> str:
        gmap = self.game.map if self.game is not None else None
        found = gmap.terrain.get(hex, ()) if gmap is not None else ()
        return found[0] if found else ""

    def has_terrain(self, hex: str, terrain: str) -> bool:
        gmap = self.game.map if self.game is not None else None
        return gmap is not None and terrain in gmap.terrain.get(hex, ())

    def adjacent(self, a: str, b: str) -> bool:
        gmap = self.game.map if self.game is not None else None
        return gmap is not None and b in gmap.neighbours.get(a, {}).values()

    def neighbours(self, hex: str) -> Collection[str]:
        gmap = self.game.map if self.game is not None else None
        return tuple(gmap.neighbours.get(hex, {}).values()) if gmap is not None else ()

    def crossing(self, a: str, b: str, hexside_type: str) -> bool:
        gmap = self.game.map if self.game is not None else None
        return gmap is not None and hexside_type in gmap.features_between(a, b)

    def distance(self, a: str, b: str) -> int:
        gmap = self.game.map if self.game is not None else None
        if gmap is None or a not in gmap.coordinates or b not in gmap.coordinates:
            return FAR
        return grid_distance(gmap.grid, gmap.coordinates[a], gmap.coordinates[b])

    def distance_to(self, hexes: Collection[str], hex: str) -> int:
        """Hexes from the nearest of `hexes` to `hex` across the grid (FAR for an empty set or no hex).

        Worked out once per set and hex and kept with the game (`_nearest`): a zone or an edge is the
        same collection every time, so the cost of a set is paid once per game.
        """
        if self.game is None:
            return FAR
        table = _nearest(self.game, hexes)
        found = table.get(hex)
        if found is None:
            found = table[hex] = min((self.distance(a, hex) for a in hexes), default=FAR)
        return found

    def hexes(self, terrain: str | None = None, zone: str | None = None) -> Collection[str]:
        gmap = self.game.map if self.game is not None else None
        if gmap is None:
            return ()
        area = self.zone(zone) if zone is not None else None
        kept = _kept_for(_HEXES, gmap)  # (a placement phase asks it at every step: the map is scanned once)
        found = kept.get((terrain, id(area)))
        if found is not None and found[0] is area:
            return found[1]
        hexes = tuple(h for h in gmap.hexes if (terrain is None or terrain in gmap.terrain.get(h, ()))
                      and (area is None or h in area))
        if len(kept) >= _HEXES_KEPT:
            kept.clear()
        kept[(terrain, id(area))] = (area, hexes)  # keeps `area` alive, so its id is not reused while kept
        return hexes

    def objectives(self) -> Collection[str]:
        if self.game is None:
            return ()
        return objective_hexes(self.game)

    def unit_named(self, uid: str) -> Unit:
        assert self.game is not None
        return self.game.units[uid]

    # ------------------------------------------------------------ sets
    def union(self, first: Collection, second: Collection) -> list:
        """`A + B`: the members of A, then those of B not in A (units compared by id, hexes by number)."""
        seen = {_key(x) for x in first}
        return [*first, *(x for x in second if _key(x) not in seen)]

    def without(self, first: Collection, second: Collection) -> list:
        """`A - B`: the members of A not in B, in A's order."""
        gone = {_key(x) for x in second}
        return [x for x in first if _key(x) not in gone]

    # Outside a running game (an aid, an AI weighing a made-up position): no option chosen, variables at their start.
    def option(self, name: str) -> bool:
        return False

    def variable(self, name: str) -> int | float | bool:
        assert self.game is not None
        return self.game.variables[name].initial


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (make fast): players/final_awards.py's ProbeContext is not
class StandInContext(ContextBase):
    """An EvalContext for a made-up position, to weigh an award outside a running game.

    Only the `placed` units ((unit, hex) pairs) are on the map, none has moved or
    attacked, no hex has a holder; the turn is `turn` and also the game's length;
    the phasing side is `unit`'s; every side has 0 VP. With `game` the map's
    geometry and terrain answer as in play; without it there is no map.
    """

    def __init__(self, unit: Unit | None = None, turn: int = 1, placed: Iterable[tuple[Unit, str]] = (),
                 zones: Mapping[str, Container[str]] | None = None, game: Game | None = None):
        self.game = game
        self.unit = unit
        self.turn = turn
        self.turns = turn
        self.phase = ""
        self.phasing_side = unit.side if unit else ""
        self._placed = list(placed)
        self._zones = zones if zones is not None else (zones_and_edges(game.map) if game is not None and game.map else {})

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None, status: str | None = None) -> Sequence[Unit]:
        if status not in (None, "map"):
            return []
        return select_units(self._placed, self._zones, side, zone, hex, type, flag)

    def units_at(self, hex: str) -> Sequence[Unit]:
        return [unit for unit, where in self._placed if where == hex]

    def hex_of(self, unit: Unit) -> str:
        return next((where for placed, where in self._placed if placed.id == unit.id), "")

    def status_of(self, unit: Unit) -> str:
        return "map" if self.hex_of(unit) else "unused"

    def exited_from(self, unit: Unit) -> str:
        return ""

    def zone(self, name: str) -> Collection[str]:
        found = self._zones.get(name)
        return found if isinstance(found, Collection) else super().zone(name)

    def controller(self, hex: str) -> str:
        return ""

    def moved(self, unit: Unit) -> bool:
        return False

    def attacked(self, unit: Unit) -> bool:
        return False

    def vp(self, side: str) -> int | float:
        return 0

    def enemy_zoc(self, side: str) -> Collection[str]:
        return ()  # a made-up position: no zone of control is worked out

    def traced(self, trace: str, unit: Unit) -> bool:
        return True  # a made-up position traces everywhere (no trace is searched)

    def traced_hex(self, trace: str, side: str, hex: str) -> bool:
        return True

    def traced_without(self, trace: str, unit: Unit, units: Collection[Unit]) -> bool:
        return True

    # A made-up position carries no marker and has no history.
    def marked(self, unit: Unit, marker: str) -> bool:
        return False

    def awaiting_placement(self, unit: Unit) -> bool:
        return False

    def entry_open(self, unit: Unit) -> bool:
        return unit.arrives is not None and bool(unit.arrives.hexes)  # no enemy in the way of a made-up position

    def marked_hex(self, hex: str, marker: str) -> bool:
        return False

    def phases_since_marked(self, kind: str) -> int:
        return 0

    def scope(self, name: str) -> tuple[int, int]:
        return (0, 0)

    def previous(self, kind: str) -> tuple[int, int]:
        return (0, 0)

    def did(self, event: str, unit: Unit, scope: tuple[int, int]) -> bool:
        return False

    def entered(self, hex: str, scope: tuple[int, int]) -> bool:
        return False

    def last_to_enter(self, hex: str) -> str:
        return ""
