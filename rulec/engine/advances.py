"""The advance after combat: which victorious units may move into which vacated hexes.

An advance effect (`advance(N)` or `advance(attacker, N)`; `advance(defender, N)` for
the defender) offers that side an `Advance` frame when a hex of the beaten side
(the defender's hex; the attackers' hexes) is empty and some unit may advance under
the game's advance policy (model.AdvancePolicy): into that hex, and on along the
hexes the beaten side's retreats passed through (unless it stops on entering an
enemy zone of control), within the stacking limit, never across a hexside that
blocks that side's advance. The frame's `hexes` are
exactly the hexes some unit may enter now, so what is announced is what is legal. A unit
printed with no movement allowance (move = 0: a fort) never advances.
Each `advance UNIT HEX` moves one unit; `advance none` declines.
"""

from __future__ import annotations

from typing import Final

from rulec.engine import combat as fight
from rulec.engine import changes, markers, stacking
from rulec.engine.actions import ADVANCE, Action
from rulec.engine.frames import Advance, Effects
from rulec.engine.position import Position
from rulec.engine.statuses import ON_MAP
from rulec.runtime.model import Hex


def offer(state: Position, effects: Effects, count: int, who: str = "attacker") -> None:
    """Put the chance to advance on the stack for that side of the battle, if some unit may take it."""
    battle = effects.battle
    occupants = stacking.occupants(state)
    attacker = who == "attacker"
    beaten = battle.targets if attacker else battle.attacker_hexes
    emptied = tuple(h for h in beaten if h not in occupants)
    if count <= 0 or not emptied:
        return
    units = battle.attackers if attacker else battle.defenders
    side = state._units[units[0]].side if units else battle.side
    passed = effects.vacated if attacker else effects.attacker_vacated
    frame = Advance(side, units, (), count, emptied + passed, beaten, who)
    frame = _with_targets(state, frame)
    if frame.hexes:
        state._stack.append(frame)


def _with_targets(state: Position, frame: Advance) -> Advance:
    """The frame with `hexes` set to the hexes some unit of it may advance into now, in order."""
    found = {move.hex for move in advance_moves(state, frame)}
    return frame.with_hexes(tuple(h for h in frame.vacated if h in found))


def _route_problem(state: Position, uid: str, target: Hex, frame: Advance) -> str | None:
    """Why `uid` may not advance into `target` now (None: it may)."""
    assert state.game.combat is not None  # advances follow battles
    policy = state.game.combat.advance
    first = frame.targets[0] if frame.targets else frame.vacated[0]
    if target not in frame.vacated:
        return f"{target} was not vacated by the battle"
    there = stacking.occupants(state).get(target, ())
    side = state._units[uid].side
    if any(state._units[u].side != side for u in there):
        return f"{target} is occupied by the enemy"
    if len(there) >= state.game.stacking.limit:
        return f"{target} is full (stacking limit {state.game.stacking.limit})"
    into_target = target in frame.targets
    held = "the defender's hex" if frame.who == "attacker" else "the attackers' hexes"
    if into_target and "defender_hex" not in policy.into:
        return f"the victor may not advance into {held} itself"
    if not into_target and "retreat_path" not in policy.into:
        return f"the victor may advance only into {held}"
    if not into_target and len(frame.targets) > 1:
        return ("after a battle against several hexes" if frame.who == "attacker" else "after an attack from several hexes") + \
            " the victor may advance only into those hexes"
    if not into_target and policy.stops_at_enemy_zoc and first in state.enemy_zoc(state._units[uid].side):
        return f"an advancing unit stops on entering the enemy zone of control in {first}"
    if into_target and target not in state.tables.neighbours[state.pos[uid]]:
        return f"{target} is not next to it"
    route = (state.pos[uid], target) if into_target else (state.pos[uid], first, target)
    blocked, blocked_for = state.tables.advance_blocked, state.tables.advance_blocked_for.get(frame.who, _NONE)
    for a, b in zip(route, route[1:]):
        key = fight.hexside_key(a, b)
        if key in blocked or key in blocked_for:
            return f"the advance into {target} would cross a hexside that blocks the {frame.who}'s advance"
    return None


_NONE: Final[frozenset[str]] = frozenset()


def advance_moves(state: Position, frame: Advance) -> list[Action]:
    actions = []
    held = markers.forbidden(state, "advance")
    for uid in frame.units:
        # A unit printed with no movement allowance (a fort) never moves, so never advances either.
        if state.where.get(uid) != ON_MAP or uid in held or state._units[uid].move == 0:
            continue
        for target in frame.vacated:
            if _route_problem(state, uid, target, frame) is None:
                actions.append(Action.advance(uid, target))
    return actions


def advance_legal(state: Position, frame: Advance) -> list[Action]:
    return advance_moves(state, frame) + [Action.advance()]


def advance_settle(state: Position, frame: Advance) -> bool:
    if frame.hexes:
        return False
    state._stack.pop()
    return True


def advance_apply(state: Position, frame: Advance, action: Action) -> None:
    if action.unit is None:
        state._stack.pop()
        return
    assert action.hex is not None  # `advance UNIT HEX`
    first = frame.targets[0] if frame.targets else frame.vacated[0]
    if action.hex not in frame.targets:  # along the retreat path, through the defender's hex
        changes.enter(state, action.unit, first, "pass")
    changes.relocate(state, action.unit, action.hex)
    changes.enter(state, action.unit, action.hex)
    if frame.count > 1:
        rest = frame.with_units(tuple(u for u in frame.units if u != action.unit), frame.count - 1)
        state._stack[-1] = _with_targets(state, rest)
    else:
        state._stack.pop()


def advance_why(state: Position, frame: Advance, action: Action) -> tuple[str, str | None]:
    if action.kind == ADVANCE and action.unit is not None and action.hex is not None:
        name = state.tables.short_name.get(action.unit, action.unit)
        if action.unit not in frame.units or state.where.get(action.unit) != ON_MAP:
            return f"{name} is not one of the victorious units that may advance", "advance"
        refused = markers.refusal(state, action.unit, "advance")
        if refused is not None:
            return refused
        problem = _route_problem(state, action.unit, action.hex, frame)
        if problem:
            return f"{name} may not advance into {action.hex}: {problem}", "advance"
    return ("the victor must first advance after combat or decline ('advance none'); "
            f"it may advance into {' '.join(frame.hexes)}", "advance")
