"""Which units may move now, and where: the movement phase's decisions and their legality.

A movement phase lists `move UNIT` for each phasing unit that may still move and has somewhere
to go, and `delay UNIT` for a reinforcement that may be held back (movement { reinforcement_delay });
after `move UNIT`, the unit's moves (`move UNIT HEX`, `exit UNIT EDGE`) or `cancel`. This module
decides those lists and whether one order is legal, and what a move or exit would cost.

Where a unit may go is the movement search's (movement.py: MP, terrain, ZOC, objectives passed), given
what reach.py says the unit's search is given now (its allowance, start or open entry hexes, obstacles, step
costs, way out of an enemy zone of control, movement modes) and kept as long as reach.py says it holds; then
stacking.py removes the hexes it may not end in, and movement { may_end_move } (move_ends.py) those the game
forbids. Reinforcements waiting to enter (when they arrive, whether they may be held back) are arrivals.py's.

Speed: searches are the engine's hottest work (see rulec/engine/__init__.py). A unit's moves are
kept for the whole phase (GameState._phase_moves, shared by clones) when they cannot depend on
friendly units that move during it (keeps_moves), else for the position (GameState._cache);
may_end_move is evaluated per hex only when asked (has_move stops at the first hex allowed), and has_move
looks one step away before it asks for the unit's whole search (movement.first_step_end): a listing of the
movement phase's units then searches only the units that are chosen, or hemmed in.
"""

from __future__ import annotations

import bisect
from typing import AbstractSet, Any, Callable, Collection, Final, Iterable, Iterator

from rulec.engine import answer_reads, markers, stacking
from rulec.engine.actions import CANCEL, EXIT, MOVE, Action
from rulec.engine.arrivals import arrives_now, arriving, delay_allowed, entry_rule_noted, may_delay, open_entries, \
    placed_anywhere
from rulec.engine.exits import allowed_edges
from rulec.engine.frames import Moving
from rulec.engine.move_ends import ALLOWED_ENDS, END_ALLOWED, END_OWNED, END_READS, READINGS, allowed_ends, \
    end_allowed, end_readings
from rulec.engine.movement import first_step_end
from rulec.engine.position import Position
from rulec.engine.reach import FALLBACK, LEAVE_ASKED, LEAVE_READS, REACH, REACHING, keeps_moves, kept_anew, \
    moves_carry_over, moves_key, note_at, reach_kept, search_terms
from rulec.engine.statuses import ON_MAP, PENDING
from rulec.runtime.model import ORDINARY, Hex


def movement_actions(state: Position) -> list[Action]:
    """A movement phase's own decision: `move UNIT` (the unit's destination is the next decision) for each unit
    with somewhere to go, and `delay UNIT` for each reinforcement that may be held back. Choosing first the unit,
    then its hex keeps every decision small: never every unit times every hex.

    Kept for the position; after a move, the list of the position before is patched (carry_moves): only the
    units whose answers the move may have changed are asked again."""
    listing = state._cache.get(LISTING)
    if listing is None:
        patch = state._cache.get(LISTING_PATCH)
        if patch is not None:
            actions, places = _patched(state, *patch)
        else:
            actions, places, order = [], [], _mover_order(state)
            for uid in movable_units(state):
                listed = len(actions)
                _add_unit_actions(state, uid, actions)
                places += [order[uid]] * (len(actions) - listed)
        listing = state._cache[LISTING] = (tuple(actions), tuple(places))
    return list(listing[0])


def movement_orders(state: Position) -> list[Action]:
    """The movement phase's own decision (with_end of movement_actions) with each `move UNIT` replaced by the unit's
    moves (listed_moves): made without movement_actions' list, which a player who orders whole moves never asks
    for. A unit's `move UNIT` is listed where it has a move, which its listing says."""
    orders: list[Action] = []
    for uid in movable_units(state):
        orders += listed_moves(state, uid)
        _add_delay(state, uid, orders)
    return with_end(state, orders)


def with_end(state: Position, actions: list[Action]) -> list[Action]:
    """A movement phase's `actions`, then `end` unless reinforcements due now must enter first (entries_due)."""
    if not entries_due(state):
        actions.append(Action.end())
    return actions


def _add_unit_actions(state: Position, uid: str, actions: list[Action]) -> None:
    """Append the actions of one unit that may move now: `move UNIT` if it has a move, `delay UNIT` if it may."""
    if has_move(state, uid):
        actions.append(Action.move(uid))
    _add_delay(state, uid, actions)


def _add_delay(state: Position, uid: str, actions: list[Action]) -> None:
    """Append `delay UNIT` if the unit is a reinforcement that may be held back now."""
    if state.where[uid] == PENDING and may_delay(state, uid):
        actions.append(state.tables.delay_action(uid))


def _patched(state: Position, before: tuple[tuple[Action, ...], tuple[int, ...]], changed: AbstractSet[str]
             ) -> tuple[list[Action], list[int]]:
    """The listing of an earlier position of the phase (its actions, and each one's unit's place in the phase's
    order of movers), with the units whose answers moves since may have changed (`changed`) asked again: each
    unit's actions are found by bisecting the places (the others are not looked at)."""
    order = _mover_order(state)
    actions, places = list(before[0]), list(before[1])
    for uid in changed:
        at = order.get(uid)
        if at is None:
            continue
        start = bisect.bisect_left(places, at)
        end = bisect.bisect_right(places, at, lo=start)
        found: list[Action] = []
        if may_move_now(state, uid):
            _add_unit_actions(state, uid, found)
        actions[start:end] = found
        places[start:end] = [at] * len(found)
    return actions, places


def _mover_order(state: Position) -> dict[str, int]:
    """Each of the phase's movers' place in their order (the order movement_actions lists their actions in)."""
    order = state._phase_moves.get(_MOVER_ORDER)
    if order is None:
        order = state._phase_moves[_MOVER_ORDER] = {u: i for i, u in enumerate(state._movers)}
    return order


def movable_units(state: Position) -> list[str]:
    """The units for which may_move_now holds, in the order of the phase's movers (the phase's facts asked once;
    kept for the position, and carried over a move by carry_moves)."""
    found = state._cache.get(_MOVABLE)
    if found is not None:
        return found
    units, moved, where, side = state._units, state.moved, state.where, state.phase.side
    forbidden = markers.forbidden(state, "move") if state.markers.units else ()
    found = []
    for uid in state._movers:
        unit = units.get(uid)
        if unit is None or uid in moved or unit.side != side or uid in forbidden:
            continue
        status = where[uid]
        if status == ON_MAP or (status == PENDING and arrives_now(state, uid)):
            found.append(uid)
    state._cache[_MOVABLE] = found
    return found


def may_move_now(state: Position, uid: str) -> bool:
    """Is `uid` one of the phasing side's units that may still move this phase (wherever it could go)?"""
    unit = state._units.get(uid)
    if unit is None or uid in state.moved or unit.side != state.phase.side:
        return False
    if state.phase.movers is not None and uid not in state._movers:  # a phase for some units only
        return False
    if state.markers.units and uid in markers.forbidden(state, "move"):
        return False
    status = state.where[uid]
    return status == ON_MAP or (status == PENDING and arrives_now(state, uid))


def moves_of(state: Position, uid: str) -> list[Action]:
    """Every legal one-step order of `uid` now: `move UNIT HEX` for each hex it may end its move in, and
    `exit UNIT EDGE` for each edge it may leave by (a move's second step lists these; each is also legal
    at once, in place of both steps). Empty when the unit may not move now."""
    return list(listed_moves(state, uid))


def listed_moves(state: Position, uid: str) -> tuple[Action, ...]:
    """moves_of, as kept for the position (do not modify)."""
    found = state.answers(LEGAL_MOVES).get(uid)
    if found is None:
        if not (state.phase.kind == "movement" and not state.terminal and may_move_now(state, uid)):
            found = ()
        else:
            reached = unit_moves(state, uid)
            exits, to = reached.exits, reached.to
            _note_reaching(state, uid, to)
            if state.game.movement.may_end_move is not None:
                moves, _, to = allowed_ends(state, uid, reached.moves, to)
                blocked = _blocked(state, uid, to)
                if blocked:
                    moves = _without_moves_into(moves, to, blocked)
            else:
                blocked = _blocked(state, uid, to)
                moves = reached.moves_except(blocked) if blocked else reached.moves
            found = (*moves, *exits)
        _remember(state, LEGAL_MOVES, uid, found)
    return found


class CandidateOrders:
    """One mover's candidate orders (candidate_orders), by index: its moves, its exits, then its delay where it may
    be held back. A move's Action is made only when asked for: a sampler counts every mover's orders at each
    decision and draws one of them all."""

    __slots__ = ("_moves", "_count", "_rest")

    def __init__(self, moves: UnitMoves, rest: tuple[Action, ...]) -> None:
        self._moves, self._count, self._rest = moves, len(moves.to), rest

    def __len__(self) -> int:
        return self._count + len(self._rest)

    def __getitem__(self, index: int) -> Action:
        assert 0 <= index < self._count + len(self._rest), index  # (no index from the end)
        return self._moves.move(index) if index < self._count else self._rest[index - self._count]

    def __iter__(self) -> Iterator[Action]:
        yield from self._moves.moves
        yield from self._rest

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CandidateOrders) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"CandidateOrders{tuple(self)!r}"


def candidate_orders(state: Position, uid: str) -> CandidateOrders:
    """A mover's orders before stacking and may_end_move: its moves and exits (unit_moves), then `delay UNIT` where
    it may be held back now. What a sampler draws among (sampling.sample_order) at every decision, for every mover:
    kept for the position and carried over a move (carry_moves) for the units whose moves it cannot have changed."""
    known = state.answers(CANDIDATES)
    found = known.get(uid)
    if found is None:
        reached = unit_moves(state, uid)
        delay = (state.tables.delay_action(uid),) if state.where[uid] == PENDING and may_delay(state, uid) else ()
        found = known[uid] = CandidateOrders(reached, reached.exits + delay)
        if not keeps_moves(state, uid):  # its moves hang on where its friends stand: not carried
            here = state._cache.get(_CANDIDATES_HERE)
            if here is None:
                here = state._cache[_CANDIDATES_HERE] = set()
            here.add(uid)
    return found


def movers_candidate_orders(state: Position) -> tuple[list[str], list[CandidateOrders]]:
    """movable_units and each one's candidate_orders, in that order. What the position already knows (the answers
    carried over the last move: all but a few) is looked up in C, and only the rest is asked of candidate_orders:
    a sampler draws among every mover's orders at every decision, and a move changes a few movers' at most."""
    units = movable_units(state)
    known = state.answers(CANDIDATES)
    orders: list[Any] = list(map(known.get, units))  # None where not known in this position
    for i, found in enumerate(orders):  # (not `None in orders`: that asks each one's __eq__)
        if found is None:
            orders[i] = candidate_orders(state, units[i])
    return units, orders


def _without_moves_into(moves: tuple[Action, ...], to: tuple[Hex, ...],
                        blocked: Collection[Hex]) -> tuple[Action, ...]:
    """`moves` (one into each hex of `to`, in the same order: the hexes sorted) but those into `blocked` (a few of
    those hexes): cut out where each is found by bisection, not asked of every move."""
    kept: list[Action] = []
    start = 0
    for i in sorted([bisect.bisect_left(to, h) for h in blocked]):
        kept += moves[start:i]
        start = i + 1
    return (*kept, *moves[start:])


def knows_moves(state: Position, uid: str) -> bool:
    """Are `uid`'s legal moves already listed in this position?"""
    return uid in state.answers(LEGAL_MOVES)


# A unit's answers kept per position (GameState._cache), each kind a dict by unit: its legal moves as listed
# (moves_of), and whether it has one (has_move). carry_moves hands them on to the position after a move.
LEGAL_MOVES: Final = "legal moves"
HAS_MOVE: Final = "has move"  # has_move's answer: a hex it may end in, True (an exit) or False
# The units whose answers in this position hold for it alone (their moves are not kept for the phase: keeps_moves).
_NOT_CARRIED: Final = "answers not carried"
_MOVABLE: Final = "movable units"
CANDIDATES: Final = "candidate orders"  # unit -> candidate_orders' answer
_CANDIDATES_HERE: Final = "candidate orders not carried"  # the units whose candidate orders hold for this position alone
LISTING: Final = "movement actions"  # the position's movement_actions, and each one's unit's place in the order of movers
LISTING_PATCH: Final = "movement actions patch"  # an earlier position's listing, and the units to ask again since
_MOVER_ORDER: Final = "mover order"  # per phase: each mover's place in the phase's order of movers


def _remember(state: Position, kind: str, uid: str, answer: Any) -> None:
    state.answers(kind)[uid] = answer
    # (nothing is carried in other games; nor asked of a unit not in the game, which never has a move)
    if moves_carry_over(state) and uid in state._units and not keeps_moves(state, uid):
        not_carried = state._cache.get(_NOT_CARRIED)
        if not_carried is None:
            not_carried = state._cache[_NOT_CARRIED] = set()
        not_carried.add(uid)


def carry_moves(state: Position, before: dict, standing: dict, uid: str, left: Hex | None, entered: Hex | None
                ) -> None:
    """After `uid` moved from `left` to `entered` (or left the map, or was held back) and nothing else changed:
    the answers of every other unit known in the position `before` (its cache; what it knew of where units stood:
    `standing`) still hold, unless the unit
    could end a move in one of those two hexes, whose stacking changed (the phase's index of the units reaching a
    hex names them: no other unit is asked), or its may_end_move answers read a trace at a hex the move changed
    it at (every unit's, when they read anything else the move changed). Kept where the game makes a unit's moves
    depend on nothing else that a move changes (moves_carry_over); otherwise worked out again when asked."""
    if state.phase.kind != "movement" or state.terminal or not moves_carry_over(state):
        return  # (a move that ended the game leaves no unit a move: nothing is handed on)
    touched = (left, entered)
    way_out_read: set[str] = set()  # the units whose way out of an enemy zone hangs on who stands in these hexes
    leave_reads = state._phase_moves.get(LEAVE_READS)
    if leave_reads is not None:
        for h in touched:
            if h is not None and h in leave_reads:
                way_out_read.update(leave_reads[h])
    candidates = before.get(CANDIDATES)
    if candidates:  # (before stacking and may_end_move: only what the unit's search is given, and its way out, matter)
        state._cache[CANDIDATES] = _without(candidates, {uid, *way_out_read, *before.get(_CANDIDATES_HERE, ())})
    stale = {uid}
    if state.game.movement.may_end_move is not None:  # its answers hold if nothing they read changed
        asked = before.get(READINGS)  # (the snapshot of the position before, the sides of the units asked of)
        if asked is None:
            return
        traces_changed: dict[answer_reads.Reading, int] = {}  # each trace read that changed, and where (bits)
        for side in asked[1]:
            found = answer_reads.changes(state, before, standing, asked[0], end_readings(state, side))
            if found is None:
                return
            traces_changed.update(found)
        state._cache[READINGS] = (answer_reads.snapshot(state), set(asked[1]))
        answers = before.get(END_ALLOWED)
        if answers:
            reads = before.get(END_READS, {})
            if traces_changed:  # the units whose answers read a trace where it changed: theirs are asked again
                as_hexes: dict[answer_reads.Reading, frozenset[Hex]] = {}
                stale.update(u for u, at in reads.items()
                             if answer_reads.read_any(at, traces_changed, as_hexes, state.tables.numbered))
            # Each unit's answers handed on, not copied: neither position adds to them without copying them first.
            state._cache[END_ALLOWED] = _without(answers, stale)
            owned = before.get(END_OWNED)
            if owned:
                owned.clear()  # (the set itself: other caches of the position before hold it too)
            state._cache[END_READS] = _without(reads, stale)
    stale.update(way_out_read)
    asked_again = frozenset(stale)  # the mover, and the units whose may_end_move or leave_zoc answers changed
    reaching = state._phase_moves.get(REACHING)
    if reaching is not None:
        for h in touched:
            if h is not None and h in reaching:
                stale.update(reaching[h])
    not_carried = before.get(_NOT_CARRIED, ())  # their answers may depend on any friend: none is kept
    stale.update(not_carried)
    cache = state._cache
    ends = before.get(ALLOWED_ENDS)  # (a unit's moves before stacking, narrowed by may_end_move: as its reach)
    if ends:  # kept for a unit stale only by the stacking of the two hexes: its moves are those before stacking
        cache[ALLOWED_ENDS] = _without(ends, asked_again.union(not_carried))
    listed = before.get(LEGAL_MOVES)
    if listed:
        cache[LEGAL_MOVES] = _without(listed, stale)
    answered = before.get(HAS_MOVE, {})
    kept_answers = cache[HAS_MOVE] = answered.copy()
    changed = {uid}  # the units whether they have a move is to be asked again (the others' answers kept)
    for u in stale:  # a unit that has a move keeps it unless its witness was one of the two hexes
        witness = kept_answers.get(u)
        if witness is None or witness is False or witness in touched or u in asked_again or u in not_carried:
            kept_answers.pop(u, None)
            changed.add(u)
    listing = before.get(LISTING)
    if listing is not None:
        cache[LISTING_PATCH] = (listing, changed)
    elif LISTING_PATCH in before:  # the listing was not asked for in the position before: patch an earlier one
        earlier, changed_since = before[LISTING_PATCH]
        cache[LISTING_PATCH] = (earlier, changed_since | changed)
    movable = before.get(_MOVABLE)
    if movable is not None:
        if uid in movable and not may_move_now(state, uid):  # (only uid's facts changed)
            movable = list(movable)
            movable.remove(uid)
        cache[_MOVABLE] = movable


_NOTED: Final = "reaching noted"  # (per movement phase) each unit's destinations (unit_moves' `to`) noted last


def _note_reaching(state: Position, uid: str, to: tuple[Hex, ...]) -> None:
    """Note `uid` at the hexes it reaches (`to`: unit_moves', kept for the phase), in the phase's REACHING, once: a
    move into or out of one asks again its answers that hang on stacking (listed_moves, has_move: carry_moves).
    Noted by those answers as they are made, not by the search: a sampler's draws make none, and need no index."""
    noted: dict[str, tuple[Hex, ...]] | None = state._phase_moves.get(_NOTED)
    if noted is None:
        noted = state._phase_moves[_NOTED] = {}
    # (the tuple itself compared, not hashed. By unit: units with the same search share its tuple, movement.Reach.to.)
    # Not for a unit whose answers are not carried (_remember)
    if noted.get(uid) is not to and keeps_moves(state, uid):
        noted[uid] = to
        note_at(state, REACHING, uid, to)


def _without(known: dict[str, Any], stale: AbstractSet[str]) -> dict[str, Any]:
    """A copy of `known` (unit -> what is known of it) without the `stale` units: copied whole, then those taken out
    (a move makes a few of the phase's units stale; a copy runs in C, a comprehension asks every unit)."""
    kept = known.copy()
    for uid in stale:
        kept.pop(uid, None)
    return kept


def has_move(state: Position, uid: str, searched: bool = False) -> bool:
    """Has `uid` (a unit that may move now) a legal move or exit? Decided hex by hex, stopping at the first:
    listing the unit's moves may cost a may_end_move evaluation per hex, and only the chosen unit's are listed.
    `searched`: the caller will have the unit's moves searched anyway (a sampler that moves the unit it draws), so
    no neighbour is tried first."""
    cache = state._cache
    listed = cache.get(LEGAL_MOVES)
    if listed is not None:
        found = listed.get(uid)
        if found is not None:
            return bool(found)
    answered = cache.get(HAS_MOVE)
    known = answered.get(uid) if answered is not None else None
    if known is None:
        known = _find_move(state, uid, not searched)
        _remember(state, HAS_MOVE, uid, known)
    return known is not False


def _find_move(state: Position, uid: str, probe: bool = True) -> Hex | bool:
    """has_move, worked out in this position: a hex the unit may end its move in (its witness), True for an exit,
    or False. `probe`: a neighbour the unit may end in is looked for before its whole search."""
    if probe and _one_step_first(state, uid):
        step = _first_step_end(state, uid)
        if step is not None:
            _note_witness(state, uid, step)
            return step
    reached = unit_moves(state, uid)
    if reached.exits:
        return True  # (whoever stands where)
    found = _first_end(state, uid, reached.to)
    if found is None:  # a move into or out of any hex it reaches may give it one
        _note_reaching(state, uid, reached.to)
        return False
    _note_witness(state, uid, found)
    return found


def _note_witness(state: Position, uid: str, witness: Hex) -> None:
    """A unit that has a move keeps that answer while its witness holds: a move into or out of the witness asks the
    unit again (carry_moves), a move elsewhere cannot take it away."""
    if keeps_moves(state, uid):
        note_at(state, REACHING, uid, (witness,))


def _first_end(state: Position, uid: str, to: tuple[Hex, ...]) -> Hex | None:
    """A hex of the unit's destinations (`to`, in order) it may end its move in now, or None."""
    if state.game.movement.may_end_move is None:
        occupied = stacking.occupants(state)
        for h in to:  # the first hex empty or not full
            if h not in occupied or not _blocked_at(state, uid, h):
                return h
        return None
    # The hex that answered last time is asked first: between two decisions it almost always still does, so one
    # stacking check and one may_end_move evaluation answer instead of one per hex up to the first allowed. Only a
    # hint (kept for the phase, shared by clones): the answer is worked out in this position either way.
    key = ("witness", uid)
    hint = state._phase_moves.get(key)
    if hint is not None and hint in to and not _blocked_at(state, uid, hint) and end_allowed(state, uid, hint):
        return hint
    for h in to:
        if not _blocked_at(state, uid, h) and end_allowed(state, uid, h):
            state._phase_moves[key] = h
            return h
    return None


def _one_step_first(state: Position, uid: str) -> bool:
    """Is `uid`'s first legal end looked for one step away before its whole search: a unit on the map, not held
    in an enemy zone of control, in a phase of ordinary moves, whose moves are not worked out in the phase yet
    (once they are, the hex that answered last is asked first: _find_move)."""
    if state.where[uid] != ON_MAP or uid in state.locked:
        return False
    ways = state.phase.modes
    if ways is not None and ORDINARY not in ways:
        return False
    key = moves_key(state, uid)
    return key not in state._phase_moves and (REACH, key) not in state._phase_moves


def _first_step_end(state: Position, uid: str) -> Hex | None:
    """A hex one step away where `uid` may end a move (stacking and may_end_move allow it), or None
    (movement.first_step_end)."""
    occupied = stacking.occupants(state)
    rule = state.game.movement.may_end_move

    def accept(h: Hex) -> bool:
        return ((h not in occupied or not _blocked_at(state, uid, h))
                and (rule is None or end_allowed(state, uid, h)))

    return _first_step(state, uid, accept)


def _blocked(state: Position, uid: str, hexes: Iterable[Hex]) -> Collection[Hex]:
    """Of `hexes`, those stacking forbids `uid` to end its move in: occupied hexes, each asked once a position
    (stacking.crowded_at); none for a unit that does not count for stacking."""
    occupied = stacking.occupants(state)
    reached = [h for h in hexes if h in occupied]  # (a few dozen hexes, each looked up: no set made of either)
    if not reached or uid in stacking.uncounted(state):
        return ()

    def leaves(u: str) -> bool:
        return may_leave(state, u)

    return {h for h in reached if stacking.crowded_at(state, h, leaves)}


def _blocked_at(state: Position, uid: str, h: Hex) -> bool:
    """Does stacking forbid `uid` to end its move in `h` (_blocked, asked of one hex)?"""
    if h not in stacking.occupants(state) or uid in stacking.uncounted(state):
        return False
    return stacking.crowded_at(state, h, lambda u: may_leave(state, u))


def may_leave(state: Position, uid: str) -> bool:
    """Can `uid` still move away this phase: it may move now and has somewhere to go, before stacking (a friend a
    unit ends its move over the limit on, where the game allows that: stacking { moves_end_over_limit })?"""
    if not may_move_now(state, uid):
        return False
    if _one_step_first(state, uid) and _first_step(state, uid, _anywhere) is not None:
        return True  # a neighbour it may step to is one of its moves: its whole search is not needed (nor made)
    reached = unit_moves(state, uid)
    return bool(reached.exits or reached.to)


def _first_step(state: Position, uid: str, accept: Callable[[Hex], bool]) -> Hex | None:
    """A hex one step away that `uid` may move to and `accept` takes (movement.first_step_end)."""
    allowance, enemy, zoc, friends, costs = search_terms(state, state._units[uid])
    return first_step_end(state.tables, allowance=allowance, start=state.pos[uid], enemy=enemy, zoc=zoc,
                          friends=friends, costs=costs, accept=accept)


def _anywhere(h: Hex) -> bool:
    return True


class UnitMoves:
    """One unit's moves and exits before stacking and may_end_move (unit_moves): its exits, its destinations in hex
    order (`to`), and its move Actions in that order (`moves`), made when first asked for: a sampler draws one
    destination of the unit it moves, and makes only that one's (`move`). Kept for the phase and shared by clones
    (their Actions made once, as any position asks)."""

    __slots__ = ("exits", "to", "_numbers", "_row", "_moves")

    def __init__(self, exits: tuple[Action, ...], to: tuple[Hex, ...], numbers: tuple[int, ...],
                 row: dict[int, Action] | None, moves: tuple[Action, ...] | None) -> None:
        self.exits, self.to = exits, to
        self._numbers, self._row, self._moves = numbers, row, moves  # (`row`: the unit's move Actions by hex number)

    @property
    def moves(self) -> tuple[Action, ...]:
        found = self._moves
        if found is None:
            row = self._row
            assert row is not None  # (made with the hex numbers or with the moves)
            found = self._moves = tuple(map(row.__getitem__, self._numbers))
        return found

    def moves_except(self, blocked: Collection[Hex]) -> tuple[Action, ...]:
        """`moves` but those into `blocked` (some of the destinations). Made from the hex numbers while the whole
        tuple is not made: no Action is made for a hex the unit may not end in (on a crowded map, a third of them)."""
        found = self._moves
        if found is not None:
            return _without_moves_into(found, self.to, blocked)
        row = self._row
        assert row is not None
        kept: list[Action] = []
        for h, number in zip(self.to, self._numbers):
            if h not in blocked:
                kept.append(row[number])
        return tuple(kept)

    def move(self, index: int) -> Action:
        """The move into to[index]."""
        found = self._moves
        if found is not None:
            return found[index]
        row = self._row
        assert row is not None
        return row[self._numbers[index]]


def unit_moves(state: Position, uid: str) -> UnitMoves:
    """Every move and exit of one unit, before the stacking check, and the destinations as a set and in order.

    Within a movement phase only the phasing side moves, so the enemy units a
    search depends on stay put: results are kept for the whole phase, keyed by
    where the unit stands, and shared by clones made during the phase.
    """
    phase = state._phase_moves  # (moves_key's commonest case, a unit's place alone, made here: asked for every unit)
    key = moves_key(state, uid) if state._modifiers[1] or LEAVE_ASKED in phase else (uid, state.pos.get(uid))
    found = phase.get(key)
    if found is None:
        entering = _entering_key(state, uid)
        if entering is not None:
            found = phase.get(entering)
            if found is not None:
                return found
        keep = keeps_moves(state, uid)  # (asked once: its search is kept as its moves are, under the same key)
        reach, kept = reach_kept(state, uid, key, keep)
        exits = (state.tables.exit_actions(uid, allowed_edges(state, uid, reach.exits))
                 if state.game.movement.exit_map else ())
        to = reach.to
        if to is not None:  # the compiled search's: in hex order, with the hex numbers (its dict not made)
            found = UnitMoves(exits, to, reach.numbers, state.tables.movement_row(uid), None)
        else:
            destinations = reach.destinations
            if reach.numbers or not destinations:  # a search's: in hex order, with the hex numbers
                found = UnitMoves(exits, tuple(destinations), reach.numbers, state.tables.movement_row(uid), None)
            else:
                to = tuple(sorted(destinations))
                row, index = state.tables.movement_row(uid), state.tables.index
                found = UnitMoves(exits, to, (), None, tuple(row[index[h]] for h in to))
        if keep:
            state._phase_moves[kept if kept is not None else kept_anew(state, uid, key)] = found
        elif entering is not None and (FALLBACK, uid) not in state._cache:
            phase[entering] = found
    return found


_ENTERING: Final = "entering"  # (per movement phase) a waiting unit's moves, by its search's terms and its open entries


def _entering_key(state: Position, uid: str) -> tuple | None:
    """What the moves of a unit waiting to enter are kept under for the phase, when entry_blocked keeps them from
    being kept (keeps_moves) and its answers are noted (open_entries): what its search is given (its allowance, the
    enemy, their zones of control, the friends in its way, what steps cost it) and the entry hexes of its area open
    now. None for any other unit, and where the edges it may leave by hang on the position (may_exit)."""
    if state.where[uid] != PENDING or not entry_rule_noted(state) or placed_anywhere(state, uid):
        return None
    movement = state.game.movement
    if state.phase.kind != "movement" or (movement.may_exit is not None and movement.may_exit.reads_position):
        return None
    unit = state._units[uid]
    hexes = unit.arrives.hexes if unit.arrives is not None else ()
    return (_ENTERING, uid, *search_terms(state, unit), tuple(open_entries(state, unit, hexes)))


def may_end_move(state: Position, uid: str, h: Hex) -> bool:
    """Does movement { may_end_move } let `uid` end a move in `h` now (True without the rule)?"""
    if state.game.movement.may_end_move is None:
        return True
    return h in unit_moves(state, uid).to and end_allowed(state, uid, h)


def free_to_move(state: Position) -> bool:
    """A movement phase with no removal, battle, retreat or advance pending (a unit chosen to move may be)."""
    return state.phase.kind == "movement" and not state.terminal and (
        not state._stack or type(state._stack[-1]) is Moving)


def is_legal_move(state: Position, action: Action) -> bool:
    """Is a move, exit or cancel legal now, in a phase where units are free to move (free_to_move)? Checked against
    the one unit's moves rather than every legal action: the common case of apply_action."""
    kind = action.kind
    uid = action.unit
    if state._stack:  # the second step: the chosen unit's move or exit, or back to the choice of unit
        if kind == CANCEL:
            return True
        moving = state._stack[-1]
        assert isinstance(moving, Moving)  # free to move, with a decision pending: the unit chosen to move
        if uid != moving.unit or (kind == MOVE and action.hex is None):
            return False
    elif kind == CANCEL:
        return False
    if uid not in state._units or not may_move_now(state, uid):
        return False
    if action.hex is None and kind == MOVE:
        return has_move(state, uid)
    reached = unit_moves(state, uid)
    if kind == EXIT:
        return action in reached.exits
    h = action.hex
    if h is None or h not in reached.to:  # (a scan of a few dozen names, mostly the same objects: no set made)
        return False
    move = state.tables.movement_row(uid)[state.tables.index[h]]  # the one in `moves`
    return (move is action or move == action) and may_stop_in(state, uid, h)


def may_stop_in(state: Position, uid: str, h: Hex) -> bool:
    """May `uid`, a unit free to move now that reaches `h`, end its move there (may_end_move, stacking)? All a
    move drawn from the unit's candidate orders (candidate_orders) still needs to be legal."""
    if state.game.movement.may_end_move is not None and not end_allowed(state, uid, h):
        return False
    return h not in stacking.occupants(state) or stacking.may_end(state, uid, h, lambda u: may_leave(state, u))


def entries_due(state: Position) -> list[str]:
    """Without reinforcement_delay, the reinforcements due this turn that can enter now and must (docs/rulings.md)."""
    if state.game.movement.reinforcement_delay is True or state.phase.kind != "movement":
        return []
    return [u for u in arriving(state) if state.where[u] == PENDING and state.due.get(u) == state.turn
            and may_move_now(state, u) and not delay_allowed(state, u) and has_move(state, u)]
