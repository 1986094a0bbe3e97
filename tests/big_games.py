"""How much of a big game the tests that run every map game play: a random game of a game with a hundred units or
more costs seconds (The Marne: about 2,000 actions), so those tests play a few of its scenarios or the first
actions of a game, and the benchmarks (benchmarks/conformance.py, playouts.py) play the many."""

from __future__ import annotations

BIG_GAME_UNITS = 100
STEPS_OF_A_BIG_GAME = 300  # the actions a test plays of one game of a big game


def is_big(game) -> bool:
    """A game whose random games are too long to play many of in the suite."""
    return len(game.units) >= BIG_GAME_UNITS
