"""Deployment: who stands in the line, who waits in reserve, who fights whom.

The rules come from the battle system (the game file):

* the larger side may put up to `double_up` units against one enemy unit and
  keep a reserve of any units, distance weapons first when
  `distance_reserve_first`;
* the smaller side's reserve is limited by `smaller_side_reserve`;
* `match_first` says which enemy categories a unit must meet before any other
  (tanks meet tanks, then anti-tank guns).

Where the rules leave a choice, the default policy decides and says so in
`Deployment.notes` (docs/rulings.md, "Battle systems"): units marked
`/reserve` are the reserve; otherwise the larger side keeps its distance
weapons in reserve up to its surplus of units, and puts the rest of its
surplus beside enemy units; ties go to the order in which units were written.
Side 0 is the attacker, side 1 the defender.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulec.battle.forces import Force, ForceError
from rulec.runtime import model as m

Sides = tuple[tuple[int, ...], tuple[int, ...]]


class DeploymentError(ForceError):
    """The forces cannot be deployed as written (a reserve the rules forbid, a line too long)."""


@dataclass(frozen=True)
class Combat:
    """One combat of the battle line: the units of each side that fight it (indices into the forces)."""

    number: int
    units: Sides


@dataclass(frozen=True)
class Deployment:
    line: Sides
    reserve: Sides
    combats: tuple[Combat, ...]  # in the order the attacker resolves them
    larger: int | None  # the side with more units; None when equal
    held_back: Sides = ((), ())  # a skirmish: units that fight only if it grows into a battle
    notes: tuple[str, ...] = ()


def deploy(system: m.BattleSystem, forces: tuple[Force, Force], skirmish: bool = False) -> Deployment:
    """Deploy both forces for an open battle or a skirmish."""
    for force in forces:
        if not force.units:
            raise DeploymentError(f"{force.name} has no units")
    if skirmish:
        return _deploy_skirmish(system, forces)
    return _deploy_open(system, forces)


# ---------------------------------------------------------------- open battle
def _deploy_open(system: m.BattleSystem, forces: tuple[Force, Force]) -> Deployment:
    sizes = [len(f.units) for f in forces]
    larger = None if sizes[0] == sizes[1] else (0 if sizes[0] > sizes[1] else 1)
    notes: list[str] = []
    reserve = [[u.index for u in f.units if u.marked_reserve] for f in forces]
    for side, force in enumerate(forces):
        if side == larger:
            _check_reserve_first(system, force, reserve[side])
        else:
            _check_smaller_reserve(system, force, reserve[side], larger is None)
    line = [[u.index for u in f.units if u.index not in reserve[s]] for s, f in enumerate(forces)]

    if larger is not None and not reserve[larger]:
        small = 1 - larger
        surplus = len(line[larger]) - len(line[small])
        force = forces[larger]
        if system.distance_reserve_first and surplus > 0:
            kept = [i for i in line[larger] if force.units[i].kind.distance_weapon][:surplus]
            if kept:
                reserve[larger] += kept
                line[larger] = [i for i in line[larger] if i not in kept]
                notes.append(f"{force.name} keeps its distance weapons in reserve: {_labels(force, kept)}")
        most = system.double_up * len(line[small])
        if len(line[larger]) > most:
            extra = line[larger][most:]
            reserve[larger] += extra
            line[larger] = line[larger][:most]
            notes.append(f"{force.name} can put only {most} units in the line; in reserve: {_labels(force, extra)}")

    for side, force in enumerate(forces):
        if not line[side]:
            raise DeploymentError(f"{force.name} has no units in the line", "a reserve needs a line to feed")
    long = 0 if len(line[0]) > len(line[1]) else 1
    if len(line[0]) != len(line[1]):
        if larger is not None and long != larger:
            raise DeploymentError(f"{forces[long].name}, the smaller side, would put two units against one",
                                  f"only the larger side may; {forces[1 - long].name} should keep fewer units in reserve")
        most = system.double_up * len(line[1 - long])
        if len(line[long]) > most:
            raise DeploymentError(f"{forces[long].name} has {len(line[long])} units in the line against {len(line[1 - long])}; "
                                  f"at most {system.double_up} may oppose one enemy unit", "keep more units in reserve")
    lines = (tuple(line[0]), tuple(line[1]))
    combats = match_lines(system, forces, lines)
    return Deployment(line=lines, reserve=(tuple(reserve[0]), tuple(reserve[1])), combats=combats, larger=larger, notes=tuple(notes))


def _check_smaller_reserve(system: m.BattleSystem, force: Force, reserve: list[int], equal: bool) -> None:
    who = "with armies of equal size, neither side is the larger" if equal else f"{force.name} is the smaller side"
    if reserve and system.smaller_side_reserve == "none":
        raise DeploymentError(f"{force.name} may not keep a reserve: {who}")
    if system.smaller_side_reserve == "distance_weapons":
        wrong = [i for i in reserve if not force.units[i].kind.distance_weapon]
        if wrong:
            raise DeploymentError(f"{force.name} may keep only distance weapons in reserve, not {_labels(force, wrong)}: {who}")


def _check_reserve_first(system: m.BattleSystem, force: Force, reserve: list[int]) -> None:
    if not system.distance_reserve_first:
        return
    others = [i for i in reserve if not force.units[i].kind.distance_weapon]
    waiting = [u.index for u in force.units if u.kind.distance_weapon and u.index not in reserve]
    if others and waiting:
        raise DeploymentError(f"{force.name} puts {_labels(force, others)} in reserve before its distance weapons "
                              f"({_labels(force, waiting)})", "distance weapons fill a reserve before other units")


# ------------------------------------------------------------------- skirmish
def _deploy_skirmish(system: m.BattleSystem, forces: tuple[Force, Force]) -> Deployment:
    rules = system.skirmish
    lines, reserves, held = [], [], []
    for force in forces:
        marked = [u.index for u in force.units if u.marked_reserve]
        if len(marked) > rules.reserves:
            raise DeploymentError(f"{force.name} marks {len(marked)} units as reserve; a skirmish allows at most {rules.reserves}")
        free = [u for u in force.units if not u.marked_reserve]
        if system.distance_reserve_first:  # distance weapons stay back for the reserve
            free.sort(key=lambda u: u.kind.distance_weapon)
        line = [u.index for u in free[:rules.line]]
        if not line:
            raise DeploymentError(f"{force.name} has no unit to fight the skirmish", "mark fewer units as reserve")
        rest = [u for u in force.units if u.index not in line and u.index not in marked]
        if marked:
            reserve = marked
        else:
            if system.distance_reserve_first:
                rest.sort(key=lambda u: not u.kind.distance_weapon)
            reserve = [u.index for u in rest[:rules.reserves]]
        lines.append(tuple(line))
        reserves.append(tuple(reserve))
        held.append(tuple(u.index for u in force.units if u.index not in line and u.index not in reserve))
    line_pair = (lines[0], lines[1])
    combats = match_lines(system, forces, line_pair)
    return Deployment(line=line_pair, reserve=(reserves[0], reserves[1]), combats=combats, larger=None,
                      held_back=(held[0], held[1]))


# ------------------------------------------------------------------- matching
def match_lines(system: m.BattleSystem, forces: tuple[Force, Force], lines: Sides) -> tuple[Combat, ...]:
    """Face the two lines: priority pairs first, then the rest in written order, then doubled units."""
    units = [forces[0].units, forces[1].units]
    unmatched = [list(lines[0]), list(lines[1])]
    pairs: list[tuple[int, int]] = []  # (attacker unit, defender unit)

    def pair(side: int, mine: int, theirs: int) -> None:
        unmatched[side].remove(mine)
        unmatched[1 - side].remove(theirs)
        pairs.append((mine, theirs) if side == 0 else (theirs, mine))

    for category, targets in system.match_first.items():
        for target in targets:
            for side in (0, 1):
                mine = [i for i in unmatched[side] if units[side][i].category == category]
                theirs = [i for i in unmatched[1 - side] if units[1 - side][i].category == target]
                for a, b in zip(mine, theirs):
                    pair(side, a, b)
    for a, b in list(zip(unmatched[0], unmatched[1])):
        pair(0, a, b)

    # The longer line's remaining units join an enemy unit, up to double_up against one.
    long = 0 if unmatched[0] else 1
    opposed: dict[int, list[int]] = {}  # a short-line unit -> its opponents
    for a, b in pairs:
        mine, theirs = (a, b) if long == 0 else (b, a)
        opposed.setdefault(theirs, []).append(mine)
    for extra in list(unmatched[long]):
        room = [i for i in lines[1 - long] if len(opposed.get(i, [])) < system.double_up]
        if not room:
            raise DeploymentError(f"{forces[long].name} has more units in the line than it can put against the enemy")
        preferred = system.match_first.get(units[long][extra].category, ())
        ranked = sorted(room, key=lambda i: _rank(preferred, units[1 - long][i].category))
        opposed.setdefault(ranked[0], []).append(extra)
        unmatched[long].remove(extra)

    combats = []
    for short_unit, long_units in opposed.items():
        sides = (tuple(long_units), (short_unit,)) if long == 0 else ((short_unit,), tuple(long_units))
        combats.append(sides)
    combats.sort(key=lambda sides: min(sides[0]))  # the attacker's order: its line as written
    return tuple(Combat(number, sides) for number, sides in enumerate(combats, 1))


def _rank(preferred: tuple[str, ...], category: str) -> int:
    return preferred.index(category) if category in preferred else len(preferred)


def _labels(force: Force, indices: list[int]) -> str:
    return ", ".join(force.units[i].label for i in indices)
