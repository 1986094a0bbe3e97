"""The battles a position offers (rulec/players/engagement.py), worked out from the last position kept, equal
those worked out afresh, target by target, in the positions the greedy player weighs: a state and its children
one order or one die roll away, along random games."""

from __future__ import annotations

import random

import pytest

from rulec.engine import new_game
from rulec.pipeline import load_game
from rulec.players.base import legal_orders
from rulec.players.evaluation import Evaluator
GAMES = ("the_marne",)


def afresh(game) -> Evaluator:
    """An evaluator that works every position's battles out in full (the evaluator's path for ranged units)."""
    evaluator = Evaluator(game)
    evaluator._kept_battles = None
    return evaluator


@pytest.mark.parametrize("which", ["the_marne", "big_battle"])
def test_battles_kept_from_the_last_position_equal_battles_worked_out_afresh(which):
    game = load_game(which if which in GAMES else f"tests/games/{which}.rulec")
    state = new_game(game, seed=4)
    warm, cold = Evaluator(game), afresh(game)
    assert warm._kept_battles is not None
    rng = random.Random(7)
    compared = offered = 0
    while not state.is_terminal() and compared < 500:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            children = []
            for outcome, _ in outcomes:  # each die roll: a battle's results move and remove units
                child = state.clone()
                child.apply_action(outcome)
                children.append(child)
            state = rng.choice(children)
        else:
            actions = legal_orders(state)
            children = []
            for action in rng.sample(actions, min(6, len(actions))):
                child = state.clone()
                child.apply_action(action)
                children.append(child)
            state.apply_action(rng.choice(actions))
        for child in children:
            for side in game.sides:
                found = warm._engagement(child, side)
                assert found == cold._engagement(child, side)
                compared += 1
                offered += found != 0
    assert compared >= 300
    assert offered >= 20  # positions with battles on offer were compared, not only empty ones
