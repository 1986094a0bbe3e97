"""What every player is: something that picks one legal action for a state.

Players depend only on the generic state API of `rulec.engine` (OpenSpiel-like:
`current_player()`, `legal_actions()`, `apply_action()`, `clone()`,
`is_chance_node()`, `chance_outcomes()`, `is_terminal()`, `returns()`), so they
play any compiled game and the toy games of the tests alike.
"""

from __future__ import annotations

import gc
import random
import threading
from typing import Any, Final, Protocol, Sequence

Action = Any  # whatever the engine uses; players only pass actions back to it


class Player(Protocol):
    """A player for one seat; `choose` is only called when it is that seat's turn."""

    name: str

    def choose(self, state: Any) -> Action:
        """The action to play in `state` (one of `state.legal_actions()`, or of `legal_orders`)."""
        ...


def legal_orders(state: Any) -> list:
    """Every order legal now, a move given at once (`move UNIT HEX`) rather than in its two steps, where the
    engine says so (GameState.legal_orders); otherwise the legal actions (a toy game)."""
    orders = getattr(state, "legal_orders", None)
    return orders() if orders is not None else state.legal_actions()


def sample_chance(state: Any, rng: random.Random) -> Action:
    """Draw a chance outcome of a chance node with its probability."""
    outcomes: Sequence[tuple[Action, float]] = state.chance_outcomes()
    actions = [action for action, _ in outcomes]
    weights = [probability for _, probability in outcomes]
    return rng.choices(actions, weights=weights, k=1)[0]


# While an AI thinks it makes positions by the thousand (clones, the states after each candidate), each a few dicts and
# sets that live only while it is weighed. They hold no reference cycle (counting references frees them), but Python's
# cycle collector looks for cycles every 700 new containers: about a tenth of a greedy decision on a big game. While an
# AI thinks, it looks for them every THINKING_COLLECTION_PACE new containers instead (it still runs).
THINKING_COLLECTION_PACE: Final = 20_000


class _Pace:
    """How many AIs of the process think now, in every thread, and the collector's thresholds before the first began."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thinking = 0
        self.before: tuple[int, int, int] = gc.get_threshold()


_PACE: Final = _Pace()


class Thinking:
    """`with Thinking():` around an AI's decision, or a whole game of AIs (a simulated game: random play leaves no
    cycles either): the cycle collector at its thinking pace while any AI of the process thinks (several may, in
    threads: the board's games), then as it was (a pace already slower, or a collector turned off, is left alone)."""

    def __enter__(self) -> None:
        with _PACE.lock:
            _PACE.thinking += 1
            if _PACE.thinking == 1:
                _PACE.before = before = gc.get_threshold()
                if 0 < before[0] < THINKING_COLLECTION_PACE:
                    gc.set_threshold(THINKING_COLLECTION_PACE, before[1], before[2])

    def __exit__(self, *raised: object) -> None:
        with _PACE.lock:
            _PACE.thinking -= 1
            if _PACE.thinking == 0:
                gc.set_threshold(*_PACE.before)
