"""The most movement points a move on a game's map can use: past it, more MP change nothing.

A move worth making never enters a hex twice, so it takes at most (hexes - 1) steps, and no step
costs more than every MP cost the game writes for a hex, a hexside and an enemy zone of control
added together. A movement allowance above that bound moves a unit exactly as the bound does, but
the movement search's work and memory grow with the allowance (`move = 1000000000` exhausted the
memory): the checker warns of such an allowance and plays it as the bound (rulec/check/
movement_bounds.py), and an allowance that unit modifiers raise past it is cut to it in play.

When a cost is an expression (its value known only in play) the map gives no bound, and
MAX_ALLOWANCE alone applies: more MP than any board game gives a unit.
"""

from __future__ import annotations

import weakref
from typing import Any

MAX_ALLOWANCE = 100_000  # MP: far past any map's longest move, small enough for the search's tables

_BOUNDS: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()


def useful_allowance(game: Any) -> int:
    """The most MP a move on `game`'s map can spend (at most MAX_ALLOWANCE)."""
    try:
        return _BOUNDS[game]
    except (KeyError, TypeError):
        pass
    bound = _compute(game)
    try:
        _BOUNDS[game] = bound
    except TypeError:  # not weakly referable (a test's stand-in game): worked out each time
        pass
    return bound


def _compute(game: Any) -> int:
    game_map = getattr(game, "map", None)
    step = largest_step(game)
    if game_map is None or step is None:
        return MAX_ALLOWANCE
    return max(1, min(MAX_ALLOWANCE, max(1, len(game_map.hexes) - 1) * step))


def largest_step(game: Any) -> int | None:
    """An upper bound of what one step may cost in MP (every cost written added together); None when a
    cost is an expression."""
    total = 1
    for terrain in getattr(game, "terrain", {}).values():
        costs = [terrain.move, *terrain.move_for.values()]
        extra = terrain.move_extra
        if any(not isinstance(c, int) for c in costs if c is not None) or not isinstance(extra, int):
            return None
        total += max([c for c in costs if c is not None] + [0]) + max(extra, 0)
    for hexside in getattr(game, "hexside_types", {}).values():
        costs = [hexside.move, hexside.move_extra, *hexside.move_extra_for.values()]
        if any(not isinstance(c, int) for c in costs if c is not None):
            return None
        total += sum(max(c, 0) for c in costs if c is not None)
    movement = getattr(game, "movement", None)
    if movement is not None:
        total += max(movement.zoc_extra_cost, 0)
        if movement.leave_zoc is not None:
            total += max(movement.leave_zoc.cost, 0)
        if isinstance(movement.exit_cost, int):
            total += max(movement.exit_cost, 0)
    return total
