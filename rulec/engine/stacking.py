"""Who stands where, and the stacking limit: the occupants of each hex, the hexes a moving unit may not
end in, and the units over the limit when it is checked.

A game's `stacking { limit counts checked overstack pass_through_friendly }` (model.StackingRules)
is read here. Units for which `counts` fails do not count toward the limit (and are never removed
for over-stacking). A hex is full for a moving unit when one more would be over the limit; with
`pass_through_friendly` the limit holds only when it is checked (the end of the phase, or of a
side's movement phase), so a hex is full only if too few of the units already there can still move
away. Over-stacked units found then are removed one at a time (a Remove frame, decisions.py).

Speed: the occupants, the full hexes and the uncounted units are worked out once a position
(GameState._cache); a move, exit or delay patches the occupants, their sides and the full hexes of
the position before (`carry_over`) rather than working them out again.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from rulec.engine import markers
from rulec.engine.statuses import PENDING
from rulec.runtime.model import Hex

if TYPE_CHECKING:
    from rulec.engine.state import GameState


def occupants(state: "GameState") -> dict[Hex, list[str]]:
    """Each occupied hex -> the units in it, in the order of state.pos. Do not modify."""
    found = state._cache.get("occupants")
    if found is None:
        found = {}
        for uid, h in state.pos.items():
            found.setdefault(h, []).append(uid)
        state._cache["occupants"] = found
    return found


def occupant_sides(state: "GameState") -> dict[Hex, frozenset[str]]:
    """The sides standing in each occupied hex, worked out once a position (occupied, enemy_occupied, ...)."""
    sides = state._cache.get("occupant sides")
    if sides is None:
        units = state._units
        sides = state._cache["occupant sides"] = {h: frozenset(units[uid].side for uid in uids)
                                                  for h, uids in occupants(state).items()}
    return sides


def occupants_after(state: "GameState", before: dict[Hex, list[str]], uid: str, left: Hex | None,
                    to: Hex | None) -> dict[Hex, list[str]]:
    """The occupants once `uid` has moved from `left` to `to` (None: off the map), from those `before`."""
    after = before.copy()
    if left is not None:
        if len(after[left]) == 1:
            del after[left]
        else:
            after[left] = [u for u in after[left] if u != uid]
    if to is not None:
        there = after.get(to)
        if there is None:
            after[to] = [uid]
        else:  # in the order of state.pos, as `occupants` lists them
            there = set(there)
            there.add(uid)
            after[to] = [u for u in state.pos if u in there]
    return after


def full_hexes(state: "GameState") -> set[Hex]:
    """Hexes no moving unit may end its move in (see `may_end`). Do not modify."""
    full = state._cache.get("full")
    if full is None:
        stuck = state.moved | state.locked | markers.forbidden(state, "move")  # units that cannot move away any more
        full = state._cache["full"] = {h for h, units in occupants(state).items() if crowded(state, units, stuck)}
    return full


def uncounted(state: "GameState") -> frozenset[str]:
    """Units that do not count toward the stacking limit (stacking { counts }), worked out per position, or once
    for the game when the condition reads nothing of the position (model.Expr.reads_position)."""
    counts = state.game.stacking.counts
    if counts is None:
        return frozenset()
    if not counts.reads_position:  # about the unit alone: the same answers in every position while the units are
        kept = state._for_the_game.get("uncounted")
        if kept is not None and kept[0] is state._units:  # (a unit that loses a step is another: the dict is copied)
            return kept[1]  # every unit's, on the map or not: only those on the map or pending are ever asked about
        from rulec.engine.context import EngineContext  # context.py reads the occupants through this module
        kept = state._for_the_game["uncounted"] = (state._units, frozenset(
            uid for uid, unit in state._units.items() if not counts(EngineContext(state, unit))))
        return kept[1]
    found = state._cache.get("uncounted")
    if found is None:
        from rulec.engine.context import EngineContext
        found = state._cache["uncounted"] = frozenset(
            uid for uid in chain(state.pos, (u for u, w in state.where.items() if w == PENDING))
            if not counts(EngineContext(state, state._units[uid])))
    return found


def crowded(state: "GameState", units: list[str], stuck: set[str]) -> bool:
    """Is a hex holding `units` full for a moving unit, given the units that cannot move away?"""
    rules = state.game.stacking
    if rules.counts is not None:
        free = uncounted(state)
        units = [u for u in units if u not in free]
    over = len(units) + 1 - rules.limit
    if over <= 0:
        return False
    if not rules.pass_through_friendly:
        return True
    if len(units) == 1:
        return units[0] in stuck
    return len(units) - len(stuck.intersection(units)) < over


def may_end(state: "GameState", uid: str | None, h: Hex) -> bool:
    """May this unit end its move in `h`?

    Within the limit, yes. Over it, only when the limit is checked at the end of
    the phase and enough of the units already there can still move away.
    """
    free = uncounted(state)
    if uid in free:
        return True  # a unit that does not count for stacking ends its move anywhere
    others = [u for u in occupants(state).get(h, ()) if u != uid and u not in free]
    over = len(others) + 1 - state.game.stacking.limit
    if over <= 0:
        return True
    if not state.game.stacking.pass_through_friendly:
        return False
    held = markers.forbidden(state, "move")
    movable = [u for u in others if u not in state.moved and u not in state.locked and u not in held]
    return len(movable) >= over


def overstacked_units(state: "GameState") -> list[str]:
    """The units in hexes over the limit, in game-file order: with the limit checked at the end of a side's
    movement phase, that side's only (the enemy's wait for theirs)."""
    limit = state.game.stacking.limit
    order = state.tables.unit_order
    free = uncounted(state)  # units that do not count are never removed for overstacking
    counted = occupants(state).values() if not free else [[u for u in us if u not in free] for us in occupants(state).values()]
    units = [u for us in counted if len(us) > limit for u in us]
    side = state.phase.side if state.game.sequence else None
    if state.game.stacking.checked == "end_of_movement" and side is not None:
        units = [u for u in units if state._units[u].side == side]
    return sorted(units, key=order.__getitem__)


def carry_over(state: "GameState", before: dict, uid: str, left: Hex | None, entered: Hex | None) -> None:
    """After a move, exit or delay: patch what it changed in the cached stacking of the position
    `before` (its cache: the occupants, the sides in each hex, the full hexes), rather than work it out
    again (the phase goes on, only `uid` moved)."""
    found = before.get("occupants")
    if found is None:
        return
    if left is not None or entered is not None:
        found = occupants_after(state, found, uid, left, entered)
    state._cache["occupants"] = found
    sides = before.get("occupant sides")
    if sides is not None:  # the sides in the two hexes the unit left and entered, the others as they were
        if left is not None or entered is not None:
            sides = dict(sides)
            units = state._units
            for h in (left, entered):
                if h is not None:
                    if h in found:
                        sides[h] = frozenset(units[u].side for u in found[h])
                    else:
                        sides.pop(h, None)
        state._cache["occupant sides"] = sides
    full = before.get("full")
    if full is None:
        return
    if left is not None or entered is not None:
        full = set(full)
        stuck = state.moved | state.locked | markers.forbidden(state, "move")
        for h in (left, entered):
            if h is not None:
                if h in found and crowded(state, found[h], stuck):
                    full.add(h)
                else:
                    full.discard(h)
    state._cache["full"] = full


def carry_obstacles(state: "GameState", before: dict, uid: str, left: Hex | None, entered: Hex | None) -> None:
    """After `uid` moved (carry_over): what its own side's units meet on the map is as it was, but for the mover
    itself: the enemies' hexes and zones of control kept, its side's hexes patched at the two hexes it changed."""
    side = state._units[uid].side
    for key in (("zoc", side), ("enemy", side)):
        if key in before:
            state._cache[key] = before[key]
    found = before.get(("obstacles", side))
    occupied = state._cache.get("occupants")
    if found is None or occupied is None:
        return
    enemy, zoc, friends = found
    bit, units = state.tables.hex_bit, state._units
    if left is not None and not any(units[u].side == side for u in occupied.get(left, ())):
        friends &= ~bit[left]
    if entered is not None and entered in occupied:
        friends |= bit[entered]
    state._cache[("obstacles", side)] = (enemy, zoc, friends)
