"""How likely each result of a Combat Results Table is, column by column, and what results do.

An unmodified roll of the game's die picks a row; rolls past either end of the
table use the end row (as a modified roll would). From the chance of each
result and what each result does follow the expected outcomes printed under
the table: how far the defender can expect to retreat, how often the attacker
is eliminated, and so on.

This is the one place the aids read what a result does: through the read-only
measures of rulec.runtime.model.ResultCode named in OUTCOME_MEASURES (`measure`),
so the aids keep working whatever form the results take inside.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulec.runtime.model import CombatTable, ResultCode

# What a result does, as (ResultCode field, how the aid words its expectation, is it a count of hexes).
OUTCOME_MEASURES: tuple[tuple[str, str, bool], ...] = (
    ("defender_retreat", "Defender retreat (hexes)", True),
    ("attacker_retreat", "Attacker retreat (hexes)", True),
    ("defender_eliminated", "Defender eliminated", False),
    ("attacker_eliminated", "Attacker eliminated", False),
    ("exchange", "Exchange", False),
    ("advance", "Victor may advance", False),
)


@dataclass(frozen=True)
class ColumnOdds:
    label: str
    chances: dict[str, Fraction]  # result code -> probability on one unmodified roll


@dataclass(frozen=True)
class Expectation:
    field: str
    label: str
    is_distance: bool  # hexes expected; otherwise a probability
    values: tuple[Fraction, ...]  # one per column


def measure(result: ResultCode, field: str) -> int:
    """One measure of what a result does (hexes, units or 0/1), 0 if the result does not have it."""
    return int(getattr(result, field, 0) or 0)


def codes_by_side(results: dict[str, ResultCode]) -> tuple[frozenset[str], frozenset[str]]:
    """The result codes that hurt the attacker, and those that hurt the defender (shaded on the CRT)."""
    attacker = frozenset(c for c, r in results.items()
                         if measure(r, "attacker_retreat") or measure(r, "attacker_eliminated") or r.loses("attacker"))
    defender = frozenset(c for c, r in results.items()
                         if measure(r, "defender_retreat") or measure(r, "defender_eliminated") or r.loses("defender"))
    return attacker, defender


def row_for_roll(table: CombatTable, roll: int) -> int:
    """The table row a (possibly modified) roll reads; out-of-range rolls use the end row."""
    low, high = table.die_range
    return min(max(roll, low), high)


def column_odds(table: CombatTable, die: int) -> tuple[ColumnOdds, ...]:
    """For each column, the probability of each result on one roll of a `die`-sided die."""
    odds = []
    for index, column in enumerate(table.columns):
        counts: dict[str, int] = {}
        for face in range(1, die + 1):
            code = table.rows[row_for_roll(table, face)][index]
            counts[code] = counts.get(code, 0) + 1
        odds.append(ColumnOdds(column.label, {code: Fraction(n, die) for code, n in counts.items()}))
    return tuple(odds)


def expectations(odds: tuple[ColumnOdds, ...], results: dict[str, ResultCode]) -> tuple[Expectation, ...]:
    """The expected value of each measure a result can have, per column; measures no result has are left out."""
    rows = []
    for field, label, is_distance in OUTCOME_MEASURES:
        if field == "advance":
            values = tuple(sum((p for code, p in column.chances.items() if measure(results[code], field)), Fraction(0))
                           for column in odds)
        else:
            values = tuple(sum((p * measure(results[code], field) for code, p in column.chances.items()),
                               Fraction(0)) for column in odds)
        if any(values):
            rows.append(Expectation(field, label, is_distance, values))
    return tuple(rows)


def result_order(table: CombatTable, results: dict[str, ResultCode]) -> tuple[str, ...]:
    """The result codes the table uses, in the order the game declares them."""
    used = {code for row in table.rows.values() for code in row}
    return tuple(code for code in results if code in used) + tuple(sorted(used - set(results)))
