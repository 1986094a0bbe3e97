"""Where a unit may go in one move: a Dijkstra search over remaining movement points.

The search keeps, for each (hex, objectives passed) pair, the most MP a unit can
have left there. Objectives are the hexes of 'holds' awards, where passing
through matters; a destination is reported with the most valuable set of
objectives a legal path to it passes (by VP at stake, see Tables.mask_rank):
passing one is never worse for the mover, as it can only take the hex's award
from the enemy or give it to the mover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from rulec.engine.tables import Tables
from rulec.runtime.model import Hex, ZocWithdrawal, hexside_key


@dataclass(frozen=True)
class Reach:
    """The result of one search."""

    destinations: dict[Hex, int]  # hex the unit may end in -> objectives mask of its path
    exits: tuple[str, ...]  # map edges the unit may leave by
    exit_masks: dict[str, int] | None = None  # edge -> objectives mask of the path to it


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
    no_passing: frozenset[Hex] = frozenset(),
) -> Reach:
    """Every destination of one move.

    `start`: the unit's hex, or None for a unit entering the map through `entries`
    ((hex, MP to enter it from off the map) pairs). `locked`: it began the phase in
    an enemy zone of control and may leave only by tactical `withdrawal`, if any.
    `no_passing`: hexes a unit may end in but not move through (friends, when the
    game forbids passing through them).
    """
    rules = tables.game.movement
    stop_in_zoc = rules.zoc == "stop_on_entry"
    zoc_extra = rules.zoc_extra_cost if rules.zoc == "extra_cost" else 0
    zoc_to_zoc = rules.zoc_to_zoc
    bit = {h: 1 << i for i, h in enumerate(tables.objectives)}
    rank = tables.mask_rank or None
    steps, exit_cost, edges_of = tables.steps, tables.exit_cost, tables.edges_of
    best: dict[tuple[Hex, int], int] = {}  # (hex, objectives passed) -> most MP left there
    ends: dict[Hex, int] = {}  # hex the unit may stop in -> richest objectives mask
    exits: dict[str, int] = {}  # edge -> richest objectives mask of a path leaving by it
    # Every step costs at least 1 MP, so handling positions by MP left, most first, is a Dijkstra search.
    buckets: list[list[tuple[Hex, int]]] = [[] for _ in range(allowance + 1)]

    def arrive(h: Hex, mask: int, left: int, stop: bool) -> None:
        mask |= bit.get(h, 0)
        old = ends.get(h)
        if old is None or (mask != old and _better(mask, old, rank)):
            ends[h] = mask
        if stop or best.get((h, mask), -1) >= left:
            return
        best[(h, mask)] = left
        buckets[left].append((h, mask))

    if start is None:
        for h, cost in entries:
            if h not in enemy_occupied and cost <= allowance:
                arrive(h, 0, allowance - cost, stop_in_zoc and h in enemy_zoc)
    elif locked:
        if withdrawal is None or allowance < withdrawal.min_move:
            return NOWHERE
        # Tactical withdrawal: the first hex must be free of enemy ZOC (and maybe not across a river).
        for n, cost, river in steps[start]:
            if n in enemy_occupied or n in enemy_zoc or river:
                continue
            if not withdrawal.first_hex_across_river and hexside_key(start, n) in tables.withdrawal_blocked:
                continue
            cost += withdrawal.cost
            if cost <= allowance:
                arrive(n, 0, allowance - cost, False)
    else:
        best[(start, 0)] = allowance
        buckets[allowance].append((start, 0))

    get = best.get
    for left in range(allowance, -1, -1):
        for h, mask in buckets[left]:
            if get((h, mask), -1) > left:
                continue  # reached again later with more MP left
            first = h == start and mask == 0 and left == allowance and not locked
            for edge in edges_of.get(h, ()):
                if exit_cost[(h, edge)] <= left:
                    old = exits.get(edge)
                    if old is None or (mask != old and _better(mask, old, rank)):
                        exits[edge] = mask
            in_zoc = h in enemy_zoc
            for n, cost, river in steps[h]:
                if n in enemy_occupied:
                    continue
                if river:
                    # A river crossing must be the first step of the move and uses every MP left.
                    if first:
                        arrive(n, mask, 0, True)
                    continue
                if n in enemy_zoc:
                    if in_zoc and not zoc_to_zoc:
                        continue
                    cost += zoc_extra
                    if cost <= left:
                        arrive(n, mask, left - cost, stop_in_zoc or n in no_passing)
                    continue
                if n in no_passing:
                    if cost <= left:
                        arrive(n, mask, left - cost, True)
                    continue
                if cost > left:
                    continue
                # The common case, inlined: a plain step to a hex outside enemy control.
                m = mask | bit[n] if n in bit else mask
                old = ends.get(n)
                if old is None or (m != old and _better(m, old, rank)):
                    ends[n] = m
                rest = left - cost
                if get((n, m), -1) < rest:
                    best[(n, m)] = rest
                    buckets[rest].append((n, m))

    ends.pop(start, None)
    return Reach(ends, tuple(sorted(exits)), exits)


def _better(mask: int, old: int, rank: tuple[int, ...] | None) -> bool:
    """Is a path through the objectives in `mask` worth more to the mover than one through `old`?"""
    if rank is not None:
        return rank[mask] > rank[old]
    return (mask.bit_count(), -mask) > (old.bit_count(), -old)
