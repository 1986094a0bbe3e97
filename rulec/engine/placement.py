"""The placement procedure: a side places units from a pool into allowed hexes, one at a time.

Free set-up (units written `setup = free`), deployment inside zones and replacements
(eliminated units brought back, each paid for with replacement points) are all this one
procedure, read from the phase's placement block (model.Placement): `pool` and `hexes`
are evaluated as each decision comes up, `points` once at the phase start. A hex is
allowed when it is in `hexes`, holds no enemy unit and has room under the stacking limit.
The side places units until it ends the phase or nothing is left to place.

Placing a unit is two decisions, so that none offers units times hexes actions: first the
unit (`place UNIT`, or `end`), then its hex (`place UNIT HEX`, or `cancel` to choose
another unit), a Placing frame on the decision stack in between. `place UNIT HEX` in one
order is legal too (typed orders, saved games), though the first step does not list it.
"""

from __future__ import annotations

from typing import Final

from rulec.engine import changes, stacking, steps
from rulec.engine.actions import CANCEL, Action
from rulec.engine.context import EngineContext
from rulec.engine.frames import Placing
from rulec.engine.position import Position
from rulec.engine.statuses import ELIMINATED, ON_MAP, PENDING
from rulec.runtime.model import Placement


PLACEABLE: Final[tuple[str, ...]] = (PENDING, ELIMINATED)  # a unit on the map is not in the pool, nor one left out of the game


def rules(state: Position) -> Placement:
    placement = state.phase.placement
    assert placement is not None, "a placement phase has a placement block (the checker sees to it)"
    return placement


def begin(state: Position) -> bool:
    """Start a placement phase: count its points; False if there is nothing to place (the phase is passed)."""
    placement = rules(state)
    state.points_left = int(placement.points(EngineContext(state))) if placement.points is not None else None
    return bool(placements(state))


def cost(state: Position, uid: str) -> int:
    placement = rules(state)
    return int(placement.cost(EngineContext(state, state.unit(uid)))) if placement.cost is not None else 1


def pool(state: Position) -> list[str]:
    """The phasing side's units that may still be placed (and paid for), in game-file order."""
    phase = state.phase
    ids = {unit.id for unit in rules(state).pool(EngineContext(state))}
    order = state.tables.unit_order
    units = sorted((u for u in ids if state.unit(u).side == phase.side and placeable(state, u)), key=order.__getitem__)
    if state.points_left is not None:
        units = [u for u in units if cost(state, u) <= state.points_left]
    if any(state.where[u] != ON_MAP for u in units) and not hexes(state):
        units = [u for u in units if state.where[u] == ON_MAP]  # no hex has room: only steps can be restored
    return first_tier(state, units)


def first_tier(state: Position, units: list[str]) -> list[str]:
    """Of the placeable `units`, those of the first of the pool's sets (`pool = [A, B]`) that holds any (all of
    them for a pool of one set)."""
    tiers = rules(state).tiers
    if not tiers or not units:
        return units
    context = EngineContext(state)
    for tier in tiers:
        ids = {unit.id for unit in tier(context)}
        found = [u for u in units if u in ids]
        if found:
            return found
    return []


def placeable(state: Position, uid: str) -> bool:
    """Off the map and waiting or eliminated; or, where the phase restores steps, on the map with a step lost."""
    where = state.where[uid]
    return where in PLACEABLE or (where == ON_MAP and rules(state).restore and uid in state.lost_steps)


def hexes(state: Position) -> list[str]:
    """The allowed hexes with room for one more unit of the phasing side."""
    side, limit = state.phase.side, state.game.stacking.limit
    occupants = stacking.occupants(state)
    free = stacking.uncounted(state)  # units that do not count for stacking (stacking { counts })
    allowed = rules(state).hexes(EngineContext(state))
    return sorted(h for h in set(allowed) if sum(u not in free for u in occupants.get(h, ())) < limit
                  and all(state.unit(u).side == side for u in occupants.get(h, ())))


def placements(state: Position) -> list[Action]:
    """The first step: `place UNIT` for every unit that may be placed now (none when no hex has room), and for
    every reduced unit on the map that may regain a step (placement { restore })."""
    return [Action.place(u) for u in pool(state)]


def may_place(state: Position, uid: str, hex: str) -> bool:
    """May `uid` be placed in `hex` now (both steps in one order)?"""
    return (state.phase.kind == "placement" and uid in pool(state) and state.where[uid] != ON_MAP
            and hex in hexes(state))


def choose(state: Position, uid: str) -> None:
    """The first step: the phasing side chose `uid`; its hex is the next decision. A unit on the map
    (placement { restore }) regains a step at once instead, paid as a placement."""
    if state.where[uid] == ON_MAP:
        if state.points_left is not None:
            state.points_left -= cost(state, uid)
        steps.restore_step(state, uid)
        return
    assert state.phase.side is not None  # a placement phase is a side's
    state._stack.append(Placing(state.phase.side, uid))


def placing_legal(state: Position, frame: Placing) -> list[Action]:
    """The second step: a hex for the chosen unit, or back to the choice of unit."""
    return [*(Action.place(frame.unit, h) for h in hexes(state)), Action.cancel()]


def placing_apply(state: Position, frame: Placing, action: Action) -> None:
    state._stack.pop()
    if action.kind != CANCEL:
        assert action.hex is not None  # `place UNIT HEX`
        place(state, frame.unit, action.hex)


def placing_why(state: Position, frame: Placing, action: Action) -> tuple[str, str | None]:
    name = state.tables.short_name.get(frame.unit, frame.unit)
    if action.kind == "place" and action.unit == frame.unit and action.hex is not None:
        return f"{action.hex} is not a hex {name} may be placed in now", None
    return f"a hex for {name} is due: 'place {name} HEX', or 'cancel' to choose another unit", None


def why_not(state: Position, action: Action) -> tuple[str, str | None]:
    """Why `place UNIT HEX` is refused now (explain.py)."""
    phase = state.phase
    if phase.kind != "placement":
        return f"units are placed only in a placement phase, not in the {phase.name}", None
    uid = action.unit or ""
    name = state.tables.short_name.get(uid, uid)
    if uid not in {unit.id for unit in rules(state).pool(EngineContext(state))} or state.unit(uid).side != phase.side \
            or not placeable(state, uid):
        return f"{name} is not one of the units to place in the {phase.name}", None
    if state.points_left is not None and cost(state, uid) > state.points_left:
        return f"{name} costs {cost(state, uid)} points to place, and {state.points_left} are left", None
    if state.where[uid] != ON_MAP and not hexes(state):
        return f"no hex has room for {name} now", None
    if rules(state).tiers and uid not in pool(state):
        first = ", ".join(state.tables.short_name.get(u, u) for u in pool(state))
        return f"{name} may be placed only once no unit placed before it can be: first {first}", None
    if state.where[uid] == ON_MAP:
        return f"{name} is on the map: 'place {name}' flips it back one step, with no hex", None
    return f"{action.hex} is not a hex {name} may be placed in now", None


def place(state: Position, uid: str, hex: str) -> None:
    if state.points_left is not None:
        state.points_left -= cost(state, uid)
    lost = rules(state).steps_lost
    if lost is not None:  # it enters on the side the phase says (a replacement rebuilt at reduced strength)
        full = state._setup_units[uid]
        steps.set_side(state, uid, max(0, min(int(lost(EngineContext(state, full))), len(full.reduced))))
    state.where[uid] = ON_MAP
    state.due.pop(uid, None)
    changes.relocate(state, uid, hex)
    changes.enter(state, uid, hex)
