"""Traces (supply, communication): the hexes a side's paths reach from its sources, worked out when asked.

A trace (model.Trace) is a breadth-first search over the map's neighbour table
(Tables.neighbours, taken a layer at a time on sets of hexes as bits: hex_bits.py)
from the side's sources, at most `max_length` steps; a hex
joins the search when the trace's `through` conditions hold for it, evaluated
with `hex` the hex and `friendly` the side tracing: those on the map alone
(`through_static`) once for every game on the map, into a set of hexes; the others
at each search.
A step from one hex into the next (a hexside crossed) is taken when the
trace's `across` holds, with `from_hex` the hex left: its map part
(`across_static`) folded once a side (Tables.trace_folds) into the steps a search may take, the
rest asked per step. A source whose `lost_when` holds supplies nobody. The
answer depends on the position (who stands where, the turn), so it is kept in
GameState._cache, which every action drops: a rule asking `supplied(u)` gets
the answer for the position it is asked in. The next position's search starts
from the answers of the last one where the trace's conditions allow it
(trace_memory.py): asked again only at the hexes whose facts changed. Where the
checker wrote the conditions as set algebra over hex facts (model.Trace.sets), none
is asked hex by hex: trace_sets.py searches a set of hexes at a time.
"""

from __future__ import annotations

from typing import Any, Callable, Final, TypeVar

from rulec.engine import trace_sets
from rulec.engine.hex_bits import Steps, bits_of, hexes, map_flags, numbers
from rulec.engine.position import Position, copy_fields
from rulec.engine.trace_memory import TraceValues, values_for
from rulec.runtime.model import Hex, Trace

T = TypeVar("T")
_STEPS: Final = "steps"  # (Tables.trace_folds) what the map alone allows a trace and side (_steps)


def traced_bits(state: Position, trace_id: str, side: str, context_of: Any) -> int:
    """Every hex `side`'s trace `trace_id` reaches in this position, as bits of hex numbers (kept for the position);
    `context_of` makes an EngineContext of a state, for the trace's conditions (only when it must search)."""
    key = ("trace bits", trace_id, side)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = _search(state, state.game.traces[trace_id], side, context_of)
    return found


def traced_at(state: Position, trace_id: str, side: str, h: Hex, context_of: Any) -> bool:
    """Does `side`'s trace `trace_id` reach `h` in this position? For the conditions that ask of a hex at a time (a
    unit's supply, may_end_move at each destination): read off traced_bits, a shift of them (the flags, traced_flags,
    are made again after each change of the trace: more than most positions ask of it)."""
    number = state.tables.index.get(h, -1)
    return number >= 0 and traced_bits(state, trace_id, side, context_of) >> number & 1 == 1


def traced_flags(state: Position, trace_id: str, side: str, context_of: Any) -> bytes:
    """traced_bits as one byte a hex number (hex_bits.map_flags: `found[index.get(h, -1)] == 1` for a hex `h`; kept for
    the position): made from the bits in C, where a set of the hundreds of hexes a supply trace reaches costs
    hundreds of look-ups to make."""
    key = ("trace flags", trace_id, side)
    found = state._cache.get(key)
    if found is None:
        bits = traced_bits(state, trace_id, side, context_of)
        found = state._cache[key] = _made_anew(state, ("flags", trace_id, side), bits, map_flags,
                                               len(state.tables.numbered))
    return found


def traced_hexes(state: Position, trace_id: str, side: str, context_of: Any) -> frozenset[Hex]:
    """traced_bits as a set of hexes (kept for the position), for whoever wants the set (the conditions that ask of a
    hex at a time read traced_at or traced_flags). The set last made for the trace and side in the game is made again only when
    the hexes reached differ: most moves change a trace nowhere, and making a set of the hundreds of hexes a supply
    trace reaches costs hundreds of lookups in it."""
    key = ("trace", trace_id, side)
    found = state._cache.get(key)
    if found is None:
        bits = traced_bits(state, trace_id, side, context_of)
        found = state._cache[key] = _made_anew(state, ("hexes", trace_id, side), bits, hexes, state.tables.numbered)
    return found


def _made_anew(state: Position, last_key: tuple, bits: int, make: Callable[[int, Any], T], with_: Any) -> T:
    """`make(bits, with_)`, made only when the hexes reached (`bits`) differ from those it was last made of for the
    trace and side in the game (kept under `last_key`): most moves change a trace nowhere."""
    last: tuple[int, T] | None = state._folded_traces.get(last_key)
    if last is not None and last[0] == bits:
        return last[1]
    found = make(bits, with_)
    state._folded_traces[last_key] = (bits, found)
    return found


def traced_hexes_without(state: Position, trace_id: str, side: str, gone: frozenset[str],
                         context_of: Any) -> frozenset[Hex]:
    """Every hex `side`'s trace would reach were the units `gone` off the map (traced_without): the search on
    a copy of the position without them, kept apart from the position's own traces; `context_of` makes an
    EngineContext of a state."""
    key = ("trace without", trace_id, side, gone)
    found = state._cache.get(key)
    if found is None:
        without = type(state).__new__(type(state))  # a shallow view: only the positions differ, nothing is changed
        copy_fields(state, without)
        without.pos = {uid: h for uid, h in state.pos.items() if uid not in gone}
        without.forget()
        bits = search(without, state.game.traces[trace_id], side, context_of(without))
        found = state._cache[key] = hexes(bits, state.tables.numbered)
    return found


def search(state: Position, trace: Trace, side: str, context: Any) -> int:
    """The hexes the trace reaches, as bits of hex numbers; its conditions asked again only where the position
    changed since they were last asked in the game, when they read the position only at their hex
    (trace_memory.py)."""
    return _search(state, trace, side, lambda _: context)


def _search(state: Position, trace: Trace, side: str, context_of: Any) -> int:
    """search, with `context_of` making the context for the conditions: only when one is asked. A trace written as
    sets asks none once the game's folds are made (trace_sets.py), and it is searched again after most moves."""
    if trace.sets is not None:  # conditions on hex facts only: a set of hexes at a time, nothing asked per hex
        found = trace_sets.searched_again(state, trace, side)  # (after most moves: nothing else looked up)
        if found >= 0:
            return found
        kept_steps: tuple[Steps, int] | None = state.tables.trace_folds.get((_STEPS, trace.id, side))
        if kept_steps is not None and trace_sets.folded(state, trace, side):
            steps_of, closed = kept_steps
            return trace_sets.search(state, trace, side, _nothing_asked, steps_of, closed)
        ask = _Ask(trace, side, context_of(state))
        steps_of, closed = _steps(state, trace, side, ask)
        return trace_sets.search(state, trace, side, ask.holds, steps_of, closed)
    ask = _Ask(trace, side, context_of(state))
    neighbours = state.tables.neighbours
    values = values_for(state, trace.id, side, trace.reads_at_hex, neighbours, state.tables.index, ask)
    if values.reached is None:
        try:
            values.reached = _spread(state, trace, side, values, ask)
        except BaseException:  # a condition failed half-way through the layers kept: search afresh next time
            values.layers, values.restart = None, -1
            raise
    return values.reached


def _nothing_asked(condition: Any, h: Hex) -> bool:
    raise AssertionError("a trace's condition asked after the game's folds were made")  # (trace_sets.folded)


class _Ask:
    """Evaluates a trace's conditions for one side, with `hex` (and `from_hex`) set; a failure is reported by
    the expression itself, with its source text."""

    def __init__(self, trace: Trace, side: str, context: Any):
        context.friendly = side
        context.keep_while_hex_varies()  # a search asks of one position, hex after hex
        self.context = context
        self._through, self._lost, self._across = trace.through, trace.lost_when, trace.across
        self.passes = trace.through.function if trace.through is not None else None  # called straight (hot)

    def holds(self, condition: Any, h: Hex, leaving: Hex = "") -> bool:
        context = self.context
        context.hex, context.from_hex = h, leaving
        return bool(condition(context))

    def through(self, h: Hex) -> bool:
        return self._through is None or self.holds(self._through, h)

    def lost(self, h: Hex) -> bool:
        return self._lost is not None and self.holds(self._lost, h)

    def across(self, h: Hex, n: Hex) -> bool:
        return self._across is None or self.holds(self._across, n, h)


def _spread(state: Position, trace: Trace, side: str, values: TraceValues, ask: _Ask) -> int:
    """The breadth-first search, from the side's sources not lost, at most `max_length` steps, a layer at a time on
    the bits of hex numbers (hex_bits.py). A hex is decided once it fails `through` or is entered; a hex refused
    one step (`across`) may be entered by another. The answers of the position's conditions are taken from
    `values` when there, else asked and put there."""
    tables = state.tables
    index, numbered = tables.index, tables.numbered
    steps_of, closed = _steps(state, trace, side, ask)
    layers = values.layers
    if layers is not None and 0 <= values.restart < len(layers):
        # The layers up to `restart` still hold: the later ones are dropped (the cost of a restart is that of the
        # layers searched again, not of the whole trace).
        steps = values.restart
        layers = layers[:steps + 1]
        frontier = layers[-1] & ~layers[-2] if steps else layers[-1]
    else:
        steps = 0
        frontier = _sources(trace, side, values, ask, index, closed)
        layers = [frontier]
        values.sources = frozenset(trace.sources.get(side, ()))
    reached = layers[-1]
    limit = trace.max_length
    stepping = trace.across is not None
    passes, context = ask.passes, ask.context  # the compiled condition, called straight (hot)
    while frontier and (limit is None or steps < limit):
        steps += 1
        candidates = steps_of.after(frontier) & ~(reached | closed)
        unknown = candidates & ~values.known
        if unknown:
            passing = 0
            for i in numbers(unknown):
                if passes is None:
                    ok = True
                else:
                    context.hex = numbered[i]
                    try:
                        ok = passes(context)
                    except Exception:  # let the expression report its own failure, with its source text
                        ok = ask.through(numbered[i])
                if ok:
                    passing |= 1 << i
            values.known |= unknown
            values.passing |= passing
        following = candidates & values.passing
        if stepping and following:
            following = _stepped(following, frontier, steps_of, numbered, values, ask)
        if not following:
            break
        reached |= following
        layers.append(reached)
        frontier = following
    values.layers, values.restart = layers, -1
    return reached


def _steps(state: Position, trace: Trace, side: str, ask: _Ask) -> tuple[Steps, int]:
    """What the map alone allows the side's trace (_map_steps): worked out once a side for every game played on the
    tables."""
    folded = state.tables.trace_folds
    steps_key = (_STEPS, trace.id, side)
    kept_steps: tuple[Steps, int] | None = folded.get(steps_key)
    if kept_steps is None:
        kept_steps = folded[steps_key] = _map_steps(state, trace, ask)
    return kept_steps


def _map_steps(state: Position, trace: Trace, ask: _Ask) -> tuple[Steps, int]:
    """The steps a search may take on the map alone (into hexes its `through_static` allows, across hexsides its
    `across_static` allows), and the hexes it never enters (those `through_static` refuses)."""
    tables = state.tables
    closed = 0
    static = trace.through_static
    if static is not None:
        closed = bits_of((h for h in tables.hexes if not ask.holds(static, h)), tables.index)
    if trace.across_static is None:
        return tables.map_steps(), closed  # every step of the map (shared by every game played on it)

    def allowed(h: Hex) -> bool:
        return not closed >> tables.index[h] & 1
    across = {h: tuple(n for n in tables.neighbours[h] if allowed(h) and allowed(n) and ask.holds(trace.across_static, n, h))
              for h in tables.hexes}
    return Steps(across, tables.index), closed


def _stepped(following: int, frontier: int, steps_of: Steps, numbered: tuple[Hex, ...], values: TraceValues,
             ask: _Ask) -> int:
    """Those of the hexes `following` that a step from a hex of `frontier` may enter, as the trace's `across` says
    (asked per step, kept in `values.across`)."""
    across = values.across
    entered = 0
    for j in numbers(following):
        n = numbered[j]
        for i in numbers(steps_of.into(j) & frontier):
            step = (numbered[i], n)
            ok = across.get(step)
            if ok is None:
                ok = across[step] = ask.across(*step)
            if ok:
                entered |= 1 << j
                break
    return entered


def _sources(trace: Trace, side: str, values: TraceValues, ask: _Ask, index: dict[Hex, int], closed: int) -> int:
    """The side's sources a search starts from: those not lost, that the map lets through, that `through` passes."""
    lost = values.lost
    frontier = 0
    for h in dict.fromkeys(trace.sources.get(side, ())):
        if trace.lost_when is not None:
            gone = lost.get(h)
            if gone is None:
                gone = lost[h] = ask.lost(h)
            if gone:
                continue
        bit = 1 << index[h]
        if closed & bit:
            continue
        if not values.known & bit:
            values.known |= bit
            if ask.through(h):
                values.passing |= bit
        if values.passing & bit:
            frontier |= bit
    return frontier
