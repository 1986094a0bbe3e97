"""A heuristic value of a state for one seat, read from the compiled game and the engine's tables.

Used by the greedy player and to cut MCTS rollouts short. The terms, for the
seat's side against the best other side:

- victory points: the VP so far plus what the awards paid when the game ends
  would pay in this position (final_awards.py: towns held, units in a city,
  units off the map; the victory levels and sudden deaths that name a winner are
  read there too, each a goal worth GOAL_VALUE VP while it holds), and the margin measured as the victory levels measure it
  (victory_margin.py: the VP the opponent needs to win less those the side
  needs, so a ratio is read as a ratio);
- strength on the map (a small weight: losses matter even when they give no VP);
- closeness to the side's objectives, found in its awards: hexes to hold
  (`holds`), map edges to leave by (`exits`, and exits paid at the end), zones
  an award counts units in (a `phase` award whose amount names a zone in a
  `units(...)` query and grows when one more of the side's units stands there;
  the zone is read from the amount's parse tree), and the hexes the awards paid
  at the end value (a hex to hold while the side does not hold it, within
  NEAR_TURNS turns' moves). The distance is in movement points as the engine counts
  them for the unit's type (`Tables.costs_for`: entry and exit costs; cost
  expressions as on turn 1): a river crossing, which takes a unit's whole move,
  costs the unit's movement allowance;
- danger: enemy strength next to a unit, relative to its stack's (a battle is fought against every unit in
  the hex: a unit that leaves a stack next to the enemy makes those it leaves weaker, not safer);
- for a side whose awards pay only for eliminating enemy units and name no place to
  go, closeness to the nearest of those units (HUNT_VALUE: a drive to find a battle).

Speed: a greedy decision scores every legal action's outcome, positions that
differ from one another by a unit or two. The value is a sum of one term per
unit, and a unit's term depends only on its hex and its neighbours; so the
evaluator keeps the terms of the last position scored in full, and scores a
position that differs from it in a few units by working out again only the terms
of those units and of the units next to them (a position where a hex to hold
changed hands is scored in full: every unit's nearest objective may change).
The battles a position offers are kept the same way, target by target (engagement.py,
from the position decided on: `focus`), and a position met again within a decision
(two orders of removals ending in one place) is not weighed again (`outlook`).

A toy state with no map model is scored on its VP alone.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Callable, Final

from rulec.engine import sight
from rulec.engine.step_costs import StepCosts
from rulec.engine.tables import IMPASSABLE, Tables, tables_for
from rulec.players import view
from rulec.players.battle_value import BattleValue, next_fighters
from rulec.players.engagement import Engagement
from rulec.players.final_awards import CONTROL, FinalAwards
from rulec.players.variable_goals import VariableGoals
from rulec.players.victory_margin import VictoryMargin
from rulec.runtime.context import StandInContext, zones_and_edges
from rulec.runtime.errors import UNANSWERED_OUTSIDE_PLAY, UNWEIGHABLE
from rulec.runtime.model import Award, Game, Hex, Unit

WIN_VALUE: Final = 1000.0
# A position that differs from the last one scored in full in more units than this is scored in full (and
# becomes the one the next positions are compared with). The candidates of one decision differ from the
# position decided on in a unit or so each, so from one another in two; a battle's outcomes move both
# stacks (three units each where three may stack).
MOST_CHANGES: Final = 6
BASES_KEPT: Final = 16  # positions scored in full kept, each for its turns left and holders (Evaluator._bases)
# A hex the awards paid at the end value draws units within this many turns' moves of it (beyond, not at all).
NEAR_TURNS: Final = 4
# What closeness to the nearest enemy unit is worth to a side that scores only by eliminating them (a drive to
# find a battle, kept small: the battle itself is weighed by the look-ahead).
HUNT_VALUE: Final = 1.0
# What the battles the side fighting after the next one may fight count for, against those of the next (it and
# the side between move before they are fought).
ENGAGED_LATER: Final = 0.5
# A unit that may attack, lost, wins its side no more battles: it costs this many times its strength times the VP
# its side's awards pay per strength point of enemy units eliminated, besides its own strength and VP.
POTENTIAL: Final = 0.25
_MOST_KEPT: Final = 400_000  # per-unit objective values kept before the table is emptied
MOST_OUTLOOKS_KEPT: Final = 4_000  # positions' outlooks kept (each with a copy of its units' table) before they are dropped


@dataclass(frozen=True)
class Weights:
    """How much each term counts, in VP-like points."""

    strength: float = 0.25  # per strength point on the map
    objective: float = 0.12  # times the objective's VP and the unit's closeness to it
    danger: float = 0.1  # per unit of adjacent enemy strength over its stack's strength (capped at 3)
    closeness_scale: float = 3.0  # MP at which an objective counts half
    engaged: float = 0.3  # extra share of its objective value for a unit in contact with the enemy


@dataclass
class Objective:
    """Hexes a side wants its units in (or an edge to leave by), and what reaching them is worth."""

    side: str
    value: float  # VP it is worth to one unit reaching it
    targets: tuple[Hex, ...]  # the hexes to reach (for an edge: the hexes it is left from)
    edges: tuple[str, ...] = ()  # map edges to leave by: the step off the map counts too
    only: Any = None  # the award's condition on the unit, if any
    recurring: bool = False  # scored every turn (a unit standing in a zone), so worth more early
    tables: Tables | None = field(default=None, repr=False)
    _by_allowance: dict[tuple, dict[Hex, float]] = field(default_factory=dict, repr=False)

    def distance(self, allowance: int, unit_type: str | None = None) -> dict[Hex, float]:
        """MP from each hex to the objective for a unit of `unit_type` with `allowance` MP (hexes that cannot
        reach it are left out); costs as the chart gives them for that type (cost expressions as on turn 1)."""
        tables = self.tables
        assert tables is not None  # the evaluator gives every objective it makes the game's tables
        key = (allowance, unit_type if unit_type in tables.typed_costs else None)
        found = self._by_allowance.get(key)
        if found is None:
            costs = tables.costs_for(key[1], tables.base_values) if key[1] else tables.base_costs
            found = self._by_allowance[key] = _distances(tables, self.targets, self.edges, allowance, costs)
        return found


class Evaluator:
    def __init__(self, game: Game | None, weights: Weights = Weights(), options: tuple[str, ...] = ()):
        """`options`: those the matches scored were started with (a victory condition or award may read them)."""
        self.game = game
        self.options = tuple(options)
        self.weights = weights
        self.objectives: list[Objective] = []
        self._best_cache: dict[tuple, float] = {}  # a pure function of its key
        # The last position scored in full for each (turns left, who holds what its units' terms read): a position
        # that differs from one in a few units is scored from it. Kept for a few holders: a move that takes a town
        # is scored in full, and the moves weighed after it (the town as it was) from the position before it.
        self._bases: dict[tuple[int, int], _Scored] = {}
        # move_values' last answers, kept for the next decision: (seat, the position's base, (unit, hex) -> (the unit,
        # what the move changes but the awards paid at the end)); see _kept_move_changes
        self._move_changes: tuple[int, _Scored, dict[tuple[str, Hex], tuple[Unit, float]]] | None = None
        self.victory = VictoryMargin(game)
        self.final: FinalAwards | None = None
        # Hexes the awards paid at the end value (final_awards): side -> hex -> VP, for holding it (paid while
        # not held) and for standing in it; the holders of the first, as a key of the per-unit values.
        self._to_hold: dict[str, dict[Hex, float]] = {}
        self._to_stand: dict[str, dict[Hex, float]] = {}
        self._held_targets: tuple[Hex, ...] = ()
        self._held_key: tuple = ()
        self._held_id = 0  # the number of _held_key (_set_held), which the tables kept by it are keyed by
        self._held_ids: dict[tuple, int] = {}
        self._held_serial = 0
        # (holders, their part of _held_key, the state's version of them: GameState.holders_version)
        self._last_holders: tuple[dict[Hex, str], tuple, Any] | None = None
        self._near: dict[tuple, dict[Hex, list[tuple[Hex, float]]]] = {}
        self._ranked: dict[tuple, dict[Hex, list[tuple[Hex, float, float]]]] = {}  # (_ranked_near)
        self._worths: dict[tuple, dict[Hex, float]] = {}  # (side, holders) -> hex -> its worth (_final_worths)
        self._final_targets_kept: dict[tuple, float] = {}  # a pure function of its key (_best_final_target)
        self._outlooks: dict[tuple, tuple[dict, float]] = {}  # outlook's key -> (the units' table, the outlook)
        self._focused: dict[str, Hex] = {}  # where the units of the position decided on stand (focus)
        self._focused_holders: dict[Hex, str] = {}  # and who holds what there
        self._focused_holders_version: Any = None  # (GameState.holders_version: one version, the same holders)
        self._focused_relocated: Any = None  # and its last change of hexes (an engine state's)
        # Sides whose only VP come from eliminating enemy units: side -> (the enemy sides, VP a unit is worth),
        # and where those enemy units stand now (side -> their hexes), part of the per-unit values' key.
        self._hunted: dict[str, tuple[frozenset[str], float]] = {}
        self._prey: dict[str, tuple[Hex, ...]] = {}
        # Victory conditions that read game variables (variable_goals.py), and the places that still set a variable
        # one needs (side, VP, hexes), part of the per-unit values' key.
        self.variable_goals: VariableGoals | None = VariableGoals(game, self.options) if game is not None else None
        self._open_places: tuple = ()
        self.battles: BattleValue | None = None
        self._kept_battles: Engagement | None = None
        self._loss_vp: dict[tuple, dict[str, float]] = {}
        self._vp_per_strength: dict[str, float] = {}
        if game is not None and game.map is not None and self.variable_goals is not None:
            self.tables = tables_for(game)
            self.neighbours = self.tables.neighbours
            self.final = FinalAwards(game, self.tables.objectives, self.options, self.variable_goals.awards)
            if not self.final.awards:
                self.final = None
            self.objectives = self._objectives(game)
            self._final_targets()
            self._hunted = self._hunts(game)
            self.battles = BattleValue(game, self.tables, self._loss_value) if game.combat is not None else None
            self._fighters: dict[tuple, list[str]] = {}
            self._ranges = sight.type_ranges(self.tables)
            self._can_attack: dict[tuple, bool] = {}
            self._engaged: dict[tuple, list[tuple[str, float]]] = {}
            self._sight: dict[tuple, list[Hex]] = {}
            # units whose type (on its full side) attacks at range -> that range: their contacts reach farther
            self._ranged_ids = {uid: self._ranges[u.type] for uid, u in game.units.items() if u.type in self._ranges}
            self._sides = {uid: u.side for uid, u in game.units.items()}  # a unit's side never changes
            # The battles of the last position worked out, kept target by target (engagement.py; not with ranged units).
            self._kept_battles = Engagement(self.battles, self.neighbours, self._sides,
                                            {uid: u.steps for uid, u in game.units.items()}) \
                if self.battles is not None and not self._ranged_ids else None
            for goal in self.variable_goals.goals:  # a variable a goal needs counts enemy units eliminated
                if goal.prey and any(u.side in goal.prey for u in game.units.values()):
                    enemies, value = self._hunted.get(goal.award.side, (frozenset(), 0.0))
                    self._hunted[goal.award.side] = (enemies | goal.prey, max(value, goal.share))
        # Hexes an award pays for holding: entering one may score at once, which move_values does not see.
        self.held_hexes = frozenset(h for o in self.objectives if not o.recurring and not o.edges for h in o.targets)
        self._objectives_read_units = any(o.only is not None for o in self.objectives)

    # ------------------------------------------------------------------ scoring
    def score(self, state: Any, seat: int) -> float:
        if state.is_terminal():
            return WIN_VALUE * state.returns()[seat]
        side = state.players[seat]
        value = float(self.victory.margin(self._step_credit(state, self.projected_vp(state)), side))
        if not self.objectives and (self.game is None or self.game.map is None):
            return value
        return value + self._position_value(state, side)

    def outlook(self, state: Any, seat: int, remember: bool = True) -> float:
        """The score, and the battles the position offers in the combat phases to come (`_engagement`): what the
        greedy player weighs each position it plays out by (a move's quick value, `move_values`, is its score).
        A position met again (two orders of reactions, removals, that end in the same place) is not worked out again;
        `remember` False: one the caller knows it will not meet again (its key is not worth making)."""
        key = self._outlook_key(state, seat) if remember else None
        if key is not None:
            found = self._outlooks.get(key)
            if found is not None and (found[0] is state._units or found[0] == state._units):
                return found[1]
        value = self.score(state, seat)
        if self.battles is not None and not state.is_terminal():
            value += self._engagement(state, state.players[seat])
        if key is not None:
            if len(self._outlooks) > MOST_OUTLOOKS_KEPT:
                self._outlooks.clear()
            # (the table itself, not a copy: the engine copies it to change a unit, never changes it in place)
            self._outlooks[key] = (state._units, value)
        return value

    def _outlook_key(self, state: Any, seat: int) -> tuple | None:
        """What the outlook of an engine state reads (but its units' table, compared whole): None for a state
        that is not an engine's, or a game whose goals read game variables through the engine (they may read more)."""
        if self.variable_goals is None or self.variable_goals.goals or not isinstance(getattr(state, "_units", None), dict) \
                or state.is_terminal():
            return None
        try:
            # where the units stand as what differs from the position decided on (a few units: `focus`)
            # and who holds what, as what differs from that position (most often nothing: a quick comparison)
            holders, focused = state.holders, self._focused_holders
            version = getattr(state, "holders_version", None)
            held = _NOTHING_CHANGED if version is not None and version == self._focused_holders_version \
                or holders == focused else frozenset(holders.items() ^ focused.items())
            moved, _ = view.hexes_moved(state, self._focused_relocated, state.pos, self._focused)
            return (seat, state.turn, state.phase_index, frozenset(moved),
                    frozenset(state.lost_steps.items()),
                    frozenset(state.vp.items()), held, frozenset(state.exited_from.items()),
                    frozenset(state.attacked), frozenset(state.defended))
        except AttributeError:
            return None

    # ------------------------------------------------------------ battles to come
    def focus(self, state: Any) -> None:
        """The positions weighed next are `state` and a move or a battle from it (a decision's candidates): its
        battles become the ones theirs are worked out from (engagement.py), so each differs from them in a few hexes."""
        self._outlooks.clear()  # positions met again are met within a decision, seldom across
        self._focused = dict(getattr(state, "pos", None) or {})
        self._focused_holders = dict(getattr(state, "holders", None) or {})
        self._focused_holders_version = getattr(state, "holders_version", None)
        self._focused_relocated = getattr(state, "last_relocated", None)
        if self._kept_battles is not None and not state.is_terminal() and state.players:
            self._engagement(state, state.players[0], keep=True)

    def _engagement(self, state: Any, side: str, positions: dict[str, Hex] | None = None, keep: bool = False) -> float:
        """The battles the position offers the next sides to fight (battle_value.py): the next one's in full,
        the one after's at ENGAGED_LATER (it moves first, and so does the side between), for `side` or against it;
        `positions`: where the units stand, if not where `state` has them (a move weighed without playing it)."""
        battles = self.battles
        if battles is None or not callable(getattr(state, "units_at", None)):
            return 0.0
        phase = state.phase
        phase_id = getattr(phase, "id", phase)
        game = self.game
        assert game is not None  # (battles are weighed in a game with combat)
        turns = game.info.turns
        key = (phase_id, bool(turns) and state.turn >= turns)
        fighters = self._fighters.get(key)
        if fighters is None:
            fighters = next_fighters(game, phase_id, key[1])[:2]
            if getattr(phase, "kind", None) == "combat" and phase.side:  # the battles still to fight in this phase
                fighters = [phase.side] + [f for f in fighters if f != phase.side][:1]
            self._fighters[key] = fighters
        now = getattr(phase, "kind", None) == "combat"
        if positions is None and self._kept_battles is not None and hasattr(state, "attacked"):
            values = self._kept_battles.values(state, key, fighters, now, keep)
            total = 0.0
            for index, (fighter, value) in enumerate(zip(fighters, values)):
                total += (1.0 if index == 0 else ENGAGED_LATER) * (value if fighter == side else -value)
            return total
        if positions is None:
            positions = view.unit_hexes(state)
        # Only the units in contact (next to an enemy, or a ranged unit with one in range) matter: the battles are
        # kept by where those stand, their steps lost and (in a combat phase) who is done; a move elsewhere, a die
        # roll that changes nothing there, finds them again.
        side_of, ranged, neighbours = self._sides, self._ranged_ids, self.neighbours
        ids_at = view.ids_by_hex(positions)
        involved: set[Hex] = set()
        for hex_, ids in ids_at.items():
            owner = side_of[ids[0]]
            reach = max(ranged.get(uid, 1) for uid in ids) if ranged else 1
            if reach > 1:
                for n in self._in_sight(hex_, reach):
                    there = ids_at.get(n)
                    if there and side_of[there[0]] != owner:
                        involved.add(hex_)
                        involved.add(n)
                continue
            for n in neighbours[hex_]:
                # a pair of neighbours is seen from both hexes: from the lesser (a ranged unit's from its own)
                if n > hex_:
                    there = ids_at.get(n)
                    if there and side_of[there[0]] != owner:
                        involved.add(hex_)
                        involved.add(n)
        if not involved:
            return 0.0
        lost = getattr(state, "lost_steps", {})
        contact = tuple((h, tuple(ids_at[h])) for h in sorted(involved))
        memo_key = (key, contact, tuple(lost.get(uid, 0) for _, ids in contact for uid in ids),
                    (frozenset(state.attacked), frozenset(state.defended)) if now else None)
        offered = self._engaged.get(memo_key)
        if offered is None:
            unit = state.unit
            at = {h: [unit(uid) for uid in ids] for h, ids in contact}  # hex -> the units there
            offered = [(fighter, self._battles_offered(state, at, fighter, now and index == 0))
                       for index, fighter in enumerate(fighters)]
            if len(self._engaged) > _MOST_KEPT // 8:
                self._engaged.clear()
            self._engaged[memo_key] = offered
        total = 0.0
        for index, (fighter, value) in enumerate(offered):
            total += (1.0 if index == 0 else ENGAGED_LATER) * (value if fighter == side else -value)
        return total

    def _battles_offered(self, state: Any, at: dict[Hex, list[Unit]], fighter: str, this_phase: bool = False) -> float:
        """The sum of the best battle against each enemy hex next to `fighter`'s units (`at`: hex -> the units
        there; each unit attacking once, the best battles first), counting only battles worth fighting;
        `this_phase`: in the combat phase under way (units that attacked in it, or were attacked, are done)."""
        battles, neighbours, attacking, game = self.battles, self.neighbours, self._attacking, self.game
        assert battles is not None and game is not None  # (asked in a game with combat)
        done = (getattr(state, "attacked", set()) | getattr(state, "defended", set())) if this_phase else ()
        lost = getattr(state, "lost_steps", {})
        full = game.units
        ranges = self._ranges
        targets: dict[Hex, list] = {}
        for hex_, here in at.items():
            if here[0].side != fighter:
                continue
            for attacker in here:
                if not attacking(attacker) or attacker.id in done:
                    continue
                reach = ranges.get(attacker.type, 1)  # a ranged unit's targets: in range and in sight
                for n in (self._in_sight(hex_, reach) if reach > 1 else neighbours.get(hex_, ())):
                    there = at.get(n)
                    if not there or there[0].side == fighter:
                        continue
                    found = targets.get(n)
                    if found is None:
                        if done and any(u.id in done for u in there):
                            continue
                        found = targets[n] = [[(u, full[u.id].steps - lost.get(u.id, 0) if u.id in full else 1)
                                               for u in there], []]
                    found[1].append((attacker, full[attacker.id].steps - lost.get(attacker.id, 0)
                                     if attacker.id in full else 1, hex_))
        if not targets:
            return 0.0
        found_battles = []
        for target, (defenders, attackers) in targets.items():
            groups = [attackers] + ([[a] for a in attackers] if len(attackers) > 1 else [])
            trapped = self._trapped(at, target, attackers)
            for group in groups:
                value = battles.battle(group, defenders, target, trapped)
                if value > 0:
                    found_battles.append((value, {a.id for a, _, _ in group}, target))
        found_battles.sort(key=lambda f: (-f[0], f[2], sorted(f[1])))  # the same order in every process
        used: set[str] = set()
        fought: set[Hex] = set()
        total = 0.0
        for value, ids, target in found_battles:
            if target in fought or ids & used:
                continue
            total += value
            used |= ids
            fought.add(target)
        return total

    def _trapped(self, at: dict[Hex, list[Unit]], target: Hex, attackers: list) -> frozenset[str]:
        """The ids of the units of a battle at `target` (its defenders, and `attackers`: (unit, steps, hex)) that
        cannot retreat: every neighbour of their hex holds an enemy (all of which are in contact, so in `at`)."""
        neighbours = self.neighbours
        found: list[str] = []
        for hex_ in {target, *(h for _, _, h in attackers)}:
            side = at[hex_][0].side
            if all((there := at.get(n)) and there[0].side != side for n in neighbours.get(hex_, ())):
                found.extend(u.id for u in at[hex_])
        return frozenset(found)

    def _in_sight(self, hex_: Hex, reach: int) -> list[Hex]:
        """The hexes in range and in sight of `hex_`, in a fixed order (sight.in_sight's set has none)."""
        found = self._sight.get((hex_, reach))
        if found is None:
            found = self._sight[(hex_, reach)] = sorted(sight.in_sight(self.tables, hex_, reach))
        return found

    def _attacking(self, unit: Unit) -> bool:
        found = self._can_attack.get((unit.type, unit.strength))
        if found is None:
            found = self._can_attack[(unit.type, unit.strength)] = self.battles is not None and self.battles.can_attack(unit)
        return found

    def _loss_value(self, unit: Unit, steps_left: int) -> float:
        """What losing `unit` as it stands costs its side: its strength on the map and the VP the awards pay for it
        (to another side: more; to its own: less), and for a unit that may attack, the battles it could still win."""
        paid = self._elimination_vp(unit)
        return (self.weights.strength * unit.strength + sum(v if s != unit.side else -v for s, v in paid.items())
                + self._potential(unit))

    def _potential(self, unit: Unit) -> float:
        """What a unit that may attack can still win its side: POTENTIAL times its strength times the VP the
        side's awards pay per strength point of the enemy units they pay for eliminating (a lost attacker wins
        no more battles)."""
        rate = self._vp_per_strength.get(unit.side)
        if rate is None:
            paid, strength = 0.0, 0
            for enemy in self.game.units.values() if self.game is not None else ():
                if enemy.side != unit.side:
                    paid += self._elimination_vp(enemy).get(unit.side, 0.0)
                    strength += enemy.strength
            rate = self._vp_per_strength[unit.side] = paid / strength if strength else 0.0
        if not rate or self.battles is None or not self.battles.can_attack(unit):
            return 0.0
        return POTENTIAL * rate * unit.strength

    def _elimination_vp(self, unit: Unit) -> dict[str, float]:
        """Side -> the VP the awards would pay it were `unit`, as it stands, eliminated."""
        key = (unit.id, unit.strength, unit.type)
        paid = self._loss_vp.get(key)
        if paid is None:
            paid = {}
            for award in self.game.awards if self.game is not None else ():
                trigger = award.trigger
                if trigger.kind != "eliminated" or trigger.side not in (None, unit.side):
                    continue
                context = StandInContext(unit=unit, turn=1)
                if award.only is not None and not _safe_bool(award.only, context):
                    continue
                paid[award.side] = paid.get(award.side, 0.0) + _safe_number(award.amount, context)
            self._loss_vp[key] = paid
        return paid

    def _step_credit(self, state: Any, vp: dict[str, float]) -> dict[str, float]:
        """`vp` and, for each unit on the map that has lost steps, the VP its elimination would pay shared out by
        steps: a unit two steps from elimination that lost one is half paid for (a step loss is progress)."""
        lost_steps = getattr(state, "lost_steps", None)
        if not lost_steps or self.game is None:
            return vp
        found = dict(vp)
        positions = view.unit_hexes(state)
        for uid, lost in lost_steps.items():
            full = self.game.units.get(uid)
            if not lost or full is None or uid not in positions:
                continue
            share = lost / full.steps
            for side, amount in self._elimination_vp(state.unit(uid)).items():
                found[side] = found.get(side, 0.0) + amount * share
        return found

    def projected_vp(self, state: Any) -> dict[str, float]:
        """The VP each side would have were the game to end now: its VP so far and what the awards paid at
        the end would pay in this position (as final_awards reads them)."""
        vp = state.vp
        final = self.final
        goals = self.variable_goals.paid(state) if self.variable_goals is not None else {}
        if final is None:
            return {side: vp.get(side, 0) + goals.get(side, 0.0) for side in state.players} if goals else vp
        paid = final.paid(_sides_at(state), getattr(state, "holders", {}), getattr(state, "exited_from", {}),
                          getattr(state, "holders_version", None))
        return {side: vp.get(side, 0) + paid.get(side, 0.0) + goals.get(side, 0.0) for side in state.players}

    def _position_value(self, state: Any, side: str) -> float:
        game = self.game
        assert game is not None  # (a game without a model is scored on its VP alone)
        turns_left = max(1, game.info.turns - state.turn + 1) if game.info.turns else 1
        positions = view.unit_hexes(state)
        lookup = getattr(state, "unit", None)
        if not callable(lookup):
            lookup = lambda uid: view.current_unit(state, uid)  # noqa: E731
        self._set_held(state)
        base = self._bases.get((turns_left, self._held_id))
        changed: list[str] | None = None
        if base is not None:
            changed = self._changed_units(state, base, positions, lookup)
            if len(changed) <= MOST_CHANGES:
                return self._score_changes(base, positions, lookup, set(changed), side)
        uids = list(positions)
        base = self._keep_base(self._score_in_full(positions, uids, list(map(lookup, uids)), turns_left, base, changed),
                               state)
        return base.total(side)

    def _changed_units(self, state: Any, base: "_Scored", positions: dict[str, Hex], lookup: Any) -> list[str]:
        """The units that moved, left the map or entered it since `base`, or were replaced where they stand (a step
        loss, a flip)."""
        changed = list(view.units_moved(state, base.relocated, positions, base.positions))
        # An engine state keeps its units in one dict (GameState._units), shared with its clones until a unit changes:
        # the same dict (most positions weighed) or an equal one is much cheaper to tell than asking unit by unit.
        table = getattr(state, "_units", None)
        if not (isinstance(table, dict) and (table is base.unit_table or table == base.unit_table)):
            units = list(map(lookup, base.uids))
            changed += [uid for uid, now, then in zip(base.uids, units, base.units) if now is not then]
        return changed

    def _keep_base(self, base: "_Scored", state: Any) -> "_Scored":
        """Keep `base`, `state` scored in full, as the position scored in full for its turns left and holders (a few
        such kept), with what tells later positions apart from it cheaply: its table of units, and its last
        change of hexes (an engine state's)."""
        table = getattr(state, "_units", None)
        # (the table itself, not a copy: the engine copies it to change a unit, never changes it in place)
        base.unit_table = table if isinstance(table, dict) else None
        base.relocated = getattr(state, "last_relocated", None)
        bases = self._bases
        key = (base.turns_left, base.held_id)
        bases.pop(key, None)  # (to the end: the oldest go first)
        if len(bases) >= BASES_KEPT:
            del bases[next(iter(bases))]
        bases[key] = base
        return base

    def _set_held(self, state: Any) -> None:
        """Note who holds the hexes whose holding the awards paid at the end value, the places that still set a
        variable a goal needs, and where the units a side hunts stand (a unit's term depends on all three)."""
        key: tuple = ()
        if self._held_targets:
            holders = getattr(state, "holders", {})
            version = getattr(state, "holders_version", None)  # (one version, the same holders: not compared)
            last = self._last_holders
            if last is None or version is None or version != last[2]:
                if last is None or last[0] != holders:  # (most positions weighed: no town changed hands)
                    last = (dict(holders), tuple(holders.get(h, "") for h in self._held_targets), version)
                else:
                    last = (last[0], last[1], version)
                self._last_holders = last
            key = last[1]
        if self.variable_goals is not None and self.variable_goals.goals:
            self._open_places = self.variable_goals.open_places(state)
            key += (self._open_places,)
        if self._hunted:
            positions = view.unit_hexes(state)
            sides = {uid: view.current_unit(state, uid).side for uid in positions} if not callable(
                getattr(state, "unit", None)) else {uid: state.unit(uid).side for uid in positions}
            self._prey = {side: tuple(sorted(h for uid, h in positions.items() if sides[uid] in enemies))
                          for side, (enemies, _) in self._hunted.items()}
            key += tuple(self._prey.values())
        if key is not self._held_key:
            self._held_key = key
            # a number for it, never given to another: the per-unit values' keys hash it, not a tuple of every holder
            found = self._held_ids.get(key)
            if found is None:
                if len(self._held_ids) > _MOST_KEPT // 100:
                    self._held_ids.clear()
                found = self._held_ids[key] = self._held_serial = self._held_serial + 1
            self._held_id = found

    # ------------------------------------------------- moves weighed without playing them
    def move_values(self, state: Any, seat: int, moves: list[tuple[str, Hex]]) -> list[float]:
        """The score for `seat` of `state` with each (unit, hex) of `moves` made alone, nothing else changed.

        A quick estimate of a move's outcome (no clone, no engine): the moved unit's term and the
        danger terms next to the hexes it leaves and enters are worked out again, as `score` does for
        a position that differs in one unit. What the engine would do besides (a town changing hands,
        a hook, a reaction) is not seen: the greedy player plays the best few moves on clones for that. Nor,
        in a game where a side hunts the mover's side (_hunts), what the move changes in the hunters' terms.
        """
        value = self.score(state, seat)  # VP and position as they stand
        if not self.objectives and (self.game is None or self.game.map is None):
            return [value] * len(moves)
        side = state.players[seat]
        base = self._rebase(state)
        final_change = self._final_change(state, side) if self.final is not None else None
        final_hexes = self.final.of_hex if self.final is not None else {}  # the hexes a move may change them in
        # (self._worth and base.threat are called as methods, not through locals: compiled, a direct call)
        terms, unit_of, positions = base.terms, base.unit_of, base.positions
        neighbours, turns_left = self.neighbours, base.turns_left
        by_side, ids_at = base.by_side, base.ids_at

        def stack_changes(there: Hex | None, mover: str, by: int, uid: str) -> list[float]:
            """How the terms of `mover`'s other units in `there` change when its strength there changes by `by`."""
            if there is None or there not in ids_at:
                return []
            danger = base.threat(there, mover, neighbours)
            if not danger:
                return []
            return [self._worth(unit_of[friend], there, danger, turns_left, by_side[there][mover] + by) - terms[friend][1]
                    for friend in ids_at[there] if friend != uid and unit_of[friend].side == mover]

        def threat_changes(there: Hex, mover: str, by: int) -> tuple[list[tuple[str, float]], set[str]]:
            """How the terms of `mover`'s enemies next to `there` change (for `side`) when the threat to them
            changes by `by`; and those enemies."""
            changes = []
            for other, owner in base.next_to(there, neighbours):
                if owner != mover:
                    enemy, at = unit_of[other], positions[other]
                    before = terms[other][1]
                    after = self._worth(enemy, at, base.threat(at, enemy.side, neighbours) + by, turns_left,
                                        by_side[at][enemy.side])
                    changes.append((other, after - before if enemy.side == side else before - after))
            return changes, {other for other, _ in changes}

        # What leaving a hex changes is the same for each of a unit's moves, and what entering one changes is the
        # same for each unit of one side and strength: worked out once each, added up in the same order as ever.
        leaving: dict[str, tuple] = {}
        entering: dict[tuple, tuple] = {}
        leaving_final: dict[str, float] = {}  # unit -> what the end awards change when it leaves its hex for one of none
        nothing: tuple = ([], set())
        found = []
        kept, stale = self._kept_move_changes(seat, base)
        changes: dict[tuple[str, Hex], tuple[Unit, float]] = {}
        for move in moves:  # (each move its own key in the tables of answers: no pair made again)
            uid, hex_ = move
            unit = unit_of.get(uid) or state.unit(uid)
            left = positions.get(uid)
            known = kept.get(move) if left not in stale and hex_ not in stale else None
            if known is not None and known[0] is unit:
                change = known[1]
            else:
                change = self._move_change(uid, hex_, unit, left, side, base, leaving, entering, nothing,
                                           stack_changes, threat_changes)
            changes[move] = (unit, change)
            if final_change is not None:
                if hex_ in final_hexes:
                    change += final_change(uid, unit.side, left, hex_)
                elif left in final_hexes:  # into a hex of no group: what leaving `left` changes, the same each move
                    paid = leaving_final.get(uid)
                    if paid is None:
                        paid = leaving_final[uid] = final_change(uid, unit.side, left, hex_)
                    change += paid
            found.append(value + change)
        self._move_changes = (seat, base, changes)
        return found

    def _kept_move_changes(self, seat: int, base: "_Scored") -> tuple[dict[tuple[str, Hex], tuple[Unit, float]],
                                                                        AbstractSet[Hex]]:
        """What move_values found each move changes (the awards paid at the end aside) at its last call, if it was for
        `seat` with the same turns left and holders, and the hexes where those answers may no longer hold: within
        two hexes of where a unit moved from or to or was replaced since (a move's change reads the strengths next
        to the hexes it leaves and enters, and the terms of the units there, which read the strengths next to
        them). A greedy player weighs each move of a movement phase again after each one it makes: the answers
        about the moves far from it are those it found the last time."""
        kept = self._move_changes
        if kept is None or kept[0] != seat:
            return {}, frozenset()
        before = kept[1]
        if before is base:
            return kept[2], frozenset()
        if before.turns_left != base.turns_left or before.held_id != base.held_id:
            return {}, frozenset()
        touched = {h for _, h in base.positions.items() ^ before.positions.items()}  # (in C: a few pairs)
        if base.unit_table is None or (base.unit_table is not before.unit_table
                                       and base.unit_table != before.unit_table):  # a unit replaced where it stands
            unit_of = before.unit_of
            touched.update(base.positions[uid] for uid, unit in base.unit_of.items() if unit_of.get(uid) is not unit)
        if len(touched) > 2 * MOST_CHANGES:
            return {}, frozenset()
        neighbours = self.neighbours
        stale = set(touched)
        for h in touched:
            for n in neighbours.get(h, ()):
                stale.add(n)
                stale.update(neighbours.get(n, ()))
        return kept[2], stale

    def _move_change(self, uid: str, hex_: Hex, unit: Unit, left: Hex | None, side: str, base: "_Scored",
                     leaving: dict, entering: dict, nothing: tuple, stack_changes: Callable[..., list[float]],
                     threat_changes: Callable[..., tuple[list[tuple[str, float]], set[str]]]) -> float:
        """What moving `uid` to `hex_` alone changes in `side`'s score, the awards paid at the end aside (see
        move_values; `leaving` and `entering` keep what leaving and entering a hex change, shared by its moves)."""
        terms, neighbours, turns_left = base.terms, self.neighbours, base.turns_left
        mover, strength = unit.side, unit.strength
        # The mover's own strength is no threat to it, wherever it stands: its threat is its new hex's.
        old = terms.get(uid)
        joined = base.by_side.get(hex_, {}).get(mover, 0)
        change = self._worth(unit, hex_, base.threat(hex_, mover, neighbours), turns_left, joined + strength) - (
            old[1] if old else 0.0)
        away = leaving.get(uid)
        if away is None:
            away = leaving[uid] = (stack_changes(left, mover, -strength, uid),
                                   threat_changes(left, mover, -strength) if strength and left is not None
                                   else nothing)
        into = entering.get((hex_, mover, strength)) if left != hex_ else None
        if into is None:
            into = (stack_changes(hex_, mover, strength, uid), threat_changes(hex_, mover, strength) if strength
                    else nothing)
            if left != hex_:
                entering[(hex_, mover, strength)] = into
        # The friends it leaves stand in a weaker stack, those it joins in a stronger one (where an enemy is near).
        for step in away[0]:
            change += step
        for step in into[0]:
            change += step
        if mover != side:
            change = -change
        # Its enemies next to the hex it leaves are threatened less, next to the one it enters more (those next
        # to both, as much as before).
        (left_enemies, left_set), (joined_enemies, joined_set) = away[1], into[1]
        for other, step in left_enemies:
            if other not in joined_set:
                change += step
        for other, step in joined_enemies:
            if other not in left_set:
                change += step
        return change

    def _final_change(self, state: Any, side: str):
        """(unit, its side, hex left, hex entered) -> how much `side`'s margin changes by what the awards paid at
        the end would pay after that move alone (the hex entered taken if its holder is tracked)."""
        final, victory, tracked = self.final, self.victory, self.tables.objectives
        assert final is not None  # asked only where awards are paid at the end
        stands, holder = _position_queries(state)
        projected = self.projected_vp(state)
        now = victory.margin(projected, side)
        units_at, unit = state.units_at, state.unit
        filled_now: dict[int, bool] = {}  # group index -> whether it is filled as the units stand (every move's before)

        def change(uid: str, mover: str, left: Hex | None, entered: Hex) -> float:
            def stands_after(h: Hex, s: str) -> bool:
                if s == mover and h == entered:
                    return True
                if h == left:
                    return any(u != uid and unit(u).side == s for u in units_at(h))
                return stands(h, s)

            def holder_after(h: Hex) -> str:
                return mover if h == entered and h in tracked else holder(h)

            hexes = (entered,) if left is None else (left, entered)
            paid = final.change(hexes, (stands, holder), (stands_after, holder_after), filled_now)
            if not paid:
                return 0.0
            return victory.margin({s: v + paid.get(s, 0.0) for s, v in projected.items()}, side) - now
        return change

    def _rebase(self, state: Any) -> "_Scored":
        """The last position scored in full made `state`'s own (scored afresh unless it already is)."""
        positions = view.unit_hexes(state)
        self._set_held(state)
        table = getattr(state, "_units", None)
        turns_left = self._turns_left(state)
        base = self._bases.get((turns_left, self._held_id))
        if base is None or base.positions != positions or not (
                isinstance(table, dict) and (table is base.unit_table or table == base.unit_table)):
            changed = self._changed_units(state, base, positions, state.unit) if base is not None else None
            uids = list(positions)
            base = self._keep_base(self._score_in_full(positions, uids, list(map(state.unit, uids)), turns_left, base,
                                                       changed), state)
        return base

    def _turns_left(self, state: Any) -> int:
        assert self.game is not None
        turns = self.game.info.turns
        return max(1, turns - state.turn + 1) if turns else 1

    def _score_in_full(self, positions: dict[str, Hex], uids: list[str], units: list[Unit], turns_left: int,
                       like: "_Scored | None" = None, changed: list[str] | None = None) -> "_Scored":
        """Every unit's term. `like`: a position scored in full for the same turns left and holders, `changed`: the
        units that differ from it (moved, on or off the map, replaced): the terms of the others, away from the hexes
        those left and entered, are its own (a term reads only its unit and the strengths in and next to its hex)."""
        totals: dict[Hex, int] = {}  # hex -> strength there
        by_side: dict[Hex, dict[str, int]] = {}  # hex -> side -> strength there
        ids_at: dict[Hex, list[str]] = {}  # hex -> the units there
        for uid, unit in zip(uids, units):
            hex_ = positions[uid]
            totals[hex_] = totals.get(hex_, 0) + unit.strength
            here = by_side.setdefault(hex_, {})
            here[unit.side] = here.get(unit.side, 0) + unit.strength
            ids_at.setdefault(hex_, []).append(uid)
        near: set[Hex] = set()  # the hexes whose units' terms may differ from `like`'s
        redone = set(changed or ())
        if like is not None:
            neighbours = self.neighbours
            for uid in redone:
                for h in (like.positions.get(uid), positions.get(uid)):
                    if h is not None:
                        near.add(h)
                        near.update(neighbours.get(h, ()))
        terms = {}
        sums: dict[str, float] = {}
        for uid, unit in zip(uids, units):
            hex_ = positions[uid]
            if like is not None and uid not in redone and hex_ not in near:
                term = like.terms[uid][1]
            else:
                term = self._term(unit, hex_, totals, by_side, turns_left)
            terms[uid] = (unit.side, term)
            sums[unit.side] = sums.get(unit.side, 0.0) + term
        return _Scored(positions.copy(), uids, units, dict(zip(uids, units)), turns_left, totals, by_side, ids_at,
                       terms, sums, held_id=self._held_id)

    def _score_changes(self, base: "_Scored", positions: dict[str, Hex], lookup: Any, changed: set[str],
                       side: str) -> float:
        """The value of a position close to `base`: only the terms of changed units and of enemies next to them are redone."""
        totals, by_side = base.totals.copy(), base.by_side.copy()
        touched: dict[Hex, str | None] = {}  # hex -> the side whose strength there changed (None: several did)
        now: dict[str, Unit] = {}  # changed unit on the map -> the unit as it is now
        for uid in changed:
            for hex_, unit, sign in ((base.positions.get(uid), base.unit_of.get(uid), -1),
                                     (positions.get(uid), None, 1)):
                if hex_ is None:
                    continue
                if unit is None:
                    unit = now[uid] = lookup(uid)
                totals[hex_] = totals.get(hex_, 0) + sign * unit.strength
                here = by_side[hex_] = by_side.get(hex_, {}).copy()
                here[unit.side] = here.get(unit.side, 0) + sign * unit.strength
                touched[hex_] = unit.side if touched.get(hex_, unit.side) == unit.side else None
        sums, terms, turns_left = base.sums.copy(), base.terms, base.turns_left
        for uid in changed:
            old = terms.get(uid)
            if old is not None:
                sums[old[0]] -= old[1]
        for uid, unit in now.items():
            sums[unit.side] = sums.get(unit.side, 0.0) + self._term(unit, positions[uid], totals, by_side, turns_left)
        # Units that did not change, next to a hex where their enemies' strength changed, or in a hex where their
        # stack's did: their danger changed.
        redo = set()
        for hex_, changed_side in touched.items():
            for uid, owner in base.next_to(hex_, self.neighbours):
                if owner != changed_side and uid not in changed:
                    redo.add(uid)
            redo.update(uid for uid in base.ids_at.get(hex_, ()) if uid not in changed)
        unit_of = base.unit_of
        for uid in redo:
            old = terms[uid]
            unit = unit_of[uid]
            sums[old[0]] += self._term(unit, positions[uid], totals, by_side, turns_left) - old[1]
        return _total(sums, side)

    def _term(self, unit: Unit, hex_: Hex, totals: dict[Hex, int], by_side: dict[Hex, dict[str, int]],
              turns_left: int) -> float:
        """What one unit is worth to its own side where it stands (see the module docstring)."""
        threat = 0
        side = unit.side
        for neighbour in self.neighbours.get(hex_, ()):
            total = totals.get(neighbour)
            if total:
                threat += total - by_side[neighbour].get(side, 0)
        return self._worth(unit, hex_, threat, turns_left, by_side[hex_][side])

    def _worth(self, unit: Unit, hex_: Hex, threat: int, turns_left: int, stack: int) -> float:
        """A unit's term where it stands, `threat` being the enemy strength next to it and `stack` its side's
        strength in its hex (its own included)."""
        weights = self.weights
        objective = weights.objective * self._best_objective(unit, hex_, turns_left)
        if not threat:
            return weights.strength * unit.strength + objective
        return (weights.strength * unit.strength + objective * (1.0 + weights.engaged)
                - weights.danger * min(3.0, threat / max(1, stack)))

    def _best_objective(self, unit: Unit, hex_: Hex, turns_left: int) -> float:
        # The same for every unit of a side, allowance and type where no objective's condition reads the unit
        # (`only`): kept for them all (four answers in ten are met again so, in a long greedy game)
        key = (unit.id, unit.strength, unit.move, hex_, turns_left, self._held_id) if self._objectives_read_units \
            else (unit.side, unit.move, unit.type, hex_, turns_left, self._held_id)
        value = self._best_cache.get(key)
        if value is None:
            if len(self._best_cache) > _MOST_KEPT:
                self._best_cache.clear()
            value = self._best_cache[key] = max(self._compute_best_objective(unit, hex_, turns_left),
                                                self._best_final_target(unit, hex_), self._best_prey(unit, hex_))
        return value

    def _best_final_target(self, unit: Unit, hex_: Hex) -> float:
        """The best of the hexes the awards paid at the end value, for `unit` at `hex_`: its VP times its closeness
        (a hex to hold counts while its side does not hold it). The same for every unit of its side, allowance and
        movement type in that hex, whatever the turn: kept for them all (four answers in ten are met again so)."""
        typed = unit.type if unit.type in self.tables.typed_costs else None
        key = (unit.side, unit.move, typed, hex_, self._held_id)
        best = self._final_targets_kept.get(key)
        if best is not None:
            return best
        worths = self._final_worths(unit.side)
        best = 0.0
        if worths:
            for target, divisor, most in self._ranked_near(unit.side, unit.move, typed).get(hex_, ()):
                if most <= best:  # the most this target may be worth here, and every one after it
                    break
                worth = worths.get(target)
                if worth is not None:
                    worth /= divisor
                    if worth > best:
                        best = worth
        if len(self._final_targets_kept) > _MOST_KEPT:
            self._final_targets_kept.clear()
        self._final_targets_kept[key] = best
        return best

    def _final_worths(self, side: str) -> dict[Hex, float]:
        """Hex -> what reaching it is worth to `side`'s units (those worth something), by the awards paid at the end
        and the places that set a variable a goal needs, as the hexes are held now (kept per holders)."""
        key = (side, self._held_id)
        found = self._worths.get(key)
        if found is not None:
            return found
        to_hold, to_stand = self._to_hold.get(side), self._to_stand.get(side)
        places = [(value, hexes) for owner, value, hexes in self._open_places if owner == side]
        if places:  # places that still set a variable a goal of the side needs: as hexes to stand in
            to_stand = dict(to_stand or {})
            for value, hexes in places:
                for h in hexes:
                    to_stand[h] = to_stand.get(h, 0.0) + value
        found = {}
        if to_hold or to_stand:
            held = dict(zip(self._held_targets, self._held_key)) if to_hold else {}
            for target in {*(to_hold or ()), *(to_stand or ())}:
                worth = (to_stand.get(target, 0.0) if to_stand else 0.0)
                if to_hold and held.get(target) != side:
                    worth += to_hold.get(target, 0.0)
                if worth > 0:
                    found[target] = worth
        if len(self._worths) > _MOST_KEPT // 100:
            self._worths.clear()
        self._worths[key] = found
        return found

    def _best_prey(self, unit: Unit, hex_: Hex) -> float:
        """For a side that scores only by eliminating enemy units: the VP of one, times the unit's closeness to the
        nearest (in hexes: a heuristic, no path search)."""
        hunt = self._hunted.get(unit.side)
        prey = self._prey.get(unit.side)
        if hunt is None or not prey:
            return 0.0
        distance = self.tables.distance[hex_]
        nearest = min(distance[h] for h in prey)
        return hunt[1] / (1.0 + max(0, nearest - 1) / self.weights.closeness_scale)

    def _hunts(self, game: Game) -> dict[str, tuple[frozenset[str], float]]:
        """The sides whose awards pay only for eliminating enemy units and name no place to go: their units are
        drawn to the enemy units those awards pay for (without it nothing says where to look for a battle). Not the
        side that wins unless another meets its conditions (`otherwise`): it need seek no battle."""
        placed = {o.side for o in self.objectives} | set(self._to_hold) | set(self._to_stand)
        hunts = {}
        for side in game.sides:
            awards = [a for a in game.awards if a.side == side]
            if not awards or side in placed or any(a.trigger.kind != "eliminated" for a in awards) or \
                    (game.victory is not None and game.victory.otherwise == side):
                continue
            enemies = frozenset(a.trigger.side for a in awards if a.trigger.side not in (None, side))
            if any(u.side in enemies for u in game.units.values()):
                hunts[side] = (enemies, HUNT_VALUE)
        return hunts

    def _near_list(self, allowance: int, unit_type: str | None) -> dict[Hex, list[tuple[Hex, float]]]:
        """Hex -> (target, divisor) of the targets of the awards paid at the end within NEAR_TURNS turns' moves: a
        target's worth divided by its divisor (its closeness to the hex: 1 + MP / closeness_scale) is what it is worth
        to a unit in the hex (worked out once, not at every unit weighed)."""
        key = (allowance, unit_type if unit_type in self.tables.typed_costs else None)
        found = self._near.get(key)
        if found is None:
            costs = self.tables.costs_for(key[1], self.tables.base_values) if key[1] else self.tables.base_costs
            targets = sorted({h for by_side in (self._to_hold, self._to_stand) for hexes in by_side.values() for h in hexes}
                             | {h for g in (self.variable_goals.goals if self.variable_goals is not None else ())
                                for hexes in g.setting_hexes.values() for h in hexes})
            found = self._near[key] = {}
            scale = self.weights.closeness_scale
            for target in targets:
                for h, distance in _distances(self.tables, (target,), (), allowance, costs,
                                              NEAR_TURNS * max(1, allowance)).items():
                    found.setdefault(h, []).append((target, 1.0 + distance / scale))
        return found

    def _ranked_near(self, side: str, allowance: int, unit_type: str | None) -> dict[Hex, list[tuple[Hex, float, float]]]:
        """Hex -> (target, divisor, the most it may be worth to `side`'s unit in the hex) of the targets of `_near_list`
        that may be worth something to the side, those that may be worth most first: the search for the best stops
        where none left may be worth more than the best found."""
        key = (side, allowance, unit_type)
        found = self._ranked.get(key)
        if found is None:
            most = self._most_worth(side)
            found = self._ranked[key] = {}
            for h, near in self._near_list(allowance, unit_type).items():
                ranked = [(target, divisor, most[target] / divisor) for target, divisor in near if target in most]
                if ranked:
                    ranked.sort(key=_most, reverse=True)
                    found[h] = ranked
        return found

    def _most_worth(self, side: str) -> dict[Hex, float]:
        """Target -> the most it may be worth to `side` (`_final_worths` whoever holds what, every place open), a
        little more (rounding aside), for the targets that may be worth something."""
        to_hold, to_stand = self._to_hold.get(side, {}), self._to_stand.get(side, {})
        most = {target: to_stand.get(target, 0.0) + to_hold.get(target, 0.0) for target in {*to_hold, *to_stand}}
        for goal in self.variable_goals.goals if self.variable_goals is not None else ():
            if goal.award.side == side:
                for hexes in goal.setting_hexes.values():
                    for h in hexes:
                        most[h] = most.get(h, 0.0) + goal.share
        return {target: value * (1.0 + 1e-9) for target, value in most.items() if value > 0}

    def _final_targets(self) -> None:
        """The hexes the awards paid at the end value, by the side whose units draw near them."""
        final = self.final
        if final is None:
            return
        for group in final.groups:
            if group.actor != group.side or group.value <= 0:
                continue  # only what a side gains for itself draws its units
            table = (self._to_hold if group.by == CONTROL else self._to_stand).setdefault(group.actor, {})
            for h in group.hexes:
                table[h] = max(table.get(h, 0.0), group.value)
        self._held_targets = tuple(sorted({h for hexes in self._to_hold.values() for h in hexes}))

    def _compute_best_objective(self, unit: Unit, hex_: Hex, turns_left: int) -> float:
        best = 0.0
        for objective in self.objectives:
            if objective.side != unit.side:
                continue
            distance = objective.distance(unit.move, unit.type).get(hex_)
            if distance is None:
                continue
            if objective.only is not None and not _safe_bool(objective.only, StandInContext(unit=unit)):
                continue
            closeness = 1.0 / (1.0 + distance / self.weights.closeness_scale)
            worth = objective.value * (turns_left if objective.recurring else 1)
            best = max(best, worth * closeness)
        return best

    # -------------------------------------------------------------- objectives
    def _objectives(self, game: Game) -> list[Objective]:
        found = []
        map_ = game.map
        assert map_ is not None  # (objectives are places on the map)
        for award in game.awards:
            trigger = award.trigger
            if trigger.kind == "holds" and trigger.hexes:
                amount = _safe_number(award.amount, StandInContext())
                found.append(Objective(award.side, amount, tuple(trigger.hexes), only=award.only, tables=self.tables))
            elif trigger.kind == "exits" and trigger.edges:
                edge_hexes = tuple(sorted({h for e in trigger.edges for h in map_.edges.get(e, ())}))
                sample = next((u for u in game.units.values() if u.side == award.side), None)
                amount = _safe_number(award.amount, StandInContext(unit=sample, turn=1))
                found.append(Objective(award.side, amount, edge_hexes, tuple(trigger.edges), award.only, tables=self.tables))
            elif trigger.kind == "phase":
                zones = zones_and_edges(map_)  # (an award may count the units in a map edge as in a zone)
                for zone in zones_counted(award):
                    hexes = zones.get(zone)
                    if not hexes:
                        continue
                    sample = next((u for u in game.units.values() if u.side == award.side), None)
                    if sample is None:
                        continue
                    gain = (_safe_number(award.amount, StandInContext(placed=[(sample, hexes[0])], zones=zones))
                            - _safe_number(award.amount, StandInContext(zones=zones)))
                    if gain > 0:
                        found.append(Objective(award.side, gain, tuple(hexes), recurring=True, tables=self.tables))
        for side, edges in (self.final.exit_edges.items() if self.final is not None else ()):
            for edge, value in edges.items():  # a unit off the map by this edge is paid for at the end
                found.append(Objective(side, value, tuple(sorted(map_.edges[edge])), (edge,), tables=self.tables))
        return found


@dataclass
class _Scored:
    """A position scored in full: each unit's term, and their sums by side."""

    positions: dict[str, Hex]
    uids: list[str]
    units: list[Unit]
    unit_of: dict[str, Unit]
    turns_left: int
    totals: dict[Hex, int]  # hex -> the strength there
    by_side: dict[Hex, dict[str, int]]  # hex -> side -> its strength there
    ids_at: dict[Hex, list[str]]  # hex -> the units there
    terms: dict[str, tuple[str, float]]  # unit id -> (its side, its term)
    sums: dict[str, float]  # side -> the sum of its units' terms
    unit_table: dict | None = None  # the state's own table of units, if it has one (never changed in place)
    relocated: Any = None  # the state's last change of hexes, if it tells them (view.units_moved)
    held_id: int = 0  # who held the hexes the awards paid at the end value for holding (Evaluator._held_id)
    _next_to: dict = field(default_factory=dict)
    _threats: dict = field(default_factory=dict)

    def threat(self, hex_: Hex, side: str, neighbours: dict[Hex, tuple[Hex, ...]]) -> int:
        """The strength of `side`'s enemies next to `hex_` (made when first asked for)."""
        key = (hex_, side)
        found = self._threats.get(key)
        if found is None:
            totals, by_side = self.totals, self.by_side
            found = self._threats[key] = sum(totals[n] - by_side[n].get(side, 0)
                                             for n in neighbours.get(hex_, ()) if n in totals)
        return found

    def next_to(self, hex_: Hex, neighbours: dict[Hex, tuple[Hex, ...]]) -> list[tuple[str, str]]:
        """(unit id, side) of the units next to `hex_` (made when first asked for)."""
        found = self._next_to.get(hex_)
        if found is None:
            ids_at, unit_of = self.ids_at, self.unit_of
            found = self._next_to[hex_] = [(uid, unit_of[uid].side) for n in neighbours.get(hex_, ())
                                           for uid in ids_at.get(n, ())]
        return found

    def total(self, side: str) -> float:
        return _total(self.sums, side)


_NOTHING_CHANGED: Final[frozenset] = frozenset()


def _most(ranked: tuple[Hex, float, float]) -> float:
    return ranked[2]


def _total(sums: dict[str, float], side: str) -> float:
    return sum(value if owner == side else -value for owner, value in sums.items())


def zones_counted(award: Award) -> list[str]:
    """The zones the award's amount counts units in: the `zone = NAME` arguments of its calls, as the checker read
    them from its parse tree (model.Expr.zones)."""
    return list(award.amount.zones)


class _SidesAt:
    """Hex -> the sides standing there (`get`), read from the engine's occupied hexes: the engine keeps them from a
    position to the next (patched where a unit moved), so they are known already for nearly every position an AI
    weighs (97% of them in a greedy game on a big map); worked out the first time a hex is asked otherwise."""

    __slots__ = ("state", "_occupants")

    def __init__(self, state: Any):
        self.state = state
        self._occupants: dict[Hex, list[str]] | None = None

    def get(self, h: Hex, default: Any = ()) -> Any:
        occupants = self._occupants
        if occupants is None:
            occupants = self._occupants = self.state.occupants()
        there = occupants.get(h)
        if not there:
            return default
        unit = self.state.unit
        return {unit(uid).side for uid in there}


def _sides_at(state: Any) -> Any:
    """Hex -> the sides standing there, of an engine state (a toy state's units by view)."""
    if callable(getattr(state, "occupants", None)) and callable(getattr(state, "unit", None)):
        return _SidesAt(state)
    found: dict[Hex, set[str]] = {}
    for uid, h in view.unit_hexes(state).items():
        found.setdefault(h, set()).add(view.current_unit(state, uid).side)
    return found


def _position_queries(state: Any) -> tuple[Any, Any]:
    """(stands(hex, side): does a unit of `side` stand in `hex`, holder(hex): who holds it) of an engine state."""
    holders = getattr(state, "holders", {})
    units_at, unit = state.units_at, state.unit

    def stands(h: Hex, side: str) -> bool:
        return any(unit(uid).side == side for uid in units_at(h))

    return stands, lambda h: holders.get(h, "")


def _distances(tables: Tables, targets: tuple[Hex, ...], edges: tuple[str, ...], allowance: int,
               costs: StepCosts, farthest: float | None = None) -> dict[Hex, float]:
    """MP from every hex to the nearest target (and off the map by one of `edges`), as the engine counts them
    (only the hexes at most `farthest` MP away, if given).

    A search backwards from the targets over `costs.entry`: what entering a hex from a
    neighbour costs, road and hexside features included; a river crossing takes the
    unit's whole move, so it costs `allowance`.
    """
    entry, exit_cost = costs.entry, costs.exit_cost
    crossing = max(1, allowance)
    queue = []
    for h in targets:
        if edges:
            leaving = [exit_cost[(h, e)] for e in edges if (h, e) in exit_cost]
            if leaving:
                queue.append((float(min(leaving)), h))
        else:
            queue.append((0.0, h))
    heapq.heapify(queue)
    distance: dict[Hex, float] = {}
    while queue:
        cost, h = heapq.heappop(queue)
        if h in distance:
            continue
        if farthest is not None and cost > farthest:
            break
        distance[h] = cost
        for n in tables.neighbours[h]:
            if n in distance:
                continue
            step = entry[(n, h)]
            if step.cost >= IMPASSABLE:
                continue
            heapq.heappush(queue, (cost + (crossing if step.river else step.cost), n))
    return distance


def _safe_number(expression: Any, context: StandInContext) -> float:
    try:
        return float(expression(context))
    except UNWEIGHABLE:  # an expression that needs more of a real game than the stand-in offers, or no number
        return 1.0


def _safe_bool(expression: Any, context: StandInContext) -> bool:
    try:
        return bool(expression(context))
    except UNANSWERED_OUTSIDE_PLAY:  # as above: when in doubt, the objective counts
        return True


_CACHE: Final[dict[tuple, tuple[Any, Evaluator]]] = {}


def evaluator_for(state: Any) -> Evaluator:
    """The evaluator of a state's game, built once per game model."""
    game = getattr(state, "game", None)
    options = tuple(getattr(state, "options", ()) or ())
    key = (id(game), options)
    cached = _CACHE.get(key)
    if cached is None or cached[0] is not game:
        cached = _CACHE[key] = (game, Evaluator(game, options=options))
    return cached[1]
