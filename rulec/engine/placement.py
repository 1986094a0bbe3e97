"""The placement procedure: a side places units from a pool into allowed hexes, one at a time.

Free set-up (units written `setup = free`), deployment inside zones and replacements
(eliminated units brought back, each paid for with replacement points) are all this one
procedure, read from the phase's placement block (model.Placement): `pool` and `hexes`
are evaluated as each decision comes up, `points` once at the phase start. A hex is
allowed when it is in `hexes`, holds no enemy unit and has room under the stacking limit.
The side places units until it ends the phase or nothing is left to place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulec.engine.actions import Action
from rulec.engine.context import EngineContext
from rulec.engine.statuses import ELIMINATED, ON_MAP, PENDING
from rulec.runtime.model import Placement

if TYPE_CHECKING:
    from rulec.engine.state import GameState

PLACEABLE = (PENDING, ELIMINATED)  # a unit on the map is not in the pool, nor one left out of the game


def rules(state: "GameState") -> Placement:
    placement = state.phase.placement
    assert placement is not None, "a placement phase has a placement block (the checker sees to it)"
    return placement


def begin(state: "GameState") -> bool:
    """Start a placement phase: count its points; False if there is nothing to place (the phase is passed)."""
    placement = rules(state)
    state.points_left = int(placement.points(EngineContext(state))) if placement.points is not None else None
    return bool(placements(state))


def cost(state: "GameState", uid: str) -> int:
    placement = rules(state)
    return int(placement.cost(EngineContext(state, state.unit(uid)))) if placement.cost is not None else 1


def pool(state: "GameState") -> list[str]:
    """The phasing side's units that may still be placed (and paid for), in game-file order."""
    phase = state.phase
    ids = {unit.id for unit in rules(state).pool(EngineContext(state))}
    order = state.tables.unit_order
    units = sorted((u for u in ids if state.unit(u).side == phase.side and state.where[u] in PLACEABLE), key=order.__getitem__)
    if state.points_left is not None:
        units = [u for u in units if cost(state, u) <= state.points_left]
    return units


def hexes(state: "GameState") -> list[str]:
    """The allowed hexes with room for one more unit of the phasing side."""
    side, limit = state.phase.side, state.game.stacking.limit
    occupants = state._occupants()
    free = state._uncounted()  # units that do not count for stacking (stacking { counts })
    allowed = rules(state).hexes(EngineContext(state))
    return sorted(h for h in set(allowed) if sum(u not in free for u in occupants.get(h, ())) < limit
                  and all(state.unit(u).side == side for u in occupants.get(h, ())))


def placements(state: "GameState") -> list[Action]:
    """Every `place UNIT HEX` open now."""
    units = pool(state)
    if not units:
        return []
    where = hexes(state)
    return [Action.place(u, h) for u in units for h in where]


def why_not(state: "GameState", action: Action) -> tuple[str, str | None]:
    """Why `place UNIT HEX` is refused now (explain.py)."""
    phase = state.phase
    if phase.kind != "placement":
        return f"units are placed only in a placement phase, not in the {phase.name}", None
    uid = action.unit or ""
    name = state.tables.short_name.get(uid, uid)
    if uid not in {unit.id for unit in rules(state).pool(EngineContext(state))} or state.unit(uid).side != phase.side \
            or state.where[uid] not in PLACEABLE:
        return f"{name} is not one of the units to place in the {phase.name}", None
    if state.points_left is not None and cost(state, uid) > state.points_left:
        return f"{name} costs {cost(state, uid)} points to place, and {state.points_left} are left", None
    return f"{action.hex} is not a hex {name} may be placed in now", None


def place(state: "GameState", uid: str, hex: str) -> None:
    if state.points_left is not None:
        state.points_left -= cost(state, uid)
    state.where[uid] = ON_MAP
    state.due.pop(uid, None)
    state._relocate(uid, hex)
    state._enter(uid, hex)
