"""A heuristic value of a state for one seat, read from the game model alone.

Used by the greedy player and to cut MCTS rollouts short. The terms, for the
seat's side against the best other side:

- victory points (the margin, as the victory conditions measure them);
- strength on the map (a small weight: losses matter even when they give no VP);
- closeness to the side's objectives, found in its awards: hexes to hold
  (`holds`), map edges to leave by (`exits`) and zones an award counts units in
  (a `phase` award whose amount grows when one more of the side's units stands
  in the zone); the distance is in movement points along roads and terrain;
- danger: enemy strength next to a unit, relative to its own.

A toy state with no map model is scored on its VP alone.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from typing import Any

from rulec.players import view
from rulec.runtime.context import StandInContext
from rulec.runtime.model import Game, Hex, Unit

WIN_VALUE = 1000.0
RIVER_CROSSING_COST = 6  # a crossing that takes a unit's whole move, in MP


@dataclass(frozen=True)
class Weights:
    """How much each term counts, in VP-like points."""

    strength: float = 0.25  # per strength point on the map
    objective: float = 0.12  # times the objective's VP and the unit's closeness to it
    danger: float = 0.1  # per unit of adjacent enemy strength over own strength (capped at 3)
    closeness_scale: float = 3.0  # MP at which an objective counts half
    engaged: float = 0.3  # extra share of its objective value for a unit in contact with the enemy

_ZONE_IN_EXPRESSION = re.compile(r"zone\s*=\s*([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class Objective:
    side: str
    value: float  # VP it is worth to one unit reaching it
    distance: dict[Hex, float]  # MP from each hex to the objective
    only: Any = None  # the award's condition on the unit, if any
    recurring: bool = False  # scored every turn (a unit standing in a zone), so worth more early


class Evaluator:
    def __init__(self, game: Game | None, weights: Weights = Weights()):
        self.game = game
        self.weights = weights
        self.objectives: list[Objective] = []
        self._best_cache: dict[tuple[str, Hex, int], float] = {}  # a pure function of its key
        if game is not None and game.map is not None:
            self.neighbours = {h: tuple(n.values()) for h, n in game.map.neighbours.items()}
            self.entry_costs = _entry_costs(game)
            self.objectives = self._objectives(game)

    # ------------------------------------------------------------------ scoring
    def score(self, state: Any, seat: int) -> float:
        if state.is_terminal():
            return WIN_VALUE * state.returns()[seat]
        players = state.players
        side = players[seat]
        vp = state.vp
        others = [vp.get(p, 0) for p in players if p != side]
        value = float(vp.get(side, 0) - (max(others) if others else 0))
        if not self.objectives and (self.game is None or self.game.map is None):
            return value
        positions = view.unit_hexes(state)
        return value + self._position_value(state, side, positions)

    def _position_value(self, state: Any, side: str, positions: dict[str, Hex]) -> float:
        game, weights = self.game, self.weights
        turns_left = max(1, game.info.turns - state.turn + 1) if game.info.turns else 1
        placed = [(view.current_unit(state, unit_id), hex_) for unit_id, hex_ in positions.items()]
        strength_at: dict[Hex, dict[str, int]] = {}  # hex -> side -> strength there
        for unit, hex_ in placed:
            sides_here = strength_at.setdefault(hex_, {})
            sides_here[unit.side] = sides_here.get(unit.side, 0) + unit.strength
        neighbours = self.neighbours
        # Contact with the enemy is how a side gets through to its objectives: it pins the enemy and
        # sets up attacks (measured: without it the greedy player stalls short of the enemy's line).
        engaged = 1.0 + weights.engaged
        total = 0.0
        for unit, hex_ in placed:
            sign = 1.0 if unit.side == side else -1.0
            threat = 0
            for neighbour in neighbours.get(hex_, ()):
                there = strength_at.get(neighbour)
                if there:
                    threat += sum(strength for owner, strength in there.items() if owner != unit.side)
            objective = weights.objective * self._best_objective(unit, hex_, turns_left)
            total += sign * (weights.strength * unit.strength + (objective * engaged if threat else objective))
            if threat:
                total -= sign * weights.danger * min(3.0, threat / max(1, unit.strength))
        return total

    def _best_objective(self, unit: Unit, hex_: Hex, turns_left: int) -> float:
        key = (unit.id, hex_, turns_left)
        value = self._best_cache.get(key)
        if value is None:
            value = self._best_cache[key] = self._compute_best_objective(unit, hex_, turns_left)
        return value

    def _compute_best_objective(self, unit: Unit, hex_: Hex, turns_left: int) -> float:
        best = 0.0
        for objective in self.objectives:
            if objective.side != unit.side or hex_ not in objective.distance:
                continue
            if objective.only is not None and not _safe_bool(objective.only, StandInContext(unit=unit)):
                continue
            closeness = 1.0 / (1.0 + objective.distance[hex_] / self.weights.closeness_scale)
            worth = objective.value * (turns_left if objective.recurring else 1)
            best = max(best, worth * closeness)
        return best

    # -------------------------------------------------------------- objectives
    def _objectives(self, game: Game) -> list[Objective]:
        found = []
        map_ = game.map
        for award in game.awards:
            trigger = award.trigger
            if trigger.kind == "holds" and trigger.hexes:
                amount = _safe_number(award.amount, StandInContext())
                found.append(Objective(award.side, amount, self._distances(trigger.hexes, exit_edge=False), award.only))
            elif trigger.kind == "exits" and trigger.edges:
                edge_hexes = tuple(sorted({h for e in trigger.edges for h in map_.edges.get(e, ())}))
                sample = next((u for u in game.units.values() if u.side == award.side), None)
                amount = _safe_number(award.amount, StandInContext(unit=sample, turn=1))
                found.append(Objective(award.side, amount, self._distances(edge_hexes, exit_edge=True), award.only))
            elif trigger.kind == "phase":
                for zone in _ZONE_IN_EXPRESSION.findall(award.amount.source):
                    hexes = map_.zones.get(zone)
                    if not hexes:
                        continue
                    sample = next((u for u in game.units.values() if u.side == award.side), None)
                    if sample is None:
                        continue
                    gain = (_safe_number(award.amount, StandInContext(placed=[(sample, hexes[0])], zones=map_.zones))
                            - _safe_number(award.amount, StandInContext(zones=map_.zones)))
                    if gain > 0:
                        found.append(Objective(award.side, gain, self._distances(hexes, exit_edge=False), recurring=True))
        return found

    def _distances(self, targets: tuple[Hex, ...], exit_edge: bool) -> dict[Hex, float]:
        """Movement points from every hex to the nearest target (and off the map for an edge)."""
        map_ = self.game.map
        distance: dict[Hex, float] = {}
        queue = [((self.entry_costs[h] if exit_edge else 0.0), h) for h in targets if h in self.entry_costs]
        heapq.heapify(queue)
        while queue:
            cost, hex_ = heapq.heappop(queue)
            if hex_ in distance:
                continue
            distance[hex_] = cost
            for neighbour in map_.neighbours.get(hex_, {}).values():
                if neighbour not in distance:
                    step = _step_cost(self.game, neighbour, hex_, self.entry_costs)
                    if step is not None:
                        heapq.heappush(queue, (cost + step, neighbour))
        return distance


def _entry_costs(game: Game) -> dict[Hex, float]:
    costs = {}
    for hex_, terrain_ids in game.map.terrain.items():
        moves = []
        for terrain_id in terrain_ids:
            terrain = game.terrain.get(terrain_id)
            if terrain is None:
                continue
            if terrain.prohibited:
                moves = [float("inf")]
                break
            if terrain.move is not None:
                moves.append(terrain.move + terrain.move_extra)
        costs[hex_] = max(moves) if moves else 1.0
    return costs


def _step_cost(game: Game, source: Hex, target: Hex, entry_costs: dict[Hex, float]) -> float | None:
    """MP to move from `source` into `target` (the search runs backwards from the targets)."""
    cost = entry_costs.get(target, 1.0)
    if cost == float("inf"):
        return None
    crossing_cost = 0.0
    for feature_id in game.map.features_between(source, target):
        feature = game.hexside_types.get(feature_id)
        if feature is None:
            continue
        if feature.kind == "road" and feature.move is not None:
            return float(feature.move)
        if feature.crossing == "prohibited":
            return None
        if feature.crossing != "normal":
            crossing_cost = RIVER_CROSSING_COST
        crossing_cost += feature.move_extra
    return cost + crossing_cost


def _safe_number(expression: Any, context: StandInContext) -> float:
    try:
        return float(expression(context))
    except Exception:  # an expression that needs more of a real game than the stand-in offers
        return 1.0


def _safe_bool(expression: Any, context: StandInContext) -> bool:
    try:
        return bool(expression(context))
    except Exception:  # as above: when in doubt, the objective counts
        return True


_CACHE: dict[int, tuple[Any, Evaluator]] = {}


def evaluator_for(state: Any) -> Evaluator:
    """The evaluator of a state's game, built once per game model."""
    game = getattr(state, "game", None)
    cached = _CACHE.get(id(game))
    if cached is None or cached[0] is not game:
        cached = _CACHE[id(game)] = (game, Evaluator(game))
    return cached[1]
