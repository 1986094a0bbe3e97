"""How many VP each side could score, from its awards: how long the printed VP track must be.

An award scores its amount each time its trigger fires, so a side's most is the
sum, over its awards, of the largest amount times how often the trigger can
fire: every turn for a phase award, once per hex for a 'holds' award, once per
unit for an 'exits' or 'eliminated' award, once for 'selected'. The amount is
evaluated in made-up positions (every unit on the map, then none; each turn;
each unit the award could be about), the largest kept. An amount that needs a
running game to answer (a side's VP so far) leaves that award's bound unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rulec.runtime.errors import UNWEIGHABLE
from rulec.runtime.model import Award, Game, Unit


class Unknowable(Exception):
    """The amount needs a game in progress."""


class BoundContext:
    """An EvalContext where every unit (or none) is on the map, anywhere."""

    def __init__(self, game: Game, turn: int, unit: Unit | None, everyone: bool):
        self.turn = turn
        self.turns = game.info.turns
        self.unit = unit
        self.phasing_side = unit.side if unit else None
        self._units = tuple(game.units.values()) if everyone else ()

    def units(self, side: str | None = None, zone: str | None = None, hex: str | None = None,
              type: str | None = None, flag: str | None = None) -> Sequence[Unit]:
        return [u for u in self._units if (side is None or u.side == side) and (type is None or u.type == type)
                and (flag is None or flag in u.flags)]

    def vp(self, side: str) -> int:
        raise Unknowable("vp")


def _strongest(unit: Unit) -> Unit:
    """The unit as its strongest counter (a variant may be stronger): an amount like `strength` takes the larger."""
    strongest = max((v.strength for v in unit.variants), default=unit.strength)
    if strongest > unit.strength:
        from dataclasses import replace
        return replace(unit, strength=strongest)
    return unit


def _largest(game: Game, award: Award, units: Iterable[Unit | None]) -> int:
    """The award's largest amount for any of `units`, any turn, every unit on the map or none."""
    best = 0
    turns = range(1, max(game.info.turns, 1) + 1)
    for unit in units:
        for turn in turns:
            for everyone in (True, False):
                context = BoundContext(game, turn, unit, everyone)
                try:
                    if award.only is not None and unit is not None and not award.only(context):
                        continue
                    best = max(best, int(award.amount(context)))
                except UNWEIGHABLE:  # an amount that fails on a made-up position, or no number, tells nothing
                    continue
    return best


def award_bound(game: Game, award: Award) -> int | None:
    """The most VP `award` can give its side in one game, or None if that cannot be worked out."""
    trigger = award.trigger
    try:
        if trigger.kind == "phase":
            return _largest(game, award, (None,)) * max(game.info.turns, 1)
        if trigger.kind == "holds":
            return _largest(game, award, (None,)) * max(len(trigger.hexes), 1)
        if trigger.kind == "selected":
            return _largest(game, award, (None,))
        if trigger.kind in ("exits", "eliminated"):
            side = trigger.side or award.side
            return sum(_largest(game, award, (_strongest(u),)) for u in game.units.values() if u.side == side)
    except Unknowable:
        return None
    return None


@dataclass(frozen=True)
class VpRange:
    most: dict[str, int]  # side -> the most VP its awards, options and variant counters can give
    unknown: tuple[str, ...]  # ids of awards whose bound could not be worked out


def vp_range(game: Game) -> VpRange:
    most = {side: 0 for side in game.sides}
    unknown = []
    for award in game.awards:
        bound = award_bound(game, award)
        if bound is None:
            unknown.append(award.id)
        elif award.side in most:
            most[award.side] += max(bound, 0)
    for option in game.options.values():
        for side, vp in option.vp.items():
            if side in most:
                most[side] += max(vp, 0)
        choice = option.choose_variant
        if choice is not None and choice.vp_to in most:  # the VP printed on the variant counters it puts in play
            most[choice.vp_to] += sum(v.vp for u in game.units.values() for v in u.variants if v.name == choice.variant)
    return VpRange(most, tuple(unknown))
