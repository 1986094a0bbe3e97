"""What a condition's answers read of the position, so that a move that changed none of it keeps them.

A compiled expression reads the game only through its evaluation context (context.py). Its code names every
attribute it may use (the code object's names, its generator expressions' included): when each is either static
within a movement phase (the map, zones and distances, the turn, the options, the unit's own fields and hex) or
one of the few readings noted here (traces, a side's view of the enemy zones, who holds an objective, the
markers), its answers depend on nothing else. A ReadingContext notes which of those each evaluation read, for the
whole game, and at which hexes it read the traces, for the unit the answers are about: a move that changed none of
the readings leaves every such answer as it was, and one that changed a trace only at hexes a unit's answers never
read leaves that unit's (legal_moves.carry_moves, for movement { may_end_move }). Any other name (units_at, vp,
history ...) and nothing is kept: answers are worked out again, as for a condition whose code cannot be read (a
function without a code object).

A NotingContext notes more: each query of the position it answered (the units a filter selects, where a unit
stands, the enemy's zones of control ...) with its answer. A condition that reads the position through nothing
else (`notes_all`) answers the same in a later position of the phase where each of those queries answers the same
(`still_answers`): arrivals.open_entries keeps entry_blocked's answers so.
"""

from __future__ import annotations

import builtins
from dataclasses import fields
from typing import Any, Callable, Collection, Final, Sequence

from rulec.engine import traces
from rulec.engine.context import EngineContext
from rulec.engine.hex_bits import hexes
from rulec.engine.position import Position
from rulec.runtime.model import Unit

# The context's names whose answers do not change within a movement phase, whatever moves: the map's geometry,
# the hex a condition is about, the turn, the options, the unit the condition is about and where it stands (a
# friend's move does not move it), and whether it moved (only the mover's changes).
_STILL: Final = frozenset({
    "unit", "hex", "from_hex", "edge", "zone", "hexes", "neighbours", "adjacent", "distance", "distance_to",
    "terrain", "has_terrain", "crossing", "objectives", "option", "union", "without", "turn", "turns", "phase",
    "phasing_side", "hex_of", "moved",
    "once",  # a part's value kept while the hex varies (ContextBase.once): what the part reads is named too
}) | frozenset(f.name for f in fields(Unit)) | frozenset(dir(builtins))
# The readings a ReadingContext notes (each compared by `changes`).
_NOTED: Final = frozenset({"traced", "traced_hex", "enemy_zoc", "controller", "marked", "marked_hex"})


def readable(condition: Callable[..., Any]) -> bool:
    """Does the condition read nothing but still names and noted readings (worked out from its code)?"""
    names = names_in(condition)
    return names is not None and names <= _STILL | _NOTED


def reads_only(condition: Callable[..., Any], names: Collection[str]) -> bool:
    """Does the condition read nothing but still names and `names` (worked out from its code)?"""
    found = names_in(condition)
    return found is not None and found <= _STILL.union(names)


def names_in(condition: Callable[..., Any]) -> set[str] | None:
    """Every name the condition's code uses (its generator expressions' included): the context's attributes and
    methods it may read, and any global it calls. None for a condition whose code cannot be read."""
    code = getattr(condition, "__code__", None)
    if code is None:
        return None
    names: set[str] = set()
    pending = [code]
    while pending:
        found = pending.pop()
        names.update(found.co_names)
        pending.extend(c for c in found.co_consts if hasattr(c, "co_names"))
    return names


Reading = tuple[str, ...]
# ("trace", trace, side) -> the hexes whose membership in it was read; ("trace", trace, side, "bits") -> more of them,
# as bits of hex numbers (read by a condition asked of many hexes at once: end_sets.py)
TraceHexes = dict[Reading, Any]
_AS_BITS: Final[tuple[str, ...]] = ("bits",)


class ReadingContext(EngineContext):
    """An EngineContext that notes, in `read` (shared by every evaluation of the condition in a game), what it was
    asked that a move may change: ("trace", trace, side), ("zoc", side), ("holders",) and ("markers",); and in
    `hexes_read` (the answers' about one unit), at which hexes each trace was read."""

    def __init__(self, state: Position, unit: Unit, read: set[Reading], hexes_read: TraceHexes):
        super().__init__(state, unit)
        self._read = read
        self._hexes_read = hexes_read
        # The trace last read (a condition reads one trace, at many hexes): its side, the hexes it reaches in
        # this position (traces.traced_bits), and the set of hexes read of it to note another in
        self._trace, self._side = "", ""
        self._reached = 0
        self._noted: set[str] = set()
        self._index = state.tables.index

    def _note_trace(self, trace: str, side: str, hex: str) -> bool:
        """Note that `hex`'s place in the trace was read, and answer it."""
        if trace != self._trace or side != self._side:
            key = ("trace", trace, side)
            self._read.add(key)
            at = self._hexes_read.get(key)
            if at is None:
                at = self._hexes_read[key] = set()
            self._trace, self._side, self._noted = trace, side, at
            self._reached = traces.traced_bits(self._state, trace, side, EngineContext)
        self._noted.add(hex)  # (a set, not its bound add kept: a call the compiled engine makes in C)
        number = self._index.get(hex, -1)  # (a shift of the bits: a condition asks of a few hexes a position)
        return number >= 0 and self._reached >> number & 1 == 1

    def note_trace_at(self, trace: str, side: str, at: int) -> None:
        """Note that the trace was read at the hexes `at`, bits of hex numbers (a condition asked of them at once:
        end_sets.py)."""
        key = ("trace", trace, side)
        self._read.add(key)
        self._hexes_read[key + _AS_BITS] = self._hexes_read.get(key + _AS_BITS, 0) | at

    def note(self, reading: Reading) -> None:
        """Note a reading of the zones of control or the holders (a condition asked at once: end_sets.py)."""
        self._read.add(reading)

    def enemy_zoc(self, side: str) -> Collection[str]:
        self._read.add(("zoc", side))
        return super().enemy_zoc(side)

    def traced(self, trace: str, unit: Unit) -> bool:
        where = self.hex_of(unit)
        return self._note_trace(trace, unit.side, where) and where != ""  # ("": off the map, traced nowhere)

    def traced_hex(self, trace: str, side: str, hex: str) -> bool:
        return self._note_trace(trace, side, hex)

    def controller(self, hex: str) -> str:
        self._read.add(("holders",))
        return super().controller(hex)

    def marked(self, unit: Unit, marker: str) -> bool:
        self._read.add(("markers",))
        return super().marked(unit, marker)

    def marked_hex(self, hex: str, marker: str) -> bool:
        self._read.add(("markers",))
        return super().marked_hex(hex, marker)


class UnitsAtContext(EngineContext):
    """An EngineContext that notes, in `hexes_read`, each hex it was asked the units of (units_at). A condition
    that `reads_only` still names and units_at gives the same answer while no unit enters or leaves those hexes: a
    unit it is told of stands there, and its fields, its hex and whether it moved change only as it leaves."""

    def __init__(self, state: Position, unit: Unit, hexes_read: set[str]):
        super().__init__(state, unit)
        self._units_read = hexes_read

    def units_at(self, hex: str) -> Sequence[Unit]:
        self._units_read.add(hex)
        return super().units_at(hex)


def snapshot(state: Position) -> tuple[int, int]:
    """What a later position is compared with that its cache does not keep: the markers' and the holders' versions."""
    return state.markers.version, state.holders_version


def changes(state: Position, before: dict, standing: dict, kept: tuple[int, int], read: set[Reading]
            ) -> dict[Reading, int] | None:
    """What of the readings in `read` differs in `state` from the position whose cache was `before` (what it knew
    of where units stood: `standing`; its snapshot: `kept`): None when a reading other than a trace changed (or was
    not known before), else each trace that changed and the hexes it now reaches or no longer reaches, as bits
    (empty: every reading holds). The traces read are worked out in `state` (kept in its cache: they are asked next
    anyway)."""
    version, held = kept
    changed: dict[Reading, int] = {}
    for reading in read:
        kind = reading[0]
        if kind == "markers":
            if state.markers.version != version:
                return None
        elif kind == "holders":
            if state.holders_version != held:
                return None
        elif kind == "zoc":  # (a side's view: handed on as it was where the side's own unit moved, move_memory.py)
            known = standing.get(reading)
            if known is None or state._standing.get(reading) is not known:
                return None
        else:  # a trace: the hexes reached, compared (as bits: kept whenever its hexes were)
            _, trace, side = reading
            known = before.get(("trace bits", trace, side))
            if known is None:
                return None
            found = traces.traced_bits(state, trace, side, EngineContext)
            if found != known:
                changed[reading] = found ^ known
    return changed


def read_any(hexes_read: TraceHexes, changed: dict[Reading, int], as_hexes: dict[Reading, frozenset[str]],
             numbered: tuple[str, ...]) -> bool:
    """Did answers that read the traces at `hexes_read` read one of the `changed` hexes (bits)? `as_hexes`: each
    changed trace's hexes as a set (`numbered`: the hexes by number), filled in as first needed (shared by the calls
    about one change), for the answers that noted a hex at a time."""
    for key, at in hexes_read.items():
        if len(key) == 4:  # (…, "bits")
            trace = key[:3]
            if trace in changed and at & changed[trace]:
                return True
        elif key in changed:
            found = as_hexes.get(key)
            if found is None:
                found = as_hexes[key] = hexes(changed[key], numbered)
            if not at.isdisjoint(found):
                return True
    return False


# What a NotingContext notes a condition asked, answered in any position, when its code names nothing else of the
# position: the units it selects, who and what stands in a hex, where a unit stands and what it did, the enemy's
# zones of control, who holds a hex, the markers and the traces.
_QUERIES: Final = frozenset({"units", "units_at", "sides_at", "hex_of", "status_of", "moved", "enemy_zoc", "controller",
                      "marked", "marked_hex", "traced", "traced_hex"})
# The names a noted condition may use besides the queries: those that read nothing of the position, or only the unit
# the condition is about (hex_of and moved, noted with the queries, are left out: they are still only for that unit).
_STILL_IN_A_PHASE: Final = (_STILL - {"hex_of", "moved"}) | _QUERIES
Noted = dict[tuple, tuple[tuple, Any]]  # (query, its arguments, a unit by its id) -> (the arguments, the answer)


def notes_all(condition: Callable[..., Any]) -> bool:
    """Does the condition read nothing of the position but the queries a NotingContext notes (worked out from its
    code)? Then its answers in a later position of the same phase are the same wherever every noted query answers
    the same (still_answers)."""
    names = names_in(condition)
    return names is not None and names <= _STILL_IN_A_PHASE


class NotingContext(EngineContext):
    """An EngineContext that notes, in `noted`, each query of the position it answered and the answer (once each)."""

    def __init__(self, state: Position, unit: Unit | None = None):
        super().__init__(state, unit)
        self.noted: Noted = {}

    def _note(self, query: str, arguments: tuple, answer: Any) -> Any:
        self.noted[(query, *(a.id if isinstance(a, Unit) else a for a in arguments))] = (arguments, answer)
        return answer

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None, status: str | None = None) -> Sequence[Unit]:
        return self._note("units", (side, zone, hex, type, flag, status),
                          super().units(side, zone, hex, type, flag, status))

    def units_at(self, hex: str) -> Sequence[Unit]:
        return self._note("units_at", (hex,), super().units_at(hex))

    def sides_at(self, hex: str) -> Collection[str]:
        return self._note("sides_at", (hex,), super().sides_at(hex))

    def hex_of(self, unit: Unit) -> str:
        return self._note("hex_of", (unit,), super().hex_of(unit))

    def status_of(self, unit: Unit) -> str:
        return self._note("status_of", (unit,), super().status_of(unit))

    def moved(self, unit: Unit) -> bool:
        return self._note("moved", (unit,), super().moved(unit))

    def enemy_zoc(self, side: str) -> Collection[str]:
        return self._note("enemy_zoc", (side,), super().enemy_zoc(side))

    def controller(self, hex: str) -> str:
        return self._note("controller", (hex,), super().controller(hex))

    def marked(self, unit: Unit, marker: str) -> bool:
        return self._note("marked", (unit, marker), super().marked(unit, marker))

    def marked_hex(self, hex: str, marker: str) -> bool:
        return self._note("marked_hex", (hex, marker), super().marked_hex(hex, marker))

    def traced(self, trace: str, unit: Unit) -> bool:
        return self._note("traced", (trace, unit), super().traced(trace, unit))

    def traced_hex(self, trace: str, side: str, hex: str) -> bool:
        return self._note("traced_hex", (trace, side, hex), super().traced_hex(trace, side, hex))


def still_answers(state: Position, unit: Unit | None, noted: Noted) -> bool:
    """Does every query of `noted` answer the same in `state`?"""
    asking = EngineContext(state, unit)
    for (query, *_), (arguments, answer) in noted.items():
        found = getattr(asking, query)(*arguments)
        if found is not answer and found != answer:
            return False
    return True
