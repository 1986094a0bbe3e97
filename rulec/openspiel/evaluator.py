"""A leaf evaluator for OpenSpiel's MCTS bot: rulec's own position heuristic instead of random rollouts.

A random rollout of a wargame is a whole game long; the heuristic (rulec.players.evaluation:
VP, strength, closeness to objectives, danger) scores a leaf at once, squashed into
[-1, 1] as OpenSpiel's returns are.
"""

from __future__ import annotations

import math

from open_spiel.python.algorithms import mcts

from rulec.players.evaluation import evaluator_for


class HeuristicEvaluator(mcts.Evaluator):
    """Scores a state for every player with rulec's heuristic; uniform priors over the legal actions."""

    def __init__(self, scale: float = 10.0):
        self.scale = scale  # heuristic points that count as most of a win

    def evaluate(self, state):
        if state.is_terminal():
            return list(state.returns())
        engine = state.engine
        scorer = evaluator_for(engine)
        return [max(-1.0, min(1.0, math.tanh(scorer.score(engine, seat) / self.scale)))
                for seat in range(len(engine.players))]

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]
