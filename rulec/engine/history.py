"""Writing the history record (records.History) as play goes: what each unit did (moved, attacked, defended,
retreated) and which hexes were entered, stamped with the phase's serial, and the serials of the scopes of play
as phases begin and end. The record is queried through records.History (scope, previous, did, was_entered).

`clone` shares the record; the first change after a clone copies it (`writable`).
"""

from __future__ import annotations

from rulec.engine.position import Position
from rulec.engine.records import History, Layered


def writable(state: Position) -> History:
    """The state's history, copied first if a clone shares it."""
    past = state.past
    if past.owner != id(state):
        past = state.past = past.copy(id(state))
    return past


def record(state: Position, event: str, units) -> None:
    """`units` did `event` in the current phase."""
    past = state.past if state.past.owner == id(state) else writable(state)
    table = past.events[event]
    for uid in units:
        _stamp(past, table, uid)


def entered(state: Position, h: str, side: str) -> None:
    past = state.past if state.past.owner == id(state) else writable(state)
    _stamp(past, past.entered, h)
    past.last_side[h] = side


def moved_into(state: Position, uid: str, h: str, side: str) -> None:
    """A unit of `side` moved (or entered the map) and ended its move in `h`: the commonest record, in one call."""
    past = state.past if state.past.owner == id(state) else writable(state)
    _stamp(past, past.events["moved"], uid)
    _stamp(past, past.entered, h)
    past.last_side[h] = side


def _stamp(past: History, table: Layered[tuple[int, ...]], key: str) -> None:
    """Add the current phase to `key`'s stamps, dropping those no scope reaches any more (before the previous
    turn): a unit's stamps stay a handful however long the game."""
    own = table.own  # (the table's two layers read and written here: a stamp at every move, a call less each)
    stamps = own.get(key)
    if stamps is None:
        stamps = table.base.get(key, ())
    serial = past.serial
    if stamps:
        if stamps[-1] == serial:
            return
        if stamps[0] < past.previous_turn_began:
            stamps = tuple(x for x in stamps if x >= past.previous_turn_began)
    own[key] = stamps + (serial,)


def phase_ended(state: Position) -> None:
    phase = state.phase
    past = writable(state)
    past.ended[phase.kind] = past.ended[phase.id] = past.serial


def phase_began(state: Position) -> None:
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

