"""The procedures a phase follows, read from the game file: predicates and hooks.

A phase is one of a closed set of procedures (model.PhaseKind): movement and combat
(the phasing side moves, then fights), placement (placement.py: units placed from a pool
one at a time) and automatic (no decision: its hooks do its work, e.g. weather, VP,
recovery). Every phase may have a `when` (skipped when it fails as the phase comes up),
hooks on phase_start and phase_end, and movement and combat phases a `movers` or
`attackers` predicate, a set of units evaluated once at the phase start.

The game's own hooks (sequence { on unit_eliminated | unit_exited | battle_resolved |
game_end }) run where those events happen: changes.py, effects.py, phases.py. New hook effects
are entries in EFFECTS: a function of the state, the effect, the evaluation context and
the name the VP log gives the hook. `mark(UNITS, MARKER)` and `unmark(UNITS, MARKER)` put a
marker on the units still on the map (or on hexes, for a marker on hexes) or take it off;
the expressions of an `on battle_resolved` hook see the battle just resolved (`attackers`,
`defenders`: those still on the map; `attacker_hexes`, `defender_hexes`).
"""

from __future__ import annotations

from typing import Callable, Final

from rulec.engine import changes, joining, markers, steps, victory
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.engine.statuses import ON_MAP, PENDING
from rulec.runtime.model import Hook, HookEffect, Phase, Unit


def comes_up(state: Position) -> bool:
    """Does the current phase take place now (its `when`, if any, holds; a scenario's deployment always does)?"""
    if state._prelude:  # a deployment phase of a scenario, played before its start phase (scenarios.py)
        return True
    when = state.phase.when
    return when is None or bool(when(EngineContext(state)))


def movers(state: Position, phase: Phase) -> tuple[str, ...]:
    """The units that may move in a movement phase: the side's on the map or waiting to arrive, narrowed by `movers`."""
    side_units = state.tables.units_of.get(phase.side, ()) if phase.side is not None else ()
    units = tuple(u for u in side_units if state.where[u] in (ON_MAP, PENDING))
    if phase.movers is None:
        return units
    allowed = {unit.id for unit in phase.movers(EngineContext(state))}
    return tuple(u for u in units if u in allowed)


def attackers(state: Position, phase: Phase) -> frozenset[str] | None:
    """The units `attackers` lets attack this combat phase (None: every unit able to)."""
    if phase.attackers is None:
        return None
    return frozenset(unit.id for unit in phase.attackers(EngineContext(state)))


def run_hooks(state: Position, event: str) -> None:
    """Carry out the current phase's hooks on `event`, in file order."""
    phase = state.phase
    if phase.hooks:  # most phases have none: nothing to build
        _run(state, phase.hooks, event, None, f"{phase.id}:{event}")


def run_game_hooks(state: Position, event: str, unit: Unit | None = None) -> None:
    """Carry out the game's own hooks on `event` (about `unit`, for a unit's elimination or exit; about the
    battle just resolved, state.last_battle, for battle_resolved)."""
    if state.game.hooks:
        context_of = _battle_context if event == "battle_resolved" else EngineContext
        _run(state, state.game.hooks, event, unit, event, context_of)


def _battle_context(state: Position, unit: Unit | None = None) -> EngineContext:
    """What a battle_resolved hook sees: the battle's attackers and defenders still on the map, the hexes they
    fought from and in."""
    report = state.last_battle
    battle = report.battle if report is not None else None
    if battle is None:
        return EngineContext(state, unit)
    on_map = state.where
    return joining.battle_context(state, battle.side, [u for u in battle.attackers if on_map[u] == ON_MAP],
                                  battle.attacker_hexes, [u for u in battle.defenders if on_map[u] == ON_MAP],
                                  battle.targets, unit)


def _run(state: Position, hooks: tuple[Hook, ...], event: str, unit: Unit | None, source: str,
         context_of: Callable[..., EngineContext] = EngineContext) -> None:
    """Each hook on `event` whose `when` holds; `source` names it in the VP log."""
    for hook in hooks:
        if hook.event != event:
            continue
        context = context_of(state, unit)
        if hook.when is not None and not hook.when(context):
            continue
        for effect in hook.effects:
            EFFECTS[effect.kind](state, effect, context, source)
            context = context_of(state, unit)  # the next effect sees what this one did


def _score(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.side is not None and effect.amount is not None, "score(side, amount): the checker gives both"
    amount = int(effect.amount(context))
    if amount:
        unit = context.unit
        victory.score(state, effect.side, amount, source, unit=unit.id if unit is not None else None)
        state._cache = {}  # (what read the VP: an effect says what it changed)


def _eliminate(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.units is not None, "eliminate(units): the checker gives them"
    _each_on_map(state, effect, context, changes.eliminate)


def _each_on_map(state: Position, effect: HookEffect, context: EngineContext, change: Callable) -> None:
    """`change(state, uid)` for each unit of the effect's set that is still on the map when its turn comes."""
    assert effect.units is not None, "the checker gives them"
    for unit in list(effect.units(context)):
        if state.where.get(unit.id) == ON_MAP:
            change(state, unit.id)


def _mark(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    _change_markers(state, effect, context, markers.mark_each)


def _unmark(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.marker is not None, "unmark(units, marker): the checker gives it"
    if markers.carried(state, effect.marker):  # (else nothing to take off: the set it names need not be found)
        _change_markers(state, effect, context, markers.unmark_each)


def _change_markers(state: Position, effect: HookEffect, context: EngineContext, change: Callable) -> None:
    """mark or unmark (markers.mark_each, unmark_each): the units of the set still on the map, or the hexes of the
    set (a marker on hexes)."""
    assert effect.units is not None and effect.marker is not None, "mark(units, marker): the checker gives both"
    if state.game.markers[effect.marker].on == "hex":
        targets = list(effect.units(context))
    else:
        where = state.where
        targets = [unit.id for unit in effect.units(context) if where.get(unit.id) == ON_MAP]
    change(state, targets, effect.marker)


def _set(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.variable is not None and effect.amount is not None, "set(variable, value): the checker gives both"
    state.variables[effect.variable] = effect.amount(context)
    state._cache = {}  # (what read the variable: an effect says what it changed)


def _add(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.variable is not None and effect.amount is not None, "add(variable, amount): the checker gives both"
    state.variables[effect.variable] += effect.amount(context)
    state._cache = {}  # (what read the variable)


def _lose_step(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.units is not None, "lose_step(units): the checker gives them"
    _each_on_map(state, effect, context, steps.lose_step)


def _restore_step(state: Position, effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.units is not None, "restore_step(units): the checker gives them"
    for unit in list(effect.units(context)):
        steps.restore_step(state, unit.id)  # a unit off the map or with no step lost is left as it is


EFFECTS: Final[dict[str, Callable[[Position, HookEffect, EngineContext, str], None]]] = {
    "lose_step": _lose_step,
    "restore_step": _restore_step,
    "set": _set,
    "add": _add,
    "score": _score,
    "eliminate": _eliminate,
    "mark": _mark,
    "unmark": _unmark,
}
