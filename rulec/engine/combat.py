"""Combat arithmetic: the column of a battle, and where a beaten unit may retreat.

The column: strengths (after unit modifiers, engine/modifiers.py), then terrain, then the battle
modifiers in file order, each shift clamped to the table.

Pure functions over the model and the precomputed tables; the state decides
who attacks whom and applies the results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Container, Final, Iterable, Mapping

from rulec.engine.tables import Tables
from rulec.runtime.model import CombatTable, Game, Hex, Modifier, RetreatPolicy, hexside_key


@dataclass(frozen=True, init=False)
class Odds:
    """How a declared battle will be resolved (announced before the die roll, 10.1-style)."""

    attack: int | float  # after unit modifiers (a fraction only when the game keeps fractions)
    defence: int | float
    base_column: int  # from the differential or the odds alone, clamped to the table
    terrain_shift: int
    modifier_shift: int  # the battle modifiers' column shifts, applied after terrain
    column: int  # final column index, clamped after every shift
    drm: int
    label: str  # the final column's label
    modifiers: tuple[str, ...] = ()  # the modifiers that applied: unit modifiers, then battle modifiers

    def __init__(self, attack: int | float, defence: int | float, base_column: int, terrain_shift: int,
                 modifier_shift: int, column: int, drm: int, label: str, modifiers: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "defence", defence)
        object.__setattr__(self, "base_column", base_column)
        object.__setattr__(self, "terrain_shift", terrain_shift)
        object.__setattr__(self, "modifier_shift", modifier_shift)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "drm", drm)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "modifiers", modifiers)

    @property
    def differential(self) -> int | float:
        return self.attack - self.defence


def base_column(table: CombatTable, attack: int | float, defence: int | float) -> int:  # strengths after modifiers may be fractional
    """The column of a strength comparison; beyond either end it is the end column."""
    if table.kind == "odds":
        value = attack / defence if defence else float("inf")

        def bound(b):
            return b[0] / b[1] if isinstance(b, tuple) else b
    else:
        value = attack - defence

        def bound(b):
            return b
    index = 0
    for i, column in enumerate(table.columns):
        if column.low is None or bound(column.low) <= value:
            index = i
    return index


def clamp(index: int, table: CombatTable) -> int:
    return max(0, min(len(table.columns) - 1, index))


def terrain_effect(tables: Tables, defender_hex: Hex, attacker_hexes: Iterable[Hex]) -> tuple[int, int]:
    """Column shift and DRM from the defender's hex and the hexsides the attack crosses."""
    game = tables.game
    attacker_hexes = tuple(attacker_hexes)
    effects = []
    shift, drm = tables.hex_shift[defender_hex]
    if shift or drm:
        effects.append((shift, drm))
    crossed: dict[tuple[int, int, str], int] = {}
    for h in attacker_hexes:
        for effect in tables.hexside_combat.get(hexside_key(h, defender_hex), ()):
            crossed[effect] = crossed.get(effect, 0) + 1
    for (s, d, when), count in crossed.items():
        if when == "always" or (when == "any_attacker_across" and count) or \
                (when == "all_attackers_across" and count == len(attacker_hexes)):
            effects.append((s, d))
    if not effects:
        return 0, 0
    if game.combat is not None and game.combat.terrain_effects == "cumulative":
        return sum(s for s, _ in effects), sum(d for _, d in effects)
    # Not cumulative: only the effect worst for the attacker applies: the leftmost shift, then the
    # die-roll modifier that helps the attacker least (the table says which side a positive DRM helps).
    sign = 1 if game.combat is None or game.tables[game.combat.table].drm == "attacker" else -1
    return min(effects, key=lambda effect: (effect[0], sign * effect[1]))


def odds(game: Game, tables: Tables, attack: int | float, defence: int | float, attacker_hexes: list[Hex],
         defender_hex: Hex, more_defender_hexes: tuple[Hex, ...] = (), steps: Iterable[Modifier] = (),
         unit_modifiers: tuple[str, ...] = ()) -> Odds:
    """The odds of a battle of `attack` against `defence` (strengths after unit modifiers, whose ids
    are `unit_modifiers`): the column, then the terrain effect, then each battle modifier of `steps`
    in file order, the column clamped to the table after each shift. A multi-hex battle
    (`more_defender_hexes`) takes the terrain effect of its target hexes worst for the attacker."""
    assert game.combat is not None  # a battle is fought by the game's combat rules
    table = game.tables[game.combat.table]
    column = base = base_column(table, attack, defence)
    shift, drm = terrain_effect(tables, defender_hex, attacker_hexes)
    if more_defender_hexes:
        sign = 1 if table.drm == "attacker" else -1
        shift, drm = min([(shift, drm)] + [terrain_effect(tables, h, attacker_hexes) for h in more_defender_hexes],
                         key=lambda effect: (effect[0], sign * effect[1]))
    column = clamp(column + shift, table)
    modifier_shift = 0
    applied = list(unit_modifiers)
    for modifier in steps:
        modifier_shift += modifier.shift
        drm += modifier.drm
        column = clamp(column + modifier.shift, table)
        applied.append(modifier.id)
    return Odds(attack, defence, base, shift, modifier_shift, column, drm, table.columns[column].label, tuple(applied))


def result_code(table: CombatTable, column: int, roll: int, drm: int) -> str:
    low, high = table.die_range
    return table.rows[max(low, min(high, roll + drm))][column]


def retreat_paths(tables: Tables, start: Hex, hexes: int, away_from: tuple[Hex, ...],
                  occupied: Container[Hex], enemy_zoc: Container[Hex],
                  policy: RetreatPolicy, toward: tuple[Hex, ...] = (),
                  may_enter: Callable[[Hex], bool] | None = None,
                  may_end: Callable[[Hex], bool] | None = None,
                  rows_to_edge: dict[Hex, int] | None = None) -> list[tuple[Hex, ...]]:
    """Every legal retreat path of `hexes` hexes under the game's retreat `policy`, in a stable order.

    Direction "away": each hex lies one hex farther from the start than the last and
    no nearer any hex in `away_from`; "toward_edge": each hex is nearer the edge hexes
    `toward` than the last (with `rows_to_edge`, "toward_edge_rows": nearer counted across
    the hex rows along the edge, so the straight hex and both diagonals qualify, and each hex
    one hex farther from the start). No step crosses a hexside that blocks retreats, enters a
    hex of a kind the policy forbids (an enemy zone of control, an occupied hex) or
    ends in one it may not end in; each hex must meet `may_enter` and the last `may_end` (the
    policy's conditions, when it has them). A path that would leave the map does not exist.
    """
    blocked = tables.retreat_blocked
    banned: dict[str, Container[Hex]] = {"enemy_zoc": enemy_zoc, "occupied": occupied}
    never = [banned[k] for k in policy.may_not_enter]
    not_last = [banned[k] for k in policy.may_not_end]
    onward = _Onward(tables, start, away_from, policy, toward, rows_to_edge)
    paths: list[tuple[Hex, ...]] = [()]
    for depth in range(1, hexes + 1):
        last = depth == hexes
        steps: dict[Hex, list[Hex]] = {}  # a hex -> where its next step may go (paths may meet in a hex)
        longer: list[tuple[Hex, ...]] = []
        for p in paths:
            h = p[-1] if p else start
            options = steps.get(h)
            if options is None:
                options = steps[h] = [
                    n for n in tables.neighbours[h]
                    if (h, n) not in blocked and onward.leads_on(h, n, depth)
                    and not any(n in kind for kind in never) and not (last and any(n in kind for kind in not_last))
                    and (may_enter is None or may_enter(n)) and not (last and may_end is not None and not may_end(n))]
                options.sort()
            longer += [p + (n,) for n in options]
        paths = longer
        if not paths:  # no way on (a retreat longer than the map is wide ends here, not after `hexes` steps)
            break
    return paths


class Steps:
    """The steps from one hex to each hex asked so far (None: out of reach), from the map's distances (tables.
    Distances), kept with the game's tables (steps_from): a retreat asks of a handful of hexes around its start,
    battle after battle, and a dict of numbers answers faster than a distance row (a Mapping: a method call each)."""

    __slots__ = ("row", "known")

    def __init__(self, row: Mapping[Hex, int]) -> None:
        self.row = row
        self.known: dict[Hex, int | None] = {}

    def to(self, b: Hex) -> int | None:
        known = self.known
        if b in known:
            return known[b]
        found: int | None = self.row.get(b)
        known[b] = found
        return found

    def to_or_0(self, b: Hex) -> int:
        found = self.to(b)
        return 0 if found is None else found


_NO_STEPS: Final = Steps({})  # (a direction that counts no steps from the start)


def steps_from(tables: Tables, a: Hex) -> Steps:
    """The steps from `a` (Steps), kept with the game's tables (Tables.edge_distances, by ("steps", a))."""
    key = ("steps", a)
    found = tables.edge_distances.get(key)
    if found is None:
        found = tables.edge_distances[key] = Steps(tables.distance[a])
    return found


class _Onward:
    """Whether a retreat's step leads on in the policy's direction. (A class, not closures: compiled, nested
    functions that call each other are a reference cycle, which only the cycle collector frees.)"""

    def __init__(self, tables: Tables, start: Hex, away_from: tuple[Hex, ...], policy: RetreatPolicy,
                 toward: tuple[Hex, ...], rows_to_edge: dict[Hex, int] | None) -> None:
        self.distance = tables.distance
        self.rows_to_edge = rows_to_edge
        self.toward = toward
        self.to_edge: dict[Hex, int] | None = None
        self.from_start: Steps = _NO_STEPS
        self.away: list[Steps] = []
        if rows_to_edge is None and policy.direction == "toward_edge":
            # Hex -> steps to the nearest edge hex, kept with the game's tables: asked of the same hexes battle after
            # battle.
            self.to_edge = tables.edge_distances.setdefault(toward, {})
        else:
            self.from_start = steps_from(tables, start)
            if rows_to_edge is None:
                self.away = [steps_from(tables, a) for a in away_from]

    def leads_on(self, h: Hex, n: Hex, depth: int) -> bool:
        """Is a step from `h` to `n`, the retreat's `depth`-th, one the direction allows?"""
        rows = self.rows_to_edge
        if rows is not None:
            # Both diagonals count as nearer, so each step must also leave the start farther behind: a zigzag
            # (one diagonal, then the other) would end a two-hex retreat one hex away.
            return rows.get(n, 1 << 30) < rows.get(h, 1 << 30) and self.from_start.to(n) == depth
        if self.to_edge is not None:
            return self._steps_to_edge(n) < self._steps_to_edge(h)
        if self.from_start.to(n) != depth:
            return False
        for d in self.away:
            if d.to_or_0(n) < d.to_or_0(h):
                return False
        return True

    def _steps_to_edge(self, h: Hex) -> int:
        nearest = self.to_edge
        assert nearest is not None  # (toward_edge)
        found = nearest.get(h)
        if found is None:
            found = nearest[h] = min((self.distance[h].get(e, 1 << 30) for e in self.toward), default=1 << 30)
        return found
