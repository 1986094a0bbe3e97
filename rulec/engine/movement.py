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
    rank = tables.mask_rank or None
    # Hexes are numbers here (see Tables.index); a position is number * width + objectives mask.
    index, hexes, steps, bit = tables.index, tables.hexes, tables.index_steps, tables.index_bit
    width = 1 << len(tables.objectives)
    enemy = _numbers(tables, enemy_occupied)
    zoc = _numbers(tables, enemy_zoc)
    no_pass = _numbers(tables, no_passing)
    best = [-1] * (len(hexes) * width)  # position -> most MP left there
    ends = [-1] * len(hexes)  # hex the unit may stop in -> most valuable objectives mask of a path
    exits: dict[str, int] = {}  # edge -> most valuable objectives mask of a path leaving by it
    # Every step costs at least 1 MP, so handling positions by MP left, most first, is a Dijkstra search.
    buckets: list[list[tuple[int, int]]] = [[] for _ in range(allowance + 1)]

    def arrive(h: int, mask: int, left: int, stop: bool) -> None:
        mask |= bit[h]
        old = ends[h]
        if old < 0 or (mask != old and _better(mask, old, rank)):
            ends[h] = mask
        if stop or best[h * width + mask] >= left:
            return
        best[h * width + mask] = left
        buckets[left].append((h, mask))

    origin = -1 if start is None else index[start]
    if start is None:
        for h, cost in entries:
            i = index[h]
            if i not in enemy and cost <= allowance:
                arrive(i, 0, allowance - cost, (stop_in_zoc and i in zoc) or i in no_pass)
    elif locked:
        if withdrawal is None or allowance < withdrawal.min_move:
            return NOWHERE
        # Tactical withdrawal: the first hex must be free of enemy ZOC (and maybe not across a river).
        for n, cost, river in steps[origin]:
            if n in enemy or n in zoc or river:
                continue
            if not withdrawal.first_hex_across_river and hexside_key(start, hexes[n]) in tables.withdrawal_blocked:
                continue
            cost += withdrawal.cost
            if cost <= allowance:
                arrive(n, 0, allowance - cost, n in no_pass)
    else:
        best[origin * width] = allowance
        buckets[allowance].append((origin, 0))

    exits_of = tables.index_exits
    for left in range(allowance, -1, -1):
        for h, mask in buckets[left]:
            if best[h * width + mask] > left:
                continue  # reached again later with more MP left
            first = h == origin and mask == 0 and left == allowance and not locked
            for edge, cost in exits_of[h]:
                if cost <= left:
                    old = exits.get(edge)
                    if old is None or (mask != old and _better(mask, old, rank)):
                        exits[edge] = mask
            in_zoc = h in zoc
            for n, cost, river in steps[h]:
                if n in enemy:
                    continue
                if river:
                    # A river crossing must be the first step of the move and uses every MP left.
                    if first:
                        arrive(n, mask, 0, True)
                    continue
                if n in zoc:
                    if in_zoc and not zoc_to_zoc:
                        continue
                    cost += zoc_extra
                    if cost <= left:
                        arrive(n, mask, left - cost, stop_in_zoc or n in no_pass)
                    continue
                if cost > left:
                    continue
                if n in no_pass:
                    arrive(n, mask, left - cost, True)
                    continue
                # The common case, inlined: a plain step to a hex outside enemy control.
                m = mask | bit[n]
                old = ends[n]
                if old < 0 or (m != old and _better(m, old, rank)):
                    ends[n] = m
                rest = left - cost
                position = n * width + m
                if best[position] < rest:
                    best[position] = rest
                    buckets[rest].append((n, m))

    destinations = {hexes[i]: m for i, m in enumerate(ends) if m >= 0 and i != origin}
    return Reach(destinations, tuple(sorted(exits)), exits)


def _numbers(tables: Tables, hexes: frozenset[Hex] | set[Hex]) -> frozenset[int]:
    """The hex numbers of a set of hexes; kept for frozensets, which many searches share."""
    if not isinstance(hexes, frozenset):
        return frozenset(tables.index[h] for h in hexes)
    found = tables.number_sets.get(hexes)
    if found is None:
        if len(tables.number_sets) > 20_000:
            tables.number_sets.clear()
        found = tables.number_sets[hexes] = frozenset(tables.index[h] for h in hexes)
    return found


def _better(mask: int, old: int, rank: tuple[int, ...] | None) -> bool:
    """Is a path through the objectives in `mask` worth more to the mover than one through `old`?"""
    if rank is not None:
        return rank[mask] > rank[old]
    return (mask.bit_count(), -mask) > (old.bit_count(), -old)
