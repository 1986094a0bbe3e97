"""History queries: what each unit did, and which hexes were entered, in scopes of play.

Per unit and event (moved, attacked, defended, retreated) the serial numbers of
the phases it happened in; per hex the serials it was entered in and the side of
the last unit to enter it. Serials number the phases from the game's start; a
unit's (or hex's) stamps older than the previous turn, which no scope reaches,
are dropped when it gets a new one, so the record stays a few short tuples per
unit however long the game.

Scopes (compile/functions.py) are ranges of serials, [low, high):
this_phase, this_player_turn, this_turn, previous_player_turn, previous_turn,
and previous(K): the last phase of kind or id K that ended.

`clone` shares the record; the first change after a clone copies it (`writable`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulec.engine.state import GameState

EVENTS = ("moved", "attacked", "defended", "retreated")
NOTHING = (0, 0)  # an empty scope


class History:
    __slots__ = ("serial", "turn_began", "previous_turn_began", "player_turn_began", "previous_player_turn_began",
                 "turn_side", "ended", "events", "entered", "last_side", "owner")

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
        for name in History.__slots__:
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


def writable(state: "GameState") -> History:
    """The state's history, copied first if a clone shares it."""
    past = state.past
    if past.owner != id(state):
        past = state.past = past.copy(id(state))
    return past


def record(state: "GameState", event: str, units) -> None:
    """`units` did `event` in the current phase."""
    past = state.past if state.past.owner == id(state) else writable(state)
    table = past.events[event]
    for uid in units:
        _stamp(past, table, uid)


def entered(state: "GameState", h: str, side: str) -> None:
    past = state.past if state.past.owner == id(state) else writable(state)
    _stamp(past, past.entered, h)
    past.last_side[h] = side


def moved_into(state: "GameState", uid: str, h: str, side: str) -> None:
    """A unit of `side` moved (or entered the map) and ended its move in `h`: the commonest record, in one call."""
    past = state.past if state.past.owner == id(state) else writable(state)
    _stamp(past, past.events["moved"], uid)
    _stamp(past, past.entered, h)
    past.last_side[h] = side


def _stamp(past: History, table: dict[str, tuple[int, ...]], key: str) -> None:
    """Add the current phase to `key`'s stamps, dropping those no scope reaches any more (before the previous
    turn): a unit's stamps stay a handful however long the game."""
    stamps = table.get(key, ())
    serial = past.serial
    if stamps:
        if stamps[-1] == serial:
            return
        if stamps[0] < past.previous_turn_began:
            stamps = tuple(x for x in stamps if x >= past.previous_turn_began)
    table[key] = stamps + (serial,)


def phase_ended(state: "GameState") -> None:
    phase = state.phase
    past = writable(state)
    past.ended[phase.kind] = past.ended[phase.id] = past.serial


def phase_began(state: "GameState") -> None:
    """A new phase: number it; a new turn or player-turn begins here when the turn or the side changes."""
    past = writable(state)
    past.serial += 1
    phase = state.phase
    if state.turn != past.turn_side[0]:
        past.previous_turn_began, past.turn_began = past.turn_began, past.serial
    if phase.side is not None and (state.turn, phase.side) != past.turn_side:
        past.previous_player_turn_began, past.player_turn_began = past.player_turn_began, past.serial
        past.turn_side = (state.turn, phase.side)
    elif state.turn != past.turn_side[0]:
        past.turn_side = (state.turn, past.turn_side[1])

