"""The greedy player: one ply of lookahead on a heuristic evaluation.

Each legal action is tried on a clone of the state. What follows it before the
mover's next free decision is resolved too: a chance node (a battle's die roll)
by its expectation, and a reaction (a retreat or advance choice, recognisable as
a decision without an `end` order) by the reacting side's best choice. The
resulting state is scored by `rulec.players.evaluation.Evaluator` (VP, strength
on the map, closeness to the objectives, units in danger). Ties go to a seeded
random choice, so two greedy players do not mirror each other.
"""

from __future__ import annotations

import random
from typing import Any

from rulec.players.base import Action
from rulec.players.evaluation import Evaluator, evaluator_for

MAX_REACTION_CHOICES = 12  # reactions with more choices are scored as they stand
REACTION_DEPTH = 3
END_ORDER = "end"


def is_free_decision(state: Any, actions: list) -> bool:
    """A decision the mover may end (a phase of orders), as opposed to a forced reaction."""
    return any(_is_end(state, action) for action in reversed(actions))  # engines list `end` last


def _is_end(state: Any, action: Any) -> bool:
    kind = getattr(action, "kind", None)  # cheaper than formatting every action
    return kind == END_ORDER if kind is not None else state.action_to_string(action) == END_ORDER


class GreedyPlayer:
    name = "greedy"

    def __init__(self, seed: int = 0, evaluator: Evaluator | None = None):
        self.rng = random.Random(seed)
        self.evaluator = evaluator

    def choose(self, state: Any) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        evaluator = self.evaluator or evaluator_for(state)
        scored = [(self.action_value(state, action, seat, evaluator), index) for index, action in enumerate(actions)]
        best = max(score for score, _ in scored)
        # Near-ties (float noise) count as ties; ending the phase wins ties so units are not shuffled in vain.
        tied = [index for score, index in scored if score >= best - 1e-9]
        for index in tied:
            if _is_end(state, actions[index]):
                return actions[index]
        return actions[self.rng.choice(tied)]

    def action_value(self, state: Any, action: Action, seat: int, evaluator: Evaluator) -> float:
        child = state.clone()
        child.apply_action(action)
        return resolve(child, seat, evaluator, REACTION_DEPTH, phase_key(state))


def phase_key(state: Any) -> tuple:
    phase = getattr(state, "phase", None)
    return (getattr(state, "turn", 0), getattr(phase, "id", phase))


def resolve(state: Any, seat: int, evaluator: Evaluator, depth: int, phase: tuple) -> float:
    """The value for `seat` of `state` once its chance outcomes and forced reactions are played out.

    A reaction is a decision in the same phase that cannot be ended (a retreat,
    an advance); the reacting player is assumed to choose what is best for it.
    """
    if state.is_terminal() or depth == 0:
        return evaluator.score(state, seat)
    if state.is_chance_node():
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            total += probability * resolve(child, seat, evaluator, depth - 1, phase)
        return total
    actions = state.legal_actions()
    if (phase_key(state) != phase or is_free_decision(state, actions)
            or len(actions) > MAX_REACTION_CHOICES):
        return evaluator.score(state, seat)
    values = []
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        values.append(resolve(child, seat, evaluator, depth - 1, phase))
    return max(values) if state.current_player() == seat else min(values)
