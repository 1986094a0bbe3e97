"""The advance after combat: which victorious units may move into which vacated hexes.

An advance effect offers the victor an `Advance` frame when the defender's hex
is empty; each `advance UNIT HEX` moves one unit, `advance none` declines.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulec.engine import combat as fight
from rulec.engine.actions import Action
from rulec.engine.frames import Advance, Effects
from rulec.engine.statuses import ON_MAP

if TYPE_CHECKING:
    from rulec.engine.state import GameState


def offer(state: "GameState", effects: Effects, count: int) -> None:
    """Put the chance to advance on the stack, if some unit may take it."""
    battle = effects.battle
    h = battle.hex
    occupants = state._occupants()
    if count <= 0 or h in occupants:
        return
    vacated = (h,) + tuple(v for v in effects.vacated if v not in occupants)
    frame = Advance(battle.side, battle.attackers, vacated, count, vacated)
    if advance_moves(state, frame):
        state._stack.append(frame)


def advance_moves(state: "GameState", frame: Advance) -> list[Action]:
    actions = []
    first = frame.hexes[0]
    occupants = state._occupants()
    blocked = state.tables.advance_blocked
    for uid in frame.units:
        if state.where.get(uid) != ON_MAP:
            continue
        h = state.pos[uid]
        for target in frame.hexes:
            if target in occupants:
                continue
            route = (h, first) if target == first else (h, first, target)
            if any(fight.hexside_key(a, b) in blocked for a, b in zip(route, route[1:])):
                continue
            if target != first and not state.game.combat.advance_ignores_zoc:
                continue
            actions.append(Action.advance(uid, target))
    return actions


def advance_legal(state: "GameState", frame: Advance) -> list[Action]:
    return advance_moves(state, frame) + [Action.advance()]


def advance_settle(state: "GameState", frame: Advance) -> bool:
    if advance_moves(state, frame):
        return False
    state._stack.pop()
    return True


def advance_apply(state: "GameState", frame: Advance, action: Action) -> None:
    if action.unit is None:
        state._stack.pop()
        return
    first = frame.hexes[0]
    if action.hex != first:
        state._enter(action.unit, first)
    state._relocate(action.unit, action.hex)
    state._enter(action.unit, action.hex)
    if frame.count > 1:
        state._stack[-1] = replace(frame, units=tuple(u for u in frame.units if u != action.unit), count=frame.count - 1)
    else:
        state._stack.pop()


def advance_why(state: "GameState", frame: Advance, action: Action) -> tuple[str, str | None]:
    return "the victor must first advance after combat or decline ('advance none')", "advance"
