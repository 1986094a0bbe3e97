"""Battles declared step by step, and resolved: the combat phase's own decisions.

In a combat phase the phasing player names a target hex (`attack 0807`), adds
attackers one at a time (`with 357`), then resolves the battle (`resolve`) or
cancels it (`cancel`). Only eligible units are offered: next to a target, able
to attack, not yet attacked this phase. No decision offers more than one action
per hex or unit, so 18 units around a hex give 18 `with` orders and a `resolve`,
not 2^18 groups. Resolving marks the units as having fought and waits for the die
(a `Roll` frame); the roll looks the result up and hands its effects to effects.py.

A game may instead declare every battle first (`combat { declare = all_first }`):
then `resolve` only declares the battle, which waits in a `Declared` frame; more
battles may be declared until the attacker fights one (`fight HEX`), and then it
fights the rest one by one in the order it chooses, each with the units still on
the map against the units then in the target hexes.

With `combat { multi_hex = true }` a battle may have several target hexes: while it
is declared, `attack HEX` adds another enemy hex that every attacker so far is next
to; every attacker must be next to every target. A unit of a type with a `range`
above 1 may instead attack targets in range with a clear line of sight (sight.py);
whether it then retreats or advances is up to the result's effects (an advance is
only ever into a hex next to the advancing unit).

A game's `combat { may_join = ... }` (joining.py) narrows who may join which battle: a
unit is offered (`with UNIT`) only where it holds for that battle as declared so far,
a multi-hex battle takes another hex only where it still holds for every attacker, and
`attack HEX` is offered only where some unit may join; a unit that owes a
`must_attack_target` duty joins only battles against such a target (duties.py).
"""

from __future__ import annotations

from typing import Final, Iterable, Iterator

from rulec.engine import combat as fight
from rulec.engine import duties, history, joining, markers, modifiers, phases, sight, stacking
from rulec.engine.actions import ATTACK, CANCEL, END, FIGHT, RESOLVE, WITH, Action
from rulec.engine.frames import Battle, Declare, Declared, Effects, Roll
from rulec.engine.hex_bits import hexes_in_order
from rulec.engine.move_memory import obstacles
from rulec.engine.position import Position
from rulec.engine.records import BattleReport
from rulec.engine.statuses import ON_MAP
from rulec.runtime.model import Hex


# ------------------------------------------------------------ the combat phase: pick a target
# The cache's keys of what a combat phase's decision lists (target_actions) and of may_be_joined's answers (by
# target). They depend on nothing a step of a battle's declaration changes (only the battle being declared does),
# so they are kept from step to step (GameState's _KEPT_WHILE_DECLARING): a declaration called off lists the phase's
# targets as they were.
TARGETS: Final = "targets"
JOINABLE_TARGETS: Final = "joinable targets"
JOINED: Final = "may be joined"


def target_actions(state: Position, joinable_only: bool = True) -> list[Action]:
    """`attack HEX` for each enemy hex that may still be attacked by a unit next to it (and, `joinable_only`,
    that some unit may join a battle against: the game's may_join, the duties of must_attack). Kept for the
    position (sampling asks for all of them, then for the one drawn)."""
    if state.game.combat is None:
        return []
    kept = state._cache.get(JOINABLE_TARGETS if joinable_only else TARGETS)
    if kept is None:
        kept = state._cache.get(TARGETS)
        if kept is None:
            kept = state._cache[TARGETS] = tuple(_targets(state))
        if joinable_only:
            kept = state._cache[JOINABLE_TARGETS] = tuple(_joinable(state, kept))
    return list(kept)


def _targets(state: Position) -> list[Action]:
    """`attack HEX` for each enemy hex that may still be attacked by a unit next to (or in range of) it."""
    side = state.phase.side
    assert side is not None  # a combat phase is a side's
    occupants = stacking.occupants(state)
    units, defended = state._units, state.defended
    ready = duties.ready_to_attack(state)
    if not ready:
        return []
    # The enemy hexes next to a unit that may still attack (or in range of a ranged one), as bits of hex numbers: the
    # hexes next to where they stand (Tables.map_steps, backward: a hex is one when a neighbour of it is one of them)
    # and those ranged units see, among the enemy's
    tables, pos, ranged = state.tables, state.pos, ranged_units(state)
    bit = tables.hex_bit
    spots = in_range = 0
    standing = set()  # (a hex once: units stack)
    for uid in ready:
        h = pos.get(uid)
        if h is None:
            continue
        if ranged and uid in ranged:
            for seen in sight.in_sight(tables, h, ranged[uid]):
                in_range |= bit[seen]
        else:
            standing.add(h)
    for h in standing:
        spots |= bit[h]
    near = (tables.map_steps(backward=True).after(spots) | in_range) & obstacles(state, side)[0]
    actions = []
    for h in hexes_in_order(near, tables.numbered):  # (numbered: the hexes sorted)
        there = occupants[h]
        # A hex stays open while it holds a unit not yet attacked this phase: units that
        # retreated into it after defending elsewhere defend with their host again.
        if units[there[0]].side == side or (defended and defended.issuperset(there)):
            continue
        actions.append(Action.attack(h))
    return actions


def _joinable(state: Position, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """Of `attack HEX` actions, those some unit may join a battle against (the game's may_join, duties)."""
    combat = state.game.combat
    assert combat is not None  # a battle is fought by the game's combat rules
    if combat.may_join is not None or combat.must_attack is not None:
        actions = tuple(a for a in actions if a.hex is not None and may_be_joined(state, a.hex))
    return actions


def may_be_joined(state: Position, target: Hex) -> bool:
    """Whether some unit may join a battle against `target` alone: `eligible` of that battle is not empty, found
    without listing every unit it holds (asked of every target hex at every listing of a combat decision; kept for
    the position)."""
    answers = state._cache.get(JOINED)
    if answers is None:
        answers = state._cache[JOINED] = {}
    found = answers.get(target)
    if found is None:
        found = answers[target] = _may_be_joined(state, target)
    return found


def _may_be_joined(state: Position, target: Hex) -> bool:
    return _joined_by_one(state, (target,), _able_to_join(state, (target,), ()))


def may_attack(state: Position, target: Hex) -> bool:
    """Is `attack target` among the combat phase's own actions (target_actions), asked of the one hex?"""
    if target not in stacking.occupants(state) or Action.attack(target) not in target_actions(state, joinable_only=False):
        return False
    combat = state.game.combat
    assert combat is not None  # a battle is fought by the game's combat rules
    return (combat.may_join is None and combat.must_attack is None) or may_be_joined(state, target)


def declare(state: Position, action: Action) -> None:
    assert state.phase.side is not None  # a combat phase is a side's
    assert action.hex is not None  # `attack HEX`
    state._stack.append(Declare(state.phase.side, (action.hex,)))


# ------------------------------------------------------------ the Declare frame
def eligible(state: Position, frame: Declare, targets: tuple[Hex, ...] | None = None) -> list[str]:
    """Units that may still join the battle (next to every target), in game-file order."""
    targets = targets or frame.targets
    found = set(_able_to_join(state, targets, frame.attackers))
    combat = state.game.combat
    assert combat is not None  # a battle is fought by the game's combat rules
    if combat.may_join is not None:
        found = {u for u in found if joining.may_join(state, u, targets, frame.attackers)}
    if combat.must_attack is not None:  # a unit whose duty is open joins only a battle that meets it
        found -= duties.bound_elsewhere(state, found, targets)
    return sorted(found, key=state.tables.unit_order.__getitem__)


def _able_to_join(state: Position, targets: tuple[Hex, ...], attackers: tuple[str, ...]) -> Iterator[str]:
    """The units that may still attack, not among `attackers`, next to every target (or, ranged, with every target
    in range and in sight), before may_join and duties; a unit may come twice."""
    ready = duties.ready_to_attack(state)
    occupants, neighbours = stacking.occupants(state), state.tables.neighbours
    first, rest = targets[0], targets[1:]
    for n in neighbours[first]:
        if all(h in neighbours[n] for h in rest):
            for u in occupants.get(n, ()):
                if u in ready and u not in attackers:
                    yield u
    for uid, reach in ranged_units(state).items():
        h = state.pos.get(uid)
        if h is not None and uid in ready and uid not in attackers and \
                sight.in_sight(state.tables, h, reach).issuperset(targets):
            yield uid


def ranged_units(state: Position) -> dict[str, int]:
    """The units whose type (on the side they show now) has a range above 1 -> that range."""
    kinds = sight.type_ranges(state.tables)
    if not kinds:
        return {}
    found = state._cache.get("ranged")
    if found is None:
        found = state._cache["ranged"] = {uid: kinds[u.type] for uid, u in state._units.items() if u.type in kinds}
    return found


def reaches(state: Position, uid: str, target: Hex) -> bool:
    """May the unit where it stands attack `target`: next to it, or (a ranged unit) in range and in sight?"""
    h = state.pos[uid]
    reach = ranged_units(state).get(uid)
    return target in (sight.in_sight(state.tables, h, reach) if reach else state.tables.neighbours[h])


def more_targets(state: Position, frame: Declare) -> list[Action]:
    """Multi-hex battles: `attack HEX` for each further enemy hex next to every attacker so far that
    some unit able to join could attack together with the targets so far."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    if not state.game.combat.multi_hex:
        return []
    actions = []
    neighbours, pos = state.tables.neighbours, state.pos
    ranged = bool(ranged_units(state))
    # No ranged unit: with no attacker yet, the units next to every target so far, of which a battle taking another
    # hex may be joined by those next to it too (_able_to_join's units for the hexes together); with attackers, the
    # hexes next to all of them (reaches). Found once, not for each hex.
    able = list(_able_to_join(state, frame.targets, ())) if not frame.attackers and not ranged else None
    around: set[Hex] | None = None
    if frame.attackers and not ranged:
        around = set(neighbours[pos[frame.attackers[0]]])
        for u in frame.attackers[1:]:
            around.intersection_update(neighbours[pos[u]])
    for target in target_actions(state, joinable_only=False):  # enemy hexes not yet attacked this phase
        h = target.hex
        assert h is not None  # `attack HEX`
        if h in frame.targets:
            continue
        if able is not None:
            if _joined_by_one(state, frame.targets + (h,), [u for u in able if h in neighbours[pos[u]]]):
                actions.append(target)
        elif around is not None:
            if h in around and not refused_by_more(state, frame, h):
                actions.append(target)
        elif all(reaches(state, u, h) for u in frame.attackers) and not refused_by_more(state, frame, h) and \
                (frame.attackers or eligible(state, frame, frame.targets + (h,))):
            actions.append(target)
    return actions


def _joined_by_one(state: Position, targets: tuple[Hex, ...], able: Iterable[str]) -> bool:
    """Whether one of `able` (units able to attack `targets`) may join a battle against them with no attacker yet:
    eligible is not empty, found without listing them all."""
    combat = state.game.combat
    assert combat is not None  # a battle is fought by the game's combat rules
    for uid in able:
        if (combat.may_join is None or joining.may_join(state, uid, targets, ())) and \
                not duties.bound_away(state, uid, targets):
            return True
    return False


def refused_by_more(state: Position, frame: Declare, h: Hex) -> list[str]:
    """The attackers so far that may not stay in the battle if it takes `h` too: the game's may_join fails for
    them against the hexes together (with the other attackers as the battle's `attackers`)."""
    targets = tuple(sorted(frame.targets + (h,)))
    refused = [u for u in frame.attackers
               if not joining.may_join(state, u, targets, tuple(a for a in frame.attackers if a != u))]
    return refused


def declare_legal(state: Position, frame: Declare) -> list[Action]:
    joinable = eligible(state, frame)
    actions = [Action.with_unit(u) for u in joinable] + more_targets(state, frame)
    if frame.attackers and not duties.left_out(state, frame, joinable) and not duties.stranded(state, frame):
        actions.append(Action.resolve())
    actions.append(Action.cancel())
    return actions


def declare_apply(state: Position, frame: Declare, action: Action) -> None:
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    if action.kind == WITH:
        assert action.unit is not None  # `with UNIT`
        order = state.tables.unit_order
        state._stack[-1] = frame.with_attackers(tuple(sorted(frame.attackers + (action.unit,), key=order.__getitem__)))
    elif action.kind == ATTACK:  # another target of a multi-hex battle
        assert action.hex is not None  # `attack HEX`
        state._stack[-1] = frame.with_targets(tuple(sorted(frame.targets + (action.hex,))))
    elif action.kind == RESOLVE:
        state._stack.pop()
        battle = battle_of(state, frame)
        state.attacked.update(battle.attackers)
        state.defended.update(battle.defenders)
        history.record(state, "attacked", battle.attackers)
        history.record(state, "defended", battle.defenders)
        if state.game.combat.declare == "all_first":
            below = state._stack[-1] if state._stack else None
            if type(below) is Declared:
                state._stack[-1] = below.with_battles(below.battles + (frame,), below.fighting)
            else:
                state._stack.append(Declared(frame.side, (frame,)))
        else:
            state._stack.append(Roll(battle))
    elif action.kind == CANCEL:
        state._stack.pop()


def declare_why(state: Position, frame: Declare, action: Action) -> tuple[str, str | None]:
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    if action.kind == WITH:
        assert action.unit is not None  # `with UNIT`
        return why_not_join(state, frame, action.unit)
    if action.kind == RESOLVE and frame.attackers:
        missing = duties.left_out(state, frame, eligible(state, frame))
        if missing:
            return duties.why_not_resolve(state, missing)
        stranded = duties.stranded(state, frame)
        if stranded:
            return duties.why_stranded(state, stranded)
    if action.kind == ATTACK and action.hex and not action.units:
        if not state.game.combat.multi_hex:
            return (f"a battle has one target hex in this game: resolve or cancel the battle against "
                    f"{' '.join(frame.targets)} first", "declare_attack")
        refused = refused_by_more(state, frame, action.hex)
        if refused:
            assert state.game.combat.may_join is not None  # (refused by it)
            return (f"{action.hex} may not join this battle: the game's condition (may_join = "
                    f"{state.game.combat.may_join.source}) fails for {', '.join(map(state.unit_name, refused))} "
                    "against the hexes together", "join")
        return (f"{action.hex} may not join this battle: every attacker must be next to every target hex, and the "
                "hex must hold enemy units not yet attacked this phase", "declare_attack")
    return (f"the battle against {' '.join(frame.targets)} is being declared: add attackers (`with UNIT`), "
            "`resolve` it or `cancel` it", "declare_attack")


def why_not_join(state: Position, frame: Declare, uid: str) -> tuple[str, str | None]:
    """Why `uid` may not join the battle being declared ."""
    name = state.tables.short_name.get(uid, uid)
    if uid in frame.attackers:
        return f"{name} already attacks in this battle", None
    return why_not_attack(state, uid, frame.targets) or joining.why_not(state, uid, frame.targets, frame.attackers) or \
        duties.why_not_join(state, uid, frame.targets) or (f"{name} may not attack", None)


def why_no_one_joins(state: Position, target: Hex) -> tuple[str, str | None] | None:
    """Why no unit able to attack `target` may join a battle against it (the game's may_join, a duty owed
    elsewhere); None when no such unit stands next to it, or one may join."""
    assert state.phase.side is not None  # a combat phase is a side's
    frame = Declare(state.phase.side, (target,))
    ready = [u for u in sorted(duties.ready_to_attack(state), key=state.tables.unit_order.__getitem__)
             if u in state.pos and reaches(state, u, target)]
    if not ready or eligible(state, frame):
        return None
    return joining.why_not(state, ready[0], frame.targets, ()) or duties.why_not_join(state, ready[0], frame.targets)


def why_not_attack(state: Position, uid: str, targets: tuple[Hex, ...]) -> tuple[str, str | None] | None:
    """Why `uid` may not attack `targets` at all this phase (None: nothing found against it)."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    name = state.tables.short_name.get(uid, uid)
    if state.where.get(uid) != ON_MAP or state._units[uid].side != state.phase.side:
        return f"{name} is not a unit of the phasing side on the map", None
    if uid in state.attacked:  # within the scope the game sets (one_attack_per_unit)
        scope = "player-turn" if state.game.combat.one_attack_per_unit == "player_turn" else "phase"
        return f"{name} has already attacked this {scope}", "one_attack"
    refused = markers.refusal(state, uid, "attack")
    if refused is not None:
        return refused
    if not all(reaches(state, uid, h) for h in targets):
        return out_of_reach(state, uid, targets)
    if duties.can_attack(state, uid) and state.game.combat.may_attack is not None:
        return f"{name} may not attack: the game's condition (may_attack = {state.game.combat.may_attack.source}) fails", None
    return None


def out_of_reach(state: Position, uid: str, targets: tuple[Hex, ...]) -> tuple[str, str | None]:
    """Why `uid` may not attack `targets` from where it stands."""
    name = state.tables.short_name.get(uid, uid)
    if uid in ranged_units(state):
        return (f"{name} does not reach {' and '.join(targets)}: out of its range of "
                f"{ranged_units(state)[uid]}, or the line of sight is blocked", "adjacent")
    return f"{name} is not adjacent to {' and '.join(targets)}", "adjacent"


def battle_of(state: Position, frame: Declare) -> Battle:
    """The battle as it stands now: its attackers still on the map against the units in its targets."""
    occupants = stacking.occupants(state)
    defenders = tuple(u for h in frame.targets for u in occupants.get(h, ()))
    attackers = tuple(u for u in frame.attackers if state.where[u] == ON_MAP)
    return Battle(frame.side, frame.targets, attackers, tuple(sorted({state.pos[u] for u in attackers})),
                  defenders, odds(state, frame.targets, attackers) if attackers and defenders else None)


# ------------------------------------------------------------ the Declared frame (declare every battle first)
def declared_legal(state: Position, frame: Declared) -> list[Action]:
    if frame.battles:
        fights = [Action.fight(b.targets[0]) for b in frame.battles]
        if not frame.fighting and any(duties.open_duties(state)):
            return target_actions(state)  # mandatory combat: every battle it asks for is declared first
        return fights if frame.fighting else target_actions(state) + fights
    return [Action.end()]


def declared_apply(state: Position, frame: Declared, action: Action) -> None:
    if action.kind == ATTACK:
        declare(state, action)
    elif action.kind == FIGHT:
        chosen = next(b for b in frame.battles if b.targets[0] == action.hex)
        state._stack[-1] = frame.with_battles(tuple(b for b in frame.battles if b is not chosen), True)
        battle = battle_of(state, chosen)
        if battle.attackers and battle.defenders:  # else the battle lapses: one side is gone
            state._stack.append(Roll(battle))
    elif action.kind == END:
        state._stack.pop()
        phases.end_phase(state)


def declared_why(state: Position, frame: Declared, action: Action) -> tuple[str, str | None]:
    if action.kind == FIGHT and not frame.fighting and (why := duties.why_not_end(state)):
        return why
    if frame.battles:
        waiting = " ".join(b.targets[0] for b in frame.battles)
        more = "" if frame.fighting else " (or declare another with 'attack HEX')"
        return f"the declared battles must be fought first: 'fight HEX' for {waiting}{more}", "declare_attack"
    return "every declared battle has been fought: the phase may only end", "declare_attack"


def odds(state: Position, targets: tuple[Hex, ...], attackers: tuple[str, ...]) -> fight.Odds:
    """The column and modifiers a battle of `attackers` against `targets` would be resolved with now."""
    occupants = stacking.occupants(state)
    if not any(state._modifiers):  # the game (with its options) has no modifier: printed strengths, terrain alone
        units = state._units
        return fight.odds(state.game, state.tables, sum(units[u].strength for u in attackers),
                          sum(units[u].strength for h in targets for u in occupants.get(h, ())),
                          [state.pos[u] for u in attackers], targets[0], targets[1:])
    attack, attack_modifiers = modifiers.total(state, attackers, "attack")
    defence, defence_modifiers = modifiers.total(state, [u for h in targets for u in occupants.get(h, ())], "defence")
    applied = tuple(dict.fromkeys(attack_modifiers + defence_modifiers))
    return fight.odds(state.game, state.tables, attack, defence, [state.pos[u] for u in attackers], targets[0], targets[1:],
                      modifiers.battle_steps(state, attackers, targets), applied)


# ------------------------------------------------------------ the Roll frame (chance)
def roll_legal(state: Position, frame: Roll) -> list[Action]:
    return [Action.roll(n) for n in range(1, state.game.info.die + 1)]


def roll_results(state: Position, frame: Roll) -> list[str]:
    """The result code each of roll_legal's rolls gives (the column's, after the die modifier): two rolls of one
    result leave the same position (nothing but the report of the battle, last_battle, and the history reads the
    roll itself)."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    table = state.game.tables[state.game.combat.table]
    odds = frame.odds
    return [fight.result_code(table, odds.column, n, odds.drm) for n in range(1, state.game.info.die + 1)]


def roll_apply(state: Position, frame: Roll, action: Action) -> None:
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    state._stack.pop()
    battle = frame.battle
    assert battle.odds is not None and action.number is not None  # a battle rolled for has its odds; `roll N`
    table = state.game.tables[state.game.combat.table]
    code = fight.result_code(table, battle.odds.column, action.number, battle.odds.drm)
    state.last_battle = BattleReport(battle.hex, battle.attackers, battle.defenders, battle.odds, action.number, code,
                                     battle)
    state._stack.append(Effects(battle, state.game.results[code].effects))


def roll_why(state: Position, frame: Roll, action: Action) -> tuple[str, str | None]:
    return "the declared battle's die must be rolled first", "declare_attack"
