"""What a trace search keeps from one position to the next: its conditions' answers, asked again only where the
position changed.

A trace whose conditions read the position only at the hex they are about (model.Trace.reads_at_hex, worked out
by the checker: enemy_occupied(hex), enemy_zoc(hex), controls(side, hex) ...) gives the same answers at every hex
whose facts are unchanged. So each trace and side keeps, for the game (in GameState._folded_traces, shared by
clones), the answers of `through` and `lost_when` by hex and of `across` by step, the facts of the position they
were asked in, and the hexes the search reached. The next search, in any position of the game, compares the facts
(which hexes' occupants, enemy ZOC or holder differ), asks again at those hexes only, and keeps the hexes reached
when no answer changed; when some did, the search's layers before the first the change can reach still hold, and
the search goes on from there (_ask_again). The facts compared are exactly those the context's functions read (rulec/engine/context.py:
sides_at, enemy_zoc, controller), so the answer is the one a search from scratch gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Final

from rulec.engine import stacking
from rulec.engine.position import Position
from rulec.runtime.model import Hex


Step = tuple[Hex, Hex]


@dataclass
class TraceValues:
    """The answers of a trace's position conditions in one position: `through` by hex (as the bits of hex numbers:
    `known`, the hexes asked; `passing`, those it let through), `lost_when` by hex and `across` by step (from, to);
    and, once searched, the hexes reached."""

    known: int = 0
    passing: int = 0
    lost: dict[Hex, bool] = field(default_factory=dict)
    across: dict[Step, bool] = field(default_factory=dict)
    reached: int | None = None  # (bits of hex numbers)
    facts: dict[str, Any] | None = None  # the position facts the answers hold for (kept values only)
    # The search's layers: layers[i] the bits of the hexes reached in at most i steps (layers[0] the sources); when
    # `reached` is dropped, the step to search again from (`restart`: the layers up to it still hold), or -1.
    layers: list[int] | None = None
    sources: frozenset[Hex] = frozenset()
    restart: int = -1


# How each fact a condition may read (functions.HEX_FACTS, and OWN_ZOC) is taken from a position for the side
# tracing, and which hexes differ between two of them (the position the second is taken in given). The readers are
# those of the EngineContext: sides_at, enemy_zoc(side), controller. The occupants' hexes that differ are told by
# what the moves between the two positions changed, where the position knows it (stacking.Lineage), not hex by hex.
def _occupants(state: Position, side: str) -> Any:
    sides = stacking.occupant_sides(state)  # made once a position, never changed: kept as it is
    return sides, state._standing.get(stacking.SIDES_LINEAGE)


def _occupant_changes(before: Any, after: Any, state: Position) -> set[Hex]:
    (old, _), (new, lineage) = before, after
    if old is new:
        return set()
    found = stacking.sides_changed(old, new, lineage)
    return set(found) if found is not None else _mapping_changes(old, new)


def _zoc(state: Position, side: str) -> Any:
    return {other: state.enemy_zoc(other) for other in state.game.sides}


def _zoc_changes(before: dict, after: dict, state: Position) -> set[Hex]:
    return set().union(*(before[side] ^ after[side] for side in after))


def _own_zoc(state: Position, side: str) -> Any:
    return state.enemy_zoc(side)  # kept by a move of the side's own units (move_memory): the same frozenset


def _set_changes(before: frozenset, after: frozenset, state: Position) -> set[Hex]:
    return set(before.symmetric_difference(after))


def _holders(state: Position, side: str) -> Any:
    return dict(state.holders)  # changed in place by the actions: copied


def _mapping_changes(before: dict, after: dict, state: Position | None = None) -> set[Hex]:
    if before == after:  # (usually: compared in C, without a set of the items of each)
        return set()
    return {h for h, _ in before.items() ^ after.items()}


FACTS: Final[dict[str, tuple[Callable[[Position, str], Any], Callable[[Any, Any, Position], set[Hex]]]]] = {
    "occupants": (_occupants, _occupant_changes),
    "zoc": (_zoc, _zoc_changes),
    "own zoc": (_own_zoc, _set_changes),
    "holders": (_holders, _mapping_changes),
}


def values_for(state: Position, trace_id: str, side: str, reads: tuple[str, ...] | None,
               neighbours: dict[Hex, tuple[Hex, ...]], index: dict[Hex, int], ask: Any) -> TraceValues:
    """The answers to start a search with: those kept for the trace and side, brought up to this position by
    asking again where its facts changed (`reached` kept when no answer changed); fresh ones when the trace's
    conditions read the position more widely (`reads` None). `index`: hex -> its number (Tables.index); `ask`
    evaluates a condition (traces._Ask)."""
    if reads is None:
        return TraceValues()
    facts = {name: FACTS[name][0](state, side) for name in reads}
    key = ("kept", trace_id, side)
    kept = state._folded_traces.get(key)
    if kept is None:
        kept = state._folded_traces[key] = TraceValues(facts=facts)
        return kept
    changed: set[Hex] = set()
    for name in reads:
        old, new = kept.facts[name], facts[name]
        if old is not new:
            changed |= FACTS[name][1](old, new, state)
    kept.facts = facts
    try:
        if changed:
            restart = _ask_again(kept, changed, neighbours, index, ask)
            if restart is not None:
                # Still searching again from an earlier change (a search that failed): from the start.
                kept.restart = restart if kept.reached is not None else -1
                kept.reached = None
    except BaseException:  # a condition failed half-way: answers of two positions are mixed, so none is kept
        del state._folded_traces[key]
        raise
    return kept


def _ask_again(kept: TraceValues, changed: set[Hex], neighbours: dict[Hex, tuple[Hex, ...]], index: dict[Hex, int],
               ask: Any) -> int | None:
    """Ask again every kept answer about a hex in `changed`. None when the hexes reached are as they were; else the
    step of the last search whose layers up to it still hold (-1: none). A hex that no longer lets the trace
    through changes only the layers after its own; a hex that now does, only those after its nearest reached
    neighbour's; a step (`across`), those after the hex it leaves; a source lost or found, all of them."""
    restart: int | None = None
    layers = kept.layers if kept.layers is not None else []

    def keep_to(layer: int) -> None:
        nonlocal restart
        restart = layer if restart is None else min(restart, layer)

    def layer_of(h: Hex) -> int | None:  # the step at which the search reached h (None: it did not)
        bit = 1 << index[h]
        if not layers or not layers[-1] & bit:
            return None
        low, high = 0, len(layers) - 1  # the first layer holding h: layers only grow
        while low < high:
            middle = (low + high) // 2
            if layers[middle] & bit:
                high = middle
            else:
                low = middle + 1
        return low

    lost, across = kept.lost, kept.across
    for h in changed:
        bit = 1 << index[h] if h in index else 0
        if kept.known & bit:
            answer = bool(ask.through(h))
            if answer != bool(kept.passing & bit):
                if h in kept.sources:
                    keep_to(-1)
                elif not answer:
                    at = layer_of(h)
                    if at is not None:
                        keep_to(at - 1)
                else:
                    near = [at for at in map(layer_of, neighbours.get(h, ())) if at is not None]
                    if near:
                        keep_to(min(near))
            kept.passing = kept.passing | bit if answer else kept.passing & ~bit
        if h in lost:
            answer = ask.lost(h)
            if answer != lost[h]:
                keep_to(-1)
            lost[h] = answer
        if across:
            for n in neighbours.get(h, ()):
                for step in ((h, n), (n, h)):
                    if step in across:
                        answer = ask.across(*step)
                        if answer != across[step]:
                            at = layer_of(step[0])
                            if at is not None:
                                keep_to(at)
                        across[step] = answer
    return restart
