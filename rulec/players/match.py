"""Playing one game to its end (or to a turn limit) with a player on every seat.

The outcome of the n-th chance node of a game depends on the game's seed and n
alone (ChanceDice), so the same seed, options and players always give the same
game, and a game saved and resumed any number of times rolls the same dice as
one played straight through. `on_action` sees every action just before it is
applied (the CLI prints it, the golden test records it).
"""

from __future__ import annotations

import random
from bisect import bisect
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rulec.players.base import Player

CHANCE_SALT = 0x5EED  # keeps the chance stream apart from the players' own streams


def chance_rng(seed: int) -> random.Random:
    return random.Random(seed * 1_000_003 + CHANCE_SALT)


class ChanceDice:
    """The dice of one game: the n-th chance outcome is drawn with the n-th number of the seed's stream.

    Each draw takes exactly one number of `chance_rng(seed)`, whatever the node's outcomes, so
    a game resumed after `drawn` chance nodes skips `drawn` numbers and rolls on as if it had
    never stopped (linear in the history, like replaying it).
    """

    def __init__(self, seed: int, drawn: int = 0):
        self.seed = seed
        self.drawn = 0
        self._rng = chance_rng(seed)
        for _ in range(drawn):
            self._rng.random()
        self.drawn = drawn

    def roll(self, state: Any) -> Any:
        """The outcome of `state`'s chance node (with its probability), and one more draw made."""
        outcomes = state.chance_outcomes()
        cumulative, total = [], 0.0
        for _, probability in outcomes:
            total += probability
            cumulative.append(total)
        # As random.choices draws one item with weights: one number, scaled by the total, bisected.
        index = bisect(cumulative, self._rng.random() * total, 0, len(outcomes) - 1)
        self.drawn += 1
        return outcomes[index][0]


@dataclass
class MatchResult:
    state: Any
    actions: int  # actions applied in this run, chance outcomes included
    finished: bool  # the game reached its end (not stopped by a turn limit)


# A game with no last turn ends only by a sudden death (rulec check refuses one with none that can fire: no-end),
# but whether one comes true in play no checker can tell: a match stops such a game after this many turns, unfinished,
# rather than play for ever (rulec simulate, an AI game of rulec play).
MOST_TURNS_WITHOUT_A_LAST_TURN = 1_000


def play_match(state: Any, players: Sequence[Player], *, seed: int = 0, dice: ChanceDice | None = None,
               max_turns: int | None = None, max_actions: int | None = None,
               on_action: Callable[[Any, Any, int], None] | None = None) -> MatchResult:
    """Play `state` on until it ends; `players[i]` plays seat i.

    `max_turns` stops before game turn `first turn + max_turns` starts (a game with no last turn: after
    MOST_TURNS_WITHOUT_A_LAST_TURN turns at most); `max_actions` is a safety stop. `on_action(state, action, seat)`
    is called before each action (seat is the player index, or the CHANCE value). `dice`
    (default: a game's dice from `seed`, none drawn yet) rolls every chance node;
    a resumed game passes the dice its restored history has drawn.
    """
    dice = dice if dice is not None else ChanceDice(seed)
    first_turn = getattr(state, "turn", 1)
    if getattr(state, "last_turn", 1) == 0:
        max_turns = min(max_turns, MOST_TURNS_WITHOUT_A_LAST_TURN) if max_turns is not None \
            else MOST_TURNS_WITHOUT_A_LAST_TURN
    applied = 0
    while not state.is_terminal():
        if max_turns is not None and getattr(state, "turn", first_turn) >= first_turn + max_turns:
            return MatchResult(state, applied, False)
        if max_actions is not None and applied >= max_actions:
            return MatchResult(state, applied, False)
        seat = state.current_player()
        if state.is_chance_node():
            action = dice.roll(state)
        else:
            action = players[seat].choose(state)
        if on_action is not None:
            on_action(state, action, seat)
        state.apply_action(action)
        applied += 1
    return MatchResult(state, applied, True)
