"""The board server's table of games, bounded by count and by memory, that never drops a game in use.

A game is dropped to make room for a new one only once nobody has used it for IDLE_SECONDS; when
every game is in use the new one is refused ("the server is full", HTTP 503) rather than ending
someone's game. Memory is measured, not guessed: when a game is added, the objects it holds and no
other game shares (every position kept for undo and replay) are walked and their sizes summed; as
the game goes on its size is reckoned from that measure per position kept.
"""

from __future__ import annotations

import gc
import secrets
import sys
import threading
import time
import types
from typing import Any, Callable

from rulec.web.session import GameSession, SessionError

MAX_GAMES = 64
MEMORY_BUDGET = 1024 * 2**20  # bytes for all games together; `rulec serve --memory MB`
IDLE_SECONDS = 30 * 60  # a game untouched this long may make room for a new one

_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
           types.MethodType, types.MethodWrapperType)


def retained(root: Any, exclude: set[int]) -> tuple[int, set[int]]:
    """The bytes of the objects reachable from `root` and their ids, not counting those in `exclude`
    (ids) nor classes, modules and functions (shared by every game)."""
    seen = set(exclude)
    todo = [root]
    total = 0
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, _SHARED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        todo.extend(gc.get_referents(item))
    return total, seen


class GameTable:
    """The server's games by id (unguessable ids); `add` refuses with 503 when there is no room."""

    def __init__(self, limit: int = MAX_GAMES, memory_budget: int = MEMORY_BUDGET, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.limit, self.memory_budget, self.idle_seconds, self.clock = limit, memory_budget, idle_seconds, clock
        self._games: dict[str, GameSession] = {}  # least recently used first
        self._used: dict[str, float] = {}
        self._size: dict[str, tuple[int, int]] = {}  # id -> (bytes measured, positions then)
        self._game_objects: dict[int, set[int]] = {}  # id(compiled game) -> ids of the objects it holds
        self._guard = threading.Lock()

    def measure(self, session: GameSession) -> int:
        """The bytes `session` holds apart from its compiled game (shared by every game of that name)."""
        shared = self._game_objects.get(id(session.game))
        if shared is None:
            shared = self._game_objects[id(session.game)] = retained(session.game, set())[1]
        return retained(session, shared)[0]

    def bytes_in_use(self) -> int:
        with self._guard:
            return sum(self._estimate(game_id) for game_id in self._games)

    def _estimate(self, game_id: str) -> int:
        measured, positions = self._size[game_id]
        return measured * max(len(self._games[game_id].states), 1) // max(positions, 1)

    def add(self, session: GameSession) -> str:
        size = self.measure(session)
        if size > self.memory_budget:
            raise SessionError(f"the server is full: this game needs about {size // 2**20} MB, more than the "
                               f"{self.memory_budget // 2**20} MB it may hold (rulec serve --memory)", status=503)
        game_id = secrets.token_urlsafe(9)
        with self._guard:
            now = self.clock()
            while len(self._games) >= self.limit or sum(map(self._estimate, self._games)) + size > self.memory_budget:
                oldest = next(iter(self._games))
                if now - self._used[oldest] < self.idle_seconds:
                    raise SessionError(f"the server is full ({len(self._games)} games in play, about "
                                       f"{sum(map(self._estimate, self._games)) // 2**20} MB): try again later, "
                                       f"when a game has been left for {self.idle_seconds // 60:.0f} minutes", status=503)
                self._drop(oldest)
            self._games[game_id] = session
            self._used[game_id] = now
            self._size[game_id] = (size, len(session.states))
        return game_id

    def _drop(self, game_id: str) -> None:
        del self._games[game_id], self._used[game_id], self._size[game_id]

    def get(self, game_id: str) -> GameSession:
        with self._guard:
            session = self._games.pop(game_id, None)
            if session is not None:
                self._games[game_id] = session  # the most recently used last: the least used is dropped first
                self._used[game_id] = self.clock()
        if session is None:
            raise SessionError(f"no game '{game_id[:40]}' on this server (it may have ended with the server)", status=404)
        return session

    def __len__(self) -> int:
        return len(self._games)

