"""The random player: a uniformly drawn legal action, from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

from rulec.players.base import Action


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> Action:
        return self.rng.choice(state.legal_actions())
