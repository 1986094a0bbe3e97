"""What happens to the position when a unit moves, leaves the map, enters a hex, is put somewhere or is eliminated.

These are the changes the rules make, whichever decision caused them: a move or exit
(apply_action), a retreat or advance (retreats.py, advances.py), a placement (placement.py),
an elimination by a combat result or a hook (effects.py, procedures.py). Each carries out the
consequences the game declares: objectives change hands (movement { control }) and their
'holds' awards are scored or taken back, 'exits' and 'eliminated' awards are scored, the
unit_exited and unit_eliminated hooks run (procedures.py, through the state: hooks may eliminate in turn), a counter leaving the map takes its markers
along, an arrival may mark the unit, and the history record notes it (history.py).

Where a unit may go is legal_moves.py's job; these functions trust that it may.
"""

from __future__ import annotations

from typing import Final

from rulec.engine import history, markers, move_memory, stacking, victory
from rulec.engine.hex_bits import hexes_in_order
from rulec.engine.movement import Reach
from rulec.engine.position import Position, came_onto_map, holders_changed
from rulec.engine.records import Relocated
from rulec.engine.statuses import ELIMINATED, EXITED, ON_MAP
from rulec.runtime.model import Hex


# MovementRules.control -> the moments a unit entering a hex takes it (see `enter`).
_CONTROL_MOMENTS: Final = {"pass_through": frozenset({"pass", "stop", "move"}), "enter": frozenset({"stop", "move"}),
                    "end_move": frozenset({"move"})}


def move(state: Position, uid: str, h: Hex, reach: Reach) -> None:
    """`uid` ends a move in `h` (entering the map if it was waiting to arrive), passing the objectives its
    path passed (the search's mask for `h`). `reach`: the unit's, in the position before the move
    (reach.unit_reach)."""
    mask = reach.mask_to(h)  # (h is one of its destinations)
    entering = state.where[uid] != ON_MAP
    state.where[uid] = ON_MAP
    if uid in state.due:  # (no longer waiting to arrive; a pop with a default is a generic call, compiled)
        del state.due[uid]
    state.moved.add(uid)
    for objective in passed(state, mask):
        if objective != h:
            enter(state, uid, objective, "pass")
    placed = uid not in state.pos
    state.pos[uid] = h
    if placed:
        came_onto_map(state, uid)
    state.last_relocated = Relocated(uid, state.last_relocated, entering)
    _forget_where_units_stand(state)  # (apply_action patches them from the position before the move)
    enter(state, uid, h, "move")
    history.moved_into(state, uid, h, state._units[uid].side)
    arrival = state._units[uid].arrives
    if entering and arrival is not None:
        for marker in arrival.marks:  # an arrival that marks the unit (a landing that holds it)
            markers.mark(state, uid, marker)


def leave_map(state: Position, uid: str, edge: str, reach: Reach) -> None:
    """`uid` leaves the map by `edge` (from the map, or straight from its arrival). `reach`: the unit's, in the
    position before (reach.unit_reach)."""
    mask = (reach.exit_masks or {}).get(edge, 0)
    # the hex it steps off from, at the end of its path (a unit that never stood on the map left from none)
    last = (reach.exit_hexes or {}).get(edge) if uid in state.pos else None
    for objective in passed(state, mask):
        enter(state, uid, objective, "pass")  # passed through on its way off the map
    state.moved.add(uid)
    history.record(state, "moved", (uid,))
    start = state.pos.pop(uid, "")  # "": it left the map as it entered it
    state.exited_from[uid] = state.tables.numbered[last] if last is not None else start
    state.last_relocated = Relocated(uid, state.last_relocated, True)
    _forget_where_units_stand(state)  # (apply_action patches them from the position before the exit)
    if uid in state.due:
        del state.due[uid]
    state.where[uid] = EXITED
    if uid in state.markers.units:
        markers.clear(state, uid)
    unit = state._units[uid]
    state.run_game_hooks("unit_exited", unit)
    for award in state.game.awards:
        trigger = award.trigger
        # An exit scores for the exiting unit's own side (or the side the trigger names).
        if trigger.kind == "exits" and edge in trigger.edges and unit.side == (trigger.side or award.side):
            amount = victory.award_amount(state, award, unit)
            if amount:
                victory.score(state, award.side, amount, award.id, unit=uid)


def passed(state: Position, mask: int) -> list[Hex]:
    """The objectives a move's path passed (a search's mask: bit i, Tables.objectives[i]), in that order. Read off
    the mask's bits, not asked of every objective: most moves pass none, and a big map has dozens."""
    return hexes_in_order(mask, state.tables.objectives) if mask else []


def enter(state: Position, uid: str, h: Hex, moment: str = "stop") -> None:
    """A unit entered `h`: passing through it ("pass"), ending a retreat or advance there ("stop"), or
    ending a move there ("move"). As the game's `control` rule says, it may take a 'holds' award from the enemy."""
    if h not in state.tables.objective_set or moment not in _CONTROL_MOMENTS[state.game.movement.control]:
        return
    side = state._units[uid].side
    previous = state.holders.get(h)
    if previous == side:
        return
    state.holders[h] = side
    holders_changed(state)
    for award in state.game.awards:
        if award.trigger.kind != "holds" or h not in award.trigger.hexes:
            continue
        if award.side == side:
            amount = victory.award_amount(state, award, state._units[uid])
            if amount:
                state.granted[(award.id, h)] = amount
                victory.score(state, side, amount, award.id, unit=uid, hex=h)
        elif (award.id, h) in state.granted:
            victory.score(state, award.side, -state.granted.pop((award.id, h)), award.id, unit=uid, hex=h)


def relocate(state: Position, uid: str, h: Hex) -> None:
    """The rules put a unit on the map's `h` (a retreat, an advance, a placement)."""
    left = state.pos.get(uid)
    state.pos[uid] = h
    if left is None:
        came_onto_map(state, uid)
    history.entered(state, h, state._units[uid].side)
    _stood_elsewhere(state, uid, left, h)


def eliminate(state: Position, uid: str) -> None:
    """The unit is off the map for good; 'eliminated' awards score it."""
    left = state.pos.pop(uid, None)
    _stood_elsewhere(state, uid, left, None)
    state.where[uid] = ELIMINATED
    if uid in state.markers.units:  # a counter leaving the map takes its markers with it
        markers.clear(state, uid)
    unit = state._units[uid]
    state.run_game_hooks("unit_eliminated", unit)
    for award in state.game.awards:
        if award.trigger.kind == "eliminated" and award.trigger.side == unit.side:
            amount = victory.award_amount(state, award, unit)
            if amount:
                victory.score(state, award.side, amount, award.id, unit=uid)


def _stood_elsewhere(state: Position, uid: str, left: Hex | None, to: Hex | None) -> None:
    """One unit changed hexes outside a move (None: off the map, or not on it): what depended on positions is
    dropped, but who stands where and each side's view of the others are patched at the two hexes (stacking,
    move_memory) rather than worked out again by whoever asks next, in this action or the position after it."""
    state.last_relocated = Relocated(uid, state.last_relocated, left is None or to is None)
    before = state._standing
    state._cache = {}
    state._standing = {}
    if stacking.patch_occupants(state, before, uid, left, to):
        move_memory.carry_views(state, before, uid, left, to)


def _forget_where_units_stand(state: Position) -> None:
    """A move or exit changed where a unit stands: what the action asked of positions before it is dropped."""
    if "units" in state._cache:  # the units conditions read (context.py)
        del state._cache["units"]
    state._standing = {}
