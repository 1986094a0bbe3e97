"""Setting up a game: a new game's start (or a scenario's), and positions arranged for tests and puzzles.

`new_game` (state.py) checks the options and scenario chosen (`check_choice`) and fills a new
GameState with `set_up`: the units in play with those options and that scenario (scenarios.py),
each on its set-up hex or waiting for its turn of arrival, variant counters an option chooses at
random with the game's seed, who holds each objective, the VP given at set-up (options, variants,
'selected' awards, a scenario's); then the first phase is entered (phases.py). `arrange` copies a
state with only some units in play, at the start of a phase of a turn.
"""

from __future__ import annotations

import random

from rulec.diagnostics import did_you_mean
from rulec.engine import arrivals, history, modifiers, phases, scenarios, steps, victory
from rulec.engine.marker_table import MarkerTable
from rulec.engine.position import P, Position, holders_changed
from rulec.engine.records import History, Relocated
from rulec.engine.statuses import ON_MAP, PENDING, UNUSED
from rulec.engine.tables import tables_for
from rulec.engine.victory import award_amount
from rulec.runtime.model import Game


class UnknownOption(ValueError):
    """An option the game does not define."""


def check_choice(game: Game, options: tuple[str, ...], scenario: str | None) -> None:
    """Raise UnknownOption for an option the game does not define, or scenarios.ScenarioError for an unknown
    scenario or options that may not be chosen together."""
    for option in options:
        if option not in game.options:
            hint = did_you_mean(option, list(game.options))
            raise UnknownOption(f"'{game.info.id}' has no option '{option}'" + (f"; {hint}" if hint else ""))
    scenarios.check_choice(game, scenario, options)


def set_up(state: Position, game: Game, options: tuple[str, ...], seed: int, scenario: str | None = None) -> None:
    """Fill a new state with the game's start (or `scenario`'s) and enter its first phase: the units in play
    and where they stand or when they arrive, variant counters chosen, the VP given at set-up."""
    state.game, state.options, state.seed = game, options, seed
    state.tables = tables_for(game)
    state.players = tuple(game.sides)
    added = {uid for o in options for uid in game.options[o].adds}
    in_play = scenarios.in_play(game, scenario, added)
    # The modifiers in play with these options: changing strength, allowance; of battles (engine/modifiers.py).
    state._modifiers = modifiers.in_play(game, options)
    state._folded_traces = {}  # (trace, side) -> the hexes its map conditions let through (traces.py); shared by clones
    state._for_the_game = {}  # answers that hold in every position (stacking's uncounted units); shared by clones
    state.vp = {side: 0 for side in game.sides}
    state.variables = {vid: variable.initial for vid, variable in game.variables.items()}
    state.vp_log = []
    state.turn = 1
    state.phase_index = 0
    state.terminal = False
    state.decided = None  # the result of a sudden death that ended the game
    state._played = ()
    state._history = []
    state.forget()

    # Variant counters an option chose at set-up: unit -> the variant it plays as (see choose_variants).
    state.variants = choose_variants(game, in_play, options, seed)
    # The units as they start with this scenario and options (their set-up and arrival; scenarios.py); shared by clones.
    state._setup_units = scenarios.units_for(game, scenario, options)
    state._units = {uid: steps.side_after(state, uid, 0) if uid in state.variants else unit
                                    for uid, unit in state._setup_units.items()}
    state.lost_steps = {}  # units flipped to a reduced side -> steps lost (steps.py)
    for uid in in_play:  # units that start (or will arrive) on a reduced side: unit { steps_lost }
        if state._setup_units[uid].steps_lost:
            steps.set_side(state, uid, state._setup_units[uid].steps_lost)

    state.pos = {}
    state.last_relocated = Relocated(None, None, True)  # (this position's own: see records.Relocated)
    state.where = {}
    state.due = {}
    for uid, unit in state._setup_units.items():
        if uid not in in_play:
            state.where[uid] = UNUSED
        elif unit.setup is not None:
            state.where[uid], state.pos[uid] = ON_MAP, unit.setup
        else:
            state.where[uid] = PENDING
            state.due[uid] = unit.arrives.turn if unit.arrives else None
    state._able_to_attack = {}  # side -> its units with the strength and type to attack
    state.exited_from = {}  # units that left the map -> the hex they left it from
    state.holders = scenarios.first_holders(game, scenario)
    state.granted = {}
    for uid, h in state.pos.items():
        if h in state.tables.objective_set:
            state.holders[h] = game.units[uid].side
    holders_changed(state)
    state.moved = set()
    state.locked = frozenset()
    state._movers = ()  # (none before the first movement phase begins: phases.begin_phase)
    state.markers = MarkerTable()  # markers on units and hexes (markers.py)
    state.past = History()  # what each unit did, by phase (history.py)
    state.past.owner = id(state)
    state.attacked = set()
    state.defended = set()
    state._phase_attackers = None  # a combat phase's `attackers` (procedures.py)
    state._stack = []  # pending decisions, the next one last (see frames.py)
    state._combat_began = None  # (turn, phase index) the last combat phase began
    state.last_battle = None
    state._looking_ahead = False

    scenarios.prepare(state, scenario)  # its start, length, deployment and VP; free set-up units held back
    # VP given when the game is set up are logged under the phase "setup".
    for option in options:
        for side, amount in game.options[option].vp.items():
            victory.score(state, side, amount, f"option:{option}", phase="setup")
    for option in options:
        choice = game.options[option].choose_variant
        if choice is not None and choice.vp_to:
            for uid, name in state.variants.items():
                variant = game.units[uid].variant(name)
                if name == choice.variant and variant is not None and variant.vp:
                    victory.score(state, choice.vp_to, variant.vp, f"{name}:{uid}", unit=uid, phase="setup")
    for award in game.awards:
        if award.trigger.kind == "selected":
            victory.score(state, award.side, award_amount(state, award, None), award.id, phase="setup")
    phases.enter_phase(state)


def choose_variants(game: Game, in_play: list[str], options: tuple[str, ...], seed: int) -> dict[str, str]:
    """Units an option puts in play as one of their variants (`choose_variant`), chosen at random with `seed`:
    of the units in play with that variant, in file order, a random count within the option's range."""
    chosen: dict[str, str] = {}
    rng = random.Random(seed)
    for option in options:
        choice = game.options[option].choose_variant
        if choice is None:
            continue
        candidates = [uid for uid in in_play if uid not in chosen and game.units[uid].variant(choice.variant)]
        low, high = choice.count
        count = rng.randint(min(low, len(candidates)), min(high, len(candidates)))
        picked = set(rng.sample(candidates, count))
        chosen.update((uid, choice.variant) for uid in candidates if uid in picked)
    return chosen


def arrange(state: P, units: dict[str, str], *, turn: int | None = None, phase: str | None = None) -> P:
    """A copy with only `units` in play, at the start of `phase` of `turn` (no award scored for it).

    Each value is a hex, or 'pending' for a unit waiting to arrive (due this turn, or the next if the phase it
    enters in has passed; any turn if it arrives when its owner chooses); every other unit is set
    aside. 'Holds' objectives go to the side of a unit placed on them. For tests,
    puzzles and scenario editors.
    """
    other = state.clone()
    if turn is not None:
        other.turn = turn
    if phase is not None:
        ids = [p.id for p in state.game.sequence]
        if phase not in ids:
            raise ValueError(f"no phase '{phase}'; phases are {', '.join(ids)}")
        other.phase_index = ids.index(phase)
    other.pos, other.due, other.holders, other.granted, other.exited_from = {}, {}, {}, {}, {}
    other.where = {uid: UNUSED for uid in state.game.units}
    for uid, place in units.items():
        if uid not in state.game.units:
            raise ValueError(f"no unit '{uid}'")
        if place == PENDING:
            other.where[uid] = PENDING
            arrival = state._units[uid].arrives
            other.due[uid] = None if arrival is not None and arrival.turn is None else \
                arrivals.first_chance(other, uid, other.turn, other.turn, other.phase_index)
        else:
            other.where[uid], other.pos[uid] = ON_MAP, place
            if place in state.tables.objective_set:
                other.holders[place] = state._units[uid].side
    holders_changed(other)
    other.terminal, other._stack, other.last_battle, other._combat_began = False, [], None, None
    other.decided, other._prelude = None, ()
    other.moved, other.attacked, other.defended = set(), set(), set()
    other.markers, other.past = MarkerTable(), History()
    other.past.owner = id(other)
    other.forget()
    other.last_relocated = Relocated(None, other.last_relocated, True)  # every unit placed anew
    history.phase_began(other)
    phases.begin_phase(other)
    return other
