"""VP values that change with the turn, for the Turn Record Track.

An award's amount is a compiled expression over an evaluation context
(rulec.runtime.context.EvalContext). To print it on the track we evaluate it
for every turn with a context that knows only the turn: if the expression asks
for anything else (units on the map, a unit's strength, the score) it depends
on play, not on the turn, and is left off the track.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rulec.runtime.model import Award, Expr, Game, Unit


class NeedsPlay(Exception):
    """The expression asked for something only a game in progress knows."""


class TurnOnlyContext:
    """An EvalContext that answers `turn` and `turns` and refuses everything else."""

    def __init__(self, turn: int, turns: int):
        self.turn = turn
        self.turns = turns

    @property
    def phasing_side(self) -> str | None:
        raise NeedsPlay("phasing_side")

    @property
    def unit(self) -> Unit | None:
        raise NeedsPlay("unit")

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None, status: str | None = None) -> Sequence[Unit]:
        raise NeedsPlay("units")

    def vp(self, side: str) -> int:
        raise NeedsPlay("vp")

    def __getattr__(self, name: str) -> Any:
        raise NeedsPlay(name)  # every other query of an EvalContext (phase, zone, distance, ...) needs a game in play


def values_by_turn(expression: Expr, turns: int) -> tuple[Any, ...] | None:
    """The expression's value on turns 1..turns, or None if it needs more than the turn."""
    try:
        return tuple(expression(TurnOnlyContext(turn, turns)) for turn in range(1, turns + 1))
    except NeedsPlay:
        return None


@dataclass(frozen=True)
class TurnAward:
    award: Award
    values: tuple[Any, ...]  # index 0 is turn 1


def turn_dependent_awards(game: Game) -> tuple[TurnAward, ...]:
    """The awards whose amount depends on the turn alone and changes from turn to turn."""
    found = []
    for award in game.awards:
        values = values_by_turn(award.amount, game.info.turns)
        if values is not None and len(set(values)) > 1:
            found.append(TurnAward(award, values))
    return tuple(found)
