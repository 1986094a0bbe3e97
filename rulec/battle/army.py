"""Army state: what a finished battle does to each side.

An army-state condition of the game file reads one side's counts: `units`
(every unit that took part) and, for each losing outcome of the outcome table
(say `routed`), how many of the side's units suffered it. ArmyCounts is that
mapping; `army_state` picks the one row of the table that holds.
"""

from __future__ import annotations

from itertools import product
from typing import Iterator, Mapping

from rulec.runtime import model as m


class ArmyCounts(Mapping[str, int]):
    """A side's unit counts by outcome, plus `units`; missing outcomes count 0."""

    def __init__(self, units: int, outcomes: Mapping[str, int] | None = None, names: tuple[str, ...] = ()):
        self._counts = {name: 0 for name in names}
        self._counts.update(outcomes or {})
        self._counts["units"] = units

    def __getitem__(self, name: str) -> int:
        return self._counts.get(name, 0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def __repr__(self) -> str:
        parts = [f"{count} {name}" for name, count in self._counts.items() if name != "units"]
        return f"{self['units']} units" + (f" ({', '.join(parts)})" if parts else "")

    @staticmethod
    def every(largest: int, outcomes: tuple[str, ...]) -> Iterator["ArmyCounts"]:
        """Every possible army of 1..largest units, each unit in at most one outcome."""
        for units in range(1, largest + 1):
            for counts in product(range(units + 1), repeat=len(outcomes)):
                if sum(counts) <= units:
                    yield ArmyCounts(units, dict(zip(outcomes, counts)))


def army_state(system: m.BattleSystem, counts: ArmyCounts) -> m.ArmyState:
    """The row of the army-state table that holds (the checker proved there is exactly one)."""
    for state in system.army_states:
        if state.when(counts):
            return state
    raise AssertionError(f"no army state holds for {counts}; the checker should have refused the game")
