"""Resolve a battle: combat by combat, then the battle's loser and both army states.

`fight_battle` plays a whole battle with a source of dice and a decider for
reserves. `fight_combat` is one step over a small immutable `BattleState`
(reserves left, casualty points, losses counted by outcome), so that the odds
module can enumerate every die of a combat and merge equal states.

Side 0 is the attacker, who orders the combats (its line as written).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Protocol

from rulec.battle.army import ArmyCounts, army_state
from rulec.battle.decisions import Decider, ReserveOffer
from rulec.battle.deployment import Combat, Deployment, Sides, deploy
from rulec.battle.forces import Force
from rulec.battle.scoring import Modifier, outcome_of, total, unit_modifiers
from rulec.runtime import model as m


class Dice(Protocol):
    def roll(self) -> int: ...


class SeededDice:
    """Dice from `random.Random(seed)`: the same seed gives the same battle."""

    def __init__(self, seed: int, faces: int = 6):
        self.random = Random(seed)
        self.faces = faces

    def roll(self) -> int:
        return self.random.randint(1, self.faces)


@dataclass(frozen=True)
class BattleSetup:
    """Everything a battle is fought with; forces[0] attacks."""

    system: m.BattleSystem
    forces: tuple[Force, Force]
    die: int = 6
    skirmish: bool = False


@dataclass(frozen=True)
class Roll:
    side: int
    unit: int
    die: int
    modifiers: tuple[Modifier, ...]
    from_reserve: bool = False

    @property
    def score(self) -> int:
        return self.die + total(self.modifiers)


@dataclass(frozen=True)
class CombatResult:
    combat: Combat
    rolls: tuple[Roll, ...]
    scores: tuple[int, int]
    outcome: m.OutcomeBand
    loser: int | None
    committed: Sides  # reserve units fed in, per side


@dataclass(frozen=True)
class BattleState:
    """What the rest of a battle depends on; equal states have equal futures."""

    reserves: Sides
    casualties: tuple[int, int] = (0, 0)
    losses: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())  # per side: (outcome, units), sorted


@dataclass(frozen=True)
class CombatPlan:
    """A combat's fixed facts: the line units' modifiers and each reserve unit's modifiers there."""

    combat: Combat
    line: tuple[tuple[int, int, tuple[Modifier, ...]], ...]  # (side, unit, modifiers), attacker first
    reserve: tuple[dict[int, tuple[Modifier, ...]], dict[int, tuple[Modifier, ...]]]


@dataclass(frozen=True)
class SideResult:
    side: int
    casualty_points: int
    counts: ArmyCounts
    state: m.ArmyState
    lost: bool | None  # None: a drawn battle
    effect: str
    exhausted: bool


@dataclass(frozen=True)
class BattleResult:
    setup: BattleSetup
    deployment: Deployment
    combats: tuple[CombatResult, ...]
    sides: tuple[SideResult, SideResult]
    loser: int | None
    escalated: "BattleResult | None" = field(default=None)  # a skirmish that grew into an open battle

    @property
    def final(self) -> "BattleResult":
        return self.escalated.final if self.escalated else self


# ----------------------------------------------------------------- planning
def plan_combats(setup: BattleSetup, deployment: Deployment) -> tuple[CombatPlan, ...]:
    system, forces = setup.system, setup.forces
    plans = []
    for combat in deployment.combats:
        line = []
        for side in (0, 1):
            enemies = [forces[1 - side].units[i] for i in combat.units[1 - side]]
            for index in combat.units[side]:
                line.append((side, index, unit_modifiers(system, forces[side], forces[side].units[index], enemies)))
        reserve: list[dict[int, tuple[Modifier, ...]]] = []
        for side in (0, 1):
            enemies = [forces[1 - side].units[i] for i in combat.units[1 - side]]
            reserve.append({index: unit_modifiers(system, forces[side], forces[side].units[index], enemies, from_reserve=True)
                            for index in deployment.reserve[side]})
        plans.append(CombatPlan(combat, tuple(line), (reserve[0], reserve[1])))
    return tuple(plans)


# ------------------------------------------------------------------- combat
def fight_combat(setup: BattleSetup, plan: CombatPlan, state: BattleState, dice: Dice,
                 decider: Decider) -> tuple[BattleState, CombatResult]:
    """Roll a combat, let both sides feed in reserves, and score its outcome."""
    rolls = [Roll(side, unit, dice.roll(), modifiers) for side, unit, modifiers in plan.line]
    scores = [0, 0]
    for roll in rolls:
        scores[roll.side] += roll.score
    reserves = [list(state.reserves[0]), list(state.reserves[1])]
    committed: list[list[int]] = [[], []]
    while True:  # ask until both sides decline: that accepts the result
        behind = 0 if scores[0] < scores[1] else 1 if scores[1] < scores[0] else None
        order = (0, 1) if behind in (None, 0) else (1, 0)
        for side in order:
            if not reserves[side]:
                continue
            offer = ReserveOffer(side, plan.combat.number, (scores[0], scores[1]),
                                 tuple((i, plan.reserve[side][i]) for i in reserves[side]), plan.combat.units)
            choice = decider.commit(offer, setup.forces)
            if choice is not None:
                if choice not in reserves[side]:
                    raise ValueError(f"unit {choice} is not in reserve")
                reserves[side].remove(choice)
                committed[side].append(choice)
                roll = Roll(side, choice, dice.roll(), plan.reserve[side][choice], from_reserve=True)
                rolls.append(roll)
                scores[side] += roll.score
                break
        else:
            break
    outcome, loser = outcome_of(setup.system, (scores[0], scores[1]))
    casualties = list(state.casualties)
    losses = [dict(state.losses[0]), dict(state.losses[1])]
    if loser is not None:
        casualties[loser] += outcome.casualty_points
        fought = len(plan.combat.units[loser]) + len(committed[loser])
        losses[loser][outcome.id] = losses[loser].get(outcome.id, 0) + fought
    new_state = BattleState(reserves=(tuple(reserves[0]), tuple(reserves[1])), casualties=(casualties[0], casualties[1]),
                            losses=(tuple(sorted(losses[0].items())), tuple(sorted(losses[1].items()))))
    result = CombatResult(plan.combat, tuple(rolls), (scores[0], scores[1]), outcome, loser,
                          (tuple(committed[0]), tuple(committed[1])))
    return new_state, result


# ------------------------------------------------------------------- battle
def start(deployment: Deployment) -> BattleState:
    return BattleState(reserves=deployment.reserve)


def escalates(setup: BattleSetup, deployment: Deployment, state: BattleState) -> bool:
    """A skirmish grows into an open battle when both sides have fed in their whole reserve."""
    return (setup.skirmish and setup.system.skirmish.escalate
            and all(deployment.reserve[side] and not state.reserves[side] for side in (0, 1)))


def judge(setup: BattleSetup, deployment: Deployment, state: BattleState) -> tuple[tuple[SideResult, SideResult], int | None]:
    """The battle's loser (more casualty points; None when equal) and each side's army state."""
    system = setup.system
    a, b = state.casualties
    loser = None if a == b else (0 if a > b else 1)
    names = tuple(band.id for band in system.outcomes if not band.even)
    results = []
    for side in (0, 1):
        units = len(deployment.line[side]) + len(deployment.reserve[side])
        counts = ArmyCounts(units, dict(state.losses[side]), names)
        row = army_state(system, counts)
        lost = None if loser is None else loser == side
        as_loser = lost if lost is not None else system.drawn_battle == "both_as_loser"
        effect = row.if_loser if as_loser else row.if_winner
        exhausted = row.loser_exhausted if as_loser else row.winner_exhausted
        results.append(SideResult(side, state.casualties[side], counts, row, lost, effect, exhausted))
    return (results[0], results[1]), loser


class PreparedBattle:
    """A battle's deployment and combat plans, worked out once for many fights (odds, Monte Carlo)."""

    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.deployment = deploy(setup.system, setup.forces, skirmish=setup.skirmish)
        self.plans = plan_combats(setup, self.deployment)
        self._open_battle: PreparedBattle | None = None

    @property
    def open_battle(self) -> "PreparedBattle":
        """The open battle with the full armies that a skirmish may grow into."""
        if self._open_battle is None:
            self._open_battle = PreparedBattle(BattleSetup(self.setup.system, self.setup.forces, self.setup.die, skirmish=False))
        return self._open_battle


def fight_battle(setup: BattleSetup, dice: Dice, decider: Decider) -> BattleResult:
    """Deploy, fight every combat in the attacker's order, judge; a skirmish may grow into an open battle."""
    return fight_prepared(PreparedBattle(setup), dice, decider)


def fight_prepared(battle: PreparedBattle, dice: Dice, decider: Decider) -> BattleResult:
    setup, deployment = battle.setup, battle.deployment
    state = start(deployment)
    combats = []
    for plan in battle.plans:
        state, result = fight_combat(setup, plan, state, dice, decider)
        combats.append(result)
    sides, loser = judge(setup, deployment, state)
    escalated = fight_prepared(battle.open_battle, dice, decider) if escalates(setup, deployment, state) else None
    return BattleResult(setup, deployment, tuple(combats), sides, loser, escalated)
