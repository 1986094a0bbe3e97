"""The modifiers pipeline: unit strengths and allowances, battle column shifts and DRMs (model.Modifier).

Unit modifiers multiply then add to a unit's printed strength (as it fights) and
movement allowance (as the movement search spends it), one after the other in
file order, each while its `when` holds for the unit. Battle modifiers give the
column shifts and die-roll modifiers applied after terrain (combat.odds). A
modifier guarded by an option plays only when the option is chosen
(`in_play`, once per game). Answers are worked out when asked and kept for the
position (GameState._cache).
"""

from __future__ import annotations

import math
from typing import Final, Sequence

from rulec.engine import stacking
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.runtime.bounds import useful_allowance
from rulec.runtime.model import Game, Hex, Modifier, Unit


# How a side's total strength is rounded once every unit's modifiers are applied (CombatRules.fractions).
ROUNDING: Final = {"keep": lambda x: x, "down": math.floor, "up": math.ceil, "nearest": lambda x: math.floor(x + 0.5)}


def in_play(game: Game, options: Sequence[str]) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...], tuple[Modifier, ...]]:
    """The modifiers of a game with `options` chosen: those changing strength, those changing the
    allowance (both unit modifiers), and battle modifiers, each in file order."""
    chosen = [m for m in game.modifiers if m.option is None or m.option in options]
    strength = tuple(m for m in chosen if m.applies == "unit" and (m.strength_times != 1 or m.strength_plus))
    move = tuple(m for m in chosen if m.applies == "unit" and (m.move_times != 1 or m.move_plus))
    battle = tuple(m for m in chosen if m.applies == "battle")
    return strength, move, battle


def _modified(state: Position, unit: Unit, printed: float, steps: tuple[Modifier, ...], what: str,
              role: str = "", context: EngineContext | None = None) -> tuple[float, tuple[str, ...]]:
    """`printed` through the unit modifiers `steps` that hold for `unit` (times, then plus), and their ids;
    `role` ("attack", "defence", "") is what `attacking` and `defending` read; `context`, if given, the context about
    `unit` the conditions are asked in."""
    value, applied = printed, []
    if context is None:
        context = EngineContext(state, unit)
    context.role = role
    moving = what == "move"
    for modifier in steps:
        if modifier.when is None or modifier.when(context):
            if moving:
                value = value * modifier.move_times + modifier.move_plus
            else:
                value = value * modifier.strength_times + modifier.strength_plus
            applied.append(modifier.id)
    return value, tuple(applied)


def strength(state: Position, uid: str, role: str) -> tuple[float, tuple[str, ...]]:
    """A unit's strength as it fights now as an attacker or a defender (`role`), and the modifiers that changed it."""
    unit = state.unit(uid)
    steps = state._modifiers[0]
    if not steps:
        return unit.strength, ()
    key = ("strength", uid, role)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = _modified(state, unit, unit.strength, steps, "strength", role)
    return found


def allowance(state: Position, uid: str) -> int:
    """A unit's movement allowance now: its printed MP through the unit modifiers, rounded down, at least 0,
    at most what a move on the map can use."""
    steps = state._modifiers[1]
    unit = state._units[uid]
    if not steps:
        return unit.move
    by_markers: tuple[bool, dict[str, _KeptAllowance]] | None = state._for_the_game.get(_ALLOWANCES)
    if by_markers is None:
        by_markers = state._for_the_game[_ALLOWANCES] = (read_only_markers(state, steps, "move"), {})
    if by_markers[0]:
        # The same in every position with the same markers, while the unit is the same counter: kept for the game
        # alone (asked of each unit in every position of a movement phase: one lookup). Where the conditions read
        # only the unit's own markers, the same too while the unit carries the same markers: a phase that marks a few
        # units (and the next that takes the marker off) changes the allowance of those alone.
        kept = by_markers[1]
        known = kept.get(uid)
        version = state.markers.version
        if known is not None and known[0] is unit:
            if known[1] == version:
                return known[3]
            if known[2] is not None and known[2] == _marker_ids(state, uid):
                kept[uid] = (unit, version, known[2], known[3])  # (the next asking: one comparison)
                return known[3]
        context = _OwnMarkersRead(state, unit)
        found = _allowance(state, unit, steps, context)
        kept[uid] = (unit, version, None if context.read_others else _marker_ids(state, uid), found)
        return found
    # Else kept for the position, by unit in one dict (not a key made a unit: asked several times a move)
    answers: dict[str, int] | None = state._cache.get(_POSITION_ALLOWANCES)
    if answers is None:
        answers = state._cache[_POSITION_ALLOWANCES] = {}
    answer = answers.get(uid)
    if answer is None:
        answer = answers[uid] = _allowance(state, unit, steps)
    return answer


# (whether the allowance reads only the markers, unit -> (the unit, the markers' version, the markers the unit
# carried if the conditions read none but its own (else None), its allowance then))
_ALLOWANCES: Final = "allowances by markers"
_KeptAllowance = tuple[Unit, int, frozenset[str] | None, int]
_POSITION_ALLOWANCES: Final = "allowances"  # (Position._cache) unit -> its allowance, where more than markers decide it


def _allowance(state: Position, unit: Unit, steps: tuple[Modifier, ...], context: EngineContext | None = None) -> int:
    modified = max(0, math.floor(_modified(state, unit, unit.move, steps, "move", "", context)[0] + 1e-9))
    # No more than a move on the map can use: the movement search grows with the allowance (runtime.bounds).
    bound = state._for_the_game.get("useful allowance")
    if bound is None:  # worked out once a game (the game model is not hashable: no lookup by it)
        bound = state._for_the_game["useful allowance"] = useful_allowance(state.game)
    return min(modified, bound)


def _marker_ids(state: Position, uid: str) -> frozenset[str]:
    """The markers the unit carries (their stamps aside: a modifier's condition reads only whether it carries one)."""
    found = state.markers.units.get(uid)
    return frozenset(found) if found else _NO_MARKERS


_NO_MARKERS: Final[frozenset[str]] = frozenset()


class _OwnMarkersRead(EngineContext):
    """An EngineContext about a unit that notes whether a condition read the markers of anything but that unit (another
    unit's, a hex's): if not, and it reads nothing else of the position (read_only_markers), its answer holds while
    the unit carries the same markers (the same reads give the same answers, down the same branches)."""

    def __init__(self, state: Position, unit: Unit):
        super().__init__(state, unit)
        self.read_others = False

    def marked(self, unit: Unit, marker: str) -> bool:
        if self.unit is None or unit.id != self.unit.id:
            self.read_others = True
        return super().marked(unit, marker)

    def marked_hex(self, hex: str, marker: str) -> bool:
        self.read_others = True
        return super().marked_hex(hex, marker)


def read_only_markers(state: Position, steps: tuple[Modifier, ...], what: str) -> bool:
    """Do the `when`s of `steps` (the game's modifiers of `what`) read nothing of the position but the markers in
    play (model.Expr)? Once a game."""
    answers: dict[str, bool] | None = state._for_the_game.get(_ONLY_MARKERS)
    if answers is None:
        answers = state._for_the_game[_ONLY_MARKERS] = {}
    found = answers.get(what)
    if found is None:
        found = answers[what] = all(
            m.when is None or not m.when.reads_position or m.when.reads_only_markers for m in steps)
    return found


_ONLY_MARKERS: Final = "only markers"  # what ("move", "strength") -> read_only_markers' answer


def total(state: Position, uids: Sequence[str], role: str) -> tuple[int | float, tuple[str, ...]]:
    """The strength of units fighting together as attackers or defenders (`role`: "attack", "defence"),
    rounded as the game says, and the unit modifiers applied."""
    if not state._modifiers[0]:  # no unit modifier changes strength: the printed strengths
        units = state._units
        return sum(units[u].strength for u in uids), ()
    values = [strength(state, u, role) for u in uids]
    amount = sum(v for v, _ in values)
    rounding = state.game.combat.fractions if state.game.combat is not None else "keep"
    amount = ROUNDING[rounding](amount)
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    applied = tuple(dict.fromkeys(m for _, ids in values for m in ids))
    return amount, applied


def battle_steps(state: Position, attackers: Sequence[str], targets: Sequence[Hex]) -> tuple[Modifier, ...]:
    """The battle modifiers whose `when` holds for `attackers` against the units in `targets`, in file order."""
    steps = state._modifiers[2]
    if not steps:
        return ()
    occupants = stacking.occupants(state)
    context = EngineContext(state)
    context.attackers = [state.unit(u) for u in attackers]
    context.defenders = [state.unit(u) for h in targets for u in occupants.get(h, ())]
    context.attacker_hexes = tuple(dict.fromkeys(state.pos[u] for u in attackers if u in state.pos))
    context.defender_hexes = tuple(targets)
    context.attacker_side = context.attackers[0].side if context.attackers else (state.phase.side or "")
    context.defender_side = context.defenders[0].side if context.defenders else ""
    return tuple(m for m in steps if m.when is None or m.when(context))
