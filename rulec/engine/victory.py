"""Victory points and the winner: evaluating the game's awards and victory levels.

Compiled award expressions read the game through an `EngineContext`
(the engine's implementation of rulec.runtime.context.EvalContext).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from rulec.runtime.context import select_units
from rulec.runtime.model import Award, Game, Unit

if TYPE_CHECKING:
    from rulec.engine.state import GameState


@dataclass(frozen=True)
class VpEntry:
    """One line of the VP log: who scored what, when, and why."""

    turn: int
    phase: str
    side: str
    amount: int
    source: str  # an award id, or "option:<id>" / "improved:<unit id>"
    unit: str | None = None
    hex: str | None = None


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # a side id; None for a draw
    level: str  # the victory level's name, or the draw name
    margin: float  # VP difference (or ratio) of the leader over the runner-up
    vp: dict[str, int]


class EngineContext:
    """What a compiled expression sees of a running game."""

    def __init__(self, state: "GameState", unit: Unit | None = None):
        self._state = state
        self.turn = state.turn
        self.turns = state.game.info.turns
        self.phasing_side = state.phase.side
        self.unit = unit

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None) -> Sequence[Unit]:
        state = self._state
        placed = ((state.unit(uid), where) for uid, where in state.positions.items())
        return select_units(placed, state.tables.zones, side, zone, hex, type, flag)

    def vp(self, side: str) -> int:
        return self._state.vp.get(side, 0)


def award_amount(state: "GameState", award: Award, unit: Unit | None) -> int:
    """The award's VP now, for `unit` (0 if its condition fails)."""
    context = EngineContext(state, unit)
    if award.only is not None and not award.only(context):
        return 0
    return int(award.amount(context))


def outcome(game: Game, vp: dict[str, int]) -> Outcome:
    """The winner and the level of victory for final scores `vp`."""
    ranked = sorted(game.sides, key=lambda s: (-vp.get(s, 0), list(game.sides).index(s)))
    leader = ranked[0]
    runner_up = vp.get(ranked[1], 0) if len(ranked) > 1 else 0
    rules = game.victory
    if rules is None:
        margin = vp.get(leader, 0) - runner_up
        return Outcome(leader if margin > 0 else None, "Victory" if margin > 0 else "Draw", margin, dict(vp))
    if rules.measure == "ratio":
        margin = vp.get(leader, 0) / runner_up if runner_up else (float("inf") if vp.get(leader, 0) else 1.0)
    else:
        margin = vp.get(leader, 0) - runner_up
    for level in rules.levels:  # best first
        if margin >= level.at_least and vp.get(leader, 0) > runner_up:
            return Outcome(leader, level.name, margin, dict(vp))
    return Outcome(None, rules.draw, margin, dict(vp))
