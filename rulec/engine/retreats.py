"""Retreats after combat: who must retreat, who picks the path, and the paths there are.

A retreat effect puts one `Retreat` frame per unit on the stack, the first unit
on top. A frame with one legal path (or none: the unit is eliminated) is carried
out by the rules alone; with several, the chooser picks one (`retreat HEX...`).
The legal paths come from combat.retreat_paths and the game's combat rules.
"""

from __future__ import annotations

from typing import Collection, Container, Iterator

from rulec.engine import combat as fight
from rulec.engine import changes, history, stacking
from rulec.engine.actions import Action
from rulec.engine.context import EngineContext
from rulec.engine.frames import Battle, Effects, Retreat
from rulec.engine.position import Position
from rulec.runtime.hexes import rows_to_edge
from rulec.runtime.model import Expr, Hex, Unit


def order_retreats(state: Position, battle: Battle, who: str, hexes: int, units: tuple[str, ...]) -> None:
    """Every unit in `units` must retreat `hexes` hexes: defenders away from the attackers, attackers
    away from the hexes they attacked."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    exempt = state.game.combat.retreat.exempt
    if exempt:  # units of these types hold their ground
        units = tuple(u for u in units if state._units[u].type not in exempt)
    if not units or hexes <= 0:
        return
    defender = who == "defender"
    side = state._units[units[0]].side
    enemy = battle.side if defender else state._units[battle.defenders[0]].side
    chooser = side if state.game.combat.retreat.chosen_by == "owner" else enemy
    away = battle.attacker_hexes if defender else battle.targets
    order = state.game.combat.retreat.order
    if order != "listed":  # strongest (weakest) first, ties in game-file order
        sign = -1 if order == "strongest_first" else 1
        units = tuple(sorted(units, key=lambda u: (sign * state.unit(u).strength, state.tables.unit_order[u])))
    for uid in reversed(units):  # the first unit on top of the stack
        state._stack.append(Retreat(uid, hexes, away, chooser, defender))


def paths(state: Position, frame: Retreat) -> list[tuple[Hex, ...]]:
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    side = state._units[frame.unit].side
    start = state.pos[frame.unit]
    policy = state.game.combat.retreat
    occupied: Container[Hex] = _Occupied(stacking.occupants(state), start)
    assert state.game.map is not None  # the engine plays map games
    toward = state.game.map.edges.get(policy.edges.get(side, ""), ()) if policy.direction != "away" else ()
    rows = _rows_to_edge(state, toward) if policy.direction == "toward_edge_rows" else None
    zoc = _InEnemyZoc(state, side)
    about = _AboutHexes(state, frame.unit)
    may_enter = None if policy.may_enter is None else _Condition(about, policy.may_enter)
    may_end = None if policy.may_end is None else _Condition(about, policy.may_end)
    found = fight.retreat_paths(state.tables, start, frame.hexes, frame.away_from, occupied, zoc, policy, toward,
                                may_enter, may_end, rows)
    if not found and policy.displace is not None and not frame.displaced:  # the last resort: push friends aside
        occupied = set(stacking.occupants(state)) - {start}
        found = displacing_paths(state, frame, about, occupied, lambda blocked: fight.retreat_paths(
            state.tables, start, frame.hexes, frame.away_from, blocked, zoc, policy, toward, may_enter, may_end, rows))
    for preference in policy.prefer:  # ordered preferences about the path's last hex, each keeping the best
        if len(found) < 2:
            break
        values = [about.value(preference, p[-1]) for p in found]
        best: int | float | bool
        if all(isinstance(v, bool) for v in values):  # a condition: the paths that meet it, if any does
            best = any(values)
        else:  # a number: the paths with the lowest value
            best = min(values)
        found = [p for p, v in zip(found, values) if v == best]
    return found


def _rows_to_edge(state: Position, edge: tuple[Hex, ...]) -> dict[Hex, int]:
    """Each hex's distance from `edge` across the hex rows, worked out once and kept with the game's tables."""
    kept = state.tables.edge_distances
    key = ("rows", edge)
    if key not in kept:
        gmap = state.game.map
        assert gmap is not None  # the engine plays map games
        kept[key] = rows_to_edge(gmap.grid, gmap.coordinates, edge)
    return kept[key]


def displacing_paths(state: Position, frame: Retreat, about: "_AboutHexes", occupied: set[Hex],
                     search) -> list[tuple[Hex, ...]]:
    """Paths ending in a hex of friends that `displace` lets the unit push aside, through no other occupied hex."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    side = state._units[frame.unit].side
    occupants = stacking.occupants(state)
    displace = state.game.combat.retreat.displace
    assert displace is not None  # the last resort of a game that has it
    friendly = {h for h in occupied if all(state._units[u].side == side for u in occupants.get(h, ()))
                and about.value(displace, h)}
    if not friendly:
        return []
    return [p for p in search(occupied - friendly) if p[-1] in friendly and not friendly.intersection(p[:-1])]


def displace_friends(state: Position, frame: Retreat, hex: Hex) -> None:
    """The friends in `hex`, which a retreat has just ended in, are pushed aside: each retreats one hex (first on
    the stack, so they leave before anything else happens), displacing nobody in turn."""
    friends = [u for u in stacking.occupants(state).get(hex, ()) if u != frame.unit]
    for uid in reversed(friends):
        state._stack.append(Retreat(uid, 1, frame.away_from, frame.chooser, frame.defender, displaced=True))


class _Occupied:
    """The occupied hexes but the retreat's start, asked of the few hexes it may step into (no set of them all)."""

    def __init__(self, occupants: dict[Hex, list[str]], start: Hex) -> None:
        self.occupants, self.start = occupants, start

    def __contains__(self, hex: object) -> bool:
        return hex != self.start and hex in self.occupants


class _InEnemyZoc:
    """Whether a hex is in the zone of control of `side`'s enemies, asked of the few hexes a retreat may step into
    (Position.in_enemy_zoc): after a battle's result the position is new, and the whole zone, worked out from every
    enemy unit, would be asked of a handful of hexes. Read from the zone where the position knows it already."""

    def __init__(self, state: Position, side: str) -> None:
        self.state, self.side = state, side
        self.known: frozenset[Hex] | None = state._standing.get(("zoc", side))

    def __contains__(self, hex: object) -> bool:
        known = self.known
        if known is not None:
            return hex in known
        return isinstance(hex, str) and self.state.in_enemy_zoc(hex, self.side)

    def __iter__(self) -> Iterator[Hex]:  # (the whole zone: only a condition that lists it asks)
        return iter(self.state.enemy_zoc(self.side))

    def __len__(self) -> int:
        return len(self.state.enemy_zoc(self.side))


class _RetreatContext(EngineContext):
    """What a retreat's conditions see, asked of the few hexes around one unit: the sides in a hex and the enemies'
    zone of control answered hex by hex (the position is new after a battle's result, and working them out for the
    whole map costs more than the handful of hexes asked)."""

    def __init__(self, state: Position, unit: Unit) -> None:
        super().__init__(state, unit)
        self._zocs: dict[str, _InEnemyZoc] = {}

    def sides_at(self, hex: str) -> Collection[str]:
        there = stacking.occupants(self._state).get(hex)
        if not there:
            return ()
        units = self._state._units
        return frozenset([units[u].side for u in there])

    def enemy_zoc(self, side: str) -> Collection[str]:
        found = self._zocs.get(side)
        if found is None:
            found = self._zocs[side] = _InEnemyZoc(self._state, side)
        return found


class _Condition:
    """One of the retreat policy's conditions, asked of a hex through the retreat's _AboutHexes. (A class, not a
    lambda: compiled, a lambda that another closure of the function reads is a reference cycle with their shared
    environment, holding the position until the cycle collector runs.)"""

    def __init__(self, about: "_AboutHexes", expression: Expr) -> None:
        self.about, self.expression = about, expression

    def __call__(self, hex: Hex) -> bool:
        return bool(self.about.value(self.expression, hex))


class _AboutHexes:
    """A retreat's conditions about `hex` for one retreating `unit`, each hex's value worked out once."""

    def __init__(self, state: Position, uid: str):
        self.context = _RetreatContext(state, state.unit(uid))
        self.context.keep_while_hex_varies()  # (a retreat's paths are found in one position)
        self.known: dict[tuple[int, Hex], int | float | bool] = {}  # a condition's or a number's

    def value(self, expression: Expr, hex: Hex) -> int | float | bool:
        key = (id(expression), hex)
        if key not in self.known:
            self.context.hex = hex
            self.known[key] = expression(self.context)
        return self.known[key]


def retreat_settle(state: Position, frame: Retreat) -> bool:
    """A retreat the rules make alone (one path, or none: eliminated); False when the chooser must pick."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    if frame.paths is not None:
        return False
    if frame.unit not in state.pos:  # no longer on the map: nothing to retreat
        state._stack.pop()
        return True
    found = paths(state, frame)
    if len(found) > 1:
        state._stack[-1] = frame.with_paths(tuple(found))
        return False
    state._stack.pop()
    if found:
        move_along(state, frame, found[0])
    elif state.game.combat.retreat.when_blocked == "eliminated":
        changes.eliminate(state, frame.unit)  # no retreat possible: destroyed
    return True


def retreat_legal(state: Position, frame: Retreat) -> list[Action]:
    return [Action.retreat(p) for p in frame.paths or ()]


def retreat_apply(state: Position, frame: Retreat, action: Action) -> None:
    state._stack.pop()
    move_along(state, frame, action.path)


def move_along(state: Position, frame: Retreat, path: tuple[Hex, ...]) -> None:
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    policy = state.game.combat.retreat
    displacing = (policy.displace is not None and not frame.displaced
                  and any(u != frame.unit for u in stacking.occupants(state).get(path[-1], ())))
    for i, h in enumerate(path):
        changes.enter(state, frame.unit, h, "stop" if i == len(path) - 1 else "pass")
    changes.relocate(state, frame.unit, path[-1])
    history.record(state, "retreated", (frame.unit,))
    if len(path) > 1:
        record_vacated(state, path[0], frame.defender)
    if displacing:  # a path ends among friends only where displace let it (occupied hexes are closed otherwise)
        displace_friends(state, frame, path[-1])


def record_vacated(state: Position, hex: Hex, defender: bool) -> None:
    """A retreat of the defender (an attacker) passed through `hex`: the other side's advance may go there too."""
    for i in range(len(state._stack) - 1, -1, -1):
        frame = state._stack[i]
        if type(frame) is Effects:
            if defender:
                state._stack[i] = frame.with_vacated(frame.vacated + (hex,), frame.attacker_vacated)
            else:
                state._stack[i] = frame.with_vacated(frame.vacated, frame.attacker_vacated + (hex,))
            return


def retreat_why(state: Position, frame: Retreat, action: Action) -> tuple[str, str | None]:
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    policy = state.game.combat.retreat
    rules = [{"enemy_zoc": "enemy zones of control", "occupied": "occupied hexes"}[k] for k in policy.may_not_enter]
    ends = [{"enemy_zoc": "an enemy zone of control", "occupied": "an occupied hex"}[k] for k in policy.may_not_end]
    detail = "; ".join(filter(None, [f"it may not enter {' or '.join(rules)}" if rules else "",
                                     f"every hex it enters must meet {policy.may_enter.source}" if policy.may_enter else "",
                                     f"the hex it ends in must meet {policy.may_end.source}" if policy.may_end else "",
                                     f"nor end in {' or '.join(ends)}" if ends else "",
                                     "nor cross a hexside that blocks retreats"]))
    return f"{state.unit_name(frame.unit)} must retreat {frame.hexes} hex(es) first: {detail}", "retreat"
