"""AI and human players over the generic engine state API.

    make_player("greedy", seed=3)      # "random", "greedy", "mcts" or "human"
"""

from __future__ import annotations

from typing import Any

from rulec.players.greedy import GreedyPlayer
from rulec.players.human import HumanPlayer, QuitGame
from rulec.players.mcts import MCTSPlayer
from rulec.players.random_player import RandomPlayer

PLAYER_KINDS = ("human", "random", "greedy", "mcts")
AI_KINDS = ("random", "greedy", "mcts")
MCTS_SIMULATIONS = 48
MCTS_WIDENING = 5
MCTS_PRIOR_VISITS = 4
MCTS_PRUNE_MARGIN = 1.0


def make_player(kind: str, seed: int = 0, **human_options: Any):
    """A player of the given kind; AI players draw from their own generator seeded by `seed`."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed)
    if kind == "mcts":
        # Tuned for map wargames: few, well-chosen candidates and no random rollouts.
        return MCTSPlayer(seed, max_simulations=MCTS_SIMULATIONS, rollout_depth=0, widening=MCTS_WIDENING,
                          prior_visits=MCTS_PRIOR_VISITS, prune_margin=MCTS_PRUNE_MARGIN)
    if kind == "human":
        return HumanPlayer(**human_options)
    raise ValueError(f"unknown player kind '{kind}'")


__all__ = ["PLAYER_KINDS", "AI_KINDS", "make_player", "RandomPlayer", "GreedyPlayer", "MCTSPlayer",
           "HumanPlayer", "QuitGame"]
