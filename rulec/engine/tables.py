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

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rulec.engine.actions import Action
from rulec.runtime.context import StandInContext
from rulec.runtime.model import Game, Hex, HexGrid, Unit, hexside_key

# A move cost that marks a hexside as impassable.
IMPASSABLE = 10**6


@dataclass
class EntryCost:
    """What entering hex `to` from an adjacent hex costs."""

    cost: int  # MP (IMPASSABLE if the hex or hexside is prohibited)
    river: bool = False  # a crossing that must be the unit's first step and uses all its MP


@dataclass
class Tables:
    game: Game
    hexes: tuple[Hex, ...]
    neighbours: dict[Hex, tuple[Hex, ...]]
    distance: "Distances"  # distance[a][b]: steps from a to b (worked out when asked, see Distances)
    hex_cost: dict[Hex, int]  # MP to enter the hex off-road (the highest of its terrains)
    entry: dict[tuple[Hex, Hex], EntryCost]
    river_sides: frozenset[str]  # hexsides that block a retreat
    advance_blocked: frozenset[str]  # hexsides that block an advance after combat
    withdrawal_blocked: frozenset[str]  # hexsides of a river kind (tactical withdrawal's first hex)
    zoc_into: dict[Hex, tuple[Hex, ...]]  # the hexes a unit in the key hex controls
    exit_cost: dict[tuple[Hex, str], int]  # (hex, edge) -> MP to leave the map there
    edges_of: dict[Hex, tuple[str, ...]]  # the map edges a hex lies on
    offmap_entry_cost: dict[Hex, int]  # MP for a reinforcement to enter the hex from off the map
    zones: dict[str, frozenset[Hex]]
    hex_shift: dict[Hex, tuple[int, int]]  # (column shift, drm) of the defender's terrain
    hexside_combat: dict[str, tuple[tuple[int, int, str], ...]]  # hexside -> (shift, drm, when) per feature
    objectives: tuple[Hex, ...]  # hexes of 'holds' awards (passing through them matters)
    mask_rank: tuple[int, ...]  # objectives mask -> how much a path through them is worth (higher is better)
    unit_names: dict[str, str]  # how players name a unit (lower case) -> unit id
    unit_order: dict[str, int]  # unit id -> position in the game file (a stable order)
    short_name: dict[str, str] = field(default_factory=dict)  # unit id -> the name actions print
    steps: dict[Hex, tuple[tuple[Hex, int, bool], ...]] = field(default_factory=dict)  # hex -> (neighbour, MP, river)
    move_actions: dict = field(default_factory=dict)  # (unit, hex) -> its move Action, made once and shared
    reach_cache: dict = field(default_factory=dict)  # movement searches shared by every state (see GameState)

    # The movement search works on hex numbers 0..n-1, in hex order (list lookups are faster than dict
    # lookups, and a set of hexes can be the bits of an int):
    numbered: tuple[Hex, ...] = ()  # number -> hex (the hexes sorted)
    index: dict[Hex, int] = field(default_factory=dict)  # hex -> its number
    hex_bit: dict[Hex, int] = field(default_factory=dict)  # hex -> 1 << its number (made on first use)
    index_steps: list = field(default_factory=list)  # number -> ((neighbour number, MP, river), ...)
    index_plain_moves: list = field(default_factory=list)  # number -> ((neighbour, MP), ...), cheapest first:
    # the steps not across a river nor into an objective
    index_objective_moves: list = field(default_factory=list)  # number -> ((objective neighbour, MP), ...)
    index_rare: list = field(default_factory=list)  # number -> has the hex exits or objective neighbours
    index_rivers: list = field(default_factory=list)  # number -> neighbour numbers across a river
    index_exits: list = field(default_factory=list)  # number -> ((edge, MP to leave), ...)
    index_bit: list = field(default_factory=list)  # number -> its objective bit (0 if none)
    zoc_bits: dict[Hex, int] = field(default_factory=dict)  # hex -> the hexes a unit there controls, as bits
    # (made on first use: a table of every hex's bits would grow with hexes squared)
    number_sets: dict = field(default_factory=dict)  # frozenset of hexes -> frozenset of their numbers
    boards: dict = field(default_factory=dict)  # what stands in the way of searches (movement.Board)
    scopes: dict = field(default_factory=dict)  # what a search may look at, by allowance and start (movement._scope)
    move_rows: dict = field(default_factory=dict)  # unit -> number -> its move Action (see movement_row)
    exit_rows: dict = field(default_factory=dict)  # (unit, edges) -> its exit Actions; unit -> its delay Action
    sight: dict = field(default_factory=dict)  # ranged attacks: what each hex sees (engine/sight.py)
    attack_actions: dict = field(default_factory=dict)  # (hex, attackers) -> the attack Actions on it (GameState)
    retreat_blocked: frozenset = frozenset()  # (hex, neighbour) pairs across a hexside in river_sides
    units_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> its unit ids, in game-file order
    first_movement: dict[str, int] = field(default_factory=dict)  # side -> index of its first movement phase

    def __post_init__(self) -> None:
        self.steps = {h: tuple((n, self.entry[(h, n)].cost, self.entry[(h, n)].river) for n in ns)
                      for h, ns in self.neighbours.items()}
        self.numbered = tuple(sorted(self.hexes))
        self.index = {h: i for i, h in enumerate(self.numbered)}
        self.hex_bit = _BitsOf(self.index)
        self.index_steps = [tuple((self.index[n], cost, river) for n, cost, river in self.steps[h]) for h in self.numbered]
        self.index_rivers = [tuple(n for n, _, river in steps if river) for steps in self.index_steps]
        self.index_exits = [tuple((e, self.exit_cost[(h, e)]) for e in self.edges_of.get(h, ())) for h in self.numbered]
        self.zoc_bits = _ZocBitsOf(self.index, self.zoc_into)
        bits = {h: 1 << i for i, h in enumerate(self.objectives)}
        self.index_bit = [bits.get(h, 0) for h in self.numbered]
        self.index_plain_moves = [tuple(sorted(((n, cost) for n, cost, river in steps if not river and not self.index_bit[n]),
                                               key=lambda step: step[1])) for steps in self.index_steps]
        self.index_objective_moves = [tuple((n, cost) for n, cost, river in steps if not river and self.index_bit[n])
                                      for steps in self.index_steps]
        self.index_rare = [bool(exits or objectives) for exits, objectives in zip(self.index_exits, self.index_objective_moves)]
        self.retreat_blocked = frozenset((a, b) for a, ns in self.neighbours.items() for b in ns
                                         if hexside_key(a, b) in self.river_sides)
        self.units_of = {side: tuple(u for u, unit in self.game.units.items() if unit.side == side)
                         for side in self.game.sides}
        for i, phase in enumerate(self.game.sequence):
            if phase.kind == "movement" and phase.side is not None:
                self.first_movement.setdefault(phase.side, i)

    def movement_row(self, uid: str) -> list:
        """The move Actions of one unit by hex number, made once and shared by every state."""
        row = self.move_rows.get(uid)
        if row is None:
            row = self.move_rows[uid] = _MoveRow(uid, self.numbered, self.move_actions)
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


_CACHE: dict[int, tuple[Game, Tables]] = {}


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

    hex_cost = {h: _hex_cost(game, gmap.terrain.get(h, ())) for h in hexes}
    road_cost = _road_cost(game)
    entry: dict[tuple[Hex, Hex], EntryCost] = {}
    river_sides, advance_blocked, withdrawal_blocked, zoc_blocked = set(), set(), set(), set()
    hexside_combat: dict[str, tuple[tuple[int, int, str], ...]] = {}
    for a in hexes:
        for b in neighbours[a]:
            key = hexside_key(a, b)
            features = [game.hexside_types[f] for f in gmap.hexside_features.get(key, ()) if f in game.hexside_types]
            entry[(a, b)] = _entry_cost(hex_cost[b], features)
            for feature in features:
                if feature.blocks_retreat:
                    river_sides.add(key)
                if feature.blocks_advance:
                    advance_blocked.add(key)
                if feature.kind == "river":
                    withdrawal_blocked.add(key)
                if feature.blocks_zoc or (feature.kind == "river" and not game.movement.zoc_across_rivers):
                    zoc_blocked.add(key)
            combat = tuple((f.combat_shift, f.combat_drm, f.combat_when) for f in features if f.combat_shift or f.combat_drm)
            if combat:
                hexside_combat[key] = combat

    zoc_free_hexes = {h for h in hexes if any(game.terrain[t].blocks_zoc for t in gmap.terrain.get(h, ()) if t in game.terrain)}
    zoc_into = {h: tuple(n for n in neighbours[h] if hexside_key(h, n) not in zoc_blocked and n not in zoc_free_hexes)
                for h in hexes}

    edges_of: dict[Hex, list[str]] = {}
    exit_cost: dict[tuple[Hex, str], int] = {}
    offmap_entry_cost: dict[Hex, int] = {}
    for edge, edge_hexes in gmap.edges.items():
        directions = gmap.edge_directions.get(edge, ())
        for h in edge_hexes:
            off = [d for d in directions if d not in gmap.neighbours.get(h, {})]
            if not off:
                continue
            edges_of.setdefault(h, []).append(edge)
            road = any(_is_road(game, f) for d in off for f in gmap.edge_exits.get(h, {}).get(d, ()))
            exit_cost[(h, edge)] = _exit_cost(game, hex_cost[h], road, road_cost)
    for h in hexes:
        road = any(_is_road(game, f) for fs in gmap.edge_exits.get(h, {}).values() for f in fs)
        offmap_entry_cost[h] = road_cost if road and road_cost is not None else hex_cost[h]

    hex_shift = {h: _terrain_combat(game, gmap.terrain.get(h, ())) for h in hexes}
    objectives = tuple(sorted({h for a in game.awards if a.trigger.kind == "holds" for h in a.trigger.hexes}))
    mask_rank = _mask_rank(game, objectives)
    unit_names, short_name = _unit_names(game.units)
    return Tables(
        game=game, hexes=hexes, neighbours=neighbours, distance=distance, hex_cost=hex_cost, entry=entry,
        river_sides=frozenset(river_sides), advance_blocked=frozenset(advance_blocked),
        withdrawal_blocked=frozenset(withdrawal_blocked), zoc_into=zoc_into, exit_cost=exit_cost,
        edges_of={h: tuple(e) for h, e in edges_of.items()}, offmap_entry_cost=offmap_entry_cost,
        zones={z: frozenset(hs) for z, hs in gmap.zones.items()}, hex_shift=hex_shift,
        hexside_combat=hexside_combat, objectives=objectives, mask_rank=mask_rank, unit_names=unit_names,
        unit_order={uid: i for i, uid in enumerate(game.units)}, short_name=short_name,
    )


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
                except Exception:  # an amount that needs a real game: count it as 1
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
    """hex number -> one unit's move Action to that hex, each made when first asked for (and shared)."""

    def __init__(self, uid: str, numbered: tuple[Hex, ...], interned: dict):
        super().__init__()
        self.uid, self.numbered, self.interned = uid, numbered, interned

    def __missing__(self, number: int) -> Action:
        key = (self.uid, self.numbered[number])
        action = self.interned.get(key)
        if action is None:
            action = self.interned[key] = Action.move(*key)
        self[number] = action
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


def _hex_cost(game: Game, terrains: tuple[str, ...]) -> int:
    """The highest entry cost of the hex's terrains (7.22-style); 'as other' terrains add only extras."""
    costs, extra = [], 0
    for tid in terrains:
        terrain = game.terrain.get(tid)
        if terrain is None:
            continue
        if terrain.prohibited:
            return IMPASSABLE
        if terrain.move is not None:
            costs.append(terrain.move)
        extra += terrain.move_extra
    return (max(costs) if costs else 1) + extra


def _is_road(game: Game, feature: str) -> bool:
    kind = game.hexside_types.get(feature)
    return kind is not None and kind.kind == "road"


def _road_cost(game: Game) -> int | None:
    costs = [t.move for t in game.hexside_types.values() if t.kind == "road" and t.move is not None]
    return min(costs) if costs else None


def _entry_cost(hex_cost: int, features: list) -> EntryCost:
    road = [f for f in features if f.kind == "road" and f.move is not None]
    others = [f for f in features if not (f.kind == "road" and f.move is not None)]
    cost = min(f.move for f in road) if road else hex_cost
    if hex_cost >= IMPASSABLE and not road:
        return EntryCost(IMPASSABLE)
    river = False
    for feature in others:
        if feature.crossing == "prohibited" and not (road and feature.road_negates_crossing):
            return EntryCost(IMPASSABLE)
        if feature.crossing == "all_mp_from_start_adjacent" and not (road and feature.road_negates_crossing):
            river = True
        cost += feature.move_extra
    return EntryCost(cost, river)


def _exit_cost(game: Game, hex_cost: int, road: bool, road_cost: int | None) -> int:
    rule = game.movement.exit_cost
    if isinstance(rule, int):
        return rule
    return road_cost if road and road_cost is not None else hex_cost


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
