"""Scenarios and the choice of options, at set-up.

A scenario (model.Scenario) starts the game at a turn and phase of its own, lasts to a
turn of its own, adds optional units and removes others, gives VP, and may first play
placement phases (its deployment, in the order listed) before its start phase, and
reschedule reinforcements (`arrivals`). Units
written `setup = free` wait off the map, never arriving by movement, until a placement
phase places them. Options that exclude each other, or that the scenario does not
allow, are refused before the game starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from rulec.diagnostics import did_you_mean
from rulec.engine.statuses import PENDING
from rulec.runtime.model import Game

if TYPE_CHECKING:
    from rulec.engine.state import GameState

NEVER = 0  # the turn a unit set up by a placement phase is due by movement: none, turns start at 1


class ScenarioError(ValueError):
    """A scenario the game does not define, or options it may not be played with."""


def check_choice(game: Game, scenario: str | None, options: Iterable[str]) -> None:
    """Raise ScenarioError for an unknown scenario, an option it does not allow, or options that exclude each other."""
    options = tuple(options)
    if scenario is not None:
        if scenario not in game.scenarios:
            hint = did_you_mean(scenario, list(game.scenarios))
            known = ", ".join(game.scenarios) or "none"
            raise ScenarioError(f"'{game.info.id}' has no scenario '{scenario}'" + (f"; {hint}" if hint else f"; scenarios: {known}"))
        allowed = game.scenarios[scenario].options
        for option in options:
            if allowed is not None and option not in allowed:
                raise ScenarioError(f"option '{option}' is not played with scenario '{scenario}'"
                                    + (f"; its options are {', '.join(allowed)}" if allowed else "; it has no options"))
    for option in options:
        for other in game.options[option].excludes:
            if other in options:
                raise ScenarioError(f"options '{option}' and '{other}' exclude each other: choose one")


def in_play(game: Game, scenario: str | None, added: set[str]) -> list[str]:
    """The units in play: the regular ones and those `added` by options, with the scenario's additions and removals."""
    chosen = game.scenarios[scenario] if scenario else None
    if chosen is not None:
        added = added | set(chosen.add)
    removed = set(chosen.remove) if chosen is not None else set()
    return [uid for uid, u in game.units.items() if (not u.optional or uid in added) and uid not in removed]


def prepare(state: "GameState", scenario: str | None) -> None:
    """Place the scenario's start (turn, phase, length, deployment) and its VP; hold free set-up units back."""
    game = state.game
    state.scenario = scenario
    state.last_turn = game.info.turns
    state._prelude = ()
    state.points_left = None
    for uid, unit in game.units.items():
        if unit.placed and state.where[uid] == PENDING:
            state.due[uid] = NEVER
    if scenario is None:
        return
    chosen = game.scenarios[scenario]
    ids = [p.id for p in game.sequence]
    state.turn = chosen.start_turn
    start = ids.index(chosen.start_phase) if chosen.start_phase else 0
    if chosen.turns is not None:
        state.last_turn = chosen.turns
    order = [ids.index(p) for p in chosen.deployment] + [start]
    state.phase_index, state._prelude = order[0], tuple(order[1:])
    for uid, turn in chosen.arrivals.items():
        if state.where[uid] == PENDING:
            state.due[uid] = max(turn, chosen.start_turn)
    for side, amount in chosen.vp.items():
        state._score(side, amount, f"scenario:{scenario}", phase="setup")
