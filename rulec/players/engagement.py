"""The battles a position offers a side, kept from one position to the next: a term of the evaluator.

A side's battles are, for each enemy hex next to its units that may attack, the best of attacking it with all
of them or with each alone (battle_value.py); the battles worth fighting are then picked best first, each unit
attacking once (`pick`). A target's battles depend only on what stands within two hexes of it: its defenders,
the attackers next to it, and whether the hexes of both are surrounded (a unit that cannot retreat). The
greedy player weighs dozens of positions per decision, each one or two moves (or a battle's result) away from
the others; so `Engagement` keeps each target's battles of the last position worked out in full, and for a
position that differs from it in a few hexes works out again only the targets near those (`_affected`).

The result is the same as working every target out afresh (tests/test_players_engagement.py checks it on
random games). Only for games without ranged units: a ranged unit's targets lie farther than two hexes (the
evaluator works those positions out in full).
"""

from __future__ import annotations

from typing import Any, Final

from rulec.players import view
from rulec.players.battle_value import BattleValue
from rulec.runtime.model import Hex

# A position that differs from the kept one in more hexes than this is worked out in full (and kept instead).
MOST_CHANGED_HEXES: Final = 12
# A position that differs from the kept one in more hexes than this is kept instead (worked out from the kept one).
REBASE_AFTER: Final = 4
_MOST_KEPT: Final = 50_000  # targets' battles kept (Engagement._battles) before the table is emptied


def pick(found: list[tuple]) -> float:
    """The sum of the battles worth fighting, picked best first, each target and each unit in one battle only.
    `found`: (sort key, value, attacker ids, target); the key (-value, target, sorted ids) orders them the
    same way in every process."""
    found.sort(key=_first)
    used: set[str] = set()
    fought: set[Hex] = set()
    total = 0.0
    for _, value, ids, target in found:
        if target in fought or not ids.isdisjoint(used):
            continue
        total += value
        used |= ids
        fought.add(target)
    return total


def _first(entry: tuple) -> Any:
    return entry[0]


class _Kept:
    """A position worked out in full: where its units stood, their lost steps, who was done fighting, and each
    fighter's targets -> their battles, and the value of those (`pick`)."""

    __slots__ = ("order", "rank", "positions", "ids_at", "lost", "done", "targets", "values", "relocated")

    def __init__(self, positions: dict[str, Hex], ids_at: dict[Hex, list[str]], lost: dict[str, int],
                 done: frozenset[str] | None, targets: list[dict[Hex, list[tuple]]], values: list[float],
                 relocated: Any):
        self.order = list(positions)
        self.rank = {uid: index for index, uid in enumerate(self.order)}
        self.positions = positions.copy()  # (in one piece, holes and all: see Position.clone)
        self.ids_at = ids_at
        self.lost = dict(lost)
        self.done = done
        self.targets = targets
        self.values = values
        self.relocated = relocated  # the state's last change of hexes, if it tells them (view.hexes_moved)


class Engagement:
    """Each fighter's battles in a position (see the module docstring), for one evaluator.
    `neighbours`: hex -> its neighbours; `sides`: unit id -> its side;
    `full_steps`: unit id -> the steps it has at full strength."""

    def __init__(self, battles: BattleValue, neighbours: dict[Hex, tuple[Hex, ...]], sides: dict[str, str],
                 full_steps: dict[str, int]):
        self.battles = battles
        self.neighbours = neighbours
        self.sides = sides
        self.full_steps = full_steps
        self._kept: dict[tuple, _Kept] = {}  # (phase key, fighters, now) -> the last position worked out in full
        self._sorted: dict[Hex, tuple[Hex, ...]] = {}  # hex -> its neighbours in order
        # (target, its attackers, its defenders, who of them is trapped) -> its battles: the candidates of a decision
        # offer the same battle, at a target the move weighed is not near, again and again
        self._battles: dict[tuple, list[tuple]] = {}

    def values(self, state: Any, key: tuple, fighters: list[str], now: bool, keep: bool = False) -> list[float]:
        """The value of the battles each of `fighters` may fight in `state` (the first in the combat phase under
        way if `now`: units that attacked or were attacked in it are done); `keep`: the positions to come are near
        this one, keep it as the one they are compared with."""
        positions = state.positions
        lost = getattr(state, "lost_steps", {})
        done = frozenset(state.attacked | state.defended) if now else None
        relocated = getattr(state, "last_relocated", None)
        kept = self._kept.get(key)
        changed, rank, moved = self._changed_hexes(state, kept, positions, lost, done) if kept is not None \
            else (set(), {}, set())
        if kept is None or len(changed) > MOST_CHANGED_HEXES:
            ids_at = view.ids_by_hex(positions)
            targets = [self._all_targets(state, ids_at, fighter, done if now and index == 0 else None, lost)
                       for index, fighter in enumerate(fighters)]
            values = [pick([b for battles in by_target.values() for b in battles]) for by_target in targets]
            self._kept[key] = _Kept(positions, ids_at, lost, done, targets, values, relocated)
            return values
        ids_at = self._ids_after(kept, positions, changed, rank, moved)
        targets = []
        values = []
        sides = self.sides
        for index, (fighter, redo) in enumerate(zip(fighters, self._affected(ids_at, changed, fighters))):
            this_done = done if now and index == 0 else None
            redone = {}
            for target in redo:
                there = ids_at.get(target)
                if there and sides[there[0]] != fighter:  # an enemy hex: a target if attackers stand next to it
                    battles = self._target(state, ids_at, target, fighter, this_done, lost)
                    if battles:
                        redone[target] = battles
            was = kept.targets[index]
            if not redone and not any(target in was for target in redo):  # the kept position's battles, as they were
                targets.append(was)
                values.append(kept.values[index])
                continue
            by_target = {target: battles for target, battles in was.items() if target not in redo}
            by_target.update(redone)
            targets.append(by_target)
            values.append(pick([b for battles in by_target.values() for b in battles]))
        if keep or len(changed) > REBASE_AFTER:  # the positions to come are likely nearer this one than the kept one
            self._kept[key] = _Kept(positions, ids_at, lost, done, targets, values, relocated)
        return values

    # ------------------------------------------------------------ what changed since the kept position
    def _changed_hexes(self, state: Any, kept: _Kept, positions: dict[str, Hex], lost: dict[str, int],
                       done: frozenset[str] | None) -> tuple[set[Hex], dict[str, int], set[tuple[str, Hex]]]:
        """The hexes whose units (or their order), their steps or their being done differ from `kept`'s, each
        unit's rank in the order of `positions` (`state`'s: a hex's units are listed in that order), and the (unit,
        hex) of either that the other lacks (where units moved from and to)."""
        old, rank = kept.positions, kept.rank
        # the hexes units moved from or to, left the map from or entered it at
        moved, reorders = view.hexes_moved(state, kept.relocated, positions, old)
        changed: set[Hex] = {hex_ for _, hex_ in moved}
        # units left the map or entered it, or the engine reordered them (a unit broken down): not when the state
        # tells that none came onto the map or left it (the order of units that only moved stays)
        if reorders is not False and list(positions) != kept.order:
            rank = {uid: index for index, uid in enumerate(positions)}
            for hex_, ids in kept.ids_at.items():
                if len(ids) > 1 and hex_ not in changed and any(
                        uid not in rank or rank[uid] < rank[before] for before, uid in zip(ids, ids[1:])):
                    changed.add(hex_)
        if lost != kept.lost:
            for uid in set(lost).symmetric_difference(kept.lost) | {u for u in lost if lost[u] != kept.lost.get(u)}:
                for was in (old.get(uid), positions.get(uid)):
                    if was is not None:
                        changed.add(was)
        if done != kept.done:
            for uid in (done or frozenset()).symmetric_difference(kept.done or frozenset()):
                for was in (old.get(uid), positions.get(uid)):
                    if was is not None:
                        changed.add(was)
        return changed, rank, moved

    def _ids_after(self, kept: _Kept, positions: dict[str, Hex], changed: set[Hex],
                   rank: dict[str, int], moved: set[tuple[str, Hex]]) -> dict[Hex, list[str]]:
        """Hex -> the units there, in the order of `positions` (`rank`), from `kept`'s: the `changed` hexes redone
        (`moved`: the (unit, hex) of `positions` or of `kept`'s that the other lacks)."""
        ids_at = kept.ids_at.copy()
        # moved, or entered the map: their pairs of `positions` (a set difference would hash every pair again)
        movers = [uid for uid, hex_ in moved if positions.get(uid) == hex_]
        for hex_ in changed:
            here = [uid for uid in kept.ids_at.get(hex_, ()) if positions.get(uid) == hex_]
            arrived = [uid for uid in movers if positions[uid] == hex_]
            if arrived or len(here) > 1:
                here = sorted(here + arrived, key=rank.__getitem__)
            if here:
                ids_at[hex_] = here
            else:
                ids_at.pop(hex_, None)
        return ids_at

    def _affected(self, ids_at: dict[Hex, list[str]], changed: set[Hex], fighters: list[str]) -> list[set[Hex]]:
        """For each fighter, the targets whose battles a change in the `changed` hexes may change: those hexes and
        their neighbours (their defenders, attackers, or a neighbour of the target's), and the neighbours of the
        fighter's hexes next to them (a hex of attackers whose neighbours changed: they may be surrounded now, or no
        longer)."""
        neighbours, sides = self.neighbours, self.sides
        near = set(changed)
        beyond: dict[str, set[Hex]] = {}  # side -> the neighbours of its hexes next to the changed ones
        for hex_ in changed:
            for n in neighbours.get(hex_, ()):
                near.add(n)
                here = ids_at.get(n)
                if here:
                    side = sides[here[0]]
                    found = beyond.get(side)
                    if found is None:
                        found = beyond[side] = set()
                    found.update(neighbours.get(n, ()))
        return [near | beyond[fighter] if fighter in beyond else near for fighter in fighters]

    def _in_order(self, hex_: Hex) -> tuple[Hex, ...]:
        found = self._sorted.get(hex_)
        if found is None:
            found = self._sorted[hex_] = tuple(sorted(self.neighbours.get(hex_, ())))
        return found

    # ------------------------------------------------------------ a target's battles
    def _all_targets(self, state: Any, ids_at: dict[Hex, list[str]], fighter: str, done: frozenset[str] | None,
                     lost: dict[str, int]) -> dict[Hex, list[tuple]]:
        sides = self.sides
        targets = {}
        for hex_, ids in ids_at.items():
            if sides[ids[0]] != fighter:
                battles = self._target(state, ids_at, hex_, fighter, done, lost)
                if battles:
                    targets[hex_] = battles
        return targets

    def _target(self, state: Any, ids_at: dict[Hex, list[str]], target: Hex, fighter: str,
                done: frozenset[str] | None, lost: dict[str, int]) -> list[tuple]:
        """The battles worth fighting against `target` (each (sort key, value, attacker ids, target)): all the
        fighter's units next to it that may attack, and each alone."""
        there = ids_at.get(target)
        sides = self.sides
        if not there or sides[there[0]] == fighter or (done and any(uid in done for uid in there)):
            return []
        unit, full_steps, battle_value = state.unit, self.full_steps, self.battles
        attackers = []
        for hex_ in self._in_order(target):  # as the evaluator lists them: hex by hex, in order
            here = ids_at.get(hex_)
            if not here or sides[here[0]] != fighter:
                continue
            for uid in here:
                attacker = unit(uid)
                if battle_value.can_attack(attacker) and not (done and uid in done):
                    attackers.append((attacker, full_steps.get(uid, 1 + lost.get(uid, 0)) - lost.get(uid, 0), hex_))
        if not attackers:
            return []
        defenders = [(u, full_steps.get(u.id, 1 + lost.get(u.id, 0)) - lost.get(u.id, 0))
                     for u in map(unit, there)]
        trapped = self._trapped(ids_at, target, attackers)
        # what BattleValue.battle reads of the units (it keeps its values by the same)
        key = (target, tuple((u.id, u.strength, steps, h) for u, steps, h in attackers),
               tuple((u.id, u.strength, steps) for u, steps in defenders), trapped)
        found = self._battles.get(key)
        if found is None:
            groups = [attackers] + ([[a] for a in attackers] if len(attackers) > 1 else [])
            found = []
            for group in groups:
                value = self.battles.battle(group, defenders, target, trapped)
                if value > 0:
                    ids = frozenset(a.id for a, _, _ in group)
                    found.append(((-value, target, sorted(ids)), value, ids, target))
            if len(self._battles) > _MOST_KEPT:
                self._battles.clear()
            self._battles[key] = found  # (shared by the positions that offer it: never changed)
        return found

    def _trapped(self, ids_at: dict[Hex, list[str]], target: Hex, attackers: list) -> frozenset[str]:
        """The ids of the battle's units (the defenders in `target`, `attackers`: (unit, steps, hex)) whose every
        neighbouring hex holds an enemy: they cannot retreat."""
        neighbours, sides = self.neighbours, self.sides
        found: list[str] = []
        for hex_ in {target, *(h for _, _, h in attackers)}:
            side = sides[ids_at[hex_][0]]
            if all((there := ids_at.get(n)) and sides[there[0]] != side for n in neighbours.get(hex_, ())):
                found.extend(ids_at[hex_])
        return frozenset(found)
