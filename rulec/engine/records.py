"""What a position records of what happened: the VP log's entries, the outcome, the last battle, and each
unit's history (what it did, and which hexes were entered, by phase). Data only: the mechanisms that write them
(victory.py, battles.py, history.py) stand above the position (position.py), which holds them.

History: per unit and event (moved, attacked, defended, retreated) the serial numbers of
the phases it happened in; per hex the serials it was entered in and the side of
the last unit to enter it. Serials number the phases from the game's start; a
unit's (or hex's) stamps older than the previous turn, which no scope reaches,
are dropped when it gets a new one, so the record stays a few short tuples per
unit however long the game. Scopes (compile/functions.py) are ranges of serials, [low, high):
this_phase, this_player_turn, this_turn, previous_player_turn, previous_turn,
and previous(K): the last phase of kind or id K that ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulec.engine.combat import Odds
from rulec.engine.frames import Battle
from rulec.runtime.model import Hex

@dataclass(frozen=True)
class VpEntry:
    """One line of the VP log: who scored what, when, and why."""

    turn: int
    phase: str
    side: str
    amount: int
    source: str  # an award id, or "option:<id>" / "<variant>:<unit id>" (a variant counter chosen at set-up)
    unit: str | None = None
    hex: str | None = None


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # a side id; None for a draw
    level: str  # the victory level's name, or the draw name
    margin: float  # VP difference (or ratio) of the leader over the runner-up
    vp: dict[str, int]


@dataclass(frozen=True)
class BattleReport:
    """What happened in the last battle (for display and logs)."""

    hex: Hex
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    odds: Odds
    roll: int
    result: str
    battle: Battle | None = None  # the battle itself, for what `on battle_resolved` hooks ask of it


EVENTS = ("moved", "attacked", "defended", "retreated")
NOTHING = (0, 0)  # an empty scope


_HISTORY_FIELDS = ("serial", "turn_began", "previous_turn_began", "player_turn_began", "previous_player_turn_began",
                   "turn_side", "ended", "events", "entered", "last_side", "owner")


class History:
    __slots__ = _HISTORY_FIELDS

    def __init__(self) -> None:
        self.serial = 0  # the current phase's serial (1 for the first phase played)
        self.turn_began = self.previous_turn_began = 0
        self.player_turn_began = self.previous_player_turn_began = 0
        self.turn_side: tuple[int, str | None] = (0, None)  # the turn and side of the current player-turn
        self.ended: dict[str, int] = {}  # phase kind or id -> serial of its last ended phase
        self.events: dict[str, dict[str, tuple[int, ...]]] = {e: {} for e in EVENTS}
        self.entered: dict[str, tuple[int, ...]] = {}
        self.last_side: dict[str, str] = {}
        # id() of the state that may change it in place (None: shared, copy first). Not the state itself: that would
        # make a cycle (state -> history -> state) that only the garbage collector frees, for every clone dropped.
        # An owned history is the owner's alone (a clone sets it shared first), so it goes with its owner.
        self.owner: int | None = None

    def copy(self, owner: int) -> "History":
        other = History.__new__(History)
        for name in _HISTORY_FIELDS:  # (a compiled class has no __slots__ to read)
            setattr(other, name, getattr(self, name))
        other.ended = dict(self.ended)
        other.events = {e: dict(units) for e, units in self.events.items()}
        other.entered = dict(self.entered)
        other.last_side = dict(self.last_side)
        other.owner = owner
        return other

    def scope(self, name: str) -> tuple[int, int]:
        now = self.serial + 1
        return {"this_phase": (self.serial, now), "this_player_turn": (self.player_turn_began, now),
                "this_turn": (self.turn_began, now),
                "previous_player_turn": (self.previous_player_turn_began, self.player_turn_began),
                "previous_turn": (self.previous_turn_began, self.turn_began)}[name]

    def previous(self, kind: str) -> tuple[int, int]:
        serial = self.ended.get(kind)
        return (serial, serial + 1) if serial is not None else NOTHING

    def did(self, event: str, uid: str, scope: tuple[int, int]) -> bool:
        low, high = scope
        return any(low <= s < high for s in self.events[event].get(uid, ()))

    def was_entered(self, h: str, scope: tuple[int, int]) -> bool:
        low, high = scope
        return any(low <= s < high for s in self.entered.get(h, ()))
