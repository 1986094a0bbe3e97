"""Why an order is illegal: a message in players' words and the mechanic that forbids it.

The mechanic is a key of the game's `rule_refs`, so that the state can cite the
rulebook case ("illegal (7.31): 0402 holds an enemy unit"). Only called once an
action has been found illegal, so clarity matters here more than speed.
"""

from __future__ import annotations

from rulec.engine import placement
from rulec.engine.actions import (ADVANCE, ATTACK, CANCEL, DELAY, END, EXIT, LOSE, MOVE, PLACE, REMOVE, RESOLVE, RETREAT,
                                  ROLL,
                                  WITH, Action)
from rulec.engine import arrivals, battles, duties, exits, legal_moves, markers, modifiers, stacking
from rulec.engine.decisions import HANDLERS
from rulec.engine.frames import Moving
from rulec.engine.movement import reachable
from rulec.engine.position import Position
from rulec.engine.reach import leave_zoc, step_costs, unit_reach
from rulec.engine.statuses import ELIMINATED, EXITED, ON_MAP, PENDING, UNUSED
from rulec.runtime.model import ORDINARY


def why_illegal(state: Position, action: Action) -> tuple[str, str | None]:
    """A message and the mechanic (a key of game.rule_refs) that forbids `action`."""
    if state.terminal:
        return "the game is over", None
    frame = state.pending
    if type(frame) is Moving and action.kind in (MOVE, EXIT) and action.unit == frame.unit and (
            action.hex is not None or action.kind == EXIT):
        return _why_not_move(state, action)  # the chosen unit's move, refused for the reason a move at once would be
    if frame is not None:
        return HANDLERS[type(frame)].why(state, frame, action)
    kind, phase = action.kind, state.phase
    if kind in (ROLL, RETREAT, ADVANCE, REMOVE, WITH, RESOLVE, CANCEL, LOSE):
        return f"no '{kind}' is due now ({phase.name})", None
    if kind == END:
        due = legal_moves.entries_due(state)
        if due:
            return (f"{', '.join(state.unit_name(u) for u in due)} must enter the map first: "
                    "reinforcements may not be held back", "reinforcement")
        left = placement.placements(state) if phase.kind == "placement" and placement.rules(state).all else []
        if left:
            names = ", ".join(state.unit_name(a.unit) for a in left if a.unit is not None)  # (each names one)
            return f"every unit must be placed before the {phase.name} ends: {names}", "placement"
        return duties.why_not_end(state) or ("this phase cannot end now", None)
    if kind in (MOVE, EXIT, DELAY):
        if phase.kind != "movement":
            return f"units move only in a movement phase, not in the {phase.name}", None
        return _why_not_move(state, action)
    if kind == ATTACK:
        if phase.kind != "combat":
            return f"attacks are made only in a combat phase, not in the {phase.name}", None
        return _why_not_attack(state, action)
    if kind == PLACE:
        return placement.why_not(state, action)
    return "not an action of this game", None

def _why_not_move(state: Position, action: Action) -> tuple[str, str | None]:
    uid = action.unit
    if uid is None:  # (every move, exit and delay names its unit)
        return f"{action.unit} is not a unit of the phasing side", None
    unit = state._units.get(uid)
    name = state.tables.short_name.get(uid, uid)
    if unit is None or unit.side != state.phase.side:
        return f"{name} is not a unit of the phasing side", None
    where = state.where[uid]
    if where == EXITED:
        return f"{name} has left the map and never returns", "exit"
    if where in (ELIMINATED, UNUSED):
        return f"{name} is not in play", None
    if state.phase.movers is not None and uid not in state._movers:
        return f"{name} may not move in the {state.phase.name}: only {state.phase.movers.source} move in it", None
    if uid in state.moved:
        return f"{name} has already moved this phase", "one_move"
    refused = markers.refusal(state, uid, "move")
    if refused is not None:
        return refused
    if where == PENDING and not arrivals.arrives_now(state, uid):
        return f"{name} is not due to arrive now (turn {state.due.get(uid)})", "reinforcement"
    if action.kind == DELAY:
        return f"{name} may not be delayed", "delay"
    if where == ON_MAP and uid in state.locked:
        if not unit_reach(state, uid).destinations:
            return f"{name} began the phase in an enemy zone of control and may not leave it", "zoc_locked"
        leave = leave_zoc(state, unit)
        if action.kind == MOVE and action.hex not in unit_reach(state, uid).destinations and leave is not None:
            free = "" if leave.into_zoc else ", into a hex free of enemy control"
            return (f"{name} began the phase in an enemy zone of control: it may leave it only with its first step "
                    f"costing {leave.cost} MP more{free}", "withdrawal")
    reach = unit_reach(state, uid)
    ways = state.phase.modes
    if ways is not None and ORDINARY not in ways and where == ON_MAP and action.kind != DELAY and (
            action.kind == EXIT or action.hex not in reach.destinations):
        named = " or ".join(state.game.modes[w].name if w in state.game.modes else w for w in ways)
        return f"units move only by {named} in the {state.phase.name}: {name} cannot get there that way", None
    if action.kind == MOVE and action.hex is None:
        return f"{name} has no hex it may move to now", "movement_allowance"
    if action.kind == EXIT:
        if not state.game.movement.exit_map:
            return "units may not leave the map", "exit"
        if action.edge in unit_reach(state, uid).exits and not exits.may_exit(state, uid, action.edge):
            return f"{name} may not leave the map by the {action.edge} edge (movement {{ may_exit }})", "exit"
        return f"{name} cannot reach the {action.edge} edge with MP left to leave the map", "exit_cost"
    h = action.hex
    assert h is not None  # a move's second step (a first step, an exit and a delay are answered above)
    if where == ON_MAP and h == state.pos[uid]:
        return (f"{name} is already in {h}: a move must end in another hex (a unit that stays where it is "
                "simply does not move)", None)
    if h in state._enemy_occupied(unit.side):
        return f"{h} holds an enemy unit", "enemy_occupied"
    if h in reach.destinations and not legal_moves.may_end_move(state, uid, h):
        return f"{name} may not end its move in {h}: the game's may_end_move does not hold there", "end_move"
    if h in reach.destinations:
        return f"{name} may not end its move stacked in {h}", "stacking"
    if where == PENDING and unit.arrives and unit.arrives.placement == "anywhere":
        return f"{name} must be placed on an empty hex of {', '.join(unit.arrives.terrain) or 'any terrain'}", "placement"
    zoc = state.enemy_zoc(unit.side)
    if (where == ON_MAP and not state.game.movement.zoc_to_zoc and state.game.movement.zoc != "none"
            and state.pos[uid] in zoc and h in zoc and h in state.tables.neighbours[state.pos[uid]]):
        exception = " (but as leave_zoc allows)" if state.game.movement.leave_zoc is not None else ""
        return (f"{name} may not move directly from one enemy-controlled hex ({state.pos[uid]}) to another "
                f"({h}){exception}", "zoc_stop")
    if where == ON_MAP:
        zoc_free = reachable(state.tables, allowance=modifiers.allowance(state, uid), start=state.pos[uid],
                             enemy_occupied=state._enemy_occupied(unit.side), enemy_zoc=frozenset(), costs=step_costs(state, unit))
        if h in zoc_free.destinations:
            return f"{name} must stop on entering an enemy zone of control before {h}", "zoc_stop"
    return f"{name} cannot reach {h} within its movement allowance of {modifiers.allowance(state, uid)}", "movement_allowance"

def _why_not_attack(state: Position, action: Action) -> tuple[str, str | None]:
    assert action.hex is not None  # `attack HEX`
    occupants = stacking.occupants(state)
    defenders = occupants.get(action.hex, [])
    if not defenders or state._units[defenders[0]].side == state.phase.side:
        return f"{action.hex} holds no enemy unit", "attack_target"
    if all(u in state.defended for u in defenders):
        return f"the units in {action.hex} have already been attacked this phase", "one_defence"
    for uid in action.units:
        refused = battles.why_not_attack(state, uid, (action.hex,))
        if refused is not None:
            return refused
    if len(set(action.units)) != len(action.units):
        return "a unit is named twice", None
    if not action.units:
        refused = battles.why_no_one_joins(state, action.hex)
        if refused is not None:
            return refused
        if battles.ranged_units(state):
            return (f"no unit that may still attack this phase is next to {action.hex}, nor in range of it "
                    "with a clear line of sight", "adjacent")
        return f"no unit that may still attack this phase is next to {action.hex}", "adjacent"
    return (f"a battle is declared step by step: 'attack {action.hex}', then 'with UNIT' for each attacker, then "
            f"'resolve' (GameState.parse_orders reads the one-line form)", "declare_attack")
