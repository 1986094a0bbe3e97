"""The greedy player: one ply of lookahead on a heuristic evaluation.

Each legal action is tried on a clone of the state. What follows it before the
mover's next free decision is resolved too: a chance node (a battle's die roll)
by its expectation, and a reaction (a retreat or advance choice, recognisable as
a decision without an `end` order) by the reacting side's best choice. The
resulting state is scored by `rulec.players.evaluation.Evaluator` (VP, strength
on the map, closeness to the objectives, units in danger). Ties go to a seeded
random choice, so two greedy players do not mirror each other.

On a big map a movement phase offers a thousand moves or more, so not every one
is played out: each move is first given its value without a clone
(`Evaluator.move_values`: the evaluator's terms of the moved unit and of the
enemies next to the hexes it leaves and enters, worked out again), and only the
best MOVES_PLAYED_OUT of them, the moves into a hex an award pays for holding,
and every other order (`end` among them) are played out on clones. A look-ahead
stops at a decision the engine says is the phase's own (`state.pending` is
None) without listing its legal actions, and reactions are followed only while
they branch into at most MAX_REACTION_LINES lines of play.

Battles are declared step by step (`attack HEX`, `with UNIT`..., `resolve`), so
the greedy player weighs a battle as a plan: for each target, groups of the
units that may attack it (every group when there are few, the strongest k and
each unit alone when there are many; of the groups that would fight at the same
odds, only the one committing least strength, and the widest group), each played
out on a clone to its die roll's expectation (rolls that leave the same position
weighed once), against ending the phase. The chosen plan's steps are then
given one per decision. A placement is weighed the same way, as a plan of its two steps
(`place UNIT`, then `place UNIT HEX`), every unit in every hex, against ending the phase.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Final

from rulec.engine.actions import Action as EngineAction
from rulec.engine.actions import IllegalAction
from rulec.players.base import Action, Thinking, legal_orders
from rulec.players.evaluation import Evaluator, evaluator_for
from rulec.runtime.errors import ExpressionFailed

MAX_REACTION_CHOICES = 12  # reactions with more choices are scored as they stand
REACTION_DEPTH: Final = 3
MAX_REACTION_LINES: Final = 48  # reactions are weighed while they branch into at most this many lines (a retreat, then the advance)
END_ORDER: Final = "end"
MOVE_ORDER: Final = "move"
# Of many moves, only this many (the best by a quick estimate) are played out on clones; the other orders always are.
MOVES_PLAYED_OUT: Final = 16
ALL_GROUPS_UP_TO: Final = 5  # attackers of one target: every group of up to this many is weighed, else a few


def is_free_decision(state: Any, actions: list[Any]) -> bool:
    """A decision the mover may end (a phase of orders), as opposed to a forced reaction."""
    # Engines list `end` last. (By index: the compiled build's mypyc cannot compile a loop over reversed(list[Any]).)
    return any(_is_end(state, actions[index]) for index in range(len(actions) - 1, -1, -1))


def _is_end(state: Any, action: Any) -> bool:
    kind = getattr(action, "kind", None)  # cheaper than formatting every action
    return kind == END_ORDER if kind is not None else state.action_to_string(action) == END_ORDER


class GreedyPlayer:
    name = "greedy"

    def __init__(self, seed: int = 0, evaluator: Evaluator | None = None):
        self.rng = random.Random(seed)
        self.evaluator = evaluator
        self._plan: list[Action] = []  # the rest of a battle plan, given one step per decision
        self._plan_at: Any = None  # (state id, history length) the next step is for

    def choose(self, state: Any) -> Action:
        with Thinking():
            return self._choose(state)

    def _choose(self, state: Any) -> Action:
        planned = self._next_step(state)
        if planned is not None:
            return planned
        actions = legal_orders(state)  # a move weighed by where it ends: both steps at once
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        evaluator = self.evaluator or evaluator_for(state)
        if callable(getattr(evaluator, "focus", None)):  # an evaluator of the caller's may not keep positions
            evaluator.focus(state)
        if _declares_battles(state, actions):
            started: dict[Action, Any] = {}
            return self._choose_plan(state, battle_plans(state, actions, started), seat, evaluator, started)
        if _chooses_units_to_place(actions):
            started = {}
            return self._choose_plan(state, placement_plans(state, actions, started), seat, evaluator, started)
        scored = [(self.action_value(state, actions[index], seat, evaluator), index)
                  for index in shortlist(state, actions, seat, evaluator)]
        best = max(score for score, _ in scored)
        # Near-ties (float noise) count as ties; ending the phase wins ties so units are not shuffled in vain.
        tied = [index for score, index in scored if score >= best - 1e-9]
        for index in tied:
            if _is_end(state, actions[index]):
                return actions[index]
        return actions[self.rng.choice(tied)]

    # ------------------------------------------------------------ battles as plans
    def _next_step(self, state: Any) -> Action | None:
        if not self._plan or self._plan_at != _moment(state, 0):
            self._plan = []
            return None
        step = self._plan.pop(0)
        self._plan_at = _moment(state, 1)
        return step

    def _choose_plan(self, state: Any, plans: list[list], seat: int, evaluator: Evaluator,
                     started: dict[Action, Any]) -> Action:
        """The first step of the best plan (ending the phase wins ties); its other steps follow, one a decision.
        `started`: a first step -> the state after it, made when the plans were listed (it is not played again)."""
        phase = phase_key(state)
        scored = []
        for index, plan in enumerate(plans):
            after_first = started.get(plan[0]) if len(plan) > 1 else None
            child = (after_first or state).clone()
            try:
                for step in plan[1 if after_first is not None else 0:]:
                    child.apply_action(step)
            except IllegalAction:  # a group the rules refuse as a whole (a unit bound to attack left out)
                continue
            scored.append((resolve(child, seat, evaluator, REACTION_DEPTH, phase), index))
        if getattr(state, "declaring", None) is not None:
            # A declaration under way was begun by a plan or forced (a unit bound to attack, nothing else to do):
            # cancelling it only leads back to it, so a battle that may be fought is fought.
            fought = [(score, index) for score, index in scored if getattr(plans[index][0], "kind", None) != "cancel"]
            scored = fought or scored
        best = max(score for score, _ in scored)
        tied = [index for score, index in scored if score >= best - 1e-9]
        ending = [index for index in tied if _is_end(state, plans[index][0])]
        plan = list(plans[ending[0] if ending else self.rng.choice(tied)])
        self._plan, self._plan_at = plan[1:], _moment(state, 1)
        return plan[0]

    def action_value(self, state: Any, action: Action, seat: int, evaluator: Evaluator) -> float:
        return resolve(_after(state, action), seat, evaluator, REACTION_DEPTH, phase_key(state))


def _phases_own_decision(state: Any) -> bool:
    """The decision due is the phase's own (more orders, or `end`), not a reaction pending in it: known from
    the engine's `pending` without listing the legal actions (a movement phase's are costly to list)."""
    return getattr(state, "pending", _UNKNOWN) is None


_UNKNOWN: Final = object()  # a state that does not say what is pending (a toy game): its legal actions tell


def shortlist(state: Any, actions: list, seat: int, evaluator: Evaluator) -> list[int]:
    """The indexes of the actions worth playing out on a clone: every order but a move, and the moves
    the evaluator rates best without playing them (`Evaluator.move_values`) when there are many, and
    the moves into a hex an award pays for holding (what the engine scores for that, the quick value misses)."""
    moves = [index for index, action in enumerate(actions) if getattr(action, "kind", None) == MOVE_ORDER]
    if len(moves) <= MOVES_PLAYED_OUT:
        return list(range(len(actions)))
    values = evaluator.move_values(state, seat, [(actions[i].unit, actions[i].hex) for i in moves])
    best = sorted(range(len(moves)), key=values.__getitem__, reverse=True)[:MOVES_PLAYED_OUT]
    held = getattr(evaluator, "held_hexes", ())
    kept = {moves[i] for i in best} | {i for i in moves if actions[i].hex in held}
    return [index for index, action in enumerate(actions) if index in kept or action.kind != MOVE_ORDER]


def _moment(state: Any, ahead: int) -> tuple:
    return id(state), len(state.history()) + ahead


def _declares_battles(state: Any, actions: list) -> bool:
    """A decision about battles: targets to attack, or the attackers of a battle being declared."""
    return getattr(state, "declaring", None) is not None or any(
        getattr(a, "kind", None) == "attack" and not getattr(a, "units", None) for a in actions)


def _chooses_units_to_place(actions: list) -> bool:
    """A placement's first step: units to place (`place UNIT`, no hex yet)."""
    return any(getattr(a, "kind", None) == "place" and getattr(a, "hex", "") is None for a in actions)


def placement_plans(state: Any, actions: list, started: dict | None = None) -> list[list]:
    """Each unit placed in each hex open to it (both steps), or ending the phase (`started`, if given,
    keeps the state after each first step)."""
    plans: list[list] = []
    for action in actions:
        if getattr(action, "kind", None) == "place" and action.hex is None:
            child = state.clone()
            child.apply_action(action)
            if child.pending is None:  # a unit on the map regained a step (placement { restore }): one step only
                plans.append([action])
            else:
                plans.extend([action, second] for second in child.legal_actions() if second.kind == "place")
            if started is not None:
                started[action] = child
        else:
            plans.append([action])
    return plans


def battle_plans(state: Any, actions: list, started: dict | None = None) -> list[list]:
    """Whole courses of action from here: each battle that may be declared (a target and a group of
    attackers, resolved), or ending the phase, or (mid-declaration) cancelling (`started`, if given,
    keeps the state after each first step)."""
    plans: list[list] = []
    if getattr(state, "declaring", None) is not None:
        return _group_plans(state, actions, [])
    for action in actions:
        if getattr(action, "kind", None) == "attack":
            child = state.clone()
            child.apply_action(action)
            plans.extend(p for p in _group_plans(child, child.legal_actions(), [action]) if p[-1].kind != "cancel")
            if started is not None:
                started[action] = child
        else:
            plans.append([action])
    return plans


def _group_plans(state: Any, actions: list, before: list) -> list[list]:
    """In a battle being declared: resolve it as it is or cancel it (whichever is offered), or add a
    group of the eligible attackers and resolve."""
    joins = [a for a in actions if a.kind == "with"]
    # Resolve as declared or cancel; further targets of a multi-hex battle are not weighed (one target a plan).
    plans = [before + [a] for a in actions if a.kind not in ("with", "attack")]
    if len(joins) <= ALL_GROUPS_UP_TO:
        groups = [g for k in range(1, len(joins) + 1) for g in combinations(joins, k)]
    else:
        strength = {a: state.unit(a.unit).strength for a in joins}
        strongest = sorted(joins, key=lambda a: -strength[a])
        groups = [tuple(strongest[:k]) for k in range(2, len(joins) + 1)] + [(a,) for a in joins]
    if before:
        groups = _fewest_for_each_odds(state, before[0].hex, groups)
    plans.extend(before + list(group) + [EngineAction.resolve()] for group in groups)
    return plans


def _fewest_for_each_odds(state: Any, target: Any, groups: list[tuple]) -> list[tuple]:
    """Of the groups that would fight `target` at the same odds (the same column and die modifier: the same
    chances), only the one that commits the least strength (then the fewest units): the others risk more for
    nothing, and keep fewer units free for other battles."""
    odds_of = getattr(state, "odds", None)
    if odds_of is None or target is None:
        return groups
    kept: dict[tuple, tuple] = {}
    strength = {}
    for group in groups:
        try:
            odds = odds_of(EngineAction.attack(target, tuple(a.unit for a in group)))
        except ExpressionFailed:  # a modifier that cannot be asked before the declaration is made: weigh the group
            return groups
        for a in group:
            if a.unit not in strength:
                strength[a.unit] = state.unit(a.unit).strength
        cost = (sum(strength[a.unit] for a in group), len(group))
        key = (odds.column, odds.drm)
        if key not in kept or cost < kept[key][0]:
            kept[key] = (cost, group)
    chosen = {id(group) for _, group in kept.values()}
    # Every group of them, too: a duty to attack (a unit that must join the battle) may make a smaller group illegal.
    widest = max(groups, key=len, default=None)
    return [group for group in groups if id(group) in chosen or group is widest]


# What tells two positions of an engine state apart once a die has been rolled (the roll itself aside).
_POSITION_PARTS: Final[tuple[str, ...]] = ("pos", "where", "vp", "holders", "lost_steps", "exited_from", "_stack", "terminal")


def _same_position(one: Any, other: Any) -> bool:
    """Whether two engine states after two die rolls stand the same (two rolls of one result): compared part
    by part (units, VP, holders, what is pending, markers); a state without those parts is never the same."""
    try:
        if any(getattr(one, part) != getattr(other, part) for part in _POSITION_PARTS):
            return False
        return one.markers.units == other.markers.units and one.markers.hexes == other.markers.hexes
    except AttributeError:
        return False


def _after(state: Any, action: Any) -> Any:
    """The position after `action`, to be weighed: an engine state's look_ahead (what the engine would keep for the
    next decisions is left out: a position weighed is asked few of them), else a clone with the action played."""
    look_ahead = getattr(state, "look_ahead", None)
    if callable(look_ahead):
        return look_ahead(action)
    child = state.clone()
    child.apply_action(action)
    return child


def _chance_results(state: Any, count: int) -> list[Any]:
    """What each chance outcome leads to, where the state tells (an engine state: outcomes of one result leave the
    same position), else None for each (each is played out, and compared with the others' positions)."""
    results = getattr(state, "chance_results", None)
    found = results() if callable(results) else None
    return list(found) if found is not None and len(found) == count else [None] * count


def phase_key(state: Any) -> tuple:
    phase = getattr(state, "phase", None)
    return (getattr(state, "turn", 0), getattr(phase, "id", phase))


def resolve(state: Any, seat: int, evaluator: Evaluator, depth: int, phase: tuple, lines: int = 1,
            met_again: bool = False) -> float:
    """The value for `seat` of `state` once its chance outcomes and forced reactions are played out.

    A reaction is a decision in the same phase that cannot be ended (a retreat,
    an advance); the reacting player is assumed to choose what is best for it.
    `lines` counts the lines of play the reactions so far branched into (each
    die roll is weighed whatever its count): a reaction that would make more
    than MAX_REACTION_LINES of them is scored as it stands (removing units one
    by one from a crowded stack, say, would otherwise branch at every unit).
    `met_again`: whether `state` may be met again in this decision (it follows a roll or a reaction: two orders of
    removals end in one position); a candidate's own position is not (each candidate ends somewhere else), so the
    evaluator does not remember its outlook (in a movement phase, almost every position weighed is one).
    """
    if state.is_terminal() or depth == 0:
        return evaluator.outlook(state, seat, met_again)
    if state.is_chance_node():
        total = 0.0
        weighed: list[tuple[Any, float]] = []  # (position after an outcome, its value): rolls of one result share it
        outcomes = state.chance_outcomes()
        results = _chance_results(state, len(outcomes))
        by_result: dict[Any, float] = {}  # an outcome's result (the engine's) -> its value: not played out again
        for (outcome, probability), result in zip(outcomes, results):
            value = by_result.get(result) if result is not None else None
            if value is None:
                value = _weigh(state, outcome, weighed, seat, evaluator, depth - 1, phase, lines)
                if result is not None:
                    by_result[result] = value
            total += probability * value
        return total
    if phase_key(state) != phase or _phases_own_decision(state):
        return evaluator.outlook(state, seat, met_again)
    actions = state.legal_actions()
    lines *= len(actions)
    if is_free_decision(state, actions) or len(actions) > MAX_REACTION_CHOICES or lines > MAX_REACTION_LINES:
        return evaluator.outlook(state, seat, met_again)
    # (position after a reaction, its value): reactions that leave the same position (two routes of a retreat to
    # one hex) are weighed once
    weighed = []
    values = [_weigh(state, action, weighed, seat, evaluator, depth - 1, phase, lines) for action in actions]
    return max(values) if state.current_player() == seat else min(values)


def _weigh(state: Any, action: Any, weighed: list[tuple[Any, float]], seat: int, evaluator: Evaluator, depth: int,
           phase: tuple, lines: int) -> float:
    """The value of `state` after `action`, resolved to `depth`: that of a position of `weighed` it equals, else
    worked out (and added to them)."""
    child = _after(state, action)
    value = next((v for other, v in weighed if _same_position(child, other)), None)
    if value is None:
        value = resolve(child, seat, evaluator, depth, phase, lines, met_again=True)
        weighed.append((child, value))
    return value
