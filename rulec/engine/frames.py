"""Pending decisions: the frames of a state's decision stack.

A state in the middle of a phase may owe decisions that must come before the
phase goes on: a battle being declared, its die roll, a result's effects still
to carry out, a retreat path, a unit that pays for an exchange, the advance after
combat, a unit removed from an over-stacked hex, the hex of a unit being placed. Each is a frame on
`GameState._stack`; the top frame says who decides and what may be chosen
(`legal_actions` asks it). Frames are immutable values, so a clone copies the
stack as a list and shares the frames; a frame that changes is replaced.

This module holds the data only; what each frame offers and does is in the
module of its job (battles.py, effects.py, retreats.py, advances.py, stacking.py,
legal_moves.py, placement.py), wired together by decisions.py.

A frame that changes is replaced through its `with_...` methods, which name the fields they change (each one's
parameters) and copy the others: dataclasses.replace looks the fields up anew at every call, and a battle's
frames change at nearly every step of its resolution (tests/test_engine_frames.py checks each method against it).

Each frame has its own `__init__` (dataclass init=False): compiled (make fast), mypyc makes a hand-written one
native, where the one the dataclass decorator generates at import runs interpreted, about ten times slower.
tests/test_engine_frames.py checks that each sets every field, defaults included, as the generated one would.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulec.engine.combat import Odds
from rulec.runtime.model import Effect, Hex


@dataclass(frozen=True, init=False)
class Battle:
    """A battle as it was resolved: who attacked which hexes from where, and at what odds."""

    side: str  # the attacking side
    targets: tuple[Hex, ...]  # the attacked hexes (several in a multi-hex battle), sorted
    attackers: tuple[str, ...]
    attacker_hexes: tuple[Hex, ...]  # where the attackers stood, sorted
    defenders: tuple[str, ...]
    odds: Odds | None  # None: a declared battle that lapsed (one side gone) is never rolled

    def __init__(self, side: str, targets: tuple[Hex, ...], attackers: tuple[str, ...],
                 attacker_hexes: tuple[Hex, ...], defenders: tuple[str, ...], odds: Odds | None) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "attackers", attackers)
        object.__setattr__(self, "attacker_hexes", attacker_hexes)
        object.__setattr__(self, "defenders", defenders)
        object.__setattr__(self, "odds", odds)

    @property
    def hex(self) -> Hex:
        """The first attacked hex (the only one but in a multi-hex battle)."""
        return self.targets[0]


@dataclass(frozen=True, init=False)
class Declare:
    """A battle being declared: its targets so far and the attackers added one at a time."""

    side: str
    targets: tuple[Hex, ...]
    attackers: tuple[str, ...] = ()

    def __init__(self, side: str, targets: tuple[Hex, ...], attackers: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "attackers", attackers)

    def with_targets(self, targets: tuple[Hex, ...]) -> "Declare":
        return Declare(self.side, targets, self.attackers)

    def with_attackers(self, attackers: tuple[str, ...]) -> "Declare":
        return Declare(self.side, self.targets, attackers)


@dataclass(frozen=True, init=False)
class Declared:
    """Battles declared and not fought yet, in a game that declares every battle first.

    Until the first is fought, more may be declared; then only `fight HEX` for each one
    left, in the attacker's order; once all are fought, only the end of the phase.
    """

    side: str
    battles: tuple[Declare, ...]
    fighting: bool = False

    def __init__(self, side: str, battles: tuple[Declare, ...], fighting: bool = False) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "battles", battles)
        object.__setattr__(self, "fighting", fighting)

    def with_battles(self, battles: tuple[Declare, ...], fighting: bool) -> "Declared":
        return Declared(self.side, battles, fighting)


@dataclass(frozen=True, init=False)
class Roll:
    """A declared battle waiting for its die roll (a chance node)."""

    battle: Battle

    def __init__(self, battle: Battle) -> None:
        object.__setattr__(self, "battle", battle)

    @property
    def odds(self) -> Odds:
        assert self.battle.odds is not None  # a battle rolled for has its odds
        return self.battle.odds


@dataclass(frozen=True, init=False)
class Effects:
    """The effects of a battle's result still to carry out, in order, and the hexes its retreats vacated."""

    battle: Battle
    effects: tuple[Effect, ...]
    vacated: tuple[Hex, ...] = ()  # hexes a defender's retreat passed through, besides the defender's own
    attacker_vacated: tuple[Hex, ...] = ()  # hexes an attacker's retreat passed through, besides the attackers' own
    sharing: tuple[str, ...] | None = None  # the units sharing the attackers' fate (combat { share_fate }), once known
    spared: frozenset[str] | None = None  # the units the result passes by (combat { spared }), once known
    # What each side of the battle had as the result began: (strength, steps) of the attackers, then the defenders;
    # `lost(defender)` amounts are measured against it.
    before: tuple[tuple[int, int], tuple[int, int]] | None = None

    def __init__(self, battle: Battle, effects: tuple[Effect, ...], vacated: tuple[Hex, ...] = (),
                 attacker_vacated: tuple[Hex, ...] = (), sharing: tuple[str, ...] | None = None,
                 spared: frozenset[str] | None = None,
                 before: tuple[tuple[int, int], tuple[int, int]] | None = None) -> None:
        object.__setattr__(self, "battle", battle)
        object.__setattr__(self, "effects", effects)
        object.__setattr__(self, "vacated", vacated)
        object.__setattr__(self, "attacker_vacated", attacker_vacated)
        object.__setattr__(self, "sharing", sharing)
        object.__setattr__(self, "spared", spared)
        object.__setattr__(self, "before", before)

    def with_effects(self, effects: tuple[Effect, ...]) -> "Effects":
        return Effects(self.battle, effects, self.vacated, self.attacker_vacated, self.sharing, self.spared, self.before)

    def with_vacated(self, vacated: tuple[Hex, ...], attacker_vacated: tuple[Hex, ...]) -> "Effects":
        return Effects(self.battle, self.effects, vacated, attacker_vacated, self.sharing, self.spared, self.before)

    def with_fates(self, sharing: tuple[str, ...], spared: frozenset[str],
                   before: tuple[tuple[int, int], tuple[int, int]]) -> "Effects":
        return Effects(self.battle, self.effects, self.vacated, self.attacker_vacated, sharing, spared, before)


@dataclass(frozen=True, init=False)
class Retreat:
    """A unit that must retreat, and who picks its path (`paths`: the choices, once worked out)."""

    unit: str
    hexes: int
    away_from: tuple[Hex, ...]
    chooser: str
    defender: bool
    paths: tuple[tuple[Hex, ...], ...] | None = None
    displaced: bool = False  # pushed aside by a friend's retreat (combat { retreat { displace } }): displaces nobody

    def __init__(self, unit: str, hexes: int, away_from: tuple[Hex, ...], chooser: str, defender: bool,
                 paths: tuple[tuple[Hex, ...], ...] | None = None, displaced: bool = False) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "away_from", away_from)
        object.__setattr__(self, "chooser", chooser)
        object.__setattr__(self, "defender", defender)
        object.__setattr__(self, "paths", paths)
        object.__setattr__(self, "displaced", displaced)

    def with_paths(self, paths: tuple[tuple[Hex, ...], ...]) -> "Retreat":
        return Retreat(self.unit, self.hexes, self.away_from, self.chooser, self.defender, paths, self.displaced)


@dataclass(frozen=True, init=False)
class Loss:
    """`side` must lose `owed` more strength (or steps, `in_steps`) from `units`, choosing one unit at a time.

    Each choice costs the unit one step: a unit without reduced sides is eliminated, a unit with
    them flips to its next side and pays the strength it lost by flipping.
    """

    side: str
    units: tuple[str, ...]
    owed: int
    in_steps: bool = False

    def __init__(self, side: str, units: tuple[str, ...], owed: int, in_steps: bool = False) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "owed", owed)
        object.__setattr__(self, "in_steps", in_steps)

    def with_owed(self, owed: int) -> "Loss":
        return Loss(self.side, self.units, owed, self.in_steps)


@dataclass(frozen=True, init=False)
class Advance:
    """The victor's chance to advance after combat: `count` more of `units` into `hexes`."""

    side: str
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]  # exactly the hexes some unit may advance into now (in the order of `vacated`)
    count: int
    vacated: tuple[Hex, ...] = ()  # every hex the battle vacated (its targets first), legal or not
    targets: tuple[Hex, ...] = ()  # the beaten side's hexes (the battle's targets when the attacker advances)
    who: str = "attacker"  # which side of the battle advances

    def __init__(self, side: str, units: tuple[str, ...], hexes: tuple[Hex, ...], count: int,
                 vacated: tuple[Hex, ...] = (), targets: tuple[Hex, ...] = (), who: str = "attacker") -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "vacated", vacated)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "who", who)

    def with_hexes(self, hexes: tuple[Hex, ...]) -> "Advance":
        return Advance(self.side, self.units, hexes, self.count, self.vacated, self.targets, self.who)

    def with_units(self, units: tuple[str, ...], count: int) -> "Advance":
        return Advance(self.side, units, self.hexes, count, self.vacated, self.targets, self.who)


@dataclass(frozen=True, init=False)
class Remove:
    """`side` removes units from over-stacked hexes, one at a time, before the phase ends."""

    side: str

    def __init__(self, side: str) -> None:
        object.__setattr__(self, "side", side)


@dataclass(frozen=True, init=False)
class Placing:
    """A placement phase's second step: `side` has chosen `unit` and now chooses its hex (or goes back)."""

    side: str
    unit: str

    def __init__(self, side: str, unit: str) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "unit", unit)


@dataclass(frozen=True, init=False)
class Moving:
    """A move's second step: `side` has chosen `unit` and now chooses where it goes (or goes back)."""

    side: str
    unit: str

    def __init__(self, side: str, unit: str) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "unit", unit)


Frame = Declare | Declared | Roll | Effects | Retreat | Loss | Advance | Remove | Placing | Moving
