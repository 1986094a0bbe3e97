"""What each step of a move costs one kind of unit in one phase: the lookups the movement search reads.

A game's Terrain Effects Chart may give costs per unit type (`move_for`, `prohibited_for`,
`move_extra_for`) and costs as expressions (`move = if(turn >= 3, 3, 2)`, weather). Neither
may slow the search, which stays a table lookup: expressions are evaluated when a phase
begins (see reach.step_costs), and the tables of one (unit type, values) pair are built
once and shared by every state of the game (Tables.costs_for). Unit types whose costs do not
differ from the chart's share one set of tables; a game with neither has exactly one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Final, Protocol

from rulec.runtime.model import Expr, Game, Hex, MovementMode, hexside_key


class MapIndex(Protocol):
    """What building a unit type's costs reads of the game's tables (tables.Tables, which builds them)."""

    game: Game
    hexes: tuple[Hex, ...]
    neighbours: dict[Hex, tuple[Hex, ...]]
    edges_of: dict[Hex, tuple[str, ...]]
    numbered: tuple[Hex, ...]
    index: dict[Hex, int]
    index_bit: list

    def hexsides_of(self, types: tuple[str, ...]) -> frozenset[str]: ...

# A move cost that marks a hex or hexside as impassable.
IMPASSABLE: Final = 10**6

Cost = Callable[[int | float | Fraction | Expr], int]  # a cost field's value (a number or an Expr) -> whole MP


@dataclass(init=False)
class EntryCost:
    """What entering hex `to` from an adjacent hex costs (shared by the steps that cost the same: never modified)."""

    cost: int  # MP (IMPASSABLE if the hex or hexside is prohibited)
    river: bool = False  # a crossing that must be the unit's first step and uses all its MP

    def __init__(self, cost: int, river: bool = False) -> None:
        self.cost = cost
        self.river = river


HexSteps = tuple[tuple[int, int], ...]  # a hex's steps: (neighbour number, MP), ...


@dataclass(eq=False)
class StepCosts:
    """Every step's cost for one kind of unit in one phase. Compared by identity: search caches key on it."""

    hex_cost: dict[Hex, int]  # MP to enter the hex off-road (the highest of its terrains)
    entry: dict[tuple[Hex, Hex], EntryCost]
    exit_cost: dict[tuple[Hex, str], int]  # (hex, edge) -> MP to leave the map there
    offmap_entry_cost: dict[Hex, int]  # MP for a reinforcement to enter the hex from off the map
    # By hex number (Tables.index), for the search:
    # (Typed in full: compiled (make fast), the search then reads them as native ints and tuples.)
    index_steps: list[tuple[tuple[int, int, bool], ...]]  # number -> ((neighbour number, MP, river), ...)
    index_plain_moves: list[HexSteps]  # number -> ((neighbour, MP), ...), cheapest first: not across a river nor into an objective
    index_objective_moves: list[HexSteps]  # number -> ((objective neighbour, MP), ...)
    index_rare: list[bool]  # number -> has the hex exits or objective neighbours
    index_rivers: list[tuple[int, ...]]  # number -> neighbour numbers across a river
    index_exits: list[tuple[tuple[str, int], ...]]  # number -> ((edge, MP to leave), ...)
    per_mp: int = 1  # costs are in 1/per_mp MP (a mode whose steps cost a fraction of a MP); allowances are multiplied by it
    packed: Any = None  # the steps as search_core reads them (movement._packed: made when first searched; False: cannot)


def cost_expressions(game: Game) -> tuple[Expr, ...]:
    """Every cost written as an expression, in a fixed order (their values key the tables built from them)."""
    found: list[Expr] = []
    for terrain in game.terrain.values():
        found += [v for v in (terrain.move, terrain.move_extra, *terrain.move_for.values()) if isinstance(v, Expr)]
    for hexside in game.hexside_types.values():
        found += [v for v in (hexside.move, hexside.move_extra, *hexside.move_extra_for.values()) if isinstance(v, Expr)]
    found += [mode.cost for mode in game.modes.values() if isinstance(mode.cost, Expr)]
    return tuple(found)


def typed_costs(game: Game) -> frozenset[str]:
    """The unit types whose costs differ somewhere from the chart's."""
    types: set[str] = set()
    for terrain in game.terrain.values():
        types |= set(terrain.move_for) | set(terrain.prohibited_for)
    for hexside in game.hexside_types.values():
        types |= set(hexside.move_extra_for) | set(hexside.prohibited_for)
    return frozenset(types)


class CostResolver:
    """A cost field's value -> whole MP, expressions taking `values` (rounded up: MP are whole). (A class, not a
    closure: compiled, a closure and its environment hold each other, and only the cycle collector frees them.)"""

    def __init__(self, expressions: tuple[Expr, ...], values: tuple) -> None:
        self.by_id = {id(e): v for e, v in zip(expressions, values)}

    def __call__(self, value: int | float | Fraction | Expr) -> int:
        if isinstance(value, Expr):
            return max(0, math.ceil(self.by_id[id(value)]))
        return max(0, math.ceil(value))


def build_step_costs(tables: MapIndex, unit_type: str | None, cost: Cost) -> StepCosts:
    """The step costs for units of `unit_type` (None: the chart's own), each cost field read by `cost`."""
    game = tables.game
    gmap = game.map
    assert gmap is not None  # the engine plays map games
    hex_cost = {h: _hex_cost(game, gmap.terrain.get(h, ()), unit_type, cost) for h in tables.hexes}
    entry: dict[tuple[Hex, Hex], EntryCost] = {}
    # Equal costs share one EntryCost: a map has a few kinds of step and six steps a hex, and each object kept is one
    # more for every full pass of the cycle collector, for the whole game.
    shared: dict[tuple[int, bool], EntryCost] = {}
    for a in tables.hexes:
        for b in tables.neighbours[a]:
            features = [game.hexside_types[f] for f in gmap.hexside_features.get(hexside_key(a, b), ()) if f in game.hexside_types]
            step = _entry_cost(hex_cost[b], features, unit_type, cost)
            entry[(a, b)] = shared.setdefault((step.cost, step.river), step)
    exit_cost: dict[tuple[Hex, str], int] = {}
    rule = game.movement.exit_cost
    for edge, edge_hexes in gmap.edges.items():
        directions = gmap.edge_directions.get(edge, ())
        for h in edge_hexes:
            off = [d for d in directions if d not in gmap.neighbours.get(h, {})]
            if off:
                roads = gmap.edge_exits.get(h, {})
                exit_cost[(h, edge)] = rule if isinstance(rule, int) else min(
                    _off_map_step(game, hex_cost[h], roads.get(d, ()), unit_type, cost) for d in off)
    offmap_entry_cost = {}
    for h in tables.hexes:  # (an entry hex inside the map is entered at its own cost)
        roads = gmap.edge_exits.get(h, {})
        offmap_entry_cost[h] = min((_off_map_step(game, hex_cost[h], roads.get(d, ()), unit_type, cost)
                                    for d in gmap.grid.directions if d not in gmap.neighbours.get(h, {})),
                                   default=hex_cost[h])

    index, numbered, bit = tables.index, tables.numbered, tables.index_bit
    steps = [tuple((index[n], entry[(h, n)].cost, entry[(h, n)].river) for n in tables.neighbours[h]) for h in numbered]
    exits = [tuple((e, exit_cost[(h, e)]) for e in tables.edges_of.get(h, ())) for h in numbered]
    plain = [tuple(sorted(((n, c) for n, c, river in s if not river and not bit[n]), key=lambda step: step[1])) for s in steps]
    objective = [tuple((n, c) for n, c, river in s if not river and bit[n]) for s in steps]
    return StepCosts(
        hex_cost=hex_cost, entry=entry, exit_cost=exit_cost, offmap_entry_cost=offmap_entry_cost, index_steps=steps,
        index_plain_moves=plain, index_objective_moves=objective,
        index_rare=[bool(e or o) for e, o in zip(exits, objective)],
        index_rivers=[tuple(n for n, _, river in s if river) for s in steps], index_exits=exits,
    )


def build_mode_costs(tables: MapIndex, mode: MovementMode, value: float) -> StepCosts:
    """The step costs of a move in `mode` when a step along its network costs `value` MP: the network's
    hexsides only (no river rule, no exit), in whole units of 1/per_mp MP. A value of 0 or less: no step."""
    fraction = Fraction(value).limit_denominator(1000) if value > 0 else None
    network = tables.hexsides_of((mode.network,)) if fraction is not None else frozenset()
    step = fraction.numerator if fraction is not None else 0
    index, numbered, bit = tables.index, tables.numbered, tables.index_bit
    steps = [tuple((index[n], step, False) for n in tables.neighbours[h] if hexside_key(h, n) in network) for h in numbered]
    return StepCosts(
        hex_cost={}, entry={}, exit_cost={}, offmap_entry_cost={}, index_steps=steps,
        index_plain_moves=[tuple((n, c) for n, c, _ in s if not bit[n]) for s in steps],
        index_objective_moves=[tuple((n, c) for n, c, _ in s if bit[n]) for s in steps],
        index_rare=[any(bit[n] for n, _, _ in s) for s in steps], index_rivers=[() for _ in steps],
        index_exits=[() for _ in steps], per_mp=fraction.denominator if fraction is not None else 1,
    )


def _hex_cost(game: Game, terrains: tuple[str, ...], unit_type: str | None, cost: Cost) -> int:
    """The highest entry cost of the hex's terrains (7.22-style); 'as other' terrains add only extras."""
    costs, extra = [], 0
    for tid in terrains:
        terrain = game.terrain.get(tid)
        if terrain is None:
            continue
        if terrain.prohibited or unit_type in terrain.prohibited_for:
            return IMPASSABLE
        move = terrain.move_for.get(unit_type, terrain.move) if unit_type is not None else terrain.move
        if move is not None:
            costs.append(cost(move))
        extra += cost(terrain.move_extra)
    return (max(costs) if costs else 1) + extra


def _off_map_step(game: Game, hex_cost: int, features: tuple[str, ...], unit_type: str | None, cost: Cost) -> int:
    """MP of a step between a hex of the map's edge and off the map, by a direction where `features` leave the map
    (hexsides { exits }): as a step through a hexside, the cost of the road that leaves there (the cheapest, of
    several), closed where a road there is closed to the unit's type; the hex's own cost where no road leaves."""
    roads = [(f.move, f.prohibited_for) for f in (game.hexside_types[i] for i in features if i in game.hexside_types)
             if f.kind == "road" and f.move is not None]
    if not roads:
        return hex_cost
    if unit_type is not None and any(unit_type in closed_to for _, closed_to in roads):
        return IMPASSABLE
    return min(cost(move) for move, _ in roads if move is not None)


def _entry_cost(hex_cost: int, features: list, unit_type: str | None, cost: Cost) -> EntryCost:
    road = [f for f in features if f.kind == "road" and f.move is not None]
    others = [f for f in features if not (f.kind == "road" and f.move is not None)]
    if unit_type is not None and any(unit_type in f.prohibited_for for f in road):
        return EntryCost(IMPASSABLE)  # a road closed to the type: its hexside may not be crossed
    entry = min(cost(f.move) for f in road) if road else hex_cost
    if hex_cost >= IMPASSABLE and not road:
        return EntryCost(IMPASSABLE)
    river = False
    for feature in others:
        negated = road and feature.road_negates_crossing
        if (feature.crossing == "prohibited" or unit_type in feature.prohibited_for) and not negated:
            return EntryCost(IMPASSABLE)
        if feature.crossing == "all_mp_from_start_adjacent" and not negated:
            river = True
        extra = feature.move_extra_for.get(unit_type, feature.move_extra) if unit_type is not None else feature.move_extra
        entry += cost(extra)
    return EntryCost(entry, river)


