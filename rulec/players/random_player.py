"""The random player: a uniformly drawn legal action (of those an AI searches, search.py: no cancel that
leads back to where the decision began), from its own seeded generator, drawn without listing them all where
the engine can (search.draw_search_action)."""

from __future__ import annotations

import random
from typing import Any

from rulec.players.base import Action
from rulec.players.search import draw_search_action


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> Action:
        return draw_search_action(state, self.rng)
