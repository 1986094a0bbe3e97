"""Units with reduced sides: the counter a unit plays as after losing steps, losing and regaining them.

A unit's `reduced` sides (model.Step) are its counter flipped: each step lost turns it to the
next one, which may change its strength, allowance and type; with none left the next loss
eliminates it. `GameState._units` holds each unit as it plays now (its variant counter if an
option chose one at set-up, its current side); it is shared by clones and copied only when a
unit flips, which is rare. A flip changes what the unit can do, so the position's cache and
the phase's kept moves are dropped.
"""

from __future__ import annotations

from dataclasses import replace

from rulec.engine import changes
from rulec.engine.position import Position
from rulec.engine.statuses import ELIMINATED, ON_MAP
from rulec.runtime.model import Unit


def side_after(state: Position, uid: str, lost: int) -> Unit:
    """The unit as it plays with `lost` steps lost: its set-up counter, or its reduced side number `lost`."""
    full = state._setup_units[uid]
    variant = full.variant(state.variants[uid]) if uid in state.variants else None
    if variant is not None:  # the counter an option chose at set-up
        full = replace(full, strength=variant.strength, move=variant.move if variant.move is not None else full.move)
    move, kind = full.move, full.type
    for step in full.reduced[:lost]:
        move = step.move if step.move is not None else move
        kind = step.type if step.type is not None else kind
    strength = full.reduced[lost - 1].strength if lost else full.strength
    return replace(full, strength=strength, move=move, type=kind)


def set_side(state: Position, uid: str, lost: int) -> None:
    """Flip the unit to the side it plays with `lost` steps lost."""
    state._units = dict(state._units)  # shared with clones: copied when a unit flips, which is rare
    state._units[uid] = side_after(state, uid, lost)
    if lost:
        state.lost_steps[uid] = lost
    else:
        state.lost_steps.pop(uid, None)
    state.forget()  # (the sides in its hex changed)
    state._phase_moves = {}  # a new allowance: the moves kept for this phase (shared with clones) are stale
    state._able_to_attack = {}  # a new strength or type: who may attack at all is worked out again


def lose_step(state: Position, uid: str) -> int:
    """The unit loses one step: it flips to its next reduced side, or with none left is eliminated.
    Returns the strength that step was worth (all that was left when it is eliminated)."""
    unit = state._units[uid]
    lost = state.lost_steps.get(uid, 0)
    if lost < len(unit.reduced):
        set_side(state, uid, lost + 1)
        return unit.strength - state._units[uid].strength
    changes.eliminate(state, uid)
    return unit.strength


def steps_left(state: Position, uid: str) -> int:
    """How many steps the unit has left (0 once it is off the map for good)."""
    if state.where[uid] == ELIMINATED:
        return 0
    return state._units[uid].steps - state.lost_steps.get(uid, 0)


def restore_step(state: Position, uid: str) -> bool:
    """Replacements: a reduced unit on the map flips back one side. False if it has no step to regain."""
    lost = state.lost_steps.get(uid, 0)
    if not lost or state.where[uid] != ON_MAP:
        return False
    set_side(state, uid, lost - 1)
    return True
