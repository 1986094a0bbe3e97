"""Where a unit may go in one move: a Dijkstra search over remaining movement points.

The search keeps, for each (hex, objectives passed) pair, the most MP a unit can
have left there. Objectives are the hexes of 'holds' awards, where passing
through matters (with `movement { control = pass_through }`; otherwise no hex
counts as one here, Tables.index_bit); a destination is reported with the most valuable set of
objectives a legal path to it passes (by VP at stake, see Tables.mask_rank):
passing one is never worse for the mover, as it can only take the hex's award
from the enemy or give it to the mover. Those the mover's side holds already it
takes nothing from: `reach_of`'s `held` leaves them out, and reach.path_taken
asks for that search where the path a move was given passes one of them.

Speed (a random playout runs about eighty searches):
- hexes are numbers 0..n-1 in hex order, and sets of hexes are bits of an int
  (see Tables.index); a hex's steps are listed cheapest first;
- positions with the same objectives passed are searched together, as plain hex
  numbers (see `search`);
- `reach_of` remembers each search with the hexes it looked at: enemy units and zones of
  control it never came near (and friends it could not reach) do not matter to it, so
  a search is reused whenever the neighbourhood it saw repeats, in any game;
- its lists of a value per hex are borrowed from the tables and given back as they were
  lent (Tables.search_arrays): a search costs what it reaches, not the size of the map;
- with the compiled engine (make fast), its main loop runs in C (search_core.pyx: the same
  steps over C arrays, a few times faster than mypyc's on Python lists); pure Python runs
  the loop below, and the long tier compares the games both play.

What steps cost comes from a StepCosts (step_costs.py): the chart's own, or those of
the unit's type and the phase's cost values, or of a movement mode along a network
(rail), searched separately and merged (`merge_moves`).

A path's objectives are a set, and the sets a unit's paths may pass grow with their number: a long move across a
map thick with objectives has more than any search could list (a unit of 15 MP among fifty-five towns: over a
thousand sets, and each MP more multiplies them). A search that would track more than MOST_ROUTE_SETS
sets gives each destination instead the objectives of one route to it: the route with the most MP left at each hex
on the way, of equal MP the one passing the more valuable (`search`'s `one_route`; docs/rulings.md). The same hexes
are reached either way (objectives change no step's cost), and a move's objectives are still those of a path it may
take, which the rules then let it take.

What a move costs is not kept by that search (it would slow every playout for
the few moves that are told to a player): `costs_of` runs a second search, on
demand, with the same steps and obstacles, that records the MP spent instead.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from typing import Any, Callable, Final, Iterable

from rulec.engine import hex_bits, native
from rulec.engine.step_costs import StepCosts
from rulec.engine.tables import Tables
from rulec.runtime.model import Hex, hexside_key

# How many searches and boards a game's tables remember (the oldest half is dropped beyond that).
REACH_CACHE_SIZE: Final = 20_000  # a unit's terms of search (where it starts, its allowance ...)
# One board remembered for each: the last searched on. A lookup no board agrees with went through them all (two in
# three lookups, in random games of the smaller game measured): with 32, then 8, then 3, those lookups cost random
# games more than the searches the older boards saved, the more since the compiled engine searches in C (with 3
# boards, not 1: the smaller game's random games x0.95, an AI's whole game x1.01; benchmarks/playouts.py).
BOARD_CACHE_SIZE: Final = 256  # a board serves the searches of one phase, mostly
# At most this many sets of objectives passed does a search track (its layers); beyond, one route to each destination
# (see above). The biggest game's searches track at most 84 (moves of 4 MP at most, fifty-five towns); a search of 256
# costs about 30 ms of pure Python (one of 31,386, on tests/games/many_towns.rulec: 95 s).
MOST_ROUTE_SETS: Final = 256


class Reach:
    """The result of one search. Searches are shared by many states: never modify one.

    `destinations` (hex -> the objectives mask of its path) is made when first read: most searches are only
    listed (`to`, `numbers`), and a dict of every destination cost more than the compiled search itself. That search
    gives in its place the few destinations whose path passes an objective (`masks`) and all their masks ORed.
    """

    __slots__ = ("_destinations", "exits", "exit_masks", "numbers", "exit_hexes", "looked", "to", "masks", "_passed")

    exits: tuple[str, ...]  # map edges the unit may leave by
    exit_masks: dict[str, int] | None  # edge -> objectives mask of the path to it
    numbers: tuple[int, ...]  # the destinations' hex numbers (Tables.index), in hex order
    exit_hexes: dict[str, int] | None  # edge -> the hex number that path leaves from
    # The hexes the search looked at, as bits: the start and each hex it stepped on from (some more, never fewer),
    # with their neighbours (_looked_at: None for a search that stepped nowhere)
    looked: int | None
    # The destinations in hex order, where the search made them (the compiled loop's: search_core.run); None: ask
    # `destinations` (legal_moves.unit_moves keeps them so)
    to: tuple[Hex, ...] | None
    # With `to`, in place of `destinations`: the destinations whose path passes an objective, and its mask (None: none)
    masks: dict[Hex, int] | None

    def __init__(self, destinations: dict[Hex, int] | None, exits: tuple[str, ...],
                 exit_masks: dict[str, int] | None = None, numbers: tuple[int, ...] = (),
                 exit_hexes: dict[str, int] | None = None, looked: int | None = None,
                 to: tuple[Hex, ...] | None = None, masks: dict[Hex, int] | None = None, passed: int = -1) -> None:
        assert destinations is not None or to is not None  # (the destinations, as a dict or in order)
        self._destinations = destinations
        self.exits = exits
        self.exit_masks = exit_masks
        self.numbers = numbers
        self.exit_hexes = exit_hexes
        self.looked = looked
        self.to = to
        self.masks = masks
        self._passed = passed  # every destination's mask ORed (-1: not known yet)

    @property
    def destinations(self) -> dict[Hex, int]:
        """Hex the unit may end in -> the objectives mask of its path, in hex order."""
        found = self._destinations
        if found is None:
            to, masks = self.to, self.masks
            assert to is not None  # (made with `to` where not with the dict)
            found = self._destinations = {h: masks.get(h, 0) for h in to} if masks else dict.fromkeys(to, 0)
        return found

    def mask_to(self, h: Hex) -> int:
        """The objectives mask of the path to `h` (0 for a hex not reached): `destinations.get(h, 0)`."""
        found = self._destinations
        if found is None:
            found = self.masks
            if found is None:
                return 0
        return found.get(h, 0)

    def passed(self) -> int:
        """The objectives some path to a destination passes: every destination's mask ORed."""
        found = self._passed
        if found < 0:
            found = 0
            for mask in self.destinations.values():
                found |= mask
            self._passed = found
        return found

    def __repr__(self) -> str:
        return f"Reach({self.destinations!r}, {self.exits!r})"


NOWHERE: Final = Reach({}, (), to=())


@dataclass(frozen=True, init=False)
class Leave:
    """How a unit in an enemy zone of control may leave it (a LeaveZoc rule it is eligible for).

    Locked (zoc_locks_start): its first step costs `cost` MP more, may end in an enemy zone of control only
    if `into_zoc` (or in the hex numbers `into_hexes`), and may not cross the hexsides `blocked` (nor a
    crossing that takes all MP). Not locked, with zoc_to_zoc = false: the same first steps into an enemy
    zone of control are added to its move (the ZOC-to-ZOC exception). `then_stop`: such a step ends the move.
    """

    cost: int
    into_zoc: bool
    blocked: frozenset[str]
    into_hexes: frozenset[int] = frozenset()
    then_stop: bool = False

    def __init__(self, cost: int, into_zoc: bool, blocked: frozenset[str], into_hexes: frozenset[int] = frozenset(),
                 then_stop: bool = False) -> None:
        object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "into_zoc", into_zoc)
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "into_hexes", into_hexes)
        object.__setattr__(self, "then_stop", then_stop)

    def enters(self, n: int) -> bool:
        """May the first step enter hex number `n` in an enemy zone of control?"""
        return self.into_zoc or n in self.into_hexes

    def with_into_hexes(self, hexes: frozenset[int]) -> Leave:
        """The same way out, into the hex numbers `hexes` (dataclasses.replace, without its cost: once a position
        for each unit held in an enemy zone of control)."""
        return Leave(self.cost, self.into_zoc, self.blocked, hexes, self.then_stop)


@dataclass(frozen=True)
class MoveCosts:
    """The cheapest MP spent to end a move in each destination (and to leave by each edge)."""

    destinations: dict[Hex, int | Fraction]  # hex the unit may end in -> MP spent getting there
    exits: dict[str, int | Fraction]  # map edge the unit may leave by -> MP spent, the step off the map included


class Board:
    """What stands in the way of a search, as a byte a hex number: ENEMY (an enemy unit), ZOC (an enemy zone of
    control) and NO_PASS (a friend that may not be passed through) ORed, 0 for a plain step. The search reads it
    one byte at a time: as bytes, without boxing (compiled), and with no container for the cyclic collector."""

    __slots__ = ("flags",)

    def __init__(self, flags: bytes):
        self.flags = flags

    @classmethod
    def of_bits(cls, enemy: int, zoc: int, no_pass: int, size: int) -> Board:
        """The board of these obstacles, as bits of hex numbers (Tables.index) on a map of `size` hexes: made in C
        (hex_bits.flags, a byte a bit, then the three ORed as ints), no loop over the hexes. Compiled, by
        search_core.board_flags (the same bytes, written at once: a board is made at every enemy move)."""
        core = native.core
        if core is not None:
            return cls(core.board_flags(enemy, zoc, no_pass, size))
        found = 0
        for flag, bits in ((ENEMY, enemy), (ZOC, zoc), (NO_PASS, no_pass)):
            if bits:
                found |= int.from_bytes(hex_bits.flags(bits), "little") * flag
        return cls(found.to_bytes(size, "little"))

    @classmethod
    def of_numbers(cls, enemy: Iterable[int], zoc: Iterable[int], no_pass: Iterable[int], size: int) -> Board:
        """The board of these obstacles, as hex numbers."""
        flags = bytearray(size)
        for flag, numbers in ((ENEMY, enemy), (ZOC, zoc), (NO_PASS, no_pass)):
            for n in numbers:
                flags[n] |= flag
        return cls(bytes(flags))


ENEMY: Final = 1  # Board.flags
ZOC: Final = 2
NO_PASS: Final = 4


def reachable(
    tables: Tables,
    *,
    allowance: int,
    start: Hex | None,
    entries: Iterable[tuple[Hex, int]] = (),
    enemy_occupied: frozenset[Hex] | set[Hex],
    enemy_zoc: frozenset[Hex] | set[Hex],
    locked: bool = False,
    leave: Leave | None = None,
    no_passing: frozenset[Hex] = frozenset(),
    costs: StepCosts | None = None,
) -> Reach:
    """Every destination of one move.

    `start`: the unit's hex, or None for a unit entering the map through `entries`
    ((hex, MP to enter it from off the map) pairs). `locked`: it began the phase in
    an enemy zone of control and may leave it only as `leave` says, if at all.
    `no_passing`: hexes a unit may end in but not move through (friends, when the
    game forbids passing through them). `costs`: what steps cost the unit now
    (Tables.costs_for; the chart's own if None).
    """
    key = (_numbers(tables, enemy_occupied), _numbers(tables, enemy_zoc), _numbers(tables, no_passing))
    board = tables.boards.get(key)
    if board is None:
        board = _remember(tables.boards, key, Board.of_numbers(*key, len(tables.numbered)), BOARD_CACHE_SIZE)
    return search(tables, board, allowance, start, tuple(entries), locked, leave, costs or tables.base_costs)


def reach_of(tables: Tables, *, allowance: int, start: Hex | None, entries: tuple[tuple[Hex, int], ...] = (),
             enemy: int, zoc: int, friends: int, locked: bool = False,
             leave: Leave | None = None, costs: StepCosts | None = None, held: int = 0) -> Reach:
    """`reachable`, with sets of hexes given as bits of hex numbers (see Tables.index).

    `enemy`: hexes of enemy units; `zoc`: hexes in their zones of control;
    `friends`: hexes of friends the unit may not move through (0 if it may). `held`: objectives (bits of
    Tables.objectives) a path passes without taking them (the mover's side holds them): left out of its masks.

    Results are remembered with the hexes the search looked at (`_looked_at`): a search looks at the board only
    there, so a later one with the same unit's terms on a board that agrees with it at those hexes takes the same
    steps and finds the same moves, whatever differs elsewhere.
    """
    if costs is None:
        costs = tables.base_costs
    key = (allowance, start, entries, locked, leave, costs, held)
    kept: tuple[int, int, int, int, Reach] | None = tables.reach_cache.get(key)  # (typed: compiled, unpacked in C)
    # (`x & looked if x else 0`: no op on a long int for obstacles of a kind the game has none of, friends mostly)
    if kept is not None:
        looked, enemy_there, zoc_there, friends_there, found = kept
        if enemy & looked == enemy_there and (zoc & looked if zoc else 0) == zoc_there \
                and (friends & looked if friends else 0) == friends_there:
            return found
    found = search(tables, _board(tables, enemy, zoc, friends), allowance, start, entries, locked, leave, costs, held)
    looked = _looked_at(tables, found, start, entries)
    remembered = (looked, enemy & looked, zoc & looked if zoc else 0, friends & looked if friends else 0, found)
    if kept is None:
        _remember(tables.reach_cache, key, remembered, REACH_CACHE_SIZE)
    else:  # (the board it was made on is let go: one a unit's terms, REACH_CACHE_SIZE)
        tables.reach_cache[key] = remembered
    return found


def first_step_end(tables: Tables, *, allowance: int, start: Hex, enemy: int, zoc: int, friends: int,
                   costs: StepCosts | None = None, accept: Callable[[Hex], bool]) -> Hex | None:
    """A destination one step from `start` (a unit on the map, not held in an enemy zone of control) that `accept`
    takes, if there is one; None says nothing (there may be one further on: ask `reach_of`).

    Whether a unit has a move at all needs one destination its stacking and may_end_move allow; usually a
    neighbour is one, and a whole search would find tens of hexes. The steps are those `search` takes first, from
    the start with every MP left, under its rules: into no enemy unit, into an enemy zone of control only from
    outside one (unless zoc_to_zoc) and paying its extra cost, across a river with any MP. Each such hex is one of
    the search's destinations (it never drops one it found), so a hex found here is one of the unit's moves.
    """
    if costs is None:
        costs = tables.base_costs
    rules = tables.game.movement
    flags = _board(tables, enemy, zoc, friends).flags
    zoc_extra = rules.zoc_extra_cost if rules.zoc != "none" else 0
    origin = tables.index[start]
    from_zoc = flags[origin] & ZOC != 0 and not rules.zoc_to_zoc
    hexes = tables.numbered
    steps = chain(costs.index_plain_moves[origin], costs.index_objective_moves[origin]) if costs.index_rare[origin] \
        else costs.index_plain_moves[origin]
    for n, cost in steps:
        flag = flags[n]
        if cost > allowance or flag & ENEMY:
            continue
        if flag & ZOC and (from_zoc or cost + zoc_extra > allowance):
            continue
        if accept(hexes[n]):
            return hexes[n]
    for n in costs.index_rivers[origin]:  # (a crossing takes every MP left: any allowance will do)
        if not flags[n] & ENEMY and accept(hexes[n]):
            return hexes[n]
    return None


def _looked_at(tables: Tables, found: Reach, start: Hex | None, entries: tuple[tuple[Hex, int], ...]) -> int:
    """Every hex `search` may have looked at on its board (enemy, zone of control, friend in the way), as bits:
    the start with its neighbours, the entry hexes, and each hex the search went on from with its neighbours
    (`Reach.looked`). A hex it stopped in (a zone of control, a friend in the way) was looked at by the step into
    it: what lies beyond it does not matter."""
    index = tables.index
    looked = found.looked
    if looked is None:
        looked = 0 if start is None else tables.area_bits[index[start]]
    for entry, _ in entries:
        looked |= 1 << index[entry]
    return looked


def search(tables: Tables, board: Board, allowance: int, start: Hex | None, entries: tuple[tuple[Hex, int], ...],
           locked: bool, leave: Leave | None, costs: StepCosts, held: int = 0, one_route: bool = False) -> Reach:
    """The search itself; see `reachable` and `reach_of` for the arguments.

    Positions are (hex, objectives passed). The positions with one set of
    objectives passed make a layer, searched on its own as hex numbers; passing
    another objective leads to a higher layer (the set only grows), so layers are
    searched lowest first, each with its own Dijkstra search by MP left.

    Past MOST_ROUTE_SETS layers it starts again with `one_route`: one layer, and at each hex the objectives of the
    route to it with the most MP left (of equal MP, the more valuable), which its steps on carry.
    """
    rules = tables.game.movement
    stop_in_zoc = rules.zoc == "stop_on_entry"
    zoc_extra = rules.zoc_extra_cost if rules.zoc != "none" else 0  # with stop_on_entry too: pay, then stop
    zoc_to_zoc = rules.zoc_to_zoc
    index, hexes, bit = tables.index, tables.numbered, tables.index_bit
    flags = board.flags
    rank = tables.mask_rank
    size = len(hexes)
    if locked and leave is None:
        return NOWHERE

    # The first arrivals, (hex number, MP left, stop there), none passing an objective yet: a unit entering the
    # map, or leaving an enemy zone of control, takes its first step as the rules say; one on the map starts
    # with every MP left in its hex (`seeded`), and may cross a river or step from zone to zone first.
    first: list[tuple[int, int, bool]] = []
    origin = -1 if start is None else index[start]
    if start is None:
        for entry_hex, cost in entries:  # (a hex, not a number like `h` below)
            i = index[entry_hex]
            flag = flags[i]
            if not flag & ENEMY and cost <= allowance:
                first.append((i, allowance - cost, (stop_in_zoc and flag & ZOC != 0) or flag & NO_PASS != 0))
    elif locked:
        assert leave is not None  # (returned above)
        # Leaving an enemy zone of control: the first step as the game's leave_zoc rule says.
        for n, cost in _leaving_steps(costs, origin, start, hexes, flags, leave, every=True):
            in_zoc = flags[n] & ZOC != 0
            cost += zoc_extra if in_zoc else 0
            if cost <= allowance:
                first.append((n, allowance - cost,
                              flags[n] & NO_PASS != 0 or (in_zoc and (stop_in_zoc or leave.then_stop))))
    else:
        # A river crossing must be the first step of the move and uses every MP left.
        for n in costs.index_rivers[origin]:
            if not flags[n] & ENEMY:
                first.append((n, 0, True))
        if leave is not None and not zoc_to_zoc and flags[origin] & ZOC:
            # The ZOC-to-ZOC exception: first steps into another enemy-controlled hex, as leave_zoc allows.
            for n, cost in _leaving_steps(costs, origin, start, hexes, flags, leave, every=False):
                cost += zoc_extra
                if cost <= allowance:
                    first.append((n, allowance - cost, stop_in_zoc or leave.then_stop or flags[n] & NO_PASS != 0))
    seeded = start is not None and not locked

    core = native.core
    if core is not None and not one_route:
        packed = _packed(tables, costs, core)
        if packed is not None:  # the compiled engine's loop, in C (search_core.pyx)
            found: _Answer | None = core.run(packed, flags, allowance, origin, seeded, first, held, stop_in_zoc,
                                            zoc_extra, zoc_to_zoc, hexes, MOST_ROUTE_SETS)
            if found is None:  # too many sets of objectives to track: one route to each destination (this loop's)
                return search(tables, board, allowance, start, entries, locked, leave, costs, held, one_route=True)
            masks, passed, to, numbers, looked, edges, edge_masks, edge_hexes = found  # (typed: unpacked in C)
            return Reach(None, edges, edge_masks, numbers, edge_hexes, looked, to, masks, passed)

    # The search's lists of a value for each hex are borrowed from the tables, each item -1 (given back so:
    # below), not made anew: a search costs what it reaches, not the size of the map
    spare: list[list[int]] = tables.search_arrays
    ends = spare.pop() if spare else [-1] * size  # hex the unit may stop in -> most valuable objectives mask of a path
    reached: list[int] = []  # hexes with an end, in the order found
    exits: dict[str, int] = {}  # edge -> most valuable objectives mask of a path leaving by it
    exit_hexes: dict[str, int] = {}  # edge -> the hex that path leaves from
    # mask -> (hex -> most MP left there, MP left -> hexes to handle). Every step costs at least
    # 1 MP, so handling a layer's hexes by MP left, most first, is a Dijkstra search.
    layers: dict[int, tuple[list[int], list[list[int]]]] = {}
    # With one route to each hex (one_route): the objectives its route passes (-1: none yet), all in the one layer
    route: list[int] | None = [-1] * size if one_route else None

    arrivals = _Arrivals(board, stop_in_zoc, zoc_extra, zoc_to_zoc, bit, ends, reached, layers, size, allowance, rank,
                         ~held, spare, route)
    if seeded or one_route:
        layers[0] = (spare.pop() if spare else [-1] * size, [[] for _ in range(allowance + 1)])
    if seeded:
        layers[0][0][origin] = allowance
        layers[0][1][allowance].append(origin)
        if route is not None:
            route[origin] = 0
    exits_of, plain_moves, objective_moves = costs.index_exits, costs.index_plain_moves, costs.index_objective_moves
    rare = costs.index_rare
    went_on: list[int] = []  # each hex handled (once a layer): the search looked at its neighbours
    done: set[int] = set()
    try:
        for n, left, stop in first:
            arrivals.arrive(n, 0, left, stop)
        while len(done) < len(layers):
            mask = min(m for m in layers if m not in done)
            done.add(mask)
            best, buckets = layers[mask]
            for left in range(allowance, -1, -1):
                for h in buckets[left]:
                    if best[h] > left:
                        continue  # reached again later with more MP left
                    went_on.append(h)
                    here = mask if route is None else route[h]  # the objectives passed on the way here
                    from_zoc = flags[h] & ZOC != 0
                    if rare[h]:  # a map edge or an objective next to it
                        for edge, cost in exits_of[h]:
                            if cost <= left:
                                old = exits.get(edge)
                                if old is None or (here != old and _worth_more(rank, here, old)):
                                    exits[edge] = here
                                    exit_hexes[edge] = h
                        for n, cost in objective_moves[h]:
                            if cost <= left:
                                arrivals.step(n, cost, here, left, from_zoc)
                    if route is not None:  # one route a hex: each step through `arrivals`, which keeps the routes
                        for n, cost in plain_moves[h]:
                            if cost > left:
                                break
                            arrivals.step(n, cost, here, left, from_zoc)
                        continue
                    for n, cost in plain_moves[h]:  # cheapest first; none is an objective: the layer stays
                        if cost > left:
                            break
                        stop = False
                        flag = flags[n]
                        if flag:  # step(), inlined
                            if flag & ENEMY:
                                continue
                            if flag & ZOC:
                                if from_zoc and not zoc_to_zoc:
                                    continue
                                cost += zoc_extra
                                if cost > left:
                                    continue
                                stop = stop_in_zoc or flag & NO_PASS != 0
                            else:
                                stop = True  # a friend that may not be passed through
                        old = ends[n]
                        if old != here:
                            if old < 0:
                                ends[n] = here
                                reached.append(n)
                            elif _worth_more(rank, here, old):
                                ends[n] = here
                        if stop:
                            continue
                        rest = left - cost
                        if best[n] < rest:
                            best[n] = rest
                            buckets[rest].append(n)
    except _TooManyRouteSets:  # (the lists it borrowed are dropped, not given back as they were lent)
        return search(tables, board, allowance, start, entries, locked, leave, costs, held, one_route=True)

    area = tables.area_bits  # (the hexes it looked at: see Reach.looked)
    looked = area[origin] if origin >= 0 else 0
    for h in went_on:
        looked |= area[h]
    # The borrowed lists given back, -1 again wherever the search wrote: a layer's MP left only at hexes handled
    # (each one it reached was), an end only at hexes reached
    for best, _ in layers.values():
        for h in went_on:
            best[h] = -1
        spare.append(best)
    layers.clear()
    if origin >= 0 and ends[origin] >= 0:
        reached.remove(origin)
        ends[origin] = -1
    reached.sort()  # hex numbers go in hex order: destinations come sorted
    destinations = {hexes[i]: ends[i] for i in reached}
    for i in reached:
        ends[i] = -1
    spare.append(ends)
    return Reach(destinations, tuple(sorted(exits)), exits, tuple(reached), exit_hexes, looked)


# search_core.run's answer: the destinations whose path passes an objective (and its mask), every mask ORed, the
# destinations' hexes and numbers in hex order, the hexes looked at, the edges left by, and by edge the objectives mask
# and the hex left from
_Answer = tuple[dict[Hex, int] | None, int, tuple[Hex, ...], tuple[int, ...], int, tuple[str, ...], dict[str, int],
                dict[str, int]]


def _packed(tables: Tables, costs: StepCosts, core: Any) -> Any:
    """What search_core reads of `costs` (made once, kept on it), or None where its masks would not fit a C int or
    a step costs less than nothing."""
    packed = costs.packed
    if packed is None:
        packed = False
        if len(tables.objectives) <= core.OBJECTIVES_FIT:
            try:
                index, neighbours = tables.index, tables.neighbours
                packed = core.Packed(costs.index_plain_moves, costs.index_objective_moves, costs.index_rare,
                                     costs.index_exits, tables.index_bit, tables.mask_rank,
                                     [tuple(index[n] for n in neighbours[h]) for h in tables.numbered])
            except (ValueError, TypeError, OverflowError):  # (steps it cannot pack: the Python loop searches)
                pass
        costs.packed = packed
    return packed or None


class _TooManyRouteSets(Exception):
    """A search's paths pass more sets of objectives than MOST_ROUTE_SETS: it starts again with one route a hex."""


class _Arrivals:
    """A search's arrivals at hexes, for the steps its main loop does not take inline (entries, first steps, steps
    into objectives). A class, not functions nested in `search`: compiled (make fast), the variables nested functions
    share live in an object that every use in the main loop would go through."""

    def __init__(self, board: Board, stop_in_zoc: bool, zoc_extra: int, zoc_to_zoc: bool, bit: list, ends: list[int],
                 reached: list[int], layers: dict[int, tuple[list[int], list[list[int]]]], size: int, allowance: int,
                 rank: tuple[int, ...], counted: int, spare: list[list[int]], route: list[int] | None):
        self.counted = counted  # the objectives' bits a path's mask takes (all but those left out: reach_of's `held`)
        self.flags = board.flags
        self.stop_in_zoc, self.zoc_extra, self.zoc_to_zoc = stop_in_zoc, zoc_extra, zoc_to_zoc
        self.bit, self.ends, self.reached, self.layers = bit, ends, reached, layers
        self.hex_count, self.allowance, self.rank = size, allowance, rank
        self.spare = spare  # (Tables.search_arrays)
        self.route = route  # search's one route to each hex (None: a layer for each set of objectives)

    def arrive(self, h: int, mask: int, left: int, stop: bool) -> None:
        mask |= self.bit[h] & self.counted
        ends = self.ends
        old = ends[h]
        if old < 0:
            ends[h] = mask
            self.reached.append(h)
        elif mask != old and _worth_more(self.rank, mask, old):
            ends[h] = mask
        if stop:
            return
        route = self.route
        if route is not None:  # the one layer: the route with the most MP left, of equal MP the more valuable
            best, buckets = self.layers[0]
            if best[h] < left:
                best[h] = left
                buckets[left].append(h)
                route[h] = mask
            elif best[h] == left and mask != route[h] and _worth_more(self.rank, mask, route[h]):
                route[h] = mask  # (not handled yet: a hex is handled after every arrival with its MP left)
            return
        layer = self.layers.get(mask)
        if layer is None:
            if len(self.layers) >= MOST_ROUTE_SETS:
                raise _TooManyRouteSets()
            spare = self.spare
            layer = self.layers[mask] = (spare.pop() if spare else [-1] * self.hex_count,
                                         [[] for _ in range(self.allowance + 1)])
        if layer[0][h] < left:
            layer[0][h] = left
            layer[1][left].append(h)

    def step(self, n: int, cost: int, mask: int, left: int, in_zoc: bool) -> None:
        """A step into an enemy unit, an enemy zone of control, a friend in the way or an objective."""
        flag = self.flags[n]
        if flag & ENEMY:
            return
        if flag & ZOC:
            if in_zoc and not self.zoc_to_zoc:
                return
            cost += self.zoc_extra
            if cost <= left:
                self.arrive(n, mask, left - cost, self.stop_in_zoc or flag & NO_PASS != 0)
        elif cost <= left:
            self.arrive(n, mask, left - cost, flag & NO_PASS != 0)


def costs_of(tables: Tables, *, allowance: int, start: Hex | None, entries: tuple[tuple[Hex, int], ...] = (),
             enemy: int, zoc: int, friends: int, locked: bool = False,
             leave: Leave | None = None, costs: StepCosts | None = None, held: int = 0) -> MoveCosts:
    """What each destination of `reach_of` (same arguments; `held` plays no part) costs: the fewest MP spent to end
    there.

    The same steps as `search`, under the same rules, but one Dijkstra search by MP
    left over hexes alone: the objectives a path passes never change which steps
    are open, nor what they cost, so they play no part here. A river crossing uses
    every MP (the whole allowance); an exit costs the MP to its hex plus the step off.
    Not remembered: it runs only when a move is told to a player.
    """
    rules = tables.game.movement
    steps = costs or tables.base_costs
    stop_in_zoc = rules.zoc == "stop_on_entry"
    zoc_extra = rules.zoc_extra_cost if rules.zoc != "none" else 0
    flags = _board(tables, enemy, zoc, friends).flags  # (Board: ENEMY, ZOC, NO_PASS by hex number)
    hexes = tables.numbered
    most_left: dict[int, int] = {}  # hex the unit may end in -> most MP left on arriving there
    exits: dict[str, int] = {}  # edge -> most MP left after leaving by it
    moving_on: dict[int, int] = {}  # hex the unit may move on from -> most MP left there
    queue: list[tuple[int, int]] = []  # (-MP left, hex) of positions to move on from, most MP left first

    def arrive(n: int, left: int, stop: bool) -> None:
        if most_left.get(n, -1) < left:
            most_left[n] = left
        if not stop and moving_on.get(n, -1) < left:
            moving_on[n] = left
            heapq.heappush(queue, (-left, n))

    def step(n: int, cost: int, left: int, in_zoc: bool) -> None:
        flag = flags[n]
        if flag & ENEMY:
            return
        stop = flag & NO_PASS != 0
        if flag & ZOC:
            if in_zoc and not rules.zoc_to_zoc:
                return
            cost += zoc_extra
            stop = stop or stop_in_zoc
        if cost <= left:
            arrive(n, left - cost, stop)

    origin = -1 if start is None else tables.index[start]
    if start is None:
        for entry_hex, cost in entries:  # (a hex, not a number like `h` below)
            i = tables.index[entry_hex]
            flag = flags[i]
            if not flag & ENEMY and cost <= allowance:
                arrive(i, allowance - cost, (stop_in_zoc and flag & ZOC != 0) or flag & NO_PASS != 0)
    elif locked:
        if leave is None:
            return MoveCosts({}, {})
        for n, cost in _leaving_steps(steps, origin, start, hexes, flags, leave, every=True):
            in_zoc = flags[n] & ZOC != 0
            cost += zoc_extra if in_zoc else 0
            if cost <= allowance:
                arrive(n, allowance - cost, flags[n] & NO_PASS != 0 or (in_zoc and (stop_in_zoc or leave.then_stop)))
    else:
        moving_on[origin] = allowance
        heapq.heappush(queue, (-allowance, origin))
        for n in steps.index_rivers[origin]:
            if not flags[n] & ENEMY:
                arrive(n, 0, True)
        if leave is not None and not rules.zoc_to_zoc and flags[origin] & ZOC:  # the ZOC-to-ZOC exception (see search)
            for n, cost in _leaving_steps(steps, origin, start, hexes, flags, leave, every=False):
                cost += zoc_extra
                if cost <= allowance:
                    arrive(n, allowance - cost, stop_in_zoc or leave.then_stop or flags[n] & NO_PASS != 0)

    while queue:
        minus_left, h = heapq.heappop(queue)
        left = -minus_left
        if moving_on[h] > left:
            continue  # reached again later with more MP left; handled then
        for edge, cost in steps.index_exits[h]:
            if cost <= left:
                exits[edge] = max(exits.get(edge, -1), left - cost)
        for n, cost in chain(steps.index_plain_moves[h], steps.index_objective_moves[h]):
            step(n, cost, left, flags[h] & ZOC != 0)

    most_left.pop(origin, None)  # staying put is not a move
    return MoveCosts({hexes[n]: allowance - most_left[n] for n in sorted(most_left)},
                     {edge: allowance - exits[edge] for edge in sorted(exits)})


def _leaving_steps(costs: StepCosts, origin: int, start: Hex, hexes: tuple[Hex, ...], flags: bytes, leave: Leave,
                   every: bool) -> Iterable[tuple[int, int]]:
    """The first steps out of `origin` that `leave` allows, with their MP (the rule's extra cost included):
    every such step (`every`, a locked unit), or only those into an enemy zone of control (`flags`: Board.flags)."""
    for n, cost, river in costs.index_steps[origin]:
        if flags[n] & ENEMY or river:
            continue
        if flags[n] & ZOC:
            if not leave.enters(n):
                continue
        elif not every:
            continue
        if leave.blocked and hexside_key(start, hexes[n]) in leave.blocked:
            continue
        yield n, cost + leave.cost


def merge_moves(tables: Tables, first: Reach | MoveCosts, other: Reach | MoveCosts, scale: int = 1) -> Reach | MoveCosts:
    """The moves of `first` and of `other` (a search in another mode, its MP in 1/scale MP) together.

    A unit moves in one mode per move, so a destination is reached by either: what it
    costs is the cheaper, and the objectives it passes the more valuable path's.
    """
    if isinstance(first, MoveCosts):
        assert isinstance(other, MoveCosts)  # both searches of one kind
        end_costs, exit_costs = dict(first.destinations), dict(first.exits)  # (MP spent, where the Reach branch has masks)
        for spent_found, spent_extra in ((end_costs, other.destinations), (exit_costs, other.exits)):
            for key, spent in spent_extra.items():
                spent = _in_mp(spent, scale)
                if key not in spent_found or spent < spent_found[key]:
                    spent_found[key] = spent
        return MoveCosts({h: end_costs[h] for h in sorted(end_costs)}, {e: exit_costs[e] for e in sorted(exit_costs)})
    assert isinstance(other, Reach)
    rank = tables.mask_rank
    ends, exits = dict(first.destinations), dict(first.exit_masks or {})
    exit_hexes = dict(first.exit_hexes or {})
    for found, extra in ((ends, other.destinations), (exits, other.exit_masks or {})):
        for key, mask in extra.items():
            old = found.get(key)
            if old is None or (mask != old and _worth_more(rank, mask, old)):
                found[key] = mask
                if found is exits and other.exit_hexes and key in other.exit_hexes:
                    exit_hexes[key] = other.exit_hexes[key]
    index = tables.index
    return Reach({h: ends[h] for h in sorted(ends)}, tuple(sorted(exits)), exits, tuple(sorted(index[h] for h in ends)),
                 exit_hexes)


def _in_mp(spent: int | Fraction, scale: int) -> int | Fraction:
    """`spent` units of 1/scale MP, in MP: a whole number when it is one."""
    if scale == 1:
        return spent
    value = Fraction(spent, scale)
    return value.numerator if value.denominator == 1 else value


def _worth_more(rank: tuple[int, ...], mask: int, other: int) -> bool:
    """Is passing the objectives in `mask` worth more than passing those in `other`? By Tables.mask_rank; for games
    with too many objectives to rank them (no rank), the more objectives the better, then the lower bits. (Ints
    compared, nothing made: searches ask it at most steps into an objective.)"""
    if rank:
        return rank[mask] > rank[other]
    count, other_count = mask.bit_count(), other.bit_count()
    return count > other_count or (count == other_count and mask < other)


def _board(tables: Tables, enemy: int, zoc: int, friends: int) -> Board:
    """The board of these obstacles (bits of hex numbers), as sets of hex numbers; shared by the searches on it."""
    board_key = (enemy, zoc, friends)
    board = tables.boards.get(board_key)
    if board is None:
        board = Board.of_bits(enemy, zoc, friends, len(tables.numbered))
        _remember(tables.boards, board_key, board, BOARD_CACHE_SIZE)
    return board


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
