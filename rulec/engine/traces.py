"""Traces (supply, communication): the hexes a side's paths reach from its sources, worked out when asked.

A trace (model.Trace) is a breadth-first search over the map's neighbour table
(Tables.neighbours) from the side's sources, at most `max_length` steps; a hex
joins the search when the trace's `through` conditions hold for it, evaluated
with `hex` the hex and `friendly` the side tracing: those on the map alone
(`through_static`) once a game, into a set of hexes; the others at each search.
A step from one hex into the next (a hexside crossed) is taken when the
trace's `across` holds, with `from_hex` the hex left: its map part
(`across_static`) folded once a game and side into a set of blocked steps, the
rest asked per step. A source whose `lost_when` holds supplies nobody. The
answer depends on the position (who stands where, the turn), so it is kept in
GameState._cache, which every action drops: a rule asking `supplied(u)` gets
the answer for the position it is asked in. The next position's search starts
from the answers of the last one where the trace's conditions allow it
(trace_memory.py): asked again only at the hexes whose facts changed.
"""

from __future__ import annotations

from typing import Any

from rulec.engine.position import Position, copy_fields
from rulec.engine.trace_memory import TraceValues, values_for
from rulec.runtime.model import Hex, Trace


def traced_hexes(state: Position, trace_id: str, side: str, context_of: Any) -> frozenset[Hex]:
    """Every hex `side`'s trace `trace_id` reaches in this position (kept for the position);
    `context_of` makes an EngineContext of a state, for the trace's conditions (only when it must search)."""
    key = ("trace", trace_id, side)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = search(state, state.game.traces[trace_id], side, context_of(state))
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
        without._cache = {}
        found = state._cache[key] = search(without, state.game.traces[trace_id], side, context_of(without))
    return found


def search(state: Position, trace: Trace, side: str, context: Any) -> frozenset[Hex]:
    """The hexes the trace reaches; its conditions asked again only where the position changed since they were
    last asked in the game, when they read the position only at their hex (trace_memory.py)."""
    ask = _Ask(trace, side, context)
    neighbours = state.tables.neighbours
    values = values_for(state, trace.id, side, trace.reads_at_hex, neighbours, ask)
    if values.reached is None:
        try:
            values.reached = _spread(state, trace, side, values, ask)
        except BaseException:  # a condition failed half-way through the layers kept: search afresh next time
            values.layers, values.depth, values.restart = None, None, -1
            raise
    return values.reached


class _Ask:
    """Evaluates a trace's conditions for one side, with `hex` (and `from_hex`) set; a failure is reported by
    the expression itself, with its source text."""

    def __init__(self, trace: Trace, side: str, context: Any):
        context.friendly = side
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


def _spread(state: Position, trace: Trace, side: str, values: TraceValues, ask: _Ask) -> frozenset[Hex]:
    """The breadth-first search, from the side's sources not lost, at most `max_length` steps. A hex is decided
    (`seen`) once it fails `through` or is entered; a hex refused one step (`across`) may be entered by another.
    The answers of the position's conditions are taken from `values` when there, else asked and put there."""
    static = trace.through_static
    allowed: frozenset[Hex] = frozenset()  # (read only with `static`)
    if static is not None:  # the conditions on the map alone: worked out once a game and side (shared by clones)
        folded = state._folded_traces.get((trace.id, side))
        if folded is None:
            folded = state._folded_traces[(trace.id, side)] = frozenset(h for h in state.tables.hexes if ask.holds(static, h))
        allowed = folded
    neighbours = state.tables.neighbours
    if trace.across_static is not None:  # the steps the map alone forbids (a river): likewise once a game and side
        open_steps = state._folded_traces.get(("across", trace.id, side))
        if open_steps is None:
            open_steps = state._folded_traces[("across", trace.id, side)] = {
                h: tuple(n for n in neighbours[h] if (static is None or (h in allowed and n in allowed))
                         and ask.holds(trace.across_static, n, h))
                for h in state.tables.hexes}
        neighbours = open_steps  # each hex's neighbours that a step may enter
    closed: frozenset[Hex] = frozenset()
    if static is not None:  # the map's closed hexes, decided from the start
        kept_closed: frozenset[Hex] | None = state._folded_traces.get(("closed", trace.id, side))
        if kept_closed is None:
            kept_closed = state._folded_traces[("closed", trace.id, side)] = frozenset(state.tables.hexes).difference(allowed)
        closed = kept_closed
    through, lost, across = values.through, values.lost, values.across
    steps, limit = 0, trace.max_length
    layers = values.layers
    if layers is not None and values.depth is not None and 0 <= values.restart < len(layers):
        # The layers up to `restart` still hold: the later ones are dropped (their hexes only: the cost of a
        # restart is that of the layers searched again, not of the whole trace).
        steps = values.restart
        depth = values.depth
        for dropped in layers[steps + 1:]:
            for h in dropped:
                del depth[h]
        layers = layers[:steps + 1]
        frontier = layers[-1]
    else:
        frontier = _sources(trace, side, values, ask, allowed if static is not None else None)
        layers = [frontier]
        depth = dict.fromkeys(frontier, 0)
        values.sources = frozenset(trace.sources.get(side, ()))
    seen: set[Hex] = set()  # the hexes refused, and (with `depth`, the hexes reached) every hex decided; the map's
    # closed hexes are decided from the start
    stepping = trace.across is not None
    passes, context = ask.passes, ask.context  # the compiled condition, called straight (hot)
    while frontier and (limit is None or steps < limit):
        steps += 1
        following = []
        for h in frontier:
            for n in neighbours[h]:
                if n in depth or n in seen or n in closed:
                    continue
                ok = through.get(n)
                if ok is None:
                    if passes is None:
                        ok = True
                    else:
                        context.hex = n
                        try:
                            ok = passes(context)
                        except Exception:  # let the expression report its own failure, with its source text
                            ok = ask.through(n)
                    through[n] = ok
                if not ok:
                    seen.add(n)
                    continue
                if stepping:
                    ok = across.get((h, n))
                    if ok is None:
                        ok = across[(h, n)] = ask.across(h, n)
                    if not ok:
                        continue
                following.append(n)
                depth[n] = steps
        if following:
            layers.append(following)
        frontier = following
    values.layers, values.depth, values.restart = layers, depth, -1
    return frozenset(depth)


def _sources(trace: Trace, side: str, values: TraceValues, ask: _Ask, allowed: frozenset[Hex] | None) -> list[Hex]:
    """The side's sources a search starts from: those not lost, that the map lets through, that `through` passes."""
    through, lost = values.through, values.lost
    frontier = []
    for h in dict.fromkeys(trace.sources.get(side, ())):
        if trace.lost_when is not None:
            gone = lost.get(h)
            if gone is None:
                gone = lost[h] = ask.lost(h)
            if gone:
                continue
        if allowed is not None and h not in allowed:
            continue
        ok = through.get(h)
        if ok is None:
            ok = through[h] = ask.through(h)
        if ok:
            frontier.append(h)
    return frontier
