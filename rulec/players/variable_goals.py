"""Victory conditions that read game variables, read for the evaluator.

A victory level such as `when = bridge_first == 1 and losses >= 1` cannot be read from made-up positions
alone (final_awards.py): no position makes it hold while the variables keep their start values. Hooks
change the variables (`set(bridge_first, ...)` when a unit stands on the bridge, `add(losses, 1)` when a
unit is eliminated), so the goal is read through them, once per game:

- the values the hooks can give each variable (a `set` amount, worked out with one unit of each side
  standing in each hex when it reads the position; the start value plus an `add` amount, once to a few
  times);
- the fewest variable changes that make the goal hold (on an empty map): its needed values, each worth
  an equal share of GOAL_VALUE;
- where those values come from: the hexes where one unit of the winner standing makes a `set` hook give
  the needed value (places to go, while the variable is not yet that value), and the sides whose
  eliminated units an `add` hook counts (units to hunt).

In play (`paid`) a goal is worth GOAL_VALUE while it holds, else a share for each needed value the
variables already have: the variables are read from the state itself, as the engine has them.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Final

from rulec.players.final_awards import GOAL_VALUE, ProbeContext, goal_condition, victory_goals
from rulec.runtime.context import StandInContext
from rulec.runtime.errors import UNANSWERED_OUTSIDE_PLAY
from rulec.runtime.model import Award, Game, Hex

MOST_ASSIGNMENTS: Final = 4096  # combinations of candidate values tried for one goal
MOST_ADDS: Final = 3  # an `add` counted once to this many times (a counter a goal needs at 1, 2, 3)
MOST_PROBED_HEXES: Final = 2000  # a `set` amount that reads the position is probed in every hex of maps this size


@dataclass
class VariableGoal:
    """A victory condition that reads variables: the values it needs them to take, and what pays it."""

    award: Award  # the goal, as victory_goals reads it (winner = award.side)
    needed: dict[str, Any]
    share: float
    # variable -> the hexes where a unit of the winner standing makes a hook set it to its needed value
    setting_hexes: dict[str, frozenset[Hex]] = field(default_factory=dict)
    prey: frozenset[str] = frozenset()  # sides whose units eliminated count towards a needed value


class VariableGoals:
    """The victory goals of a game that read its variables (see the module docstring)."""

    def __init__(self, game: Game, options: tuple[str, ...] = ()):
        self.game = game
        self.options = options
        self.goals: list[VariableGoal] = []
        variables = getattr(game, "variables", None) or {}
        if not variables or game.victory is None:
            return
        hooks = [h for phase in game.sequence for h in phase.hooks] + list(getattr(game, "hooks", ()))
        self._hooks = hooks
        candidates = self._candidates(hooks)
        for award in victory_goals(game):
            when = goal_condition(award)
            read = [v for v in variables if re.search(rf"\b{re.escape(v)}\b", when.source)]
            if not read:
                continue
            needed = self._fewest_changes(award, read, candidates)
            if not needed:
                continue
            goal = VariableGoal(award, needed, GOAL_VALUE / len(needed))
            for variable, value in needed.items():
                places = self._places(hooks, variable, value, award.side)
                if places:
                    goal.setting_hexes[variable] = places
                goal.prey |= self._prey(variable, award.side)
            self.goals.append(goal)

    @property
    def awards(self) -> list[Award]:
        return [g.award for g in self.goals]

    # ------------------------------------------------------------------ reading the hooks
    def _probe(self, placed=(), variables=None) -> ProbeContext:
        return ProbeContext(self.game, placed=placed, options=self.options, variables=variables)

    def _samples(self) -> dict[str, Any]:
        return {side: next((u for u in self.game.units.values() if u.side == side), None) for side in self.game.sides}

    def _set_values(self, effect: Any) -> list[tuple[Any, Hex | None, str | None]]:
        """(value, hex, side): what a `set` effect gives with nobody on the map (hex None), or with one unit of
        `side` standing in `hex` (only where its amount reads the position)."""
        found: list[tuple[Any, Hex | None, str | None]] = [(_safe(effect.amount, self._probe()), None, None)]
        game = self.game
        if getattr(effect.amount, "reads_position", True) and game.map is not None \
                and len(game.map.hexes) <= MOST_PROBED_HEXES:
            for side, sample in self._samples().items():
                if sample is not None:
                    found += [(_safe(effect.amount, self._probe([(sample, h)])), h, side) for h in game.map.hexes]
        return [f for f in found if f[0] is not _FAILED]

    def _candidates(self, hooks: list) -> dict[str, list]:
        """Variable -> the values the hooks can give it (its start value first)."""
        found: dict[str, list] = {v: [var.initial] for v, var in self.game.variables.items()}
        for hook in hooks:
            for effect in hook.effects:
                values = found.get(effect.variable) if effect.variable else None
                if values is None:
                    continue
                if effect.kind == "set":
                    new = [value for value, _, _ in self._set_values(effect)]
                elif effect.kind == "add":
                    step = _safe(effect.amount, StandInContext(game=self.game))
                    initial = self.game.variables[effect.variable].initial
                    new = [] if step is _FAILED or isinstance(initial, bool) else \
                        [initial + step * k for k in range(1, MOST_ADDS + 1)]
                else:
                    continue
                values += [v for v in new if v not in values]
        return found

    def _fewest_changes(self, award: Award, read: list[str], candidates: dict[str, list]) -> dict[str, Any]:
        """The fewest of `read` changed from their start values (to values the hooks give) for the goal to hold
        with nobody on the map; {} if it holds already or no such change is found."""
        start = {v: self.game.variables[v].initial for v in read}
        if award.amount(self._probe(variables=start)):
            return {}
        options = [candidates[v] for v in read]
        tried = 0
        best: dict[str, Any] = {}
        for values in itertools.product(*options):
            tried += 1
            if tried > MOST_ASSIGNMENTS:
                break
            changed = {v: x for v, x in zip(read, values) if x != start[v]}
            if best and len(changed) >= len(best):
                continue
            if changed and award.amount(self._probe(variables={**start, **changed})):
                best = changed
        return best

    def _places(self, hooks: list, variable: str, value: Any, side: str) -> frozenset[Hex]:
        """The hexes where one unit of `side` standing makes a hook (whose condition then holds) set `variable`
        to `value`."""
        found: set[Hex] = set()
        samples = self._samples()
        for hook in hooks:
            for effect in hook.effects:
                if effect.kind != "set" or effect.variable != variable:
                    continue
                for got, h, by in self._set_values(effect):
                    if h is None or by != side or got != value:
                        continue
                    if hook.when is None or _safe(hook.when, self._probe([(samples[side], h)])) is True:
                        found.add(h)
        return frozenset(found)

    def _prey(self, variable: str, side: str) -> frozenset[str]:
        """The other sides whose units, eliminated, make a hook add to `variable`."""
        found = set()
        for hook in self._hooks:
            if hook.event != "unit_eliminated" or not any(
                    e.kind == "add" and e.variable == variable for e in hook.effects):
                continue
            for other, sample in self._samples().items():
                if other != side and sample is not None and (
                        hook.when is None or _safe(hook.when, StandInContext(unit=sample, game=self.game)) is True):
                    found.add(other)
        return frozenset(found)

    # ------------------------------------------------------------------ in play
    def paid(self, state: Any) -> dict[str, float]:
        """Side -> what the goals are worth in `state`: GOAL_VALUE while one holds, else a share for each value
        it needs that the variables have."""
        paid: dict[str, float] = {}
        if not self.goals:
            return paid
        variables = getattr(state, "variables", None)
        context = state.context() if callable(getattr(state, "context", None)) else None
        if variables is None or context is None:
            return paid
        for goal in self.goals:
            side = goal.award.side
            if _safe(goal.award.amount, context) == GOAL_VALUE:
                value = GOAL_VALUE
            else:
                value = goal.share * sum(variables.get(v) == x for v, x in goal.needed.items())
            if value:
                paid[side] = paid.get(side, 0.0) + value
        return paid

    def open_places(self, state: Any) -> tuple[tuple[str, float, frozenset[Hex]], ...]:
        """(side, VP, hexes) of the places that still set a variable a goal needs (its value not yet given)."""
        variables = getattr(state, "variables", None) or {}
        return tuple((g.award.side, g.share, hexes) for g in self.goals for v, hexes in g.setting_hexes.items()
                     if variables.get(v) != g.needed[v])


_FAILED: Final = object()


def _safe(expression: Any, context: Any) -> Any:
    try:
        return expression(context)
    except UNANSWERED_OUTSIDE_PLAY:  # an expression that needs more of a real game than a made-up position offers
        return _FAILED
