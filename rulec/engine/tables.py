"""Precomputed, read-only tables of one game: everything the engine looks up in its inner loops.

Built once per `Game` (see `tables_for`) and shared by every state of that game, so
that a `GameState` itself stays a few flat dicts and sets that are cheap to copy.
Nothing here names a particular game: every number comes from the model.

Everything built up front is linear in the hexes (a few entries per hex and hexside):
what would grow with hexes squared (distances between hexes, a bit set per hex) or
with hexes times units (each unit's move actions) is made when first asked for.
benchmarks/scaling.py measures it.
"""

from __future__ import annotations

from typing import Final

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rulec.engine.actions import Action
from rulec.engine.hex_bits import Steps
from rulec.engine.step_costs import (IMPASSABLE, CostResolver, EntryCost, StepCosts, build_mode_costs, build_step_costs,
                                     cost_expressions, typed_costs)
from rulec.runtime.context import StandInContext, objective_hexes
from rulec.runtime.errors import UNANSWERED_OUTSIDE_PLAY, UNWEIGHABLE
from rulec.runtime.model import Expr, Game, Hex, HexGrid, MovementMode, Unit, hexside_key

__all__ = ["IMPASSABLE", "EntryCost", "Tables", "tables_for", "Distances"]

@dataclass
class Tables:
    game: Game
    hexes: tuple[Hex, ...]
    neighbours: dict[Hex, tuple[Hex, ...]]
    distance: "Distances"  # distance[a][b]: steps from a to b (worked out when asked, see Distances)
    river_sides: frozenset[str]  # hexsides that block a retreat
    advance_blocked: frozenset[str]  # hexsides that block an advance after combat
    zoc_into: dict[Hex, tuple[Hex, ...]]  # the hexes a unit in the key hex controls
    # unit type -> hex -> the hexes its unit there controls, for the types whose ZOC reaches across
    # hexsides that block other units' (`unit_type { zoc_across }`); other types use zoc_into
    zoc_into_typed: dict[str, dict[Hex, tuple[Hex, ...]]]
    edges_of: dict[Hex, tuple[str, ...]]  # the map edges a hex lies on
    zones: dict[str, frozenset[Hex]]
    hex_shift: dict[Hex, tuple[int, int]]  # (column shift, drm) of the defender's terrain
    hexside_combat: dict[str, tuple[tuple[int, int, str], ...]]  # hexside -> (shift, drm, when) per feature
    objectives: tuple[Hex, ...]  # hexes of 'holds' awards (whose holder the engine tracks)
    mask_rank: tuple[int, ...]  # objectives mask -> how much a path through them is worth (higher is better)
    unit_names: dict[str, str]  # how players name a unit (lower case) -> unit id
    unit_order: dict[str, int]  # unit id -> position in the game file (a stable order)
    short_name: dict[str, str] = field(default_factory=dict)  # unit id -> the name actions print
    steps: dict[Hex, tuple[tuple[Hex, int, bool], ...]] = field(default_factory=dict)  # hex -> (neighbour, MP, river)
    # What steps cost (see step_costs.py): the chart's own costs (`base_costs`, expressions evaluated on
    # turn 1), and those of each unit type and phase values, made when first asked for (`costs_for`).
    base_costs: StepCosts = field(init=False)  # made by __post_init__
    hex_cost: dict[Hex, int] = field(default_factory=dict)  # base_costs': MP to enter the hex off-road
    entry: dict[tuple[Hex, Hex], EntryCost] = field(default_factory=dict)  # base_costs'
    exit_cost: dict[tuple[Hex, str], int] = field(default_factory=dict)  # base_costs': (hex, edge) -> MP to leave there
    offmap_entry_cost: dict[Hex, int] = field(default_factory=dict)  # base_costs': MP to enter the hex from off the map
    cost_expressions: tuple = ()  # the costs written as expressions, evaluated as each phase begins
    base_values: tuple = ()  # their values on turn 1 outside play (base_costs')
    typed_costs: frozenset[str] = frozenset()  # unit types with costs of their own
    varying_costs: bool = False  # does any unit type or phase have costs other than base_costs?
    step_costs: dict = field(default_factory=dict)  # (unit type or None, values) -> StepCosts
    reach_cache: dict = field(default_factory=dict)  # movement searches shared by every state (see GameState)
    # What each trace's conditions on the map alone fold to, for a side (traces._steps, trace_sets._of_the_map): the
    # same in every game played on these tables (an option chosen for a game is not on the map alone)
    trace_folds: dict = field(default_factory=dict)

    # The movement search works on hex numbers 0..n-1, in hex order (list lookups are faster than dict
    # lookups, and a set of hexes can be the bits of an int):
    numbered: tuple[Hex, ...] = ()  # number -> hex (the hexes sorted)
    index: dict[Hex, int] = field(default_factory=dict)  # hex -> its number
    hex_bit: dict[Hex, int] = field(default_factory=dict)  # hex -> 1 << its number (made on first use)
    index_bit: list = field(default_factory=list)  # number -> its objective bit (0 if none, or if passing does not count)
    objective_set: frozenset[Hex] = frozenset()  # `objectives` as a set (a big map has dozens: asked at every move)
    zoc_bits: dict[Hex, int] = field(default_factory=dict)  # hex -> the hexes a unit there controls, as bits
    zoc_bits_typed: dict[str, dict[Hex, int]] = field(default_factory=dict)  # the same per zoc_into_typed type
    zoc_sources: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict)  # hex -> the hexes whose units may control it
    # (made on first use: a table of every hex's bits would grow with hexes squared)
    number_sets: dict = field(default_factory=dict)  # frozenset of hexes -> frozenset of their numbers
    boards: dict = field(default_factory=dict)  # what stands in the way of searches (movement.Board)
    # Lists of a -1 for each hex that movement searches borrow and give back as they were (movement.search): a
    # search then costs what it reaches, not the size of the map
    search_arrays: list = field(default_factory=list)
    area_bits: dict = field(default_factory=dict)  # hex number -> it and its neighbours, as bits (movement.reach_of)
    move_rows: dict = field(default_factory=dict)  # unit -> number -> its move Action (see movement_row)
    exit_rows: dict = field(default_factory=dict)  # (unit, edges) -> its exit Actions; unit -> its delay Action
    sight: dict = field(default_factory=dict)  # ranged attacks: what each hex sees (engine/sight.py)
    attack_actions: dict = field(default_factory=dict)  # (hex, attackers) -> the attack Actions on it (GameState)
    retreat_blocked: frozenset = frozenset()  # (hex, neighbour) pairs across a hexside in river_sides
    # What retreats count steps by, kept for the game: edge hexes -> hex -> steps to the nearest (toward an edge),
    # ("rows", edge) -> rows to it (retreats._rows_to_edge), ("steps", hex) -> the steps from it (combat.steps_from)
    edge_distances: dict = field(default_factory=dict)
    advance_blocked_for: dict[str, frozenset[str]] = field(default_factory=dict)  # attacker|defender -> more such hexsides
    units_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> its unit ids, in game-file order
    first_movement: dict[str, int] = field(default_factory=dict)  # side -> index of its first movement phase
    _map_steps: dict[bool, Steps] = field(default_factory=dict, init=False, repr=False, compare=False)  # map_steps'

    def __post_init__(self) -> None:
        self.numbered = tuple(sorted(self.hexes))
        self.index = {h: i for i, h in enumerate(self.numbered)}
        self.hex_bit = _BitsOf(self.index)
        self.area_bits = _AreaBitsOf(self.numbered, self.index, self.neighbours)
        self.zoc_bits = _ZocBitsOf(self.index, self.zoc_into)
        self.zoc_bits_typed = {t: _ZocBitsOf(self.index, into) for t, into in self.zoc_into_typed.items()}
        self.zoc_sources = _reversed(self.zoc_into, *self.zoc_into_typed.values())
        # Only where passing through an objective takes it does the search track the objectives a path passes.
        passing = self.game.movement.control == "pass_through"
        bits = {h: 1 << i for i, h in enumerate(self.objectives)} if passing else {}
        self.index_bit = [bits.get(h, 0) for h in self.numbered]
        self.objective_set = frozenset(self.objectives)
        self.cost_expressions = cost_expressions(self.game)
        self.typed_costs = typed_costs(self.game)
        self.varying_costs = bool(self.cost_expressions or self.typed_costs)
        self.base_values = tuple(_stand_in_value(e, self.game) for e in self.cost_expressions)
        base = self.base_costs = self.costs_for(None, self.base_values)
        self.hex_cost, self.entry, self.exit_cost = base.hex_cost, base.entry, base.exit_cost
        self.offmap_entry_cost = base.offmap_entry_cost
        self.steps = {h: tuple((n, self.entry[(h, n)].cost, self.entry[(h, n)].river) for n in ns)
                      for h, ns in self.neighbours.items()}
        self.retreat_blocked = frozenset((a, b) for a, ns in self.neighbours.items() for b in ns
                                         if hexside_key(a, b) in self.river_sides)
        self.units_of = {side: tuple(u for u, unit in self.game.units.items() if unit.side == side)
                         for side in self.game.sides}
        for i, phase in enumerate(self.game.sequence):
            if phase.kind == "movement" and phase.side is not None:
                self.first_movement.setdefault(phase.side, i)

    def map_steps(self, backward: bool = False) -> Steps:
        """A step from each hex to each of its neighbours (or, `backward`, from each neighbour to the hex), over hex
        numbers (hex_bits.Steps): the same in every game played on the map, made once for all of them."""
        found = self._map_steps.get(backward)
        if found is None:
            ways = self.neighbours
            if backward:
                into: dict[Hex, list[Hex]] = {}
                for h, around in self.neighbours.items():
                    for n in around:
                        into.setdefault(n, []).append(h)
                ways = {n: tuple(hs) for n, hs in into.items()}
            found = self._map_steps[backward] = Steps(ways, self.index)
        return found

    def costs_for(self, unit_type: str | None, values: tuple) -> StepCosts:
        """The step costs of units of `unit_type` when the cost expressions have `values`, made once per pair."""
        key = (unit_type if unit_type in self.typed_costs else None, values)
        found = self.step_costs.get(key)
        if found is None:
            self._make_room()
            found = self.step_costs[key] = build_step_costs(self, key[0], CostResolver(self.cost_expressions, values))
        return found

    def _make_room(self) -> None:
        """Bound the step tables kept (cost expressions reading the position could make many): drop the oldest half."""
        if len(self.step_costs) >= STEP_COSTS_KEPT:
            for old in list(self.step_costs)[: STEP_COSTS_KEPT // 2]:
                if old[0] != "hexsides" and self.step_costs[old] is not self.base_costs:
                    del self.step_costs[old]

    def mode_costs_for(self, mode: MovementMode, values: tuple) -> StepCosts:
        """The step costs of a move in `mode` when the cost expressions have `values`, made once per pair."""
        key = ("mode", mode.id, values)
        found = self.step_costs.get(key)
        if found is None:
            cost = mode.cost
            if isinstance(cost, Expr):
                cost = values[next(i for i, e in enumerate(self.cost_expressions) if e is cost)]
            self._make_room()
            found = self.step_costs[key] = build_mode_costs(self, mode, cost)
        return found

    def hexsides_of(self, types: tuple[str, ...]) -> frozenset[str]:
        """The hexsides carrying a feature of one of the hexside `types`, made once per tuple."""
        key = ("hexsides", types)
        found = self.step_costs.get(key)
        if found is None:
            assert self.game.map is not None  # the engine plays map games
            features = self.game.map.hexside_features
            found = self.step_costs[key] = frozenset(k for k, fs in features.items() if any(f in types for f in fs))
        return found

    def movement_row(self, uid: str) -> dict[int, Action]:
        """The move Actions of one unit by hex number, made once and shared by every state."""
        row = self.move_rows.get(uid)
        if row is None:
            row = self.move_rows[uid] = _MoveRow(uid, self.numbered)
        return row


    def delay_action(self, uid: str) -> Action:
        """The delay Action of one unit, made once."""
        found = self.exit_rows.get(uid)
        if found is None:
            found = self.exit_rows[uid] = Action.delay(uid)
        return found

    def exit_actions(self, uid: str, edges: tuple[str, ...]) -> tuple[Action, ...]:
        """The exit Actions of one unit by the given edges, made once and shared by every state."""
        found = self.exit_rows.get((uid, edges))
        if found is None:
            found = self.exit_rows[(uid, edges)] = tuple(Action.exit(uid, e) for e in edges)
        return found


_CACHE: Final[dict[int, tuple[Game, Tables]]] = {}
# How many sets of step costs a game's tables keep (see Tables.costs_for).
STEP_COSTS_KEPT: Final = 64


def tables_for(game: Game) -> Tables:
    """The tables of `game`, built on first use (keyed by identity: models are immutable)."""
    hit = _CACHE.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    tables = _build(game)
    _CACHE[id(game)] = (game, tables)
    return tables


def _build(game: Game) -> Tables:
    gmap = game.map
    if gmap is None:
        raise ValueError(f"game '{game.info.id}' has no map; the map engine cannot play it")
    hexes = tuple(gmap.hexes)
    neighbours = {h: tuple(gmap.neighbours.get(h, {}).values()) for h in hexes}
    distance = Distances(neighbours, _axial_coordinates(gmap.grid, gmap.coordinates, neighbours))

    river_sides, advance_blocked = set(), set()
    hexside_combat: dict[str, tuple[tuple[int, int, str], ...]] = {}
    advance_blocked_for: dict[str, set[str]] = {}
    for key, feature_ids in gmap.hexside_features.items():
        features = [game.hexside_types[f] for f in feature_ids if f in game.hexside_types]
        for feature in features:
            if feature.blocks_retreat:
                river_sides.add(key)
            if feature.blocks_advance is True:
                advance_blocked.add(key)
            elif feature.blocks_advance:  # only that side's units may not advance across it
                advance_blocked_for.setdefault(feature.blocks_advance, set()).add(key)
        combat = tuple((f.combat_shift, f.combat_drm, f.combat_when) for f in features if f.combat_shift or f.combat_drm)
        if combat:
            hexside_combat[key] = combat

    zoc_free_hexes = {h for h in hexes if any(game.terrain[t].blocks_zoc for t in gmap.terrain.get(h, ()) if t in game.terrain)}

    def zoc_into_across(across: tuple[str, ...]) -> dict[Hex, tuple[Hex, ...]]:
        """hex -> the hexes a unit there controls, its ZOC reaching across the hexside types `across`."""
        blocked = _zoc_blocked(game, across)
        return {h: tuple(n for n in neighbours[h] if hexside_key(h, n) not in blocked and n not in zoc_free_hexes)
                for h in hexes}

    zoc_into = zoc_into_across(())
    zoc_into_typed = {t: zoc_into_across(kind.zoc_across) for t, kind in game.unit_types.items() if kind.zoc_across}

    edges_of: dict[Hex, list[str]] = {}
    for edge, edge_hexes in gmap.edges.items():
        directions = gmap.edge_directions.get(edge, ())
        for h in edge_hexes:
            if any(d not in gmap.neighbours.get(h, {}) for d in directions):
                edges_of.setdefault(h, []).append(edge)

    hex_shift = {h: _terrain_combat(game, gmap.terrain.get(h, ())) for h in hexes}
    objectives = objective_hexes(game)  # (those of awards, and the hexes tracked for no award)
    mask_rank = _mask_rank(game, objectives)
    unit_names, short_name = _unit_names(game.units)
    return Tables(
        game=game, hexes=hexes, neighbours=neighbours, distance=distance,
        river_sides=frozenset(river_sides), advance_blocked=frozenset(advance_blocked), zoc_into=zoc_into,
        zoc_into_typed=zoc_into_typed,
        advance_blocked_for={who: frozenset(keys) for who, keys in advance_blocked_for.items()},
        edges_of={h: tuple(e) for h, e in edges_of.items()},
        zones={z: frozenset(hs) for z, hs in gmap.zones.items()}, hex_shift=hex_shift,
        hexside_combat=hexside_combat, objectives=objectives, mask_rank=mask_rank, unit_names=unit_names,
        unit_order={uid: i for i, uid in enumerate(game.units)}, short_name=short_name,
    )


def _zoc_blocked(game: Game, across: tuple[str, ...]) -> set[str]:
    """The hexsides no zone of control extends across (`blocks_zoc`, or a river without zoc_across_rivers),
    leaving out the features of the hexside types in `across` (a unit type's `zoc_across`)."""
    blocked = set()
    assert game.map is not None  # the engine plays map games
    for key, feature_ids in game.map.hexside_features.items():
        for f in feature_ids:
            feature = game.hexside_types.get(f)
            if feature is not None and f not in across and (
                    feature.blocks_zoc or (feature.kind == "river" and not game.movement.zoc_across_rivers)):
                blocked.add(key)
    return blocked


def _stand_in_value(expression: Expr, game: Game) -> float:
    """A cost expression's value outside play (turn 1, no unit on the map), for the chart's own costs."""
    try:
        return expression(StandInContext(game=game))
    except UNANSWERED_OUTSIDE_PLAY:  # an expression that needs more of a real game than the stand-in offers: 1 MP
        return 1


def _mask_rank(game: Game, objectives: tuple[Hex, ...]) -> tuple[int, ...]:
    """Rank every set of objectives a path may pass: by VP at stake, then by count.

    A move passes through the objectives that are worth most to the mover (taking a
    hex's award, or taking it away from the enemy, both count its value).
    """
    if len(objectives) > 12:
        return ()
    weight = []
    for h in objectives:
        total = 0
        for award in game.awards:
            if award.trigger.kind == "holds" and h in award.trigger.hexes:
                try:
                    total += abs(int(award.amount(StandInContext())))
                except UNWEIGHABLE:  # an amount that needs a real game, or no number: count it as 1
                    total += 1
        weight.append(total)
    keys = [(sum(w for i, w in enumerate(weight) if m >> i & 1), m.bit_count(), -m) for m in range(1 << len(objectives))]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    rank = [0] * len(keys)
    for position, mask in enumerate(order):
        rank[mask] = position
    return tuple(rank)


class _BitsOf(dict):
    """hex -> 1 << its number, each made when first asked for."""

    def __init__(self, index: dict[Hex, int]):
        super().__init__()
        self.index = index

    def __missing__(self, h: Hex) -> int:
        bit = self[h] = 1 << self.index[h]
        return bit


class _AreaBitsOf(dict):
    """hex number -> the bits of it and of its neighbours (all a search step from it may look at), each made when
    first asked for: a table of every hex's would grow with hexes squared."""

    def __init__(self, numbered: tuple[Hex, ...], index: dict[Hex, int], neighbours: dict[Hex, tuple[Hex, ...]]):
        super().__init__()
        self.numbered, self.index, self.neighbours = numbered, index, neighbours

    def __missing__(self, number: int) -> int:
        index = self.index
        bits = 1 << number
        for n in self.neighbours[self.numbered[number]]:
            bits |= 1 << index[n]
        self[number] = bits
        return bits


def _reversed(*tables: dict[Hex, tuple[Hex, ...]]) -> dict[Hex, tuple[Hex, ...]]:
    """hex -> the hexes whose entries in any of `tables` (hex -> hexes) name it."""
    found: dict[Hex, dict[Hex, None]] = {}
    for table in tables:
        for x, hexes in table.items():
            for h in hexes:
                found.setdefault(h, {})[x] = None
    return {h: tuple(xs) for h, xs in found.items()}


class _ZocBitsOf(dict):
    """hex -> the hexes a unit there controls, as bits of hex numbers, each made when first asked for."""

    def __init__(self, index: dict[Hex, int], zoc_into: dict[Hex, tuple[Hex, ...]]):
        super().__init__()
        self.index, self.zoc_into = index, zoc_into

    def __missing__(self, h: Hex) -> int:
        bits = 0
        for n in set(self.zoc_into[h]):
            bits |= 1 << self.index[n]
        self[h] = bits
        return bits


class _MoveRow(dict):
    """hex number -> one unit's move Action to that hex, each made when first asked for (and shared): the one store
    of a unit's moves (a unit's first listing on a big map makes one for every hex it reaches)."""

    def __init__(self, uid: str, numbered: tuple[Hex, ...]):
        super().__init__()
        self.uid, self.numbered = uid, numbered

    def __missing__(self, number: int) -> Action:
        action = self[number] = Action.move(self.uid, self.numbered[number])
        return action


# How many hexes' rows of distances a game keeps (the oldest half is dropped beyond that).
DISTANCE_ROWS = 512


class Distances(Mapping):
    """Steps between hexes along the map's adjacencies, worked out only when asked: `distances[a][b]`.

    A table of every pair would grow with hexes squared. On a whole hex grid (no hex
    missing) the distance is closed-form from the hexes' axial coordinates; otherwise a
    breadth-first search from `a` runs only as far as the farthest hex asked about.
    A hex that cannot be reached is not in the row (`row.get(b)` is None).
    """

    def __init__(self, neighbours: dict[Hex, tuple[Hex, ...]], axial: dict[Hex, tuple[int, int]] | None):
        self.neighbours, self.axial = neighbours, axial
        self.rows: dict[Hex, Mapping] = {}

    def __getitem__(self, a: Hex) -> Mapping:
        row = self.rows.get(a)
        if row is None:
            if a not in self.neighbours:
                raise KeyError(a)
            if len(self.rows) >= DISTANCE_ROWS:
                for old in list(self.rows)[: DISTANCE_ROWS // 2]:
                    del self.rows[old]
            row = self.rows[a] = _AxialRow(a, self.axial) if self.axial is not None else _SearchRow(a, self.neighbours)
        return row

    def __contains__(self, a: object) -> bool:
        return a in self.neighbours

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.neighbours)

    def __len__(self) -> int:
        return len(self.neighbours)

    def between(self, a: Hex, b: Hex) -> int | None:
        """Steps from `a` to `b`, None if `b` cannot be reached."""
        return self[a].get(b)


class _AxialRow(Mapping):
    """Distances from one hex of a whole grid, from axial coordinates."""

    __slots__ = ("axial", "q", "r")

    def __init__(self, a: Hex, axial: dict[Hex, tuple[int, int]]):
        self.axial = axial
        self.q, self.r = axial[a]

    def __getitem__(self, b: Hex) -> int:
        q, r = self.axial[b]
        dq, dr = q - self.q, r - self.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def get(self, b: Hex, default=None):
        found = self.axial.get(b)
        if found is None:
            return default
        dq, dr = found[0] - self.q, found[1] - self.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def __contains__(self, b: object) -> bool:
        return b in self.axial

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.axial)

    def __len__(self) -> int:
        return len(self.axial)


class _SearchRow(Mapping):
    """Distances from one hex by a breadth-first search, taken only as far as the hexes asked about."""

    def __init__(self, a: Hex, neighbours: dict[Hex, tuple[Hex, ...]]):
        self.neighbours = neighbours
        self.found = {a: 0}
        self.frontier = deque([a])

    def get(self, b: Hex, default=None):
        found = self.found
        if b in found:
            return found[b]
        if b not in self.neighbours:
            return default
        neighbours, frontier = self.neighbours, self.frontier
        while frontier:
            h = frontier.popleft()
            step = found[h] + 1
            for n in neighbours[h]:
                if n not in found:
                    found[n] = step
                    frontier.append(n)
            if b in found:
                return found[b]
        return default

    def __getitem__(self, b: Hex) -> int:
        found = self.get(b)
        if found is None:
            raise KeyError(b)
        return found

    def __iter__(self) -> Iterator[Hex]:
        self._search_all()
        return iter(self.found)

    def __len__(self) -> int:
        self._search_all()
        return len(self.found)

    def _search_all(self) -> None:
        neighbours, found, frontier = self.neighbours, self.found, self.frontier
        while frontier:
            h = frontier.popleft()
            step = found[h] + 1
            for n in neighbours[h]:
                if n not in found:
                    found[n] = step
                    frontier.append(n)


def _axial_coordinates(grid: HexGrid | None, coordinates: dict[Hex, tuple[int, int]],
                       neighbours: dict[Hex, tuple[Hex, ...]]) -> dict[Hex, tuple[int, int]] | None:
    """Each hex's axial (q, r) coordinates, if the map is a whole grid that they describe; None otherwise.

    On a whole rectangular grid a shortest path never has to leave the map, so the
    grid distance is the distance along the map's adjacencies. Checked, not assumed:
    every hex of the rectangle is on the map, and each hex's neighbours are exactly
    the hexes one step away in axial coordinates.
    """
    if grid is None or not coordinates:
        return None
    (c0, c1), (r0, r1) = grid.columns, grid.rows
    if len(neighbours) != (c1 - c0 + 1) * (r1 - r0 + 1) or len(coordinates) != len(neighbours):
        return None
    axial = {}
    for h in neighbours:
        position = coordinates.get(h)
        if position is None:
            return None
        column, row = position
        if grid.offset in ("even_columns_down", "odd_columns_down"):
            parity = column & 1 if grid.offset == "even_columns_down" else -(column & 1)
            axial[h] = (column, row - (column + parity) // 2)
        else:
            parity = row & 1 if grid.offset == "even_rows_right" else -(row & 1)
            axial[h] = (column - (row + parity) // 2, row)
    directions = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
    for h, ns in neighbours.items():
        q, r = axial[h]
        around = {(q + dq, r + dr) for dq, dr in directions}
        if len(ns) != len(set(ns)) or any(axial.get(n) not in around for n in ns):
            return None
        in_rectangle = sum(1 for dq, dr in directions if _on_grid(grid, q + dq, r + dr))
        if in_rectangle != len(ns):
            return None
    return axial


def _on_grid(grid: HexGrid, q: int, r: int) -> bool:
    """Is the hex at axial (q, r) inside the grid's rectangle of columns and rows?"""
    if grid.offset in ("even_columns_down", "odd_columns_down"):
        parity = q & 1 if grid.offset == "even_columns_down" else -(q & 1)
        column, row = q, r + (q + parity) // 2
    else:
        row = r
        parity = row & 1 if grid.offset == "even_rows_right" else -(row & 1)
        column = q + (row + parity) // 2
    return grid.columns[0] <= column <= grid.columns[1] and grid.rows[0] <= row <= grid.rows[1]


def _terrain_combat(game: Game, terrains: tuple[str, ...]) -> tuple[int, int]:
    """Column shift and DRM of the defender's hex: the worst for the attacker, or the sum."""
    effects = [(game.terrain[t].combat_shift, game.terrain[t].combat_drm) for t in terrains if t in game.terrain]
    if not effects:
        return 0, 0
    if game.combat is not None and game.combat.terrain_effects == "cumulative":
        return sum(s for s, _ in effects), sum(d for _, d in effects)
    helps_attacker = game.combat is None or game.tables[game.combat.table].drm == "attacker"
    worst_drm = min if helps_attacker else max  # the DRM that helps the attacker least (CombatTable.drm)
    return min(s for s, _ in effects), worst_drm(d for _, d in effects)


def _unit_names(units: dict[str, Unit]) -> tuple[dict[str, str], dict[str, str]]:
    """Designations where they are unique, ids otherwise; ids and division/designation always work too."""
    count: dict[str, int] = {}
    for unit in units.values():
        count[unit.designation.lower()] = count.get(unit.designation.lower(), 0) + 1
    names: dict[str, str] = {}
    short: dict[str, str] = {}
    for uid, unit in units.items():
        unique = count[unit.designation.lower()] == 1 and " " not in unit.designation
        short[uid] = unit.designation if unique else uid
        names[uid.lower()] = uid
        names[unit.label.lower().replace(" ", "_")] = uid
        if unique:
            names[unit.designation.lower()] = uid
    return names, short
