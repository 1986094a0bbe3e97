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
the answer for the position it is asked in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulec.runtime.model import Hex, Trace

if TYPE_CHECKING:
    from rulec.engine.state import GameState


def traced_hexes(state: "GameState", trace_id: str, side: str, context_of: Any) -> frozenset[Hex]:
    """Every hex `side`'s trace `trace_id` reaches in this position (kept for the position);
    `context_of` makes an EngineContext of a state, for the trace's conditions (only when it must search)."""
    key = ("trace", trace_id, side)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = search(state, state.game.traces[trace_id], side, context_of(state))
    return found


def traced_hexes_without(state: "GameState", trace_id: str, side: str, gone: frozenset[str],
                         context_of: Any) -> frozenset[Hex]:
    """Every hex `side`'s trace would reach were the units `gone` off the map (traced_without): the search on
    a copy of the position without them, kept apart from the position's own traces; `context_of` makes an
    EngineContext of a state."""
    key = ("trace without", trace_id, side, gone)
    found = state._cache.get(key)
    if found is None:
        without = object.__new__(type(state))  # a shallow view: only the positions differ, nothing is changed
        without.__dict__.update(state.__dict__)
        without.pos = {uid: h for uid, h in state.pos.items() if uid not in gone}
        without._cache = {}
        found = state._cache[key] = search(without, state.game.traces[trace_id], side, context_of(without))
    return found


def search(state: "GameState", trace: Trace, side: str, context: Any) -> frozenset[Hex]:
    """The breadth-first search itself; each hex's `through` is evaluated once, each step's `across` when taken."""
    context.friendly = side

    def holds(condition, h: Hex, leaving: Hex = "") -> bool:
        context.hex, context.from_hex = h, leaving
        return bool(condition(context))

    through, lost_when = trace.through, trace.lost_when
    static = trace.through_static
    if static is not None:  # the conditions on the map alone: worked out once a game and side (shared by clones)
        allowed = state._folded_traces.get((trace.id, side))
        if allowed is None:
            allowed = state._folded_traces[(trace.id, side)] = frozenset(h for h in state.tables.hexes if holds(static, h))
    neighbours = state.tables.neighbours
    blocked = None
    if trace.across_static is not None:  # the steps the map alone forbids (a river): likewise once a game and side
        blocked = state._folded_traces.get(("across", trace.id, side))
        if blocked is None:
            blocked = state._folded_traces[("across", trace.id, side)] = frozenset(
                (h, n) for h in state.tables.hexes for n in neighbours[h]
                if (static is None or (h in allowed and n in allowed)) and not holds(trace.across_static, n, h))
    sources = [h for h in trace.sources.get(side, ()) if lost_when is None or not holds(lost_when, h)]
    frontier = [h for h in dict.fromkeys(sources)
                if (static is None or h in allowed) and (through is None or holds(through, h))]
    reached = set(frontier)
    seen = set(reached)  # every hex decided, either way: the map's closed hexes from the start
    if static is not None:
        seen.update(h for h in state.tables.hexes if h not in allowed)
    if blocked is not None or trace.across is not None:
        _spread_by_steps(frontier, reached, seen, neighbours, trace, blocked, context, holds)
        return frozenset(reached)
    steps, limit = 0, trace.max_length
    passes = through.function if through is not None else None  # the compiled condition, called straight (hot)
    while frontier and (limit is None or steps < limit):
        steps += 1
        following = []
        for h in frontier:
            for n in neighbours[h]:
                if n in seen:
                    continue
                seen.add(n)
                if passes is None:
                    following.append(n)
                    continue
                context.hex = n
                try:
                    ok = passes(context)
                except Exception:  # let the expression report its own failure, with its source text
                    ok = holds(through, n)
                if ok:
                    following.append(n)
        reached.update(following)
        frontier = following
    return frozenset(reached)


def _spread_by_steps(frontier: list[Hex], reached: set[Hex], seen: set[Hex], neighbours: dict, trace: Trace,
                     blocked: frozenset[tuple[Hex, Hex]] | None, context: Any, holds: Any) -> None:
    """The search's spread when a step may be refused (`across`): a hex whose `through` holds may be refused from
    one neighbour and entered from another, so it is decided (`seen`) when it fails `through` or is entered."""
    through, across = trace.through, trace.across
    passes = through.function if through is not None else None
    crosses = across.function if across is not None else None
    opened: set[Hex] = set()  # hexes whose `through` holds, not entered yet
    steps, limit = 0, trace.max_length
    while frontier and (limit is None or steps < limit):
        steps += 1
        following = []
        for h in frontier:
            for n in neighbours[h]:
                if n in seen or (blocked is not None and (h, n) in blocked):
                    continue
                if passes is not None and n not in opened:
                    context.hex = n
                    try:
                        ok = passes(context)
                    except Exception:  # let the expression report its own failure, with its source text
                        ok = holds(through, n)
                    if not ok:
                        seen.add(n)
                        continue
                    opened.add(n)
                if crosses is not None:
                    context.hex, context.from_hex = n, h
                    try:
                        ok = crosses(context)
                    except Exception:
                        ok = holds(across, n, h)
                    if not ok:
                        continue
                seen.add(n)
                following.append(n)
        reached.update(following)
        frontier = following
