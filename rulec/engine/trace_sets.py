"""A trace searched a set of hexes at a time, when its conditions read the position only through the facts of the
hex they are about (model.Trace.sets, worked out by the checker): no condition is asked hex by hex.

`through` and `lost_when` are set algebra (not, and, or) over sets of hexes, as bits of hex numbers (hex_bits.py):
the hexes where the enemies of a side stand, where its own units stand, where any unit stands and that enemies
control (move_memory.obstacles, kept and patched from move to move), the hexes a side holds, and the hexes a
condition on the map alone holds for (folded once a side, Tables.trace_folds: _Plan). So each search knows at once
every hex the trace may pass.

What a search found is kept for the trace and side (GameState._folded_traces, shared by clones): the hex facts its
conditions read, the hexes they let pass and those where a source is lost, the sources it started from, and its
Layers (layers[i]: the hexes reached in at most i steps). The next search, in any position of the game, asks the
conditions again only at the hexes whose facts differ from those kept (a move changes them at a few hexes: who
stands in two, the zones of control around them); when the sources are the same, the layers before the first that
a hex no longer passing was reached in, or next to which a hex passes now, still hold, and the search goes on from
there; when neither happened, the hexes reached are the same. The answer is the one a search from scratch gives:
tests/test_engine_trace_memory.py and tests/test_engine_ends.py compare them with searches from scratch in random
games. Where the compiled engine runs, the layers are kept as C words (search_core.Layers, the same search step for
step as IntLayers here): a search then makes one int, the hexes reached, rather than one a layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final

from rulec.engine import native
from rulec.engine.hex_bits import Steps, bits_of, numbers
from rulec.engine.move_memory import obstacles
from rulec.engine.position import Position
from rulec.runtime.model import Hex, Trace

# Of move_memory.obstacles' (enemies, their zones of control, friends): which a hex fact reads
OBSTACLE: Final = {"enemy": 0, "zoc": 1, "friends": 2}
_OF_THE_MAP: Final = "sets: of the map"  # (Tables.trace_folds) _of_the_map's answers, by trace and side
_HELD_BITS: Final = "trace_sets: held bits"  # (GameState._for_the_game) held_bits' answers, by side and holders
_MOST_HELD_KEPT: Final = 1024


@dataclass(init=False)
class _Kept:
    """A search of one trace and side: the hex facts its conditions read (_Plan.facts), the hexes they let pass of
    those the map lets it enter (`opened`), the sources it started from (those not lost that pass), its layers
    (IntLayers, or search_core.Layers) and the steps the map allows it (for a search from the sources again)."""

    facts: tuple[int, ...]
    passing: int
    start: int
    layers: Any
    opened: int
    steps_of: Steps

    def __init__(self, facts: tuple[int, ...], passing: int, start: int, layers: Any, opened: int,
                 steps_of: Steps) -> None:
        self.facts, self.passing, self.start, self.layers = facts, passing, start, layers
        self.opened, self.steps_of = opened, steps_of


class IntLayers:
    """A breadth-first search from the sources `start` through the hexes `passing` (ints of bits), at most `limit`
    steps, kept for the next search: its layers (layers[i]: the hexes reached in at most i steps; the last, the hexes
    `reached`). Pure Python's, and the compiled engine's on a map drawn as a graph; search_core.Layers is the same
    search as C words."""

    def __init__(self, steps_of: Steps, start: int, passing: int, limit: int | None) -> None:
        self.steps_of, self.passing, self.limit = steps_of, passing, limit
        self.layers = [start]
        _spread(self.layers, passing, steps_of, limit)
        self.reached: int = self.layers[-1]

    def update(self, passing: int) -> int:
        """The hexes reached once the hexes passing are `passing` (the sources the same): searched again from the
        last layer that still holds, if any."""
        changed = passing ^ self.passing
        if not changed:
            return self.reached
        restart = _still_holding(self.layers, changed & self.passing, changed & passing, self.steps_of, self.limit)
        self.passing = passing
        if restart is None:
            return self.reached
        del self.layers[restart + 1:]
        _spread(self.layers, passing, self.steps_of, self.limit)
        self.reached = self.layers[-1]
        return self.reached

    def as_ints(self) -> list[int]:
        return list(self.layers)


def search(state: Position, trace: Trace, side: str, holds: Holds, steps_of: Steps, closed: int) -> int:
    """The hexes `side`'s trace reaches in this position, as bits. `holds(condition, hex)`: a condition's answer at
    a hex for the side (traces._Ask.holds, for the parts on the map alone); `steps_of`, `closed`: the steps the map
    allows and the hexes it never enters."""
    plan = _of_the_map(state, trace, side, holds)
    kept: _Kept | None = state._folded_traces.get(("sets", trace.id, side))
    if kept is not None:
        return _again(state, trace, side, plan, kept)
    facts = plan.facts(state)
    opened = plan.everything & ~closed
    return _anew(state, trace, side, plan, facts, plan.through.within(facts, opened), opened, steps_of)


def searched_again(state: Position, trace: Trace, side: str) -> int:
    """search, where a search of the trace and side is kept in the game (and its conditions folded for the side):
    nothing else is asked for. -1 where none is kept."""
    plan: _Plan | None = state.tables.trace_folds.get((_OF_THE_MAP, trace.id, side))
    kept: _Kept | None = state._folded_traces.get(("sets", trace.id, side))
    if plan is None or kept is None:
        return -1
    return _again(state, trace, side, plan, kept)


def _again(state: Position, trace: Trace, side: str, plan: _Plan, kept: _Kept) -> int:
    """The search `kept`, asked in this position: `through` asked again only at the hexes whose facts changed (it
    reads nothing else there), the layers searched again from the last that holds (search)."""
    facts = plan.facts(state)
    touched = _touched(kept.facts, facts)
    if not touched:
        same: int = kept.layers.reached
        return same
    asked = touched & kept.opened
    now = plan.through.within(facts, asked)
    before = kept.passing & asked
    if now == before and not touched & plan.sources:  # (`lost_when` matters at the sources only)
        kept.facts = facts
        unchanged: int = kept.layers.reached
        return unchanged
    passing = kept.passing ^ before ^ now
    start = plan.sources & passing & ~plan.lost.within(facts, plan.sources)
    if kept.start != start:
        return _anew(state, trace, side, plan, facts, passing, kept.opened, kept.steps_of)
    kept.facts, kept.passing = facts, passing
    found: int = kept.layers.update(passing)
    return found


def _anew(state: Position, trace: Trace, side: str, plan: _Plan, facts: tuple[int, ...], passing: int, opened: int,
          steps_of: Steps) -> int:
    """A search from the side's sources through the hexes `passing` (the facts `facts`), kept for the next."""
    start = plan.sources & passing & ~plan.lost.within(facts, plan.sources)
    layers = new_layers(steps_of, start, passing, trace.max_length)
    state._folded_traces[("sets", trace.id, side)] = _Kept(facts, passing, start, layers, opened, steps_of)
    reached: int = layers.reached
    return reached


def _touched(kept: tuple[int, ...], now: tuple[int, ...]) -> int:
    """The hexes where the facts `now` differ from those `kept` (the same facts of a trace: _Plan.facts), as bits."""
    touched = 0
    for i, known in enumerate(kept):
        fact = now[i]
        if fact != known:
            touched = touched | fact ^ known if touched else fact ^ known
    return touched


def folded(state: Position, trace: Trace, side: str) -> bool:
    """Are the trace's parts on the map alone folded for the side (_of_the_map): a search then asks no condition."""
    return (_OF_THE_MAP, trace.id, side) in state.tables.trace_folds


Holds = Callable[[Any, Hex], bool]  # (a condition, a hex) -> its answer there for the side tracing


def _of_the_map(state: Position, trace: Trace, side: str, holds: Holds) -> _Plan:
    """The trace's `through` and `lost_when` as a _Plan for the side, with every hex of the map and the side's
    sources (once a side for every game on the tables: their parts on the map alone are folded)."""
    key = (_OF_THE_MAP, trace.id, side)
    found: _Plan | None = state.tables.trace_folds.get(key)
    if found is None:
        assert trace.sets is not None  # a trace the checker wrote as sets
        found = state.tables.trace_folds[key] = _plan(state, trace, side, holds)
    return found


# The kinds of a _Part
_FACT: Final = 0  # a hex fact: `value` is its place in _Plan.facts
_BITS: Final = 1  # a condition on the map alone: `value`, the hexes it holds for
_NOT: Final = 2
_AND: Final = 3
_OR: Final = 4


class _Part:
    """A part of a trace's condition, its parts on the map alone folded and its hex facts numbered (_Plan)."""

    def __init__(self, kind: int, value: int = 0, parts: tuple[_Part, ...] = ()) -> None:
        self.kind, self.value, self.parts = kind, value, parts

    def within(self, facts: tuple[int, ...], hexes: int) -> int:
        """The hexes of `hexes` (bits) this part holds for where the hex facts are `facts` (_Plan.facts): asked only
        there (`and` stops at the first part that leaves none)."""
        kind = self.kind
        if kind == _FACT:
            return facts[self.value] & hexes
        if kind == _BITS:
            return self.value & hexes
        if kind == _NOT:
            return hexes ^ self.parts[0].within(facts, hexes)  # (what a part holds for is of `hexes`)
        if kind == _AND:
            for part in self.parts:
                hexes = part.within(facts, hexes)
                if not hexes:
                    break
            return hexes
        parts = self.parts
        found = parts[0].within(facts, hexes)
        for i in range(1, len(parts)):
            found |= parts[i].within(facts, hexes)
        return found


class _Plan:
    """A trace's `through` and `lost_when` for one side (model.Trace.sets; None: every hex passes, none is lost), as
    set algebra over the hex facts they read (`facts`): the obstacles (move_memory.obstacles: enemies, their zones of
    control, friends) of each side of `sides`, then the hexes each side of `held` holds. Their parts on the map alone
    are folded (once a side for every game on the tables), and an `and` with one that holds nowhere is dropped with
    the facts only it read."""

    def __init__(self, everything: int, sources: int, sides: tuple[str, ...], held: tuple[str, ...], through: _Part,
                 lost: _Part) -> None:
        self.everything, self.sources = everything, sources  # every hex of the map, the side's sources (bits)
        self.sides, self.held, self.through, self.lost = sides, held, through, lost

    def facts(self, state: Position) -> tuple[int, ...]:
        """The hex facts the conditions read in this position, as bits (each side's obstacles as they are kept)."""
        sides = self.sides
        if len(sides) == 1 and not self.held:
            return obstacles(state, sides[0])
        found: list[int] = []
        for side in sides:
            found.extend(obstacles(state, side))
        for side in self.held:
            found.append(held_bits(state, side))
        return tuple(found)


def _plan(state: Position, trace: Trace, side: str, holds: Holds) -> _Plan:
    """The _Plan of a trace's conditions written as sets (model.Trace.sets), for `side`: the parts on the map alone
    asked of every hex now, once (`holds`)."""
    formulas = trace.sets
    assert formulas is not None
    tables = state.tables
    everything = (1 << len(tables.numbered)) - 1
    through = ("bits", everything) if formulas[0] is None else _fold(formulas[0], side, state, holds)
    lost = ("bits", 0) if formulas[1] is None else _fold(formulas[1], side, state, holds)
    sides: list[str] = []
    held: list[str] = []
    _read(through, sides, held)
    _read(lost, sides, held)
    return _Plan(everything, bits_of(trace.sources.get(side, ()), tables.index), tuple(sides), tuple(held),
                 _numbered(through, sides, held), _numbered(lost, sides, held))


def _fold(part: tuple, side: str, state: Position, holds: Holds) -> tuple:
    """A condition's part (model.Trace.sets) for `side`, its parts on the map alone as ("bits", the hexes they hold
    for) and its hex facts as ("fact", side, which of the obstacles) or ("held", side)."""
    kind = part[0]
    if kind == "not":
        return ("not", _fold(part[1], side, state, holds))
    if kind == "and" or kind == "or":
        parts = [_fold(p, side, state, holds) for p in part[1]]
        if kind == "and" and ("bits", 0) in parts:
            return ("bits", 0)
        parts = [p for p in parts if p != ("bits", 0)]  # (an `or`'s parts that hold nowhere)
        if not parts:
            return ("bits", 0)
        return parts[0] if len(parts) == 1 else (kind, tuple(parts))
    if kind == "hexes":
        tables = state.tables
        return ("bits", bits_of((h for h in tables.hexes if holds(part[1], h)), tables.index))
    who = part[1] or side
    if kind == "held":
        return ("held", who)
    if kind == "occupied":
        return ("or", (("fact", who, OBSTACLE["enemy"]), ("fact", who, OBSTACLE["friends"])))
    return ("fact", who, OBSTACLE[kind])


def _read(part: tuple, sides: list[str], held: list[str]) -> None:
    """Add to `sides` the sides whose obstacles a folded part (_fold) reads, to `held` those whose holdings it reads."""
    kind = part[0]
    if kind == "fact" and part[1] not in sides:
        sides.append(part[1])
    elif kind == "held" and part[1] not in held:
        held.append(part[1])
    elif kind == "not":
        _read(part[1], sides, held)
    elif kind == "and" or kind == "or":
        for p in part[1]:
            _read(p, sides, held)


def _numbered(part: tuple, sides: list[str], held: list[str]) -> _Part:
    """A folded part (_fold) as a _Part, its facts numbered as _Plan.facts lists them."""
    kind = part[0]
    if kind == "fact":
        return _Part(_FACT, 3 * sides.index(part[1]) + part[2])
    if kind == "held":
        return _Part(_FACT, 3 * len(sides) + held.index(part[1]))
    if kind == "bits":
        return _Part(_BITS, part[1])
    if kind == "not":
        return _Part(_NOT, parts=(_numbered(part[1], sides, held),))
    return _Part(_AND if kind == "and" else _OR, parts=tuple(_numbered(p, sides, held) for p in part[1]))


def held_bits(state: Position, side: str) -> int:
    """The hexes `side` holds (controls(side, hex)), as bits. Kept for the game by the holders' version: they
    seldom change, and working the bits out makes a big int a hex held."""
    holders = state.holders
    key = (side, state.holders_version)
    kept: dict | None = state._for_the_game.get(_HELD_BITS)
    if kept is None or len(kept) > _MOST_HELD_KEPT:
        kept = state._for_the_game[_HELD_BITS] = {}
    found = kept.get(key)
    if found is None:
        index = state.tables.index
        found = 0
        for h, holder in holders.items():
            if holder == side and h in index:
                found |= 1 << index[h]
        kept[key] = found
    return found


def _still_holding(layers: list[int], stopped: int, newly: int, steps_of: Steps, limit: int | None) -> int | None:
    """The last of a search's layers that still hold once the hexes `stopped` no longer pass and the hexes `newly`
    do (the sources unchanged): the layer before the first holding a hex of `stopped`, or the first a hex of `newly`
    is next to (within the limit), whichever comes first. None: every layer holds, the hexes reached too."""
    restart = None
    stopped &= layers[-1]
    if stopped:
        # (never the sources' layer: the sources are the same)
        restart = next(i for i, layer in enumerate(layers) if layer & stopped) - 1
    newly &= ~layers[-1]
    if newly:
        last = len(layers) if restart is None else restart + 1
        if limit is not None:
            last = min(last, limit)
        # the hexes a step into one of `newly` comes from: a layer holding one of them is next to it (a few hexes
        # pass anew after a move; a step from each layer in turn costs a shift of every layer)
        around = 0
        for number in numbers(newly):
            around |= steps_of.into(number)
        for i in range(last):
            if layers[i] & around:
                return i
    return restart


def new_layers(steps_of: Steps, start: int, passing: int, limit: int | None) -> Any:
    """A breadth-first search from the sources `start` through the hexes `passing`, at most `limit` steps, kept for
    the next search (IntLayers; in C where the compiled engine runs: native.py)."""
    core = native.core
    if core is not None:
        packed = steps_of.packed
        if packed is None:  # made once for the steps (none for a map drawn as a graph, or on a big-endian machine)
            shifts = steps_of.shifts()
            packed = False
            if shifts is not None:
                try:
                    packed = core.Shifts(shifts, steps_of.hex_count)
                except ValueError:
                    pass
            steps_of.packed = packed
        if packed:
            return core.Layers(packed, start, passing, -1 if limit is None else limit)
    return IntLayers(steps_of, start, passing, limit)


def _spread(layers: list[int], passing: int, steps_of: Steps, limit: int | None) -> None:
    """Go on with a breadth-first search from its last layer (layers[-1], the hexes reached), into the hexes
    `passing`, at most `limit` steps from the sources: the layers are added to `layers`."""
    steps = len(layers) - 1
    reached = layers[-1]
    frontier = reached & ~layers[-2] if steps else reached
    while frontier and (limit is None or steps < limit):
        steps += 1
        following = steps_of.after(frontier) & passing & ~reached
        if not following:
            break
        reached |= following
        layers.append(reached)
        frontier = following
