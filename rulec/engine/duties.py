"""Who may attack, who must attack, and who must be attacked in a combat phase.

A game's `combat { may_attack = ...  must_attack = ...  must_be_attacked = ... }` are
conditions about one unit (model.CombatRules), read here:

- may_attack: a phasing unit for which it fails may not attack at all (on top of its
  type's `can_attack` and a strength above 0);
- must_attack: a phasing unit for which it holds, that may still attack and stands next
  to an enemy hex that may still be attacked, must attack this phase;
- must_be_attacked: an enemy unit for which it holds, not attacked yet this phase, with a
  phasing unit next to it that may still attack, must be attacked this phase;
- must_attack_target (about an enemy unit): what a unit under must_attack must attack. Only
  a hex holding such a unit counts for its duty, and while its duty is open the unit may
  join no battle without such a hex (it would have used its attack on something else).

An attack counts for a duty only where the game's may_join (joining.py) lets the unit
join a battle against that hex alone. A unit's range creates no duty: only enemy hexes
next to it do, and while its duty is open it may join no battle without such a hex (a gun
next to an enemy may not bombard elsewhere, whatever the order battles are fought in).

While a duty is open the combat phase may not end (and, in a game that declares every
battle first, the first battle may not be fought); a battle may not be resolved without a
unit that must attack, could join it, and would then have no enemy hex left to attack,
nor with attackers that leave fewer enemy hexes that must be attacked able to be attacked
than before (a player may not use up an enemy's only possible attacker elsewhere)
(docs/rulings.md). Every duty can always be met: the attack it asks for is legal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Any, Final, Iterable

from rulec.engine import joining, markers, stacking
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.runtime.model import Hex

if TYPE_CHECKING:
    from rulec.engine.frames import Declare


def ready_to_attack(state: Position) -> frozenset[str]:
    """The phasing side's units that may still attack this phase (if next to an enemy); kept for the position (a
    combat decision asks it of every target and every unit that may join: do not modify)."""
    found = state._cache.get(READY)
    if found is None:
        ready = _ready_to_attack(state)
        found = state._cache[READY] = ready if type(ready) is frozenset else frozenset(ready)
    return found


READY: Final = "ready to attack"  # the cache's key of ready_to_attack's answer


def _ready_to_attack(state: Position) -> AbstractSet[str]:  # a frozenset, or a set once narrowed
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    assert state.phase.side is not None  # a combat phase is a side's
    able = state._able_to_attack.get(state.phase.side)
    if able is None:  # the same all game (shared with clones)
        able = state._able_to_attack[state.phase.side] = frozenset(
            u for u in state.tables.units_of.get(state.phase.side, ()) if can_attack(state, u))
    condition = state.game.combat.may_attack
    fixed = condition is not None and not condition.reads_position
    if fixed:  # may_attack's answers narrow the units able to attack once a game (allowed)
        able = _able_and_allowed(state, state.phase.side, able)
    ready = able.difference(state.attacked, markers.forbidden(state, "attack")) if state.markers.units else \
        able.difference(state.attacked)
    if state._phase_attackers is not None:
        ready &= state._phase_attackers
    if condition is None:
        return ready
    if fixed:
        pos = state.pos
        return frozenset([uid for uid in ready if uid in pos])
    return allowed(state, ready)


def _able_and_allowed(state: Position, side: str, able: frozenset[str]) -> frozenset[str]:
    """Of the side's units `able` to attack, those may_attack (reading the unit alone) lets attack: the same all
    game while both are."""
    allowing = _allowing(state, side)
    key = ("able and allowed", side)
    kept = state._for_the_game.get(key)
    if kept is None or kept[0] is not able or kept[1] is not allowing:
        kept = state._for_the_game[key] = (able, allowing, able & allowing)
    return kept[2]


def _allowing(state: Position, side: str) -> frozenset[str]:
    """The side's units the game's may_attack, reading the unit alone, lets attack."""
    condition = state.game.combat.may_attack if state.game.combat is not None else None
    assert condition is not None  # asked only of a game with one
    return _units_holding(state, ("may_attack", side), condition, state.tables.units_of.get(side, ()))


def _units_holding(state: Position, key: tuple, condition: Any, uids: Iterable[str]) -> frozenset[str]:
    """Of `uids`, those `condition` (reading nothing of the position but the unit) holds for: the same answers all
    game while the units are, kept for the game under `key` (a unit that loses a step is another: the dict is
    copied)."""
    kept = state._for_the_game.get(key)
    if kept is None or kept[0] is not state._units:
        kept = state._for_the_game[key] = (state._units,
                                           frozenset(uid for uid in uids if _holds(state, condition, uid)))
    return kept[1]


def can_attack(state: Position, uid: str) -> bool:
    """Has the unit the strength and the type to attack at all?"""
    unit = state._units[uid]
    kind = state.game.unit_types.get(unit.type)
    return unit.strength > 0 and (kind is None or kind.can_attack)


def allowed(state: Position, units: frozenset[str] | set[str]) -> set[str]:
    """Of `units`, those the game's `may_attack` lets attack now (all of them without one)."""
    condition = state.game.combat.may_attack if state.game.combat is not None else None
    if condition is None:
        return set(units)
    if not condition.reads_position:  # about the unit alone: the same answers in every position while the units are
        side = state.phase.side or ""  # (a combat phase always has a side)
        return {uid for uid in _allowing(state, side).intersection(units) if uid in state.pos}
    passing = state._cache.get("may_attack")
    if passing is None:
        passing = state._cache["may_attack"] = {}
    found = set()
    for uid in units:
        if uid not in state.pos:  # off the map: attacks nothing
            continue
        ok = passing.get(uid)
        if ok is None:
            ok = passing[uid] = bool(condition.function(EngineContext(state, state.unit(uid))))
        if ok:
            found.add(uid)
    return found


def binding(state: Position) -> bool:
    """Do duties apply in this phase at all (a combat phase of a game with must_attack or must_be_attacked)?"""
    combat = state.game.combat
    return state.phase.kind == "combat" and combat is not None and \
        (combat.must_attack is not None or combat.must_be_attacked is not None)


def open_duties(state: Position) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(phasing units that must still attack, enemy units that must still be attacked), in game-file order."""
    if not binding(state):
        return (), ()
    found = state._cache.get(OPEN)
    if found is None:
        found = state._cache[OPEN] = _open_duties(state)
    return found


OPEN: Final = "duties"  # the cache's key of open_duties' answer


def _open_duties(state: Position) -> tuple[tuple[str, ...], tuple[str, ...]]:
    combat, neighbours = state.game.combat, state.tables.neighbours
    assert combat is not None  # a battle is fought by the game's combat rules
    ready = ready_to_attack(state)
    occupants = stacking.occupants(state)
    side = state.phase.side
    must_attack: list[str] = []
    must_be_attacked = []
    if combat.must_attack is not None and side is not None and _duty_hexes(state, side):
        must_attack = sorted((uid for uid in ready if uid in state.pos and _attackable_near(state, uid)
                              and owes_attack(state, uid)), key=state.tables.unit_order.__getitem__)
    if combat.must_be_attacked is not None:
        for uid, h in state.pos.items():
            unit = state.unit(uid)
            if unit.side == side or uid in state.defended:
                continue
            near = (u for n in neighbours[h] for u in occupants.get(n, ()))
            if any(u in ready and joining.may_join(state, u, (h,), ()) for u in near) and \
                    _holds(state, combat.must_be_attacked, uid):
                must_be_attacked.append(uid)
    return tuple(must_attack), tuple(must_be_attacked)


def _holds(state: Position, condition, uid: str) -> bool:
    return bool(condition.function(EngineContext(state, state.unit(uid))))


def _attackable_near(state: Position, uid: str, leaving_out: tuple[Hex, ...] = ()) -> list[Hex]:
    """The enemy hexes next to `uid` that may still be attacked this phase, that hold a target of its duty and
    that it may join a battle against (but those in `leaving_out`)."""
    duty = _duty_hexes(state, state._units[uid].side)
    if not duty:
        return []
    return [n for n in state.tables.neighbours[state.pos[uid]]
            if n in duty and n not in leaving_out and joining.may_join(state, uid, (n,), ())]


def _duty_hexes(state: Position, side: str) -> frozenset[Hex]:
    """The hexes of `side`'s enemies that may still be attacked this phase and hold a target of a duty
    (holds_target): a duty is owed only next to one. Kept for the position, by side, and through a declaration's steps
    as holds_target's answers are (GameState._KEPT_WHILE_DECLARING); most positions have few or none."""
    by_side: dict[str, frozenset[Hex]] | None = state._cache.get(DUTY_HEXES)
    if by_side is None:
        by_side = state._cache[DUTY_HEXES] = {}
    found = by_side.get(side)
    if found is None:
        occupants, units, defended = stacking.occupants(state), state._units, state.defended
        targets = _target_units(state)
        if targets is not None:  # the condition reads the unit alone: the hexes of its units hold a target
            pos = state.pos
            found = frozenset(h for h in {pos[u] for u in targets if u in pos}
                              if units[occupants[h][0]].side != side and not defended.issuperset(occupants[h]))
        else:
            found = frozenset(h for h, there in occupants.items() if units[there[0]].side != side
                              and not defended.issuperset(there) and holds_target(state, h))
        by_side[side] = found
    return found


DUTY_HEXES: Final = "duty hexes"  # (GameState._cache) side -> _duty_hexes' answer


def holds_target(state: Position, h: Hex) -> bool:
    """Does hex `h` hold a unit for which the game's must_attack_target holds (any unit without one)?"""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    condition = state.game.combat.must_attack_target
    if condition is None:
        return True
    key = ("duty target", h)
    found = state._cache.get(key)
    if found is None:
        there = stacking.occupants(state).get(h, ())
        targets = _target_units(state)
        found = state._cache[key] = any(u in targets for u in there) if targets is not None else \
            any(_holds(state, condition, u) for u in there)
    return found


def _target_units(state: Position) -> frozenset[str] | None:
    """The units for which the game's must_attack_target holds, when it reads nothing of the position but the unit:
    the same answers all game while the units are (once a game: a unit that loses a step is another, the dict is
    copied); None when it reads the position."""
    condition = state.game.combat.must_attack_target if state.game.combat is not None else None
    if condition is None or condition.reads_position:
        return None
    return _units_holding(state, ("must_attack_target",), condition, state._units)


def bound_elsewhere(state: Position, units: set[str], targets: tuple[Hex, ...]) -> set[str]:
    """Of `units`, those a battle against `targets` must leave out: units whose must_attack duty is open (an
    enemy hex next to them they must attack) when no hex of `targets` is one of those."""
    combat = state.game.combat
    if combat is None or combat.must_attack is None:
        return set()
    return {uid for uid in units if bound_away(state, uid, targets)}


def bound_away(state: Position, uid: str, targets: tuple[Hex, ...]) -> bool:
    """Must a battle against `targets` leave `uid` out (bound_elsewhere, asked of one unit)?"""
    combat = state.game.combat
    if combat is None or combat.must_attack is None or uid not in state.pos:
        return False
    near = _attackable_near(state, uid)  # (asked first: most units stand next to no target of a duty)
    return bool(near) and not any(h in near for h in targets) and owes_attack(state, uid)


def owes_attack(state: Position, uid: str) -> bool:
    """Does the game's must_attack hold for `uid` (kept for the position: every listing of a combat decision asks
    it of each unit that may join each battle)?"""
    combat = state.game.combat
    assert combat is not None and combat.must_attack is not None  # asked only in games with the rule
    answers = state._cache.get(MUST_ATTACK)
    if answers is None:
        answers = state._cache[MUST_ATTACK] = {}
    found = answers.get(uid)
    if found is None:
        found = answers[uid] = _holds(state, combat.must_attack, uid)
    return found


MUST_ATTACK: Final = "must attack"  # the cache's key of must_attack's answers, unit -> bool


def left_out(state: Position, frame: "Declare", joinable: list[str]) -> list[str]:
    """Units whose duty is open, that could join this battle, and would have no enemy hex left to attack without
    it (a unit that reaches the battle only at range and stands next to no enemy owes nothing)."""
    combat = state.game.combat
    if combat is None or combat.must_attack is None:
        return []
    return [uid for uid in joinable if uid in state.pos and _attackable_near(state, uid)
            and not _attackable_near(state, uid, frame.targets) and owes_attack(state, uid)]


def stranded(state: Position, frame: "Declare") -> list[Hex]:
    """Hexes holding enemies that must be attacked which this battle, resolved as declared, would leave with no
    attacker although another plan attacks them: fewer such hexes can be attacked after it than before. Counted as
    one battle per hex, each unit in one battle (a matching of units to hexes); empty when the battle is fine."""
    if state.game.combat is None or state.game.combat.must_be_attacked is None:
        return []
    attacked = open_duties(state)[1]
    if not attacked:
        return []
    pos = state.pos
    owed = sorted({pos[u] for u in attacked})
    attackers = _attackers_of(state, owed)
    before = _matching(owed, attackers, set())
    rest = [h for h in owed if h not in frame.targets]
    after = _matching(rest, attackers, set(frame.attackers))
    if len(owed) - len(rest) + len(after) >= len(before):
        return []
    used = set(frame.attackers)
    return [h for h in rest if h not in after and used.intersection(attackers[h])] or \
        [h for h in rest if h not in after]


def _attackers_of(state: Position, hexes: list[Hex]) -> dict[Hex, list[str]]:
    """For each hex, the phasing units next to it that could attack it in a battle of its own now."""
    occupants, neighbours = stacking.occupants(state), state.tables.neighbours
    ready = ready_to_attack(state)
    found = {}
    for h in hexes:
        near = [u for n in neighbours[h] for u in occupants.get(n, ()) if u in ready]
        near = [u for u in near if joining.may_join(state, u, (h,), ())]
        bound = bound_elsewhere(state, set(near), (h,))
        found[h] = sorted((u for u in near if u not in bound), key=state.tables.unit_order.__getitem__)
    return found


def _matching(hexes: list[Hex], attackers: dict[Hex, list[str]], unavailable: set[str]) -> dict[Hex, str]:
    """A largest matching of hexes to distinct units able to attack them (augmenting paths; the sets are small)."""
    owner: dict[str, Hex] = {}
    for h in hexes:
        _place(h, set(), attackers, unavailable, owner)
    return {h: u for u, h in owner.items()}


def _place(h: Hex, seen: set[str], attackers: dict[Hex, list[str]], unavailable: set[str], owner: dict[str, Hex]) -> bool:
    """_matching's augmenting path from `h`, if one exists (`owner` updated along it). (Not a nested function: one
    that calls itself is a reference cycle, left for the cycle collector.)"""
    for u in attackers[h]:
        if u in unavailable or u in seen:
            continue
        seen.add(u)
        if u not in owner or _place(owner[u], seen, attackers, unavailable, owner):
            owner[u] = h
            return True
    return False


def why_not_end(state: Position) -> tuple[str, str | None] | None:
    """Why the combat phase may not end yet (None: nothing keeps it going)."""
    attack, attacked = open_duties(state)
    if not attack and not attacked:
        return None
    name = state.unit_name
    parts = []
    if attack:
        parts.append(f"{', '.join(name(u) for u in attack)} must still attack (next to an enemy that may be attacked)")
    if attacked:
        hexes = sorted({state.pos[u] for u in attacked})
        parts.append(f"the units in {', '.join(hexes)} must still be attacked ({', '.join(name(u) for u in attacked)})")
    return "combat is mandatory: " + "; ".join(parts), "mandatory_combat"


def why_not_join(state: Position, uid: str, targets: tuple[Hex, ...]) -> tuple[str, str] | None:
    """Why `uid` may not join a battle against `targets` for the duty it owes elsewhere (None: it may)."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    if not bound_elsewhere(state, {uid}, targets):
        return None
    target = state.game.combat.must_attack_target
    if target is not None and not any(holds_target(state, h) for h in targets):
        return (f"combat is mandatory: {state.unit_name(uid)} must attack a unit for which the game's condition "
                f"(must_attack_target = {target.source}) holds, and {' and '.join(targets)} holds none",
                "mandatory_combat")
    near = _attackable_near(state, uid)
    return (f"combat is mandatory: {state.unit_name(uid)} must attack an enemy next to it ({', '.join(near)}) and "
            f"may join no battle against {' and '.join(targets)} before it has", "mandatory_combat")


def why_stranded(state: Position, hexes: list[Hex]) -> tuple[str, str | None]:
    return (f"combat is mandatory: this battle would leave the units in {', '.join(hexes)} with no unit left to "
            f"attack them, and they must be attacked: attack {'it' if len(hexes) == 1 else 'them'} with another unit, "
            "or leave the unit they need out of this battle", "mandatory_combat")


def why_not_resolve(state: Position, units: list[str]) -> tuple[str, str | None]:
    names = ", ".join(state.unit_name(u) for u in units)
    return (f"combat is mandatory: {names} must attack and would have no other enemy to attack: add "
            f"{'it' if len(units) == 1 else 'them'} to this battle ('with UNIT')", "mandatory_combat")
