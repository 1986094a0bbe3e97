"""How far a side is from winning, measured the way the game's victory conditions measure it.

A plain VP difference misreads a game whose levels read a ratio (one side wins with twice the
other's VP): there a VP of the other side moves the result as much as two of the first's. So the margin is read
from the victory levels themselves, by asking the engine's own `outcome` who wins with given
scores: a side's margin is

    (the VP its strongest opponent must still gain to win) - (the VP the side must still gain to win)

each found by a search over the scores (the levels are assumed to grow no harder to meet as a
side gains VP). In a game won by the larger score it is the lead (plus one either side of a
tie); with `A >= 2 * B` it is `2B - A` for B while B wins. Levels that read the position (not
just the scores) cannot be asked of scores alone: the margin is then the VP difference.
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from rulec.engine.victory import outcome
from rulec.runtime.errors import UNANSWERED_OUTSIDE_PLAY
from rulec.runtime.model import Game

# What asking the levels of scores alone raises when they cannot answer: what any expression asked outside play
# raises then (a level's expression failed: it read the position, or fails at some scores), or ScoresContext's own
# refusal (ValueError). Nothing else: an error of the engine's own is a bug to see, not a reason to measure by the VP
# difference.
_UNANSWERED: Final = UNANSWERED_OUTSIDE_PLAY + (ValueError,)
MOST_VP: Final = 1 << 16  # farther than any score a game reaches: "cannot win by VP alone"
_KEPT: Final = 20_000  # margins kept per game before the table is emptied (scores repeat a lot in one game)


class VictoryMargin:
    """The margin of each side for given scores (`margins`), the victory conditions' way."""

    def __init__(self, game: Game | None):
        self.game = game
        self.sides: tuple[str, ...] = tuple(game.sides) if game is not None else ()
        self._kept: dict[tuple, dict[str, float]] = {}
        self.by_levels = game is not None and game.victory is not None and self._levels_read_scores()

    def margin(self, vp: Mapping[str, float], side: str) -> float:
        if side not in self.sides:  # a state without a game model (a toy game): the VP difference
            return vp.get(side, 0) - max((v for s, v in vp.items() if s != side), default=0)
        return self.margins(vp)[side]

    def margins(self, vp: Mapping[str, float]) -> dict[str, float]:
        key = tuple(vp.get(s, 0) for s in self.sides)
        found = self._kept.get(key)
        if found is None:
            if len(self._kept) >= _KEPT:
                self._kept.clear()
            found = self._kept[key] = self._work_out(dict(zip(self.sides, key)))
        return found

    # ------------------------------------------------------------------ the search
    def _work_out(self, vp: dict[str, float]) -> dict[str, float]:
        sides = self.sides
        if self.by_levels and len(sides) > 1:
            try:
                to_win = {s: self._to_win(vp, s) for s in sides}
                return {s: min(to_win[o] for o in sides if o != s) - to_win[s] for s in sides}
            except _UNANSWERED:  # a level that reads the position only at some scores: the difference from now on
                self.by_levels = False
        return {s: vp[s] - max((vp[o] for o in sides if o != s), default=0) for s in sides}

    def _winner(self, vp: dict[str, Any]) -> str | None:
        """Who the levels make the winner at scores `vp` (projected: they may be fractions)."""
        assert self.game is not None  # (asked only where the game's levels are read: by_levels)
        return outcome(self.game, vp).winner

    def _to_win(self, vp: dict[str, float], side: str) -> float:
        """The fewest VP `side` must gain (others unchanged) for the levels to make it the winner."""
        if self._winner(vp) == side:
            return 0
        def wins_with(extra: float) -> bool:
            return self._winner({**vp, side: vp[side] + extra}) == side
        high = 1
        while not wins_with(high):
            high *= 2
            if high > MOST_VP:
                return MOST_VP
        low = high // 2  # does not win with `low` (0 was checked first)
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if wins_with(middle) else (middle, high)
        return high

    def _levels_read_scores(self) -> bool:
        """Whether the levels can be decided from scores alone (ScoresContext refuses the position)."""
        assert self.game is not None
        try:
            outcome(self.game, {s: 0 for s in self.sides})
            outcome(self.game, {s: i + 1 for i, s in enumerate(self.sides)})
        except _UNANSWERED:  # a level reads the position (or something scores alone cannot answer)
            return False
        return True
