"""Who stands where, and the stacking limit: the occupants of each hex, the hexes a moving unit may not
end in, and the units over the limit when it is checked.

A game's `stacking { limit counts checked overstack pass_through_friendly moves_end_over_limit }`
(model.StackingRules) is read here. Units for which `counts` fails do not count toward the limit (and are
never removed for over-stacking). A hex is full for a moving unit when one more would be over the limit:
a move never ends there, unless the game lets a move end over the limit while the limit is not yet checked
(`moves_end_over_limit`: the end of the phase, or of a side's movement phase), and then only while enough
of the units already there may still move away this phase (they may move now and have somewhere to go:
legal_moves.may_leave). Over-stacked units found when the limit is checked are removed one at a time
(a Remove frame, decisions.py).

Speed: the occupants and their sides are worked out once for the units where they stand (Position._standing,
handed on by every action that moves nobody), the full hexes and the uncounted units once a position
(GameState._cache); a move, exit or delay patches the occupants, their sides and the full hexes of
the position before (`carry_over`) rather than working them out again, and a retreat, advance, placement
or elimination the occupants and their sides (`patch_occupants`, from changes.py).
"""

from __future__ import annotations

from itertools import chain
from typing import Callable, Final

from rulec.engine.position import Position, pos_ranks
from rulec.engine.statuses import PENDING
from rulec.runtime.model import Hex


occupants = Position.occupants  # each occupied hex -> the units in it (a basic query of the position)

SIDES_LINEAGE: Final = "occupant sides lineage"  # (cache key) how the position's occupant sides came from earlier ones
MOST_LINEAGE: Final = 16  # the lineage kept: the sides of at most this many positions before


class Lineage:
    """The occupant sides of a position were those of `parent` (a dict of sides by hex), changed at `changed`;
    `earlier`: the parent's own lineage (None past MOST_LINEAGE positions: the older dicts are let go)."""

    __slots__ = ("parent", "changed", "earlier", "depth")

    def __init__(self, parent: dict, changed: frozenset, earlier: "Lineage | None", depth: int) -> None:
        self.parent = parent
        self.changed = changed
        self.earlier = earlier
        self.depth = depth


def sides_changed(before: dict, after: dict, lineage: "Lineage | None") -> frozenset | None:
    """The hexes whose occupant sides differ between `before` and `after` (whose lineage is `lineage`), told by
    the lineage when `before` is in it; None when it is not."""
    found: frozenset = frozenset()
    while lineage is not None:
        found = found.union(lineage.changed)
        if lineage.parent is before:
            return found
        lineage = lineage.earlier
    return None


def occupant_sides(state: Position) -> dict[Hex, frozenset[str]]:
    """The sides standing in each occupied hex, worked out once a position (occupied, enemy_occupied, ...)."""
    sides = state._standing.get("occupant sides")
    if sides is None:
        units = state._units
        sides = state._standing["occupant sides"] = {h: frozenset(units[uid].side for uid in uids)
                                                  for h, uids in occupants(state).items()}
    return sides


def occupants_after(state: Position, before: dict[Hex, list[str]], uid: str, left: Hex | None,
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
        elif left is None:  # in the order of state.pos, as `occupants` lists them: one that came onto the map is last
            after[to] = there + [uid]
        else:  # (a unit that changes hexes keeps its place in state.pos: its rank tells where it goes)
            ranks = pos_ranks(state)
            rank = ranks[uid]
            i = 0
            while i < len(there) and ranks[there[i]] < rank:
                i += 1
            after[to] = there[:i] + [uid] + there[i:]
    return after


def crowded_at(state: Position, h: Hex, may_leave: Callable[[str], bool]) -> bool:
    """Is `h` full for a moving unit that counts (see `crowded`)? Asked per hex, the answers kept for the position:
    a unit's moves ask only of the occupied hexes it reaches."""
    kept = state._cache.get("crowded")
    if kept is None:
        kept = state._cache["crowded"] = {}
    found = kept.get(h)
    if found is None:
        units = occupants(state).get(h)
        found = kept[h] = units is not None and bool(units) and crowded(state, units, may_leave)
    return found


def full_hexes(state: Position, may_leave: Callable[[str], bool]) -> set[Hex]:
    """Every hex no moving unit that counts may end its move in (crowded_at, asked of every occupied hex)."""
    return {h for h in occupants(state) if crowded_at(state, h, may_leave)}


def uncounted(state: Position) -> frozenset[str]:
    """Units that do not count toward the stacking limit (stacking { counts }), worked out per position, or once
    for the game when the condition reads nothing of the position (model.Expr.reads_position)."""
    counts = state.game.stacking.counts
    if counts is None:
        return frozenset()
    if not counts.reads_position:  # about the unit alone: the same answers in every position while the units are
        kept = state._for_the_game.get("uncounted")
        if kept is not None and kept[0] is state._units:  # (a unit that loses a step is another: the dict is copied)
            return kept[1]  # every unit's, on the map or not: only those on the map or pending are ever asked about
        kept = state._for_the_game["uncounted"] = (state._units, frozenset(
            uid for uid, unit in state._units.items() if not counts(state.context(unit))))
        return kept[1]
    found = state._cache.get("uncounted")
    if found is None:
        found = state._cache["uncounted"] = frozenset(
            uid for uid in chain(state.pos, (u for u, w in state.where.items() if w == PENDING))
            if not counts(state.context(state._units[uid])))
    return found


def crowded(state: Position, units: list[str], may_leave: Callable[[str], bool]) -> bool:
    """Is a hex holding `units` full for a moving unit? Over the limit with one more, unless the game lets a move
    end over the limit (stacking { moves_end_over_limit }) and enough of `units` may still move away."""
    rules = state.game.stacking
    if rules.counts is not None:
        free = uncounted(state)
        units = [u for u in units if u not in free]
    over = len(units) + 1 - rules.limit
    if over <= 0:
        return False
    if not rules.moves_end_over_limit:
        return True
    return not _enough_leave(units, may_leave, over)


def _enough_leave(units: list[str], may_leave: Callable[[str], bool], over: int) -> bool:
    """May at least `over` of `units` still move away? Asked unit by unit, up to the `over`-th that may (each answer
    may cost that unit's search)."""
    for u in units:
        if may_leave(u):
            over -= 1
            if over <= 0:
                return True
    return False


def may_end(state: Position, uid: str | None, h: Hex, may_leave: Callable[[str], bool]) -> bool:
    """May this unit end its move in `h`?

    Within the limit, yes. Over it, only when the game lets a move end over the limit
    (stacking { moves_end_over_limit }) and enough of the units already there may still
    move away this phase (`may_leave`: they may move now and have somewhere to go).
    """
    free = uncounted(state)
    if uid in free:
        return True  # a unit that does not count for stacking ends its move anywhere
    others = [u for u in occupants(state).get(h, ()) if u != uid and u not in free]
    over = len(others) + 1 - state.game.stacking.limit
    if over <= 0:
        return True
    if not state.game.stacking.moves_end_over_limit:
        return False
    return _enough_leave(others, may_leave, over)


def overstacked_units(state: Position) -> list[str]:
    """The units in hexes over the limit, in game-file order: with the limit checked at the end of a side's
    movement phase, that side's only (the enemy's wait for theirs)."""
    limit = state.game.stacking.limit
    occupied = occupants(state)
    if len(state.pos) - len(occupied) < limit:
        return []  # fewer units than the limit beyond one a hex: no hex holds more than the limit
    order = state.tables.unit_order
    free = uncounted(state)  # units that do not count are never removed for overstacking
    units: list[str] = []
    for us in occupied.values():
        if len(us) > limit:  # (only a hex over the limit with every unit counted may be over it without some)
            if free:
                us = [u for u in us if u not in free]
                if len(us) <= limit:
                    continue
            units += us
    side = state.phase.side if state.game.sequence else None
    if state.game.stacking.checked == "end_of_movement" and side is not None:
        units = [u for u in units if state._units[u].side == side]
    return sorted(units, key=order.__getitem__)


def patch_occupants(state: Position, before: dict, uid: str, left: Hex | None, entered: Hex | None) -> bool:
    """`uid` went from `left` to `entered` (None: off the map, or not on it) and no other unit changed hexes or
    sides: the occupants and their sides known where units stood `before` (Position._standing), patched into the
    position's. False when `before` knew no occupants (nothing to patch)."""
    found: dict[Hex, list[str]] | None = before.get("occupants")
    if found is None:
        return False
    moved = left is not None or entered is not None
    standing = state._standing
    if moved:
        found = occupants_after(state, found, uid, left, entered)
    standing["occupants"] = found
    sides: dict[Hex, frozenset[str]] | None = before.get("occupant sides")
    if sides is None:
        return True
    lineage: Lineage | None = before.get(SIDES_LINEAGE)
    if moved:  # the sides in the two hexes the unit left and entered, the others as they were
        side = state._units[uid].side
        now_left = _sides_at(state, found, left, side) if left is not None else None
        now_entered = _sides_at(state, found, entered, side) if entered is not None else None
        if (left is not None and _differ(sides.get(left), now_left)) or (
                entered is not None and _differ(sides.get(entered), now_entered)):
            parent = sides
            sides = sides.copy()
            changed: list[Hex] = []
            if left is not None:
                _set_sides(sides, left, now_left, changed)
            if entered is not None:
                _set_sides(sides, entered, now_entered, changed)
            # What the new sides differ in from the ones before (trace_memory compares them this way, not hex by hex)
            depth = lineage.depth + 1 if lineage is not None and lineage.depth < MOST_LINEAGE else 0
            lineage = Lineage(parent, frozenset(changed), lineage if depth else None, depth)
        # else: a move between hexes that hold its side before and after (and nothing else changed): the same sides
    if lineage is not None:
        standing[SIDES_LINEAGE] = lineage
    standing["occupant sides"] = sides
    return True


def _set_sides(sides: dict[Hex, frozenset[str]], h: Hex, now: frozenset[str] | None, changed: list[Hex]) -> None:
    """The sides in `h` made `now` (None: nobody there), `h` noted in `changed` if they differ from those before."""
    was = sides.get(h)
    if now is not None:
        sides[h] = now
    elif was is not None:
        del sides[h]
    if now != was:
        changed.append(h)


def _differ(was: frozenset[str] | None, now: frozenset[str] | None) -> bool:
    """Do the sides in a hex differ (the one frozenset of a side, _ONE_SIDE, told by its identity)?"""
    return was is not now and was != now


_ONE_SIDE: Final[dict[str, frozenset[str]]] = {}  # side -> frozenset({side}): most hexes hold one side's units


def _sides_at(state: Position, occupants: dict[Hex, list[str]], h: Hex, side: str) -> frozenset[str] | None:
    """The sides standing in `h` (None: nobody), `side` being that of the unit that moved there or left it."""
    there = occupants.get(h)
    if there is None:
        return None
    units = state._units
    for u in there:
        if units[u].side != side:
            return frozenset(units[u].side for u in there)
    found = _ONE_SIDE.get(side)
    if found is None:
        found = _ONE_SIDE[side] = frozenset((side,))
    return found


def carry_over(state: Position, before: dict, standing: dict, uid: str, left: Hex | None, entered: Hex | None
               ) -> None:
    """After a move, exit or delay: patch what it changed in the stacking known in the position before (`standing`:
    where its units stood, the occupants and the sides in each hex, handed on as it is by a delay; `before`, its
    cache: the full hexes), rather than work it out again (the phase goes on, only `uid` moved)."""
    if standing is not state._standing and not patch_occupants(state, standing, uid, left, entered):
        return
    crowded_kept: dict[Hex, bool] | None = before.get("crowded")
    # Where friends may not be passed through, a move changes what the others may reach: worked out again.
    if crowded_kept is None or not state.game.stacking.pass_through_friendly:
        return
    if left is not None or entered is not None:  # the two hexes it changed are asked again, the others kept
        crowded_kept = crowded_kept.copy()
        if left is not None and left in crowded_kept:
            del crowded_kept[left]
        if entered is not None and entered in crowded_kept:
            del crowded_kept[entered]
    state._cache["crowded"] = crowded_kept

