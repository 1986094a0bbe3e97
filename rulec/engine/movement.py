"""Where a unit may go in one move: a Dijkstra search over remaining movement points.

The search keeps, for each (hex, objectives passed) pair, the most MP a unit can
have left there. Objectives are the hexes of 'holds' awards, where passing
through matters; a destination is reported with the richest set of objectives a
legal path to it passes (passing one is never worse for the mover: it can only
take the hex's award from the enemy or give it to the mover).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable

from rulec.engine.tables import Tables
from rulec.runtime.model import Hex, ZocWithdrawal, hexside_key


@dataclass(frozen=True)
class Reach:
    """The result of one search."""

    destinations: dict[Hex, int]  # hex the unit may end in -> objectives mask of its path
    exits: tuple[str, ...]  # map edges the unit may leave by


NOWHERE = Reach({}, ())


def reachable(
    tables: Tables,
    *,
    allowance: int,
    start: Hex | None,
    entries: Iterable[tuple[Hex, int]] = (),
    enemy_occupied: frozenset[Hex] | set[Hex],
    enemy_zoc: frozenset[Hex] | set[Hex],
    locked: bool = False,
    withdrawal: ZocWithdrawal | None = None,
) -> Reach:
    """Every destination of one move.

    `start`: the unit's hex, or None for a unit entering the map through `entries`
    ((hex, MP to enter it from off the map) pairs). `locked`: it began the phase in
    an enemy zone of control and may leave only by tactical `withdrawal`, if any.
    """
    rules = tables.game.movement
    stop_in_zoc = rules.zoc == "stop_on_entry"
    zoc_extra = rules.zoc_extra_cost if rules.zoc == "extra_cost" else 0
    bit = {h: 1 << i for i, h in enumerate(tables.objectives)}
    entry_cost, neighbours = tables.entry, tables.neighbours
    best: dict[tuple[Hex, int], int] = {}
    ends: dict[Hex, int] = {}
    exits: set[str] = set()
    heap: list[tuple[int, int, Hex, int]] = []
    counter = 0

    def arrive(h: Hex, mask: int, left: int, stop: bool) -> None:
        nonlocal counter
        mask |= bit.get(h, 0)
        if h in ends:
            old = ends[h]
            if (mask.bit_count(), -mask) > (old.bit_count(), -old):
                ends[h] = mask
        else:
            ends[h] = mask
        if stop or best.get((h, mask), -1) >= left:
            return
        best[(h, mask)] = left
        counter += 1
        heapq.heappush(heap, (-left, counter, h, mask))

    if start is None:
        for h, cost in entries:
            if h not in enemy_occupied and cost <= allowance:
                arrive(h, 0, allowance - cost, stop_in_zoc and h in enemy_zoc)
    elif locked:
        if withdrawal is None or allowance < withdrawal.min_move:
            return NOWHERE
        # Tactical withdrawal: the first hex must be free of enemy ZOC (and maybe not across a river).
        for n in neighbours[start]:
            step = entry_cost[(start, n)]
            if n in enemy_occupied or n in enemy_zoc:
                continue
            if not withdrawal.first_hex_across_river and hexside_key(start, n) in tables.withdrawal_blocked:
                continue
            cost = step.cost + withdrawal.cost
            if not step.river and cost <= allowance:
                arrive(n, 0, allowance - cost, False)
    else:
        best[(start, 0)] = allowance
        heap.append((-allowance, 0, start, 0))

    while heap:
        negative_left, _, h, mask = heapq.heappop(heap)
        left = -negative_left
        if best.get((h, mask), -1) > left:
            continue
        first = h == start and mask == 0 and left == allowance and not locked
        for edge in tables.edges_of.get(h, ()):
            if tables.exit_cost[(h, edge)] <= left:
                exits.add(edge)
        for n in neighbours[h]:
            if n in enemy_occupied:
                continue
            step = entry_cost[(h, n)]
            if step.river:
                # A river crossing must be the first step of the move and uses every MP left.
                if first:
                    arrive(n, mask, 0, True)
                continue
            cost = step.cost
            if n in enemy_zoc:
                if not rules.zoc_to_zoc and h in enemy_zoc:
                    continue
                cost += zoc_extra
            if cost <= left:
                arrive(n, mask, left - cost, stop_in_zoc and n in enemy_zoc)

    ends.pop(start, None)
    return Reach(ends, tuple(sorted(exits)))
