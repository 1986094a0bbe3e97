"""movement { may_end_move }: may a unit end its move in a hex, asked per destination once a position (or for many
destinations at once where the checker wrote the condition as sets: end_sets.py).

What the answers read is noted (answer_reads.ReadingContext) where moves carry over (reach.moves_carry_over), so that
a move hands them on to the position after it unless it changed something they read (legal_moves.carry_moves).
"""

from __future__ import annotations

from typing import Final

from rulec.engine import answer_reads, end_sets
from rulec.engine.actions import Action
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.engine.reach import moves_carry_over
from rulec.runtime.model import Hex


END_ALLOWED: Final = "end allowed"  # unit -> hex -> may_end_move's answer (end_allowed)
END_OWNED: Final = "end allowed owned"  # the units whose END_ALLOWED answers this position may add to (_end_answers)
# Destinations not yet answered from which allowed_ends asks may_end_move of them all at once, as sets (end_sets.py),
# where the checker could write it so: below, the sets' fixed cost (the trace as bits, its neighbours) is not repaid.
ASKED_AS_SETS: Final = 3
ALLOWED_ENDS: Final = "allowed ends"  # unit -> its moves that end where may_end_move allows (allowed_ends)
# may_end_move's readings (answer_reads): per position, what they are compared with and the sides of the units asked;
# per game, by side, what the answers read
READINGS: Final = "may_end_move readings"
# Per position, by unit: where its may_end_move answers read each trace (answer_reads.TraceHexes). Handed on with
# the answers, the same sets: a later position's answers about the unit add to them, so they may name more hexes
# than this position's answers read, which only ever asks a unit again that need not be.
END_READS: Final = "may_end_move trace hexes"


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
    by_unit = state.answers(END_ALLOWED)
    found = by_unit.get(uid)
    owned = state._cache.get(END_OWNED)
    if owned is None:
        owned = state._cache[END_OWNED] = set()
    if found is None:
        found = by_unit[uid] = {}
        owned.add(uid)
    elif uid not in owned:
        found = by_unit[uid] = dict(found)
        owned.add(uid)
    return found


def _about_unit(state: Position, kind: str, uid: str) -> dict:
    """The position's entry of `kind` (a dict by unit) for `uid`: a dict, made empty when first asked for."""
    by_unit = state.answers(kind)
    found = by_unit.get(uid)
    if found is None:
        found = by_unit[uid] = {}
    return found


def _end_context(state: Position, uid: str) -> EngineContext:
    """A context about `uid` to ask may_end_move in (no context is kept in the cache: it would point back at the
    state, a cycle to collect)."""
    unit = state._units[uid]
    if moves_carry_over(state):  # what the answer reads is noted, to tell whether a move keeps it
        cache = state._cache
        asked: tuple[tuple[int, int], set[str]] | None = cache.get(READINGS)
        if asked is None:
            asked = cache[READINGS] = (answer_reads.snapshot(state), set())
        asked[1].add(unit.side)
        return answer_reads.ReadingContext(state, unit, end_readings(state, unit.side),
                                           _about_unit(state, END_READS, uid))
    return EngineContext(state, unit)


def _ask_end(state: Position, context: EngineContext, h: Hex) -> bool:
    context.hex = h
    assert state.game.movement.may_end_move is not None  # asked only in games with the rule
    return bool(state.game.movement.may_end_move(context))


def end_readings(state: Position, side: str) -> set[tuple[str, ...]]:
    """What may_end_move's answers about units of `side` have read that a move may change, in any position of the
    game (the other sides' readings are not compared: a side's movement phase asks of its own units only)."""
    readings = state._for_the_game.get(READINGS)
    if readings is None:
        readings = state._for_the_game[READINGS] = {}
    found = readings.get(side)
    if found is None:
        found = readings[side] = set()
    return found
