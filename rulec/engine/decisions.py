"""What each kind of pending decision (a frame of the decision stack) offers and does.

`HANDLERS[type(frame)]` gives the functions of the module that owns that kind of
decision: `legal(state, frame)` the actions, `apply(state, frame, action)` carries
one out, `settle(state, frame)` does what the rules do alone (True: something was
done, look at the stack again; False: a player must decide), `why(state, frame)`
explains why `action` is not one of them, and `decider(state, frame)` names the side
that decides (None: chance).
"""

from __future__ import annotations

from typing import Any, Callable, Final, NamedTuple

from rulec.engine import advances, battles, changes, effects, legal_moves, phases, placement, retreats, stacking
from rulec.engine.actions import Action
from rulec.engine.frames import Advance, Declare, Declared, Effects, Loss, Moving, Placing, Remove, Retreat, Roll
from rulec.engine.position import Position


class Handler(NamedTuple):
    legal: Callable[[Position, Any], list[Action]]
    apply: Callable[[Position, Any, Action], None]
    settle: Callable[[Position, Any], bool]
    why: Callable[[Position, Any, Action], tuple[str, str | None]]
    decider: Callable[[Position, Any], str | None]


def _waits(state: Position, frame: Any) -> bool:
    return False


def _nothing(state: Position, frame: Any) -> list[Action]:
    return []


def _never(state: Position, frame: Any, action: Action) -> None:
    raise AssertionError(f"{type(frame).__name__} takes no action")


# ------------------------------------------------------------ over-stacked hexes
def _remove_legal(state: Position, frame: Remove) -> list[Action]:
    return [Action.remove(uid) for uid in stacking.overstacked_units(state)]


def _remove_apply(state: Position, frame: Remove, action: Action) -> None:
    assert action.unit is not None  # `remove UNIT`
    changes.eliminate(state, action.unit)
    if not stacking.overstacked_units(state):
        state._stack.pop()
        phases.finish_phase(state)


def _remove_why(state: Position, frame: Remove, action: Action) -> tuple[str, str | None]:
    return f"{frame.side} must first remove units from over-stacked hexes", "overstack"


# ------------------------------------------------------------ a move's second step
def _moving_legal(state: Position, frame: Moving) -> list[Action]:
    return [*legal_moves.moves_of(state, frame.unit), Action.cancel()]


def _moving_apply(state: Position, frame: Moving, action: Action) -> None:
    raise AssertionError("GameState.apply_action carries out a move's second step itself, as it does a move at once")


def _moving_why(state: Position, frame: Moving, action: Action) -> tuple[str, str | None]:
    name = state.tables.short_name.get(frame.unit, frame.unit)
    return f"where {name} goes is due: 'move {name} HEX' (or 'exit {name} EDGE'), or 'cancel' to choose another unit", None


HANDLERS: Final[dict[type, Handler]] = {
    Declare: Handler(battles.declare_legal, battles.declare_apply, _waits, battles.declare_why, lambda s, f: f.side),
    Declared: Handler(battles.declared_legal, battles.declared_apply, _waits, battles.declared_why,
                      lambda s, f: f.side),
    Roll: Handler(battles.roll_legal, battles.roll_apply, _waits, battles.roll_why, lambda s, f: None),
    Effects: Handler(_nothing, _never, effects.effects_settle, lambda s, f, a: ("a battle's result is being carried out", None),
                     lambda s, f: f.battle.side),
    Retreat: Handler(retreats.retreat_legal, retreats.retreat_apply, retreats.retreat_settle, retreats.retreat_why,
                     lambda s, f: f.chooser),
    Loss: Handler(effects.loss_legal, effects.loss_apply, effects.loss_settle, effects.loss_why, lambda s, f: f.side),
    Advance: Handler(advances.advance_legal, advances.advance_apply, advances.advance_settle, advances.advance_why,
                     lambda s, f: f.side),
    Remove: Handler(_remove_legal, _remove_apply, _waits, _remove_why, lambda s, f: f.side),
    Placing: Handler(placement.placing_legal, placement.placing_apply, _waits, placement.placing_why, lambda s, f: f.side),
    Moving: Handler(_moving_legal, _moving_apply, _waits, _moving_why, lambda s, f: f.side),
}
