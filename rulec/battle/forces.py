"""Forces: the two armies of a battle, read from players' text.

A force is written `SIDE: UNIT, UNIT, ...`, where a UNIT is a kind of the
game's battle system (or one of its aliases), optionally followed by
`/QUALITY`, `/reserve` (keep it in reserve) and a count `xN`:

    Red: tank/good, infantry x3, mortar/reserve
    Blue: infantry x2, at-gun/poor

Names are compared without regard to case, hyphens or spaces. Mistakes raise
ForceError with a "did you mean" hint where one helps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulec.check.build_battle import normalise_name
from rulec.diagnostics import did_you_mean
from rulec.runtime import model as m

RESERVE_WORD = "reserve"
_COUNT = re.compile(r"^(?P<body>.*?)\s*[x×]\s*(?P<count>\d+)$", re.IGNORECASE)
MAX_UNITS = 64  # more units than any table holds: a typo such as x300


class ForceError(ValueError):
    """A force written wrongly; `hint` may suggest the fix."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class BattleUnit:
    """One unit of a force: its kind and quality; `index` is its place in the force as written."""

    index: int
    kind: m.BattleUnitKind
    quality: str
    marked_reserve: bool = False
    usual_quality: str = ""  # the kind's quality when none is written

    @property
    def category(self) -> str:
        return self.kind.category

    @property
    def label(self) -> str:
        """`kind/quality`, as a player would write it (quality left out when it is the kind's own)."""
        return self.kind.id if self.quality == self.usual_quality else f"{self.kind.id}/{self.quality}"


@dataclass(frozen=True)
class Force:
    """A side's army in one battle, with the modifiers that apply to all its units."""

    side: str  # the side's id in the game file
    name: str  # how to print it
    units: tuple[BattleUnit, ...]
    modifiers: tuple[m.BattleModifier, ...] = ()

    def with_modifier(self, modifier: m.BattleModifier) -> "Force":
        return Force(self.side, self.name, self.units, self.modifiers + (modifier,))


def resolve_side(game: m.Game, written: str) -> tuple[str, str]:
    """The side id and display name for a side as a player wrote it (id, name or adjective)."""
    key = normalise_name(written)
    if not key:
        raise ForceError("a force needs a side name before ':'")
    if not game.sides:  # a battle system without declared sides accepts any name
        return key, written.strip()
    for side in game.sides.values():
        if key in {normalise_name(side.id), normalise_name(side.name), normalise_name(side.adjective)}:
            return side.id, side.name
    names = [s.name for s in game.sides.values()] + list(game.sides)
    hint = did_you_mean(written.strip(), names) or f"sides are: {', '.join(s.name for s in game.sides.values())}"
    raise ForceError(f"unknown side '{written.strip()}'", hint)


def kind_names(system: m.BattleSystem) -> dict[str, m.BattleUnitKind]:
    """Every normalised name and alias -> the unit kind it means."""
    names: dict[str, m.BattleUnitKind] = {}
    for kind in system.kinds.values():
        for name in (kind.id, *kind.aliases):
            names.setdefault(normalise_name(name), kind)
    return names


def parse_force(game: m.Game, text: str) -> Force:
    """A force from `SIDE: UNIT, UNIT, ...`, with the side's own modifiers (a nationality rule)."""
    system = _system(game)
    side_text, colon, units_text = text.partition(":")
    if not colon:
        raise ForceError(f"a force is written 'SIDE: UNIT, UNIT, ...', found '{text}'")
    side, name = resolve_side(game, side_text)
    names = kind_names(system)
    units: list[BattleUnit] = []
    for item in units_text.split(","):
        if not item.strip():
            raise ForceError(f"an empty unit in '{text}'", "units are separated by single commas")
        kind, quality, reserve, count = _parse_unit(system, names, item.strip())
        for _ in range(count):
            units.append(BattleUnit(len(units), kind, quality, reserve, usual_quality=kind.quality or system.default_quality))
            if len(units) > MAX_UNITS:
                raise ForceError(f"more than {MAX_UNITS} units in one force")
    modifiers = tuple(mod for mod in system.modifiers.values() if side in mod.sides)
    return Force(side=side, name=name, units=tuple(units), modifiers=modifiers)


def _parse_unit(system: m.BattleSystem, names: dict[str, m.BattleUnitKind], item: str) -> tuple[m.BattleUnitKind, str, bool, int]:
    count = 1
    match = _COUNT.match(item)
    if match:
        item, count = match["body"], int(match["count"])
        if count < 1:
            raise ForceError(f"a count of {count} in '{match.group(0)}'", "write x1 or more")
    word, *marks = [part.strip() for part in item.split("/")]
    key = normalise_name(word)
    if key not in names:
        raise ForceError(f"unknown unit kind '{word}'", did_you_mean(key, sorted(names))
                         or f"kinds are: {', '.join(sorted(system.kinds))}")
    kind = names[key]
    quality = kind.quality or system.default_quality
    reserve = False
    for mark in marks:
        mark_key = normalise_name(mark)
        if mark_key == RESERVE_WORD:
            reserve = True
        elif mark_key in system.qualities:
            quality = mark_key
        else:
            raise ForceError(f"unknown quality '{mark}' for {kind.id}",
                             did_you_mean(mark_key, [*system.qualities, RESERVE_WORD])
                             or f"qualities are: {', '.join(system.qualities)}; or '{RESERVE_WORD}'")
    return kind, quality, reserve, count


def side_modifier(game: m.Game, force: Force, written: str) -> m.BattleModifier:
    """A modifier chosen for a battle: a matrix argument (+1, -1) or a named modifier (exhaustion)."""
    system = _system(game)
    value = written.strip()
    if re.fullmatch(r"[+-]?\d+", value):
        number = int(value)
        if number not in system.argument_values:
            allowed = ", ".join(f"{v:+d}" for v in system.argument_values)
            raise ForceError(f"a matrix argument gives {allowed}, not {number:+d}")
        return m.BattleModifier(id="argument", name="argument", value=number, text="a matrix argument")
    key = normalise_name(value)
    if key in system.modifiers:
        return system.modifiers[key]
    raise ForceError(f"unknown modifier '{value}' for {force.name}",
                     did_you_mean(key, system.modifiers) or f"write a number ({', '.join(f'{v:+d}' for v in system.argument_values)}) "
                                                            f"or one of: {', '.join(system.modifiers)}")


def _system(game: m.Game) -> m.BattleSystem:
    if game.battle is None:
        raise ForceError(f"game '{game.info.id}' has no battle system", "a battle system is a game file with a 'battle { ... }' section")
    return game.battle
