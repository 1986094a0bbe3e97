"""Where a unit may go in one move: a Dijkstra search over remaining movement points.

The search keeps, for each (hex, objectives passed) pair, the most MP a unit can
have left there. Objectives are the hexes of 'holds' awards, where passing
through matters; a destination is reported with the most valuable set of
objectives a legal path to it passes (by VP at stake, see Tables.mask_rank):
passing one is never worse for the mover, as it can only take the hex's award
from the enemy or give it to the mover.

Speed (random playouts run about a hundred searches a game):
- hexes are numbers 0..n-1 and sets of hexes are bits of an int (see Tables.index);
- the steps a search may take among one set of enemy units (`Board`) are worked out
  once and shared by every search against those enemies, e.g. by all the units of
  the side moving in one phase;
- `reach_of` remembers searches by what lies within the unit's range only: enemy units
  that are too far away to matter (and friends it cannot reach) are left out of the
  key, so a search is reused whenever the neighbourhood repeats, in any game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from rulec.engine.tables import Tables
from rulec.runtime.model import Hex, ZocWithdrawal, hexside_key

# How many searches and boards a game's tables remember (the oldest half is dropped beyond that).
REACH_CACHE_SIZE = 40_000
BOARD_CACHE_SIZE = 2_000


@dataclass(frozen=True)
class Reach:
    """The result of one search."""

    destinations: dict[Hex, int]  # hex the unit may end in -> objectives mask of its path
    exits: tuple[str, ...]  # map edges the unit may leave by
    exit_masks: dict[str, int] | None = None  # edge -> objectives mask of the path to it
    numbers: tuple[int, ...] = ()  # the destinations' hex numbers (Tables.index), in hex order


NOWHERE = Reach({}, ())


class Board:
    """What stands in the way of a search, as sets of hex numbers: enemy units, their zones of control,
    friends that may not be passed through, and all three together (a step into none of them is plain)."""

    __slots__ = ("enemy", "zoc", "no_pass", "special")

    def __init__(self, enemy: frozenset[int], zoc: frozenset[int], no_pass: frozenset[int]):
        self.enemy, self.zoc, self.no_pass = enemy, zoc, no_pass
        self.special = enemy | zoc | no_pass


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
    key = (_numbers(tables, enemy_occupied), _numbers(tables, enemy_zoc), _numbers(tables, no_passing))
    board = tables.boards.get(key)
    if board is None:
        board = _remember(tables.boards, key, Board(*key), BOARD_CACHE_SIZE)
    entries = tuple(entries)
    objectives = True
    if not (locked and withdrawal is not None and withdrawal.cost < 0):
        objectives = bool(_scope(tables, allowance, start, entries)[0] & tables.objective_bits)
    return search(tables, board, allowance, start, entries, locked, withdrawal, objectives)


def reach_of(tables: Tables, *, allowance: int, start: Hex | None, entries: tuple[tuple[Hex, int], ...] = (),
             enemy: int, friends: int, zoc: bool, locked: bool = False,
             withdrawal: ZocWithdrawal | None = None) -> Reach:
    """`reachable` for a unit among enemy units at the hex numbers set in the bits of `enemy`.

    `friends`: bits of the hexes of friends it may not move through (0 if it may);
    `zoc`: do the enemy units have zones of control. Results are remembered by the
    enemy units and friends within the unit's range only (see `_scope`).
    """
    if locked and withdrawal is not None and withdrawal.cost < 0:
        key = None  # a withdrawal cheaper than a step may go beyond the unit's usual range
        objectives = True
    else:
        touched, affecting = _scope(tables, allowance, start, entries)
        objectives = bool(touched & tables.objective_bits)
        key = (allowance, start, entries, locked, withdrawal, enemy & affecting, friends & touched)
        found = tables.reach_cache.get(key)
        if found is not None:
            return found
    board_key = (enemy, friends, zoc)
    board = tables.boards.get(board_key)
    if board is None:
        enemies = _bits_to_numbers(enemy)
        zone = frozenset(n for e in enemies for n in tables.index_zoc[e]) if zoc else frozenset()
        board = _remember(tables.boards, board_key, Board(enemies, zone, _bits_to_numbers(friends)),
                          BOARD_CACHE_SIZE)
    found = search(tables, board, allowance, start, entries, locked, withdrawal, objectives)
    if key is not None:
        _remember(tables.reach_cache, key, found, REACH_CACHE_SIZE)
    return found


def search(tables: Tables, board: Board, allowance: int, start: Hex | None, entries: tuple[tuple[Hex, int], ...],
           locked: bool, withdrawal: ZocWithdrawal | None, objectives: bool = True) -> Reach:
    """The search itself; see `reachable` for the arguments.

    `objectives`: False when the move cannot reach an objective (see `_scope`), so
    that objectives masks are all 0 and a simpler loop does.
    """
    rules = tables.game.movement
    stop_in_zoc = rules.zoc == "stop_on_entry"
    zoc_extra = rules.zoc_extra_cost if rules.zoc == "extra_cost" else 0
    zoc_to_zoc = rules.zoc_to_zoc
    index, hexes, bit = tables.index, tables.numbered, tables.index_bit
    enemy, zoc, no_pass, special = board.enemy, board.zoc, board.no_pass, board.special
    rank = tables.mask_rank
    worth = rank.__getitem__ if rank else _mask_worth
    width = 1 << len(tables.objectives) if objectives else 1  # a position is hex number * width + objectives mask
    best = [-1] * (len(hexes) * width)  # position -> most MP left there
    ends = [-1] * len(hexes)  # hex the unit may stop in -> most valuable objectives mask of a path
    reached: list[int] = []  # hexes with an end, in the order found
    exits: dict[str, int] = {}  # edge -> most valuable objectives mask of a path leaving by it
    # Every step costs at least 1 MP, so handling positions by MP left, most first, is a Dijkstra search.
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]

    def arrive(h: int, mask: int, left: int, stop: bool) -> None:
        mask |= bit[h]
        old = ends[h]
        if old < 0:
            ends[h] = mask
            reached.append(h)
        elif mask != old and worth(mask) > worth(old):
            ends[h] = mask
        if stop or best[h * width + mask] >= left:
            return
        best[h * width + mask] = left
        buckets[left].append(h * width + mask)

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
        for n, cost, river in tables.index_steps[origin]:
            if n in enemy or n in zoc or river:
                continue
            if not withdrawal.first_hex_across_river and hexside_key(start, hexes[n]) in tables.withdrawal_blocked:
                continue
            cost += withdrawal.cost
            if cost <= allowance:
                arrive(n, 0, allowance - cost, n in no_pass)
    else:
        best[origin * width] = allowance
        buckets[allowance].append(origin * width)
        # A river crossing must be the first step of the move and uses every MP left.
        for n in tables.index_rivers[origin]:
            if n not in enemy:
                arrive(n, 0, 0, True)

    exits_of, moves_of = tables.index_exits, tables.index_moves
    if not objectives:
        # The same loop with every objectives mask 0: a position is a hex number.
        for left in range(allowance, -1, -1):
            for h in buckets[left]:
                if best[h] > left:
                    continue
                for edge, cost in exits_of[h]:
                    if cost <= left and edge not in exits:
                        exits[edge] = 0
                in_zoc = h in zoc
                for n, cost in moves_of[h]:
                    if cost > left:
                        continue
                    if n in special:
                        if n in enemy:
                            continue
                        if n in zoc:
                            if in_zoc and not zoc_to_zoc:
                                continue
                            cost += zoc_extra
                            if cost <= left:
                                arrive(n, 0, left - cost, stop_in_zoc or n in no_pass)
                        else:
                            arrive(n, 0, left - cost, True)
                        continue
                    if ends[n] < 0:
                        ends[n] = 0
                        reached.append(n)
                    rest = left - cost
                    if best[n] < rest:
                        best[n] = rest
                        buckets[rest].append(n)
    for left in range(allowance if objectives else -1, -1, -1):
        for position in buckets[left]:
            if best[position] > left:
                continue  # reached again later with more MP left
            h, mask = divmod(position, width)
            for edge, cost in exits_of[h]:
                if cost <= left:
                    old = exits.get(edge)
                    if old is None or (mask != old and worth(mask) > worth(old)):
                        exits[edge] = mask
            in_zoc = h in zoc
            for n, cost in moves_of[h]:
                if cost > left:
                    continue
                if n in special:
                    if n in enemy:
                        continue
                    if n in zoc:
                        if in_zoc and not zoc_to_zoc:
                            continue
                        cost += zoc_extra
                        if cost <= left:
                            arrive(n, mask, left - cost, stop_in_zoc or n in no_pass)
                    else:
                        arrive(n, mask, left - cost, True)
                    continue
                # The common case, inlined: a plain step to a hex outside enemy control.
                m = mask | bit[n]
                old = ends[n]
                if old != m:
                    if old < 0:
                        ends[n] = m
                        reached.append(n)
                    elif worth(m) > worth(old):
                        ends[n] = m
                rest = left - cost
                position = n * width + m
                if best[position] < rest:
                    best[position] = rest
                    buckets[rest].append(position)

    if origin >= 0 and ends[origin] >= 0:
        reached.remove(origin)
    reached.sort()  # hex numbers go in hex order: destinations come sorted
    return Reach({hexes[i]: ends[i] for i in reached}, tuple(sorted(exits)), exits, tuple(reached))


def _scope(tables: Tables, allowance: int, start: Hex | None, entries: tuple[tuple[Hex, int], ...]) -> tuple[int, int]:
    """(hexes a search may look at, hexes where an enemy unit may change its result), as bits.

    Enemy units and zones of control only ever take steps away, so a search among
    them looks at no hex that the same search on an empty map does not reach (or
    start from); and an enemy unit matters only in one of those hexes or when its
    zone of control reaches into them.
    """
    key = (allowance, start, entries)
    found = tables.scopes.get(key)
    if found is None:
        empty = tables.boards.get(None)
        if empty is None:
            empty = tables.boards[None] = Board(frozenset(), frozenset(), frozenset())
        reach = search(tables, empty, allowance, start, entries, False, None)
        numbers = {tables.index[h] for h in reach.destinations}
        if start is not None:
            numbers.add(tables.index[start])
        touched = sum(1 << n for n in numbers)
        affecting = touched | sum(1 << e for e, zone in enumerate(tables.index_zoc) if not numbers.isdisjoint(zone))
        found = tables.scopes[key] = (touched, affecting)
    return found


def _mask_worth(mask: int) -> tuple[int, int]:
    """How much passing the objectives in `mask` is worth, for games with too many objectives to rank them."""
    return mask.bit_count(), -mask


def _bits_to_numbers(bits: int) -> frozenset[int]:
    numbers = []
    while bits:
        low = bits & -bits
        numbers.append(low.bit_length() - 1)
        bits ^= low
    return frozenset(numbers)


def _remember(cache: dict, key, value, size: int):
    """Store `value` under `key`, dropping the oldest half of `cache` when it is full."""
    if len(cache) >= size:
        for old in list(cache)[: size // 2]:
            del cache[old]
    cache[key] = value
    return value


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
