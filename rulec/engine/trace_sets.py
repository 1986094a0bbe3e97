"""A trace searched a set of hexes at a time, when its conditions read the position only through the facts of the
hex they are about (model.Trace.sets, worked out by the checker): no condition is asked hex by hex.

`through` and `lost_when` are set algebra (not, and, or) over sets of hexes, as bits of hex numbers (hex_bits.py):
the hexes where the enemies of a side stand, where its own units stand, where any unit stands and that enemies
control (move_memory.obstacles, kept and patched from move to move), the hexes a side holds, and the hexes a
condition on the map alone holds for (folded once a side, Tables.trace_folds). So each search knows at once every
hex the trace may pass.

What a search found is kept for the trace and side (GameState._folded_traces, shared by clones): the sources it
started from, and its Layers: the hexes it let pass and its layers (layers[i]: the hexes reached in at most i
steps). The next search, in any position of the game, starts from them when the sources are the same: the layers
before the first that a hex no longer passing was reached in, or next to which a hex passes now, still hold, and the
search goes on from there; when neither happened, the hexes reached are the same. The answer is the one a search
from scratch gives: tests/test_engine_trace_memory.py compares them with searches from scratch in random games.
Where the compiled engine runs, the layers are kept as C words (search_core.Layers, the same search step for step
as IntLayers here): a search then makes one int, the hexes reached, rather than one a layer.
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
    """A search of one trace and side: the sources it started from (those not lost that pass), and its layers with
    the hexes `through` let pass (IntLayers, or search_core.Layers)."""

    start: int
    layers: Any

    def __init__(self, start: int, layers: Any) -> None:
        self.start = start
        self.layers = layers


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
    folded = state._folded_traces
    everything, sources, conditions = _of_the_map(state, trace, side, holds)
    through, lost = conditions(state, everything)
    passing = everything & ~closed & through
    start = sources & passing & ~lost
    key = ("sets", trace.id, side)
    kept: _Kept | None = folded.get(key)
    if kept is not None and kept.start == start:
        found: int = kept.layers.update(passing)
        return found
    layers = new_layers(steps_of, start, passing, trace.max_length)
    folded[key] = _Kept(start, layers)
    return layers.reached


def folded(state: Position, trace: Trace, side: str) -> bool:
    """Are the trace's parts on the map alone folded for the side (_of_the_map): a search then asks no condition."""
    return (_OF_THE_MAP, trace.id, side) in state.tables.trace_folds


# A trace's conditions written as sets, made a function of the position: (the position, every hex as bits) -> the
# hexes `through` holds for and those `lost_when` holds for, as bits.
HexSets = Callable[[Position, int], tuple[int, int]]
Holds = Callable[[Any, Hex], bool]  # (a condition, a hex) -> its answer there for the side tracing


def _of_the_map(state: Position, trace: Trace, side: str, holds: Holds) -> tuple[int, int, HexSets]:
    """Every hex of the map and the side's sources, as bits, and its `through` and `lost_when` as one function of the
    position (once a side for every game on the tables: their parts on the map alone are folded)."""
    tables = state.tables
    key = (_OF_THE_MAP, trace.id, side)
    found = tables.trace_folds.get(key)
    if found is None:
        assert trace.sets is not None  # a trace the checker wrote as sets
        found = tables.trace_folds[key] = ((1 << len(tables.numbered)) - 1,
                                           bits_of(trace.sources.get(side, ()), tables.index),
                                           _function(state, side, trace.sets, holds))
    return found


def _function(state: Position, side: str, formulas: tuple, holds: Holds) -> HexSets:
    """A trace's `through` and `lost_when` written as sets (model.Trace.sets; None: every hex passes, none is lost),
    for `side`, as one function of the position: their parts on the map alone folded now, their hex facts read from
    the position when called.

    Made one Python function whose source is the formulas' set algebra (_Source): the obstacles of each side they
    read looked up once for both, `and` stopping at the first part that leaves no hex. A tree of closures, one call a
    part, cost several times as much, and a trace's conditions are asked every time it is (traces.traced_bits). The
    source holds no text of the game: the formulas' kinds are the few _Source knows, and their values (sides, folded
    hexes) are bound by name."""
    made = _Source(state, side, holds)
    through, lost = formulas
    bodies = ["everything" if through is None else made.source(through), "0" if lost is None else made.source(lost)]
    lines = ["def conditions(state, everything):", *made.prelude, f"    return {bodies[0]}, {bodies[1]}"]
    exec("\n".join(lines), made.names)  # noqa: S102
    return made.names.pop("conditions")  # (its globals do not hold it: no cycle, freed with the game)


class _Source:
    """The source of a condition's function (_function), and the names it binds."""

    def __init__(self, state: Position, side: str, holds: Holds):
        self.state, self.side, self.holds = state, side, holds
        self.names: dict[str, Any] = {"obstacles": obstacles, "held_bits": held_bits}
        self.prelude: list[str] = []  # its first lines: the obstacles of each side read, looked up
        self.sides: dict[str, str] = {}  # a side read -> the variable its obstacles are in
        self.temporaries = 0  # the variables an `and` keeps the hexes its parts leave in

    def source(self, part: tuple) -> str:
        kind = part[0]
        if kind == "not":
            return f"(everything & ~{self.source(part[1])})"
        if kind == "and" or kind == "or":
            parts = [self.source(p) for p in part[1]]
            if len(parts) == 1:
                return parts[0]
            if kind == "or":
                return f"({' | '.join(parts)})"
            self.temporaries += 1
            so_far = f"so_far_{self.temporaries}"
            return "(" + " and ".join([f"({so_far} := {parts[0]})",
                                       *(f"({so_far} := {so_far} & {p})" for p in parts[1:-1]),
                                       f"({so_far} & {parts[-1]})"]) + ")"
        if kind == "hexes":
            tables = self.state.tables  # a condition on the map alone: asked of every hex now, once
            return self._bind(bits_of((h for h in tables.hexes if self.holds(part[1], h)), tables.index))
        who = part[1] or self.side
        if kind == "held":
            return f"held_bits(state, {self._bind(who)})"
        if kind == "occupied":
            seen = self._obstacles_of(who)
            return f"({seen}[0] | {seen}[2])"
        return f"{self._obstacles_of(who)}[{OBSTACLE[kind]}]"

    def _bind(self, value: Any) -> str:
        name = f"value_{len(self.names)}"
        self.names[name] = value
        return name

    def _obstacles_of(self, who: str) -> str:
        if who not in self.sides:
            self.sides[who] = f"obstacles_{len(self.sides)}"
            self.prelude.append(f"    {self.sides[who]} = obstacles(state, {self._bind(who)})")
        return self.sides[who]


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
