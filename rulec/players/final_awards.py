"""What the awards paid when the game ends would pay in the position at hand, read from the awards.

An award paid at `game_end` may read anything of the final position: towns held, units standing in
a city, units that left the map. The evaluator asks what such awards would pay now of every
candidate position, so they are read once per game, by evaluating each award's amount in made-up
positions (`ProbeContext`: a stand-in where every trace reaches every hex) and comparing it with
the empty position:

- a hex where one unit of a side standing changes the amount (a unit in a city, a ring occupied);
- a tracked hex (movement's `control_of`, the hexes of `holds` awards) whose control by a side
  changes it (a town held);
- a unit of a side that left the map from a hex of an edge (an exit paid at the end).

Hexes that change one award by the same amount for the same side are grouped: when two of them
together pay what one does, they are alternatives (any hex of a city) and the group pays once;
otherwise each pays for itself. A position's value is then a sum over the groups it fills (and
over the units that left the map), cheap enough for every candidate move. What a probe cannot see
(a trace cut at the end, a condition on all hexes at once) is not valued: a heuristic, not a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from rulec.runtime.context import StandInContext
from rulec.runtime.model import Award, Game, Hex, Unit

STAND, CONTROL = "stand", "control"


@dataclass(frozen=True)
class HexGroup:
    """Hexes where a unit of `actor` standing (`by` STAND), or `actor` holding one (`by` CONTROL),
    pays `side` `value` VP at the end, once for the whole group."""

    actor: str
    by: str
    side: str
    value: float
    hexes: frozenset[Hex]


class ProbeContext(StandInContext):
    """A made-up position: `placed` units on the map, `held` hexes' holders, `exited` units -> the hex they left from."""

    def __init__(self, game: Game, placed: Iterable[tuple[Unit, Hex]] = (), held: Mapping[Hex, str] | None = None,
                 exited: Mapping[str, Hex] | None = None):
        super().__init__(turn=game.info.turns or 1, placed=placed, game=game)
        self._held = held or {}
        self._exited = exited or {}

    def units(self, side=None, zone=None, hex=None, type=None, flag=None, status=None):
        if status == "exited":
            if zone is not None or hex is not None:
                return []
            return [u for u in (self.game.units[uid] for uid in self._exited)
                    if (side is None or u.side == side) and (type is None or u.type == type)
                    and (flag is None or flag in u.flags)]
        return super().units(side, zone, hex, type, flag, status)

    def status_of(self, unit: Unit) -> str:
        return "exited" if unit.id in self._exited else super().status_of(unit)

    def exited_from(self, unit: Unit) -> str:
        return self._exited.get(unit.id, "")

    def controller(self, hex: str) -> str:
        return self._held.get(hex, "")


class FinalAwards:
    """The `game_end` awards of a game, read as groups of hexes (see the module docstring)."""

    def __init__(self, game: Game, tracked: Iterable[Hex]):
        self.game = game
        self.awards = [a for a in game.awards if a.trigger.kind == "game_end"]
        self.groups: list[HexGroup] = []
        self.of_hex: dict[Hex, list[int]] = {}  # hex -> the indexes of the groups it belongs to
        self.exit_edges: dict[str, dict[str, float]] = {}  # side -> edge -> VP its sample unit leaving by it pays
        self._exits: dict[tuple[str, Hex], dict[str, float]] = {}  # (unit, hex left from) -> side -> VP
        self.constant: dict[str, float] = {s: 0.0 for s in game.sides}  # what the empty position pays
        self._one_hex_held: list[tuple[Hex, str, str, float]] = []  # the groups of one hex held, for `paid`
        self._other_groups: list[HexGroup] = []
        if not self.awards or game.map is None:
            return
        self._empty = {a.id: self._amount(a, ProbeContext(game)) for a in self.awards}
        for award in self.awards:
            self.constant[award.side] += self._empty[award.id]
        samples = {side: next((u for u in game.units.values() if u.side == side), None) for side in game.sides}
        tracked = tuple(tracked)
        for actor, sample in samples.items():
            if sample is None:
                continue
            for award in self.awards:
                self._read(award, actor, STAND, game.map.hexes,
                           lambda hexes, s=sample: ProbeContext(game, placed=[(s, h) for h in hexes]))
                self._read(award, actor, CONTROL, tracked,
                           lambda hexes, a=actor: ProbeContext(game, held={h: a for h in hexes}))
            for edge, hexes in game.map.edges.items():
                if hexes:  # a hex mid-edge: a corner lies on two edges
                    paid = self.exit_value(sample.id, hexes[len(hexes) // 2])
                    if paid.get(actor, 0) > 0:
                        self.exit_edges.setdefault(actor, {})[edge] = paid[actor]
        for index, group in enumerate(self.groups):
            for h in group.hexes:
                self.of_hex.setdefault(h, []).append(index)
        self._one_hex_held = [(next(iter(g.hexes)), g.actor, g.side, g.value) for g in self.groups
                              if g.by == CONTROL and len(g.hexes) == 1]
        self._other_groups = [g for g in self.groups if g.by != CONTROL or len(g.hexes) != 1]

    def _amount(self, award: Award, context: ProbeContext) -> float:
        try:
            return float(award.amount(context))
        except Exception:  # an amount that needs more of a real game than a made-up position offers
            return 0.0

    def _read(self, award: Award, actor: str, by: str, hexes: Iterable[Hex],
              position: Callable[[list[Hex]], ProbeContext]) -> None:
        """Group the hexes where `actor` standing (or holding) changes `award`'s amount."""
        empty = self._empty[award.id]
        changes: dict[float, list[Hex]] = {}
        for h in hexes:
            change = self._amount(award, position([h])) - empty
            if change:
                changes.setdefault(change, []).append(h)
        every = len(self.game.map.hexes)
        for change, found in changes.items():
            if by == STAND and len(found) > every // 2:
                continue  # pays wherever the unit stands: not a place to go
            together = self._amount(award, position(found)) - empty
            if len(found) == 1 or together == change:
                parts = [found]  # alternatives (or one hex): paid once
            elif together == change * len(found):
                parts = [[h] for h in found]  # each pays for itself
            else:
                parts = self._split(award, change, found, position)
            self.groups.extend(HexGroup(actor, by, award.side, change, frozenset(p)) for p in parts)

    def _split(self, award: Award, change: float, hexes: list[Hex],
               position: Callable[[list[Hex]], ProbeContext]) -> list[list[Hex]]:
        """Hexes that pay `change` each: one part per set of alternatives (a pair of them pays `change` once)."""
        empty = self._empty[award.id]
        parts: list[list[Hex]] = []
        for h in hexes:
            for part in parts:
                if self._amount(award, position([part[0], h])) - empty == change:
                    part.append(h)
                    break
            else:
                parts.append([h])
        return parts

    # ------------------------------------------------------------------ a position's value
    def exit_value(self, uid: str, left_from: Hex) -> dict[str, float]:
        """Side -> what the unit `uid` having left the map from `left_from` pays at the end."""
        key = (uid, left_from)
        found = self._exits.get(key)
        if found is None:
            found = {}
            for award in self.awards:
                change = self._amount(award, ProbeContext(self.game, exited={uid: left_from})) - self._empty[award.id]
                if change:
                    found[award.side] = found.get(award.side, 0.0) + change
            self._exits[key] = found
        return found

    def filled(self, group: HexGroup, stands: Callable[[Hex, str], bool], holder: Callable[[Hex], str]) -> bool:
        if group.by == CONTROL:
            return any(holder(h) == group.actor for h in group.hexes)
        return any(stands(h, group.actor) for h in group.hexes)

    def paid(self, sides_at: Mapping[Hex, Any], holders: Mapping[Hex, str],
             exited: Mapping[str, Hex]) -> dict[str, float]:
        """Side -> VP the awards would pay in a position: `sides_at` hex -> the sides standing there (occupied
        hexes only), `holders` hex -> who holds it, `exited` the units that left the map -> their hex."""
        paid = dict(self.constant)
        for h, actor, side, value in self._one_hex_held:  # most groups (a town each): asked for first, cheaply
            if holders.get(h) == actor:
                paid[side] += value
        for group in self._other_groups:
            actor = group.actor
            if group.by == CONTROL:
                filled = any(holders.get(h) == actor for h in group.hexes)
            else:
                filled = any(actor in sides_at.get(h, ()) for h in group.hexes)
            if filled:
                paid[group.side] += group.value
        for uid, h in exited.items():
            for side, value in self.exit_value(uid, h).items():
                paid[side] += value
        return paid

    def change(self, hexes: Iterable[Hex], before: tuple[Callable, Callable], after: tuple[Callable, Callable]) -> dict[str, float]:
        """Side -> how much more the awards pay `after` than `before` ((stands, holder) each), when only `hexes` differ."""
        found: dict[str, float] = {}
        seen: set[int] = set()
        for h in hexes:
            for index in self.of_hex.get(h, ()):
                if index in seen:
                    continue
                seen.add(index)
                group = self.groups[index]
                was, now = self.filled(group, *before), self.filled(group, *after)
                if was != now:
                    found[group.side] = found.get(group.side, 0.0) + (group.value if now else -group.value)
        return found
