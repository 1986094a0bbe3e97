"""Chances and expected outcomes of a Combat Results Table, on hand-made tables."""

from __future__ import annotations

from fractions import Fraction

from rulec.aids.crt_odds import column_odds, expectations, result_order, row_for_roll
from rulec.runtime.model import CombatTable, CrtColumn, Effect, ResultCode

RESULTS = {
    "AE": ResultCode("AE", "Attacker Eliminated", (Effect("eliminate", "attacker"),)),
    "NE": ResultCode("NE", "No Effect"),
    "DR": ResultCode("DR", "Defender Retreats", (Effect("retreat", "defender", 1), Effect("advance", amount=1))),
    "DE": ResultCode("DE", "Defender Eliminated", (Effect("eliminate", "defender"), Effect("advance", amount=1))),
}


def table(rows: dict[int, tuple[str, ...]]) -> CombatTable:
    width = len(next(iter(rows.values())))
    columns = tuple(CrtColumn(f"{i + 1}:1", (i + 1, 1), (i + 1, 1)) for i in range(width))
    return CombatTable("t", "odds", columns, rows)


def test_rows_beyond_the_die_are_never_rolled_and_short_tables_clamp():
    # Rows 0 and 7 exist for modified rolls only; a d6 reads rows 1..6.
    crt = table({0: ("AE",), 1: ("NE",), 2: ("NE",), 3: ("DR",), 4: ("DR",), 5: ("DR",), 6: ("DE",), 7: ("DE",)})
    (odds,) = column_odds(crt, 6)
    assert odds.chances == {"NE": Fraction(1, 3), "DR": Fraction(1, 2), "DE": Fraction(1, 6)}
    # A table with only rows 1..4 read with a d6: 5 and 6 use row 4.
    short = table({1: ("NE",), 2: ("NE",), 3: ("DR",), 4: ("DE",)})
    assert column_odds(short, 6)[0].chances == {"NE": Fraction(1, 3), "DR": Fraction(1, 6), "DE": Fraction(1, 2)}
    assert (row_for_roll(short, -2), row_for_roll(short, 9)) == (1, 4)


def test_expectations_only_for_measures_some_result_has():
    crt = table({1: ("AE", "DR"), 2: ("NE", "DR"), 3: ("NE", "DE"), 4: ("DR", "DE"), 5: ("DR", "DE"), 6: ("DE", "DE")})
    rows = {e.field: e.values for e in expectations(column_odds(crt, 6), RESULTS)}
    assert set(rows) == {"defender_retreat", "defender_eliminated", "attacker_eliminated", "advance"}
    assert rows["defender_retreat"] == (Fraction(2, 6), Fraction(2, 6))
    assert rows["defender_eliminated"] == (Fraction(1, 6), Fraction(4, 6))
    assert rows["attacker_eliminated"] == (Fraction(1, 6), Fraction(0))
    assert rows["advance"] == (Fraction(3, 6), Fraction(1))


def test_result_order_is_the_declaration_order_of_the_codes_used():
    crt = table({1: ("DE",), 2: ("NE",), 3: ("AE",)})
    assert result_order(crt, RESULTS) == ("AE", "NE", "DE")
