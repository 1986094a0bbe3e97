"""The aids of a battle system (a game with `battle` and no map), shaped for the template.

The modifier matrix, unit kinds and qualities, side modifiers, the outcome
table, the army-state table and the procedure, all worded from the model's
BattleSystem so the printed sheet is the one the resolver uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulec.aids.environment import humanize, signed
from rulec.aids.words import in_words
from rulec.runtime.model import ArmyState, BattleModifier, BattleSystem, Game, OutcomeBand


def ratio(value: tuple[int, int]) -> str:
    return f"{value[0]}:{value[1]}"


@dataclass(frozen=True)
class OutcomeRow:
    band: OutcomeBand
    condition: str


@dataclass(frozen=True)
class ModifierRow:
    modifier: BattleModifier
    applies: str
    value: str
    reserves: str


@dataclass(frozen=True)
class StateRow:
    state: ArmyState
    condition: str  # the `when` in words


@dataclass(frozen=True)
class BattleSheet:
    system: BattleSystem
    categories: tuple[tuple[str, str], ...]  # (id, printed name)
    matrix: tuple[tuple[str, tuple[str, ...]], ...]  # row name -> signed modifier per column
    qualities: tuple[tuple[str, str], ...]  # (name, signed modifier)
    kinds: tuple[tuple[str, str, str, str], ...]  # (name, category, quality, notes)
    modifiers: tuple[ModifierRow, ...]
    outcomes: tuple[OutcomeRow, ...]
    procedure: tuple[str, ...]
    states: tuple[StateRow, ...]


def state_rows(system: BattleSystem) -> tuple[StateRow, ...]:
    """The army-state table with each condition in words: `units` counts the army, each losing
    outcome counts the units that suffered it."""
    names = {"units": "all units"}
    names.update({band.id: f"{band.name.lower()} units" for band in system.outcomes if not band.even})
    return tuple(StateRow(state, in_words(state.when.source, names)) for state in system.army_states)


def outcome_rows(system: BattleSystem) -> tuple[OutcomeRow, ...]:
    rows = []
    previous = "1:1"
    for band in system.outcomes:
        if band.even:
            rows.append(OutcomeRow(band, "Scores equal"))
        elif band.below is None:
            rows.append(OutcomeRow(band, f"{previous} or more"))
        else:
            rows.append(OutcomeRow(band, f"Above 1:1, below {ratio(band.below)}" if previous == "1:1"
                                   else f"{previous} up to below {ratio(band.below)}"))
            previous = ratio(band.below)
    return tuple(rows)


def modifier_rows(game: Game, system: BattleSystem) -> tuple[ModifierRow, ...]:
    rows = []
    for modifier in system.modifiers.values():
        if modifier.sides:
            applies = "Always, for " + ", ".join(game.sides[s].name if s in game.sides else s for s in modifier.sides)
        elif modifier.id == system.ambush:
            applies = "The ambushing side"
        elif modifier.id == system.exhaustion:
            applies = "An exhausted side"
        else:
            applies = "When chosen for a battle"
        rows.append(ModifierRow(modifier, applies, signed(modifier.value), "Yes" if modifier.reserves else "No"))
    return tuple(rows)


def procedure(game: Game, system: BattleSystem) -> tuple[str, ...]:
    """The steps of one battle, worded from the system's settings."""
    names = {c: humanize(c) for c in system.categories}
    steps = []
    skirmish = system.skirmish
    steps.append(f"Skirmish (optional): each side puts {skirmish.line} unit(s) in the line and up to "
                 f"{skirmish.reserves} in reserve."
                 + (" If both sides commit their whole reserve, fight an open battle with the full armies."
                    if skirmish.escalate else ""))
    reserve = {"any": "any units", "distance_weapons": "only distance weapons", "none": "no units"}
    steps.append(f"Deploy: the larger side may put up to {system.double_up} units against one enemy unit and keep a "
                 f"reserve; the smaller side's reserve may hold {reserve[system.smaller_side_reserve]}."
                 + (" Distance weapons fill a reserve before other units." if system.distance_reserve_first else ""))
    for category, order in system.match_first.items():
        steps.append(f"Match: {names.get(category, category)} units meet enemy "
                     + ", then ".join(names.get(c, c) for c in order) + " first, then the rest.")
    floor = system.score_floor
    steps.append(f"Roll one die per unit and add the matrix, quality and side modifiers; a score below {floor} counts "
                 f"as {floor}." + (" A unit facing two enemies takes its "
                                  + ("worse" if system.pair_matrix == "least_favourable" else "better")
                                  + " matrix modifier."))
    if system.argument_values:
        steps.append("A matrix argument may give a side " + " or ".join(signed(v) for v in system.argument_values) + ".")
    steps.append(f"A unit fed in from reserve adds {signed(system.reserve_modifier)} to its die.")
    steps.append("Divide the higher score by the lower and read the outcome table; the loser's unit takes the "
                 "outcome and its casualty points.")
    steps.append("The side with more casualty points loses the battle"
                 + ("; equal casualty points: both sides count as winners." if system.drawn_battle == "both_as_winner"
                    else "; equal casualty points: both sides count as losers."))
    steps.append("Read each army's state from the army-state table.")
    return tuple(steps)


def battle_sheet(game: Game) -> BattleSheet:
    system = game.battle
    assert system is not None, "battle_sheet() needs a battle system"
    names = tuple((c, humanize(c)) for c in system.categories)
    matrix = tuple((humanize(row), tuple(signed(system.matrix.get(row, {}).get(col, 0)) for col in system.categories))
                   for row in system.categories)
    qualities = tuple((humanize(q) + (" (default)" if q == system.default_quality else ""), signed(v))
                      for q, v in system.qualities.items())
    kinds = tuple((k.name, humanize(k.category), humanize(k.quality or system.default_quality),
                   "Distance weapon" if k.distance_weapon else "") for k in system.kinds.values())
    return BattleSheet(system, names, matrix, qualities, kinds, modifier_rows(game, system), outcome_rows(system),
                       procedure(game, system), state_rows(system))
