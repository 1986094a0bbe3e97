"""Which units may move now, and where: the movement phase's decisions and their legality.

A movement phase lists `move UNIT` for each phasing unit that may still move and has somewhere
to go, and `delay UNIT` for a reinforcement that may be held back (movement { reinforcement_delay });
after `move UNIT`, the unit's moves (`move UNIT HEX`, `exit UNIT EDGE`) or `cancel`. This module
decides those lists and whether one order is legal, and what a move or exit would cost.

Where a unit may go is the movement search's (movement.py: MP, terrain, ZOC, objectives passed);
this module gives it the unit's allowance (modifiers.py), its start or entry hexes (arrivals,
entry_blocked, the closest legal hexes of a blocked entry), what steps cost it this phase (step_costs.py),
the obstacles (enemy units, their zones of control, friends that may not be passed through),
how it may leave an enemy zone of control (leave_zoc) and its movement modes; then stacking.py
removes the hexes it may not end in, and movement { may_end_move } those the game forbids.

Speed: searches are the engine's hottest work (see rulec/engine/__init__.py). A unit's moves are
kept for the whole phase (GameState._phase_moves, shared by clones) when they cannot depend on
friendly units that move during it (keeps_moves), else for the position (GameState._cache);
may_end_move is evaluated per hex only when asked (has_move stops at the first hex allowed), and has_move
looks one step away before it asks for the unit's whole search (movement.first_step_end): a listing of the
movement phase's units then searches only the units that are chosen, or hemmed in.
"""

from __future__ import annotations

import bisect
from typing import AbstractSet, Any, Callable, Collection, KeysView, Sequence

from rulec.engine import answer_reads, end_sets, markers, modifiers, stacking
from rulec.engine.move_memory import obstacles
from rulec.engine.exits import allowed_edges
from rulec.engine.actions import CANCEL, EXIT, MOVE, Action
from rulec.engine.context import EngineContext
from rulec.engine.frames import Moving
from rulec.engine.movement import NOWHERE, Leave, MoveCosts, Reach, first_step_end, merge_moves, reach_of
from rulec.engine.position import Position
from rulec.engine.statuses import ON_MAP, PENDING
from rulec.engine.step_costs import StepCosts
from rulec.runtime.model import ORDINARY, Hex, MovementMode, Unit


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


def _add_unit_actions(state: Position, uid: str, actions: list[Action]) -> None:
    """Append the actions of one unit that may move now: `move UNIT` if it has a move, `delay UNIT` if it may."""
    if has_move(state, uid):
        actions.append(Action.move(uid))
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
    found = _known(state, LEGAL_MOVES).get(uid)
    if found is None:
        if not (state.phase.kind == "movement" and not state.terminal and may_move_now(state, uid)):
            found = ()
        else:
            hexes: AbstractSet[Hex]  # the destinations as a set: a dict's keys, or a frozenset once narrowed
            moves, exits, hexes, to = unit_moves(state, uid)
            if state.game.movement.may_end_move is not None:
                moves, hexes, to = allowed_ends(state, uid, moves, to)
            blocked = _blocked(state, uid, hexes)
            if blocked:
                moves = _without_moves_into(moves, to, blocked)
            found = (*moves, *exits)
        _remember(state, LEGAL_MOVES, uid, found)
    return found


def candidate_orders(state: Position, uid: str) -> tuple[Action, ...]:
    """A mover's orders before stacking and may_end_move: its moves and exits (unit_moves), then `delay UNIT` where
    it may be held back now. What a sampler draws among (sampling.sample_order) at every decision, for every mover:
    kept for the position and carried over a move (carry_moves) for the units whose moves it cannot have changed."""
    known = _known(state, CANDIDATES)
    found = known.get(uid)
    if found is None:
        moves, exits, _, _ = unit_moves(state, uid)
        found = moves + exits
        if state.where[uid] == PENDING and may_delay(state, uid):
            found += (state.tables.delay_action(uid),)
        known[uid] = found
        if not keeps_moves(state, uid):  # its moves hang on where its friends stand: not carried
            here = state._cache.get(_CANDIDATES_HERE)
            if here is None:
                here = state._cache[_CANDIDATES_HERE] = set()
            here.add(uid)
    return found


def movers_candidate_orders(state: Position) -> tuple[list[str], list[tuple[Action, ...]]]:
    """movable_units and each one's candidate_orders, in that order. What the position already knows (the answers
    carried over the last move: all but a few) is looked up in C, and only the rest is asked of candidate_orders:
    a sampler draws among every mover's orders at every decision, and a move changes a few movers' at most."""
    units = movable_units(state)
    known = _known(state, CANDIDATES)
    orders: list[Any] = list(map(known.get, units))  # None where not known in this position
    missing = 0
    while True:
        try:
            missing = orders.index(None, missing)
        except ValueError:
            return units, orders
        orders[missing] = candidate_orders(state, units[missing])
        missing += 1


def _without_moves_into(moves: tuple[Action, ...], to: tuple[Hex, ...],
                        blocked: AbstractSet[Hex]) -> tuple[Action, ...]:
    """`moves` (one into each hex of `to`, in the same order) but those into `blocked` (a few of those hexes): cut
    out where each is found (in C), not asked of every move."""
    kept: list[Action] = []
    start = 0
    for i in sorted(map(to.index, blocked)):
        kept += moves[start:i]
        start = i + 1
    return (*kept, *moves[start:])


def knows_moves(state: Position, uid: str) -> bool:
    """Are `uid`'s legal moves already listed in this position?"""
    return uid in _known(state, LEGAL_MOVES)


# A unit's answers kept per position (GameState._cache), each kind a dict by unit: its legal moves as listed
# (moves_of), and whether it has one (has_move). carry_moves hands them on to the position after a move.
LEGAL_MOVES, HAS_MOVE = "legal moves", "has move"  # has_move's answer: a hex it may end in, True (an exit) or False
# The units whose answers in this position hold for it alone (their moves are not kept for the phase: keeps_moves).
_NOT_CARRIED = "answers not carried"
# Per movement phase (GameState._phase_moves): each hex, and the units that reach it in some position of the phase
# (their moves kept for the phase). A move changes the stacking of two hexes: only these units' answers may change.
_REACHING = "units reaching"
# Per movement phase: each hex, and the units whose leave_zoc answers (into_zoc) read who stands there (leave_zoc). A
# move into or out of one asks them again: their moves are kept under those answers (moves_key).
_LEAVE_READS = "leave_zoc reads"
_LEAVE_ASKED = "leave_zoc asked"  # per movement phase: the (unit, hex) where leave_zoc noted what it read
_MOVABLE = "movable units"
CANDIDATES = "candidate orders"  # unit -> candidate_orders' answer
_CANDIDATES_HERE = "candidate orders not carried"  # the units whose candidate orders hold for this position alone
END_ALLOWED = "end allowed"  # unit -> hex -> may_end_move's answer (end_allowed)
_END_OWNED = "end allowed owned"  # the units whose END_ALLOWED answers this position may add to (_end_answers)
# Destinations not yet answered from which allowed_ends asks may_end_move of them all at once, as sets (end_sets.py),
# where the checker could write it so: below, the sets' fixed cost (the trace as bits, its neighbours) is not repaid.
ASKED_AS_SETS = 3
ALLOWED_ENDS = "allowed ends"  # unit -> its moves that end where may_end_move allows (allowed_ends)
# may_end_move's readings (answer_reads): per position, what they are compared with and the sides of the units asked;
# per game, by side, what the answers read
_READINGS = "may_end_move readings"
# Per position, by unit: where its may_end_move answers read each trace (answer_reads.TraceHexes). Handed on with
# the answers, the same sets: a later position's answers about the unit add to them, so they may name more hexes
# than this position's answers read, which only ever asks a unit again that need not be.
_END_READS = "may_end_move trace hexes"
LISTING = "movement actions"  # the position's movement_actions, and each one's unit's place in the order of movers
LISTING_PATCH = "movement actions patch"  # an earlier position's listing, and the units to ask again since
_MOVER_ORDER = "mover order"  # per phase: each mover's place in the phase's order of movers


def _known(state: Position, kind: str) -> dict[str, Any]:
    known = state._cache.get(kind)
    if known is None:
        known = state._cache[kind] = {}
    return known


def _remember(state: Position, kind: str, uid: str, answer: Any) -> None:
    _known(state, kind)[uid] = answer
    # (nothing is carried in other games; nor asked of a unit not in the game, which never has a move)
    if _moves_carry_over(state) and uid in state._units and not keeps_moves(state, uid):
        not_carried = state._cache.get(_NOT_CARRIED)
        if not_carried is None:
            not_carried = state._cache[_NOT_CARRIED] = set()
        not_carried.add(uid)


def carry_moves(state: Position, before: dict, uid: str, left: Hex | None, entered: Hex | None) -> None:
    """After `uid` moved from `left` to `entered` (or left the map, or was held back) and nothing else changed:
    the answers of every other unit known in the position `before` (its cache) still hold, unless the unit
    could end a move in one of those two hexes, whose stacking changed (the phase's index of the units reaching a
    hex names them: no other unit is asked), or its may_end_move answers read a trace at a hex the move changed
    it at (every unit's, when they read anything else the move changed). Kept where the game makes a unit's moves
    depend on nothing else that a move changes (_moves_carry_over); otherwise worked out again when asked."""
    if state.phase.kind != "movement" or not _moves_carry_over(state):
        return
    touched = (left, entered)
    way_out_read: set[str] = set()  # the units whose way out of an enemy zone hangs on who stands in these hexes
    leave_reads = state._phase_moves.get(_LEAVE_READS)
    if leave_reads is not None:
        for h in touched:
            if h is not None and h in leave_reads:
                way_out_read.update(leave_reads[h])
    candidates = before.get(CANDIDATES)
    if candidates:  # (before stacking and may_end_move: only what the unit's search is given, and its way out, matter)
        state._cache[CANDIDATES] = _without(candidates, {uid, *way_out_read, *before.get(_CANDIDATES_HERE, ())})
    stale = {uid}
    if state.game.movement.may_end_move is not None:  # its answers hold if nothing they read changed
        asked = before.get(_READINGS)  # (the snapshot of the position before, the sides of the units asked of)
        if asked is None:
            return
        traces_changed: dict[answer_reads.Reading, int] = {}  # each trace read that changed, and where (bits)
        for side in asked[1]:
            found = answer_reads.changes(state, before, asked[0], _end_readings(state, side))
            if found is None:
                return
            traces_changed.update(found)
        state._cache[_READINGS] = (answer_reads.snapshot(state), set(asked[1]))
        answers = before.get(END_ALLOWED)
        if answers:
            reads = before.get(_END_READS, {})
            if traces_changed:  # the units whose answers read a trace where it changed: theirs are asked again
                as_hexes: dict[answer_reads.Reading, frozenset[Hex]] = {}
                stale.update(u for u, at in reads.items()
                             if answer_reads.read_any(at, traces_changed, as_hexes, state.tables.numbered))
            # Each unit's answers handed on, not copied: neither position adds to them without copying them first.
            state._cache[END_ALLOWED] = _without(answers, stale)
            owned = before.get(_END_OWNED)
            if owned:
                owned.clear()  # (the set itself: other caches of the position before hold it too)
            state._cache[_END_READS] = _without(reads, stale)
    stale.update(way_out_read)
    asked_again = frozenset(stale)  # the mover, and the units whose may_end_move or leave_zoc answers changed
    reaching = state._phase_moves.get(_REACHING)
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


def _without(known: dict[str, Any], stale: AbstractSet[str]) -> dict[str, Any]:
    """A copy of `known` (unit -> what is known of it) without the `stale` units: copied whole, then those taken out
    (a move makes a few of the phase's units stale; a copy runs in C, a comprehension asks every unit)."""
    kept = known.copy()
    for uid in stale:
        kept.pop(uid, None)
    return kept


def _moves_carry_over(state: Position) -> bool:
    """Do a unit's legal moves depend on nothing a friend's move changes but the stacking of the two hexes it
    changed, and what may_end_move reads (answer_reads.py: checked at each move)? Not where may_end_move reads the
    position otherwise, nor where may_exit, stacking's `counts` or the allowance read it, nor where friends may not
    be passed through (once a game)."""
    found = state._for_the_game.get("moves carry over")
    if found is None:
        movement, rules = state.game.movement, state.game.stacking

        def reads(expression: Any) -> bool:
            return expression is not None and expression.reads_position

        found = state._for_the_game["moves carry over"] = (
            (movement.may_end_move is None or answer_reads.readable(movement.may_end_move.function))
            and not reads(movement.may_exit) and not reads(rules.counts)
            and rules.pass_through_friendly
            and modifiers.read_only_markers(state, state._modifiers[1], "move"))  # the allowance: as the markers
    return found


def has_move(state: Position, uid: str) -> bool:
    """Has `uid` (a unit that may move now) a legal move or exit? Decided hex by hex, stopping at the first:
    listing the unit's moves may cost a may_end_move evaluation per hex, and only the chosen unit's are listed."""
    cache = state._cache
    listed = cache.get(LEGAL_MOVES)
    if listed is not None:
        found = listed.get(uid)
        if found is not None:
            return bool(found)
    answered = cache.get(HAS_MOVE)
    known = answered.get(uid) if answered is not None else None
    if known is None:
        known = _find_move(state, uid)
        _remember(state, HAS_MOVE, uid, known)
    return known is not False


def _find_move(state: Position, uid: str) -> Hex | bool:
    """has_move, worked out in this position: a hex the unit may end its move in (its witness), True for an exit,
    or False."""
    if _one_step_first(state, uid):
        found = _first_step_end(state, uid)
        if found is not None:
            if keeps_moves(state, uid):  # a move into or out of it asks the unit again (carry_moves)
                _note_at(state, _REACHING, uid, (found,))
            return found
    _, exits, hexes, to = unit_moves(state, uid)
    if exits:
        return True
    if state.game.movement.may_end_move is None:
        occupied = stacking.occupants(state)
        for h in to:  # the first hex empty or not full
            if h not in occupied or not _blocked_at(state, uid, h):
                return h
        return False
    # The hex that answered last time is asked first: between two decisions it almost always still does, so one
    # stacking check and one may_end_move evaluation answer instead of one per hex up to the first allowed. Only a
    # hint (kept for the phase, shared by clones): the answer is worked out in this position either way.
    key = ("witness", uid)
    hint = state._phase_moves.get(key)
    if hint is not None and hint in hexes and not _blocked_at(state, uid, hint) and end_allowed(state, uid, hint):
        return hint
    blocked = _blocked(state, uid, hexes)
    for h in to:
        if h not in blocked and end_allowed(state, uid, h):
            state._phase_moves[key] = h
            return h
    return False


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
    return key not in state._phase_moves and ("reach", *key) not in state._phase_moves


def _first_step_end(state: Position, uid: str) -> Hex | None:
    """A hex one step away where `uid` may end a move (stacking and may_end_move allow it), or None
    (movement.first_step_end)."""
    occupied = stacking.occupants(state)
    rule = state.game.movement.may_end_move

    def accept(h: Hex) -> bool:
        return ((h not in occupied or not _blocked_at(state, uid, h))
                and (rule is None or end_allowed(state, uid, h)))

    return _first_step(state, uid, accept)


def _blocked(state: Position, uid: str, hexes: Any) -> Any:
    """Of `hexes`, those stacking forbids `uid` to end its move in: occupied hexes, each asked once a position
    (stacking.crowded_at); none for a unit that does not count for stacking."""
    occupied = stacking.occupants(state)
    reached = occupied.keys() & hexes
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
    _, exits, hexes, _ = unit_moves(state, uid)
    return bool(exits or hexes)


def _first_step(state: Position, uid: str, accept: Callable[[Hex], bool]) -> Hex | None:
    """A hex one step away that `uid` may move to and `accept` takes (movement.first_step_end)."""
    allowance, enemy, zoc, friends, costs = _search_terms(state, state._units[uid])
    return first_step_end(state.tables, allowance=allowance, start=state.pos[uid], enemy=enemy, zoc=zoc,
                          friends=friends, costs=costs, accept=accept)


def _anywhere(h: Hex) -> bool:
    return True


def unit_moves(state: Position, uid: str) -> tuple[tuple[Action, ...], tuple[Action, ...], KeysView[Hex], tuple[Hex, ...]]:
    """Every move and exit of one unit, before the stacking check, and the destinations as a set and in order.

    Within a movement phase only the phasing side moves, so the enemy units a
    search depends on stay put: results are kept for the whole phase, keyed by
    where the unit stands, and shared by clones made during the phase.
    """
    phase = state._phase_moves  # (moves_key's commonest case, a unit's place alone, made here: asked for every unit)
    key = moves_key(state, uid) if state._modifiers[1] or _LEAVE_ASKED in phase else (uid, state.pos.get(uid))
    found = phase.get(key)
    if found is None:
        entering = _entering_key(state, uid)
        if entering is not None:
            found = phase.get(entering)
            if found is not None:
                return found
        reach = unit_reach(state, uid)
        destinations = reach.destinations
        if reach.numbers or not destinations:  # a search's: in hex order, with the hex numbers
            to = tuple(destinations)
            moves = tuple(map(state.tables.movement_row(uid).__getitem__, reach.numbers))
        else:
            to = tuple(sorted(destinations))
            interned = state.tables.move_actions
            moves = tuple(interned.get((uid, h)) or interned.setdefault((uid, h), Action.move(uid, h)) for h in to)
        exits = (state.tables.exit_actions(uid, allowed_edges(state, uid, reach.exits))
                 if state.game.movement.exit_map else ())
        found = (moves, exits, destinations.keys(), to)
        if keeps_moves(state, uid):
            state._phase_moves[_kept_anew(state, uid, key)] = found
            _note_at(state, _REACHING, uid, to)
        elif entering is not None and (_FALLBACK, uid) not in state._cache:
            phase[entering] = found
    return found


_ENTERING = "entering"  # (per movement phase) a waiting unit's moves, by its search's terms and its open entries
_FALLBACK = "entered by fallback"  # (per position) a unit whose moves enter by hexes outside its area (search_moves)
_RINGS = "fallback rings"  # (per game, by entry area) fallback_rings' answer


def _entering_key(state: Position, uid: str) -> tuple | None:
    """What the moves of a unit waiting to enter are kept under for the phase, when entry_blocked keeps them from
    being kept (keeps_moves) and its answers are noted (open_entries): what its search is given (its allowance, the
    enemy, their zones of control, the friends in its way, what steps cost it) and the entry hexes of its area open
    now. None for any other unit, and where the edges it may leave by hang on the position (may_exit)."""
    if state.where[uid] != PENDING or not _entry_rule_noted(state) or placed_anywhere(state, uid):
        return None
    movement = state.game.movement
    if state.phase.kind != "movement" or (movement.may_exit is not None and movement.may_exit.reads_position):
        return None
    unit = state._units[uid]
    hexes = unit.arrives.hexes if unit.arrives is not None else ()
    return (_ENTERING, uid, *_search_terms(state, unit), tuple(open_entries(state, unit, hexes)))


def _note_at(state: Position, index: str, uid: str, hexes: Collection[Hex]) -> None:
    """Note `uid` at each of `hexes` in the phase's index `index` (hex -> units): _REACHING, the units reaching
    each hex, or _LEAVE_READS (a move into or out of one of them asks the unit again: carry_moves)."""
    reaching = state._phase_moves.get(index)
    if reaching is None:
        reaching = state._phase_moves[index] = {}
    for h in hexes:
        units = reaching.get(h)
        if units is None:
            reaching[h] = {uid}
        else:
            units.add(uid)


def allowed_ends(state: Position, uid: str, moves: tuple[Action, ...], to: tuple[Hex, ...]
                 ) -> tuple[tuple[Action, ...], frozenset[Hex], tuple[Hex, ...]]:
    """The moves (and their destinations, as a set and in order) that end where movement { may_end_move }
    holds, about the unit where it stands and each destination: evaluated per destination, once a position."""
    ends = state._cache.get(ALLOWED_ENDS)
    if ends is None:
        ends = state._cache[ALLOWED_ENDS] = {}
    found = ends.get(uid)
    if found is None:
        known = _end_answers(state, uid)
        sets = state.game.movement.may_end_sets
        missing = [h for h in to if h not in known] if sets is not None else ()
        if len(missing) >= ASKED_AS_SETS:  # asked of them all at once (end_sets.py)
            bit = state.tables.hex_bit
            asking = _end_context(state, uid)
            asking.keep_while_hex_varies()
            holding = end_sets.allowed(state, sets, asking, sum(bit[h] for h in missing))
            for h in missing:
                known[h] = bool(holding & bit[h])
        context = None  # one context for the unit's destinations (only its `hex` differs), made when first needed
        keep = []
        for h in to:
            ok = known.get(h)
            if ok is None:
                if context is None:
                    context = _end_context(state, uid)
                    context.keep_while_hex_varies()
                ok = known[h] = _ask_end(state, context, h)
            keep.append(ok)
        allowed = tuple(h for h, ok in zip(to, keep) if ok)
        found = ends[uid] = (tuple(m for m, ok in zip(moves, keep) if ok), frozenset(allowed), allowed)
    return found


def end_allowed(state: Position, uid: str, h: Hex) -> bool:
    """movement { may_end_move } for `uid` ending in `h`, evaluated once a position (and only when asked)."""
    known = _end_answers(state, uid)
    ok = known.get(h)
    if ok is None:
        ok = known[h] = _ask_end(state, _end_context(state, uid), h)
    return ok


def _end_answers(state: Position, uid: str) -> dict[Hex, bool]:
    """The position's answers of may_end_move about `uid`: hex -> bool (filled in as they are asked). Answers
    handed on from the position before (carry_moves) are shared with it until either adds one: copied first."""
    by_unit = _known(state, END_ALLOWED)
    found = by_unit.get(uid)
    owned = state._cache.get(_END_OWNED)
    if owned is None:
        owned = state._cache[_END_OWNED] = set()
    if found is None:
        found = by_unit[uid] = {}
        owned.add(uid)
    elif uid not in owned:
        found = by_unit[uid] = dict(found)
        owned.add(uid)
    return found


def _about_unit(state: Position, kind: str, uid: str) -> dict:
    """The position's entry of `kind` (a dict by unit) for `uid`: a dict, made empty when first asked for."""
    by_unit = _known(state, kind)
    found = by_unit.get(uid)
    if found is None:
        found = by_unit[uid] = {}
    return found


def _end_context(state: Position, uid: str) -> EngineContext:
    """A context about `uid` to ask may_end_move in (no context is kept in the cache: it would point back at the
    state, a cycle to collect)."""
    unit = state._units[uid]
    if _moves_carry_over(state):  # what the answer reads is noted, to tell whether a move keeps it
        cache = state._cache
        asked: tuple[tuple[int, dict], set[str]] | None = cache.get(_READINGS)
        if asked is None:
            asked = cache[_READINGS] = (answer_reads.snapshot(state), set())
        asked[1].add(unit.side)
        return answer_reads.ReadingContext(state, unit, _end_readings(state, unit.side),
                                           _about_unit(state, _END_READS, uid))
    return EngineContext(state, unit)


def _ask_end(state: Position, context: EngineContext, h: Hex) -> bool:
    context.hex = h
    assert state.game.movement.may_end_move is not None  # asked only in games with the rule
    return bool(state.game.movement.may_end_move(context))


def _end_readings(state: Position, side: str) -> set[tuple[str, ...]]:
    """What may_end_move's answers about units of `side` have read that a move may change, in any position of the
    game (the other sides' readings are not compared: a side's movement phase asks of its own units only)."""
    readings = state._for_the_game.get(_READINGS)
    if readings is None:
        readings = state._for_the_game[_READINGS] = {}
    found = readings.get(side)
    if found is None:
        found = readings[side] = set()
    return found


def may_end_move(state: Position, uid: str, h: Hex) -> bool:
    """Does movement { may_end_move } let `uid` end a move in `h` now (True without the rule)?"""
    if state.game.movement.may_end_move is None:
        return True
    return h in unit_moves(state, uid)[2] and end_allowed(state, uid, h)


def moves_key(state: Position, uid: str) -> tuple:
    """What a unit's moves are kept under within the phase: where it stands; its allowance when modifiers may
    change that as the phase goes on (a friendly move may cut a unit's supply); and, where its search asked
    leave_zoc for a way out of an enemy zone and leave_zoc's into_zoc asks who stands in the hexes entered, the
    hexes it may leave into now."""
    where = state.pos.get(uid)
    key: tuple = (uid, where, modifiers.allowance(state, uid)) if state._modifiers[1] else (uid, where)
    if _leave_asked(state, uid):
        leave = leave_zoc(state, state._units[uid])
        key += (None if leave is None else leave.into_hexes,)
    return key


def _kept_anew(state: Position, uid: str, key: tuple) -> tuple:
    """The key to keep a search's result under, `key` made before it: made again when the search asked leave_zoc
    (the first time it did, `key` lacks its answer)."""
    return moves_key(state, uid) if _leave_asked(state, uid) else key


def _leave_asked(state: Position, uid: str) -> bool:
    """Has leave_zoc noted, this phase, what it read about `uid` where it stands now (its search asked for a way out
    of an enemy zone: enemy zones stand still in a movement phase)? moves_key then keys its moves by the answer."""
    asked = state._phase_moves.get(_LEAVE_ASKED)
    return asked is not None and (uid, state.pos.get(uid)) in asked


def _leave_asks_units(state: Position) -> bool:
    """Is leave_zoc's into_zoc a condition that reads nothing a friend's move changes but who stands in the hexes it
    asks of (answer_reads.reads_only)? Then a unit's answers are kept, noted at those hexes (leave_zoc). Once a game."""
    found = state._for_the_game.get("leave asks units")
    if found is None:
        rule = state.game.movement.leave_zoc
        into = rule.into_zoc if rule is not None else False
        found = state._for_the_game["leave asks units"] = (
            not isinstance(into, bool) and answer_reads.reads_only(into.function, ("units_at",)))
    return found


def keeps_moves(state: Position, uid: str) -> bool:
    """May this unit's moves be kept for the rest of the phase?

    Not for a landing, nor when friends may not be passed through, nor for a reinforcement when
    entry_blocked decides its entry hexes, nor for a unit in an enemy ZOC whose leave_zoc asks a
    condition of the hex entered that reads more than who stands there (_leave_asks_units): then
    they depend on where the friendly units are, and those move during the phase. Nor where may_exit
    reads the position: the edges a unit may leave by may change with every move (only one unit may
    leave, say).
    """
    rules = state._for_the_game.get(_KEEPS_MOVES)
    if rules is None:
        rules = _keeping_rules(state)
    may_keep, entry_blocked, leave_read = rules
    if not may_keep or state.phase.kind != "movement":
        return False
    where = state.where[uid]
    if where == PENDING and (entry_blocked or placed_anywhere(state, uid)):
        return False
    return leave_read or uid not in state.pos or state.pos[uid] not in state.enemy_zoc(state._units[uid].side)


_KEEPS_MOVES = "keeps moves"  # (Position._for_the_game) what keeps_moves asks of the game's rules, once a game


def _keeping_rules(state: Position) -> tuple[bool, bool, bool]:
    """keeps_moves' questions about the game alone: may any unit's moves be kept (friends may be passed through and
    may_exit reads no position); does entry_blocked decide entry hexes; and is a unit's leave_zoc answer kept with
    its moves wherever it stands (no leave_zoc, a fixed into_zoc, or one reading only who stands where)?"""
    movement = state.game.movement
    found = state._for_the_game[_KEEPS_MOVES] = (
        state.game.stacking.pass_through_friendly
        and (movement.may_exit is None or not movement.may_exit.reads_position),
        movement.entry_blocked is not None,
        movement.leave_zoc is None or isinstance(movement.leave_zoc.into_zoc, bool) or _leave_asks_units(state))
    return found


def placed_anywhere(state: Position, uid: str) -> bool:
    """A reinforcement waiting to be placed anywhere (arrives { placement = anywhere }), not to enter by a map edge."""
    arrival = state._units[uid].arrives
    return state.where[uid] == PENDING and arrival is not None and arrival.placement == "anywhere"


def free_to_move(state: Position) -> bool:
    """A movement phase with no removal, battle, retreat or advance pending (a unit chosen to move may be)."""
    return state.phase.kind == "movement" and not state.terminal and (
        not state._stack or state._stack[-1].__class__ is Moving)


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
    moves, exits, hexes, to = unit_moves(state, uid)
    if kind == EXIT:
        return action in exits
    h = action.hex
    if h not in hexes:
        return False
    if state.game.movement.may_end_move is not None and not end_allowed(state, uid, h):
        return False
    move = state.tables.move_actions[(uid, h)]  # the one in `moves`
    return (move is action or move == action) and (h not in stacking.occupants(state) or stacking.may_end(state, uid, h, lambda u: may_leave(state, u)))


def arrives_now(state: Position, uid: str) -> bool:
    """A pending unit that may enter the map in the current phase."""
    due = state.due.get(uid)
    arrival = state._units[uid].arrives
    if due is None:
        return True
    if due != state.turn:
        return False
    if arrival is not None and arrival.phase is not None:
        return arrival.phase == state.phase.id
    side = state.phase.side
    return side is not None and state.tables.first_movement.get(side) == state.phase_index


def entries_due(state: Position) -> list[str]:
    """Without reinforcement_delay, the reinforcements due this turn that can enter now and must (docs/rulings.md)."""
    if state.game.movement.reinforcement_delay is True or state.phase.kind != "movement":
        return []
    return [u for u in arriving(state) if state.where[u] == PENDING and state.due.get(u) == state.turn
            and may_move_now(state, u) and not delay_allowed(state, u) and has_move(state, u)]


def arriving(state: Position) -> tuple[str, ...]:
    """The phase's movers waiting to arrive as it began (phases.begin_phase; no unit on the map goes back to
    waiting), or those waiting now where the phase's memory was reset since."""
    found = state._phase_moves.get("arriving")
    if found is None:
        found = tuple(u for u in state._movers if state.where[u] == PENDING)
    return found


def entries_may_be_due(state: Position) -> bool:
    """Might some reinforcements have to enter before the movement phase ends (see entries_due)? Told without
    searching where they could go: units due now that may not be held back."""
    if state.game.movement.reinforcement_delay is True:
        return False
    return any(state.where[uid] == PENDING and state.due.get(uid) == state.turn and arrives_now(state, uid)
               and not delay_allowed(state, uid) for uid in arriving(state) if uid not in state.moved)


def may_delay(state: Position, uid: str) -> bool:
    """May `uid`, due this turn, be held back a turn now (`delay UNIT`)?"""
    return state.due.get(uid) == state.turn and delay_allowed(state, uid)


def delay_allowed(state: Position, uid: str) -> bool:
    """May the owner hold `uid` back a turn (movement { reinforcement_delay }, a condition about the unit
    evaluated once a phase)?"""
    rule = state.game.movement.reinforcement_delay
    if isinstance(rule, bool):
        return rule
    key = ("delay", uid)
    allowed = state._phase_moves.get(key)
    if allowed is None:
        allowed = state._phase_moves[key] = bool(rule(EngineContext(state, state._units[uid])))
    return allowed


def unit_reach(state: Position, uid: str) -> Reach:
    """Where `uid` may go now (movement.Reach): kept for the phase when its moves may be (keeps_moves), else
    for the position."""
    phase = state._phase_moves
    key = ("reach", *moves_key(state, uid)) if state._modifiers[1] or _LEAVE_ASKED in phase else (
        "reach", uid, state.pos.get(uid))
    reach = phase.get(key) or state._cache.get(key)
    if reach is None:
        reach = search_moves(state, uid, reach_of)
        if keeps_moves(state, uid):
            phase[("reach", *_kept_anew(state, uid, key[1:]))] = reach
        else:
            state._cache[key] = reach
    return reach


def _search_terms(state: Position, unit: Unit) -> tuple[int, int, int, int, StepCosts]:
    """A unit's terms of search now: its allowance, the enemy hexes, their zones of control and the friends in
    its way (bits of hex numbers, 0 where the game has none) and what steps cost it."""
    allowance = modifiers.allowance(state, unit.id) if state._modifiers[1] else unit.move
    enemy, zoc, friends = obstacles(state, unit.side)
    if state.game.movement.zoc == "none":
        zoc = 0
    if state.game.stacking.pass_through_friendly:
        friends = 0  # no friend is in the way
    tables = state.tables
    costs = step_costs(state, unit) if tables.varying_costs else tables.base_costs
    return allowance, enemy, zoc, friends, costs


def search_moves(state: Position, uid: str, search: Callable[..., Any]) -> Any:
    """Run `search` (movement.reach_of, or movement.costs_of for what moves cost) with the unit's
    allowance, start or entry hexes and obstacles; either result has `destinations`."""
    unit = state._units[uid]
    allowance, enemy, zoc, friends, costs = _search_terms(state, unit)
    tables = state.tables
    if state.where[uid] == ON_MAP:
        locked = uid in state.locked
        if locked:
            leave = leave_zoc(state, unit)
        elif zoc and not state.game.movement.zoc_to_zoc and zoc & tables.hex_bit[state.pos[uid]]:
            leave = leave_zoc(state, unit)  # starting in an enemy ZOC: the ZOC-to-ZOC exception, if any
        else:
            leave = None
        ways = state.phase.modes  # a phase of some movement modes only (rail movement): no ordinary move in it
        if ways is None or ORDINARY in ways:
            found = search(state.tables, allowance=allowance, start=state.pos[uid], enemy=enemy, zoc=zoc, friends=friends,
                           locked=locked, leave=leave, costs=costs)
        else:
            found = Reach({}, ()) if search is reach_of else MoveCosts({}, {})
        if state.game.modes and not locked:  # a unit held in an enemy zone of control leaves only as leave_zoc says
            found = moves_by_mode(state, unit, found, search, enemy, zoc, friends)
        return found
    arrival = unit.arrives
    if arrival is not None and arrival.placement == "anywhere":
        occupied = stacking.occupants(state)
        allowed = set(arrival.terrain)
        assert state.game.map is not None  # the engine plays map games
        terrain = state.game.map.terrain
        spots = {h: 0 for h in state.tables.hexes
                 if h not in occupied and (not allowed or set(terrain.get(h, ())) <= allowed)}
        # A unit placed anywhere spends no MP (spots hold no objectives mask either).
        return Reach(spots, ()) if search is reach_of else MoveCosts({h: 0 for h in spots}, {})
    hexes = arrival.hexes if arrival is not None else ()
    entry_cost = costs.offmap_entry_cost
    reach = search(state.tables, allowance=allowance, start=None,
                   entries=tuple((h, entry_cost[h]) for h in open_entries(state, unit, hexes)),
                   enemy=enemy, zoc=zoc, friends=friends, costs=costs)
    if reach.destinations or state.game.movement.blocked_entry != "closest_legal":
        return reach
    # Blocked entry: the closest hexes of the same map edge where entering is legal.
    state._cache[(_FALLBACK, uid)] = True  # (these moves depend on the ring's entries too: unit_moves keeps them not)
    for ring in fallback_rings(state, hexes):
        reach = search(state.tables, allowance=allowance, start=None,
                       entries=tuple((h, entry_cost[h]) for h in open_entries(state, unit, ring)),
                       enemy=enemy, zoc=zoc, friends=friends, costs=costs)
        if reach.destinations:
            return reach
    return NOWHERE if search is reach_of else MoveCosts({}, {})


def open_entries(state: Position, unit: Unit, hexes: Sequence[Hex]) -> Sequence[Hex]:
    """The entry hexes movement { entry_blocked } does not block for `unit` (the search itself skips
    enemy-occupied ones).

    Asked of a unit waiting to enter in every position of its movement phase. Where the rule reads the position
    only through queries a NotingContext notes (answer_reads.notes_all), the answers are kept for the phase with
    what those queries answered, and given again in a position where each answers the same: a friend's move seldom
    changes what an entry rule reads (the enemy units, their zones of control)."""
    rule = state.game.movement.entry_blocked
    if rule is None:
        return hexes
    noting = _entry_rule_noted(state)
    key = (_OPEN_ENTRIES, unit.id, tuple(hexes))
    if noting:
        kept = state._phase_moves.get(key)
        if kept is not None and kept[0] is unit and answer_reads.still_answers(state, unit, kept[1]):
            return kept[2]
    context = answer_reads.NotingContext(state, unit) if noting else EngineContext(state, unit)
    context.keep_while_hex_varies()
    open_hexes = []
    for h in hexes:
        context.hex = h
        if not rule(context):
            open_hexes.append(h)
    if isinstance(context, answer_reads.NotingContext):
        state._phase_moves[key] = (unit, context.noted, open_hexes)
    return open_hexes


_OPEN_ENTRIES = "open entries"  # (per movement phase) open_entries' answers, with what entry_blocked read


def _entry_rule_noted(state: Position) -> bool:
    """Does movement { entry_blocked } read nothing of the position but what a NotingContext notes? Once a game."""
    found = state._for_the_game.get(_OPEN_ENTRIES)
    if found is None:
        rule = state.game.movement.entry_blocked
        found = state._for_the_game[_OPEN_ENTRIES] = rule is not None and answer_reads.notes_all(rule.function)
    return found


def fallback_rings(state: Position, hexes: tuple[Hex, ...]) -> list[list[Hex]]:
    """Hexes of the entry area's map edge outside the area, grouped by distance to the area, nearest first (the
    map's alone: worked out once a game for each area; do not modify)."""
    key = (_RINGS, tuple(hexes))
    found = state._for_the_game.get(key)
    if found is None:
        found = state._for_the_game[key] = _rings_around(state, hexes)
    return found


def _rings_around(state: Position, hexes: tuple[Hex, ...]) -> list[list[Hex]]:
    assert state.game.map is not None  # the engine plays map games
    edges = state.game.map.edges
    counts = {e: sum(h in hs for h in hexes) for e, hs in edges.items()}
    if not hexes or not counts or max(counts.values()) == 0:
        return []
    best = max(counts.values())
    candidates = {h for e, hs in edges.items() if counts[e] == best for h in hs} - set(hexes)
    distance = state.tables.distance
    rings: dict[int, list[Hex]] = {}
    for h in candidates:
        rings.setdefault(min(distance[a][h] for a in hexes), []).append(h)
    return [sorted(rings[d]) for d in sorted(rings)]


def step_costs(state: Position, unit: Unit) -> StepCosts:
    """What steps cost `unit` in this phase (its type's costs, with the cost expressions' values of the phase)."""
    tables = state.tables
    if not tables.varying_costs:
        return tables.base_costs
    return tables.costs_for(unit.type, cost_values(state))


def cost_values(state: Position) -> tuple:
    """The values of the game's cost expressions in this phase (Tables.cost_expressions), worked out as it begins."""
    values = state._phase_moves.get("cost values")
    if values is None:
        context = EngineContext(state)
        values = state._phase_moves["cost values"] = tuple(e(context) for e in state.tables.cost_expressions)
    return values


def moves_by_mode(state: Position, unit: Unit, found: Any, search: Callable[..., Any], enemy: int, zoc: int, friends: int) -> Any:
    """`found` (a search's result for an ordinary move) with the moves of every movement mode the unit may use."""
    start = state.pos[unit.id]
    ways = state.phase.modes
    for mode in state.game.modes.values():
        if (ways is not None and mode.id not in ways) or not may_use(state, mode, unit):
            continue
        if "enemy_zoc" in mode.may_not_start_in and zoc & state.tables.hex_bit[start]:
            continue
        costs = state.tables.mode_costs_for(mode, cost_values(state))
        blocked = enemy | zoc if "enemy_zoc" in mode.may_not_enter else enemy
        other = search(state.tables, allowance=modifiers.allowance(state, unit.id) * costs.per_mp, start=start, enemy=blocked, zoc=zoc,
                       friends=friends, costs=costs)
        found = merge_moves(state.tables, found, other, costs.per_mp)
    return found


def may_use(state: Position, mode: MovementMode, unit: Unit) -> bool:
    """May `unit` move in `mode` this phase (its option chosen, the unit eligible)? Worked out once a phase."""
    key = ("mode", mode.id, unit.id)
    allowed = state._phase_moves.get(key)
    if allowed is None:
        allowed = state._phase_moves[key] = (mode.option is None or mode.option in state.options) and (
            mode.eligible is None or bool(mode.eligible(EngineContext(state, unit))))
    return allowed


def leave_zoc(state: Position, unit: Unit) -> Leave | None:
    """How `unit`, in an enemy zone of control, may leave it this phase (None: it may not); see movement.Leave.

    Whether the rule applies to the unit is worked out once a phase; an `into_zoc` condition about
    the hex entered, for each enemy-controlled neighbour once a position (it may ask where friends are).
    """
    key = ("leave", unit.id)
    if key in state._phase_moves:
        leave = state._phase_moves[key]
    else:
        rule = state.game.movement.leave_zoc
        leave = None
        if rule is not None and (rule.option is None or rule.option in state.options) and (
                rule.when is None or rule.when(EngineContext(state, unit))):
            leave = Leave(rule.cost, rule.into_zoc is True, state.tables.hexsides_of(rule.not_across),
                          then_stop=rule.then_stop)
        state._phase_moves[key] = leave
    rule = state.game.movement.leave_zoc
    into = rule.into_zoc if leave is not None and rule is not None else False  # (a leave comes from a rule)
    if isinstance(into, bool):
        return leave
    found = state._cache.get(key)
    if found is None:
        noted = _leave_asks_units(state) and state.phase.kind == "movement"
        read: set[Hex] = set()
        context = answer_reads.UnitsAtContext(state, unit, read) if noted else EngineContext(state, unit)
        context.keep_while_hex_varies()
        zoc, allowed, index = state.enemy_zoc(unit.side), set(), state.tables.index
        for n in state.tables.neighbours[state.pos[unit.id]]:
            context.hex = n
            if n in zoc and into(context):
                allowed.add(index[n])
        found = state._cache[key] = leave.with_into_hexes(frozenset(allowed))
        if noted:  # a move into or out of a hex read asks the unit again (carry_moves); its moves are kept under
            # the hexes it may leave into (moves_key)
            _note_at(state, _LEAVE_READS, unit.id, read)
            asked = state._phase_moves.get(_LEAVE_ASKED)
            if asked is None:
                asked = state._phase_moves[_LEAVE_ASKED] = set()
            asked.add((unit.id, state.pos[unit.id]))
    return found
