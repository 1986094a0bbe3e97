"""A context that knows a game's final scores alone: victory levels that read only VP are decided without a position
(victory.outcome, and the AI's margin of victory, players/victory_margin.py).

Left interpreted where the engine is compiled (fast_path.INTERPRETED): it names one refusing method many times in its
class body (`a = b = f`), which mypyc does not compile; it is asked once a game, not at every step.
"""

from __future__ import annotations

from typing import Any, Mapping

from rulec.runtime.context import ContextBase
from rulec.runtime.model import Game, Unit


class ScoresContext(ContextBase):
    """Final scores alone, for deciding a game's result without its position (levels that read only VP)."""

    def __init__(self, game: Game, vp: Mapping[str, Any]):
        self.game = game
        self._vp = vp
        self.turn = self.turns = game.info.turns
        self.phase = game.sequence[-1].id if game.sequence else ""
        self.phasing_side = ""
        self.unit = None

    def vp(self, side: str) -> int | float:
        return self._vp.get(side, 0)

    def _no_position(self, *_: Any, **__: Any) -> Any:  # (units(side = ...) names its filters)
        raise ValueError("this victory condition reads the position; decide it from a game state (GameState.outcome)")

    units = units_at = hex_of = status_of = exited_from = controller = moved = attacked = awaiting_placement = _no_position  # type: ignore[assignment]
    marked = marked_hex = phases_since_marked = scope = previous = did = entered = last_to_enter = _no_position
    option = variable = _no_position  # type: ignore[assignment]  # (each raises, whatever it is asked) chosen options and variables belong to a game state too

    def unit_named(self, uid: str) -> Unit:
        return self._no_position(uid)
