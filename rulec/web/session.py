"""The games a board server holds: one GameSession per browser tab, each behind its own lock.

A session keeps every position it has been through (clones are cheap), which gives undo
(back to the last die roll or AI decision, never past hidden information) and replay
(step forward and back) without replaying the game. Dice are drawn from the game's seed
and the number of actions so far, as `rulec play` draws them, so a saved game replays alike.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulec.diagnostics import DiagnosticError, render
from rulec.engine import Action, GameState, new_game
from rulec.engine.scenarios import ScenarioError
from rulec.players import AI_KINDS, make_player
from rulec.players.match import ChanceDice
from rulec.players.saves import SavedGame, game_hash, history_strings, read_save, restore
from rulec.players.setup import PLAYER_KINDS, check_options, player_seed
from rulec.web.view import step_events

MAX_GAMES = 64  # past this the least recently used game is dropped: a long-running server stays bounded in memory
MAX_ORDER = 400  # characters in one order line
MAX_LOG = 400  # lines of the event log sent to the page at once: the latest


class SessionError(ValueError):
    """An order or request the game refuses; `rule` is the rule case that forbids it, when known."""

    def __init__(self, message: str, rule: str | None = None, status: int = 400):
        super().__init__(message)
        self.message, self.rule, self.status = message, rule, status


@dataclass
class GameSession:
    name: str  # the game's name in games/ (or its file)
    game: Any
    options: tuple[str, ...]
    seed: int
    kinds: dict[str, str]  # side -> human, random, greedy or mcts
    scenario: str | None = None  # the scenario block played (None: the game's own, if it names one)
    states: list[GameState] = field(default_factory=list)  # states[i]: after i actions
    by_player: list[bool] = field(default_factory=list)  # action i was a human's order
    log: list[list[dict[str, Any]]] = field(default_factory=list)  # log[i]: what action i did (view.step_events)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _players: dict[str, Any] = field(default_factory=dict)
    dice: ChanceDice | None = None  # the n-th die from the seed and n alone, as in `rulec play`

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def saved(self) -> SavedGame:
        return SavedGame(self.name, list(self.options), self.seed, dict(self.kinds), history_strings(self.state),
                         game_hash(self.game), self.state.scenario)

    # ---------------------------------------------------------- playing
    def _push(self, action: Action, human: bool) -> None:
        before = self.state
        after = before.clone()
        after.apply_action(action)
        self.log.append(step_events(before, action, after, len(self.states)))
        self.states.append(after)
        self.by_player.append(human)

    def events(self, step: int | None = None, last: int = MAX_LOG) -> tuple[list[dict[str, Any]], int]:
        """The log's lines up to action `step` (None: all), at most the `last` of them, and how many there are."""
        lines = [event for events in self.log[:step] for event in events]
        return lines[-last:], len(lines)

    def order(self, text: str) -> None:
        """A human's order line (one action, or a one-line attack that stands for several)."""
        state = self.state
        if state.is_terminal():
            raise SessionError("the game is over")
        if state.is_chance_node():
            raise SessionError("the die must be rolled first")
        side = state.players[state.current_player()]
        if self.kinds.get(side, "human") != "human":
            raise SessionError(f"{side} is played by the {self.kinds[side]} AI: let it move")
        if len(text) > MAX_ORDER:
            raise SessionError("the order is too long")
        try:
            actions = state.parse_orders(text)
        except ValueError as error:
            raise SessionError(getattr(error, "message", None) or str(error), getattr(error, "rule", None)) from None
        for action in actions:
            self._push(action, human=True)
        self._roll_dice()

    def _roll_dice(self) -> None:
        """Chance moves need no player: the die is rolled as soon as it is due."""
        if self.dice is None:
            self.dice = ChanceDice(self.seed)
        while self.state.is_chance_node():
            self._push(self.dice.roll(self.state), human=False)

    def ai_step(self) -> str:
        """The AI whose decision is due makes one; its order's text (shown one by one on the page)."""
        state = self.state
        if state.is_terminal():
            raise SessionError("the game is over")
        side = state.players[state.current_player()]
        kind = self.kinds.get(side, "human")
        if kind not in AI_KINDS:
            raise SessionError(f"it is {side}'s decision, and {side} is played by a human")
        player = self._players.get(side)
        if player is None:
            player = self._players[side] = make_player(kind, player_seed(self.seed, state.players.index(side)))
        action = player.choose(state.clone())
        text = state.action_to_string(action)
        self._push(action, human=False)
        self._roll_dice()
        return text

    def undo(self) -> int:
        """Take back the human orders given since the last die roll or AI decision, one at a time:
        the number of actions taken back (0 when there is nothing to take back)."""
        if not self.by_player or not self.by_player[-1]:
            return 0
        self.states.pop()
        self.by_player.pop()
        self.log.pop()
        return 1

    def at(self, step: int) -> GameState:
        """The position after `step` actions (replay)."""
        if not 0 <= step < len(self.states):
            raise SessionError(f"no step {step}: the game has {len(self.states) - 1} actions so far", status=404)
        return self.states[step]


def new_session(name: str, game: Any, options: tuple[str, ...] = (), seed: int = 0,
                kinds: dict[str, str] | None = None, scenario: str | None = None) -> GameSession:
    options = check_options(game, options)
    chosen = {side: (kinds or {}).get(side, "human") for side in game.sides}
    for side, kind in chosen.items():
        if kind not in PLAYER_KINDS:
            raise SessionError(f"'{kind}' is not a kind of player ({', '.join(PLAYER_KINDS)})")
    session = GameSession(name, game, options, seed, chosen, scenario, states=[_start(game, options, seed, scenario)])
    session._roll_dice()
    return session


def _start(game: Any, options: tuple[str, ...], seed: int, scenario: str | None) -> GameState:
    """A new game, or why this scenario and these options cannot be played together (an unknown scenario,
    an option it does not allow)."""
    try:
        return new_game(game, options=options, seed=seed, scenario=scenario)
    except ScenarioError as error:
        raise SessionError(str(error)) from None


def read_uploaded_save(data: dict[str, Any]) -> SavedGame:
    """A save sent to the board, checked by the very loader `rulec play --load` uses (players.saves.read_save:
    its format, version, checksum, ...), so the board refuses what the terminal refuses."""
    with tempfile.TemporaryDirectory(prefix="rulec-upload-") as folder:
        path = Path(folder) / "saved-game.json"
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        try:
            saved, _ = read_save(path)
        except DiagnosticError as error:
            text = "\n".join(render(d) for d in error.diagnostics).replace(str(path), "the saved game")
            raise SessionError(f"cannot load this file: {text}") from None
    return saved


def load_session(saved: SavedGame, game: Any) -> GameSession:
    """A saved game (the format `rulec play` writes), with every position rebuilt for undo and replay."""
    dice = ChanceDice(saved.seed)
    final = restore(saved, "<upload>", "", start=new_game, game=game, sides=list(game.sides),
                    player_kinds=PLAYER_KINDS, dice=dice)
    session = new_session(saved.game, game, tuple(saved.options), saved.seed, saved.players, saved.scenario)
    session.states = [_start(game, tuple(saved.options), saved.seed, saved.scenario)]
    session.by_player, session.log = [], []
    for action in final.history():
        session._push(action, human=False)  # a loaded game's past is not the player's to undo
    session.dice = dice  # it has drawn the saved game's rolls: the dice roll on from there
    session._roll_dice()
    return session


class Registry:
    """The server's games by id: unguessable ids, bounded in number."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self._games: dict[str, GameSession] = {}
        self._guard = threading.Lock()

    def add(self, session: GameSession) -> str:
        game_id = secrets.token_urlsafe(9)
        with self._guard:
            while len(self._games) >= self.limit:
                self._games.pop(next(iter(self._games)))
            self._games[game_id] = session
        return game_id

    def get(self, game_id: str) -> GameSession:
        with self._guard:
            session = self._games.pop(game_id, None)
            if session is not None:
                self._games[game_id] = session  # the most recently used last: the least used is dropped first
        if session is None:
            raise SessionError(f"no game '{game_id[:40]}' on this server (it may have ended with the server)", status=404)
        return session

    def __len__(self) -> int:
        return len(self._games)
