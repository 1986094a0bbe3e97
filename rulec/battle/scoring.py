"""Scoring: a unit's die modifiers and a combat's outcome.

A unit's die is modified by its type-versus-type matrix entry against the
enemy it fights, its quality, its side's modifiers (a scenario rule, a matrix
argument, an ambush, exhaustion) and, for a unit fed in from reserve, the
reserve modifier; a side modifier with `reserves = false` (dug in) never
reaches a reserve unit. The outcome of a combat comes from the ratio of the
higher score to the lower, after both are raised to the score floor.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulec.battle.forces import BattleUnit, Force
from rulec.runtime import model as m


@dataclass(frozen=True)
class Modifier:
    """One modifier to a die, with the reason a player reads."""

    label: str
    value: int


def unit_modifiers(system: m.BattleSystem, force: Force, unit: BattleUnit, enemies: list[BattleUnit],
                   from_reserve: bool = False) -> tuple[Modifier, ...]:
    """Every modifier to `unit`'s die when it fights `enemies` (one unit, or a pair)."""
    row = system.matrix.get(unit.category, {})
    options = [(row.get(enemy.category, 0), enemy) for enemy in enemies]
    pick = min if system.pair_matrix == "least_favourable" else max
    value, enemy = pick(options, key=lambda option: option[0])
    modifiers = [Modifier(f"{unit.category} v {enemy.category}", value)]
    quality = system.qualities.get(unit.quality, 0)
    if quality:
        modifiers.append(Modifier(unit.quality, quality))
    for side_modifier in force.modifiers:
        if from_reserve and not side_modifier.reserves:
            continue
        modifiers.append(Modifier(side_modifier.name, side_modifier.value))
    if from_reserve and system.reserve_modifier:
        modifiers.append(Modifier("reserve", system.reserve_modifier))
    return tuple(modifiers)


def total(modifiers: tuple[Modifier, ...]) -> int:
    return sum(modifier.value for modifier in modifiers)


def outcome_of(system: m.BattleSystem, scores: tuple[int, int]) -> tuple[m.OutcomeBand, int | None]:
    """The outcome band and the losing side (None: no loser) for the two sides' scores."""
    a, b = (max(system.score_floor, score) for score in scores)
    if a == b:
        return next(band for band in system.outcomes if band.even), None
    loser = 0 if a < b else 1
    high, low = max(a, b), min(a, b)
    for band in system.outcomes:
        if band.even:
            continue
        if band.below is None or high * band.below[1] < band.below[0] * low:
            return band, loser
    raise AssertionError("the checker guarantees an open last outcome band")
