"""Reinforcements waiting to enter the map: whether they arrive in this phase, which of their entry hexes are open
(movement { entry_blocked }), the closest hexes of the same edge where an entry is blocked (blocked_entry =
closest_legal), and whether they may be held back a turn (movement { reinforcement_delay }).

legal_moves.py lists their moves like any other unit's; reach.py gives their search the open entry hexes.
"""

from __future__ import annotations

from typing import Final, Sequence

from rulec.engine import answer_reads
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.engine.statuses import PENDING
from rulec.runtime.model import Hex, Unit


def placed_anywhere(state: Position, uid: str) -> bool:
    """A reinforcement waiting to be placed anywhere (arrives { placement = anywhere }), not to enter by a map edge."""
    arrival = state._units[uid].arrives
    return state.where[uid] == PENDING and arrival is not None and arrival.placement == "anywhere"


def arrives_now(state: Position, uid: str) -> bool:
    """A pending unit that may enter the map in the current phase."""
    due = state.due.get(uid)
    arrival = state._units[uid].arrives
    if due is None:
        return True
    if due != state.turn:
        return False
    if arrival is not None and arrival.phase is not None:
        return arrival.phase == state.phase.id
    side = state.phase.side
    return side is not None and state.tables.first_movement.get(side) == state.phase_index


def first_chance(state: Position, uid: str, due: int, turn: int, phase_index: int) -> int:
    """The turn a reinforcement due on turn `due` enters when play begins at phase `phase_index` of `turn` (a
    scenario's start, an arranged position): `due` if later; else `turn` while the phase it enters in that turn
    (arrives_now's) is still to come, and the turn after once it has passed (docs/rulings.md)."""
    if due > turn:
        return due
    unit = state._units[uid]
    if unit.arrives is not None and unit.arrives.phase is not None:
        entry = [p.id for p in state.game.sequence].index(unit.arrives.phase)
    else:
        entry = state.tables.first_movement.get(unit.side, -1)
    return turn + 1 if entry < phase_index else turn


def arriving(state: Position) -> tuple[str, ...]:
    """The phase's movers waiting to arrive as it began (phases.begin_phase; no unit on the map goes back to
    waiting), or those waiting now where the phase's memory was reset since."""
    found = state._phase_moves.get("arriving")
    if found is None:
        found = tuple(u for u in state._movers if state.where[u] == PENDING)
    return found


def entries_may_be_due(state: Position) -> bool:
    """Might some reinforcements have to enter before the movement phase ends (see entries_due)? Told without
    searching where they could go: units due now that may not be held back."""
    if state.game.movement.reinforcement_delay is True:
        return False
    return any(state.where[uid] == PENDING and state.due.get(uid) == state.turn and arrives_now(state, uid)
               and not delay_allowed(state, uid) for uid in arriving(state) if uid not in state.moved)


def may_delay(state: Position, uid: str) -> bool:
    """May `uid`, due this turn, be held back a turn now (`delay UNIT`)?"""
    return state.due.get(uid) == state.turn and delay_allowed(state, uid)


def delay_allowed(state: Position, uid: str) -> bool:
    """May the owner hold `uid` back a turn (movement { reinforcement_delay }, a condition about the unit
    evaluated once a phase)?"""
    rule = state.game.movement.reinforcement_delay
    if isinstance(rule, bool):
        return rule
    key = ("delay", uid)
    allowed = state._phase_moves.get(key)
    if allowed is None:
        allowed = state._phase_moves[key] = bool(rule(EngineContext(state, state._units[uid])))
    return allowed


def open_entries(state: Position, unit: Unit, hexes: Sequence[Hex]) -> Sequence[Hex]:
    """The entry hexes movement { entry_blocked } does not block for `unit` (the search itself skips
    enemy-occupied ones).

    Asked of a unit waiting to enter in every position of its movement phase. Where the rule reads the position
    only through queries a NotingContext notes (answer_reads.notes_all), the answers are kept for the phase with
    what those queries answered, and given again in a position where each answers the same: a friend's move seldom
    changes what an entry rule reads (the enemy units, their zones of control)."""
    rule = state.game.movement.entry_blocked
    if rule is None:
        return hexes
    noting = entry_rule_noted(state)
    key = (_OPEN_ENTRIES, unit.id, tuple(hexes))
    if noting:
        kept = state._phase_moves.get(key)
        if kept is not None and kept[0] is unit and answer_reads.still_answers(state, unit, kept[1]):
            return kept[2]
    context = answer_reads.NotingContext(state, unit) if noting else EngineContext(state, unit)
    context.keep_while_hex_varies()
    open_hexes = []
    for h in hexes:
        context.hex = h
        if not rule(context):
            open_hexes.append(h)
    if isinstance(context, answer_reads.NotingContext):
        state._phase_moves[key] = (unit, context.noted, open_hexes)
    return open_hexes


_OPEN_ENTRIES: Final = "open entries"  # (per movement phase) open_entries' answers, with what entry_blocked read


def entry_rule_noted(state: Position) -> bool:
    """Does movement { entry_blocked } read nothing of the position but what a NotingContext notes? Once a game."""
    found = state._for_the_game.get(_OPEN_ENTRIES)
    if found is None:
        rule = state.game.movement.entry_blocked
        found = state._for_the_game[_OPEN_ENTRIES] = rule is not None and answer_reads.notes_all(rule.function)
    return found


def fallback_rings(state: Position, hexes: tuple[Hex, ...]) -> list[list[Hex]]:
    """Hexes of the entry area's map edge outside the area, grouped by distance to the area, nearest first (the
    map's alone: worked out once a game for each area; do not modify)."""
    key = (_RINGS, tuple(hexes))
    found = state._for_the_game.get(key)
    if found is None:
        found = state._for_the_game[key] = _rings_around(state, hexes)
    return found


_RINGS: Final = "fallback rings"  # (per game, by entry area) fallback_rings' answer


def _rings_around(state: Position, hexes: tuple[Hex, ...]) -> list[list[Hex]]:
    assert state.game.map is not None  # the engine plays map games
    edges = state.game.map.edges
    counts = {e: sum(h in hs for h in hexes) for e, hs in edges.items()}
    if not hexes or not counts or max(counts.values()) == 0:
        return []
    best = max(counts.values())
    candidates = {h for e, hs in edges.items() if counts[e] == best for h in hs} - set(hexes)
    distance = state.tables.distance
    rings: dict[int, list[Hex]] = {}
    for h in candidates:
        rings.setdefault(min(distance[a][h] for a in hexes), []).append(h)
    return [sorted(rings[d]) for d in sorted(rings)]
