"""Playing one game to its end (or to a turn limit) with a player on every seat.

Chance nodes are sampled from a generator seeded by the game's seed, so the same
seed, options and players always give the same game. `on_action` sees every
action just before it is applied (the CLI prints it, the golden test records it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rulec.players.base import Player, sample_chance

CHANCE_SALT = 0x5EED  # keeps the chance stream apart from the players' own streams


def chance_rng(seed: int) -> random.Random:
    return random.Random(seed * 1_000_003 + CHANCE_SALT)


@dataclass
class MatchResult:
    state: Any
    actions: int  # actions applied in this run, chance outcomes included
    finished: bool  # the game reached its end (not stopped by a turn limit)


def play_match(state: Any, players: Sequence[Player], *, seed: int = 0,
               max_turns: int | None = None, max_actions: int | None = None,
               on_action: Callable[[Any, Any, int], None] | None = None) -> MatchResult:
    """Play `state` on until it ends; `players[i]` plays seat i.

    `max_turns` stops before game turn `first turn + max_turns` starts;
    `max_actions` is a safety stop. `on_action(state, action, seat)` is called
    before each action (seat is the player index, or the CHANCE value).
    """
    rng = chance_rng(seed)
    first_turn = getattr(state, "turn", 1)
    applied = 0
    while not state.is_terminal():
        if max_turns is not None and getattr(state, "turn", first_turn) >= first_turn + max_turns:
            return MatchResult(state, applied, False)
        if max_actions is not None and applied >= max_actions:
            return MatchResult(state, applied, False)
        seat = state.current_player()
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = players[seat].choose(state)
        if on_action is not None:
            on_action(state, action, seat)
        state.apply_action(action)
        applied += 1
    return MatchResult(state, applied, True)
