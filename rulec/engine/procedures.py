"""The procedures a phase follows, read from the game file: predicates and hooks.

A phase is one of a closed set of procedures (model.PhaseKind): movement and combat
(the phasing side moves, then fights), placement (placement.py: units placed from a pool
one at a time) and automatic (no decision: its hooks do its work, e.g. weather, VP,
recovery). Every phase may have a `when` (skipped when it fails as the phase comes up),
hooks on phase_start and phase_end, and movement and combat phases a `movers` or
`attackers` predicate, a set of units evaluated once at the phase start.

The game's own hooks (sequence { on unit_eliminated | unit_exited | battle_resolved |
game_end }) run from state.py and effects.py where those events happen. New hook effects
are entries in EFFECTS: a function of the state, the effect, the evaluation context and
the name the VP log gives the hook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulec.engine.context import EngineContext
from rulec.engine.statuses import ON_MAP, PENDING
from rulec.runtime.model import Hook, HookEffect, Phase, Unit

if TYPE_CHECKING:
    from rulec.engine.state import GameState


def comes_up(state: "GameState") -> bool:
    """Does the current phase take place now (its `when`, if any, holds; a scenario's deployment always does)?"""
    if state._prelude:  # a deployment phase of a scenario, played before its start phase (scenarios.py)
        return True
    when = state.phase.when
    return when is None or bool(when(EngineContext(state)))


def movers(state: "GameState", phase: Phase) -> tuple[str, ...]:
    """The units that may move in a movement phase: the side's on the map or waiting to arrive, narrowed by `movers`."""
    units = tuple(u for u in state.tables.units_of.get(phase.side, ()) if state.where[u] in (ON_MAP, PENDING))
    if phase.movers is None:
        return units
    allowed = {unit.id for unit in phase.movers(EngineContext(state))}
    return tuple(u for u in units if u in allowed)


def attackers(state: "GameState", phase: Phase) -> frozenset[str] | None:
    """The units `attackers` lets attack this combat phase (None: every unit able to)."""
    if phase.attackers is None:
        return None
    return frozenset(unit.id for unit in phase.attackers(EngineContext(state)))


def run_hooks(state: "GameState", event: str) -> None:
    """Carry out the current phase's hooks on `event`, in file order."""
    phase = state.phase
    if phase.hooks:  # most phases have none: nothing to build
        _run(state, phase.hooks, event, None, f"{phase.id}:{event}")


def run_game_hooks(state: "GameState", event: str, unit: Unit | None = None) -> None:
    """Carry out the game's own hooks on `event` (about `unit`, for a unit's elimination or exit)."""
    if state.game.hooks:
        _run(state, state.game.hooks, event, unit, event)


def _run(state: "GameState", hooks: tuple[Hook, ...], event: str, unit: Unit | None, source: str) -> None:
    """Each hook on `event` whose `when` holds; `source` names it in the VP log."""
    for hook in hooks:
        if hook.event != event:
            continue
        context = EngineContext(state, unit)
        if hook.when is not None and not hook.when(context):
            continue
        for effect in hook.effects:
            EFFECTS[effect.kind](state, effect, context, source)
            context = EngineContext(state, unit)  # the next effect sees what this one did


def _score(state: "GameState", effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.side is not None and effect.amount is not None, "score(side, amount): the checker gives both"
    amount = int(effect.amount(context))
    if amount:
        unit = context.unit
        state._score(effect.side, amount, source, unit=unit.id if unit is not None else None)


def _eliminate(state: "GameState", effect: HookEffect, context: EngineContext, source: str) -> None:
    assert effect.units is not None, "eliminate(units): the checker gives them"
    for unit in list(effect.units(context)):
        if state.where.get(unit.id) == ON_MAP:
            state._eliminate(unit.id)


EFFECTS: dict[str, Callable[["GameState", HookEffect, EngineContext, str], None]] = {
    "score": _score,
    "eliminate": _eliminate,
}
