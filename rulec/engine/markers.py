"""Markers on units and hexes: put on, taken off, what they forbid, and when they expire.

The game file declares markers (model.Marker). A result's `mark(who, M)` effect
(effects.py), an arrival's `marks` and the engine API (`GameState.mark`,
`GameState.unmark`) put them on; `unmark` and the marker's `expires`, evaluated at
the end of every phase, take them off. Each marker carries the stamp of the phase
it was put on (turn, phase index), from which `phases_since_marked(K)` counts the
phases of kind (or id) K that have begun and ended since.

A state keeps a `MarkerTable`: two small dicts, copied by `clone`; markers come
from actions only, so a saved game (its actions) replays them.
"""

from __future__ import annotations

from typing import Final, Iterable

from rulec.engine.marker_table import Stamp
from rulec.engine.position import Position
from rulec.runtime.model import Game, Hex, Marker, Phase


# ------------------------------------------------------------ queries
def on_unit(state: Position, uid: str) -> dict[str, Stamp]:
    """The markers a unit carries, with the stamp of each (do not modify)."""
    return state.markers.units.get(uid, _NONE)


def on_hex(state: Position, h: Hex) -> dict[str, Stamp]:
    return state.markers.hexes.get(h, _NONE)


_NONE: Final[dict[str, Stamp]] = {}  # no marker (never modified: on_unit's and on_hex's answers are read only)


def forbidding(state: Position, uid: str, what: str) -> Marker | None:
    """The first marker the unit carries that forbids it `what` (move, attack, advance), if any."""
    found = state.markers.units.get(uid)
    if not found:
        return None
    markers = state.game.markers
    return next((markers[m] for m in found if what in markers[m].forbids), None)


def forbidden(state: Position, what: str) -> frozenset[str]:
    """Every unit a marker forbids `what`: kept for the game with the markers' version (two tables of one version
    hold the same markers), so that the positions played on from a position that changed no marker (most moves, and
    every look-ahead of one) find it worked out; and for the position (positions of other versions may be asked in
    turn: an AI's look-aheads)."""
    table = state.markers
    units = table.units
    if not units:
        return frozenset()
    by_what: dict[str, tuple[int, frozenset[str]]] | None = state._for_the_game.get(_FORBIDDEN)
    if by_what is None:
        by_what = state._for_the_game[_FORBIDDEN] = {}
    kept = by_what.get(what)
    if kept is not None and kept[0] == table.version:
        return kept[1]
    key = ("forbidden", what)
    found = state._cache.get(key)
    if found is None:
        markers = state.game.markers
        found = state._cache[key] = frozenset(u for u, ms in units.items() if any(what in markers[m].forbids for m in ms))
    by_what[what] = (table.version, found)
    return found


_FORBIDDEN: Final = "forbidden"  # what (move, attack, advance) -> (the markers' version, forbidden's answer then)


def carried(state: Position, marker_id: str) -> bool:
    """Does any unit or hex carry the marker?"""
    table = state.markers
    return any(marker_id in found for found in table.units.values()) or \
        any(marker_id in found for found in table.hexes.values())


def refusal(state: Position, uid: str, what: str) -> tuple[str, str] | None:
    """Why the unit may not `what` because of a marker, and the mechanic that cites the marker's rule
    (markers.rule_cited); None: no marker forbids it."""
    marker = forbidding(state, uid, what)
    if marker is None:
        return None
    name = state.tables.short_name.get(uid, uid)
    return f"{name} is marked {marker.name} and may not {what}", f"marker:{marker.id}"


# ------------------------------------------------------------ changes
def mark(state: Position, target: str, marker_id: str) -> None:
    """Put a marker on a unit (by id) or a hex (by number), as the marker says, stamped with the current phase (the
    engine API, an arrival's marks): all the position knows is dropped (an arrival is marked in the middle of its
    move, where what was asked before the unit moved may still be in the cache)."""
    if _put_each(state, (target,), marker_id):
        state._cache = {}


def mark_each(state: Position, targets: Iterable[str], marker_id: str) -> None:
    """`mark` each of `targets` (a hook's or a result's set of units): what the markers decide is dropped once."""
    if _put_each(state, targets, marker_id):
        _forget_what_markers_decide(state)


def _put_each(state: Position, targets: Iterable[str], marker_id: str) -> bool:
    """Put the marker on each of `targets`; False if there were none."""
    marker = _marker(state.game, marker_id)
    stamp = (state.turn, state.phase_index)
    put = False
    for target in targets:
        state.markers.put(marker, target, stamp)
        put = True
    return put


def unmark(state: Position, target: str, marker_id: str) -> None:
    """Take the marker off `target` (the engine API): all the position knows is dropped if it carried it."""
    if _take_each(state, (target,), marker_id):
        state._cache = {}


def unmark_each(state: Position, targets: Iterable[str], marker_id: str) -> None:
    """Take the marker off each of `targets` that carries it: what the markers decide is dropped if one did (a hook's
    `unmark(units(side = S), M)` names every unit of a side; those without the marker change nothing)."""
    if _take_each(state, targets, marker_id):
        _forget_what_markers_decide(state)


def _take_each(state: Position, targets: Iterable[str], marker_id: str) -> bool:
    """Take the marker off each of `targets` that carries it; False if none did."""
    marker = _marker(state.game, marker_id)
    taken = False
    for target in targets:
        taken = state.markers.take(marker, target) or taken
    return taken


def clear(state: Position, uid: str) -> None:
    """Take every marker off a unit (it left the map, eliminated or exited: all the position knows is dropped, as
    the hex it left changed too)."""
    state.markers.drop_unit(uid)
    state._cache = {}


def _forget_what_markers_decide(state: Position) -> None:
    """Markers changed: what the position's cache knows is dropped, but for what no marker changes: who stands where
    and each side's view of the others (Position._standing, not in the cache), the units on the map by filter
    (EngineContext.units), and the answers of each trace whose conditions read nothing of the position but the
    occupants, ZOCs and holders of hexes (model.Trace.reads_at_hex): a phase's `mark(select(u in units(side = S)
    where not supplied(u)), M)` searches the side's supply, which the phase asks again at once."""
    cache = state._cache
    if not cache:
        return
    traces = state.game.traces
    kept = {}
    for key, value in cache.items():
        if type(key) is tuple:
            if key[0] in _TRACE_ANSWERS and traces[key[1]].reads_at_hex is not None:
                kept[key] = value  # (bits, bytes, frozensets: never changed in place)
        elif key == _UNITS:
            kept[key] = dict(value)  # (a dict filled as filters are asked: this position's own from now on)
    state._cache = kept


# The keys of a trace's answers in the cache, by their first item (traces.py), and of the units conditions read by
# filter (EngineContext.units): what no marker changes
_TRACE_ANSWERS: Final = frozenset({"trace", "trace bits", "trace flags", "trace without"})
_UNITS: Final = "units"


def _marker(game: Game, marker_id: str) -> Marker:
    marker = game.markers.get(marker_id)
    if marker is None:
        raise ValueError(f"'{game.info.id}' has no marker '{marker_id}'")
    return marker


def expire(state: Position) -> None:
    """At the end of a phase: take off every marker whose `expires` now holds."""
    if not state.markers:
        return
    markers = state.game.markers
    taken = False
    for table, is_hex in ((state.markers.units, False), (state.markers.hexes, True)):
        for target, found in list(table.items()):
            for marker_id, stamp in found.items():
                marker = markers[marker_id]
                if marker.expires is None:
                    continue
                owner = None if is_hex else state.unit(target).side
                if marker.expires(state.context(marking=(owner, stamp))):
                    taken = state.markers.take(marker, target) or taken
    if taken:
        _forget_what_markers_decide(state)


def phases_since(game: Game, stamp: Stamp, now: Stamp, kind: str, owner: str | None) -> int:
    """How many phases of kind (or id) `kind` lie after the phase of `stamp`, up to and including the phase
    of `now`; with an `owner`, only that side's phases and phases of no side."""
    sequence = game.sequence
    if not sequence:
        return 0
    # The matching phases up to each index of the sequence (inclusive), and in a turn: the same all game (kept with
    # the sequence they count: every marker's expiry asks at every phase's end)
    kept = _MATCHING.get((kind, owner))
    if kept is None or kept[0] is not sequence:
        upto, count = [], 0
        for p in sequence:
            count += (p.kind == kind or p.id == kind) and (owner is None or p.side in (None, owner))
            upto.append(count)
        kept = _MATCHING[(kind, owner)] = (sequence, upto)
    upto = kept[1]
    per_turn = upto[-1]
    return max(0, (now[0] - stamp[0]) * per_turn + upto[now[1]] - upto[stamp[1]])


# (kind, owner) -> (a game's sequence, the matching phases up to each of its indexes): phases_since's counts
_MATCHING: Final[dict[tuple[str, str | None], tuple[tuple[Phase, ...], list[int]]]] = {}


def rule_cited(game: Game, mechanic: str | None) -> str | None:
    """The rulebook case a refusal cites: the game's rule_refs entry for an engine mechanic, or a marker's
    own `rule` for a refusal a marker causes (mechanic "marker:ID")."""
    if mechanic is None:
        return None
    if mechanic.startswith("marker:"):
        marker = game.markers.get(mechanic[len("marker:"):])
        return (marker.rule or None) if marker else None
    return game.rule_refs.get(mechanic)
