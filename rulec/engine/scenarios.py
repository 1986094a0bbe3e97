"""Scenarios and the choice of options, at set-up.

A scenario (model.Scenario) starts the game at a turn and phase of its own, lasts to a
turn of its own, adds optional units and removes others, gives VP, and may first play
placement phases (its deployment, in the order listed) before its start phase. Its
`setup` and `arrivals` (and those of the options chosen) say where units start and how
they arrive instead of their own (`units_for`): a scenario's entry for a unit wins over
an option's, and of two options the one later in the game file wins. A unit due before
the start turn arrives on it, or on the turn after where its phase of the start turn comes
before the start phase (docs/rulings.md). Units set up `free` wait off the map, never
arriving by movement, until a placement phase places them. The hexes whose holder is tracked start
held by `movement { first_holder }`, then by the scenario's `holders`, then by the side
of a unit set up in them (`first_holders`). Options that exclude each other, or that the
scenario does not allow, are refused before the game starts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from rulec.diagnostics import did_you_mean
from rulec.engine import arrivals, victory
from rulec.engine.position import Position
from rulec.engine.statuses import NEVER, PENDING  # NEVER: scenarios.NEVER to its readers
from rulec.runtime.model import Arrival, Game, Hex, Option, Scenario, Unit


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


def compatible_options(game: Game, wanted: Iterable[str], scenario: str | None = None) -> tuple[str, ...]:
    """Of the options `wanted`, in order, those that can be played together (see check_choice): each one the scenario
    (or the game's own scenario when none is given) allows and that excludes none kept before it."""
    scenario = scenario or game.info.scenario
    allowed = game.scenarios[scenario].options if scenario in game.scenarios else None
    kept: list[str] = []
    for option in wanted:
        if (allowed is None or option in allowed) and not any(
                option in game.options[other].excludes or other in game.options[option].excludes for other in kept):
            kept.append(option)
    return tuple(kept)


def in_play(game: Game, scenario: str | None, added: set[str]) -> list[str]:
    """The units in play: the regular ones and those `added` by options, with the scenario's additions and removals."""
    chosen = game.scenarios[scenario] if scenario else None
    if chosen is not None:
        added = added | set(chosen.add)
    removed = set(chosen.remove) if chosen is not None else set()
    return [uid for uid, u in game.units.items() if (not u.optional or uid in added) and uid not in removed]


def units_for(game: Game, scenario: str | None, options: Iterable[str]) -> dict[str, Unit]:
    """The units as they start with this scenario and options: their set-up and arrival overridden (the game's own
    dict when nothing is)."""
    chosen = set(options)
    blocks: list[Option | Scenario] = [o for oid, o in game.options.items() if oid in chosen]  # in file order: a later option wins
    if scenario is not None:
        blocks.append(game.scenarios[scenario])  # last: the scenario wins
    changed: dict[str, Unit] = {}
    for block in blocks:
        for uid, where in block.setup.items():
            changed[uid] = _starting(game.units[uid], where, None)
        for uid, arrival in block.arrivals.items():
            changed[uid] = _starting(game.units[uid], None, arrival)
    if not changed:
        return game.units
    return {uid: changed.get(uid, unit) for uid, unit in game.units.items()}


def _starting(unit: Unit, setup: Hex | None, arrival: Arrival | None) -> Unit:
    """`unit` set up in `setup`, or arriving by `arrival`, or (neither) set up free by a placement phase."""
    return replace(unit, setup=setup, arrives=arrival, placed=setup is None and arrival is None)


def first_holders(game: Game, scenario: str | None) -> dict[Hex, str]:
    """Who holds the tracked hexes as the game starts, before the units set up in them are counted."""
    movement = game.movement
    holders = {h: movement.first_holder for h in movement.control_of} if movement.first_holder else {}
    if scenario is not None:
        for side, hexes in game.scenarios[scenario].holders.items():
            holders.update(dict.fromkeys(hexes, side))
    return holders


def prepare(state: Position, scenario: str | None) -> None:
    """Place the scenario's start (turn, phase, length, deployment) and its VP; hold free set-up units back."""
    game = state.game
    state.scenario = scenario
    state.last_turn = game.info.turns
    state._prelude = ()
    state.points_left = None
    for uid, unit in state._setup_units.items():
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
    for uid, turn in state.due.items():
        if turn is None or turn <= NEVER:  # (any turn, or waiting for a placement phase)
            continue
        state.due[uid] = arrivals.first_chance(state, uid, turn, chosen.start_turn, start)  # due before the start:
        # on it, or the turn after where its phase of that turn comes before the start phase (never played)
    for side, amount in chosen.vp.items():
        victory.score(state, side, amount, f"scenario:{scenario}", phase="setup")
