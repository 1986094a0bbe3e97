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
from typing import Final, Generic, TypeVar

from rulec.engine.combat import Odds
from rulec.engine.frames import Battle
from rulec.runtime.model import Hex

@dataclass(frozen=True, init=False)
class VpEntry:
    """One line of the VP log: who scored what, when, and why."""

    turn: int
    phase: str
    side: str
    amount: int
    source: str  # an award id, or "option:<id>" / "<variant>:<unit id>" (a variant counter chosen at set-up)
    unit: str | None = None
    hex: str | None = None

    def __init__(self, turn: int, phase: str, side: str, amount: int, source: str, unit: str | None = None,
                 hex: str | None = None) -> None:
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "hex", hex)


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # a side id; None for a draw
    level: str  # the victory level's name, or the draw name
    margin: float  # VP difference (or ratio) of the leader over the runner-up
    vp: dict[str, int]


@dataclass(frozen=True, init=False)
class BattleReport:
    """What happened in the last battle (for display and logs)."""

    hex: Hex
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    odds: Odds
    roll: int
    result: str
    battle: Battle | None = None  # the battle itself, for what `on battle_resolved` hooks ask of it

    def __init__(self, hex: Hex, attackers: tuple[str, ...], defenders: tuple[str, ...], odds: Odds, roll: int,
                 result: str, battle: Battle | None = None) -> None:
        object.__setattr__(self, "hex", hex)
        object.__setattr__(self, "attackers", attackers)
        object.__setattr__(self, "defenders", defenders)
        object.__setattr__(self, "odds", odds)
        object.__setattr__(self, "roll", roll)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "battle", battle)


EVENTS: Final[tuple[str, ...]] = ("moved", "attacked", "defended", "retreated")
NOTHING: Final[tuple[int, int]] = (0, 0)  # an empty scope


class Relocated:
    """The last change of hexes in a position: `uid` moved, came onto the map or left it (`reorders`: the latter two,
    which change the order the position lists its units in); `before`, the change before it; `count`, how many there
    have been. A position set up starts from one of no unit, its own; so does one whose units are all placed anew.
    Clones share them and a position only adds to them, so a position played on from another tells which units
    changed hexes since (Position.moved_since), without comparing where every unit stands."""

    __slots__ = ("uid", "before", "count", "reorders")

    def __init__(self, uid: str | None, before: "Relocated | None", reorders: bool) -> None:
        self.uid = uid
        self.before = before
        self.count: int = before.count + 1 if before is not None else 0
        self.reorders = reorders


V = TypeVar("V")
# A table's own entries are folded into a new shared part when a copy finds this many (see Layered).
FOLD_AT: Final = 64


class Layered(Generic[V]):
    """A table keyed by unit or hex that copies cheaply: `base`, shared with its copies and never changed in place,
    under `own`, the entries set since (looked up first). A copy takes `own` alone, folding it into a new base first
    once it has FOLD_AT entries. The history's tables grow with the game (every hex entered), and a history is
    copied whenever a clone records something: an AI's look-ahead, thousands of times a decision."""

    __slots__ = ("base", "own")

    def __init__(self, base: dict[str, V] | None = None, own: dict[str, V] | None = None) -> None:
        self.base: dict[str, V] = base if base is not None else {}
        self.own: dict[str, V] = own if own is not None else {}

    def get(self, key: str, default: V) -> V:
        own = self.own
        if key in own:
            return own[key]
        return self.base.get(key, default)

    def __setitem__(self, key: str, value: V) -> None:
        self.own[key] = value

    def copy(self) -> "Layered[V]":
        if len(self.own) >= FOLD_AT:  # (the same entries: whoever else holds this table reads the same)
            self.base = {**self.base, **self.own}
            self.own = {}
        return Layered(self.base, dict(self.own))


_HISTORY_FIELDS: Final[tuple[str, ...]] = ("serial", "turn_began", "previous_turn_began", "player_turn_began", "previous_player_turn_began",
                   "turn_side", "ended", "events", "entered", "last_side", "owner")


class History:
    __slots__ = _HISTORY_FIELDS

    def __init__(self) -> None:
        self.serial = 0  # the current phase's serial (1 for the first phase played)
        self.turn_began = self.previous_turn_began = 0
        self.player_turn_began = self.previous_player_turn_began = 0
        self.turn_side: tuple[int, str | None] = (0, None)  # the turn and side of the current player-turn
        self.ended: dict[str, int] = {}  # phase kind or id -> serial of its last ended phase
        self.events: dict[str, Layered[tuple[int, ...]]] = {e: Layered() for e in EVENTS}  # unit -> its stamps
        self.entered: Layered[tuple[int, ...]] = Layered()  # hex -> its stamps
        self.last_side: Layered[str] = Layered()  # hex -> the side of the last unit to enter it
        # id() of the state that may change it in place (None: shared, copy first). Not the state itself: that would
        # make a cycle (state -> history -> state) that only the garbage collector frees, for every clone dropped.
        # An owned history is the owner's alone (a clone sets it shared first), so it goes with its owner.
        self.owner: int | None = None

    def copy(self, owner: int) -> "History":
        other = History.__new__(History)
        other.serial, other.turn_side = self.serial, self.turn_side
        other.turn_began, other.previous_turn_began = self.turn_began, self.previous_turn_began
        other.player_turn_began, other.previous_player_turn_began = \
            self.player_turn_began, self.previous_player_turn_began
        other.ended = dict(self.ended)
        other.events = {e: table.copy() for e, table in self.events.items()}
        other.entered = self.entered.copy()
        other.last_side = self.last_side.copy()
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
