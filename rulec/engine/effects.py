"""The effects interpreter: carries out a combat result's effects, one at a time, in order.

After the die roll an `Effects` frame holds the result's effects still to do.
Each step takes the first: an elimination happens at once (to the attackers, also to the
units that share their fate, combat { share_fate }, as do their retreats and markers); a retreat puts one
`Retreat` frame per unit above it (retreats.py), an exchange or a loss of strength or of steps
a `Loss` frame (the losing side picks who pays), an advance an `Advance` frame
(advances.py). Those are decided before the next effect is taken, so the effects
happen in the order the game file lists them.
"""

from __future__ import annotations

from rulec.engine import advances, changes, joining, markers, procedures, retreats, stacking, steps
from rulec.engine.actions import Action
from rulec.engine.context import EngineContext
from rulec.engine.frames import Battle, Effects, Loss
from rulec.engine.position import Position
from rulec.engine.statuses import ON_MAP


def units_of(state: Position, battle: Battle, who: str | None, spared: frozenset[str] | None = None) -> tuple[str, ...]:
    """The battle's attackers or defenders still on the map (but those the result passes by)."""
    units = battle.attackers if who == "attacker" else battle.defenders
    return tuple(u for u in units if state.where[u] == ON_MAP and not (spared and u in spared))


def spared_units(state: Position, battle: Battle) -> frozenset[str]:
    """The attackers and defenders the result passes by (the game's `spared`), asked before its first effect."""
    condition = state.game.combat.spared if state.game.combat is not None else None
    if condition is None:
        return frozenset()
    context = joining.battle_context(state, battle.side, battle.attackers, battle.attacker_hexes, battle.defenders,
                                     battle.targets)
    found = set()
    for uid in (*battle.attackers, *battle.defenders):
        context.unit = state.unit(uid)
        if condition(context):
            found.add(uid)
    return frozenset(found)


def sharing_fate(state: Position, battle: Battle) -> tuple[str, ...]:
    """The units in the attackers' hexes, not attacking, that suffer the attackers' result with them
    (the game's `share_fate`), in the order they stand there."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    condition = state.game.combat.share_fate
    if condition is None:
        return ()
    occupants = stacking.occupants(state)
    context = EngineContext(state)
    context.attackers = [state.unit(u) for u in battle.attackers]
    context.defenders = [state.unit(u) for u in battle.defenders]
    context.attacker_hexes, context.defender_hexes = battle.attacker_hexes, battle.targets
    context.attacker_side = battle.side
    context.defender_side = context.defenders[0].side if context.defenders else ""
    sharing = []
    for uid in (u for h in battle.attacker_hexes for u in occupants.get(h, ()) if u not in battle.attackers):
        context.unit = state.unit(uid)
        if condition(context):
            sharing.append(uid)
    return tuple(sharing)


def suffering(state: Position, frame: Effects, who: str | None) -> tuple[str, ...]:
    """The units an elimination, a retreat or a marker of `who` strikes: that side's, and for the attacker
    those sharing its fate (found before the result's first effect, while they still stand with it)."""
    units = units_of(state, frame.battle, who, frame.spared)
    if who != "attacker" or not frame.sharing:
        return units
    return units + tuple(u for u in frame.sharing if state.where[u] == ON_MAP)


def marked_targets(state: Position, frame: Effects, who: str | None, marker_id: str) -> tuple[str, ...]:
    """What `mark(who, M)` marks: that side's units still on the map (with the attacker, those sharing its
    fate), or for a marker on hexes the hexes they fought from (the attackers' hexes, the attacked hexes)."""
    battle = frame.battle
    if state.game.markers[marker_id].on == "hex":
        return battle.attacker_hexes if who == "attacker" else battle.targets
    return suffering(state, frame, who)


def standing(state: Position, battle: Battle, who: str) -> tuple[int, int]:
    """The strength and the steps a side of the battle has on the map now."""
    units = units_of(state, battle, who)
    return sum(state._units[u].strength for u in units), sum(steps.steps_left(state, u) for u in units)


def lost_so_far(state: Position, frame: Effects, who: str, unit_of: str) -> int:
    """What a side of the battle has lost since its result began, in strength or in steps (`lost(defender)`)."""
    assert frame.before is not None, "measured before the result's first effect"
    before = frame.before[0 if who == "attacker" else 1]
    now = standing(state, frame.battle, who)
    index = 0 if unit_of == "strength" else 1
    return before[index] - now[index]


# ------------------------------------------------------------ the Effects frame
def effects_settle(state: Position, frame: Effects) -> bool:
    """Carry out the next effect (always progress: the frame never waits for a decision itself)."""
    if not frame.effects:
        state._stack.pop()
        procedures.run_game_hooks(state, "battle_resolved")
        return True
    if frame.sharing is None:
        frame = frame.with_fates(sharing_fate(state, frame.battle), spared_units(state, frame.battle),
                                 (standing(state, frame.battle, "attacker"), standing(state, frame.battle, "defender")))
    effect = frame.effects[0]
    state._stack[-1] = frame.with_effects(frame.effects[1:])
    battle = frame.battle
    if effect.kind == "eliminate":
        for uid in suffering(state, frame, effect.who):
            changes.eliminate(state, uid)
    elif effect.kind == "retreat":
        assert effect.who is not None  # retreat(who, hexes)
        retreats.order_retreats(state, battle, effect.who, effect.amount, suffering(state, frame, effect.who))
    elif effect.kind == "exchange":
        spared = frame.spared or frozenset()
        lost = sum(state._units[u].strength for u in battle.defenders if u not in spared)
        for uid in units_of(state, battle, "defender", spared):
            changes.eliminate(state, uid)
        state._stack.append(Loss(battle.side, units_of(state, battle, "attacker", spared), lost))
    elif effect.kind in ("lose", "lose_steps"):
        payers = units_of(state, battle, effect.who, frame.spared)
        amount = effect.amount if effect.lost_by is None else lost_so_far(state, frame, effect.lost_by, effect.lost_in)
        if payers and amount > 0:
            state._stack.append(Loss(state._units[payers[0]].side, payers, amount, in_steps=effect.kind == "lose_steps"))
    elif effect.kind == "advance":
        advances.offer(state, frame, effect.amount, effect.who or "attacker")
    elif effect.kind in ("mark", "unmark"):
        change = markers.mark_each if effect.kind == "mark" else markers.unmark_each
        change(state, marked_targets(state, frame, effect.who, effect.marker), effect.marker)
    else:  # the checker accepts no other kind
        raise ValueError(f"unknown combat effect '{effect.kind}'")
    return True


# ------------------------------------------------------------ the Loss frame (an exchange, a loss of strength)
def loss_payers(state: Position, frame: Loss) -> tuple[str, ...]:
    return tuple(u for u in frame.units if state.where[u] == ON_MAP)


def loss_legal(state: Position, frame: Loss) -> list[Action]:
    return [Action.lose(u) for u in loss_payers(state, frame)]


def loss_settle(state: Position, frame: Loss) -> bool:
    payers = loss_payers(state, frame)
    if frame.owed > 0 and len(payers) > 1:
        return False  # the losing side chooses who pays next
    state._stack.pop()
    owed = frame.owed
    while owed > 0 and payers and state.where[payers[0]] == ON_MAP:  # the only unit left pays, a step at a time
        paid = steps.lose_step(state, payers[0])
        owed -= 1 if frame.in_steps else paid
    return True


def loss_apply(state: Position, frame: Loss, action: Action) -> None:
    assert action.unit is not None  # `lose UNIT`
    paid = steps.lose_step(state, action.unit)  # one step: a flip to the reduced side, or the unit's elimination
    state._stack[-1] = frame.with_owed(frame.owed - (1 if frame.in_steps else paid))


def loss_why(state: Position, frame: Loss, action: Action) -> tuple[str, str | None]:
    owed = f"{frame.owed} step{'s' if frame.owed != 1 else ''}" if frame.in_steps else f"{frame.owed} strength"
    return (f"{frame.side} must first choose which units pay for the battle's losses ({owed} still "
            "owed): `lose UNIT`", "exchange")
