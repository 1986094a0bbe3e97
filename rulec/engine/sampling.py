"""Drawing one legal action at random without listing every legal action (random playouts, rollouts).

`sample_action(state, rng)` draws from the same distribution as `rng.choice(state.legal_actions())`, and
`sample_order(state, rng)` as `rng.choice(state.legal_orders())`: uniformly over the legal set. Where listing
the set costs most, in a movement phase with every unit free to move, they draw from a cheap superset of
candidates and test only the candidate drawn (rejection sampling: drawing a candidate at random, dropping it if
it is illegal and drawing again gives every legal action the same chance). A `move UNIT` is then tested for one
unit rather than every unit's reach and may_end_move being asked of them all.

The candidates of a free movement phase are the actions movement_actions may list: `move UNIT` and `delay UNIT`
for each of the phase's movers, and `end`. For orders, each mover's reach (its moves before stacking and
may_end_move: legal_moves.candidate_orders, kept for the position and carried over a move) gives its
candidate moves; the one drawn is tested for what being a candidate does not already say (legal_moves.may_stop_in:
may the unit end its move there). A move's second step draws from the chosen unit's reach, tested so too.
A combat phase's own decision (a target to attack, or `end`) is drawn from the hexes units may attack, only the
one drawn asked whether some unit may join a battle against it: by both, as a player's orders outside a movement
phase are its actions. Everywhere else (another pending decision, placement, a list already worked out, or a draw
that found most candidates illegal) they answer None, and GameState draws from the list.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from random import Random
from typing import Protocol, Sequence, TypeVar

from rulec.engine import arrivals, battles, duties, legal_moves
from rulec.engine.actions import MOVE, Action
from rulec.engine.frames import Moving
from rulec.engine.position import Position
from rulec.engine.statuses import PENDING

T = TypeVar("T")


class Rng(Protocol):
    def randrange(self, stop: int) -> int: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def shuffle(self, seq: list) -> None: ...


def _below(rng: Rng, stop: int) -> int:
    """rng.randrange(stop): for a random.Random itself, the same number drawn the same way (its _randbelow: the
    fewest bits that hold stop - 1, drawn again while too big), here where the engine is compiled rather than by
    randrange's interpreted code, a draw at every step of a random game."""
    if type(rng) is not Random or stop <= 0:  # (a subclass may draw otherwise; randrange says what an empty range is)
        return rng.randrange(stop)
    bits = stop.bit_length()
    drawn: int = rng.getrandbits(bits)
    while drawn >= stop:
        drawn = rng.getrandbits(bits)
    return drawn


def choice(rng: Rng, seq: Sequence[T]) -> T:
    """rng.choice(seq): for a random.Random itself, the same item drawn the same way (seq[rng._randbelow(len(seq))]),
    here where the engine is compiled (the samplers' draw from a listed decision)."""
    if type(rng) is not Random or not seq:  # (rng.choice says what an empty sequence is)
        return rng.choice(seq)
    return seq[_below(rng, len(seq))]


def _free_movement(state: Position) -> bool:
    """A movement phase's own decision, its list not yet worked out for this position."""
    return (not state.terminal and not state._stack and state.phase.kind == "movement"
            and "legal" not in state._cache)


def _end_legal(state: Position) -> bool:
    """Is `end` legal in a free movement phase (no reinforcement that must enter holds it open)?"""
    return not arrivals.entries_may_be_due(state) or not legal_moves.entries_due(state)


def sample_action(state: Position, rng: Rng) -> Action | None:
    """A legal action of `state`, uniformly at random (as rng.choice(state.legal_actions()) would draw)."""
    if _choosing_hex(state):
        return _sample_destination(state, rng)
    if _free_combat(state):
        return _sample_target(state, rng)
    if not _free_movement(state):
        return None
    # The candidates, by index (no list of them is built): `move UNIT` for each mover, `delay UNIT` for each
    # mover waiting to arrive as the phase began, then `end`; each drawn once at most.
    movers = state._movers
    arriving = arrivals.arriving(state)
    total = len(movers) + len(arriving) + 1
    drawn: set[int] = set()
    while len(drawn) < total:
        if len(drawn) * 2 > total:  # most already drawn: the rest in a random order rather than drawing on
            return _first_legal(state, movers, arriving, [i for i in range(total) if i not in drawn], rng)
        index = _below(rng, total)
        if index in drawn:
            continue
        drawn.add(index)
        action = _candidate(state, movers, arriving, index)
        if action is not None:
            return action
    raise AssertionError("a movement phase with no legal action")  # `end` or an entry due is always legal


def _candidate(state: Position, movers: tuple[str, ...], arriving: tuple[str, ...], index: int) -> Action | None:
    """The movement phase's candidate `index` (see sample_action) if it is legal now, else None."""
    if index < len(movers):
        uid = movers[index]
        if legal_moves.may_move_now(state, uid) and legal_moves.has_move(state, uid, searched=True):
            return Action.move(uid)
    elif index < len(movers) + len(arriving):
        uid = arriving[index - len(movers)]
        if state.where[uid] == PENDING and legal_moves.may_move_now(state, uid) and arrivals.may_delay(state, uid):
            return state.tables.delay_action(uid)
    elif _end_legal(state):
        return Action.end()
    return None


def _first_legal(state: Position, movers: tuple[str, ...], arriving: tuple[str, ...], rest: list[int],
                 rng: Rng) -> Action:
    """The first legal candidate of `rest` in a random order: as uniform as drawing them one by one."""
    rng.shuffle(rest)
    for index in rest:
        action = _candidate(state, movers, arriving, index)
        if action is not None:
            return action
    raise AssertionError("a movement phase with no legal action")


def _free_combat(state: Position) -> bool:
    """A combat phase's own decision (a target to attack, or `end`), its list not yet worked out for this position."""
    return (not state.terminal and not state._stack and state.phase.kind == "combat"
            and "legal" not in state._cache)


def _sample_target(state: Position, rng: Rng) -> Action:
    """`attack HEX` or `end`, uniformly: the hexes a unit that may still attack reaches are the candidates, and
    only the one drawn is asked whether some unit may join a battle against it (the game's may_join, duties)."""
    candidates: list[Action | None] = [*battles.target_actions(state, joinable_only=False), None]
    combat = state.game.combat
    filtered = combat is not None and (combat.may_join is not None or combat.must_attack is not None)
    while candidates:
        index = _below(rng, len(candidates))
        action = candidates[index]
        candidates[index] = candidates[-1]
        candidates.pop()
        if action is None:
            if not (duties.binding(state) and any(duties.open_duties(state))):
                return Action.end()
        elif not filtered or (action.hex is not None and battles.may_be_joined(state, action.hex)):  # `attack HEX`
            return action
    raise AssertionError("a combat phase with no legal action")  # `end`, or the attack a duty asks for


def _choosing_hex(state: Position) -> bool:
    """A move's second step (a unit chosen, its destination due), its list not yet worked out for this position."""
    return (not state.terminal and bool(state._stack) and type(state._stack[-1]) is Moving
            and "legal" not in state._cache and not legal_moves.knows_moves(state, state._stack[-1].unit))


def _sample_destination(state: Position, rng: Rng) -> Action | None:
    """The chosen unit's move, exit or `cancel`, uniformly: drawn from its reach, each tested alone."""
    moving = state._stack[-1]
    assert isinstance(moving, Moving)  # a move's second step (_choosing_hex)
    reached = legal_moves.unit_moves(state, moving.unit)
    moves, exits = len(reached.to), reached.exits
    # The candidates by index, each drawn once at most: its moves, its exits, then `cancel` (only the Action drawn is
    # made: the unit's moves are a few dozen, and made anew in most positions of a random game)
    candidates = list(range(moves + len(exits) + 1))
    refused = 0
    while candidates:
        index = _below(rng, len(candidates))
        drawn = candidates[index]
        candidates[index] = candidates[-1]
        candidates.pop()
        if drawn == moves + len(exits):
            return Action.cancel()
        if drawn >= moves:  # an exit of its reach: legal as it is
            return exits[drawn - moves]
        if legal_moves.may_stop_in(state, moving.unit, reached.to[drawn]):  # a move into a hex it reaches
            return reached.move(drawn)
        refused += 1
        if refused * 2 > moves + len(exits):  # most refused: listing the rest costs less than drawing on
            return None
    raise AssertionError("a move's second step with no legal action")  # `cancel` is always legal


def sample_order(state: Position, rng: Rng) -> Action | None:
    """A legal order of `state`, uniformly at random (as rng.choice(state.legal_orders()) would draw): a move
    or exit given at once, a delay, `end`, or an action of a pending decision."""
    if _free_combat(state):  # (outside a movement phase a player's orders are its actions)
        return _sample_target(state, rng)
    if not _free_movement(state):
        return None
    # Each mover's candidate orders (its moves and exits before stacking and may_end_move, and its delay: kept for
    # the position, carried over a move), then `end`: drawn by weight (a draw's index into them all, found by
    # bisection of their running totals), each tested alone, a refused one not again.
    units, orders = legal_moves.movers_candidate_orders(state)
    ends = list(accumulate(map(len, orders)))  # where each mover's orders end in the draw's index
    total = ends[-1] if ends else 0
    end = Action.end()
    end_legal = _end_legal(state)
    if end_legal:
        total += 1
    refused: set[int] = set()
    while len(refused) < total:
        drawn = _below(rng, total)
        if drawn in refused:
            continue
        if end_legal and drawn == total - 1:
            return end
        mover = bisect_right(ends, drawn)
        order = orders[mover][drawn - (ends[mover - 1] if mover else 0)]
        # A candidate is a movable unit's delay, exit (legal as they are) or move into a hex it reaches, which is
        # legal if it may end its move there: is_legal_move's other checks already hold.
        to = order.hex
        if order.kind != MOVE or to is None or legal_moves.may_stop_in(state, units[mover], to):
            return order
        refused.add(drawn)
        if len(refused) * 2 > total:  # most candidates refused: listing the rest costs less than drawing on
            return None
    raise AssertionError("a movement phase with no legal order")
