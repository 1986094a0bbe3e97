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
otherwise each pays for itself. Where no single hex (or unit off the map) changes an award but all
of them together do (hold three towns; three units off the map), the fewest that still do are found
by leaving the others out one by one, and each pays its share. A position's value is then a sum
over the groups it fills (and over the units that left the map), cheap enough for every candidate
move. What a probe cannot see (a trace cut at the end) is not valued: a heuristic, not a rule.

The victory conditions are read the same way: each victory level and sudden death that names a
winner is a goal worth GOAL_VALUE VP to it while its condition holds ("Blue wins if it holds 0404
at the end", "Blue wins once two units have left by the east edge"), so a position that would meet
it is worth more and its hexes and edges draw the winner's units. Only what a goal's condition
changes counts: one that holds in the empty position (`when = true`) pays nothing by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final, Iterable, Mapping

from rulec.runtime.context import StandInContext
from rulec.runtime.errors import UNWEIGHABLE
from rulec.runtime.model import Award, Expr, Game, Hex, Trigger, Unit

STAND: Final = "stand"
CONTROL: Final = "control"
# What a victory condition met is worth, in VP, to the side it makes the winner (a win outweighs most scores).
GOAL_VALUE: Final = 20.0


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
    """A made-up position: `placed` units on the map, `held` hexes' holders, `exited` units -> the hex they left from;
    the `options` the match was started with, and `variables` at these values (the others at their start)."""

    def __init__(self, game: Game, placed: Iterable[tuple[Unit, Hex]] = (), held: Mapping[Hex, str] | None = None,
                 exited: Mapping[str, Hex] | None = None, options: Iterable[str] = (),
                 variables: Mapping[str, Any] | None = None):
        super().__init__(turn=game.info.turns or 1, placed=placed, game=game)
        self._held = held or {}
        self._exited = exited or {}
        self._options = frozenset(options)
        self._variables = variables or {}

    def option(self, name: str) -> bool:
        return name in self._options

    def variable(self, name: str) -> Any:
        return self._variables[name] if name in self._variables else super().variable(name)

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

    def __init__(self, game: Game, tracked: Iterable[Hex], options: Iterable[str] = (),
                 leave_out: Iterable[Award] = ()):
        """`options`: those the match was started with (a condition may read them); `leave_out`: goals read
        elsewhere (variable_goals.py: those that read game variables)."""
        self.game = game
        self.options = tuple(options)
        left_out = {id(goal_condition(a)) for a in leave_out}
        self.goals = [g for g in victory_goals(game) if id(goal_condition(g)) not in left_out]
        self.awards = [a for a in game.awards if a.trigger.kind == "game_end"] + self.goals
        self.groups: list[HexGroup] = []
        self.of_hex: dict[Hex, list[int]] = {}  # hex -> the indexes of the groups it belongs to
        self.exit_edges: dict[str, dict[str, float]] = {}  # side -> edge -> VP its sample unit leaving by it pays
        self._exits: dict[tuple[str, Hex], dict[str, float]] = {}  # (unit, hex left from) -> side -> VP
        self.constant: dict[str, float] = {s: 0.0 for s in game.sides}  # what the empty position pays
        self._one_hex_held: list[tuple[Hex, str, str, float]] = []  # the groups of one hex held, for `paid`
        self._other_groups: list[HexGroup] = []
        # (holders, what they pay, the other groups they fill, their version): _held_paid
        self._last_held: tuple[dict[Hex, str], dict[str, float], list[bool], Any] | None = None
        # (units off the map -> the hex each left from, what each pays in turn (side, VP), the units in order)
        self._last_exited: tuple[dict[str, Hex], list[tuple[str, float]], list[str]] | None = None
        map_ = game.map
        if not self.awards or map_ is None:
            return
        self._empty = {a.id: self._amount(a, ProbeContext(game, options=self.options)) for a in self.awards}
        for award in self.awards:
            if award not in self.goals:  # a goal pays only for what the position changes in it
                self.constant[award.side] += self._empty[award.id]
        self._shares: dict[tuple[str, str], list[tuple[str, frozenset[Hex], float]]] = {}  # see _read_exits_together
        samples = {side: next((u for u in game.units.values() if u.side == side), None) for side in game.sides}
        tracked = tuple(tracked)
        for actor, sample in samples.items():
            if sample is None:
                continue

            def standing(hexes: list[Hex], s: Unit = sample) -> ProbeContext:
                return ProbeContext(game, options=self.options, placed=[(s, h) for h in hexes])

            def held(hexes: list[Hex], a: str = actor) -> ProbeContext:
                return ProbeContext(game, options=self.options, held={h: a for h in hexes})

            for award in self.awards:
                self._read(award, actor, STAND, map_.hexes, standing)
                if not self._read(award, actor, CONTROL, tracked, held):
                    self._read_together(award, actor, tracked, held)
                self._read_exits_together(award, actor)
            for edge, hexes in map_.edges.items():
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
        except UNWEIGHABLE:  # an amount that needs more of a real game than a made-up position offers, or no number
            return 0.0

    def _read(self, award: Award, actor: str, by: str, hexes: Iterable[Hex],
              position: Callable[[list[Hex]], ProbeContext]) -> bool:
        """Group the hexes where `actor` standing (or holding) changes `award`'s amount (whether any does)."""
        empty = self._empty[award.id]
        changes: dict[float, list[Hex]] = {}
        for h in hexes:
            change = self._amount(award, position([h])) - empty
            if change:
                changes.setdefault(change, []).append(h)
        assert self.game.map is not None  # (awards are read on a map game)
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
        return bool(changes)

    def _read_together(self, award: Award, actor: str, hexes: tuple[Hex, ...],
                       position: Callable[[list[Hex]], ProbeContext]) -> None:
        """Hexes `actor` must hold together to change `award` (no one of them does): the fewest that still do,
        found by leaving the others out one by one, each paying its share of the change."""
        if len(hexes) < 2:
            return
        empty = self._empty[award.id]
        change = self._amount(award, position(list(hexes))) - empty
        if not change:
            return
        needed = fewest(list(hexes), lambda some: self._amount(award, position(some)) - empty == change)
        share = change / len(needed)
        self.groups.extend(HexGroup(actor, CONTROL, award.side, share, frozenset((h,))) for h in needed)

    def _read_exits_together(self, award: Award, actor: str) -> None:
        """Units of `actor` that must all leave by an edge to change `award` (no one of them does): each unit
        that leaves by it pays its share of the change (exit_value)."""
        game, map_ = self.game, self.game.map
        assert map_ is not None  # (awards are read on a map game)
        units = [u.id for u in game.units.values() if u.side == actor]
        empty = self._empty[award.id]
        on_edges = {h for hexes in map_.edges.values() for h in hexes}
        inland = next((h for h in map_.hexes if h not in on_edges), None)
        for edge, hexes in map_.edges.items():
            if not hexes or len(units) < 2:
                continue
            left_from = hexes[len(hexes) // 2]
            if self._amount(award, ProbeContext(game, options=self.options, exited={units[0]: left_from})) != empty:
                continue  # one unit leaving pays already: exit_value reads it unit by unit
            change = self._amount(award, ProbeContext(game, options=self.options, exited={u: left_from for u in units})) - empty
            if not change:
                continue
            needed = fewest(units, lambda some: self._amount(
                award, ProbeContext(game, options=self.options, exited={u: left_from for u in some})) - empty == change)
            # A condition that does not ask where the units left from pays whatever hex a unit is said to have
            # left from (a unit that crossed an edge hex in the move that took it off the map): any hex, once.
            anywhere = inland is not None and self._amount(
                award, ProbeContext(game, options=self.options, exited={u: inland for u in needed})) - empty == change
            self._shares.setdefault((actor, award.id), []).append(
                (award.side, frozenset(map_.hexes) if anywhere else frozenset(hexes), change / len(needed)))
            if anywhere:
                return

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
            actor = self.game.units[uid].side if uid in self.game.units else None
            for award in self.awards:
                change = self._amount(award, ProbeContext(self.game, options=self.options, exited={uid: left_from})) - self._empty[award.id]
                if not change and actor is not None:  # a share of what several units leaving together change
                    change = sum((share for _, hexes, share in self._shares.get((actor, award.id), ()) if left_from in hexes), 0.0)
                if change:
                    found[award.side] = found.get(award.side, 0.0) + change
            self._exits[key] = found
        return found

    def filled(self, group: HexGroup, stands: Callable[[Hex, str], bool], holder: Callable[[Hex], str]) -> bool:
        if group.by == CONTROL:
            return any(holder(h) == group.actor for h in group.hexes)
        return any(stands(h, group.actor) for h in group.hexes)

    def paid(self, sides_at: Mapping[Hex, Any], holders: Mapping[Hex, str],
             exited: Mapping[str, Hex], holders_version: Any = None) -> dict[str, float]:
        """Side -> VP the awards would pay in a position: `sides_at` hex -> the sides standing there (occupied
        hexes only), `holders` hex -> who holds it, `exited` the units that left the map -> their hex;
        `holders_version`: a name the position gives its holders, if it has one (the same name, the same holders)."""
        held, controlled = self._held_paid(holders, holders_version)
        paid = dict(held)
        for group, held_filled in zip(self._other_groups, controlled):
            actor = group.actor
            if group.by == CONTROL:
                filled = held_filled
            else:
                filled = any(actor in sides_at.get(h, ()) for h in group.hexes)
            if filled:
                paid[group.side] += group.value
        for side, value in self._exits_paid(exited):
            paid[side] += value
        return paid

    def _exits_paid(self, exited: Mapping[str, Hex]) -> list[tuple[str, float]]:
        """What each unit that left the map pays, unit by unit (side, VP), in the order `paid` adds them up: kept
        for the units last asked about (an AI asks of thousands of positions in which no unit left the map)."""
        last = self._last_exited
        # the same units and hexes, in the same order (the sums come out the same to the last bit)
        if last is not None and len(exited) == len(last[0]) and exited == last[0] and list(exited) == last[2]:
            return last[1]
        kept = dict(exited)
        found = [(side, value) for uid, h in kept.items() for side, value in self.exit_value(uid, h).items()]
        self._last_exited = (kept, found, list(kept))
        return found

    def _held_paid(self, holders: Mapping[Hex, str], version: Any = None) -> tuple[dict[str, float], list[bool]]:
        """What the empty position and the groups of one hex held (most groups: a town each) pay, and which of the
        other groups are filled by the hexes held (one for each, False for a group of units standing): kept for the
        holders last asked about (an AI asks of thousands of positions in which no town changed hands), and their
        version."""
        last = self._last_held
        if last is not None and (version is not None and version == last[3] or last[0] == holders):
            if version != last[3]:
                self._last_held = (last[0], last[1], last[2], version)
            return last[1], last[2]
        paid = dict(self.constant)
        for h, actor, side, value in self._one_hex_held:
            if holders.get(h) == actor:
                paid[side] += value
        controlled = [group.by == CONTROL and any(holders.get(h) == group.actor for h in group.hexes)
                      for group in self._other_groups]
        self._last_held = (dict(holders), paid, controlled, version)
        return paid, controlled

    def change(self, hexes: Iterable[Hex], before: tuple[Callable, Callable], after: tuple[Callable, Callable],
               filled_before: dict[int, bool] | None = None) -> dict[str, float]:
        """Side -> how much more the awards pay `after` than `before` ((stands, holder) each), when only `hexes` differ.
        `filled_before`: group index -> whether it is filled `before`, kept by a caller that asks of one `before` again."""
        found: dict[str, float] = {}
        seen: set[int] = set()
        for h in hexes:
            for index in self.of_hex.get(h, ()):
                if index in seen:
                    continue
                seen.add(index)
                group = self.groups[index]
                was = filled_before.get(index) if filled_before is not None else None
                if was is None:
                    was = self.filled(group, *before)
                    if filled_before is not None:
                        filled_before[index] = was
                now = self.filled(group, *after)
                if was != now:
                    found[group.side] = found.get(group.side, 0.0) + (group.value if now else -group.value)
        return found


class _Goal:
    """A victory condition read as an amount: GOAL_VALUE while it holds (the function of an Award's `amount`; `when`,
    the condition, tells which victory condition it reads: goal_condition)."""

    def __init__(self, when: Any):
        self.when = when

    def __call__(self, context: Any) -> float:
        return GOAL_VALUE if self.when(context) else 0.0


def victory_goals(game: Game) -> list[Award]:
    """The victory levels and sudden deaths that name a winner, as awards paid at the end to it (see the module
    docstring)."""
    victory = game.victory
    if victory is None:
        return []
    conditions = [(f"level {v.id}", v.winner, v.when) for v in victory.levels] + \
        [(f"sudden death {v.id}", v.winner, v.when) for v in victory.sudden_death]
    return [Award(f"victory: {name}", winner, Trigger("game_end"), Expr(f"{GOAL_VALUE:g} if {when.source}", _Goal(when)))
            for name, winner, when in conditions if winner in game.sides and when is not None]


def goal_condition(goal: Award) -> Any:
    """The victory condition a goal of `victory_goals` reads (its amount's function's `when`)."""
    return getattr(getattr(goal.amount, "function", None), "when", None)


def fewest(items: list, still: Callable[[list], bool]) -> list:
    """Of `items` (for which `still` holds), a smallest-by-removal part for which it still holds."""
    kept = list(items)
    for item in list(kept):
        trial = [i for i in kept if i != item]
        if trial and still(trial):
            kept = trial
    return kept
