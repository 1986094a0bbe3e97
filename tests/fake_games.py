"""Tiny game-agnostic games implementing the engine's state API, for player tests.

`DiceRace`: two runners on a track of `goal` squares. On your turn you either
`walk` (one square, sure) or `dash` (a chance node follows: `roll 1`..`roll 3`
squares, but a roll of 1 costs you the next square as well, i.e. 0 net). The
first to reach the goal wins; `vp` is each runner's square. A good player
dashes (mean 1.33 > 1); a bad one walks. `Nim`: take 1..3 from a heap; taking the
last stone wins, so an exact player always leaves a multiple of 4.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

CHANCE = -1
TERMINAL = -4


class IllegalAction(ValueError):
    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class ActionSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class FakePhase:
    id: str
    name: str


@dataclass(frozen=True)
class FakeOutcome:
    winner: str | None
    level: str
    margin: int
    vp: dict


class _State:
    players: tuple[str, ...] = ("red", "blue")

    def __init__(self, seed: int = 0):
        self.game = None
        self.options = ()
        self.seed = seed
        self.turn = 1
        self.phase = FakePhase("play", "Play")
        self._to_move = 0
        self.phase = FakePhase(self.players[0], "Red's move")
        self._history: list[str] = []
        self._winner: int | None = None

    # the shared API
    def is_terminal(self) -> bool:
        return self._winner is not None

    def returns(self) -> list[float]:
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0 if i == self._winner else -1.0 for i in range(2)]

    def outcome(self) -> FakeOutcome:
        winner = None if self._winner is None else self.players[self._winner]
        return FakeOutcome(winner, "Win" if winner else "Draw", 0, dict(self.vp))

    def history(self) -> list[str]:
        return list(self._history)

    def clone(self):
        return copy.deepcopy(self)

    def action_to_string(self, action: str) -> str:
        return action

    def parse_action(self, text: str) -> str:
        text = " ".join(text.split())
        if not text or text.split()[0] not in self.WORDS:
            raise ActionSyntaxError(f"not an order: '{text}'")
        if text not in (self.chance_outcomes_list() if self.is_chance_node() else self.legal_actions()):
            raise IllegalAction(f"'{text}' is not allowed now", rule="toy:1")
        return text

    def apply_action(self, action: str) -> None:
        legal = [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"'{action}' is not allowed now", rule="toy:1")
        self._history.append(action)
        self._apply(action)

    def _pass_move(self) -> None:
        self._to_move = 1 - self._to_move
        self.phase = FakePhase(self.players[self._to_move], f"{self.players[self._to_move].title()}'s move")
        if self._to_move == 0:
            self.turn += 1

    def chance_outcomes_list(self) -> list[str]:
        return [a for a, _ in self.chance_outcomes()]


class DiceRace(_State):
    WORDS = ("walk", "dash", "roll")

    def __init__(self, goal: int = 12, seed: int = 0):
        super().__init__(seed)
        self.goal = goal
        self.vp = {"red": 0, "blue": 0}
        self._dashing = False

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self._dashing else self._to_move

    def is_chance_node(self) -> bool:
        return self._dashing and not self.is_terminal()

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return [(f"roll {n}", 1 / 3) for n in (1, 2, 3)] if self.is_chance_node() else []

    def legal_actions(self) -> list[str]:
        if self.is_terminal() or self._dashing:
            return []
        return ["walk", "dash"]

    def _apply(self, action: str) -> None:
        side = self.players[self._to_move]
        if action == "dash":
            self._dashing = True
            return
        squares = 1 if action == "walk" else {1: 0, 2: 2, 3: 3}[int(action.split()[1])]
        self._dashing = False
        self.vp[side] += squares
        if self.vp[side] >= self.goal:
            self._winner = self._to_move
            return
        self._pass_move()


class Nim(_State):
    WORDS = ("take",)

    def __init__(self, stones: int = 10, seed: int = 0):
        super().__init__(seed)
        self.stones = stones
        self.vp = {"red": 0, "blue": 0}

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self._to_move

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list:
        return []

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        return [f"take {n}" for n in (1, 2, 3) if n <= self.stones]

    def _apply(self, action: str) -> None:
        self.stones -= int(action.split()[1])
        if self.stones == 0:
            self._winner = self._to_move
            return
        self._pass_move()
